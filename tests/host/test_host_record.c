// Record and replay through the script host: 600 frames of a demo with
// scripted input, a reload and a reset, replayed bit for bit (every frame's
// hash) from the recording alone, with 1 and 2 workers; tampered, cut and
// malformed recordings; the API's refusals. The recording this writes is
// replayed again by ctest through steer-run and through a steer-run whose
// engine has another constant (host.replay_*).
#include "host_test.h"

#include <inttypes.h>
#include <stdlib.h>

#define FRAMES 600
#define RELOAD_AT 300 // the reload comes after this many frames
#define RESET_AT 450

static const char *const tune_lua = "return { rate = 0.3 }\n";

// v1: wanderers and followers; input spawns followers at the mouse; values
// from outside (os.clock, os.time, os.date, math.randomseed()) every frame.
static const char *const v1 =
    "local steer = require 'steer'\n"
    "local tune = require 'lib.tune'\n"
    "local outside = 0\n"
    "return {\n"
    "  roles = {\n"
    "    wanderer = steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.4 },\n"
    "    follower = function(agent)\n"
    "      return steer.blend{\n"
    "        { steer.separation{ radius = 2 }, weight = 2 },\n"
    "        { steer.cohesion{ radius = 8 }, weight = 1 },\n"
    "        { steer.wander{ wander_rate = tune.rate }, weight = 0.5 },\n"
    "      }\n"
    "    end,\n"
    "  },\n"
    "  setup = function(world)\n"
    "    math.randomseed()\n"
    "    world:spawn{ x = 0, y = 0, role = 'wanderer', tag = 'leader', max_speed = 3 }\n"
    "    for i = 1, 20 do world:spawn{ x = (i % 5) * 2 - 4, y = (i // 5) * 2 - 4, role = 'follower' } end\n"
    "  end,\n"
    "  update = function(world, dt, input)\n"
    "    outside = outside + os.clock() * 0 + #os.date('%Y') * 0 + os.time() * 0\n"
    "    if input.keys.space then\n"
    "      world:spawn{ x = input.x + math.random(), y = input.y, role = 'follower' }\n"
    "    end\n"
    "    if input.pressed.buttons & 2 ~= 0 then world:spawn{ x = input.x, y = -input.y, role = 'follower' } end\n"
    "  end,\n"
    "}\n";

// v2: the same, and hunters that pursue the leader with the default
// max_prediction, spawned by on_reload: the variant engine's constant
// matters only from the reload on.
static const char *const v2 =
    "local steer = require 'steer'\n"
    "local tune = require 'lib.tune'\n"
    "local function leader(world)\n"
    "  for a in world:agents() do if a.tag == 'leader' then return a end end\n"
    "end\n"
    "local function hunters(world)\n"
    "  local target = leader(world)\n"
    "  for i = 1, 3 do\n"
    "    world:spawn{ x = 12, y = i * 3, max_speed = 4, steering = steer.pursue{ target = target } }\n"
    "  end\n"
    "end\n"
    "return {\n"
    "  roles = {\n"
    "    wanderer = steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.6 },\n"
    "    follower = function(agent)\n"
    "      return steer.blend{\n"
    "        { steer.separation{ radius = 2.5 }, weight = 2 },\n"
    "        { steer.cohesion{ radius = 8 }, weight = 1 },\n"
    "        { steer.wander{ wander_rate = tune.rate }, weight = 0.5 },\n"
    "      }\n"
    "    end,\n"
    "  },\n"
    "  setup = function(world)\n"
    "    world:spawn{ x = 0, y = 0, role = 'wanderer', tag = 'leader', max_speed = 3 }\n"
    "    for i = 1, 20 do world:spawn{ x = (i % 5) * 2 - 4, y = (i // 5) * 2 - 4, role = 'follower' } end\n"
    "    hunters(world)\n"
    "  end,\n"
    "  update = function(world, dt, input)\n"
    "    if input.keys.space then world:spawn{ x = input.x, y = input.y + math.random(), role = 'follower' } end\n"
    "    if input.released.buttons & 2 ~= 0 then world:spawn{ x = -input.x, y = input.y, role = 'follower' } end\n"
    "  end,\n"
    "  on_reload = function(world) hunters(world) end,\n"
    "}\n";

static steer_host_input scripted_input(int frame)
{
    steer_host_input in = {0};
    in.mouse_x = 6.0f * cosf(0.05f * (float)frame);
    in.mouse_y = 6.0f * sinf(0.05f * (float)frame);
    in.buttons = (frame / 40) % 2 == 0 ? 1u : 0u;
    // space held for a few frames now and then: followers spawn at the mouse
    bool space = (frame >= 100 && frame < 103) || (frame >= 350 && frame < 352) || frame == 500;
    if (space) in.keys |= 1ull << STEER_HOST_KEY_SPACE;
    // a right click shorter than a frame: only its edges
    if (frame == 200 || frame == 450) in.buttons_pressed = in.buttons_released = 2u;
    return in;
}

static uint64_t recorded[FRAMES + 1];

static char rec_path[600];
static const char *dir;
static test_log log_lines;

static steer_host_def quiet_def(void)
{
    steer_host_def def = steer_host_default_def();
    def.world.seed = 42;
    def.log = test_log_fn;
    def.log_context = &log_lines;
    return def;
}

static void test_record_600_frames(void)
{
    write_in_place(test_path(dir, "main.lua"), v1);
    mkdir(test_path(dir, "lib"), 0755);
    write_in_place(test_path(dir, "lib/tune.lua"), tune_lua);
    snprintf(rec_path, sizeof rec_path, "%s", test_path(dir, "run.steerrec"));

    steer_host_def def = quiet_def();
    steer_host *h = steer_host_create(&def);
    CHECK(h != NULL);
    CHECK(steer_host_record(h, rec_path, 1) == 0);
    CHECK(steer_host_record(h, rec_path, 1) == -1); // already recording
    CHECK(strstr(steer_host_last_error(h), "already recording") != NULL);
    CHECK(steer_host_load(h, test_path(dir, "main.lua")) == 0);
    recorded[0] = steer_world_hash(steer_host_world(h));
    for (int f = 1; f <= FRAMES; ++f) {
        if (f == RELOAD_AT + 1) {
            write_in_place(test_path(dir, "main.lua"), v2);
            CHECK(steer_host_reload(h) == 0);
        }
        if (f == RESET_AT + 1) CHECK(steer_host_reset(h) == 0);
        steer_host_input in = scripted_input(f);
        CHECK(steer_host_update(h, 1.0f / 60.0f, &in) == 0);
        recorded[f] = steer_world_hash(steer_host_world(h));
    }
    CHECK(steer_world_agent_count(steer_host_world(h)) == 21 + 3 + 1); // v2 setup at the reset, space at 500
    CHECK(steer_host_record_end(h) == 0);
    CHECK(steer_host_record_end(h) == -1); // no longer recording
    steer_host_destroy(h);
}

// Replay the whole recording: every frame's hash as recorded.
static void replay_all(int workers)
{
    // the replay needs nothing but the recording
    write_in_place(test_path(dir, "main.lua"), "error('the replay read the file on disk')\n");
    remove(test_path(dir, "lib/tune.lua"));
    steer_replay_options opt = steer_replay_default_options();
    opt.worker_count = workers;
    char err[512];
    steer_replay *r = steer_replay_open(rec_path, &opt, err, sizeof err);
    if (r == NULL) fprintf(stderr, "%s\n", err);
    CHECK(r != NULL);
    if (r == NULL) return;
    CHECK(steer_replay_frame_count(r) == FRAMES);
    int status, mismatches = 0;
    while ((status = steer_replay_step(r)) == 1) {
        long f = steer_replay_frame(r);
        if (steer_world_hash(steer_host_world(steer_replay_host(r))) != recorded[f]) ++mismatches;
    }
    if (status != 0) fprintf(stderr, "replay: %s\n", steer_replay_error(r));
    CHECK(status == 0);
    CHECK(mismatches == 0);
    CHECK(steer_replay_frame(r) == FRAMES);
    CHECK(steer_replay_divergent_frame(r) == -1);
    CHECK(steer_replay_error(r) == NULL);
    CHECK(steer_replay_step(r) == 0); // stays at the end
    CHECK(steer_world_hash(steer_host_world(steer_replay_host(r))) == recorded[FRAMES]);
    steer_replay_close(r);
}

static void test_replay_identical(void) { replay_all(0); }

static void test_replay_two_workers(void) { replay_all(2); }

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    CHECK(fread(s, 1, (size_t)n, f) == (size_t)n);
    s[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return s;
}

static void spit(const char *path, const char *s, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    CHECK(fwrite(s, 1, len, f) == len);
    fclose(f);
}

// Replay a file to its end or divergence; returns the status of the last step.
static int replay_file(const char *path, long *divergent, char *msg, size_t msg_size)
{
    char err[512];
    steer_replay *r = steer_replay_open(path, NULL, err, sizeof err);
    if (r == NULL) {
        snprintf(msg, msg_size, "%s", err);
        return -2;
    }
    int status;
    while ((status = steer_replay_step(r)) == 1) {
    }
    *divergent = steer_replay_divergent_frame(r);
    snprintf(msg, msg_size, "%s", steer_replay_error(r) != NULL ? steer_replay_error(r) : "");
    steer_replay_close(r);
    return status;
}

static void test_tampered_and_malformed(void)
{
    size_t len;
    char *text = slurp(rec_path, &len);
    char path[700], msg[1200];
    long divergent = 0;
    snprintf(path, sizeof path, "%s", test_path(dir, "tampered.steerrec"));

    // one hash digit changed in the frames line of frame 200
    char *copy = malloc(len + 1);
    memcpy(copy, text, len + 1);
    char *line = NULL;
    long frames = 0;
    for (char *p = strstr(copy, "\nframes "); p != NULL; p = strstr(p + 1, "\nframes ")) {
        frames += strtol(p + 8, NULL, 10);
        if (frames == 200) {
            line = p;
            break;
        }
    }
    CHECK(line != NULL);
    if (line == NULL) return;
    char *digit = strchr(line + 8, ' ') + 1;
    *digit = *digit == '0' ? '1' : '0';
    spit(path, copy, len);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -1);
    CHECK(divergent == 200);
    CHECK(strstr(msg, "frame 200 (frames, line ") != NULL);
    CHECK(strstr(msg, "world hash") != NULL);

    // the script reads another file than the recording has: named
    memcpy(copy, text, len + 1);
    char *read = strstr(copy, "lib/tune.lua");
    CHECK(read != NULL);
    if (read == NULL) return;
    memcpy(read, "lib/tune.lux", 12);
    spit(path, copy, len);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -1);
    CHECK(divergent == 0);
    CHECK(strstr(msg, "frame 0 (load, line ") != NULL);
    CHECK(strstr(msg, "read '") != NULL && strstr(msg, "lib/tune.lux") != NULL);

    // cut after frame 100: replays what it has, without the final check
    memcpy(copy, text, len + 1);
    frames = 0;
    char *cut = NULL;
    for (char *p = strstr(copy, "\nframes "); p != NULL; p = strstr(p + 1, "\nframes ")) {
        frames += strtol(p + 8, NULL, 10);
        if (frames == 100) {
            cut = strchr(p + 1, '\n') + 1;
            break;
        }
    }
    CHECK(cut != NULL);
    if (cut == NULL) return;
    spit(path, copy, (size_t)(cut - copy));
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == 0);
    CHECK(divergent == -1);

    // malformed: a bad header, an unknown line, a missing file
    spit(path, "steerrec two\n", 13);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "tampered.steerrec:1: not a steer recording") != NULL);
    // another format's recording (1: before the input edges; 3: a newer steer's) is refused by name
    spit(path, "steerrec 1\n", 11);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "tampered.steerrec:1: a recording of format 1, which this steer does not read (it reads "
                      "format 2: record it again with this version)") != NULL);
    spit(path, "steerrec 3\n", 11);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "format 3, which this steer does not read (it reads format 2: a newer steer wrote it)") != NULL);
    memcpy(copy, text, len + 1);
    char *input = strstr(copy, "\ninput ");
    CHECK(input != NULL);
    if (input == NULL) return;
    memcpy(input + 1, "inpot", 5);
    spit(path, copy, len);
    CHECK(replay_file(path, &divergent, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "unknown line 'inpot'") != NULL);
    CHECK(replay_file(test_path(dir, "missing.steerrec"), &divergent, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "cannot open the recording") != NULL);
    free(copy);
    free(text);
}

// Malformed and mutated recordings: a clear error or a divergence, never a
// crash (the sanitizer builds run this too). Mutations from a fixed seed:
// bytes changed, the file cut, a line dropped or repeated.
static void test_mutated_recordings(void)
{
    size_t len;
    char *text = slurp(rec_path, &len);
    char *copy = malloc(2 * len + 2);
    char path[700];
    snprintf(path, sizeof path, "%s", test_path(dir, "mutated.steerrec"));
    uint64_t s = 0x9E3779B97F4A7C15ull;
    int outcomes[3] = {0, 0, 0};
    for (int round = 0; round < 60; ++round) {
        memcpy(copy, text, len + 1);
        size_t n = len;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t at = (size_t)(s >> 33) % len;
        switch (round % 4) {
        case 0: // a few bytes changed
            for (int k = 0; k < 3; ++k) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                copy[(at + (size_t)(s >> 40) % 64) % len] = (char)(s >> 56);
            }
            break;
        case 1: // cut
            n = at;
            break;
        case 2: { // the line at `at` dropped
            char *b = copy + at;
            while (b > copy && b[-1] != '\n') --b;
            char *e = strchr(copy + at, '\n');
            e = e != NULL ? e + 1 : copy + n;
            memmove(b, e, (size_t)(copy + n - e));
            n -= (size_t)(e - b);
            break;
        }
        default: { // the line at `at` repeated
            char *b = copy + at;
            while (b > copy && b[-1] != '\n') --b;
            char *e = strchr(copy + at, '\n');
            e = e != NULL ? e + 1 : copy + n;
            size_t l = (size_t)(e - b);
            memmove(e + l, e, (size_t)(copy + n - e));
            memcpy(e, b, l);
            n += l;
            break;
        }
        }
        spit(path, copy, n);
        char err[512];
        steer_replay *r = steer_replay_open(path, NULL, err, sizeof err);
        if (r == NULL) {
            CHECK(strstr(err, "mutated.steerrec") != NULL); // the message names the file
            ++outcomes[0];
            continue;
        }
        int status = 1;
        // a mutated count may ask for a billion frames: a bound
        for (int f = 0; f < 2000 && status == 1; ++f) status = steer_replay_step(r);
        CHECK(status == 1 || status == 0 || status == -1);
        if (status == -1) {
            CHECK(steer_replay_error(r) != NULL);
            CHECK(steer_replay_divergent_frame(r) >= 0 || strstr(steer_replay_error(r), "line ") != NULL);
        }
        ++outcomes[status < 0 ? 1 : 2];
        steer_replay_close(r);
    }
    printf("mutated recordings: %d refused, %d diverged, %d replayed\n", outcomes[0], outcomes[1], outcomes[2]);
    CHECK(outcomes[0] > 0 && outcomes[1] > 0); // both kinds of outcome were exercised
    free(copy);
    free(text);
}

// Open and run a recording with options; returns the last step's status, or
// -2 with the open's error in msg.
static int replay_with(const char *path, const steer_replay_options *opt, char *msg, size_t msg_size)
{
    steer_replay *r = steer_replay_open(path, opt, msg, msg_size);
    if (r == NULL) return -2;
    int status;
    while ((status = steer_replay_step(r)) == 1) {
    }
    snprintf(msg, msg_size, "%s", steer_replay_error(r) != NULL ? steer_replay_error(r) : "");
    steer_replay_close(r);
    return status;
}

static void test_refusals(void)
{
    write_in_place(test_path(dir, "main.lua"), v1);
    write_in_place(test_path(dir, "lib/tune.lua"), tune_lua);
    steer_host_def def = quiet_def();
    steer_host *h = steer_host_create(&def);
    CHECK(steer_host_record(h, test_path(dir, "x.steerrec"), 0) == -1);
    CHECK(strstr(steer_host_last_error(h), "hash_every") != NULL);
    CHECK(steer_host_record(h, test_path(dir, "no/such/dir/x.steerrec"), 1) == -1);
    CHECK(strstr(steer_host_last_error(h), "cannot create") != NULL);
    CHECK(steer_host_load(h, test_path(dir, "main.lua")) == 0);
    CHECK(steer_host_record(h, test_path(dir, "x.steerrec"), 1) == -1);
    CHECK(strstr(steer_host_last_error(h), "before the first steer_host_load") != NULL);
    steer_host_destroy(h);
    // a recording is line-based: line breaks in a root or a loaded path are
    // refused with a message instead of writing a file that does not parse
    steer_host_def nl = quiet_def();
    nl.script_root = "scripts\nend 0 0";
    h = steer_host_create(&nl);
    CHECK(steer_host_record(h, test_path(dir, "nl.steerrec"), 1) == -1);
    CHECK(strstr(steer_host_last_error(h), "line break") != NULL);
    steer_host_destroy(h);
    nl = quiet_def();
    h = steer_host_create(&nl);
    CHECK(steer_host_record(h, test_path(dir, "nl.steerrec"), 1) == 0);
    CHECK(steer_host_load(h, "main\n.lua") == -1);
    CHECK(strstr(steer_host_last_error(h), "line break") != NULL);
    CHECK(steer_host_load(h, test_path(dir, "main.lua")) == 0);
    CHECK(steer_host_record_end(h) == 0);
    steer_host_destroy(h);
    char msg[512];
    CHECK(replay_with(test_path(dir, "nl.steerrec"), NULL, msg, sizeof msg) == 0);
    steer_replay_options opt = steer_replay_default_options();
    opt.worker_count = -1;
    char err[256];
    CHECK(steer_replay_open(rec_path, &opt, err, sizeof err) == NULL);
    CHECK(strstr(err, "worker_count") != NULL);
    steer_replay_close(NULL);
}

// Replace the first occurrence of `from` in text (len bytes) by `to` and
// write the result to path.
static void spit_replaced(const char *path, const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECK(at != NULL);
    if (at == NULL) return;
    size_t len = strlen(text), head = (size_t)(at - text), n = strlen(from), m = strlen(to);
    char *out = malloc(len - n + m + 1);
    memcpy(out, text, head);
    memcpy(out + head, to, m);
    memcpy(out + head + m, at + n, len - head - n + 1);
    spit(path, out, len - n + m);
    free(out);
}

// A recording is untrusted input: its header cannot grant itself io and
// os.execute, lift the replayer's budgets, or hand the world unchecked values,
// and a replay reads no file of unbounded size.
static void test_replay_trust_and_budgets(void)
{
    char path[700], tampered[700], msg[1200];
    static const char *const loops =
        "local n = 0\n"
        "return { setup = function(world) world:spawn{ x = 1 } end,\n"
        "  update = function(world, dt, input) n = n + 1; if n == 3 then while true do end end end }\n";
    write_in_place(test_path(dir, "loops.lua"), loops);
    snprintf(path, sizeof path, "%s", test_path(dir, "loops.steerrec"));
    snprintf(tampered, sizeof tampered, "%s", test_path(dir, "loops-tampered.steerrec"));

    // recorded with the default budget: frame 3's endless loop is stopped
    steer_host_def def = quiet_def();
    def.instruction_budget = 100000;
    steer_host *h = steer_host_create(&def);
    CHECK(steer_host_record(h, path, 1) == 0);
    CHECK(steer_host_load(h, test_path(dir, "loops.lua")) == 0);
    steer_host_input in = {0};
    for (int f = 1; f <= 6; ++f) steer_host_update(h, 1.0f / 60.0f, &in);
    CHECK(steer_host_record_end(h) == 0);
    steer_host_destroy(h);
    size_t len;
    char *text = slurp(path, &len);
    CHECK(strstr(text, "host trusted=0 memory_cap=67108864 instruction_budget=100000\n") != NULL);
    steer_replay_options opt = steer_replay_default_options();
    opt.instruction_budget = 100000;
    CHECK(replay_with(path, &opt, msg, sizeof msg) == 0);

    // no budget and no cap in the header: the replayer's apply, so the loop
    // is stopped where it was recorded (before, the replay never ended)
    spit_replaced(tampered, text, "memory_cap=67108864 instruction_budget=100000",
                  "memory_cap=0 instruction_budget=0");
    CHECK(replay_with(tampered, &opt, msg, sizeof msg) == 0);
    // a looser budget than the replayer's is not taken either
    spit_replaced(tampered, text, "instruction_budget=100000", "instruction_budget=900000000");
    CHECK(replay_with(tampered, &opt, msg, sizeof msg) == 0);

    // trusted=1: refused unless the replayer trusts the file
    spit_replaced(tampered, text, "host trusted=0", "host trusted=1");
    CHECK(replay_with(tampered, &opt, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "recorded with a trusted host") != NULL);
    CHECK(strstr(msg, "--trusted") != NULL);
    steer_replay_options trusting = opt;
    trusting.trusted = true;
    CHECK(replay_with(tampered, &trusting, msg, sizeof msg) == 0);

    // the world's values are checked as Lua checks them, each named
    static const char *const bad[][3] = {
        {"integrator=0", "integrator=7", "integrator"},
        {"agent_capacity=", "agent_capacity=-5", "capacity"},
        {"workers=1", "workers=999", "workers"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        // replace the whole "key=value" token
        const char *at = strstr(text, bad[i][0]);
        CHECK(at != NULL);
        if (at == NULL) continue;
        size_t tok = strcspn(at, " \n");
        char from[64];
        snprintf(from, sizeof from, "%.*s", (int)tok, at);
        spit_replaced(tampered, text, from, bad[i][1]);
        CHECK(replay_with(tampered, &opt, msg, sizeof msg) == -2);
        CHECK(strstr(msg, "the recorded world's") != NULL);
        CHECK(strstr(msg, bad[i][2]) != NULL);
    }
    const char *cell = strstr(text, "cell_size=");
    CHECK(cell != NULL);
    if (cell != NULL) {
        char from[64];
        snprintf(from, sizeof from, "%.*s", (int)strcspn(cell, " \n"), cell);
        spit_replaced(tampered, text, from, "cell_size=nan");
        CHECK(replay_with(tampered, &opt, msg, sizeof msg) == -2);
        CHECK(strstr(msg, "cell_size") != NULL);
    }

    // bounded reads: a file over the limit, and a device that never ends
    steer_replay_options small = opt;
    small.max_file_size = 100;
    CHECK(replay_with(path, &small, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "larger than 100 bytes") != NULL);
    small.max_file_size = (size_t)1 << 20;
    CHECK(replay_with("/dev/zero", &small, msg, sizeof msg) == -2);
    CHECK(strstr(msg, "larger than 1048576 bytes") != NULL);
    free(text);
}

// A failed first load, then the reload that loads the fixed script: the
// replay does the same from the recording alone.
static void test_replay_failed_first_load(void)
{
    const char *path = test_path(dir, "first.lua");
    char rec[600];
    snprintf(rec, sizeof rec, "%s", test_path(dir, "first.steerrec"));
    write_in_place(path, "return { roles = { x = }\n");
    steer_host_def def = quiet_def();
    steer_host *h = steer_host_create(&def);
    CHECK(steer_host_record(h, rec, 1) == 0);
    CHECK(steer_host_load(h, path) == -1);
    write_in_place(path, "return { setup = function(world) world:spawn{ x = 1, vx = 2 } end }\n");
    CHECK(steer_host_reload(h) == 0);
    for (int f = 0; f < 30; ++f) CHECK(steer_host_update(h, 1.0f / 60.0f, NULL) == 0);
    uint64_t hash = steer_world_hash(steer_host_world(h));
    CHECK(steer_host_record_end(h) == 0);
    steer_host_destroy(h);
    write_in_place(path, "error('the replay read the file on disk')\n");
    steer_replay *r = steer_replay_open(rec, NULL, NULL, 0);
    CHECK(r != NULL);
    if (r == NULL) return;
    int status;
    while ((status = steer_replay_step(r)) == 1) {
    }
    if (status != 0) fprintf(stderr, "replay: %s\n", steer_replay_error(r));
    CHECK(status == 0);
    CHECK(steer_world_agent_count(steer_host_world(steer_replay_host(r))) == 1);
    CHECK(steer_world_hash(steer_host_world(steer_replay_host(r))) == hash);
    steer_replay_close(r);
}

// The same seed gives the same math.random at every load: a script that
// draws from it runs the same.
static void test_seeded_math_random(void)
{
    write_in_place(test_path(dir, "random.lua"),
                   "return { setup = function(world)\n"
                   "  world:spawn{ x = math.random() * 10, y = math.random(1, 100) }\n"
                   "end }\n");
    uint64_t hashes[2];
    for (int i = 0; i < 2; ++i) {
        steer_host_def def = quiet_def();
        steer_host *h = steer_host_create(&def);
        CHECK(steer_host_load(h, test_path(dir, "random.lua")) == 0);
        hashes[i] = steer_world_hash(steer_host_world(h));
        CHECK(steer_host_reset(h) == 0);
        CHECK(steer_world_hash(steer_host_world(h)) == hashes[i]);
        steer_host_destroy(h);
    }
    CHECK(hashes[0] == hashes[1]);
}

int main(void)
{
    dir = test_dir("record");
    RUN(test_record_600_frames);
    RUN(test_replay_identical);
    RUN(test_replay_two_workers);
    RUN(test_tampered_and_malformed);
    RUN(test_mutated_recordings);
    RUN(test_refusals);
    RUN(test_replay_trust_and_budgets);
    RUN(test_seeded_math_random);
    RUN(test_replay_failed_first_load);
    // the recording stays for host.replay_cli and host.replay_changed_constant
    return TEST_RESULT();
}
