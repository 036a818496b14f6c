// compat.c: lua-compat-5.3's functions, compiled once (prefix steer_compat53)
// for the Lua versions before 5.3, what 5.1 to 5.3 lack of 5.4, and the
// registry's weak tables. See compat.h.
// strerror_r (compat-5.3.c: luaL_fileresult), XSI-compliant
#define _POSIX_C_SOURCE 200809L
#include "compat.h"

#include <string.h>

#if LUA_VERSION_NUM < 503
// compat-5.3.c defines its own lua_tointegerx and lua_isinteger (which the
// module does not use: compat.h replaces them)
#undef lua_tointegerx
#define lua_tointegerx COMPAT53_CONCAT(COMPAT53_PREFIX, _tointegerx_53)
#undef lua_isinteger
#define lua_isinteger COMPAT53_CONCAT(COMPAT53_PREFIX, _isinteger)
#include <compat-5.3.c>
#endif

void steer_compat_push_weak_table(lua_State *L, const void *key, const char *mode)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushstring(L, mode);
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

#if LUA_VERSION_NUM < 504
static const char pending_key = 0; // registry: the pending closes (weak keys)

static void push_pending(lua_State *L) { steer_compat_push_weak_table(L, &pending_key, "k"); }

void steer_compat_toclose(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    push_pending(L);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

void steer_compat_close_pending(lua_State *L)
{
    int top = lua_gettop(L); // on an error, its value is at top
    push_pending(L);
    lua_newtable(L); // the list of them, at top + 2
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, top + 1) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, top + 2, ++n);
    }
    // forgotten before any is called: a __close that raises leaves none behind
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &pending_key);
    for (int i = n; i >= 1; --i) {
        lua_rawgeti(L, top + 2, i);
        if (luaL_getmetafield(L, -1, "__close") != LUA_TNIL) {
            lua_insert(L, -2);
            if (top > 0) lua_pushvalue(L, top);
            else lua_pushnil(L);
            lua_call(L, 2, 0);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_settop(L, top);
}

// The name of the function at the top in the steer module's table, pushed.
static int push_module_name(lua_State *L)
{
    int fn = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "steer") != LUA_TTABLE) {
        lua_settop(L, fn);
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        if (lua_rawequal(L, -1, fn) && lua_type(L, -2) == LUA_TSTRING) {
            lua_pop(L, 1);
            lua_replace(L, fn + 1);
            lua_settop(L, fn + 1);
            return 1;
        }
        lua_pop(L, 1);
    }
    lua_settop(L, fn);
    return 0;
}

// Push the string key under which the table at t holds the function at fn.
static int push_key_of(lua_State *L, int t, int fn)
{
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        if (lua_rawequal(L, -1, fn) && lua_type(L, -2) == LUA_TSTRING) {
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

// The name of the function at the top among the methods of the steer
// classes, pushed: the registry's "steer.*" metatables, whose __index is a
// table of methods or a closure with it as its first upvalue.
static int push_method_name(lua_State *L)
{
    int fn = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, LUA_REGISTRYINDEX) != 0) {
        if (lua_type(L, -2) == LUA_TSTRING && strncmp(lua_tostring(L, -2), "steer.", 6) == 0 &&
            lua_type(L, -1) == LUA_TTABLE) {
            int index_type = lua_getfield(L, -1, "__index");
            if (index_type == LUA_TFUNCTION && lua_getupvalue(L, -1, 1) != NULL) index_type = lua_type(L, -1);
            if (index_type == LUA_TTABLE && push_key_of(L, lua_gettop(L), fn)) {
                lua_replace(L, fn + 1);
                lua_settop(L, fn + 1);
                return 1;
            }
        }
        lua_settop(L, fn + 1); // the registry key
    }
    lua_settop(L, fn);
    return 0;
}

int steer_compat_argerror(lua_State *L, int arg, const char *extramsg)
{
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) return (luaL_argerror)(L, arg, extramsg);
    lua_getinfo(L, "nf", &ar);
    if (ar.name != NULL) {
        lua_pop(L, 1);
        return (luaL_argerror)(L, arg, extramsg);
    }
    if (push_module_name(L))
        return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, lua_tostring(L, -1), extramsg);
    if (push_method_name(L)) { // a method: self is not counted (5.4's wording)
        if (--arg == 0) return luaL_error(L, "calling '%s' on bad self (%s)", lua_tostring(L, -1), extramsg);
        return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, lua_tostring(L, -1), extramsg);
    }
    lua_pop(L, 1);
    return (luaL_argerror)(L, arg, extramsg);
}

void steer_compat_call(lua_State *L, int nargs, int nresults)
{
    if (lua_pcall(L, nargs, nresults, 0) != LUA_OK) {
        steer_compat_close_pending(L);
        lua_error(L);
    }
}
#else
typedef int steer_compat_unused; // ISO C: a translation unit is not empty
#endif

void steer_compat_set_private_metatable(lua_State *L, const void *key, const char *event, lua_CFunction fn)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 1);
        lua_pushcfunction(L, fn);
        lua_setfield(L, -2, event);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, key);
    }
    lua_setmetatable(L, -2);
}
