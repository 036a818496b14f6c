// lua_state.h: what the tests of the module's C API share: a Lua state with
// the standard libraries, `steer` required, and a world the program owns as
// the global `world`.
#ifndef STEER_TEST_LUA_STATE_H
#define STEER_TEST_LUA_STATE_H

#include <lauxlib.h>
#include <lualib.h>

#include "steer/steer_lua.h"

static inline lua_State *new_state(steer_world *w)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1);
    lua_pop(L, 1);
    steer_lua_pushworld(L, w);
    lua_setglobal(L, "world");
    return L;
}

#endif
