// steer_lua.c: luaopen_steer, the `steer` module (docs/lua-api.md).
#include "bind.h"

// steer.heading(a) -> x, y: the unit vector (sin a, cos a) of an orientation
static int steer_heading_lua(lua_State *L)
{
    steer_vec2 h = steer_heading(laux_check_float(L, 1, LAUX_FINITE));
    lua_pushnumber(L, h.x);
    lua_pushnumber(L, h.y);
    return 2;
}

// steer.orientation_of(x, y) -> a = atan2(x, y) in (-pi, pi]; 0 for (0, 0)
static int steer_orientation_of_lua(lua_State *L)
{
    steer_vec2 v = {laux_check_float(L, 1, LAUX_FINITE), laux_check_float(L, 2, LAUX_FINITE)};
    lua_pushnumber(L, steer_orientation_of(v));
    return 1;
}

static const luaL_Reg steer_functions[] = {
    {"heading", steer_heading_lua},
    {"orientation_of", steer_orientation_of_lua},
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
