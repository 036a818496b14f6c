// wrap_agent.c: steer.Agent, one proxy per agent. A proxy borrows: the
// world owns the agent, and collecting a proxy never removes it. Its
// properties are the reflected agent definition's fields (the live ones
// writable) plus what the binding adds.
#include "classes.h"
#include "draw.h"
#include "nav_sync.h"
#include "runtime.h"

#include <string.h>

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
    steer_vec2 p = {steer_laux_check_float(L, 2, LAUX_FINITE), steer_laux_check_float(L, 3, LAUX_FINITE)};
    steer_lua__check_mutable(L, a->core);
    steer_agent_set_position(a->core->world, a->id, p);
    return 0;
}

// agent:set_velocity(vx, vy)
static int agent_set_velocity(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_vec2 v = {steer_laux_check_float(L, 2, LAUX_FINITE), steer_laux_check_float(L, 3, LAUX_FINITE)};
    steer_lua__check_mutable(L, a->core);
    steer_agent_set_velocity(a->core->world, a->id, v);
    return 0;
}

// agent:set_orientation(a [, rotation]): radians, wrapped into (-pi, pi]
static int agent_set_orientation(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    float orientation = steer_laux_check_float(L, 2, LAUX_FINITE);
    steer_kinematic k = steer_agent_get_state(a->core->world, a->id);
    k.orientation = orientation;
    if (!lua_isnoneornil(L, 3)) k.rotation = steer_laux_check_float(L, 3, LAUX_FINITE);
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
        steer_laux_error(L, steer_laux_arg(2), "must be a behaviour or nil", 2);
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

static void push_point(lua_State *L, steer_vec2 p)
{
    lua_createtable(L, 2, 0);
    steer_laux_push_float(L, p.x);
    lua_rawseti(L, -2, 1);
    steer_laux_push_float(L, p.y);
    lua_rawseti(L, -2, 2);
}

// agent:plan() -> its navigate plan as a table (status, points, next, goal,
// remaining, radius, stalled, stuck, replans, message), or nil without one
static int agent_plan(lua_State *L)
{
    static const char *const statuses[] = {"none", "following", "arrived", "failed", "no_goal"};
    lagent *a = steer_lua__check_agent(L, 1);
    steer_plan_info info;
    steer_vec2 points[64];
    int n = steer_agent_get_plan(a->core->world, a->id, points, 64, &info);
    if (info.status == STEER_PLAN_NONE) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 10);
    lua_pushstring(L, statuses[info.status]);
    lua_setfield(L, -2, "status");
    lua_createtable(L, n, 0);
    for (int k = 0; k < n && k < 64; ++k) {
        push_point(L, points[k]);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "points");
    lua_pushinteger(L, info.next + 1);
    lua_setfield(L, -2, "next");
    push_point(L, info.goal);
    lua_setfield(L, -2, "goal");
    const struct { const char *name; float value; } figures[] = {
        {"remaining", info.remaining}, {"radius", info.radius}, {"stalled", info.stalled}};
    for (size_t k = 0; k < sizeof figures / sizeof figures[0]; ++k) {
        steer_laux_push_float(L, figures[k].value);
        lua_setfield(L, -2, figures[k].name);
    }
    lua_pushboolean(L, info.stuck);
    lua_setfield(L, -2, "stuck");
    lua_pushinteger(L, info.replans);
    lua_setfield(L, -2, "replans");
    lua_pushstring(L, info.message);
    lua_setfield(L, -2, "message");
    return 1;
}

/* ---- properties -------------------------------------------------------------------------- */

// Properties besides the agent definition's fields.
const char *const steer_lua__agent_properties[] = {"speed", "trace", "steering", "role", "tag", "data", "formation",
                                           "color", "stuck", "goal", NULL};
enum {
    AGENT_SPEED, AGENT_TRACE, AGENT_STEERING, AGENT_ROLE, AGENT_TAG, AGENT_DATA, AGENT_FORMATION, AGENT_COLOR, AGENT_STUCK,
    AGENT_GOAL
};

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
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == -1) return no_property(L);
    steer_lua__check_alive(L, a);
    steer_world *w = a->core->world;
    if (code == -2) {
        steer_agent_def d;
        steer_agent_get_def(w, a->id, &d);
        steer_lua__push_field(L, &d, lua_touserdata(L, -1));
    } else if (code == AGENT_SPEED) {
        lua_pushnumber(L, steer_length(steer_agent_get_velocity(w, a->id)));
    } else if (code == AGENT_TRACE) {
        lua_pushboolean(L, steer_agent_get_trace(w, a->id));
    } else if (code == AGENT_STUCK) {
        lua_pushboolean(L, steer_agent_get_stuck(w, a->id));
    } else if (code == AGENT_GOAL) {
        steer_vec2 g;
        if (steer_agent_get_goal(w, a->id, &g)) push_point(L, g);
        else lua_pushnil(L);
    } else if (code == AGENT_STEERING) {
        steer_behaviour *b = steer_agent_get_behaviour(w, a->id);
        if (b == NULL) {
            lua_pushnil(L);
            return 1;
        }
        // the value Lua gave (same userdata), unless the host set another in C
        push_side_table(L, CORE_UV_STEERING, steer_lua__stored_id(a->id));
        lbehaviour *lb = steer_lua__test_behaviour(L, -1);
        if (lb == NULL || lb->b != b) steer_lua__push_behaviour(L, b);
    } else if (code == AGENT_DATA) {
        // made on first use, kept while the agent lives (a reload keeps it)
        lua_getiuservalue(L, 1, 1);
        lua_getiuservalue(L, -1, CORE_UV_DATA);
        steer_lua__push_data(L, -1, steer_lua__stored_id(a->id));
    } else if (code == AGENT_FORMATION) {
        lua_getiuservalue(L, 1, 1);
        steer_lua__push_formation(L, -1, steer_agent_get_formation(w, a->id));
    } else if (code == AGENT_COLOR) {
        steer_color c = steer_agent_get_color(w, a->id);
        if (c == 0) lua_pushnil(L);
        else steer_laux_push_color(L, c);
    } else {
        push_side_table(L, code == AGENT_ROLE ? CORE_UV_ROLE : CORE_UV_TAG, steer_lua__stored_id(a->id));
    }
    return 1;
}

static int agent_newindex(lua_State *L)
{
    lagent *a = luaL_checkudata(L, 1, STEER_LUA_AGENT);
    lua_settop(L, 3);
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2); // 4: a field's info
    if (code == -1) return no_property(L);
    const steer_field_info *f = code == -2 ? lua_touserdata(L, 4) : NULL;
    const char *k = lua_tostring(L, 2);
    if (code == AGENT_SPEED || code == AGENT_FORMATION || code == AGENT_STUCK || (f != NULL && !f->live))
        return luaL_error(L, "property '%s' of steer.Agent is read-only", k);
    steer_lua__check_alive(L, a);
    steer_laux_where where = steer_laux_property(STEER_LUA_AGENT, k);
    steer_world *w = a->core->world;
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, 1); // 4: core
    if (f != NULL) {
        steer_agent_def d;
        steer_agent_get_def(w, a->id, &d);
        steer_lua__read_field(L, where, 3, &d, f);
        steer_lua__check_mutable(L, a->core);
        steer_agent_apply_def(w, a->id, &d);
    } else if (code == AGENT_GOAL) {
        steer_vec2 g = {0.0f, 0.0f};
        if (!lua_isnil(L, 3)) {
            if (lua_type(L, 3) != LUA_TTABLE) steer_laux_error(L, where, "must be a point {x, y} or nil", 3);
            steer_laux_point(L, where, 3, &g.x, &g.y);
            char buf[96];
            const char *phrase = steer_lua__nav_check_point(a->core, g, buf, sizeof buf);
            if (phrase != NULL) steer_laux_error(L, where, phrase, 3);
        }
        steer_lua__check_mutable(L, a->core);
        steer_agent_set_goal(w, a->id, lua_isnil(L, 3) ? NULL : &g);
    } else if (code == AGENT_TRACE) {
        bool on = steer_laux_boolean(L, where, 3);
        steer_lua__check_mutable(L, a->core);
        if (!steer_agent_set_trace(w, a->id, on)) return luaL_error(L, "not enough memory");
    } else if (code == AGENT_STEERING) {
        if (!lua_isnil(L, 3) && steer_lua__test_behaviour(L, 3) == NULL)
            steer_laux_error(L, where, "must be a behaviour or nil", 3);
        steer_lua__check_mutable(L, a->core);
        steer_lua__set_steering(L, 4, a->id, 3, false);
    } else if (code == AGENT_DATA) {
        // a table of plain values (nil: an empty one at the next read)
        if (!lua_isnil(L, 3) && !lua_istable(L, 3)) steer_laux_error(L, where, "must be a table or nil", 3);
        steer_lua__check_plain(L, where, 3);
        lua_getiuservalue(L, 4, CORE_UV_DATA);
        lua_pushvalue(L, 3);
        lua_rawseti(L, -2, steer_lua__stored_id(a->id));
    } else if (code == AGENT_COLOR) {
        steer_color c = lua_isnil(L, 3) ? 0 : steer_laux_color(L, where, 3);
        steer_lua__check_mutable(L, a->core);
        if (!steer_agent_set_color(w, a->id, c)) return luaL_error(L, "not enough memory");
    } else {
        if (!lua_isnil(L, 3) && lua_type(L, 3) != LUA_TSTRING) steer_laux_error(L, where, "must be a string or nil", 3);
        lua_getiuservalue(L, 4, code == AGENT_ROLE ? CORE_UV_ROLE : CORE_UV_TAG);
        lua_pushvalue(L, 3);
        lua_rawseti(L, -2, steer_lua__stored_id(a->id));
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
    lua_pushfstring(L, "steer.Agent{key=" STEER_LUA_IFMT ", x=%f, y=%f}", STEER_LUA_IARG(steer_agent_get_key(a->core->world, a->id)),
                    (LUAI_UACNUMBER)steer_laux_float_value(p.x), (LUAI_UACNUMBER)steer_laux_float_value(p.y));
    return 1;
}

static const luaL_Reg agent_methods[] = {
    {"alive", agent_alive},
    {"heading", agent_heading},
    {"last_steering", agent_last_steering},
    {"plan", agent_plan},
    {"position", agent_position},
    {"remove", agent_remove},
    {"set_orientation", agent_set_orientation},
    {"set_position", agent_set_position},
    {"set_steering", agent_set_steering},
    {"set_velocity", agent_set_velocity},
    {"trace_tree", steer_lua__agent_trace_tree},
    {"velocity", agent_velocity},
    {NULL, NULL},
};

static const luaL_Reg agent_meta[] = {
    {"__eq", agent_eq},
    {"__tostring", agent_tostring},
    {NULL, NULL},
};

void steer_lua__open_agent(lua_State *L)
{
    steer_laux_new_class(L, STEER_LUA_AGENT, agent_meta);
    luaL_newlib(L, agent_methods);
    steer_lua__push_def_names(L, STEER_DEF_AGENT, false, NULL, steer_lua__agent_properties);
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, agent_index, 2);
    lua_setfield(L, -4, "__index");
    lua_pushcclosure(L, agent_newindex, 2);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
}
