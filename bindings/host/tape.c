// tape.c: the tape (tape.h), a host's record of its run. The writer: a
// recording is two interleaved streams. Events are what the embedder did to
// the host, in order: load, reload, reset, and runs of frames with their dt
// and input, each event with the world hash after it (frames: every
// hash_every frames). Values are what the script got from outside in the
// order it asked: the text of each file it read, os.clock, os.time, a
// math.randomseed() without arguments. The outside world: the file reads
// and the os and math functions the script calls go through here, so a
// recording captures them and a replay's playback supplies them. A leaf:
// it calls nothing of the host above it.
#include "host_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

static const char *const value_names[] = {"a file read", "os.clock()", "os.time()", "math.randomseed()"};

/// A recording being written.
struct steer_host__tape {
    FILE *out;
    char out_path[HOST_PATH_MAX];
    int hash_every;
    long frames;         ///< frames recorded so far
    long pending;        ///< frames not yet written (same input)
    float dt;            ///< the input of the pending frames
    steer_host_input in;
    bool have_input;
    bool write_failed;
    // the texts written, copies owned here, to store each once
    steer_host__blob *blobs;
    int blob_count, blob_cap;
};

const char *steer_host__value_name(steer_host__value_kind kind) { return value_names[kind]; }

bool steer_host__grow(void **items, int *cap, int need, size_t size)
{
    if (need <= *cap) return true;
    int n = *cap > 0 ? *cap * 2 : 16;
    while (n < need) n *= 2;
    void *q = realloc(*items, (size_t)n * size);
    if (q == NULL) return false;
    *items = q;
    *cap = n;
    return true;
}

static uint64_t host_hash(const steer_host *h) { return steer_world_hash(h->world); }

/* ---- recording ----------------------------------------------------------------------- */

static void tape_free(steer_host__tape *t)
{
    if (t == NULL) return;
    if (t->out != NULL) fclose(t->out);
    for (int i = 0; i < t->blob_count; ++i) free((char *)t->blobs[i].data);
    free(t->blobs);
    free(t);
}

static void put(steer_host__tape *t, const char *fmt, ...)
{
    if (t->write_failed) return;
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(t->out, fmt, ap) < 0) t->write_failed = true;
    va_end(ap);
}

// Write the frames not yet written, with the hash when one is due.
static void flush_frames(steer_host *h, bool with_hash)
{
    steer_host__tape *t = h->tape;
    if (t->pending == 0) return;
    if (with_hash)
        put(t, "frames %ld %016" PRIx64 "\n", t->pending, host_hash(h));
    else
        put(t, "frames %ld\n", t->pending);
    t->pending = 0;
    // a crash of the game leaves a recording that replays up to here
    if (fflush(t->out) != 0) t->write_failed = true;
}

int steer_host_record(steer_host *host, const char *path, int hash_every)
{
    if (host->tape != NULL || host->playback != NULL) {
        steer_host__set_error(host, host->playback != NULL ? "steer_host_record: the host is replaying a recording"
                                                           : "steer_host_record: already recording");
        return -1;
    }
    if (host->version > 0 || host->load_pending) {
        steer_host__set_error(host, "steer_host_record: start recording before the first steer_host_load");
        return -1;
    }
    if (hash_every < 1) {
        steer_host__set_error(host, "steer_host_record: hash_every must be at least 1");
        return -1;
    }
    if (path == NULL || strlen(path) >= HOST_PATH_MAX) {
        steer_host__set_error(host, "steer_host_record: path missing or too long");
        return -1;
    }
    if (host->def.script_root != NULL && strpbrk(host->def.script_root, "\r\n") != NULL) {
        steer_host__set_error(host, "steer_host_record: the script root has a line break, which a recording "
                                    "cannot hold");
        return -1;
    }
    steer_host__tape *t = calloc(1, sizeof *t);
    if (t == NULL) {
        steer_host__set_error(host, "steer_host_record: not enough memory");
        return -1;
    }
    t->out = fopen(path, "wb");
    if (t->out == NULL) {
        char msg[HOST_PATH_MAX + 64];
        snprintf(msg, sizeof msg, "steer_host_record: cannot create %s", path);
        steer_host__set_error(host, msg);
        free(t);
        return -1;
    }
    snprintf(t->out_path, sizeof t->out_path, "%s", path);
    t->hash_every = hash_every;
    host->tape = t;
    const steer_host_def *d = &host->def;
    const steer_world_def *w = &d->world;
    put(t, "%s\n", STEER_HOST__TAPE_MAGIC);
    put(t, "engine %s\n", steer_version());
    put(t, "world seed=%" PRIu64 " integrator=%d cell_size=%a agent_capacity=%d resolve_contacts=%d "
           "resolve_agent_contacts=%d workers=%d\n",
        w->seed, (int)w->integrator, (double)w->cell_size, w->agent_capacity, (int)w->resolve_contacts,
        (int)w->resolve_agent_contacts, w->worker_count);
    put(t, "host trusted=%d memory_cap=%zu instruction_budget=%" PRId64 "\n", (int)d->trusted, d->memory_cap,
        d->instruction_budget);
    if (d->script_root != NULL)
        put(t, "root %s\n", d->script_root);
    else
        put(t, "root\n");
    put(t, "hash_every %d\n", hash_every);
    if (t->write_failed || fflush(t->out) != 0) {
        host->tape = NULL;
        tape_free(t);
        steer_host__set_error(host, "steer_host_record: cannot write the recording");
        return -1;
    }
    return 0;
}

int steer_host_record_end(steer_host *host)
{
    steer_host__tape *t = host->tape;
    if (t == NULL) {
        steer_host__set_error(host, "steer_host_record_end: not recording");
        return -1;
    }
    flush_frames(host, false);
    put(t, "end %ld %016" PRIx64 "\n", t->frames, host_hash(host));
    bool failed = t->write_failed || fflush(t->out) != 0;
    failed = fclose(t->out) != 0 || failed;
    t->out = NULL;
    char path[HOST_PATH_MAX];
    memcpy(path, t->out_path, sizeof path);
    host->tape = NULL;
    tape_free(t);
    if (failed) {
        char msg[HOST_PATH_MAX + 64];
        snprintf(msg, sizeof msg, "steer_host_record_end: writing %s failed", path);
        steer_host__set_error(host, msg);
        return -1;
    }
    return 0;
}

void steer_host__tape_destroy(steer_host *host)
{
    if (host->tape != NULL) steer_host_record_end(host);
}

void steer_host__tape_play(steer_host *host, steer_host__playback *playback) { host->playback = playback; }

void steer_host__tape_event(steer_host *host, const char *event, int rc, const char *path)
{
    steer_host__tape *t = host->tape;
    if (t == NULL) return;
    flush_frames(host, false);
    put(t, "%s %d %016" PRIx64 "%s%s\n", event, rc, host_hash(host), path != NULL ? " " : "",
        path != NULL ? path : "");
    if (fflush(t->out) != 0) t->write_failed = true;
}

void steer_host__tape_frame(steer_host *host, float dt, const steer_host_input *input)
{
    steer_host__tape *t = host->tape;
    if (t == NULL) return;
    static const steer_host_input none;
    const steer_host_input *in = input != NULL ? input : &none;
    bool same = t->have_input && memcmp(&t->dt, &dt, sizeof dt) == 0 &&
                memcmp(&t->in.mouse_x, &in->mouse_x, sizeof in->mouse_x) == 0 &&
                memcmp(&t->in.mouse_y, &in->mouse_y, sizeof in->mouse_y) == 0 && t->in.buttons == in->buttons &&
                t->in.keys == in->keys && t->in.buttons_pressed == in->buttons_pressed &&
                t->in.buttons_released == in->buttons_released && t->in.keys_pressed == in->keys_pressed &&
                t->in.keys_released == in->keys_released;
    if (!same) {
        flush_frames(host, false);
        // %a: every bit of the float, readable back exactly
        put(t, "input %a %a %a %" PRIu32 " %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", (double)dt,
            (double)in->mouse_x, (double)in->mouse_y, in->buttons, in->keys, in->buttons_pressed, in->buttons_released,
            in->keys_pressed, in->keys_released);
        t->dt = dt;
        t->in = *in;
        t->have_input = true;
    }
    ++t->pending;
    ++t->frames;
    if (t->frames % t->hash_every == 0) flush_frames(host, true);
}

// The index of this text among those written, writing it when new.
static int record_blob(steer_host__tape *t, const char *data, size_t len)
{
    for (int i = 0; i < t->blob_count; ++i)
        if (t->blobs[i].len == len && memcmp(t->blobs[i].data, data, len) == 0) return i;
    if (!steer_host__grow((void **)&t->blobs, &t->blob_cap, t->blob_count + 1, sizeof *t->blobs)) return -2;
    char *copy = malloc(len + 1);
    if (copy == NULL) return -2;
    memcpy(copy, data, len);
    int id = t->blob_count++;
    t->blobs[id] = (steer_host__blob){copy, len};
    put(t, "blob %d %zu\n", id, len);
    if (!t->write_failed && len > 0 && fwrite(data, 1, len, t->out) != len) t->write_failed = true;
    put(t, "\n");
    return id;
}

/* ---- replay: the values ------------------------------------------------------------- */

// The next recorded value, which must be of this kind; raises (and marks
// the replay diverged) otherwise.
static const steer_host__value *next_value(lua_State *L, steer_host *h, steer_host__value_kind kind, const char *path)
{
    steer_host__playback *p = h->playback;
    const steer_host__value *v = p->value_next < p->value_count ? &p->values[p->value_next] : NULL;
    if (v == NULL || v->kind != kind || (kind == STEER_HOST__VALUE_READ && strcmp(v->path, path) != 0)) {
        char got[HOST_PATH_MAX + 64];
        if (v == NULL)
            snprintf(got, sizeof got, "nothing more");
        else if (v->kind == STEER_HOST__VALUE_READ)
            snprintf(got, sizeof got, "a read of '%s' (line %d)", v->path, v->line);
        else
            snprintf(got, sizeof got, "%s (line %d)", value_names[v->kind], v->line);
        char want[HOST_PATH_MAX + 64];
        if (kind == STEER_HOST__VALUE_READ)
            snprintf(want, sizeof want, "read '%s'", path);
        else
            snprintf(want, sizeof want, "called %s", value_names[kind]);
        if (!p->diverged) {
            p->diverged = true;
            snprintf(p->message, sizeof p->message, "the script %.400s where the recording has %.400s", want, got);
        }
        luaL_error(L, "replay: %s", p->message);
    }
    ++p->value_next;
    return v;
}

/* ---- what the script gets from outside -------------------------------------------- */

bool steer_host__read_file(lua_State *L, const char *path, const char *name)
{
    steer_host *h = steer_host__of(L);
    if (h->playback != NULL) {
        const steer_host__value *v = next_value(L, h, STEER_HOST__VALUE_READ, path);
        if (v->blob < 0) return false;
        lua_pushlstring(L, h->playback->blobs[v->blob].data, h->playback->blobs[v->blob].len);
        return true;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        if (h->tape != NULL) put(h->tape, "read - %s\n", path);
        return false;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t n;
    do {
        char *p = luaL_prepbuffer(&b);
        n = fread(p, 1, LUAL_BUFFERSIZE, f);
        luaL_addsize(&b, n);
    } while (n == LUAL_BUFFERSIZE);
    bool failed = ferror(f) != 0;
    fclose(f);
    luaL_pushresult(&b);
    if (failed) {
        // a directory, or a file that cannot be read: as a missing file, so
        // loadfile returns nil and a message, and a replay sees the same
        lua_pop(L, 1);
        if (h->tape != NULL) put(h->tape, "read - %s\n", path);
        return false;
    }
    if (h->tape != NULL) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        int id = record_blob(h->tape, s, len);
        if (id == -2) luaL_error(L, "not enough memory to record %s", name);
        put(h->tape, "read %d %s\n", id, path);
    }
    return true;
}

// os.clock(): the recorded value in a replay.
static int tape_clock(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    if (h->playback != NULL) {
        lua_pushnumber(L, next_value(L, h, STEER_HOST__VALUE_CLOCK, NULL)->number);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, 1);
    if (h->tape != NULL) put(h->tape, "clock %a\n", (double)lua_tonumber(L, -1));
    return 1;
}

// The current time as os.time() gives it: the recorded value in a replay.
static void push_now(lua_State *L, steer_host *h, int real_time)
{
    if (h->playback != NULL) {
        lua_pushinteger(L, (lua_Integer)next_value(L, h, STEER_HOST__VALUE_TIME, NULL)->integer);
        return;
    }
    lua_pushvalue(L, real_time);
    lua_call(L, 0, 1);
    if (h->tape != NULL) put(h->tape, "time %lld\n", (long long)lua_tointeger(L, -1));
}

// os.time([t]): only the current time (no argument) is recorded.
static int tape_time(lua_State *L)
{
    if (!lua_isnoneornil(L, 1)) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, 1);
        return 1;
    }
    push_now(L, steer_host__of(L), lua_upvalueindex(1));
    return 1;
}

// os.date([format [, t]]): without t, the recorded current time.
static int tape_date(lua_State *L)
{
    if (lua_isnoneornil(L, 2)) {
        if (lua_isnone(L, 1)) lua_pushliteral(L, "%c");
        lua_settop(L, 1);
        push_now(L, steer_host__of(L), lua_upvalueindex(1));
    }
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

// math.randomseed(): the seed Lua picked, recorded; with arguments as is.
static int tape_randomseed(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (n == 0 && h->playback != NULL) {
        const steer_host__value *v = next_value(L, h, STEER_HOST__VALUE_SEED, NULL);
        lua_pushinteger(L, (lua_Integer)v->seed[0]);
        lua_pushinteger(L, (lua_Integer)v->seed[1]);
        n = 2;
    }
    lua_call(L, n, LUA_MULTRET);
    int results = lua_gettop(L);
    if (n == 0 && h->tape != NULL) {
        // Lua 5.4.4 and later return the two seed parts
        long long s0 = results >= 1 ? (long long)lua_tointeger(L, 1) : 0;
        long long s1 = results >= 2 ? (long long)lua_tointeger(L, 2) : 0;
        put(h->tape, "seed %lld %lld\n", s0, s1);
        if (results < 2) luaL_error(L, "math.randomseed(): cannot record the seed with this Lua version");
    }
    return results;
}

void steer_host__wrap_outside(lua_State *L)
{
    lua_getglobal(L, LUA_OSLIBNAME);
    lua_getfield(L, -1, "clock");
    lua_pushcclosure(L, tape_clock, 1);
    lua_setfield(L, -2, "clock");
    lua_getfield(L, -1, "time"); // the real os.time, for both wrappers
    lua_pushvalue(L, -1);
    lua_getfield(L, -3, "date");
    lua_pushcclosure(L, tape_date, 2);
    lua_setfield(L, -3, "date");
    lua_pushcclosure(L, tape_time, 1);
    lua_setfield(L, -2, "time");
    lua_pop(L, 1);
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushcclosure(L, tape_randomseed, 1);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
}
