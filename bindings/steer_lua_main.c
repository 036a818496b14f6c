// steer-lua: a Lua 5.4 interpreter with the steer module preloaded, for
// tools and for running the Lua specs under the sanitizers.
//
//   steer-lua [-e chunk]... [script [args...]]     (no script: read stdin)
//
// Like lua.c: `arg` holds the script at 0 and its arguments from 1; errors
// print with a traceback and exit with status 1.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "steer/steer_lua.h"

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// Run the function at -1 with nargs arguments above it, reporting errors.
static int run(lua_State *L, int nargs)
{
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, 0, base);
    lua_remove(L, base);
    if (status != LUA_OK) {
        fprintf(stderr, "steer-lua: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    return status;
}

static int report_load(lua_State *L, int status)
{
    if (status != LUA_OK) {
        fprintf(stderr, "steer-lua: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    return status;
}

// Everything runs protected, so running out of memory is reported too.
static int pmain(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    luaL_openlibs(L);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_steer);
    lua_setfield(L, -2, "steer");
    lua_pop(L, 1);
    int script = 1;
    while (script < argc && strcmp(argv[script], "-e") == 0 && script + 1 < argc) script += 2;
    // arg: the script at 0, the interpreter and options below it
    lua_createtable(L, argc > script ? argc - script : 0, script + 1);
    for (int i = 0; i < argc; ++i) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - script);
    }
    lua_setglobal(L, "arg");
    for (int i = 1; i < script; i += 2) {
        if (report_load(L, luaL_loadbuffer(L, argv[i + 1], strlen(argv[i + 1]), "=(command line)")) != LUA_OK)
            return 0;
        if (run(L, 0) != LUA_OK) return 0;
    }
    if (script >= argc && script > 1) {
        lua_pushboolean(L, 1);
        return 1;
    }
    const char *file = script < argc && strcmp(argv[script], "-") != 0 ? argv[script] : NULL;
    if (report_load(L, luaL_loadfile(L, file)) != LUA_OK) return 0;
    int n = 0;
    for (int i = script + 1; i < argc; ++i, ++n) lua_pushstring(L, argv[i]);
    if (run(L, n) != LUA_OK) return 0;
    lua_pushboolean(L, 1);
    return 1;
}

int main(int argc, char **argv)
{
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "steer-lua: cannot create the Lua state\n");
        return 1;
    }
    lua_pushcfunction(L, pmain);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    int status = lua_pcall(L, 2, 1, 0);
    int ok = status == LUA_OK && lua_toboolean(L, -1);
    if (status != LUA_OK) fprintf(stderr, "steer-lua: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return ok ? 0 : 1;
}
