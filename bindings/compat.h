// compat.h: the version shim. The module is written against the Lua 5.4 C
// API; this header, included by runtime.h (and so by every class), lets the
// same source build for Lua 5.1, LuaJIT 2.1, 5.2, 5.3 and 5.4. For 5.1, LuaJIT
// and 5.2 it takes lua-compat-5.3 (Debian's lua-compat53-dev: compat-5.3.h,
// its functions compiled once in compat.c under the steer_compat53 prefix);
// what that layer does not cover is below: several user values per userdata,
// lua_toclose, luaL_typeerror, the %I format, integer table keys wider than int.
// docs/lua-api.md, "Lua versions", lists what differs for scripts.
#ifndef STEER_COMPAT_H
#define STEER_COMPAT_H

#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#if LUA_VERSION_NUM < 503
#include <math.h>
#define COMPAT53_PREFIX steer_compat53
#include <compat-5.3.h>

// lua-compat-5.3's lua_tointegerx converts any double to lua_Integer to test
// it, which is undefined for NaN, infinities and numbers out of range
// (UBSan: "outside the range of representable values"): range first.
static inline lua_Integer steer_compat_tointegerx(lua_State *L, int i, int *isnum)
{
    int ok = 0;
    lua_Number n = lua_tonumberx(L, i, &ok);
    const lua_Number lim = ldexp(1.0, (int)sizeof(lua_Integer) * 8 - 1);
    if (ok && n >= -lim && n < lim && (lua_Number)(lua_Integer)n == n) {
        if (isnum) *isnum = 1;
        return (lua_Integer)n;
    }
    if (isnum) *isnum = 0;
    return 0;
}
static inline int steer_compat_isinteger(lua_State *L, int i)
{
    int ok = 0;
    if (lua_type(L, i) != LUA_TNUMBER) return 0;
    steer_compat_tointegerx(L, i, &ok);
    return ok;
}
#undef lua_tointegerx
#define lua_tointegerx steer_compat_tointegerx
#undef lua_isinteger
#define lua_isinteger steer_compat_isinteger
#endif

/* ---- integers in messages ------------------------------------------------------------- */

// lua_pushfstring(L, "got " STEER_LUA_IFMT, STEER_LUA_IARG(n)): %I from 5.3 on;
// before, %f, which prints an integral double like an integer ("%.14g").
#if LUA_VERSION_NUM >= 503
#define STEER_LUA_IFMT "%I"
#define STEER_LUA_IARG(n) ((LUAI_UACINT)(n))
#else
#define STEER_LUA_IFMT "%f"
#define STEER_LUA_IARG(n) ((lua_Number)(n))
#endif

/* ---- registry tables ------------------------------------------------------------------- */

/// Push the registry's table at the light key `key`, made on first use as a
/// weak table (`mode`: "k" or "v"), in every Lua version.
void steer_compat_push_weak_table(lua_State *L, const void *key, const char *mode);

/* ---- Lua 5.4 functions ----------------------------------------------------------------- */

#if LUA_VERSION_NUM < 504
// luaL_argerror naming the function as 5.4 does when the call frame has no
// name: LuaJIT really tail-calls a C function (`return steer.seek{...}`),
// which then reports "bad argument #1 to '?'"; named here from the steer
// module's table, as 5.4's lauxlib names a function from package.loaded.
int steer_compat_argerror(lua_State *L, int arg, const char *extramsg);
#define luaL_argerror(L, arg, msg) steer_compat_argerror(L, arg, msg)

// luaL_typeerror, as lauxlib.c 5.4 words it (the __name of the value's metatable).
static inline int steer_compat_typeerror(lua_State *L, int arg, const char *tname)
{
    const char *typearg;
    if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
        typearg = lua_tostring(L, -1);
    else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
        typearg = "light userdata";
    else
        typearg = luaL_typename(L, arg);
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, typearg));
}
#define luaL_typeerror steer_compat_typeerror
static inline void steer_compat_checktype(lua_State *L, int arg, int t)
{
    if (lua_type(L, arg) != t) steer_compat_typeerror(L, arg, lua_typename(L, t));
}
#define luaL_checktype steer_compat_checktype
static inline int steer_compat_checkoption(lua_State *L, int arg, const char *def, const char *const list[])
{
    const char *name = def != NULL ? luaL_optstring(L, arg, def) : luaL_checkstring(L, arg);
    for (int i = 0; list[i] != NULL; ++i)
        if (strcmp(list[i], name) == 0) return i;
    return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}
#define luaL_checkoption steer_compat_checkoption

// To-be-closed slots before 5.4 (the formation's undo guards): lua_toclose
// puts the value in a set of pending closes (weak keys: a slot disarmed on
// success and dropped is collected). Before 5.4 nothing runs while an error
// unwinds, so the places an error can start inside such a call close the
// pending values first: steer_compat_call (calls into Lua functions: a
// protected call, then the error again) and the argument-error formatter
// (laux.c). Closing a value twice must be harmless (the guards disarm).
void steer_compat_toclose(lua_State *L, int idx);
/// Call every pending close (__close(value, err), err at top or nil), forget them.
void steer_compat_close_pending(lua_State *L);
/// lua_call that closes the pending slots if the function raises.
void steer_compat_call(lua_State *L, int nargs, int nresults);
#define lua_toclose steer_compat_toclose

// Several user values per userdata: before 5.4 a userdata has one (5.1 and
// LuaJIT: its environment table); it becomes a table whose slots 1..n are the
// user values. A userdata made with nuv == 0 gets none.
static inline void *steer_compat_newuserdatauv(lua_State *L, size_t size, int nuv)
{
    void *p = lua_newuserdata(L, size);
    if (nuv > 0) {
        lua_createtable(L, nuv, 0);
        lua_setuservalue(L, -2);
    }
    return p;
}
static inline int steer_compat_getiuservalue(lua_State *L, int idx, int n)
{
    if (lua_type(L, idx) != LUA_TUSERDATA) {
        lua_pushnil(L);
        return LUA_TNONE;
    }
    if (lua_getuservalue(L, idx) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return LUA_TNONE;
    }
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
    return lua_type(L, -1);
}
static inline int steer_compat_setiuservalue(lua_State *L, int idx, int n)
{
    idx = lua_absindex(L, idx);
    if (lua_getuservalue(L, idx) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    return 1;
}
#define lua_newuserdatauv steer_compat_newuserdatauv
#define lua_getiuservalue steer_compat_getiuservalue
#define lua_setiuservalue steer_compat_setiuservalue
#endif

#if LUA_VERSION_NUM >= 504
#define steer_compat_call lua_call
#define steer_compat_close_pending(L) ((void)(L))
#endif

#if LUA_VERSION_NUM < 503
// lua_rawgeti/lua_rawseti take an int key before 5.3; the proxy cache's keys
// and stored ids are wider (exact as doubles up to 2^53).
static inline int steer_compat_rawgeti(lua_State *L, int idx, lua_Integer n)
{
    if (n >= INT_MIN && n <= INT_MAX) return (lua_rawgeti(L, idx, (int)n));
    idx = lua_absindex(L, idx);
    lua_pushnumber(L, (lua_Number)n);
    return (lua_rawget(L, idx));
}
static inline void steer_compat_rawseti(lua_State *L, int idx, lua_Integer n)
{
    if (n >= INT_MIN && n <= INT_MAX) {
        lua_rawseti(L, idx, (int)n);
        return;
    }
    idx = lua_absindex(L, idx);
    lua_pushnumber(L, (lua_Number)n);
    lua_insert(L, -2);
    lua_rawset(L, idx);
}
#undef lua_rawgeti
#define lua_rawgeti steer_compat_rawgeti
#define lua_rawseti steer_compat_rawseti
#endif

/// Give the userdata on top of the stack a metatable of its own kind (no
/// class of the module): one table holding `event` = fn, made once and kept
/// in the registry under `key`.
void steer_compat_set_private_metatable(lua_State *L, const void *key, const char *event, lua_CFunction fn);

#endif
