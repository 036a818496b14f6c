// test_lua_draw: world:draw reports what steer_world_draw gives C callbacks.
// The showcase scene (scripts/showcase.lua) is built and stepped from Lua;
// every 12 frames for 72 frames both are drawn and written out as text, one
// primitive per line with the floats at 9 digits and the colour in hex, and
// the two texts must be the same (and not empty, and include the traced
// boid's tree and rays).
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "steer/steer.h"
#include "steer/steer_lua.h"

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = (t->cap + (size_t)k + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    memcpy(t->s + t->n, buf, (size_t)k + 1);
    t->n += (size_t)k;
}

static void seg(steer_vec2 p, steer_vec2 q, steer_color c, void *ctx)
{
    put(ctx, "segment %.9g %.9g %.9g %.9g %08x\n", p.x, p.y, q.x, q.y, (unsigned)c);
}
static void poly_common(const char *kind, const steer_vec2 *pts, int count, steer_color c, text *t)
{
    put(t, "%s %d", kind, count);
    for (int i = 0; i < count; ++i) put(t, " %.9g %.9g", pts[i].x, pts[i].y);
    put(t, " %08x\n", (unsigned)c);
}
static void poly(const steer_vec2 *pts, int count, steer_color c, void *ctx) { poly_common("polygon", pts, count, c, ctx); }
static void spoly(const steer_vec2 *pts, int count, steer_color c, void *ctx)
{
    poly_common("solid_polygon", pts, count, c, ctx);
}
static void circ(steer_vec2 p, float r, steer_color c, void *ctx)
{
    put(ctx, "circle %.9g %.9g %.9g %08x\n", p.x, p.y, r, (unsigned)c);
}
static void scirc(steer_vec2 p, float r, float o, steer_color c, void *ctx)
{
    put(ctx, "solid_circle %.9g %.9g %.9g %.9g %08x\n", p.x, p.y, r, o, (unsigned)c);
}
static void point(steer_vec2 p, float size, steer_color c, void *ctx)
{
    put(ctx, "point %.9g %.9g %.9g %08x\n", p.x, p.y, size, (unsigned)c);
}
static void arrow(steer_vec2 o, steer_vec2 v, steer_color c, void *ctx)
{
    put(ctx, "arrow %.9g %.9g %.9g %.9g %08x\n", o.x, o.y, v.x, v.y, (unsigned)c);
}
static void xform(steer_vec2 p, float o, void *ctx) { put(ctx, "transform %.9g %.9g %.9g\n", p.x, p.y, o); }

// The Lua side: the same lines from world:draw's callbacks.
static const char *lua_side =
    "local steer, showcase = require 'steer', ...\n"
    "local def = dofile(showcase)\n"
    "local world = steer.world{ seed = 1 }\n"
    "def.setup(world)\n"
    "local out = {}\n"
    "local function c(r, g, b, a)\n"
    "  local function k(v) return math.floor(v * 255 + 0.5) end\n"
    "  return string.format('%08x', ((k(r) * 256 + k(g)) * 256 + k(b)) * 256 + k(a))\n"
    "end\n"
    "local function pts(p) local s = {} for i = 1, #p do s[i] = string.format('%.9g', p[i]) end\n"
    "  return (#p // 2) .. ' ' .. table.concat(s, ' ') end\n"
    "local f = string.format\n"
    "local draw = {\n"
    "  segment = function(x1, y1, x2, y2, r, g, b, a) out[#out + 1] = f('segment %.9g %.9g %.9g %.9g %s\\n', x1, y1, x2, y2, c(r, g, b, a)) end,\n"
    "  polygon = function(p, r, g, b, a) out[#out + 1] = 'polygon ' .. pts(p) .. ' ' .. c(r, g, b, a) .. '\\n' end,\n"
    "  solid_polygon = function(p, r, g, b, a) out[#out + 1] = 'solid_polygon ' .. pts(p) .. ' ' .. c(r, g, b, a) .. '\\n' end,\n"
    "  circle = function(x, y, rad, r, g, b, a) out[#out + 1] = f('circle %.9g %.9g %.9g %s\\n', x, y, rad, c(r, g, b, a)) end,\n"
    "  solid_circle = function(x, y, rad, o, r, g, b, a) out[#out + 1] = f('solid_circle %.9g %.9g %.9g %.9g %s\\n', x, y, rad, o, c(r, g, b, a)) end,\n"
    "  point = function(x, y, s, r, g, b, a) out[#out + 1] = f('point %.9g %.9g %.9g %s\\n', x, y, s, c(r, g, b, a)) end,\n"
    "  arrow = function(x, y, dx, dy, r, g, b, a) out[#out + 1] = f('arrow %.9g %.9g %.9g %.9g %s\\n', x, y, dx, dy, c(r, g, b, a)) end,\n"
    "  transform = function(x, y, o) out[#out + 1] = f('transform %.9g %.9g %.9g\\n', x, y, o) end,\n"
    "}\n"
    "return world, function(frames)\n"
    "  for _ = 1, frames do world:step(1 / 60) end\n"
    "  out = {}\n"
    "  world:draw(draw)\n"
    "  return table.concat(out)\n"
    "end\n";

static int fail(lua_State *L)
{
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
    return 1;
}

int main(int argc, char **argv)
{
    const char *showcase = argc > 1 ? argv[1] : "scripts/showcase.lua";
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 0);
    lua_pop(L, 1);
    // roles as the script host gives them: world:spawn{role = r} asks the
    // spawn hook, which answers the loaded showcase's roles[r]
    if (luaL_dostring(L, "local df = dofile; dofile = function(p) local d = df(p); DEF = d; return d end\n"
                         "return function(_, role) return DEF.roles[role] end") != LUA_OK)
        return fail(L);
    steer_lua_set_spawn_hook(L, -1);
    lua_pop(L, 1);
    if (luaL_loadstring(L, lua_side) != LUA_OK) return fail(L);
    lua_pushstring(L, showcase);
    if (lua_pcall(L, 1, 2, 0) != LUA_OK) return fail(L);
    steer_world *world = steer_lua_toworld(L, -2);
    if (world == NULL) return fprintf(stderr, "no world\n"), 1;
    int failures = 0;
    for (int check = 1; check <= 6; ++check) {
        lua_pushvalue(L, -1);
        lua_pushinteger(L, 12);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) return fail(L);
        size_t ln;
        const char *from_lua = lua_tolstring(L, -1, &ln);
        text t = {0};
        steer_debug_draw d = steer_default_debug_draw();
        d.draw_segment = seg, d.draw_polygon = poly, d.draw_solid_polygon = spoly, d.draw_circle = circ;
        d.draw_solid_circle = scirc, d.draw_point = point, d.draw_arrow = arrow, d.draw_transform = xform;
        d.context = &t;
        steer_world_draw(world, &d);
        int lines = 0;
        for (size_t i = 0; i < t.n; ++i) lines += t.s[i] == '\n';
        bool same = t.n == ln && memcmp(t.s, from_lua, ln) == 0;
        bool has_tree = t.n > 0 && strstr(t.s, "arrow ") != NULL;
        printf("frame %d: %d primitives, %s\n", check * 12, lines, same ? "the same from Lua" : "DIFFERENT from Lua");
        if (!same) {
            fprintf(stderr, "--- C:\n%.2000s\n--- Lua:\n%.2000s\n", t.s ? t.s : "", from_lua);
            ++failures;
        }
        if (lines < 100 || !has_tree) ++failures, printf("too few primitives or no arrows\n");
        free(t.s);
        lua_pop(L, 1);
    }
    lua_close(L);
    printf("%s\n", failures ? "FAILED" : "draw ok");
    return failures != 0;
}
