// wrap_path.c: steer.Path, a polyline for follow_path. Paths are reference
// counted and independent of worlds; the userdata holds one reference and a
// follow_path behaviour holds its own.
#include "classes.h"
#include "runtime.h"

static lpath *check_path(lua_State *L, int arg) { return luaL_checkudata(L, arg, STEER_LUA_PATH); }

// steer.path{ {x, y}, ..., loop = false } -> path
int steer_lua__path_new(lua_State *L) { return steer_lua__new_path(L, 1); }

// path:point(i) -> x, y of the i-th point (1-based)
static int path_point(lua_State *L)
{
    lpath *lp = check_path(L, 1);
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
    lpath *lp = check_path(L, 1);
    steer_vec2 v = steer_path_position(lp->path, steer_laux_check_float(L, 2, LAUX_FINITE));
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

// path:param(x, y) -> distance (m) along the path of its point nearest to (x, y)
static int path_param(lua_State *L)
{
    lpath *lp = check_path(L, 1);
    steer_vec2 v = {steer_laux_check_float(L, 2, LAUX_FINITE), steer_laux_check_float(L, 3, LAUX_FINITE)};
    lua_pushnumber(L, steer_path_param(lp->path, v, -1.0f, 0.0f));
    return 1;
}

/// Properties of steer.Path (path_index answers exactly these).
static const char *const path_props[] = {"length", "loop", NULL};
enum { PATH_LENGTH, PATH_LOOP };

// path.length (m), path.loop, #path (points)
static int path_index(lua_State *L)
{
    lpath *lp = check_path(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == PATH_LENGTH)
        steer_laux_push_float(L, steer_path_length(lp->path));
    else if (code == PATH_LOOP)
        lua_pushboolean(L, steer_path_is_loop(lp->path));
    else
        return luaL_error(L, "steer.Path has no property '%s'", luaL_tolstring(L, 2, NULL));
    return 1;
}

static int path_newindex(lua_State *L)
{
    check_path(L, 1);
    return luaL_error(L, "steer.Path is read-only (make a new path)");
}

static int path_len(lua_State *L)
{
    lua_pushinteger(L, steer_path_point_count(check_path(L, 1)->path));
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
    lpath *lp = check_path(L, 1);
    lua_pushfstring(L, "steer.Path{points=%d, length=%f, loop=%s}", steer_path_point_count(lp->path),
                    (LUAI_UACNUMBER)steer_laux_float_value(steer_path_length(lp->path)),
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
    steer_laux_new_class(L, STEER_LUA_PATH, path_meta);
    luaL_newlib(L, path_methods);
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, path_props);
    lua_pushcclosure(L, path_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}
