// replay.c: a replay of a recording (steer/host.h, docs/embedding.md
// "Record and replay"). It reads the file the tape wrote, makes a host with
// the recorded definition, performs the recorded events (load, reload,
// reset, frames with their input) through the public host API, hands the
// tape the recorded values so the script gets them instead of the outside
// world's, and compares the world hashes. Over the host: it uses steer/host.h
// and the tape's playback, never the host's insides.
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer/host.h"
#include "steer/reflect.h"
#include "tape.h"

typedef enum ev_kind { EV_LOAD, EV_RELOAD, EV_RESET, EV_INPUT, EV_FRAMES, EV_END } ev_kind;

/// One event of a replay.
typedef struct tape_event {
    ev_kind kind;
    int line;           ///< in the file, for messages
    int rc;             ///< load, reload, reset: what the call returned
    bool has_hash;      ///< frames: a check after the last of them
    uint64_t hash;      ///< the world hash after the event
    long count;         ///< frames: how many; end: frames in all
    float dt;           ///< input
    steer_host_input in; ///< input
    const char *path;   ///< load
} tape_event;

/// A recording read back: its events, and the values the tape hands the
/// script (pointing into the file's text).
typedef struct replay_tape {
    char *text;          ///< the whole file (paths and blobs point into it)
    tape_event *events;
    int event_count, event_cap;
    steer_host__value *values;
    int value_count, value_cap;
    steer_host__blob *blobs;
    int blob_count, blob_cap;
    steer_host__playback playback;
} replay_tape;

struct steer_replay {
    steer_host *host;
    replay_tape *tape;
    steer_host_log_fn *log; ///< the replay's own lines go where the host's do
    void *log_context;
    int next;            ///< the next event
    long left;           ///< frames left of the current frames event
    float dt;
    steer_host_input in;
    long frame;          ///< frames replayed
    long frame_count;    ///< frames in the recording
    long divergent;      ///< first frame that differed (0: setup), -1: none
    bool ended;
    char message[HOST_ERROR_MAX]; ///< the divergence or failure, "" when none
    char path[HOST_PATH_MAX];
    char root[HOST_PATH_MAX]; ///< the recorded script root (the host's def points here)
};

static uint64_t host_hash(const steer_host *h) { return steer_world_hash(steer_host_world(h)); }

static void tape_free(replay_tape *t)
{
    if (t == NULL) return;
    free(t->blobs);
    free(t->events);
    free(t->values);
    free(t->text);
    free(t);
}

// A warning of the replay itself, as the host logs its lines.
static void warn(const steer_replay *r, const char *fmt, ...)
{
    if (r->log == NULL) return;
    char line[HOST_ERROR_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    r->log(r->log_context, STEER_HOST_LOG_WARNING, line);
}

/* ---- replay: reading a recording -------------------------------------------------- */

typedef struct parser {
    char *p, *end;
    int line;
    const char *name;
    char *error;
    size_t error_size;
} parser;

static bool fail(parser *ps, const char *fmt, ...)
{
    if (ps->error != NULL && ps->error_size > 0) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(ps->error, ps->error_size, "%s:%d: %s", ps->name, ps->line, msg);
    }
    return false;
}

// The next line, NUL-terminated in place; NULL at the end of the file.
static char *next_line(parser *ps)
{
    if (ps->p >= ps->end) return NULL;
    char *s = ps->p;
    char *nl = memchr(s, '\n', (size_t)(ps->end - s));
    if (nl == NULL) nl = ps->end;
    *nl = '\0';
    ps->p = nl < ps->end ? nl + 1 : ps->end;
    ++ps->line;
    return s;
}

static bool parse_float(const char *s, char **end, float *out)
{
    double d = strtod(s, end);
    if (*end == s) return false;
    *out = (float)d;
    return true;
}

static bool parse_hash(const char *s, uint64_t *out)
{
    char *end;
    if (strlen(s) != 16) return false;
    *out = strtoull(s, &end, 16);
    return *end == '\0';
}

// Append an item (its line set) to a growing array.
static bool append(parser *ps, void **items, int *count, int *cap, const void *item, size_t size)
{
    if (!steer_host__grow(items, cap, *count + 1, size)) return fail(ps, "not enough memory");
    memcpy((char *)*items + (size_t)*count * size, item, size);
    ++*count;
    return true;
}

static bool add_event(replay_tape *t, parser *ps, tape_event e)
{
    e.line = ps->line;
    return append(ps, (void **)&t->events, &t->event_count, &t->event_cap, &e, sizeof e);
}

static bool add_value(replay_tape *t, parser *ps, steer_host__value v)
{
    v.line = ps->line;
    return append(ps, (void **)&t->values, &t->value_count, &t->value_cap, &v, sizeof v);
}

// An event line: "load RC HASH PATH", "reload RC HASH", "reset RC HASH".
static bool parse_call(replay_tape *t, parser *ps, ev_kind kind, char *args)
{
    tape_event e = {.kind = kind};
    char *end;
    long rc = strtol(args, &end, 10);
    if (end == args || *end != ' ' || (rc != 0 && rc != -1)) return fail(ps, "expected a result 0 or -1");
    char hash[17];
    if (strlen(end + 1) < 16) return fail(ps, "expected a 16-digit hash");
    memcpy(hash, end + 1, 16);
    hash[16] = '\0';
    if (!parse_hash(hash, &e.hash)) return fail(ps, "expected a 16-digit hash");
    char *rest = end + 17;
    e.rc = (int)rc;
    if (kind == EV_LOAD) {
        if (*rest != ' ' || rest[1] == '\0') return fail(ps, "expected the script's path after the hash");
        e.path = rest + 1;
    } else if (*rest != '\0') {
        return fail(ps, "unexpected text after the hash");
    }
    return add_event(t, ps, e);
}

static bool parse_body(replay_tape *t, parser *ps)
{
    char *line;
    bool ended = false;
    while ((line = next_line(ps)) != NULL) {
        if (line[0] == '\0' || line[0] == '#') continue;
        if (ended) return fail(ps, "nothing may follow the end line");
        char *sp = strchr(line, ' ');
        char *args = sp != NULL ? sp + 1 : line + strlen(line);
        size_t kw = sp != NULL ? (size_t)(sp - line) : strlen(line);
        char *end;
        if (kw == 4 && memcmp(line, "load", 4) == 0) {
            if (!parse_call(t, ps, EV_LOAD, args)) return false;
        } else if (kw == 6 && memcmp(line, "reload", 6) == 0) {
            if (!parse_call(t, ps, EV_RELOAD, args)) return false;
        } else if (kw == 5 && memcmp(line, "reset", 5) == 0) {
            if (!parse_call(t, ps, EV_RESET, args)) return false;
        } else if (kw == 5 && memcmp(line, "input", 5) == 0) {
            tape_event e = {.kind = EV_INPUT};
            static const char shape[] = "expected 'input DT X Y BUTTONS KEYS PRESSED_BUTTONS RELEASED_BUTTONS "
                                        "PRESSED_KEYS RELEASED_KEYS'";
            if (!parse_float(args, &end, &e.dt) || !parse_float(end, &end, &e.in.mouse_x) ||
                !parse_float(end, &end, &e.in.mouse_y))
                return fail(ps, shape);
            // buttons, keys, then the edges: buttons pressed, released, keys pressed, released
            unsigned long long v[6];
            for (int k = 0; k < 6; ++k) {
                char *s = end;
                v[k] = strtoull(s, &end, 10);
                if (end == s || *s != ' ') return fail(ps, shape);
            }
            if (*end != '\0' || v[0] > UINT32_MAX || v[2] > UINT32_MAX || v[3] > UINT32_MAX) return fail(ps, shape);
            if (!(e.dt >= 0.0f && e.dt <= 1.0e4f)) return fail(ps, "dt must be in [0, 10000]");
            e.in.buttons = (uint32_t)v[0];
            e.in.keys = v[1];
            e.in.buttons_pressed = (uint32_t)v[2];
            e.in.buttons_released = (uint32_t)v[3];
            e.in.keys_pressed = v[4];
            e.in.keys_released = v[5];
            if (!add_event(t, ps, e)) return false;
        } else if (kw == 6 && memcmp(line, "frames", 6) == 0) {
            tape_event e = {.kind = EV_FRAMES};
            e.count = strtol(args, &end, 10);
            // (bounded so that the sum of all counts cannot overflow)
            if (end == args || e.count < 1 || e.count > 1000000000L)
                return fail(ps, "expected 'frames COUNT [HASH]' with COUNT in [1, 1e9]");
            if (*end == ' ') {
                if (!parse_hash(end + 1, &e.hash)) return fail(ps, "expected a 16-digit hash after the count");
                e.has_hash = true;
            } else if (*end != '\0') {
                return fail(ps, "expected 'frames COUNT [HASH]'");
            }
            if (!add_event(t, ps, e)) return false;
        } else if (kw == 3 && memcmp(line, "end", 3) == 0) {
            tape_event e = {.kind = EV_END, .has_hash = true};
            e.count = strtol(args, &end, 10);
            if (end == args || e.count < 0 || *end != ' ' || !parse_hash(end + 1, &e.hash))
                return fail(ps, "expected 'end FRAMES HASH'");
            if (!add_event(t, ps, e)) return false;
            ended = true;
        } else if (kw == 4 && memcmp(line, "blob", 4) == 0) {
            long id = strtol(args, &end, 10);
            if (end == args || id != t->blob_count || *end != ' ')
                return fail(ps, "expected 'blob %d LENGTH'", t->blob_count);
            char *s = end + 1;
            unsigned long long len = strtoull(s, &end, 10);
            if (end == s || *end != '\0') return fail(ps, "expected 'blob ID LENGTH'");
            if (len > (unsigned long long)(ps->end - ps->p) || (size_t)(ps->end - ps->p) - len < 1 ||
                ps->p[len] != '\n')
                return fail(ps, "the blob's %llu bytes and a newline do not follow", len);
            if (!steer_host__grow((void **)&t->blobs, &t->blob_cap, t->blob_count + 1, sizeof *t->blobs))
                return fail(ps, "not enough memory");
            t->blobs[t->blob_count++] = (steer_host__blob){ps->p, (size_t)len};
            // the blob's lines still count, so later messages name the right line
            for (size_t i = 0; i < len; ++i) ps->line += ps->p[i] == '\n';
            ps->p += len + 1;
            ++ps->line;
        } else if (kw == 4 && memcmp(line, "read", 4) == 0) {
            steer_host__value v = {.kind = STEER_HOST__VALUE_READ, .blob = -1};
            if (args[0] == '-') {
                end = args + 1;
            } else {
                long id = strtol(args, &end, 10);
                if (end == args || id < 0 || id >= t->blob_count)
                    return fail(ps, "expected 'read BLOB PATH' with a blob already given, or 'read - PATH'");
                v.blob = (int)id;
            }
            if (*end != ' ' || end[1] == '\0') return fail(ps, "expected the path after the blob");
            v.path = end + 1;
            if (!add_value(t, ps, v)) return false;
        } else if (kw == 5 && memcmp(line, "clock", 5) == 0) {
            steer_host__value v = {.kind = STEER_HOST__VALUE_CLOCK};
            v.number = strtod(args, &end);
            if (end == args || *end != '\0') return fail(ps, "expected 'clock SECONDS'");
            if (!add_value(t, ps, v)) return false;
        } else if (kw == 4 && memcmp(line, "time", 4) == 0) {
            steer_host__value v = {.kind = STEER_HOST__VALUE_TIME};
            v.integer = strtoll(args, &end, 10);
            if (end == args || *end != '\0') return fail(ps, "expected 'time SECONDS'");
            if (!add_value(t, ps, v)) return false;
        } else if (kw == 4 && memcmp(line, "seed", 4) == 0) {
            steer_host__value v = {.kind = STEER_HOST__VALUE_SEED};
            v.seed[0] = strtoll(args, &end, 10);
            char *s = end;
            v.seed[1] = strtoll(s, &end, 10);
            if (s == args || end == s || *end != '\0') return fail(ps, "expected 'seed A B'");
            if (!add_value(t, ps, v)) return false;
        } else {
            return fail(ps, "unknown line '%.*s'", (int)(kw < 40 ? kw : 40), line);
        }
    }
    return true;
}

// The header: magic, engine, world, host, root, hash_every.
static bool parse_header(parser *ps, steer_host_def *def, char *root, size_t root_size, int *hash_every,
                         char *engine, size_t engine_size)
{
    char *line = next_line(ps);
    int format;
    char extra;
    if (line != NULL && sscanf(line, "steerrec %d%c", &format, &extra) == 1 && format != STEER_HOST__TAPE_FORMAT)
        return fail(ps, "a recording of format %d, which this steer does not read (it reads format %d%s)", format,
                    STEER_HOST__TAPE_FORMAT,
                    format < STEER_HOST__TAPE_FORMAT ? ": record it again with this version"
                                                     : ": a newer steer wrote it");
    if (line == NULL || strcmp(line, STEER_HOST__TAPE_MAGIC) != 0)
        return fail(ps, "not a steer recording (the first line must be '%s')", STEER_HOST__TAPE_MAGIC);
    line = next_line(ps);
    if (line == NULL || strncmp(line, "engine ", 7) != 0) return fail(ps, "expected 'engine VERSION'");
    snprintf(engine, engine_size, "%s", line + 7);
    line = next_line(ps);
    unsigned long long seed;
    int integrator, capacity, contacts, agent_contacts, workers, used = 0;
    char cell[64];
    if (line == NULL ||
        sscanf(line,
               "world seed=%llu integrator=%d cell_size=%63s agent_capacity=%d resolve_contacts=%d "
               "resolve_agent_contacts=%d workers=%d%n",
               &seed, &integrator, cell, &capacity, &contacts, &agent_contacts, &workers, &used) != 7 ||
        line[used] != '\0')
        return fail(ps, "expected 'world seed=... integrator=... cell_size=... agent_capacity=... "
                        "resolve_contacts=... resolve_agent_contacts=... workers=...'");
    char *end;
    def->world.seed = seed;
    def->world.integrator = (steer_integrator)integrator;
    def->world.cell_size = (float)strtod(cell, &end);
    if (*end != '\0') return fail(ps, "cell_size: expected a number, got '%s'", cell);
    def->world.agent_capacity = capacity;
    def->world.resolve_contacts = contacts != 0;
    def->world.resolve_agent_contacts = agent_contacts != 0;
    def->world.worker_count = workers;
    line = next_line(ps);
    int trusted;
    unsigned long long cap;
    long long budget;
    used = 0;
    if (line == NULL ||
        sscanf(line, "host trusted=%d memory_cap=%llu instruction_budget=%lld%n", &trusted, &cap, &budget, &used) !=
            3 ||
        line[used] != '\0')
        return fail(ps, "expected 'host trusted=... memory_cap=... instruction_budget=...'");
    if ((trusted != 0 && trusted != 1) || budget < 0)
        return fail(ps, "host: trusted must be 0 or 1 and instruction_budget at least 0");
    def->trusted = trusted != 0;
    def->memory_cap = (size_t)cap;
    def->instruction_budget = budget;
    line = next_line(ps);
    if (line == NULL || strncmp(line, "root", 4) != 0 || (line[4] != ' ' && line[4] != '\0'))
        return fail(ps, "expected 'root [PATH]'");
    snprintf(root, root_size, "%s", line[4] == ' ' ? line + 5 : "");
    line = next_line(ps);
    if (line == NULL || sscanf(line, "hash_every %d%n", hash_every, &used) != 1 || line[used] != '\0' ||
        *hash_every < 1)
        return fail(ps, "expected 'hash_every N' (N >= 1)");
    return true;
}

static char *read_whole(const char *path, size_t max_size, size_t *len, char *error, size_t error_size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(error, error_size, "%s: cannot open the recording", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (buf == NULL) break;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        if (max_size > 0 && n > max_size) {
            free(buf);
            fclose(f);
            snprintf(error, error_size, "%s: the recording is larger than %zu bytes (steer_replay_options.max_file_size)",
                     path, max_size);
            return NULL;
        }
        char *more = realloc(buf, cap * 2 + 1);
        if (more == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (buf == NULL || failed) {
        free(buf);
        snprintf(error, error_size, "%s: %s", path, failed ? "cannot read the recording" : "not enough memory");
        return NULL;
    }
    if (max_size > 0 && n > max_size) {
        free(buf);
        snprintf(error, error_size, "%s: the recording is larger than %zu bytes (steer_replay_options.max_file_size)",
                 path, max_size);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

// The tighter of two budgets where 0 means none.
static uint64_t tighter(uint64_t recorded, uint64_t replayer)
{
    if (replayer == 0) return recorded;
    if (recorded == 0) return replayer;
    return recorded < replayer ? recorded : replayer;
}

// The recorded definition is input like any other: its world values are
// checked as Lua checks them, its trust must be granted by the replayer,
// and its budgets are never looser than the replayer's.
static bool check_host_def(const steer_replay *r, steer_host_def *def, const steer_replay_options *opt, char *error,
                           size_t error_size)
{
    for (int i = 0; i < steer_def_field_count(STEER_DEF_WORLD); ++i) {
        const steer_field_info *f = steer_def_field(STEER_DEF_WORLD, i);
        char buf[160];
        const char *phrase = steer_field_check(f, steer_def_get_field(&def->world, f), buf, sizeof buf);
        if (phrase != NULL) {
            snprintf(error, error_size, "%s: the recorded world's %s %s", r->path, f->name, phrase);
            return false;
        }
    }
    if (def->trusted && !opt->trusted) {
        snprintf(error, error_size,
                 "%s: recorded with a trusted host (io, os.execute): replay it trusted only if you trust the file "
                 "(steer-run --replay FILE --trusted, steer_replay_options.trusted)",
                 r->path);
        return false;
    }
    def->memory_cap = (size_t)tighter(def->memory_cap, opt->memory_cap);
    def->instruction_budget = (int64_t)tighter((uint64_t)def->instruction_budget, (uint64_t)opt->instruction_budget);
    // a callback over its budget stops at the same instruction every replay,
    // whatever mode recorded it (docs/embedding.md, "Record and replay")
    def->budget_mode = STEER_HOST_BUDGET_EXACT;
    return true;
}

steer_replay_options steer_replay_default_options(void)
{
    steer_replay_options o;
    memset(&o, 0, sizeof o);
    steer_host_def d = steer_host_default_def();
    o.memory_cap = d.memory_cap;
    o.instruction_budget = d.instruction_budget;
    o.max_file_size = (size_t)256 << 20;
    return o;
}

steer_replay *steer_replay_open(const char *path, const steer_replay_options *options, char *error,
                                size_t error_size)
{
    char none[1];
    if (error == NULL || error_size == 0) {
        error = none;
        error_size = sizeof none;
    }
    error[0] = '\0';
    steer_replay_options opt = options != NULL ? *options : steer_replay_default_options();
    if (path == NULL || strlen(path) >= HOST_PATH_MAX) {
        snprintf(error, error_size, "steer_replay_open: path missing or too long");
        return NULL;
    }
    if (opt.worker_count < 0 || opt.worker_count > STEER_MAX_WORKERS) {
        snprintf(error, error_size, "steer_replay_open: worker_count must be in [0, %d], got %d", STEER_MAX_WORKERS,
                 opt.worker_count);
        return NULL;
    }
    steer_replay *r = calloc(1, sizeof *r);
    replay_tape *t = calloc(1, sizeof *t);
    if (r == NULL || t == NULL) {
        free(r);
        free(t);
        snprintf(error, error_size, "steer_replay_open: not enough memory");
        return NULL;
    }
    r->tape = t;
    r->divergent = -1;
    r->log = opt.log;
    r->log_context = opt.log_context;
    snprintf(r->path, sizeof r->path, "%s", path);
    size_t len = 0;
    t->text = read_whole(path, opt.max_file_size, &len, error, error_size);
    if (t->text == NULL) {
        steer_replay_close(r);
        return NULL;
    }
    parser ps = {t->text, t->text + len, 0, r->path, error, error_size};
    steer_host_def def = steer_host_default_def();
    char root[HOST_PATH_MAX], engine[64];
    int hash_every = 1;
    if (!parse_header(&ps, &def, root, sizeof root, &hash_every, engine, sizeof engine) || !parse_body(t, &ps)) {
        steer_replay_close(r);
        return NULL;
    }
    if (!check_host_def(r, &def, &opt, error, error_size)) {
        steer_replay_close(r);
        return NULL;
    }
    if (t->event_count == 0 || t->events[0].kind != EV_LOAD) {
        snprintf(error, error_size, "%s: the recording has no load (it must start with one)", r->path);
        steer_replay_close(r);
        return NULL;
    }
    // (fewer than 2^31 events of at most 1e9 frames: the sum fits 63 bits)
    long long total = 0;
    for (int i = 0; i < t->event_count; ++i)
        if (t->events[i].kind == EV_FRAMES) total += t->events[i].count;
    r->frame_count = total > LONG_MAX ? LONG_MAX : (long)total;
    // the host keeps the pointer: the root lives as long as the replay
    snprintf(r->root, sizeof r->root, "%s", root);
    def.script_root = r->root[0] != '\0' ? r->root : NULL;
    def.watch = STEER_HOST_WATCH_NONE;
    def.log = opt.log;
    def.log_context = opt.log_context;
    if (opt.worker_count > 0) def.world.worker_count = opt.worker_count;
    r->host = steer_host_create(&def);
    if (r->host == NULL) {
        snprintf(error, error_size, "%s: cannot create a host with the recorded definition", r->path);
        steer_replay_close(r);
        return NULL;
    }
    t->playback.values = t->values;
    t->playback.value_count = t->value_count;
    t->playback.blobs = t->blobs;
    steer_host__tape_play(r->host, &t->playback);
    if (strcmp(engine, steer_version()) != 0)
        warn(r, "%s was recorded by steer %s, this is steer %s", r->path, engine, steer_version());
    return r;
}

// The first divergence is the one to report; the replay stops there.
static int diverge(steer_replay *r, long frame, const char *fmt, ...)
{
    r->ended = true;
    if (r->message[0] != '\0') return -1;
    r->divergent = frame;
    char msg[HOST_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const steer_host__playback *p = &r->tape->playback;
    snprintf(r->message, sizeof r->message, "%.500s%s%.500s", msg, p->diverged ? ": " : "",
             p->diverged ? p->message : "");
    return -1;
}

// After a call into the host: the script asked for what was recorded, and
// the world hash (when e has one) is the recorded one.
static int check(steer_replay *r, const tape_event *e, const char *what, bool hash)
{
    if (r->tape->playback.diverged) return diverge(r, r->frame, "frame %ld (%s, line %d)", r->frame, what, e->line);
    if (!hash) return 0;
    uint64_t got = host_hash(r->host);
    if (got == e->hash) return 0;
    return diverge(r, r->frame, "frame %ld (%s, line %d): world hash %016" PRIx64 ", the recording has %016" PRIx64,
                   r->frame, what, e->line, got, e->hash);
}

int steer_replay_step(steer_replay *r)
{
    if (r->ended) return r->message[0] != '\0' ? -1 : 0;
    replay_tape *t = r->tape;
    while (r->left == 0) {
        if (r->next >= t->event_count) {
            // no end line: the recording program stopped early (a crash, a kill)
            warn(r, "%s ends without its end line (the recording stopped early); %ld frames replayed", r->path,
                 r->frame);
            r->ended = true;
            return 0;
        }
        const tape_event *e = &t->events[r->next++];
        switch (e->kind) {
        case EV_LOAD:
        case EV_RELOAD:
        case EV_RESET: {
            static const char *const names[] = {"load", "reload", "reset"};
            const char *name = names[e->kind];
            int rc;
            if (e->kind == EV_LOAD)
                rc = steer_host_load(r->host, e->path);
            else if (e->kind == EV_RELOAD)
                rc = steer_host_reload(r->host);
            else
                rc = steer_host_reset(r->host);
            if (check(r, e, name, false) != 0) return -1;
            if (rc != e->rc)
                return diverge(r, r->frame, "frame %ld (%s, line %d): the %s returned %d, the recording has %d",
                               r->frame, name, e->line, name, rc, e->rc);
            if (check(r, e, name, true) != 0) return -1;
            break;
        }
        case EV_INPUT:
            r->dt = e->dt;
            r->in = e->in;
            break;
        case EV_FRAMES:
            r->left = e->count;
            break;
        case EV_END: {
            r->ended = true;
            if (e->count != r->frame)
                return diverge(r, r->frame, "line %d: the recording ends after %ld frames, the replay ran %ld",
                               e->line, e->count, r->frame);
            if (check(r, e, "end", true) != 0) return -1;
            const steer_host__playback *p = &t->playback;
            if (p->value_next < p->value_count)
                return diverge(r, r->frame, "the replay ended with %d recorded values unused (the first, %s, line %d)",
                               p->value_count - p->value_next, steer_host__value_name(p->values[p->value_next].kind),
                               p->values[p->value_next].line);
            return 0;
        }
        }
    }
    steer_host_update(r->host, r->dt, &r->in);
    ++r->frame;
    const tape_event *e = &t->events[r->next - 1];
    --r->left;
    if (check(r, e, "frames", r->left == 0 && e->has_hash) != 0) return -1;
    return 1;
}

long steer_replay_frame(const steer_replay *r) { return r->frame; }

long steer_replay_frame_count(const steer_replay *r) { return r->frame_count; }

long steer_replay_divergent_frame(const steer_replay *r) { return r->divergent; }

const char *steer_replay_error(const steer_replay *r) { return r->message[0] != '\0' ? r->message : NULL; }

steer_host *steer_replay_host(const steer_replay *r) { return r->host; }

void steer_replay_close(steer_replay *r)
{
    if (r == NULL) return;
    if (r->host != NULL) {
        steer_host__tape_play(r->host, NULL);
        steer_host_destroy(r->host);
    }
    tape_free(r->tape);
    free(r);
}
