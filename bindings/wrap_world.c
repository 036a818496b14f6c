// wrap_world.c: steer.World: options and settings read through the
// engine's reflected world and agent definitions, spawning, stepping,
// queries, static geometry, and the host's side of a world.
#include "classes.h"
#include "formation_sync.h"
#include "draw.h"
#include "runtime.h"
#include "nav_sync.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- steer.world ------------------------------------------------------------------ */

const char *const steer_lua__world_options[] = {"nav_bounds", NULL};
static void build_world_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_WORLD, false, NULL, steer_lua__world_options); }
static const char world_options_key = 0;

/// nav_bounds = {x1, y1, x2, y2}: where navigation plans (docs/navigation.md).
typedef struct world_extra {
    bool has_bounds;
    steer_vec2 lower, upper;
} world_extra;

static bool world_extra_option(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    (void)code; // nav_bounds, the only extra
    world_extra *e = context;
    steer_lua__nav_check_bounds(L, w, vidx, &e->lower, &e->upper);
    e->has_bounds = true;
    return true;
}

// steer.world{seed=, integrator=, cell_size=, capacity=, resolve_contacts=,
//             resolve_agent_contacts=, workers=, nav_bounds=} -> world
int steer_lua__world_new(lua_State *L)
{
    steer_world_def def = steer_default_world_def();
    world_extra extra = {false, {0.0f, 0.0f}, {0.0f, 0.0f}};
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_settop(L, 1);
        steer_lua__push_memo(L, &world_options_key, build_world_options);
        steer_lua_reader r = {.arg = 1, .def = &def, .extra = world_extra_option, .context = &extra};
        steer_lua__read_options(L, 1, 2, &r);
    }
    lua_settop(L, 0);
    lworld *lw = steer_lua__new_world(L);
    lw->core->world = steer_world_create(&def);
    if (lw->core->world == NULL) return luaL_error(L, "not enough memory or threads for the world");
    lw->core->owned = true;
    if (extra.has_bounds && !steer_lua__nav_set_bounds(lw->core, extra.lower, extra.upper))
        return luaL_error(L, "not enough memory");
    // navigate and world:move_group plan through the world's navigation
    steer_lua__nav_attach(lw->core);
    return 1;
}

/* ---- spawn -------------------------------------------------------------------------- */

// What spawn takes besides the agent definition's fields: kept in the
// slots 3, 4, 5, 6 of world_spawn's stack (color as its number).
const char *const steer_lua__spawn_options[] = {"steering", "role", "tag", "color", NULL};
enum { SPAWN_STEERING, SPAWN_ROLE, SPAWN_TAG, SPAWN_COLOR, SPAWN_EXTRAS };

static void build_spawn_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_AGENT, false, NULL, steer_lua__spawn_options); }
static const char spawn_options_key = 0;

static bool spawn_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    steer_agent_def *d = context;
    if (code == SPAWN_STEERING) {
        lbehaviour *lb = steer_lua__test_behaviour(L, vidx);
        if (lb == NULL) steer_laux_error(L, w, "must be a behaviour", vidx);
        d->behaviour = lb->b;
    } else if (code == SPAWN_COLOR) {
        lua_pushinteger(L, (lua_Integer)steer_laux_color(L, w, vidx));
        lua_replace(L, 3 + code);
        return true;
    } else if (lua_type(L, vidx) != LUA_TSTRING) {
        steer_laux_error(L, w, "must be a string", vidx);
    }
    lua_pushvalue(L, vidx);
    lua_replace(L, 3 + code);
    return true;
}

// world:spawn{x=, y=, orientation=, vx=, vy=, rotation=, radius=, max_speed=,
//   max_acceleration=, max_rotation=, max_angular_acceleration=, drag=,
//   kinematic=, face_velocity=, steering=, role=, tag=, key=, color=} -> agent
static int world_spawn(lua_State *L)
{
    enum { EXTRAS = 3, TOP = EXTRAS + SPAWN_EXTRAS - 1, CORE = TOP + 1, PROXY = TOP + 2 };
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_agent_def def = steer_default_agent_def();
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    for (int k = 0; k < SPAWN_EXTRAS; ++k) lua_pushnil(L); // EXTRAS + SPAWN_*: the extras
    steer_lua__push_memo(L, &spawn_options_key, build_spawn_options);
    steer_lua_reader r = {.arg = 2, .def = &def, .extra = spawn_extra, .context = &def};
    steer_lua__read_options(L, 2, TOP + 1, &r);
    lua_settop(L, TOP);
    lua_getiuservalue(L, 1, 1); // CORE
    // the proxy first, then the agent
    steer_lua__new_handle(L, CORE, LKIND_AGENT); // PROXY
    steer_agent_id id = steer_agent_create(core->world, &def);
    if (steer_agent_id_is_null(id)) return luaL_error(L, "not enough memory");
    steer_lua__attach_handle(L, PROXY, LKIND_AGENT, steer_agent_id_store(id));
    lua_Integer stored = steer_lua__stored_id(id);
    for (int slot = EXTRAS; slot <= EXTRAS + SPAWN_TAG; ++slot) {
        if (lua_isnil(L, slot)) continue;
        lua_getiuservalue(L, CORE, slot == EXTRAS + SPAWN_STEERING ? CORE_UV_STEERING
                                   : slot == EXTRAS + SPAWN_ROLE   ? CORE_UV_ROLE
                                                                   : CORE_UV_TAG);
        lua_pushvalue(L, slot);
        lua_rawseti(L, -2, stored);
        lua_pop(L, 1);
    }
    if (!lua_isnil(L, EXTRAS + SPAWN_COLOR) &&
        !steer_agent_set_color(core->world, id, (steer_color)lua_tointeger(L, EXTRAS + SPAWN_COLOR)))
        return luaL_error(L, "not enough memory");
    // a role without steering: the spawn hook (if any) gives the role's
    // behaviour and colour; the world is frozen meanwhile, so the new agent
    // is still there
    if (lua_isnil(L, EXTRAS + SPAWN_STEERING) && !lua_isnil(L, EXTRAS + SPAWN_ROLE)) {
        steer_lua__push_spawn_steering(L, core, PROXY, EXTRAS + SPAWN_ROLE); // behaviour, colour
        const char *role = lua_tostring(L, EXTRAS + SPAWN_ROLE);
        if (!lua_isnil(L, -2) && steer_lua__test_behaviour(L, -2) == NULL)
            return luaL_error(L, "the behaviour of role '%s' is not a behaviour", role);
        uint32_t color = 0;
        if (!lua_isnil(L, -1) &&
            (lua_type(L, -1) != LUA_TSTRING || !steer_lua_parse_color(lua_tostring(L, -1), &color)))
            return luaL_error(L, "the colour of role '%s' must be a colour '#rrggbb', got %s", role,
                              lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
        // the role's colour fills only a colour the spawn did not give
        if (!lua_isnil(L, -1) && lua_isnil(L, EXTRAS + SPAWN_COLOR) &&
            !steer_agent_set_color(core->world, id, (steer_color)color))
            return luaL_error(L, "not enough memory");
        if (!lua_isnil(L, -2)) steer_lua__set_steering(L, CORE, id, lua_gettop(L) - 1, false);
    }
    lua_pushvalue(L, PROXY);
    return 1;
}

/* ---- stepping and queries ------------------------------------------------------------- */

// world:step(dt): dt in seconds, 0 <= dt <= 10000
static int world_step(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    float dt = steer_laux_check_float(L, 2, LAUX_NONNEGATIVE);
    if (dt > (float)STEER_MAX_STEP) {
        char limit[32];
        steer_format_limit(STEER_MAX_STEP, limit, sizeof limit);
        steer_laux_error(L, steer_laux_arg(2), lua_pushfstring(L, "must be at most %s", limit), 2);
    }
    if (steer_world_is_stepping(core->world)) return luaL_error(L, "attempt to step a world while it is stepping");
    steer_lua__check_mutable(L, core); // not while drawn or frozen
    steer_lua__charge_step(L, core->world);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    lstep s;
    steer_lua__step_begin(L, &s, 3);
    steer_world_step(core->world, dt);
    steer_lua__step_end(L, &s);
    return 0;
}

// world:count() -> number of live agents
static int world_count(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_pushinteger(L, steer_world_agent_count(core->world));
    return 1;
}

// world:query(x, y, radius [, filter]) -> list of the agents within radius
// (distance < radius); filter: {mask = bits, z = m, height = m, ignore = agent}
static int world_query(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    float x = steer_laux_check_float(L, 2, LAUX_FINITE);
    float y = steer_laux_check_float(L, 3, LAUX_FINITE);
    float r = steer_laux_check_float(L, 4, LAUX_NONNEGATIVE);
    steer_ray_filter filter = steer_default_ray_filter();
    steer_lua__read_ray_filter(L, 5, false, &filter);
    lua_settop(L, 5);
    lua_getiuservalue(L, 1, 1); // 6
    steer_agent_id local[64];
    steer_agent_id *ids = local;
    int n = steer_world_query_filtered(core->world, steer_v2(x, y), r, &filter, ids, 64);
    if (n > 64) {
        ids = lua_newuserdatauv(L, sizeof *ids * (size_t)n, 0);
        n = steer_world_query_filtered(core->world, steer_v2(x, y), r, &filter, ids, n);
    }
    lua_createtable(L, n, 0);
    int t = lua_gettop(L);
    for (int i = 0; i < n; ++i) {
        steer_lua__push_agent(L, 6, ids[i]);
        lua_rawseti(L, t, i + 1);
    }
    return 1;
}

// world:hash([format]) -> integer digest of every agent (steer_world_hash, order-independent);
// format "hex": the 64 bits as 16 hexadecimal digits, exact under every Lua
// (before 5.3 a number is a double)
static int world_hash(lua_State *L)
{
    static const char *const formats[] = {"integer", "hex", NULL};
    lcore *core = steer_lua__check_world(L, 1);
    uint64_t h = steer_world_hash(core->world);
    if (!lua_isnoneornil(L, 2) && steer_laux_enum(L, steer_laux_arg(2), 2, formats) == 1) {
        char buf[17];
        snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
        lua_pushstring(L, buf);
    } else {
        lua_pushinteger(L, (lua_Integer)h);
    }
    return 1;
}

// world:close(): destroy the world now; its agents' proxies raise afterwards
static int world_close(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return 0;
    if (!lw->core->owned) return luaL_error(L, "attempt to close a world owned by its host");
    if (lw->core->busy > 0) return luaL_error(L, "attempt to close a world while it is stepping");
    // (a role, pattern or costs function: the call that runs it still uses the world)
    if (lw->core->frozen != NULL) return luaL_error(L, "attempt to close a world while %s", lw->core->frozen);
    lua_getiuservalue(L, 1, 1);
    steer_lua__close_core(L, lua_gettop(L));
    return 0;
}

// world:path{ {x, y}, ..., loop = false } -> path (same as steer.path)
static int world_path(lua_State *L)
{
    steer_lua__check_world(L, 1);
    return steer_lua__new_path(L, 2);
}

/* ---- static geometry ------------------------------------------------------------------ */

// Static geometry lives within +-STEER_MAX_COORDINATE metres.
#define GEOMETRY_MAX STEER_MAX_COORDINATE

// "must be within [-1e15, 1e15]"
static const char *within_phrase(lua_State *L)
{
    char lo[32], hi[32];
    return lua_pushfstring(L, "must be within [%s, %s]", steer_format_limit(-GEOMETRY_MAX, lo, sizeof lo),
                           steer_format_limit(GEOMETRY_MAX, hi, sizeof hi));
}

static float check_coord(lua_State *L, int arg)
{
    float v = steer_laux_check_float(L, arg, LAUX_FINITE);
    if (v > GEOMETRY_MAX || v < -GEOMETRY_MAX) steer_laux_error(L, steer_laux_arg(arg), within_phrase(L), arg);
    return v;
}

// The options of a shape constructor, its last argument: {layer = bits,
// z = m, height = m}.
typedef struct shape_options {
    uint32_t layer;
    float z, height;
} shape_options;

static const char *const shape_option_names[] = {"layer", "z", "height", NULL};
enum { SHAPE_LAYER, SHAPE_Z, SHAPE_HEIGHT };
static void build_shape_options(lua_State *L)
{
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, shape_option_names);
}
static const char shape_options_key = 0;

static bool shape_option(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    shape_options *o = context;
    if (code == SHAPE_LAYER) o->layer = steer_laux_bits(L, w, vidx);
    else if (code == SHAPE_Z) o->z = (float)steer_laux_number(L, w, vidx, LAUX_FINITE);
    else o->height = (float)steer_laux_number(L, w, vidx, LAUX_NONNEGATIVE);
    return true;
}

// Read the options at arg (nil or absent: the defaults); nothing may follow
// them. Before the shape is made, so a bad option adds nothing.
static shape_options check_shape_options(lua_State *L, int arg)
{
    shape_options o = {1u, 0.0f, 0.0f};
    if (lua_gettop(L) > arg) luaL_argerror(L, arg + 1, "no argument expected after the options table");
    if (lua_isnoneornil(L, arg)) return o;
    if (!lua_istable(L, arg)) luaL_argerror(L, arg, "must be an options table {layer =, z =, height =} or nil");
    int top = lua_gettop(L);
    steer_lua__push_memo(L, &shape_options_key, build_shape_options);
    steer_lua_reader r = {.arg = arg, .extra = shape_option, .context = &o};
    steer_lua__read_options(L, arg, lua_gettop(L), &r);
    if (!isfinite(o.z + o.height)) steer_laux_error_plain(L, steer_laux_field(arg, "height"), "must keep z + height finite");
    lua_settop(L, top);
    return o;
}

// The new shape, with its options, copied for navigation too (nav_sync.c).
static int push_new_shape_nav(lua_State *L, steer_shape_id id, const shape_options *o, int kind, const steer_vec2 *p,
                              int n, float r, bool loop)
{
    if (steer_shape_id_is_null(id)) return luaL_error(L, "could not add the shape (not enough memory?)");
    lcore *core = steer_lua__check_world(L, 1);
    if (o->layer != 1u) steer_shape_set_category(core->world, id, o->layer);
    if (o->z != 0.0f || o->height != 0.0f) steer_shape_set_extent(core->world, id, o->z, o->height);
    if (!steer_lua__nav_shape_added(core, id, kind, p, n, r, loop)) {
        steer_shape_destroy(core->world, id);
        return luaL_error(L, "not enough memory");
    }
    lua_getiuservalue(L, 1, 1);
    steer_lua__push_handle(L, lua_gettop(L), LKIND_SHAPE, steer_shape_id_store(id));
    return 1;
}

// world:add_wall(x1, y1, x2, y2 [, options]) -> shape: a wall segment between two distinct points
static int world_add_wall(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_vec2 a = {check_coord(L, 2), check_coord(L, 3)};
    steer_vec2 b = {check_coord(L, 4), check_coord(L, 5)};
    shape_options o = check_shape_options(L, 6);
    if (a.x == b.x && a.y == b.y) return luaL_error(L, "bad arguments to 'add_wall' (the two points are the same)");
    steer_vec2 ends[2] = {a, b};
    return push_new_shape_nav(L, steer_world_add_segment(core->world, a, b), &o, LNAV_SEGMENT, ends, 2, 0.0f, false);
}

// world:add_circle(x, y, radius [, options]) -> shape: a solid circle
static int world_add_circle(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_vec2 c = {check_coord(L, 2), check_coord(L, 3)};
    float r = steer_laux_check_float(L, 4, LAUX_POSITIVE);
    if (r > GEOMETRY_MAX) {
        char limit[32];
        steer_format_limit(GEOMETRY_MAX, limit, sizeof limit);
        steer_laux_error(L, steer_laux_arg(4), lua_pushfstring(L, "must be at most %s", limit), 4);
    }
    shape_options o = check_shape_options(L, 5);
    return push_new_shape_nav(L, steer_world_add_circle(core->world, c, r), &o, LNAV_CIRCLE, &c, 1, r, false);
}

// world:add_box(x1, y1, x2, y2 [, options]) -> shape: a solid axis-aligned box (corners in any order)
static int world_add_box(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    float x1 = check_coord(L, 2), y1 = check_coord(L, 3);
    float x2 = check_coord(L, 4), y2 = check_coord(L, 5);
    shape_options o = check_shape_options(L, 6);
    if (x1 == x2 || y1 == y2) return luaL_error(L, "bad arguments to 'add_box' (the box is empty)");
    steer_vec2 lo = {steer_minf(x1, x2), steer_minf(y1, y2)}, hi = {steer_maxf(x1, x2), steer_maxf(y1, y2)};
    steer_vec2 corners[2] = {lo, hi};
    return push_new_shape_nav(L, steer_world_add_box(core->world, lo, hi), &o, LNAV_BOX, corners, 2, 0.0f, false);
}

// Read a list of points {{x, y}, ...} at arg into a userdata buffer (pushed).
static steer_vec2 *check_points(lua_State *L, int arg, int min, int max, int *count)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    if (n < min || n > max) {
        const char *msg = lua_pushfstring(L, "must hold %d to %d points, got " STEER_LUA_IFMT, min, max, STEER_LUA_IARG(n));
        luaL_argerror(L, arg, msg);
    }
    steer_vec2 *p = lua_newuserdatauv(L, sizeof *p * (size_t)n, 0);
    for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, arg, i);
        char name[32];
        snprintf(name, sizeof name, "[%d]", (int)i);
        steer_laux_point(L, steer_laux_field(arg, name), -1, &p[i - 1].x, &p[i - 1].y);
        if (steer_absf(p[i - 1].x) > GEOMETRY_MAX || steer_absf(p[i - 1].y) > GEOMETRY_MAX)
            steer_laux_error_plain(L, steer_laux_field(arg, name), within_phrase(L));
        lua_pop(L, 1);
    }
    *count = (int)n;
    return p;
}

// The options of a list of points: loop (add_polyline) or none.
static const char *const polyline_extras[] = {"loop", NULL};
static bool polyline_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    (void)code;
    *(bool *)context = steer_laux_boolean(L, w, vidx);
    return true;
}
static void build_polygon_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, NULL); }
static void build_polyline_options(lua_State *L)
{
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, polyline_extras);
}
static const char polygon_options_key = 0, polyline_options_key = 0;

// Only the keys of a list plus its options are allowed.
static void check_list_keys(lua_State *L, int arg, bool polyline, bool *loop)
{
    // lua_next on anything but a table is undefined (it crashed on a number)
    luaL_checktype(L, arg, LUA_TTABLE);
    if (polyline) steer_lua__push_memo(L, &polyline_options_key, build_polyline_options);
    else steer_lua__push_memo(L, &polygon_options_key, build_polygon_options);
    steer_lua_reader r = {.arg = arg, .list = true, .extra = polyline_extra, .context = loop};
    steer_lua__read_options(L, arg, lua_gettop(L), &r);
    lua_pop(L, 1);
}

// world:add_polygon({ {x, y}, ... } [, options]) -> shape: a solid convex polygon (3 to 16 points)
static int world_add_polygon(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    int n;
    shape_options o = check_shape_options(L, 3);
    lua_settop(L, 2);
    check_list_keys(L, 2, false, NULL);
    steer_vec2 *p = check_points(L, 2, 3, STEER_MAX_POLYGON_VERTICES, &n);
    if (!steer_polygon_is_valid(p, n)) return luaL_argerror(L, 2, "the polygon must be convex, with no three points in line");
    return push_new_shape_nav(L, steer_world_add_polygon(core->world, p, n), &o, LNAV_POLYGON, p, n, 0.0f, false);
}

// world:add_polyline({ {x, y}, ..., loop = false } [, options]) -> shape: a chain of walls
static int world_add_polyline(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    shape_options o = check_shape_options(L, 3);
    lua_settop(L, 2);
    bool loop = false;
    check_list_keys(L, 2, true, &loop);
    int n;
    steer_vec2 *p = check_points(L, 2, 2, 1 << 22, &n);
    for (int i = 0; i + 1 < n; ++i) {
        if (p[i].x == p[i + 1].x && p[i].y == p[i + 1].y) return luaL_argerror(L, 2, "consecutive points must differ");
    }
    if (loop && steer_polyline_link_count(p, n, loop) < 3) return luaL_argerror(L, 2, "a loop needs at least 3 distinct points");
    return push_new_shape_nav(L, steer_world_add_polyline(core->world, p, n, loop), &o, LNAV_POLYLINE, p, n, 0.0f,
                              loop);
}

// world:raycast(x, y, dx, dy, max_distance [, filter]) -> x, y, nx, ny, distance, hit
// or nil. filter: {mask = bits, agents = bool, ignore = agent, z = m,
// height = m}. hit is the shape or agent hit.
static int world_raycast(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_vec2 o = {steer_laux_check_float(L, 2, LAUX_FINITE), steer_laux_check_float(L, 3, LAUX_FINITE)};
    steer_vec2 d = {steer_laux_check_float(L, 4, LAUX_FINITE), steer_laux_check_float(L, 5, LAUX_FINITE)};
    float max_distance = steer_laux_check_float(L, 6, LAUX_NONNEGATIVE);
    steer_ray_filter filter = steer_default_ray_filter();
    steer_lua__read_ray_filter(L, 7, true, &filter);
    lua_settop(L, 7);
    lua_getiuservalue(L, 1, 1); // 8
    steer_ray_hit hit;
    if (!steer_world_raycast(core->world, o, d, max_distance, &filter, &hit)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, hit.point.x);
    lua_pushnumber(L, hit.point.y);
    lua_pushnumber(L, hit.normal.x);
    lua_pushnumber(L, hit.normal.y);
    lua_pushnumber(L, hit.distance);
    if (!steer_agent_id_is_null(hit.agent))
        steer_lua__push_agent(L, 8, hit.agent);
    else if (!steer_shape_id_is_null(hit.shape))
        steer_lua__push_handle(L, 8, LKIND_SHAPE, steer_shape_id_store(hit.shape));
    else
        lua_pushnil(L);
    return 6;
}

/* ---- properties and metamethods ---------------------------------------------------------- */

// Properties besides the live fields of the world definition (read-only).
const char *const steer_lua__world_properties[] = {"steps", "workers", "data", "nav_bounds", NULL};
enum { WORLD_STEPS, WORLD_WORKERS, WORLD_DATA, WORLD_NAV_BOUNDS };

// world.integrator ("euler" | "newton"), world.cell_size (m), world.resolve_contacts,
// world.resolve_agent_contacts, world.steps and world.workers (read-only)
static int world_index(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_WORLD);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == -1) return luaL_error(L, "steer.World has no property '%s'", luaL_tolstring(L, 2, NULL));
    lcore *core = steer_lua__check_world(L, 1);
    if (code == WORLD_STEPS) {
        lua_pushinteger(L, (lua_Integer)steer_world_step_count(core->world));
    } else if (code == WORLD_WORKERS) {
        lua_pushinteger(L, steer_world_get_worker_count(core->world));
    } else if (code == WORLD_DATA) {
        // made on first use, kept with the world (a reload keeps it, a
        // reset's new world starts without)
        lua_getiuservalue(L, 1, 1);
        lua_getiuservalue(L, -1, CORE_UV_WORLD);
        steer_lua__push_data(L, -1, 1);
    } else if (code == WORLD_NAV_BOUNDS) {
        steer_lua__nav_push_bounds(L, core);
    } else {
        steer_world_def d;
        steer_world_get_def(core->world, &d);
        steer_lua__push_field(L, &d, lua_touserdata(L, -1));
    }
    return 1;
}

// world.integrator = "euler" | "newton", world.cell_size = m, world.resolve_contacts = bool,
// world.resolve_agent_contacts = bool
static int world_newindex(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_WORLD);
    const char *k = lua_tostring(L, 2);
    if (k == NULL) k = luaL_tolstring(L, 2, NULL);
    lcore *core = steer_lua__check_world(L, 1);
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == WORLD_DATA) {
        // the script's own values, not a setting: a host's world takes them
        steer_laux_where where = steer_laux_property(STEER_LUA_WORLD, k);
        if (!lua_isnil(L, 3) && !lua_istable(L, 3)) steer_laux_error(L, where, "must be a table or nil", 3);
        steer_lua__check_plain(L, where, 3);
        lua_getiuservalue(L, 1, 1);
        lua_getiuservalue(L, -1, CORE_UV_WORLD);
        lua_pushvalue(L, 3);
        lua_rawseti(L, -2, 1);
        return 0;
    }
    if (code >= 0) return luaL_error(L, "property '%s' of steer.World is read-only", k);
    if (code == -1) return luaL_error(L, "steer.World has no property '%s'", k);
    if (core->settings_locked) return luaL_error(L, "attempt to change '%s' of a world owned by its host", k);
    steer_world_def d;
    steer_world_get_def(core->world, &d);
    steer_lua__read_field(L, steer_laux_property(STEER_LUA_WORLD, k), 3, &d, lua_touserdata(L, -1));
    steer_lua__check_mutable(L, core);
    steer_world_apply_def(core->world, &d);
    return 0;
}

static int world_gc(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return 0;
    // an engine call on this world is in progress (get_steering through an
    // agent proxy): destroy when it returns
    if (lw->core->busy > 0) {
        lw->core->close_pending = true;
        return 0;
    }
    lua_getiuservalue(L, 1, 1);
    steer_lua__close_core(L, lua_gettop(L));
    return 0;
}

static int world_tostring(lua_State *L)
{
    lworld *lw = luaL_checkudata(L, 1, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL)
        lua_pushliteral(L, "steer.World{closed}");
    else
        lua_pushfstring(L, "steer.World{agents=%d, steps=" STEER_LUA_IFMT "}", steer_world_agent_count(lw->core->world),
                        STEER_LUA_IARG(steer_world_step_count(lw->core->world)));
    return 1;
}

static const luaL_Reg world_methods[] = {
    {"add_box", world_add_box},
    {"add_circle", world_add_circle},
    {"add_polygon", world_add_polygon},
    {"add_polyline", world_add_polyline},
    {"add_wall", world_add_wall},
    {"agents", steer_lua__world_agents},
    {"close", world_close},
    {"count", world_count},
    {"draw", steer_lua__world_draw},
    {"find", steer_lua__world_find},
    {"formations", steer_lua__world_formations},
    {"hash", world_hash},
    {"path", world_path},
    {"query", world_query},
    {"raycast", world_raycast},
    {"spawn", world_spawn},
    {"step", world_step},
    {NULL, NULL},
};

static const luaL_Reg world_meta[] = {
    {"__gc", world_gc},
    {"__close", world_gc},
    {"__tostring", world_tostring},
    {NULL, NULL},
};

void steer_lua__open_world(lua_State *L)
{
    steer_laux_new_class(L, STEER_LUA_WORLD, world_meta);
    luaL_newlib(L, world_methods);
    steer_lua__push_def_names(L, STEER_DEF_WORLD, true, NULL, steer_lua__world_properties);
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, world_index, 2);
    lua_setfield(L, -4, "__index");
    lua_pushcclosure(L, world_newindex, 2);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
}

/* ---- host API ------------------------------------------------------------------------------ */

steer_world *steer_lua_toworld(lua_State *L, int index)
{
    lworld *lw = luaL_testudata(L, index, STEER_LUA_WORLD);
    return lw != NULL && lw->core != NULL ? lw->core->world : NULL;
}

void steer_lua_pushworld(lua_State *L, steer_world *world)
{
    lworld *lw = steer_lua__new_world(L);
    lw->core->world = world;
    lw->core->owned = false;
    lw->core->settings_locked = true;
    // a host's world plans through this module's navigation unless it has a planner
    steer_planner planner;
    if (!steer_world_get_planner(world, &planner)) steer_lua__nav_attach(lw->core);
}

void steer_lua_allow_world_settings(lua_State *L, int index, bool allow)
{
    lworld *lw = luaL_checkudata(L, index, STEER_LUA_WORLD);
    if (lw->core != NULL) lw->core->settings_locked = !allow;
}

void steer_lua_freeze_world(lua_State *L, int index, const char *reason)
{
    lworld *lw = luaL_checkudata(L, index, STEER_LUA_WORLD);
    if (lw->core != NULL) lw->core->frozen = reason;
}

void steer_lua_close_world(lua_State *L, int index)
{
    index = lua_absindex(L, index);
    lworld *lw = luaL_checkudata(L, index, STEER_LUA_WORLD);
    if (lw->core == NULL || lw->core->world == NULL) return;
    if (lw->core->busy > 0) {
        luaL_error(L, "attempt to close a world while it is stepping");
        return;
    }
    lua_getiuservalue(L, index, 1);
    steer_lua__close_core(L, lua_gettop(L));
    lua_pop(L, 1);
}
