// fuzz_host: a seeded fuzzer for the script host and its recordings,
// through the public steer/host.h only.
//
//   fuzz_host --seed N [--count K] [--ops N] [--verbose] [--dir D]
//   fuzz_host --seconds S [--ops N] [--timeout T] [--dir D]
//
// Each seed writes random scripts (roles as behaviours and as functions,
// setup and update that spawn, remove and build formations, hostile lines:
// io, os.execute, endless loops, huge strings), and drives a sandboxed host
// that records: load, frames, reloads with scripts whose roles, setup or
// syntax fail, resets. Invariants: a failed reload leaves the world as it was
// (agent count and hash), every agent state finite, no engine assertion, the
// engine's memory below a bound, the unchanged recording replays identical.
// Then the recording is mutated (header fields, trust, budgets, world
// values, blob lengths and bodies, lines dropped, doubled, cut) and each
// mutant is replayed sandboxed with tight budgets: it may be refused or
// diverge, but must not crash, hang or open anything (a mutant that writes
// a marker file through io or os.execute must leave none). --seconds runs
// each seed in a child process, so crashes and hangs are caught.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "steer/host.h"

static struct {
    fuzz_options o;
    const char *self, *dir;
} opt = {{0, 0, 1, 60, 0, 0.0, 120.0}, "fuzz_host", NULL};

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static char violation_text[1024];
static int has_violation;
static void violation(const char *fmt, ...)
{
    if (has_violation) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(violation_text, sizeof violation_text, fmt, ap);
    va_end(ap);
    has_violation = 1;
}

static long asserts;
static const char *last_assert;
static void count_assert(const char *condition, const char *file, int line, void *context)
{
    (void)file;
    (void)line;
    (void)context;
    ++asserts;
    last_assert = condition;
}

// The engine's allocations, counted (#12: a script's engine memory).
static size_t engine_bytes, engine_peak;
static void *count_alloc(size_t size, void *context)
{
    (void)context;
    void *p = malloc(size);
    if (p != NULL) {
        engine_bytes += size;
        if (engine_bytes > engine_peak) engine_peak = engine_bytes;
    }
    return p;
}
static void count_free(void *memory, size_t size, void *context)
{
    (void)context;
    if (memory != NULL) engine_bytes -= size;
    free(memory);
}
#define ENGINE_BOUND ((size_t)512 << 20)

/* ---- scripts ------------------------------------------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;
static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)k + 1 > b->cap) {
        b->cap = (b->n + (size_t)k + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) abort();
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static const char *const ROLE_NAMES[] = {"walker", "guard", "crowd"};

static const char *role_behaviour(void)
{
    static const char *const B[] = {
        "steer.wander{ wander_rate = 0.5 }",
        "steer.arrive{ target = { 5, 5 }, slow_radius = 3 }",
        "steer.reciprocal_avoidance{ preferred = steer.seek{ target = { -8, 2 } }, radius = 4 }",
        "steer.blend{ { steer.separation{ radius = 2 }, weight = 2 }, { steer.cohesion{ radius = 6 }, weight = 1 } }",
        "steer.priority{ steer.obstacle_avoidance{ lookahead = 2 }, steer.wander{} }",
        "steer.behaviour(function(a) return -a.y, a.x, 0 end)",
    };
    return B[rnd(COUNT_OF(B))];
}

// kind: 0 a good version; 1 a role function raises; 2 setup raises;
// 3 a syntax error; 4 the script returns no table
static void write_script(const char *path, int kind, int version)
{
    buf b = {0};
    put(&b, "-- fuzz_host script, version %d\nlocal steer = require \"steer\"\nlocal state = { n = 0 }\n", version);
    if (kind == 3) put(&b, "local x = = 1\n");
    if (kind == 4) {
        put(&b, "return 42\n");
        goto write;
    }
    put(&b, "local roles = {\n");
    for (int i = 0; i < COUNT_OF(ROLE_NAMES); ++i) {
        if (chance(0.5)) {
            put(&b, "  %s = %s,\n", ROLE_NAMES[i], role_behaviour());
        } else {
            put(&b, "  %s = function(agent)\n", ROLE_NAMES[i]);
            if (kind == 1 && chance(0.7)) put(&b, "    if agent.key %% 3 == 0 then error(\"role %s fails\") end\n", ROLE_NAMES[i]);
            if (chance(0.15)) {
                // a role function that tries to change the world (refused: issue 20 #10, #11)
                put(&b, "    if agent.key %% 5 == 1 then pcall(agent.set_position, agent, 1, 1) end\n");
                put(&b, "    if agent.key %% 7 == 2 then pcall(agent.remove, agent) end\n");
            }
            put(&b, "    return %s\n  end,\n", role_behaviour());
        }
    }
    put(&b, "}\nreturn {\n  roles = roles,\n  setup = function(world)\n");
    if (kind == 2) put(&b, "    error(\"setup fails\")\n");
    int n = 1 + rnd(30);
    put(&b, "    for i = 1, %d do world:spawn{ x = (i %% 6) * 1.5 - 4, y = (i // 6) * 1.5 - 4, role = ({ 'walker', 'guard', 'crowd' })[i %% 3 + 1], max_speed = %g } end\n",
        n, 1.0 + unit() * 3.0);
    if (chance(0.4))
        put(&b, "    local ms = {}\n    for a in world:agents() do if #ms < %d then ms[#ms + 1] = a end end\n"
                "    pcall(steer.formation, { members = ms, pattern = '%s', motion = '%s', anchor = { x = 0, y = 0, target = { 6, 6 } } })\n",
            1 + rnd(8), (const char *[]){"line", "v", "circle", "grid"}[rnd(4)], (const char *[]){"steer", "emergent", "rigid"}[rnd(3)]);
    if (chance(0.2)) put(&b, "    world:add_circle(%g, %g, 1.5)\n", unit() * 10 - 5, unit() * 10 - 5);
    put(&b, "  end,\n  update = function(world, dt, input)\n    state.n = state.n + 1\n");
    // frames: random spawns and removals (math.random and os.clock are recorded)
    put(&b, "    if math.random() < 0.2 then world:spawn{ x = input.x, y = math.random() * 4, role = 'walker' } end\n");
    put(&b, "    if math.random() < 0.1 then for a in world:agents() do a:remove() break end end\n");
    put(&b, "    if os.clock() < 0 then print('never') end\n");
    // hostile lines, each sometimes
    if (chance(0.1)) put(&b, "    if state.n %% 7 == 3 then error('update fails') end\n");
    if (chance(0.1)) put(&b, "    if state.n == 4 then while true do end end\n");
    if (chance(0.1)) put(&b, "    if state.n == 5 then local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(1000) end end\n");
    if (chance(0.1)) put(&b, "    pcall(function() local f = io.open('%s.escaped', 'w') if f then f:write('x') f:close() end end)\n", path);
    if (chance(0.1)) put(&b, "    pcall(function() os.execute('touch %s.escaped') end)\n", path);
    if (chance(0.1)) put(&b, "    pcall(loadfile, '/etc/passwd')\n");
    if (chance(0.05)) put(&b, "    if state.n == 6 then return (('a'):rep(2000)):find(('a*'):rep(12) .. 'b') end\n"); // #7
    if (chance(0.05))
        put(&b, "    if state.n == 3 then local pts = {} for i = 1, 60000 do pts[i] = { i, i %% 7 } end\n"
                "      for _ = 1, 60 do pcall(steer.path, pts) end end\n"); // #12
    put(&b, "  end,\n  on_reload = function(world) state.reloads = (state.reloads or 0) + 1 end,\n}\n");
write:;
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(b.p, 1, b.n, f) != b.n) violation("cannot write %s", path);
    if (f != NULL) fclose(f);
    free(b.p);
}

/* ---- the host run ------------------------------------------------------------------------------- */

static void check_world(steer_host *h)
{
    steer_world *w = steer_host_world(h);
    if (w == NULL) return;
    int n = steer_world_agent_count(w);
    for (int i = 0; i < n; ++i) {
        steer_kinematic k = steer_agent_get_state(w, steer_world_agent_at(w, i));
        if (!(isfinite(k.position.x) && isfinite(k.position.y) && isfinite(k.velocity.x) && isfinite(k.velocity.y) &&
              isfinite(k.orientation) && isfinite(k.rotation)))
            violation("a host agent's state is not finite");
    }
}

static long frames_run, reloads_failed, replays, mutants, mutants_refused;

static void host_run(const char *dir, const char *script, const char *rec)
{
    steer_host_def d = steer_host_default_def();
    d.memory_cap = (size_t)16 << 20;
    d.instruction_budget = 2000000;
    d.world.seed = rnd64() % 1000;
    d.world.worker_count = 1 + rnd(4);
    steer_host *h = steer_host_create(&d);
    if (h == NULL) {
        violation("steer_host_create failed");
        return;
    }
    if (steer_host_record(h, rec, 1 + rnd(3)) != 0) violation("record: %s", steer_host_last_error(h));
    write_script(script, chance(0.9) ? 0 : 1 + rnd(4), 0);
    steer_host_load(h, script);
    int version = 0;
    for (int i = 0; i < opt.o.ops && !has_violation; ++i) {
        int r = rnd(20);
        if (r < 15) {
            steer_host_input in = {.mouse_x = (float)(unit() * 10 - 5), .mouse_y = (float)(unit() * 10 - 5), .buttons = (uint32_t)rnd(8), .keys = rnd64(),
                                   .buttons_pressed = (uint32_t)rnd(8), .keys_pressed = rnd64()};
            float dt = chance(0.9) ? 1.0f / 60.0f : (float[]){0.0f, 0.5f, 1e-3f, 2.0f}[rnd(4)];
            steer_host_update(h, dt, chance(0.9) ? &in : NULL);
            ++frames_run;
        } else if (r < 18) {
            // a new version: good, or failing in one of four ways
            int kind = chance(0.5) ? 0 : 1 + rnd(4);
            steer_world *w = steer_host_world(h);
            uint64_t hash = w ? steer_world_hash(w) : 0;
            int count = w ? steer_world_agent_count(w) : 0;
            int before = steer_host_version(h);
            write_script(script, kind, ++version);
            int rc = steer_host_reload(h);
            if (rc != 0) ++reloads_failed;
            // with nothing loaded yet (the first load failed) a reload is a
            // load: one whose setup raises keeps the version, as
            // steer_host_load does, on a new world
            if (rc != 0 && before > 0) {
                w = steer_host_world(h);
                if (steer_host_version(h) != before)
                    violation("a failed reload changed the version: %s", steer_host_last_error(h));
                // #11: a failed reload keeps the last good version and the world as it was
                if (w != NULL && (steer_world_hash(w) != hash || steer_world_agent_count(w) != count))
                    violation("a failed reload (%s) changed the world: %d agents before, %d after",
                              (const char *[]){"good?", "a role raised", "setup raised", "syntax", "no table"}[kind], count,
                              steer_world_agent_count(w));
            }
            if (rc == 0 && (kind == 3 || kind == 4)) violation("a reload of a script that cannot load succeeded");
        } else if (r < 19) {
            if (steer_host_reset(h) != 0 && opt.o.verbose) printf("a reset failed: %s\n", steer_host_last_error(h));
        } else {
            (void)steer_host_memory(h);
            (void)steer_host_last_error(h);
        }
        check_world(h);
        if (asserts > 0) violation("an engine assertion from a script: %s", last_assert);
        if (engine_peak > ENGINE_BOUND) violation("the engine holds %zu bytes for a capped script", engine_peak);
    }
    if (steer_host_record_end(h) != 0) violation("record_end: %s", steer_host_last_error(h));
    steer_host_destroy(h);
    (void)dir;
}

/* ---- replays --------------------------------------------------------------------------------- */

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (p != NULL && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p != NULL) p[n] = 0, *size = (size_t)n;
    return p;
}

// Replay path; returns the last steer_replay_step status, 2 when refused.
static int replay(const char *path, int trusted, long max_frames, char *err, size_t err_size)
{
    steer_replay_options o = steer_replay_default_options();
    o.trusted = trusted;
    o.memory_cap = (size_t)16 << 20;
    o.instruction_budget = 2000000;
    o.max_file_size = (size_t)8 << 20;
    if (chance(0.3)) o.worker_count = 1 + rnd(4);
    steer_replay *r = steer_replay_open(path, &o, err, err_size);
    if (r == NULL) return 2;
    int status = 1;
    for (long i = 0; i < max_frames && status == 1; ++i) status = steer_replay_step(r);
    if (status == -1) snprintf(err, err_size, "%s", steer_replay_error(r) ? steer_replay_error(r) : "(no message)");
    steer_replay_close(r);
    return status;
}

// Put text at the start of the first blob (the script) and fix its length.
static size_t inject(char *p, size_t n, size_t cap, const char *text)
{
    char *h = strstr(p, "\nblob 0 ");
    if (h == NULL) return n;
    char *num = h + 8, *end;
    unsigned long long len = strtoull(num, &end, 10);
    if (*end != '\n') return n;
    char digits[32];
    size_t tn = strlen(text);
    int dn = snprintf(digits, sizeof digits, "%llu", len + tn);
    size_t old = (size_t)(end - num);
    if (n + tn + (size_t)dn >= cap) return n;
    // the new length, then the text after its newline
    memmove(num + dn, end, n - (size_t)(end - p) + 1);
    memcpy(num, digits, (size_t)dn);
    n = n - old + (size_t)dn;
    char *body = num + dn + 1;
    memmove(body + tn, body, n - (size_t)(body - p) + 1);
    memcpy(body, text, tn);
    return n + tn;
}

// One mutation of the recording's text.
static size_t mutate(char *p, size_t n, size_t cap, const char *marker)
{
    static const char *const FIELDS[] = {"trusted=",  "memory_cap=", "instruction_budget=", "seed=", "integrator=",
                                         "cell_size=", "agent_capacity=", "workers=", "hash_every ", "blob 0 ",
                                         "frames ", "input ", "load ", "reload ", "read ", "end "};
    static const char *const VALUES[] = {"0", "1", "-1", "99999999999999999999", "0x1p+200", "nan", "inf", "-0",
                                         "65", "1e-45", "", "x", "4294967296", "2147483648", "18446744073709551615"};
    switch (rnd(8)) {
    case 0: // a header or line field gets another value
    case 1: {
        const char *f = FIELDS[rnd(COUNT_OF(FIELDS))];
        char *at = strstr(p, f);
        if (at == NULL) return n;
        at += strlen(f);
        size_t old = strcspn(at, " \n");
        const char *v = VALUES[rnd(COUNT_OF(VALUES))];
        size_t vn = strlen(v);
        if (n - old + vn >= cap) return n;
        memmove(at + vn, at + old, n - (size_t)(at - p) - old + 1);
        memcpy(at, v, vn);
        return n - old + vn;
    }
    case 2: // bytes flipped
        for (int i = 1 + rnd(8); i > 0 && n > 0; --i) p[rnd((int)n)] ^= (char)(1 << rnd(8));
        return n;
    case 3: // cut short
        return n > 0 ? (size_t)rnd((int)n) : n;
    case 4: { // a line dropped or doubled
        if (n == 0) return n;
        char *a = p + rnd((int)n);
        while (a > p && a[-1] != '\n') --a;
        char *e = strchr(a, '\n');
        size_t len = e ? (size_t)(e - a) + 1 : strlen(a);
        if (chance(0.5)) {
            memmove(a, a + len, n - (size_t)(a - p) - len + 1);
            return n - len;
        }
        if (n + len >= cap) return n;
        memmove(a + len, a, n - (size_t)(a - p) + 1);
        return n + len;
    }
    case 5: { // hostile code in the script's body: must stay in the sandbox
        char line[3200];
        snprintf(line, sizeof line,
                 "pcall(function() os.execute('touch %s') end) pcall(function() io.open('%s', 'w'):close() end)"
                 " local _ = (debug and debug.sethook) and debug.sethook()\n",
                 marker, marker);
        return inject(p, n, cap, line);
    }
    case 6: // a loop in the body (the replayer's budget must stop it)
        return inject(p, n, cap, chance(0.5) ? "while true do end\n" : "local t = {} for i = 1, 1e9 do t[i] = {} end\n");
    default: { // random bytes in a random place
        for (int i = 1 + rnd(16); i > 0 && n > 0; --i) p[rnd((int)n)] = (char)rnd(256);
        return n;
    }
    }
}

static void replays_of(const char *rec, const char *dir) // dir: at most 1024 bytes
{
    char err[1024];
    // the recording as made: identical, with any worker count
    int s = replay(rec, 0, 1000000, err, sizeof err);
    ++replays;
    if (s != 0) violation("the unchanged recording does not replay identical (%d): %s", s, err);
    size_t n;
    char *orig = read_all(rec, &n);
    if (orig == NULL) {
        violation("cannot read the recording back");
        return;
    }
    char mutant[1400], marker[1400];
    snprintf(mutant, sizeof mutant, "%s/mutant.steerrec", dir);
    snprintf(marker, sizeof marker, "%s/escaped", dir);
    size_t cap = n * 2 + 4096;
    char *p = malloc(cap);
    for (int k = 0; k < 6 && !has_violation; ++k) {
        memcpy(p, orig, n + 1);
        size_t m = n;
        // each mutation sees a terminated text: one that cut the text short
        // leaves the old bytes behind, where the next one's strchr would run
        for (int j = 1 + rnd(3); j > 0; --j) {
            m = mutate(p, m, cap, marker);
            p[m] = 0;
        }
        FILE *f = fopen(mutant, "wb");
        if (f == NULL) break;
        fwrite(p, 1, m, f);
        fclose(f);
        remove(marker);
        err[0] = 0;
        int st = replay(mutant, 0, 400, err, sizeof err);
        ++mutants;
        if (st == 2) ++mutants_refused;
        if (st != 2 && strstr(p, "trusted=1") != NULL && strstr(p, "trusted=1") < strstr(p, "\nblob"))
            violation("a recording made trusted was replayed without --trusted");
        struct stat sb;
        if (stat(marker, &sb) == 0) violation("a replayed recording wrote a file outside its sandbox");
        if (asserts > 0) violation("an engine assertion from a replayed recording: %s", last_assert);
        if (engine_peak > ENGINE_BOUND) violation("a replay made the engine hold %zu bytes", engine_peak);
    }
    free(p);
    free(orig);
}

/* ---- driver --------------------------------------------------------------------------------- */

static void replay_command(char *b, size_t size, unsigned long long seed)
{
    snprintf(b, size, "%s --seed %llu --ops %d --dir %s", opt.self, seed, opt.o.ops, opt.dir);
}

static void mkdir_p(const char *path)
{
    char b[2048];
    snprintf(b, sizeof b, "%s", path);
    for (char *c = b + 1; *c; ++c) {
        if (*c != '/') continue;
        *c = 0;
        mkdir(b, 0777);
        *c = '/';
    }
    mkdir(b, 0777);
}

static int run_seed(unsigned long long seed)
{
    has_violation = 0;
    asserts = 0;
    rng_state = seed * 0x2545F4914F6CDD1Dull + 7;
    char dir[1024], script[1200], rec[1200];
    snprintf(dir, sizeof dir, "%.900s/seed%llu", opt.dir, seed);
    mkdir_p(dir);
    snprintf(script, sizeof script, "%s/script.lua", dir);
    snprintf(rec, sizeof rec, "%s/run.steerrec", dir);
    char escaped[1300];
    snprintf(escaped, sizeof escaped, "%s.escaped", script);
    remove(escaped);
    steer_set_assert_fn(count_assert, NULL);
    host_run(dir, script, rec);
    struct stat sb;
    if (!has_violation && stat(escaped, &sb) == 0) violation("a sandboxed script wrote a file");
    if (!has_violation) replays_of(rec, dir);
    steer_set_assert_fn(NULL, NULL);
    if (has_violation) {
        char cmd[4500];
        replay_command(cmd, sizeof cmd, seed);
        printf("FAIL seed %llu: %s\nreplay: %s\n", seed, violation_text, cmd);
        fflush(stdout);
        return 0;
    }
    if (opt.o.verbose)
        printf("seed %llu: %ld frames, %ld failed reloads, %ld replays, %ld mutants (%ld refused), engine peak %zu bytes\n",
               seed, frames_run, reloads_failed, replays, mutants, mutants_refused, engine_peak);
    return 1;
}

static void child_setup(void) { steer_set_allocator(count_alloc, count_free, NULL); }

// A passing seed's scripts and recordings go.
static void passed(unsigned long long seed)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%.1000s/seed%llu'", opt.dir, seed);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s/seed%llu\n", opt.dir, seed);
}

int main(int argc, char **argv)
{
    opt.self = argv[0];
#ifdef FUZZ_HOST_DIR
    opt.dir = FUZZ_HOST_DIR;
#else
    opt.dir = "fuzz_host.scratch";
#endif
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int took = fuzz_common_option(&opt.o, argc, argv, i);
        if (took > 0) i += took - 1;
        else if (strcmp(a, "--dir") == 0 && i + 1 < argc) opt.dir = argv[++i];
        else if (strcmp(a, "--avoid-known") == 0) continue; // (nothing of issue 9 to avoid here)
        else {
            fprintf(stderr, "usage: %s (--seed N [--count K] | --seconds S [--timeout T]) [--ops N] [--dir D] [--verbose]\n", argv[0]);
            return 2;
        }
    }
    if (opt.o.seconds <= 0) steer_set_allocator(count_alloc, count_free, NULL); // (--seconds: in each child)
    fuzz_driver d = {"fuzz_host", opt.o.seconds, opt.o.timeout, opt.o.ops, run_seed, replay_command, child_setup, passed};
    return fuzz_main(&opt.o, &d, argv[0], "");
}
