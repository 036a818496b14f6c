// wrap_agent.c: steer.Agent, one proxy per agent. A proxy borrows: the
// world owns the agent, and collecting a proxy never removes it.
#include "bind.h"

#include <string.h>

/* ---- proxies ------------------------------------------------------------------------ */

void steer_lua__push_agent(lua_State *L, int core_idx, steer_agent_id id)
{
    core_idx = lua_absindex(L, core_idx);
    lua_getiuservalue(L, core_idx, CORE_UV_AGENTS);
    // the cache is keyed by slot; a proxy of a removed agent of the same
    // slot is replaced (whoever holds it keeps a stale proxy)
    if (lua_rawgeti(L, -1, id.index) == LUA_TUSERDATA) {
        lagent *a = lua_touserdata(L, -1);
        if (steer_agent_id_equal(a->id, id)) {
            lua_remove(L, -2);
            return;
        }
    }
    lua_pop(L, 1);
    lagent *a = lua_newuserdatauv(L, sizeof *a, 1);
    a->core = lua_touserdata(L, core_idx);
    a->id = id;
    lua_pushvalue(L, core_idx);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, STEER_LUA_AGENT);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, id.index);
    lua_remove(L, -2);
}

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
    lua_Integer key = steer_lua__agent_key(id);
    for (int uv = CORE_UV_STEERING; uv <= CORE_UV_ANCHOR; ++uv) {
        if (lua_getiuservalue(L, core_idx, uv) == LUA_TTABLE) {
            lua_pushnil(L);
            lua_rawseti(L, -2, key);
        }
        lua_pop(L, 1);
    }
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
    lua_rawseti(L, -2, steer_lua__agent_key(id));
    lua_pop(L, 1);
    steer_agent_set_behaviour(core->world, id, lb != NULL ? lb->b : NULL, keep_memory);
}

/* ---- methods -------------------------------------------------------------------------- */

// agent:position() -> x, y (metres)
static int agent_position(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 p = steer_agent_get_position(a->core->world, a->id);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

// agent:velocity() -> vx, vy (metres/second)
static int agent_velocity(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 v = steer_agent_get_velocity(a->core->world, a->id);
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

// agent:heading() -> hx, hy: the unit vector (sin a, cos a) of the orientation a
static int agent_heading(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 h = steer_heading(steer_agent_get_orientation(a->core->world, a->id));
    lua_pushnumber(L, h.x);
    lua_pushnumber(L, h.y);
    return 2;
}

// agent:set_position(x, y)
static int agent_set_position(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 p = {laux_check_float(L, 2, LAUX_FINITE), laux_check_float(L, 3, LAUX_FINITE)};
    steer_lua__check_mutable(L, a->core);
    steer_agent_set_position(a->core->world, a->id, p);
    return 0;
}

// agent:set_velocity(vx, vy)
static int agent_set_velocity(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 v = {laux_check_float(L, 2, LAUX_FINITE), laux_check_float(L, 3, LAUX_FINITE)};
    steer_lua__check_mutable(L, a->core);
    steer_agent_set_velocity(a->core->world, a->id, v);
    return 0;
}

// agent:set_orientation(a [, rotation]): radians, wrapped into (-pi, pi]
static int agent_set_orientation(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    float orientation = laux_check_float(L, 2, LAUX_FINITE);
    steer_kinematic k = steer_agent_get_state(a->core->world, a->id);
    k.orientation = orientation;
    if (!lua_isnoneornil(L, 3)) k.rotation = laux_check_float(L, 3, LAUX_FINITE);
    steer_lua__check_mutable(L, a->core);
    steer_agent_set_state(a->core->world, a->id, &k);
    return 0;
}

// agent:set_steering(behaviour or nil [, keep_memory]): like agent.steering =
// behaviour, but keep_memory keeps the wander angle and path progress
static int agent_set_steering(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    if (!lua_isnil(L, 2) && steer_lua__test_behaviour(L, 2) == NULL)
        laux_error(L, laux_arg(2), "must be a behaviour or nil", 2);
    bool keep = lua_toboolean(L, 3) != 0;
    steer_lua__check_mutable(L, a->core);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    steer_lua__set_steering(L, 3, a->id, 2, keep);
    return 0;
}

// agent:last_steering() -> lx, ly, angular: what the last step applied
static int agent_last_steering(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_steering s = steer_agent_get_last_steering(a->core->world, a->id);
    lua_pushnumber(L, s.linear.x);
    lua_pushnumber(L, s.linear.y);
    lua_pushnumber(L, s.angular);
    return 3;
}

// agent:remove(): the agent leaves the world; its proxies raise afterwards
static int agent_remove(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_lua__check_mutable(L, a->core);
    lua_getiuservalue(L, 1, 1);
    steer_lua__forget_agent(L, -1, a->id);
    steer_agent_destroy(a->core->world, a->id);
    return 0;
}

// agent:alive() -> false once removed or its world closed
static int agent_alive(lua_State *L)
{
    lagent *a = luaL_checkudata(L, 1, STEER_LUA_AGENT);
    lua_pushboolean(L, a->core->world != NULL && steer_agent_is_valid(a->core->world, a->id));
    return 1;
}

/* ---- properties -------------------------------------------------------------------------- */

enum agent_prop {
    P_X, P_Y, P_VX, P_VY, P_ORIENTATION, P_ROTATION, P_SPEED, P_KEY, // read-only
    P_RADIUS, P_MAX_SPEED, P_MAX_ACCELERATION, P_MAX_ROTATION, P_MAX_ANGULAR_ACCELERATION, P_DRAG,
    P_KINEMATIC, P_FACE_VELOCITY, P_TRACE, P_STEERING, P_ROLE, P_TAG, P_COUNT
};
static const char *const prop_names[P_COUNT] = {
    "x", "y", "vx", "vy", "orientation", "rotation", "speed", "key", "radius", "max_speed",
    "max_acceleration", "max_rotation", "max_angular_acceleration", "drag", "kinematic",
    "face_velocity", "trace", "steering", "role", "tag",
};

static float *limit_field(steer_limits *l, int p)
{
    float *f[] = {&l->radius, &l->max_speed, &l->max_acceleration, &l->max_rotation,
                  &l->max_angular_acceleration, &l->drag};
    return f[p - P_RADIUS];
}

// The property code of the key at 2 (upvalue 2 maps names to codes), or -1.
static int prop_of(lua_State *L)
{
    lua_pushvalue(L, 2);
    int p = lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 1);
    return p;
}

static int no_property(lua_State *L)
{
    return luaL_error(L, "steer.Agent has no property '%s'", luaL_tolstring(L, 2, NULL));
}

static void push_side_table(lua_State *L, int uv, lua_Integer key)
{
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, -1, uv);
    lua_rawgeti(L, -1, key);
}

static int agent_index(lua_State *L)
{
    lagent *a = luaL_checkudata(L, 1, STEER_LUA_AGENT);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; // a method
    int p = prop_of(L);
    if (p < 0) return no_property(L);
    steer_lua__check_alive(L, a);
    steer_world *w = a->core->world;
    if (p <= P_SPEED) {
        steer_kinematic k = steer_agent_get_state(w, a->id);
        float v[] = {k.position.x, k.position.y, k.velocity.x, k.velocity.y, k.orientation, k.rotation,
                     steer_length(k.velocity)};
        lua_pushnumber(L, v[p]);
    } else if (p == P_KEY) {
        lua_pushinteger(L, (lua_Integer)steer_agent_get_key(w, a->id));
    } else if (p <= P_DRAG) {
        steer_limits l = steer_agent_get_limits(w, a->id);
        laux_push_float(L, *limit_field(&l, p));
    } else if (p == P_KINEMATIC) {
        lua_pushboolean(L, steer_agent_get_kinematic(w, a->id));
    } else if (p == P_FACE_VELOCITY) {
        lua_pushboolean(L, steer_agent_get_face_velocity(w, a->id));
    } else if (p == P_TRACE) {
        lua_pushboolean(L, steer_agent_get_trace(w, a->id));
    } else if (p == P_STEERING) {
        steer_behaviour *b = steer_agent_get_behaviour(w, a->id);
        if (b == NULL) {
            lua_pushnil(L);
            return 1;
        }
        // the value Lua gave (same userdata), unless the host set another in C
        push_side_table(L, CORE_UV_STEERING, steer_lua__agent_key(a->id));
        lbehaviour *lb = steer_lua__test_behaviour(L, -1);
        if (lb == NULL || lb->b != b) steer_lua__push_behaviour(L, b);
    } else {
        push_side_table(L, p == P_ROLE ? CORE_UV_ROLE : CORE_UV_TAG, steer_lua__agent_key(a->id));
    }
    return 1;
}

static int agent_newindex(lua_State *L)
{
    lagent *a = luaL_checkudata(L, 1, STEER_LUA_AGENT);
    int p = prop_of(L);
    if (p < 0) return luaL_error(L, "steer.Agent has no property '%s'", luaL_tolstring(L, 2, NULL));
    if (p <= P_KEY) return luaL_error(L, "property '%s' of steer.Agent is read-only", prop_names[p]);
    steer_lua__check_alive(L, a);
    laux_where where = laux_property(STEER_LUA_AGENT, prop_names[p]);
    steer_world *w = a->core->world;
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, 1); // 4: core
    if (p <= P_DRAG) {
        float v = (float)laux_number(L, where, 3, LAUX_LIMIT);
        steer_lua__check_mutable(L, a->core);
        steer_limits l = steer_agent_get_limits(w, a->id);
        *limit_field(&l, p) = v;
        steer_agent_set_limits(w, a->id, &l);
    } else if (p == P_KINEMATIC || p == P_FACE_VELOCITY) {
        bool on = laux_boolean(L, where, 3);
        steer_lua__check_mutable(L, a->core);
        if (p == P_KINEMATIC)
            steer_agent_set_kinematic(w, a->id, on);
        else
            steer_agent_set_face_velocity(w, a->id, on);
    } else if (p == P_TRACE) {
        bool on = laux_boolean(L, where, 3);
        steer_lua__check_mutable(L, a->core);
        if (!steer_agent_set_trace(w, a->id, on)) return luaL_error(L, "not enough memory");
    } else if (p == P_STEERING) {
        if (!lua_isnil(L, 3) && steer_lua__test_behaviour(L, 3) == NULL)
            laux_error(L, where, "must be a behaviour or nil", 3);
        steer_lua__check_mutable(L, a->core);
        steer_lua__set_steering(L, 4, a->id, 3, false);
    } else {
        if (!lua_isnil(L, 3) && lua_type(L, 3) != LUA_TSTRING) laux_error(L, where, "must be a string or nil", 3);
        lua_getiuservalue(L, 4, p == P_ROLE ? CORE_UV_ROLE : CORE_UV_TAG);
        lua_pushvalue(L, 3);
        lua_rawseti(L, -2, steer_lua__agent_key(a->id));
    }
    return 0;
}

static int agent_eq(lua_State *L)
{
    lagent *a = luaL_testudata(L, 1, STEER_LUA_AGENT), *b = luaL_testudata(L, 2, STEER_LUA_AGENT);
    lua_pushboolean(L, a != NULL && b != NULL && a->core == b->core && steer_agent_id_equal(a->id, b->id));
    return 1;
}

static int agent_tostring(lua_State *L)
{
    lagent *a = luaL_checkudata(L, 1, STEER_LUA_AGENT);
    if (a->core->world == NULL || !steer_agent_is_valid(a->core->world, a->id)) {
        lua_pushliteral(L, "steer.Agent{removed}");
        return 1;
    }
    steer_vec2 p = steer_agent_get_position(a->core->world, a->id);
    lua_pushfstring(L, "steer.Agent{key=%I, x=%f, y=%f}", (LUAI_UACINT)steer_agent_get_key(a->core->world, a->id),
                    (LUAI_UACNUMBER)laux_float_value(p.x), (LUAI_UACNUMBER)laux_float_value(p.y));
    return 1;
}

static const luaL_Reg agent_methods[] = {
    {"alive", agent_alive},
    {"heading", agent_heading},
    {"last_steering", agent_last_steering},
    {"position", agent_position},
    {"remove", agent_remove},
    {"set_orientation", agent_set_orientation},
    {"set_position", agent_set_position},
    {"set_steering", agent_set_steering},
    {"set_velocity", agent_set_velocity},
    {"velocity", agent_velocity},
    {NULL, NULL},
};

static const luaL_Reg agent_meta[] = {
    {"__newindex", NULL}, // set below (needs the property table)
    {"__eq", agent_eq},
    {"__tostring", agent_tostring},
    {NULL, NULL},
};

void steer_lua__open_agent(lua_State *L)
{
    laux_new_class(L, STEER_LUA_AGENT, agent_meta);
    luaL_newlib(L, agent_methods);
    lua_createtable(L, 0, P_COUNT);
    for (int i = 0; i < P_COUNT; ++i) {
        lua_pushinteger(L, i);
        lua_setfield(L, -2, prop_names[i]);
    }
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, agent_index, 2);
    lua_setfield(L, -4, "__index");
    lua_pushcclosure(L, agent_newindex, 2);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
}
