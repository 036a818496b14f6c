// steer_lua.c: luaopen_steer, the `steer` module (docs/lua-api.md): every
// constructor and module function in one table, then the classes.
#include "classes.h"
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
    lua_pushliteral(L, STEER_VERSION_STRING); // the project version (steer/version.h)
    lua_setfield(L, -2, "version");
    return 1;
}
