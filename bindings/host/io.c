// io.c: what passes between a script and its embedder besides the world:
// the input table handed to update (levels and the edges since the last
// update), the scripts' camera requests, and what an embedder reads of the
// host (its last error, world, version, memory, watch backend). A leaf of the host: it calls
// nothing of it but the log's lookup of the host.
#include "host_internal.h"

#include <string.h>

#include <lauxlib.h>

static const char *const key_names[STEER_HOST_KEY_COUNT] = {
    "up", "down", "left", "right", "space", "enter", "escape", "shift",
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
    "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
};

// A keys table: every key name, false.
static void new_input_keys(lua_State *L)
{
    lua_createtable(L, 0, STEER_HOST_KEY_COUNT);
    for (int k = 0; k < STEER_HOST_KEY_COUNT; ++k) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, key_names[k]);
    }
}

void steer_host__new_input(lua_State *L)
{
    lua_createtable(L, 0, 6);
    new_input_keys(L);
    lua_setfield(L, -2, "keys");
    for (int e = 0; e < 2; ++e) {
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, 0);
        lua_setfield(L, -2, "buttons");
        new_input_keys(L);
        lua_setfield(L, -2, "keys");
        lua_setfield(L, -2, e == 0 ? "pressed" : "released");
    }
}

// t.buttons and the booleans of t.keys (a new keys table when a script
// replaced it) of the input-shaped table at idx.
static void fill_input(lua_State *L, int idx, uint32_t buttons, uint64_t keys)
{
    lua_pushinteger(L, (lua_Integer)buttons);
    steer_host__raw_set_field(L, idx, "buttons");
    if (steer_host__raw_field(L, idx, "keys") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, STEER_HOST_KEY_COUNT);
        lua_pushvalue(L, -1);
        steer_host__raw_set_field(L, idx, "keys");
    }
    for (int k = 0; k < STEER_HOST_KEY_COUNT; ++k) {
        lua_pushboolean(L, (int)((keys >> k) & 1u));
        steer_host__raw_set_field(L, -2, key_names[k]);
    }
    lua_pop(L, 1);
}

void steer_host__fill_input(lua_State *L, int input, const steer_host_input *in)
{
    input = lua_absindex(L, input);
    // raw sets: the script may have given the table a metatable
    lua_pushnumber(L, in->mouse_x);
    steer_host__raw_set_field(L, input, "x");
    lua_pushnumber(L, in->mouse_y);
    steer_host__raw_set_field(L, input, "y");
    fill_input(L, input, in->buttons, in->keys);
    // the edges: tables of the same shape (a script may have replaced them)
    for (int e = 0; e < 2; ++e) {
        const char *name = e == 0 ? "pressed" : "released";
        if (steer_host__raw_field(L, input, name) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 2);
            lua_pushvalue(L, -1);
            steer_host__raw_set_field(L, input, name);
        }
        fill_input(L, lua_gettop(L), e == 0 ? in->buttons_pressed : in->buttons_released,
                   e == 0 ? in->keys_pressed : in->keys_released);
        lua_pop(L, 1);
    }
}

/* ---- the camera request ---------------------------------------------------------- */

// camera's errors: named like the module's (the function has no name in a pcall).
static int camera_error(lua_State *L, const char *what)
{
    return luaL_error(L, "bad argument #1 to 'camera' (%s)", what);
}

// A number field of camera's table, finite (positive for zoom), or absent.
static bool camera_number(lua_State *L, const char *name, bool positive, float *out)
{
    int t = lua_getfield(L, 1, name);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    double v = lua_tonumber(L, -1);
    if (t != LUA_TNUMBER || !(v == v) || v > 1e30 || v < -1e30 || (positive && !(v > 0.0))) {
        const char *got = t == LUA_TNUMBER || t == LUA_TSTRING ? luaL_tolstring(L, -1, NULL) : lua_typename(L, t);
        camera_error(L, lua_pushfstring(L, "field '%s' must be a %s number, got %s", name,
                                        positive ? "positive" : "finite", got));
    }
    lua_pop(L, 1);
    *out = (float)v;
    return true;
}

int steer_host__camera(lua_State *L)
{
    if (!lua_istable(L, 1)) camera_error(L, lua_pushfstring(L, "a table expected, got %s", luaL_typename(L, 1)));
    static const char *const known[] = {"x", "y", "zoom", "span", "fit", NULL};
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        bool ok = false;
        for (int i = 0; known[i] != NULL && !ok; ++i)
            ok = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), known[i]) == 0;
        if (!ok)
            camera_error(L, lua_pushfstring(L, "unknown field '%s' (x, y, zoom, span, fit)", luaL_tolstring(L, -2, NULL)));
        lua_pop(L, 1);
    }
    steer_host_camera c;
    memset(&c, 0, sizeof c);
    int t = lua_getfield(L, 1, "fit");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        camera_error(L, lua_pushfstring(L, "field 'fit' must be a boolean, got %s", lua_typename(L, t)));
    c.fit = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    bool has_x = camera_number(L, "x", false, &c.x), has_y = camera_number(L, "y", false, &c.y);
    if (has_x != has_y) camera_error(L, "fields 'x' and 'y' go together");
    c.has_center = has_x;
    c.has_zoom = camera_number(L, "zoom", true, &c.zoom);
    c.has_span = camera_number(L, "span", true, &c.span);
    if (c.has_zoom && c.has_span) camera_error(L, "give 'zoom' (pixels per metre) or 'span' (metres), not both");
    if (c.fit && (c.has_center || c.has_zoom || c.has_span))
        camera_error(L, "'fit' frames everything: give it without x, y, zoom and span");
    steer_host *h = steer_host__of(L);
    if (h->def.camera != NULL) h->def.camera(h->def.camera_context, &c);
    return 0;
}

/* ---- what an embedder reads of the host --------------------------------------------- */

const char *steer_host_last_error(const steer_host *host)
{
    return host->has_error ? host->error : NULL;
}

steer_world *steer_host_world(const steer_host *host) { return host->world; }

int steer_host_version(const steer_host *host) { return host->version; }

size_t steer_host_memory(const steer_host *host) { return host->bytes; }

steer_host_watch steer_host_watch_backend(const steer_host *host) { return host->watch.backend; }
