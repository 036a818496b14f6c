// draw.c: the engine's debug draw (steer_world_draw) and traces
// (steer_agent_trace_node) for Lua. world:draw reports the very primitives
// the C callbacks get, with the same colours and flags, to Lua functions;
// nothing here runs unless it is called. Every call into Lua is protected:
// an error never unwinds through the engine's drawing (it is raised after).
#include "draw.h"

#include <string.h>

// The callbacks a Lua table may give, in steer_debug_draw's order.
enum { CB_SEGMENT, CB_POLYGON, CB_SOLID_POLYGON, CB_CIRCLE, CB_SOLID_CIRCLE, CB_POINT, CB_ARROW, CB_TRANSFORM, CB_COUNT };
static const char *const callback_names[CB_COUNT + 1] = {
    "segment", "polygon", "solid_polygon", "circle", "solid_circle", "point", "arrow", "transform", NULL};
static const char *const flag_names[] = {"shapes", "agents", "paths", "velocity", "steering", "tree",
                                         "rays",   "marks",  "nav_mesh", "routes", "flow",  "stuck", NULL};

typedef struct ldraw {
    lua_State *L;
    int fn[CB_COUNT]; ///< stack slots of the functions (0: not given)
    int error_idx;    ///< the first error (nil while none)
    bool failed;
} ldraw;

// Push the function of a kind; false (nothing pushed) once a call failed.
static bool begin(ldraw *d, int kind)
{
    if (d->failed) return false;
    lua_checkstack(d->L, 12);
    lua_pushvalue(d->L, d->fn[kind]);
    return true;
}

static void push_color(lua_State *L, steer_color c)
{
    lua_pushnumber(L, (lua_Number)((c >> 24) & 0xffu) / 255.0);
    lua_pushnumber(L, (lua_Number)((c >> 16) & 0xffu) / 255.0);
    lua_pushnumber(L, (lua_Number)((c >> 8) & 0xffu) / 255.0);
    lua_pushnumber(L, (lua_Number)(c & 0xffu) / 255.0);
}

static void finish(ldraw *d, int nargs)
{
    if (lua_pcall(d->L, nargs, 0, 0) != LUA_OK) {
        d->failed = true;
        lua_replace(d->L, d->error_idx);
    }
}

static void push_points(lua_State *L, const steer_vec2 *points, int count)
{
    lua_createtable(L, 2 * count, 0);
    for (int i = 0; i < count; ++i) {
        lua_pushnumber(L, points[i].x);
        lua_rawseti(L, -2, 2 * i + 1);
        lua_pushnumber(L, points[i].y);
        lua_rawseti(L, -2, 2 * i + 2);
    }
}

// segment(x1, y1, x2, y2, r, g, b, a)
static void draw_segment(steer_vec2 p, steer_vec2 q, steer_color c, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_SEGMENT)) return;
    lua_pushnumber(d->L, p.x), lua_pushnumber(d->L, p.y), lua_pushnumber(d->L, q.x), lua_pushnumber(d->L, q.y);
    push_color(d->L, c);
    finish(d, 8);
}
// polygon(points, r, g, b, a): points = {x1, y1, x2, y2, ...} (love.graphics.polygon's order)
static void polygon(ldraw *d, int callback, const steer_vec2 *points, int count, steer_color c)
{
    if (!begin(d, callback)) return;
    push_points(d->L, points, count);
    push_color(d->L, c);
    finish(d, 5);
}
static void draw_polygon(const steer_vec2 *points, int count, steer_color c, void *context)
{
    polygon(context, CB_POLYGON, points, count, c);
}
static void draw_solid_polygon(const steer_vec2 *points, int count, steer_color c, void *context)
{
    polygon(context, CB_SOLID_POLYGON, points, count, c);
}
// circle(x, y, radius, r, g, b, a)
static void draw_circle(steer_vec2 center, float radius, steer_color c, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_CIRCLE)) return;
    lua_pushnumber(d->L, center.x), lua_pushnumber(d->L, center.y), lua_pushnumber(d->L, radius);
    push_color(d->L, c);
    finish(d, 7);
}
// solid_circle(x, y, radius, orientation, r, g, b, a)
static void draw_solid_circle(steer_vec2 center, float radius, float orientation, steer_color c, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_SOLID_CIRCLE)) return;
    lua_pushnumber(d->L, center.x), lua_pushnumber(d->L, center.y), lua_pushnumber(d->L, radius);
    lua_pushnumber(d->L, orientation);
    push_color(d->L, c);
    finish(d, 8);
}
// point(x, y, size, r, g, b, a): size in pixels
static void draw_point(steer_vec2 p, float size, steer_color c, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_POINT)) return;
    lua_pushnumber(d->L, p.x), lua_pushnumber(d->L, p.y), lua_pushnumber(d->L, size);
    push_color(d->L, c);
    finish(d, 7);
}
// arrow(x, y, dx, dy, r, g, b, a): from (x, y) along (dx, dy), world units
static void draw_arrow(steer_vec2 origin, steer_vec2 vector, steer_color c, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_ARROW)) return;
    lua_pushnumber(d->L, origin.x), lua_pushnumber(d->L, origin.y);
    lua_pushnumber(d->L, vector.x), lua_pushnumber(d->L, vector.y);
    push_color(d->L, c);
    finish(d, 8);
}
// transform(x, y, orientation)
static void draw_transform(steer_vec2 position, float orientation, void *context)
{
    ldraw *d = context;
    if (!begin(d, CB_TRANSFORM)) return;
    lua_pushnumber(d->L, position.x), lua_pushnumber(d->L, position.y), lua_pushnumber(d->L, orientation);
    finish(d, 3);
}

// flags = {"shapes", "agents", ...} (nil: all)
static uint32_t check_flags(lua_State *L, int vidx)
{
    if (lua_isnil(L, vidx)) return STEER_DRAW_ALL;
    if (!lua_istable(L, vidx)) steer_laux_error(L, steer_laux_field(2, "flags"), "must be a list of flag names", vidx);
    uint32_t flags = 0;
    int n = (int)lua_rawlen(L, vidx);
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, vidx, i);
        int f = steer_lua__choice(L, -1, flag_names);
        if (f < 0)
            steer_laux_error(L, steer_laux_field(2, "flags"),
                             "must list 'shapes', 'agents', 'paths', 'velocity', 'steering', 'tree', 'rays', "
                             "'marks', 'nav_mesh', 'routes', 'flow' or 'stuck'",
                             -1);
        flags |= 1u << f;
        lua_pop(L, 1);
    }
    return flags;
}

static float check_scale(lua_State *L, int vidx, const char *name, float def)
{
    if (lua_isnil(L, vidx)) return def;
    lua_Number v = lua_tonumber(L, vidx);
    if (lua_type(L, vidx) != LUA_TNUMBER || !(v > 0 && v < 1e9))
        steer_laux_error(L, steer_laux_field(2, name), "must be a positive number", vidx);
    return (float)v;
}

// world:draw{ segment = fn, polygon = fn, solid_polygon = fn, circle = fn,
//   solid_circle = fn, point = fn, arrow = fn, transform = fn,
//   flags = {...}, steering_scale = s, velocity_scale = s }
int steer_lua__world_draw(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    if (steer_world_is_stepping(core->world) || core->drawing)
        return luaL_error(L, "attempt to draw a world while it is stepping or drawn");
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    steer_debug_draw draw = steer_default_debug_draw();
    ldraw d = {.L = L};
    for (int k = 0; k < CB_COUNT; ++k) {
        lua_getfield(L, 2, callback_names[k]);
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            steer_laux_error(L, steer_laux_field(2, callback_names[k]), "must be a function", -1);
        d.fn[k] = lua_isnil(L, -1) ? 0 : lua_gettop(L);
    }
    lua_getfield(L, 2, "flags");
    draw.flags = check_flags(L, lua_gettop(L));
    lua_getfield(L, 2, "steering_scale");
    draw.steering_scale = check_scale(L, lua_gettop(L), "steering_scale", draw.steering_scale);
    lua_getfield(L, 2, "velocity_scale");
    draw.velocity_scale = check_scale(L, lua_gettop(L), "velocity_scale", draw.velocity_scale);
    // misspelled keys are refused, as everywhere
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING ||
            (steer_lua__choice(L, -1, callback_names) < 0 && strcmp(lua_tostring(L, -1), "flags") != 0 &&
             strcmp(lua_tostring(L, -1), "steering_scale") != 0 && strcmp(lua_tostring(L, -1), "velocity_scale") != 0))
            steer_laux_unknown_field(L, 2, lua_gettop(L));
    }
    if (d.fn[CB_SEGMENT]) draw.draw_segment = draw_segment;
    if (d.fn[CB_POLYGON]) draw.draw_polygon = draw_polygon;
    if (d.fn[CB_SOLID_POLYGON]) draw.draw_solid_polygon = draw_solid_polygon;
    if (d.fn[CB_CIRCLE]) draw.draw_circle = draw_circle;
    if (d.fn[CB_SOLID_CIRCLE]) draw.draw_solid_circle = draw_solid_circle;
    if (d.fn[CB_POINT]) draw.draw_point = draw_point;
    if (d.fn[CB_ARROW]) draw.draw_arrow = draw_arrow;
    if (d.fn[CB_TRANSFORM]) draw.draw_transform = draw_transform;
    draw.context = &d;
    lua_pushnil(L);
    d.error_idx = lua_gettop(L);
    lua_getiuservalue(L, 1, 1); // the core, kept for a close while drawing
    int core_idx = lua_gettop(L);
    // callbacks may read the world but not change it (the engine is iterating)
    ++core->busy;
    core->drawing = true;
    steer_world_draw(core->world, &draw);
    core->drawing = false;
    if (--core->busy == 0 && core->close_pending) steer_lua__close_core(L, core_idx);
    if (d.failed) {
        lua_pushvalue(L, d.error_idx);
        return lua_error(L);
    }
    return 0;
}

// Push node i of the trace as a table (children filled in by the caller).
static void push_node(lua_State *L, const steer_trace_node *n)
{
    lua_createtable(L, 0, 8);
    lua_pushstring(L, steer_behaviour_type_name(n->type));
    lua_setfield(L, -2, "type");
    lua_pushnumber(L, n->weight);
    lua_setfield(L, -2, "weight");
    if (n->has_output) {
        lua_createtable(L, 3, 0);
        lua_pushnumber(L, n->output.linear.x);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, n->output.linear.y);
        lua_rawseti(L, -2, 2);
        lua_pushnumber(L, n->output.angular);
        lua_rawseti(L, -2, 3);
        lua_setfield(L, -2, "output");
    }
    if (n->type == STEER_PRIORITY) {
        // the winning groups, 1-based like the children; nil when none steered
        if (n->winner_linear >= 0) {
            lua_pushinteger(L, n->winner_linear + 1);
            lua_setfield(L, -2, "winner_linear");
            lua_pushboolean(L, n->fallback_linear);
            lua_setfield(L, -2, "fallback_linear");
        }
        if (n->winner_angular >= 0) {
            lua_pushinteger(L, n->winner_angular + 1);
            lua_setfield(L, -2, "winner_angular");
            lua_pushboolean(L, n->fallback_angular);
            lua_setfield(L, -2, "fallback_angular");
        }
    }
    lua_newtable(L);
    lua_setfield(L, -2, "children");
}

// agent:trace_tree() -> {type =, weight =, output = {lx, ly, angular} or nil,
//   winner_linear =, winner_angular =, children = {...}, truncated =} or nil
int steer_lua__agent_trace_tree(lua_State *L)
{
    lagent *a = steer_lua__check_agent(L, 1);
    steer_world *w = a->core->world;
    int count = steer_agent_trace_node_count(w, a->id);
    if (count <= 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, count, 0); // the nodes by index, to find parents
    int nodes = lua_gettop(L);
    for (int i = 0; i < count; ++i) {
        steer_trace_node n;
        if (!steer_agent_trace_node(w, a->id, i, &n)) break;
        push_node(L, &n);
        if (n.parent >= 0 && n.parent < i) {
            lua_rawgeti(L, nodes, n.parent + 1);
            lua_getfield(L, -1, "children");
            lua_pushvalue(L, -3);
            lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
            lua_pop(L, 2);
        }
        lua_rawseti(L, nodes, i + 1);
    }
    lua_rawgeti(L, nodes, 1);
    lua_pushboolean(L, steer_agent_trace_truncated(w, a->id));
    lua_setfield(L, -2, "truncated");
    return 1;
}
