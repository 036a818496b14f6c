// steer_lua.c: luaopen_steer, the `steer` module (docs/lua-api.md): every
// constructor and module function in one table, then the classes.
#include "classes.h"
#include "formation_sync.h"
#include "runtime.h"

// steer.heading(a) -> x, y: the unit vector (sin a, cos a) of an orientation
static int steer_heading_lua(lua_State *L)
{
    steer_vec2 h = steer_heading(steer_laux_check_float(L, 1, LAUX_FINITE));
    lua_pushnumber(L, h.x);
    lua_pushnumber(L, h.y);
    return 2;
}

// steer.orientation_of(x, y) -> a = atan2(x, y) in (-pi, pi]; 0 for (0, 0)
static int steer_orientation_of_lua(lua_State *L)
{
    steer_vec2 v = {steer_laux_check_float(L, 1, LAUX_FINITE), steer_laux_check_float(L, 2, LAUX_FINITE)};
    lua_pushnumber(L, steer_orientation_of(v));
    return 1;
}

// The module's functions and constructors (a behaviour type's own
// constructor, steer.seek{...} and the like, comes from the reflected table
// of types: steer_lua__open_behaviour adds one per type).
static const luaL_Reg steer_functions[] = {
    {"behaviour", steer_lua__lua_behaviour_new},
    {"blend", steer_lua__blend_new},
    {"formation", steer_lua__formation_new},
    {"heading", steer_heading_lua},
    {"options", steer_lua__options},
    {"orientation_of", steer_orientation_of_lua},
    {"path", steer_lua__path_new},
    {"priority", steer_lua__priority_new},
    {"world", steer_lua__world_new},
    {NULL, NULL},
};

int luaopen_steer(lua_State *L)
{
    luaL_checkversion(L);
    luaL_newlib(L, steer_functions);
    steer_lua__open_world(L);
    steer_lua__open_agent(L);
    steer_lua__open_behaviour(L);
    steer_lua__open_path(L);
    steer_lua__open_shape(L);
    steer_lua__open_formation(L);
    steer_lua__open_nav(L);
    steer_lua__open_snapshot(L);
    lua_pushliteral(L, STEER_VERSION_STRING); // the project version (steer/version.h)
    lua_setfield(L, -2, "version");
    return 1;
}

/* ---- the C API for programs that drive scripts (steer/steer_lua.h) ---------------- */

void steer_lua_step(lua_State *L, int world_index, float dt)
{
    world_index = lua_absindex(L, world_index);
    lcore *core = steer_lua__check_world(L, world_index);
    if (!(dt >= 0.0f && dt <= (float)STEER_MAX_STEP)) {
        char limit[32];
        luaL_error(L, "steer_lua_step: dt must be in [0, %s]", steer_format_limit(STEER_MAX_STEP, limit, sizeof limit));
    }
    if (steer_world_is_stepping(core->world)) luaL_error(L, "attempt to step a world while it is stepping");
    steer_lua__charge_step(L, core->world);
    int top = lua_gettop(L);
    lua_getiuservalue(L, world_index, 1);
    lstep s;
    steer_lua__step_begin(L, &s, top + 1);
    steer_world_step(core->world, dt);
    steer_lua__step_end(L, &s);
    lua_settop(L, top);
}

bool steer_lua_isbehaviour(lua_State *L, int index) { return steer_lua__test_behaviour(L, index) != NULL; }

void steer_lua_pushagent(lua_State *L, int world_index, steer_agent_id id)
{
    world_index = lua_absindex(L, world_index);
    steer_lua__check_world(L, world_index);
    lua_getiuservalue(L, world_index, 1);
    steer_lua__push_agent(L, -1, id);
    lua_remove(L, -2);
}

int steer_lua_pushrole(lua_State *L, int world_index, steer_agent_id id)
{
    world_index = lua_absindex(L, world_index);
    steer_lua__check_world(L, world_index);
    lua_getiuservalue(L, world_index, 1);
    int t = LUA_TNIL;
    if (lua_getiuservalue(L, -1, CORE_UV_ROLE) == LUA_TTABLE)
        t = lua_rawgeti(L, -1, steer_lua__stored_id(id));
    else
        lua_pushnil(L);
    if (t != LUA_TSTRING) {
        lua_pop(L, 1);
        lua_pushnil(L);
        t = LUA_TNIL;
    }
    lua_replace(L, -3); // core, roles, role -> role
    lua_pop(L, 1);
    return t;
}

void steer_lua_set_steering(lua_State *L, int agent_index, int behaviour_index)
{
    agent_index = lua_absindex(L, agent_index);
    behaviour_index = lua_absindex(L, behaviour_index);
    const lagent *a = luaL_checkudata(L, agent_index, STEER_LUA_AGENT);
    if (!lua_isnil(L, behaviour_index) && steer_lua__test_behaviour(L, behaviour_index) == NULL)
        luaL_error(L, "steer_lua_set_steering: expected a behaviour or nil, got %s",
                   luaL_typename(L, behaviour_index));
    if (a->core == NULL || a->core->world == NULL || !steer_agent_is_valid(a->core->world, a->id)) return;
    steer_lua__check_mutable(L, a->core);
    lua_getiuservalue(L, agent_index, 1);
    steer_lua__set_steering(L, -1, a->id, behaviour_index, true);
    lua_pop(L, 1);
}
