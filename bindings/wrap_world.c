// wrap_world.c: steer.World, its core (what agent proxies share with it),
// and the protocol around engine calls that run Lua behaviours.
#include "bind.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Thread_local lstep *steer_lua__active = NULL;

#define TWO_PI 6.283185307179586

static const char *const integrator_names[] = {"euler", "newton", NULL};
/// Properties of steer.World (world_index answers exactly these).
static const char *const world_props[] = {"integrator", "cell_size", "resolve_contacts", "resolve_agent_contacts",
                                          "steps", "workers", NULL};

/* ---- core ------------------------------------------------------------------------ */

// A table whose values are weak (proxy caches).
static void push_weak_table(lua_State *L)
{
    lua_newtable(L);
    if (luaL_newmetatable(L, "steer.weak_values")) {
        lua_pushliteral(L, "v");
        lua_setfield(L, -2, "__mode");
    }
    lua_setmetatable(L, -2);
}

// Push a new world proxy and its core (the proxy at -1). The userdata come
// first, then the world is attached: running out of memory leaks nothing.
static lworld *new_world_proxy(lua_State *L)
{
    lworld *lw = lua_newuserdatauv(L, sizeof *lw, 1);
    lw->core = NULL;
    luaL_setmetatable(L, STEER_LUA_WORLD);
    lcore *core = lua_newuserdatauv(L, sizeof *core, CORE_UV_COUNT);
    memset(core, 0, sizeof *core);
    push_weak_table(L);
    lua_setiuservalue(L, -2, CORE_UV_AGENTS);
    push_weak_table(L);
    lua_setiuservalue(L, -2, CORE_UV_SHAPES);
    for (int uv = CORE_UV_STEERING; uv <= CORE_UV_ANCHOR; ++uv) {
        lua_newtable(L);
        lua_setiuservalue(L, -2, uv);
    }
    lua_setiuservalue(L, -2, 1);
    lw->core = core;
    return lw;
}

// Destroy (or detach) the world of a core; its Lua-side tables are dropped
// so the behaviours they kept can be collected.
static void close_core(lua_State *L, int core_idx)
{
    lcore *core = lua_touserdata(L, core_idx);
    if (core->world != NULL && core->owned) steer_world_destroy(core->world);
    core->world = NULL;
    core->close_pending = false;
    for (int uv = CORE_UV_STEERING; uv <= CORE_UV_ANCHOR; ++uv) {
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
}

/* ---- engine calls that may call Lua back --------------------------------------- */

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
        msg = lua_pushfstring(L, "%s\n(in the Lua behaviour of the agent with key %I)", msg, (LUAI_UACINT)s->agent_key);
    luaL_traceback(L, L, msg, 1);
    return 1;
}

extern const char steer_lua__behaviours_key;

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
    lua_getiuservalue(L, core_idx, CORE_UV_AGENTS);
    s->agents_idx = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &steer_lua__behaviours_key);
    s->behaviours_idx = lua_gettop(L);
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
    if (--core->busy == 0 && core->close_pending) close_core(L, s->core_idx);
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

#define STEER_STRINGIFY_(x) #x
#define STEER_STRINGIFY(x) STEER_STRINGIFY_(x)

/* ---- steer.world ------------------------------------------------------------------ */

// A cell size the engine accepts (steer_cell_size_is_valid), checked in
// double first so the message shows the value as given.
static float check_cell_size(lua_State *L, laux_where w, int vidx)
{
    double v = laux_number(L, w, vidx, LAUX_POSITIVE);
    if (!(v >= 1e-3 && v <= 1e9) || !steer_cell_size_is_valid((float)v))
        laux_error(L, w, "must be in [0.001, 1e9]", vidx);
    return (float)v;
}

// steer.world{seed=, integrator=, cell_size=, capacity=, resolve_contacts=,
//             resolve_agent_contacts=, workers=} -> world
static int world_new(lua_State *L)
{
    steer_world_def def = steer_default_world_def();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 1) != 0) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
            laux_where w = laux_field(1, k);
            if (strcmp(k, "seed") == 0) {
                if (!lua_isinteger(L, -1)) laux_error(L, w, "must be an integer", -1);
                def.seed = (uint64_t)lua_tointeger(L, -1);
            } else if (strcmp(k, "integrator") == 0) {
                def.integrator = (steer_integrator)laux_enum(L, w, -1, integrator_names);
            } else if (strcmp(k, "cell_size") == 0) {
                def.cell_size = check_cell_size(L, w, -1);
            } else if (strcmp(k, "capacity") == 0) {
                if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 0x10000000)
                    laux_error(L, w, "must be an integer in [0, 2^28]", -1);
                def.agent_capacity = (int)lua_tointeger(L, -1);
            } else if (strcmp(k, "resolve_contacts") == 0) {
                def.resolve_contacts = laux_boolean(L, w, -1);
            } else if (strcmp(k, "resolve_agent_contacts") == 0) {
                def.resolve_agent_contacts = laux_boolean(L, w, -1);
            } else if (strcmp(k, "workers") == 0) {
                if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > STEER_MAX_WORKERS)
                    laux_error(L, w, "must be an integer in [1, " STEER_STRINGIFY(STEER_MAX_WORKERS) "]", -1);
                def.worker_count = (int)lua_tointeger(L, -1);
            } else {
                laux_unknown_field(L, 1, -2);
            }
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 0);
    lworld *lw = new_world_proxy(L);
    lw->core->world = steer_world_create(&def);
    if (lw->core->world == NULL) return luaL_error(L, "not enough memory or threads for the world");
    lw->core->owned = true;
    return 1;
}

/* ---- spawn -------------------------------------------------------------------------- */

enum spawn_field {
    F_X, F_Y, F_ORIENTATION, F_VX, F_VY, F_ROTATION, F_RADIUS, F_MAX_SPEED, F_MAX_ACCELERATION,
    F_MAX_ROTATION, F_MAX_ANGULAR_ACCELERATION, F_DRAG, F_KINEMATIC, F_FACE_VELOCITY, F_STEERING,
    F_ROLE, F_TAG, F_KEY, F_COUNT
};
static const char *const spawn_fields[F_COUNT] = {
    "x", "y", "orientation", "vx", "vy", "rotation", "radius", "max_speed", "max_acceleration",
    "max_rotation", "max_angular_acceleration", "drag", "kinematic", "face_velocity", "steering",
    "role", "tag", "key",
};

static int spawn_field_of(lua_State *L, int kidx)
{
    if (lua_type(L, kidx) != LUA_TSTRING) return -1;
    const char *k = lua_tostring(L, kidx);
    for (int i = 0; i < F_COUNT; ++i) {
        if (strcmp(k, spawn_fields[i]) == 0) return i;
    }
    return -1;
}

// Read one spawn option (value at -1) into the definition; steering, role
// and tag are copied to the slots 3, 4, 5.
static void spawn_option(lua_State *L, steer_agent_def *d, int f)
{
    laux_where w = laux_field(2, spawn_fields[f]);
    if (f <= F_ROTATION) {
        float v = (float)laux_number(L, w, -1, LAUX_FINITE);
        float *dst[] = {&d->state.position.x, &d->state.position.y, &d->state.orientation,
                        &d->state.velocity.x, &d->state.velocity.y, &d->state.rotation};
        *dst[f] = v;
    } else if (f <= F_DRAG) {
        float v = (float)laux_number(L, w, -1, LAUX_LIMIT);
        float *dst[] = {&d->limits.radius, &d->limits.max_speed, &d->limits.max_acceleration,
                        &d->limits.max_rotation, &d->limits.max_angular_acceleration, &d->limits.drag};
        *dst[f - F_RADIUS] = v;
    } else if (f == F_KINEMATIC) {
        d->kinematic = laux_boolean(L, w, -1);
    } else if (f == F_FACE_VELOCITY) {
        d->face_velocity = laux_boolean(L, w, -1);
    } else if (f == F_STEERING) {
        lbehaviour *lb = steer_lua__test_behaviour(L, -1);
        if (lb == NULL) laux_error(L, w, "must be a behaviour", -1);
        d->behaviour = lb->b;
        lua_pushvalue(L, -1);
        lua_replace(L, 3);
    } else if (f == F_KEY) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) <= 0) laux_error(L, w, "must be a positive integer", -1);
        d->key = (uint64_t)lua_tointeger(L, -1);
    } else {
        if (lua_type(L, -1) != LUA_TSTRING) laux_error(L, w, "must be a string", -1);
        lua_pushvalue(L, -1);
        lua_replace(L, f == F_ROLE ? 4 : 5);
    }
}

// world:spawn{x=, y=, orientation=, vx=, vy=, rotation=, radius=, max_speed=,
//   max_acceleration=, max_rotation=, max_angular_acceleration=, drag=,
//   kinematic=, face_velocity=, steering=, role=, tag=, key=} -> agent
static int world_spawn(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_agent_def def = steer_default_agent_def();
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_pushnil(L); // 3: steering
    lua_pushnil(L); // 4: role
    lua_pushnil(L); // 5: tag
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
        int f = spawn_field_of(L, -2);
        if (f < 0) return laux_unknown_field(L, 2, -2);
        spawn_option(L, &def, f);
        lua_pop(L, 1);
    }
    lua_getiuservalue(L, 1, 1); // 6: core
    // the proxy first, then the agent
    lagent *a = lua_newuserdatauv(L, sizeof *a, 1); // 7
    a->core = core;
    a->id = steer_null_agent;
    lua_pushvalue(L, 6);
    lua_setiuservalue(L, 7, 1);
    luaL_setmetatable(L, STEER_LUA_AGENT);
    lua_getiuservalue(L, 6, CORE_UV_AGENTS); // 8
    steer_agent_id id = steer_agent_create(core->world, &def);
    if (steer_agent_id_is_null(id)) return luaL_error(L, "not enough memory");
    a->id = id;
    lua_pushvalue(L, 7);
    lua_rawseti(L, 8, id.index);
    lua_Integer key = steer_lua__agent_key(id);
    for (int slot = 3; slot <= 5; ++slot) {
        if (lua_isnil(L, slot)) continue;
        lua_getiuservalue(L, 6, slot == 3 ? CORE_UV_STEERING : slot == 4 ? CORE_UV_ROLE : CORE_UV_TAG);
        lua_pushvalue(L, slot);
        lua_rawseti(L, -2, key);
        lua_pop(L, 1);
    }
    // a role without steering: the spawn hook (if any) gives the role's behaviour
    if (lua_isnil(L, 3) && !lua_isnil(L, 4)) {
        steer_lua__push_spawn_steering(L, 7, 4);
        if (!lua_isnil(L, -1)) {
            if (steer_lua__test_behaviour(L, -1) == NULL)
                return luaL_error(L, "the behaviour of role '%s' is not a behaviour", lua_tostring(L, 4));
            steer_lua__set_steering(L, 6, id, -1, false);
        }
    }
    lua_pushvalue(L, 7);
    return 1;
}

/* ---- stepping and queries ------------------------------------------------------------- */

// world:step(dt): dt in seconds, 0 <= dt <= 10000
static int world_step(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    float dt = laux_check_float(L, 2, LAUX_NONNEGATIVE);
    if (dt > 1.0e4f) laux_error(L, laux_arg(2), "must be at most 10000", 2);
    if (steer_world_is_stepping(core->world)) return luaL_error(L, "attempt to step a world while it is stepping");
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    lstep s;
    steer_lua__step_begin(L, &s, 3);
    steer_world_step(core->world, dt);
    steer_lua__step_end(L, &s);
    return 0;
}

// world:count() -> number of live agents
static int world_count(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_pushinteger(L, steer_world_agent_count(core->world));
    return 1;
}

// The agents() iterator: upvalues world, core and the next dense index.
// Descending, so removing the current agent (swap-remove) skips nothing.
static int agents_next(lua_State *L)
{
    lcore *core = lua_touserdata(L, lua_upvalueindex(2));
    if (core->world == NULL) return luaL_error(L, "attempt to use a closed world");
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    int count = steer_world_agent_count(core->world);
    if (i >= count) i = count - 1;
    if (i < 0) return 0;
    lua_pushinteger(L, i - 1);
    lua_replace(L, lua_upvalueindex(3));
    steer_lua__push_agent(L, lua_upvalueindex(2), steer_world_agent_at(core->world, (int)i));
    return 1;
}

// world:agents() -> iterator over the live agents (for agent in world:agents() do)
static int world_agents(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_pushinteger(L, steer_world_agent_count(core->world) - 1);
    lua_pushcclosure(L, agents_next, 3);
    return 1;
}

// world:query(x, y, radius) -> list of the agents within radius (distance < radius)
static int world_query(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    float x = laux_check_float(L, 2, LAUX_FINITE);
    float y = laux_check_float(L, 3, LAUX_FINITE);
    float r = laux_check_float(L, 4, LAUX_NONNEGATIVE);
    lua_settop(L, 4);
    lua_getiuservalue(L, 1, 1); // 5
    steer_agent_id local[64];
    steer_agent_id *ids = local;
    int n = steer_world_query(core->world, steer_v2(x, y), r, ids, 64);
    if (n > 64) {
        ids = lua_newuserdatauv(L, sizeof *ids * (size_t)n, 0);
        n = steer_world_query(core->world, steer_v2(x, y), r, ids, n);
    }
    lua_createtable(L, n, 0);
    int t = lua_gettop(L);
    for (int i = 0; i < n; ++i) {
        steer_lua__push_agent(L, 5, ids[i]);
        lua_rawseti(L, t, i + 1);
    }
    return 1;
}

// world:hash() -> integer digest of every agent's state (order-independent)
static int world_hash(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_pushinteger(L, (lua_Integer)steer_world_hash(core->world));
    return 1;
}

// world:close(): destroy the world now; its agents' proxies raise afterwards
static int world_close(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return 0;
    if (!lw->core->owned) return luaL_error(L, "attempt to close a world owned by its host");
    if (lw->core->busy > 0) return luaL_error(L, "attempt to close a world while it is stepping");
    lua_getiuservalue(L, 1, 1);
    close_core(L, lua_gettop(L));
    return 0;
}

// world:path{ {x, y}, ..., loop = false } -> path (same as steer.path)
static int world_path(lua_State *L)
{
    steer_lua__check_world(L, 1);
    return steer_lua__new_path(L, 2);
}

/* ---- static geometry ------------------------------------------------------------------ */

// Static geometry lives within +-1e15 m (the engine's bound).
#define GEOMETRY_MAX STEER_MAX_COORDINATE

static float check_coord(lua_State *L, int arg)
{
    float v = laux_check_float(L, arg, LAUX_FINITE);
    if (v > GEOMETRY_MAX || v < -GEOMETRY_MAX) laux_error(L, laux_arg(arg), "must be within [-1e15, 1e15]", arg);
    return v;
}

static int push_new_shape(lua_State *L, lcore *core, steer_shape_id id)
{
    (void)core;
    if (steer_shape_id_is_null(id)) return luaL_error(L, "could not add the shape (not enough memory?)");
    lua_getiuservalue(L, 1, 1);
    steer_lua__push_shape(L, lua_gettop(L), id);
    return 1;
}

// world:add_wall(x1, y1, x2, y2) -> shape: a wall segment between two distinct points
static int world_add_wall(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_vec2 a = {check_coord(L, 2), check_coord(L, 3)};
    steer_vec2 b = {check_coord(L, 4), check_coord(L, 5)};
    if (a.x == b.x && a.y == b.y) return luaL_error(L, "bad arguments to 'add_wall' (the two points are the same)");
    return push_new_shape(L, core, steer_world_add_segment(core->world, a, b));
}

// world:add_circle(x, y, radius) -> shape: a solid circle
static int world_add_circle(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_vec2 c = {check_coord(L, 2), check_coord(L, 3)};
    float r = laux_check_float(L, 4, LAUX_POSITIVE);
    if (r > GEOMETRY_MAX) laux_error(L, laux_arg(4), "must be at most 1e15", 4);
    return push_new_shape(L, core, steer_world_add_circle(core->world, c, r));
}

// world:add_box(x1, y1, x2, y2) -> shape: a solid axis-aligned box (corners in any order)
static int world_add_box(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    float x1 = check_coord(L, 2), y1 = check_coord(L, 3);
    float x2 = check_coord(L, 4), y2 = check_coord(L, 5);
    if (x1 == x2 || y1 == y2) return luaL_error(L, "bad arguments to 'add_box' (the box is empty)");
    steer_vec2 lo = {steer_minf(x1, x2), steer_minf(y1, y2)}, hi = {steer_maxf(x1, x2), steer_maxf(y1, y2)};
    return push_new_shape(L, core, steer_world_add_box(core->world, lo, hi));
}

// Read a list of points {{x, y}, ...} at arg into a userdata buffer (pushed).
static steer_vec2 *check_points(lua_State *L, int arg, int min, int max, int *count)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    if (n < min || n > max) {
        const char *msg = lua_pushfstring(L, "must hold %d to %d points, got %I", min, max, (LUAI_UACINT)n);
        luaL_argerror(L, arg, msg);
    }
    steer_vec2 *p = lua_newuserdatauv(L, sizeof *p * (size_t)n, 0);
    for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, arg, i);
        char name[32];
        snprintf(name, sizeof name, "[%d]", (int)i);
        laux_point(L, laux_field(arg, name), -1, &p[i - 1].x, &p[i - 1].y);
        if (steer_absf(p[i - 1].x) > GEOMETRY_MAX || steer_absf(p[i - 1].y) > GEOMETRY_MAX)
            laux_error_plain(L, laux_field(arg, name), "must be within [-1e15, 1e15]");
        lua_pop(L, 1);
    }
    *count = (int)n;
    return p;
}

// Only the keys of a list plus the named options are allowed.
static void check_list_keys(lua_State *L, int arg, const char *option)
{
    // lua_next on anything but a table is undefined (it crashed on a number)
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n) continue;
        if (option != NULL && lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), option) == 0) continue;
        laux_unknown_field(L, arg, -1);
    }
}

// world:add_polygon{ {x, y}, ... } -> shape: a solid convex polygon (3 to 16 points)
static int world_add_polygon(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    int n;
    check_list_keys(L, 2, NULL);
    steer_vec2 *p = check_points(L, 2, 3, STEER_MAX_POLYGON_VERTICES, &n);
    if (!steer_polygon_is_valid(p, n)) return luaL_argerror(L, 2, "the polygon must be convex, with no three points in line");
    return push_new_shape(L, core, steer_world_add_polygon(core->world, p, n));
}

// world:add_polyline{ {x, y}, ..., loop = false } -> shape: a chain of walls
static int world_add_polyline(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    check_list_keys(L, 2, "loop");
    bool loop = false;
    if (lua_getfield(L, 2, "loop") != LUA_TNIL) loop = laux_boolean(L, laux_field(2, "loop"), -1);
    lua_pop(L, 1);
    int n;
    steer_vec2 *p = check_points(L, 2, 2, 1 << 22, &n);
    for (int i = 0; i + 1 < n; ++i) {
        if (p[i].x == p[i + 1].x && p[i].y == p[i + 1].y) return luaL_argerror(L, 2, "consecutive points must differ");
    }
    if (loop && steer_polyline_link_count(p, n, loop) < 3) return luaL_argerror(L, 2, "a loop needs at least 3 distinct points");
    return push_new_shape(L, core, steer_world_add_polyline(core->world, p, n, loop));
}

// world:raycast(x, y, dx, dy, max_distance [, filter]) -> x, y, nx, ny, distance, hit
// or nil. filter: {mask = bits, agents = bool, ignore = agent}. hit is the
// shape or agent hit.
static int world_raycast(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_vec2 o = {laux_check_float(L, 2, LAUX_FINITE), laux_check_float(L, 3, LAUX_FINITE)};
    steer_vec2 d = {laux_check_float(L, 4, LAUX_FINITE), laux_check_float(L, 5, LAUX_FINITE)};
    float max_distance = laux_check_float(L, 6, LAUX_NONNEGATIVE);
    steer_ray_filter filter = steer_default_ray_filter();
    if (!lua_isnoneornil(L, 7)) {
        luaL_checktype(L, 7, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 7) != 0) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
            laux_where w = laux_field(7, k);
            if (strcmp(k, "mask") == 0) {
                if (!lua_isinteger(L, -1)) laux_error(L, w, "must be an integer", -1);
                filter.mask = (uint32_t)lua_tointeger(L, -1);
            } else if (strcmp(k, "agents") == 0) {
                filter.include_agents = laux_boolean(L, w, -1);
            } else if (strcmp(k, "ignore") == 0) {
                lagent *a = steer_lua__test_agent(L, -1);
                if (a == NULL) laux_error(L, w, "must be an agent", -1);
                filter.ignore = a->id;
            } else {
                laux_unknown_field(L, 7, -2);
            }
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 7);
    lua_getiuservalue(L, 1, 1); // 8
    steer_ray_hit hit;
    if (!steer_world_raycast(core->world, o, d, max_distance, &filter, &hit)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, hit.point.x);
    lua_pushnumber(L, hit.point.y);
    lua_pushnumber(L, hit.normal.x);
    lua_pushnumber(L, hit.normal.y);
    lua_pushnumber(L, hit.distance);
    if (!steer_agent_id_is_null(hit.agent))
        steer_lua__push_agent(L, 8, hit.agent);
    else if (!steer_shape_id_is_null(hit.shape))
        steer_lua__push_shape(L, 8, hit.shape);
    else
        lua_pushnil(L);
    return 6;
}

/* ---- properties and metamethods ---------------------------------------------------------- */

// world.integrator ("euler" | "newton"), world.cell_size (m), world.resolve_contacts,
// world.resolve_agent_contacts, world.steps and world.workers (read-only)
static int world_index(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_WORLD);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pushvalue(L, 2);
    const char *k = lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL ? lua_tostring(L, 2) : NULL;
    if (k == NULL) return luaL_error(L, "steer.World has no property '%s'", luaL_tolstring(L, 2, NULL));
    lcore *core = steer_lua__check_world(L, 1);
    if (strcmp(k, "integrator") == 0)
        lua_pushstring(L, integrator_names[steer_world_get_integrator(core->world)]);
    else if (strcmp(k, "cell_size") == 0)
        laux_push_float(L, steer_world_get_cell_size(core->world));
    else if (strcmp(k, "resolve_contacts") == 0)
        lua_pushboolean(L, steer_world_get_resolve_contacts(core->world));
    else if (strcmp(k, "resolve_agent_contacts") == 0)
        lua_pushboolean(L, steer_world_get_resolve_agent_contacts(core->world));
    else if (strcmp(k, "steps") == 0)
        lua_pushinteger(L, (lua_Integer)steer_world_step_count(core->world));
    else if (strcmp(k, "workers") == 0)
        lua_pushinteger(L, steer_world_get_worker_count(core->world));
    else
        return luaL_error(L, "steer.World has no property '%s'", k);
    return 1;
}

// world.integrator = "euler" | "newton", world.cell_size = m, world.resolve_contacts = bool,
// world.resolve_agent_contacts = bool
static int world_newindex(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_WORLD);
    const char *k = lua_tostring(L, 2);
    if (k == NULL) k = luaL_tolstring(L, 2, NULL);
    lcore *core = steer_lua__check_world(L, 1);
    laux_where w = laux_property(STEER_LUA_WORLD, k);
    bool setting = strcmp(k, "integrator") == 0 || strcmp(k, "cell_size") == 0 || strcmp(k, "resolve_contacts") == 0 ||
                   strcmp(k, "resolve_agent_contacts") == 0;
    if (strcmp(k, "steps") == 0 || strcmp(k, "workers") == 0)
        return luaL_error(L, "property '%s' of steer.World is read-only", k);
    if (!setting) return luaL_error(L, "steer.World has no property '%s'", k);
    if (core->settings_locked) return luaL_error(L, "attempt to change '%s' of a world owned by its host", k);
    if (strcmp(k, "integrator") == 0) {
        steer_integrator v = (steer_integrator)laux_enum(L, w, 3, integrator_names);
        steer_lua__check_mutable(L, core);
        steer_world_set_integrator(core->world, v);
    } else if (strcmp(k, "cell_size") == 0) {
        float v = check_cell_size(L, w, 3);
        steer_lua__check_mutable(L, core);
        steer_world_set_cell_size(core->world, v);
    } else {
        bool v = laux_boolean(L, w, 3);
        steer_lua__check_mutable(L, core);
        if (strcmp(k, "resolve_contacts") == 0) steer_world_set_resolve_contacts(core->world, v);
        else steer_world_set_resolve_agent_contacts(core->world, v);
    }
    return 0;
}

static int world_gc(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return 0;
    // an engine call on this world is in progress (get_steering through an
    // agent proxy): destroy when it returns
    if (lw->core->busy > 0) {
        lw->core->close_pending = true;
        return 0;
    }
    lua_getiuservalue(L, 1, 1);
    close_core(L, lua_gettop(L));
    return 0;
}

static int world_tostring(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL)
        lua_pushliteral(L, "steer.World{closed}");
    else
        lua_pushfstring(L, "steer.World{agents=%d, steps=%I}", steer_world_agent_count(lw->core->world),
                        (LUAI_UACINT)steer_world_step_count(lw->core->world));
    return 1;
}

static const luaL_Reg world_methods[] = {
    {"add_box", world_add_box},
    {"add_circle", world_add_circle},
    {"add_polygon", world_add_polygon},
    {"add_polyline", world_add_polyline},
    {"add_wall", world_add_wall},
    {"agents", world_agents},
    {"close", world_close},
    {"count", world_count},
    {"hash", world_hash},
    {"path", world_path},
    {"query", world_query},
    {"raycast", world_raycast},
    {"spawn", world_spawn},
    {"step", world_step},
    {NULL, NULL},
};

static const luaL_Reg world_meta[] = {
    {"__newindex", world_newindex},
    {"__gc", world_gc},
    {"__close", world_gc},
    {"__tostring", world_tostring},
    {NULL, NULL},
};

void steer_lua__open_world(lua_State *L)
{
    laux_new_class(L, STEER_LUA_WORLD, world_meta);
    luaL_newlib(L, world_methods);
    laux_push_set(L, world_props);
    lua_pushcclosure(L, world_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_pushcfunction(L, world_new);
    lua_setfield(L, -2, "world");
}

/* ---- host API ------------------------------------------------------------------------------ */

steer_world *steer_lua_toworld(lua_State *L, int index)
{
    lworld *lw = luaL_testudata(L, index, STEER_LUA_WORLD);
    return lw != NULL && lw->core != NULL ? lw->core->world : NULL;
}

void steer_lua_pushworld(lua_State *L, steer_world *world)
{
    lworld *lw = new_world_proxy(L);
    lw->core->world = world;
    lw->core->owned = false;
    lw->core->settings_locked = true;
}

void steer_lua_allow_world_settings(lua_State *L, int index, bool allow)
{
    lworld *lw = luaL_checkudata(L, index, STEER_LUA_WORLD);
    if (lw->core != NULL) lw->core->settings_locked = !allow;
}

void steer_lua_close_world(lua_State *L, int index)
{
    index = lua_absindex(L, index);
    lworld *lw = luaL_checkudata(L, index, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return;
    if (lw->core->busy > 0) {
        luaL_error(L, "attempt to close a world while it is stepping");
        return;
    }
    lua_getiuservalue(L, index, 1);
    close_core(L, lua_gettop(L));
    lua_pop(L, 1);
}
