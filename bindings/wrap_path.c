// wrap_path.c: steer.Path, a polyline for follow_path. Paths are reference
// counted and independent of worlds; the userdata holds one reference and a
// follow_path behaviour holds its own.
#include "bind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

lpath *steer_lua__check_path(lua_State *L, int arg) { return luaL_checkudata(L, arg, STEER_LUA_PATH); }

int steer_lua__new_path(lua_State *L, int arg)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    bool loop = false;
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
            lua_pop(L, 1);
            continue;
        }
        if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "loop") == 0)
            loop = laux_boolean(L, laux_field(arg, "loop"), -1);
        else
            laux_unknown_field(L, arg, -2);
        lua_pop(L, 1);
    }
    if (n < 2 || n > (1 << 24)) luaL_argerror(L, arg, lua_pushfstring(L, "a path needs at least 2 points, got %I", (LUAI_UACINT)n));
    steer_vec2 *p = lua_newuserdatauv(L, sizeof *p * (size_t)n, 0);
    char name[32];
    for (lua_Integer i = 1; i <= n; ++i) {
        snprintf(name, sizeof name, "[%d]", (int)i);
        lua_rawgeti(L, arg, i);
        laux_point(L, laux_field(arg, name), -1, &p[i - 1].x, &p[i - 1].y);
        lua_pop(L, 1);
        if (i > 1 && p[i - 1].x == p[i - 2].x && p[i - 1].y == p[i - 2].y)
            laux_error_plain(L, laux_field(arg, name), "repeats the point before it");
    }
    steer_path_def def = steer_default_path_def();
    def.points = p;
    def.count = (int)n;
    def.loop = loop;
    // what is left to refuse: a length that is not a positive float
    if (!steer_path_def_is_valid(&def)) luaL_argerror(L, arg, "the path's length must be positive and finite");
    lpath *lp = lua_newuserdatauv(L, sizeof *lp, 0);
    lp->path = NULL;
    luaL_setmetatable(L, STEER_LUA_PATH);
    lp->path = steer_path_create(&def);
    if (lp->path == NULL) return luaL_error(L, "not enough memory");
    return 1;
}

// steer.path{ {x, y}, ..., loop = false } -> path
static int path_new(lua_State *L) { return steer_lua__new_path(L, 1); }

// path:point(i) -> x, y of the i-th point (1-based)
static int path_point(lua_State *L)
{
    lpath *lp = steer_lua__check_path(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    int n = steer_path_point_count(lp->path);
    luaL_argcheck(L, i >= 1 && i <= n, 2, "index out of range");
    steer_vec2 v = steer_path_point(lp->path, (int)i - 1);
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

// path:position(distance) -> x, y: the point at a distance (m) along the path
static int path_position(lua_State *L)
{
    lpath *lp = steer_lua__check_path(L, 1);
    steer_vec2 v = steer_path_position(lp->path, laux_check_float(L, 2, LAUX_FINITE));
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

// path:param(x, y) -> distance (m) along the path of its point nearest to (x, y)
static int path_param(lua_State *L)
{
    lpath *lp = steer_lua__check_path(L, 1);
    steer_vec2 v = {laux_check_float(L, 2, LAUX_FINITE), laux_check_float(L, 3, LAUX_FINITE)};
    lua_pushnumber(L, steer_path_param(lp->path, v, -1.0f, 0.0f));
    return 1;
}

/// Properties of steer.Path (path_index answers exactly these).
static const char *const path_props[] = {"length", "loop", NULL};

// path.length (m), path.loop, #path (points)
static int path_index(lua_State *L)
{
    lpath *lp = steer_lua__check_path(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pushvalue(L, 2);
    const char *k = lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL ? lua_tostring(L, 2) : NULL;
    if (k != NULL && strcmp(k, "length") == 0)
        laux_push_float(L, steer_path_length(lp->path));
    else if (k != NULL && strcmp(k, "loop") == 0)
        lua_pushboolean(L, steer_path_is_loop(lp->path));
    else
        return luaL_error(L, "steer.Path has no property '%s'", luaL_tolstring(L, 2, NULL));
    return 1;
}

static int path_newindex(lua_State *L)
{
    steer_lua__check_path(L, 1);
    return luaL_error(L, "steer.Path is read-only (make a new path)");
}

static int path_len(lua_State *L)
{
    lua_pushinteger(L, steer_path_point_count(steer_lua__check_path(L, 1)->path));
    return 1;
}

static int path_gc(lua_State *L)
{
    lpath *lp = luaL_checkudata(L, 1, STEER_LUA_PATH);
    if (lp->path != NULL) steer_path_release(lp->path);
    lp->path = NULL;
    return 0;
}

static int path_tostring(lua_State *L)
{
    lpath *lp = steer_lua__check_path(L, 1);
    lua_pushfstring(L, "steer.Path{points=%d, length=%f, loop=%s}", steer_path_point_count(lp->path),
                    (LUAI_UACNUMBER)laux_float_value(steer_path_length(lp->path)),
                    steer_path_is_loop(lp->path) ? "true" : "false");
    return 1;
}

static const luaL_Reg path_methods[] = {
    {"param", path_param},
    {"point", path_point},
    {"position", path_position},
    {NULL, NULL},
};

static const luaL_Reg path_meta[] = {
    {"__newindex", path_newindex},
    {"__len", path_len},
    {"__gc", path_gc},
    {"__tostring", path_tostring},
    {NULL, NULL},
};

void steer_lua__open_path(lua_State *L)
{
    laux_new_class(L, STEER_LUA_PATH, path_meta);
    luaL_newlib(L, path_methods);
    laux_push_set(L, path_props);
    lua_pushcclosure(L, path_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_pushcfunction(L, path_new);
    lua_setfield(L, -2, "path");
}
