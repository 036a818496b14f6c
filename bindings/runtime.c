// runtime.c: what every class of the module needs, in LÖVE's manner
// (src/common/runtime): the world's core, the step protocol, one proxy
// cache, and one reader of options and properties driven by the engine's
// reflected tables (docs/engine.md, Inside the Lua module).
#include "runtime.h"
#include "nav_sync.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local lstep *steer_lua__active = NULL;
static const char spawn_hook_key = 0; // registry: the spawn hook (a function) or nil
static const char proxies_key = 0; // registry: the proxy cache
static const char serial_key = 0;  // registry: the last core serial given
const char steer_lua__behaviour_mark = 0; // metatable field of every behaviour class

/* ---- the proxy cache ------------------------------------------------------------------ */

// Push the proxy cache (weak values: world-owned objects by proxy key,
// behaviours by C pointer).
static void push_proxies(lua_State *L) { steer_compat_push_weak_table(L, &proxies_key, "v"); }

static const char *const handle_class[LKIND_COUNT] = {STEER_LUA_AGENT, STEER_LUA_SHAPE, STEER_LUA_FORMATION};
static const int handle_uservalues[LKIND_COUNT] = {1, 1, 2};

// The stored id of a handle userdata of a kind.
static uint64_t handle_id(const void *ud, lkind kind)
{
    switch (kind) {
    case LKIND_AGENT: return steer_agent_id_store(((const lagent *)ud)->id);
    case LKIND_SHAPE: return steer_shape_id_store(((const lshape *)ud)->id);
    default: return steer_formation_id_store(((const lformation *)ud)->id);
    }
}

static void set_handle(void *ud, lkind kind, lcore *core, uint64_t id)
{
    switch (kind) {
    case LKIND_AGENT: *(lagent *)ud = (lagent){core, steer_agent_id_load(id)}; break;
    case LKIND_SHAPE: *(lshape *)ud = (lshape){core, steer_shape_id_load(id)}; break;
    default: *(lformation *)ud = (lformation){core, steer_formation_id_load(id)}; break;
    }
}

void *steer_lua__new_handle(lua_State *L, int core_idx, lkind kind)
{
    core_idx = lua_absindex(L, core_idx);
    void *ud = lua_newuserdatauv(L, sizeof(lformation), handle_uservalues[kind]);
    set_handle(ud, kind, lua_touserdata(L, core_idx), 0);
    lua_pushvalue(L, core_idx);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, handle_class[kind]);
    return ud;
}

void steer_lua__attach_handle(lua_State *L, int idx, lkind kind, uint64_t id)
{
    idx = lua_absindex(L, idx);
    void *ud = lua_touserdata(L, idx);
    lcore *core = *(lcore **)ud;
    set_handle(ud, kind, core, id);
    push_proxies(L);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, steer_lua__proxy_key(core, kind, (uint32_t)(id >> 32)));
    lua_pop(L, 1);
}

void *steer_lua__push_handle(lua_State *L, int core_idx, lkind kind, uint64_t id)
{
    core_idx = lua_absindex(L, core_idx);
    lcore *core = lua_touserdata(L, core_idx);
    push_proxies(L);
    // keyed by slot: a proxy of a removed object of the same slot is
    // replaced (whoever holds it keeps a stale proxy)
    if (lua_rawgeti(L, -1, steer_lua__proxy_key(core, kind, (uint32_t)(id >> 32))) == LUA_TUSERDATA) {
        void *ud = luaL_testudata(L, -1, handle_class[kind]);
        if (ud != NULL && *(lcore **)ud == core && handle_id(ud, kind) == id) {
            lua_remove(L, -2);
            return ud;
        }
    }
    lua_pop(L, 2);
    void *ud = steer_lua__new_handle(L, core_idx, kind);
    steer_lua__attach_handle(L, -1, kind, id);
    return ud;
}

void steer_lua__push_agent(lua_State *L, int core_idx, steer_agent_id id)
{
    steer_lua__push_handle(L, core_idx, LKIND_AGENT, steer_agent_id_store(id));
}

void steer_lua__cache_behaviour(lua_State *L, lbehaviour *lb)
{
    push_proxies(L);
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, lb->b);
    lua_pop(L, 1);
}

const char *steer_lua__behaviour_class(steer_behaviour_type type, char *buf, size_t size)
{
    // "look_where_you_are_going" -> "steer.LookWhereYouAreGoing"
    const char *name = steer_behaviour_type_name(type);
    size_t n = (size_t)snprintf(buf, size, "steer.");
    for (bool up = true; *name != '\0' && n + 1 < size; ++name) {
        if (*name == '_') {
            up = true;
            continue;
        }
        buf[n++] = up && *name >= 'a' && *name <= 'z' ? (char)(*name - 'a' + 'A') : *name;
        up = false;
    }
    buf[n] = '\0';
    return buf;
}

void steer_lua__push_behaviour(lua_State *L, steer_behaviour *b)
{
    push_proxies(L);
    if (lua_rawgetp(L, -1, b) == LUA_TUSERDATA) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 2);
    // a behaviour the host made in C: a new proxy with its own reference
    char cname[STEER_LUA_CLASS_SIZE];
    lbehaviour *lb = lua_newuserdatauv(L, sizeof *lb, BEH_UV_COUNT);
    lb->b = NULL;
    luaL_setmetatable(L, steer_lua__behaviour_class(steer_behaviour_get_type(b), cname, sizeof cname));
    lb->b = steer_behaviour_retain(b);
    steer_lua__cache_behaviour(L, lb);
}

lbehaviour *steer_lua__test_behaviour(lua_State *L, int idx)
{
    lbehaviour *lb = lua_touserdata(L, idx);
    if (lb == NULL || !lua_getmetatable(L, idx)) return NULL;
    bool is = lua_rawgetp(L, -1, &steer_lua__behaviour_mark) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return is && lb->b != NULL ? lb : NULL;
}

lbehaviour *steer_lua__check_behaviour(lua_State *L, int arg)
{
    lbehaviour *lb = steer_lua__test_behaviour(L, arg);
    if (lb == NULL) luaL_typeerror(L, arg, "steer behaviour");
    return lb;
}

/* ---- the core ------------------------------------------------------------------------- */

lworld *steer_lua__new_world(lua_State *L)
{
    // the userdata first, then the world is attached: running out of memory leaks nothing
    lworld *lw = lua_newuserdatauv(L, sizeof *lw, 1);
    lw->core = NULL;
    luaL_setmetatable(L, STEER_LUA_WORLD);
    lcore *core = lua_newuserdatauv(L, sizeof *core, CORE_UV_COUNT);
    memset(core, 0, sizeof *core);
    for (int uv = 1; uv <= CORE_UV_COUNT; ++uv) {
        lua_newtable(L);
        lua_setiuservalue(L, -2, uv);
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &serial_key);
    core->serial = (uint32_t)(lua_tointeger(L, -1) + 1) & 0x3fffffffu;
    lua_pushinteger(L, core->serial);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &serial_key);
    lua_pop(L, 1);
    lua_setiuservalue(L, -2, 1);
    lw->core = core;
    return lw;
}

void steer_lua__close_core(lua_State *L, int core_idx)
{
    core_idx = lua_absindex(L, core_idx);
    lcore *core = lua_touserdata(L, core_idx);
    steer_planner planner;
    // a host's world keeps no planner that points at this core
    if (core->world != NULL && !core->owned && steer_world_get_planner(core->world, &planner) &&
        planner.context == core)
        steer_world_set_planner(core->world, NULL);
    if (core->world != NULL && core->owned) steer_world_destroy(core->world);
    core->world = NULL;
    core->close_pending = false;
    steer_lua__nav_free(core);
    // the Lua-side tables go, so the behaviours they kept can be collected
    for (int uv = 1; uv <= CORE_UV_COUNT; ++uv) {
        lua_pushnil(L);
        lua_setiuservalue(L, core_idx, uv);
    }
}

lcore *steer_lua__check_world(lua_State *L, int arg)
{
    lworld *lw = luaL_checkudata(L, arg, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) luaL_error(L, "attempt to use a closed world");
    return lw->core;
}

void steer_lua__check_mutable(lua_State *L, lcore *core)
{
    if (core->world == NULL) luaL_error(L, "attempt to use a closed world");
    if (steer_world_is_stepping(core->world)) luaL_error(L, "attempt to modify a world while it is stepping");
    if (core->drawing) luaL_error(L, "attempt to modify a world while it is drawn");
    if (core->frozen != NULL) luaL_error(L, "attempt to modify a world while %s", core->frozen);
}

/* ---- the step protocol ----------------------------------------------------------------- */

static int call_tostring(lua_State *L)
{
    luaL_tolstring(L, 1, NULL);
    return 1;
}

// Message handler of Lua behaviours: the message, which agent's behaviour
// failed, and a traceback. The first line is always the message: an empty
// one, or an error object whose __tostring fails, is described instead.
static int traceback_handler(lua_State *L)
{
    const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
    // error("") gives "" or just the position "file:line: "
    size_t len = msg != NULL ? strlen(msg) : 0;
    if (msg != NULL && (len == 0 || (len >= 2 && msg[len - 2] == ':' && msg[len - 1] == ' ')))
        msg = lua_pushfstring(L, "%s(a Lua behaviour raised an empty error message)", msg);
    if (msg == NULL && luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushcfunction(L, call_tostring);
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value whose __tostring failed)", luaL_typename(L, 1));
    }
    if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    const lstep *s = steer_lua__active;
    if (s != NULL && s->agent_key != 0)
        msg = lua_pushfstring(L, "%s\n(in the Lua behaviour of the agent with key " STEER_LUA_IFMT ")", msg, STEER_LUA_IARG(s->agent_key));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

void steer_lua__step_begin(lua_State *L, lstep *s, int core_idx)
{
    core_idx = lua_absindex(L, core_idx);
    // room for the slots below and for every Lua behaviour call
    luaL_checkstack(L, 24, "steer: stack overflow");
    memset(s, 0, sizeof *s);
    s->L = L;
    s->core = lua_touserdata(L, core_idx);
    s->core_idx = core_idx;
    lua_pushcfunction(L, traceback_handler);
    s->handler_idx = lua_gettop(L);
    push_proxies(L);
    s->proxies_idx = lua_gettop(L);
    lua_pushnil(L);
    s->error_idx = lua_gettop(L);
    s->prev = steer_lua__active;
    steer_lua__active = s;
    ++s->core->busy;
}

void steer_lua__step_end(lua_State *L, lstep *s)
{
    steer_lua__active = s->prev;
    lcore *core = s->core;
    if (--core->busy == 0 && core->close_pending) steer_lua__close_core(L, s->core_idx);
    switch (s->error_kind) {
    case 0: break;
    case LSTEP_ERR_LUA:
        lua_pushvalue(L, s->error_idx);
        lua_error(L);
        break;
    case LSTEP_ERR_RESULT:
        luaL_error(L, "a Lua behaviour must return numbers lx, ly[, angular] or nil, got %s",
                   lua_typename(L, s->bad_type));
        break;
    case LSTEP_ERR_NONFINITE: luaL_error(L, "a Lua behaviour returned a NaN or an infinity"); break;
    default: luaL_error(L, "a Lua behaviour could not be called (its Lua value was collected)"); break;
    }
    lua_settop(L, s->handler_idx - 1);
}

steer_callback_result steer_lua__step_failed(lstep *s, int kind, int top)
{
    lua_State *L = s->L;
    if (s->error_kind == 0) {
        s->error_kind = kind;
        if (kind == LSTEP_ERR_LUA) lua_copy(L, -1, s->error_idx);
    }
    lua_settop(L, top);
    return STEER_CALLBACK_ERROR;
}

/* ---- agents ------------------------------------------------------------------------------ */

lagent *steer_lua__test_agent(lua_State *L, int idx) { return luaL_testudata(L, idx, STEER_LUA_AGENT); }

void steer_lua__check_alive(lua_State *L, const lagent *a)
{
    if (a->core->world == NULL) luaL_error(L, "attempt to use an agent of a closed world");
    if (!steer_agent_is_valid(a->core->world, a->id)) luaL_error(L, "attempt to use a removed agent");
}

lagent *steer_lua__check_agent(lua_State *L, int arg)
{
    lagent *a = luaL_checkudata(L, arg, STEER_LUA_AGENT);
    steer_lua__check_alive(L, a);
    return a;
}

void steer_lua__forget_agent(lua_State *L, int core_idx, steer_agent_id id)
{
    core_idx = lua_absindex(L, core_idx);
    lua_Integer stored = steer_lua__stored_id(id);
    for (int uv = 1; uv <= CORE_UV_AGENT_TABLES; ++uv) {
        if (lua_getiuservalue(L, core_idx, uv) == LUA_TTABLE) {
            lua_pushnil(L);
            lua_rawseti(L, -2, stored);
        }
        lua_pop(L, 1);
    }
}

/* ---- plain data (agent.data, world.data) ------------------------------------------------ */

/// Deeper than this, a table is refused (and the walk never overflows the C stack).
#define PLAIN_MAX_DEPTH 64

typedef struct plain_walk {
    char path[200]; ///< where the walk is: "data.squad[2]" (cut when long)
    int visiting;   ///< stack index of a table: the tables on the current path
} plain_walk;

// The path with a piece appended at at (cut when long, never overflowing).
static void path_add(plain_walk *pw, size_t at, const char *before, const char *piece, const char *after)
{
    if (at < sizeof pw->path - 1) snprintf(pw->path + at, sizeof pw->path - at, "%s%s%s", before, piece, after);
}

// NULL when the value at idx is plain, else a phrase (pushed or static)
// for the value at pw->path; the stack is left as it is on failure.
static const char *plain_fault(lua_State *L, plain_walk *pw, int idx, int depth)
{
    idx = lua_absindex(L, idx);
    int t = lua_type(L, idx);
    if (t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING) return NULL;
    if (t != LUA_TTABLE) {
        const char *name = luaL_typename(L, idx);
        if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) name = lua_tostring(L, -1);
        if (luaL_testudata(L, idx, STEER_LUA_AGENT) != NULL)
            return lua_pushfstring(L, "is a %s (keep agent.key and find it with world:find{ key = k })", name);
        return lua_pushfstring(L, "is a %s", name);
    }
    if (lua_getmetatable(L, idx)) return "is a table with a metatable";
    if (depth >= PLAIN_MAX_DEPTH) return "nests tables too deep (64 levels)";
    luaL_checkstack(L, 6, "plain data");
    lua_pushvalue(L, idx);
    lua_rawget(L, pw->visiting);
    if (!lua_isnil(L, -1)) return "contains itself (a cycle)";
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, pw->visiting);
    size_t at = strlen(pw->path);
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        int kt = lua_type(L, -2);
        if (kt == LUA_TSTRING) {
            path_add(pw, at, ".", lua_tostring(L, -2), "");
        } else if (kt == LUA_TNUMBER) {
            lua_pushvalue(L, -2); // a copy: lua_next needs the key unconverted
            path_add(pw, at, "[", lua_tostring(L, -1), "]");
            lua_pop(L, 1);
        } else if (kt == LUA_TBOOLEAN) {
            path_add(pw, at, "[", lua_toboolean(L, -2) ? "true" : "false", "]");
        } else {
            return lua_pushfstring(L, "has a key that is a %s", luaL_typename(L, -2));
        }
        const char *fault = plain_fault(L, pw, -1, depth + 1);
        if (fault != NULL) return fault;
        pw->path[at] = '\0';
        lua_pop(L, 1);
    }
    lua_pushvalue(L, idx);
    lua_pushnil(L);
    lua_rawset(L, pw->visiting);
    return NULL;
}

void steer_lua__check_plain(lua_State *L, steer_laux_where w, int idx)
{
    idx = lua_absindex(L, idx);
    plain_walk pw;
    snprintf(pw.path, sizeof pw.path, "%s", w.field != NULL ? w.field : "value");
    lua_newtable(L);
    pw.visiting = lua_gettop(L);
    const char *fault = plain_fault(L, &pw, idx, 0);
    if (fault == NULL) {
        lua_settop(L, pw.visiting - 1);
        return;
    }
    steer_laux_error_plain(L, w, lua_pushfstring(L, "must hold plain values only (nil, booleans, numbers, strings, "
                                                    "tables of them): %s %s", pw.path, fault));
}

void steer_lua__push_data(lua_State *L, int tidx, lua_Integer key)
{
    tidx = lua_absindex(L, tidx);
    if (lua_rawgeti(L, tidx, key) != LUA_TNIL) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, tidx, key);
}

void steer_lua__push_formation(lua_State *L, int core_idx, steer_formation_id id)
{
    core_idx = lua_absindex(L, core_idx);
    if (steer_formation_id_is_null(id)) {
        lua_pushnil(L);
        return;
    }
    lua_getiuservalue(L, core_idx, CORE_UV_FORMATIONS);
    if (lua_istable(L, -1)) lua_rawgeti(L, -1, (lua_Integer)steer_formation_id_store(id));
    else lua_pushnil(L);
    lua_remove(L, -2);
}

void steer_lua__set_steering(lua_State *L, int core_idx, steer_agent_id id, int idx, bool keep_memory)
{
    core_idx = lua_absindex(L, core_idx);
    idx = lua_absindex(L, idx);
    lcore *core = lua_touserdata(L, core_idx);
    lbehaviour *lb = lua_isnil(L, idx) ? NULL : steer_lua__test_behaviour(L, idx);
    // mirror first (may raise on memory), then the engine
    lua_getiuservalue(L, core_idx, CORE_UV_STEERING);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, steer_lua__stored_id(id));
    lua_pop(L, 1);
    steer_agent_set_behaviour(core->world, id, lb != NULL ? lb->b : NULL, keep_memory);
}

/* ---- the spawn hook ------------------------------------------------------------------------ */

void steer_lua_set_spawn_hook(lua_State *L, int index)
{
    lua_pushvalue(L, index);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &spawn_hook_key);
}

void steer_lua__push_spawn_steering(lua_State *L, lcore *core, int agent_idx, int role_idx)
{
    agent_idx = lua_absindex(L, agent_idx);
    role_idx = lua_absindex(L, role_idx);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &spawn_hook_key) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_pushnil(L);
        return;
    }
    lua_pushvalue(L, agent_idx);
    lua_pushvalue(L, role_idx);
    // the hook (a host's role function) may read the world, not change it:
    // a removal, spawn or move would pull the new agent from under the spawn
    const char *was = core->frozen;
    core->frozen = "a role function gives a spawned agent its behaviour";
    int status = lua_pcall(L, 2, 2, 0);
    core->frozen = was;
    if (status != LUA_OK) lua_error(L);
}

/* ---- paths --------------------------------------------------------------------------------- */

lpath *steer_lua__test_path(lua_State *L, int idx) { return luaL_testudata(L, idx, STEER_LUA_PATH); }

static bool path_option(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    (void)code;
    *(bool *)context = steer_laux_boolean(L, w, vidx); // loop
    return true;
}

int steer_lua__new_path(lua_State *L, int arg)
{
    static const char *const options[] = {"loop", NULL};
    arg = lua_absindex(L, arg);
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    bool loop = false;
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, options);
    steer_lua_reader r = {.arg = arg, .list = true, .extra = path_option, .context = &loop};
    steer_lua__read_options(L, arg, lua_gettop(L), &r);
    lua_pop(L, 1);
    if (n < 2 || n > (1 << 24))
        luaL_argerror(L, arg, lua_pushfstring(L, "a path needs at least 2 points, got " STEER_LUA_IFMT, STEER_LUA_IARG(n)));
    steer_vec2 *p = lua_newuserdatauv(L, sizeof *p * (size_t)n, 0);
    char name[32];
    for (lua_Integer i = 1; i <= n; ++i) {
        snprintf(name, sizeof name, "[%d]", (int)i);
        lua_rawgeti(L, arg, i);
        steer_laux_point(L, steer_laux_field(arg, name), -1, &p[i - 1].x, &p[i - 1].y);
        lua_pop(L, 1);
        // within the path bounds, so lengths and params stay finite floats
        if (fabsf(p[i - 1].x) > STEER_MAX_PATH_COORDINATE || fabsf(p[i - 1].y) > STEER_MAX_PATH_COORDINATE) {
            char lo[32], hi[32];
            steer_laux_error_plain(L, steer_laux_field(arg, name),
                                   lua_pushfstring(L, "must have coordinates within [%s, %s]",
                                                   steer_format_limit(-STEER_MAX_PATH_COORDINATE, lo, sizeof lo),
                                                   steer_format_limit(STEER_MAX_PATH_COORDINATE, hi, sizeof hi)));
        }
        if (i > 1 && p[i - 1].x == p[i - 2].x && p[i - 1].y == p[i - 2].y)
            steer_laux_error_plain(L, steer_laux_field(arg, name), "repeats the point before it");
    }
    steer_path_def def = steer_default_path_def();
    def.points = p;
    def.count = (int)n;
    def.loop = loop;
    // what is left to refuse: a length that is not a positive float
    if (!steer_path_def_is_valid(&def)) luaL_argerror(L, arg, "the path's length must be positive and finite");
    return steer_lua__push_path(L, &def);
}

int steer_lua__push_path(lua_State *L, const steer_path_def *def)
{
    lpath *lp = lua_newuserdatauv(L, sizeof *lp, 0);
    lp->path = NULL;
    luaL_setmetatable(L, STEER_LUA_PATH);
    lp->path = steer_path_create(def);
    if (lp->path == NULL) return luaL_error(L, "not enough memory");
    // the collector sees a small userdata but the engine holds the points
    // (a point, a length and a normal each): count them as garbage debt,
    // so paths a loop makes and drops are collected as fast as they come
    size_t kb = (size_t)def->count * 24u / 1024u;
    if (kb > 0) lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
    return 1;
}

/* ---- names: the reflected tables as Lua tables ------------------------------------------- */

void steer_lua__push_memo(lua_State *L, const void *key, void (*build)(lua_State *L))
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TNIL) return;
    lua_pop(L, 1);
    build(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

static void add_extras(lua_State *L, const char *const *extras)
{
    for (int i = 0; extras != NULL && extras[i] != NULL; ++i) {
        lua_pushinteger(L, i);
        lua_setfield(L, -2, extras[i]);
    }
}

void steer_lua__push_def_names(lua_State *L, steer_def_type def, bool live_only, const char *prefix,
                               const char *const *extras)
{
    lua_newtable(L);
    size_t plen = prefix != NULL ? strlen(prefix) : 0;
    for (int i = 0; i < steer_def_field_count(def); ++i) {
        const steer_field_info *f = steer_def_field(def, i);
        if (live_only && !f->live) continue;
        // a nested table's fields ("anchor.x") belong to that table only
        bool nested = strchr(f->name, '.') != NULL;
        if (prefix == NULL ? nested : strncmp(f->name, prefix, plen) != 0) continue;
        lua_pushlightuserdata(L, (void *)f);
        lua_setfield(L, -2, f->name);
    }
    add_extras(L, extras);
}

void steer_lua__push_param_names(lua_State *L, steer_behaviour_type type, const char *const *extras)
{
    lua_newtable(L);
    for (int i = 0; i < steer_behaviour_param_count(type); ++i) {
        const steer_param_info *p = steer_behaviour_param(type, i);
        lua_pushlightuserdata(L, (void *)p);
        lua_setfield(L, -2, p->name);
    }
    add_extras(L, extras);
}

int steer_lua__lookup(lua_State *L, int names_idx, int kidx)
{
    kidx = lua_absindex(L, kidx);
    lua_pushvalue(L, kidx);
    int t = lua_rawget(L, names_idx);
    int code = t == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : t == LUA_TLIGHTUSERDATA ? -2 : -1;
    if (t != LUA_TLIGHTUSERDATA) lua_pop(L, 1);
    return code;
}

/* ---- values of fields and parameters ------------------------------------------------------- */

static steer_laux_rule laux_rule_of(steer_param_rule rule)
{
    return rule == STEER_RULE_POSITIVE ? LAUX_POSITIVE : rule == STEER_RULE_NONNEGATIVE ? LAUX_NONNEGATIVE : LAUX_FINITE;
}

void steer_lua__read_field(lua_State *L, steer_laux_where w, int vidx, void *def, const steer_field_info *f)
{
    char buf[128];
    const char *phrase;
    vidx = lua_absindex(L, vidx);
    switch (f->kind) {
    case STEER_FIELD_BOOL: steer_def_set_field(def, f, steer_laux_boolean(L, w, vidx) ? 1.0 : 0.0); return;
    case STEER_FIELD_ENUM: steer_def_set_field(def, f, steer_laux_enum(L, w, vidx, f->choices)); return;
    case STEER_FIELD_INT:
    case STEER_FIELD_UINT64:
    case STEER_FIELD_BITS: {
        // integers only (2.0 is not one): the phrase of a value that is no integer
        if (!lua_isinteger(L, vidx)) steer_laux_error(L, w, steer_field_check(f, 0.5, buf, sizeof buf), vidx);
        lua_Integer i = lua_tointeger(L, vidx);
        phrase = f->kind == STEER_FIELD_UINT64 && f->min < 1.0 ? NULL : steer_field_check(f, (double)i, buf, sizeof buf);
        if (phrase != NULL) steer_laux_error(L, w, phrase, vidx);
        steer_def_set_integer(def, f, (int64_t)i);
        return;
    }
    default: {
        double v = steer_laux_number(L, w, vidx, laux_rule_of(f->rule));
        phrase = steer_field_check(f, v, buf, sizeof buf);
        if (phrase != NULL) steer_laux_error(L, w, phrase, vidx);
        steer_def_set_field(def, f, v);
        return;
    }
    }
}

void steer_lua__push_field(lua_State *L, const void *def, const steer_field_info *f)
{
    switch (f->kind) {
    case STEER_FIELD_BOOL: lua_pushboolean(L, steer_def_get_field(def, f) != 0.0); break;
    case STEER_FIELD_ENUM: lua_pushstring(L, f->choices[(int)steer_def_get_field(def, f)]); break;
    case STEER_FIELD_INT:
    case STEER_FIELD_UINT64:
    case STEER_FIELD_BITS: lua_pushinteger(L, (lua_Integer)steer_def_get_integer(def, f)); break;
    default:
        // a setting reads back as written (0.1, not 0.100000001); state as computed
        if (f->live) steer_laux_push_float(L, (float)steer_def_get_field(def, f));
        else lua_pushnumber(L, steer_def_get_field(def, f));
        break;
    }
}

double steer_lua__check_param(lua_State *L, steer_laux_where w, int vidx, const steer_param_info *p,
                              const steer_behaviour_def *def)
{
    char buf[128];
    double v;
    switch (p->kind) {
    case STEER_PARAM_BOOL: return steer_laux_boolean(L, w, vidx) ? 1.0 : 0.0;
    case STEER_PARAM_ENUM: return (double)steer_laux_enum(L, w, vidx, p->choices);
    case STEER_PARAM_LIMIT:
        if (lua_isnil(L, vidx)) return -1.0;
        v = steer_laux_number(L, w, vidx, LAUX_NONNEGATIVE);
        break;
    case STEER_PARAM_OPTIONAL:
        if (lua_isnil(L, vidx)) return -2.0;
        v = steer_laux_number(L, w, vidx, LAUX_FINITE);
        break;
    default: v = steer_laux_number(L, w, vidx, LAUX_FINITE); break;
    }
    const char *phrase = steer_param_check(def, p, v, buf, sizeof buf);
    if (phrase != NULL) steer_laux_error(L, w, phrase, vidx);
    return v;
}

void steer_lua__push_param(lua_State *L, const steer_behaviour_def *def, const steer_param_info *p)
{
    double v = steer_param_get(def, p);
    if (!steer_param_is_set(def, p)) lua_pushnil(L);
    else if (p->kind == STEER_PARAM_BOOL) lua_pushboolean(L, v != 0.0);
    else if (p->kind == STEER_PARAM_ENUM) lua_pushstring(L, p->choices[(int)v]);
    else steer_laux_push_float(L, (float)v);
}

int steer_lua__choice(lua_State *L, int vidx, const char *const *choices)
{
    if (lua_type(L, vidx) != LUA_TSTRING) return -1;
    const char *s = lua_tostring(L, vidx);
    for (int i = 0; choices[i] != NULL; ++i) {
        if (strcmp(s, choices[i]) == 0) return i;
    }
    return -1;
}

/* ---- the reader ---------------------------------------------------------------------------- */

// The bit of a behaviour parameter among its type's (for "given" masks).
static uint64_t param_bit(steer_behaviour_type type, const steer_param_info *p)
{
    for (int i = 0; i < steer_behaviour_param_count(type); ++i) {
        if (steer_behaviour_param(type, i) == p) return 1ull << i;
    }
    return 0;
}

static int unknown(lua_State *L, const steer_lua_reader *r, int kidx)
{
    if (r->prefix == NULL) return steer_laux_unknown_field(L, r->arg, kidx);
    const char *k = lua_type(L, kidx) == LUA_TSTRING ? lua_tostring(L, kidx) : "?";
    return luaL_argerror(L, r->arg, lua_pushfstring(L, "unknown field '%s%s'", r->prefix, k));
}

void steer_lua__read_options(lua_State *L, int tidx, int names_idx, steer_lua_reader *r)
{
    tidx = lua_absindex(L, tidx);
    names_idx = lua_absindex(L, names_idx);
    lua_Integer n = r->list ? (lua_Integer)lua_rawlen(L, tidx) : 0;
    lua_pushnil(L);
    while (lua_next(L, tidx) != 0) {
        int top = lua_gettop(L);
        if (r->list && lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
            lua_pop(L, 1);
            continue;
        }
        // the full name: "anchor.x" for x of a nested anchor table
        if (r->prefix != NULL && lua_type(L, top - 1) == LUA_TSTRING)
            lua_pushfstring(L, "%s%s", r->prefix, lua_tostring(L, top - 1));
        else
            lua_pushvalue(L, top - 1);
        int name = lua_gettop(L);
        int code = steer_lua__lookup(L, names_idx, name);
        const char *k = lua_type(L, name) == LUA_TSTRING ? lua_tostring(L, name) : NULL;
        steer_laux_where w = steer_laux_field(r->arg, k);
        if (code == -1) unknown(L, r, top - 1);
        if (code == -2 && r->behaviour != NULL) {
            const steer_param_info *p = lua_touserdata(L, -1);
            steer_param_set(r->behaviour, p, steer_lua__check_param(L, w, top, p, NULL));
            r->given |= param_bit(r->behaviour->type, p);
        } else if (code == -2) {
            steer_lua__read_field(L, w, top, r->def, lua_touserdata(L, -1));
        } else if (r->extra == NULL || !r->extra(L, r->context, code, w, top)) {
            unknown(L, r, top - 1);
        }
        lua_settop(L, top - 1);
    }
}
