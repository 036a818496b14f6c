// wrap_nav.c: navigation from Lua (steer/nav.h, the steer::nav library):
// world:find_path, world:flow_field, world:move_group, the steer.FlowField
// class and steer.follow_flow_field. The world's shapes reach the navigation through
// nav_sync.c.
#include "classes.h"
#include "nav_sync.h"
#include "runtime.h"

#include <float.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#define STEER_LUA_FLOW_FIELD "steer.FlowField"

/// A field shared by its Lua proxy and every follow_flow_field behaviour.
typedef struct lfield {
    steer_flow_field *field;
    int refs;
} lfield;

static void field_release(void *context)
{
    lfield *f = context;
    if (f != NULL && --f->refs == 0) {
        steer_flow_field_destroy(f->field);
        steer_free(f);
    }
}

/// steer.FlowField's userdata: one reference to the shared field.
typedef struct lfield_proxy {
    lfield *shared;
} lfield_proxy;

static lfield *check_field(lua_State *L, int arg)
{
    lfield_proxy *p = luaL_checkudata(L, arg, STEER_LUA_FLOW_FIELD);
    if (p->shared == NULL) luaL_error(L, "attempt to use a released flow field");
    return p->shared;
}

// A point option: {x, y} or an agent (its position now).
static steer_vec2 point_or_agent(lua_State *L, int arg, const char *name, int vidx)
{
    steer_vec2 p;
    if (luaL_testudata(L, vidx, STEER_LUA_AGENT)) {
        lagent *a = steer_lua__check_agent(L, vidx);
        return steer_agent_get_position(a->core->world, a->id);
    }
    steer_laux_point(L, steer_laux_field(arg, name), vidx, &p.x, &p.y);
    if (fabsf(p.x) > STEER_NAV_MAX_COORDINATE || fabsf(p.y) > STEER_NAV_MAX_COORDINATE)
        steer_laux_error_plain(L, steer_laux_field(arg, name), "must be within [-1e6, 1e6]");
    return p;
}

// Refuse keys other than the names given.
static void check_keys(lua_State *L, int arg, const char *const *names)
{
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        lua_pop(L, 1);
        bool known = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; names[i] && !known; ++i) known = strcmp(lua_tostring(L, -1), names[i]) == 0;
        if (!known) steer_laux_unknown_field(L, arg, lua_gettop(L));
    }
}

static float radius_option(lua_State *L, int arg)
{
    float r = 0.5f;
    if (lua_getfield(L, arg, "radius") != LUA_TNIL) {
        r = (float)steer_laux_number(L, steer_laux_field(arg, "radius"), -1, LAUX_POSITIVE);
        if (r > STEER_NAV_MAX_RADIUS)
            steer_laux_error_plain(L, steer_laux_field(arg, "radius"), "must be at most 100");
    }
    lua_pop(L, 1);
    return r;
}

// The query's mask: the layers whose shapes it plans round (default every one).
static uint32_t mask_option(lua_State *L, int arg)
{
    uint32_t mask = STEER_ALL_LAYERS;
    if (lua_getfield(L, arg, "mask") != LUA_TNIL) mask = steer_laux_bits(L, steer_laux_field(arg, "mask"), -1);
    lua_pop(L, 1);
    return mask;
}

// world:find_path{ from = {x, y} or agent, to = {x, y} or agent, radius = 0.5, mask = bits }
//   -> steer.Path, or nil, message (no path, a point inside a shape)
int steer_lua__world_find_path(lua_State *L)
{
    static const char *const names[] = {"from", "to", "radius", "mask", NULL};
    lcore *core = steer_lua__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, names);
    lua_getfield(L, 2, "from");
    steer_vec2 from = point_or_agent(L, 2, "from", -1);
    lua_getfield(L, 2, "to");
    steer_vec2 to = point_or_agent(L, 2, "to", -1);
    lua_pop(L, 2);
    float radius = radius_option(L, 2);
    uint32_t mask = mask_option(L, 2);
    steer_nav *nav = steer_lua__nav_of(core);
    if (nav == NULL) return luaL_error(L, "not enough memory");
    steer_nav_result res;
    steer_nav_find_path_masked(nav, from, to, radius, mask, NULL, 0, &res);
    if (res.status == STEER_NAV_OK) {
        steer_vec2 *points = lua_newuserdatauv(L, (size_t)res.count * sizeof *points, 0);
        steer_nav_find_path_masked(nav, from, to, radius, mask, points, res.count, &res);
        // from and to the same point: a path needs two distinct points
        if (res.count == 2 && points[0].x == points[1].x && points[0].y == points[1].y)
            points[1].x = nextafterf(points[1].x, INFINITY);
        steer_path_def def = steer_default_path_def();
        def.points = points;
        def.count = res.count;
        return steer_lua__push_path(L, &def);
    }
    if (res.status == STEER_NAV_OUT_OF_MEMORY) return luaL_error(L, "not enough memory");
    lua_pushnil(L);
    lua_pushstring(L, res.message);
    return 2;
}

// world:flow_field{ goal = {x, y}, radius = 0.5, cell = 1, bounds = {x1, y1, x2, y2}, mask = bits }
//   -> steer.FlowField, or nil, message (goal inside a shape, too many cells)
int steer_lua__world_flow_field(lua_State *L)
{
    static const char *const names[] = {"goal", "radius", "cell", "bounds", "mask", NULL};
    lcore *core = steer_lua__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, names);
    steer_flow_field_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "goal");
    d.goal = point_or_agent(L, 2, "goal", -1);
    lua_pop(L, 1);
    d.radius = radius_option(L, 2);
    uint32_t mask = mask_option(L, 2);
    d.cell = 1.0f;
    if (lua_getfield(L, 2, "cell") != LUA_TNIL)
        d.cell = (float)steer_laux_number(L, steer_laux_field(2, "cell"), -1, LAUX_POSITIVE);
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "bounds") != LUA_TTABLE)
        steer_laux_error(L, steer_laux_field(2, "bounds"), "must be a table {x1, y1, x2, y2}", -1);
    if (lua_rawlen(L, -1) != 4) {
        const char *got = lua_pushfstring(L, "must be a table {x1, y1, x2, y2}, got %d values", (int)lua_rawlen(L, -1));
        steer_laux_error_plain(L, steer_laux_field(2, "bounds"), got);
    }
    float b[4];
    for (int i = 0; i < 4; ++i) {
        char name[16];
        snprintf(name, sizeof name, "bounds[%d]", i + 1);
        lua_rawgeti(L, -1, i + 1);
        b[i] = (float)steer_laux_number(L, steer_laux_field(2, name), -1, LAUX_FINITE);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    d.lower = steer_v2(fminf(b[0], b[2]), fminf(b[1], b[3]));
    d.upper = steer_v2(fmaxf(b[0], b[2]), fmaxf(b[1], b[3]));
    steer_nav *nav = steer_lua__nav_of(core);
    if (nav == NULL) return luaL_error(L, "not enough memory");
    lfield_proxy *p = lua_newuserdatauv(L, sizeof *p, 0);
    p->shared = NULL;
    luaL_setmetatable(L, STEER_LUA_FLOW_FIELD);
    lfield *shared = steer_alloc(sizeof *shared);
    if (shared == NULL) return luaL_error(L, "not enough memory");
    steer_nav_result res;
    shared->field = steer_nav_flow_field_masked(nav, &d, mask, &res);
    shared->refs = 1;
    if (shared->field == NULL) {
        steer_free(shared);
        if (res.status == STEER_NAV_OUT_OF_MEMORY) return luaL_error(L, "not enough memory");
        lua_pushnil(L);
        lua_pushstring(L, res.message);
        return 2;
    }
    p->shared = shared;
    // the latest field is the one world:draw shows (flag "flow")
    ++shared->refs;
    steer_lua__nav_show_field(core, shared->field, shared, field_release);
    return 1;
}

/* ---- group orders ------------------------------------------------------------------------ */

// The shared default behaviour of a unit ordered by move_group without one
// that navigates: reciprocal_avoidance{ preferred = navigate{},
// time_horizon = 0.5 } (pushed). A short horizon lets a unit through a
// group that has settled (docs/navigation.md: the group figure).
static void push_default_unit_behaviour(lua_State *L)
{
    steer_behaviour_def nd = steer_default_behaviour_def(STEER_NAVIGATE);
    steer_behaviour *nav = steer_behaviour_create(&nd);
    if (nav == NULL) luaL_error(L, "not enough memory");
    steer_child child = {nav, 1.0f};
    steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    rd.time_horizon = 0.5f;
    rd.children = &child;
    rd.child_count = 1;
    steer_behaviour *avoid = steer_behaviour_create(&rd);
    steer_behaviour_release(nav);
    if (avoid == NULL) luaL_error(L, "not enough memory");
    steer_lua__push_behaviour(L, avoid);
    steer_behaviour_release(avoid);
}

// world:move_group{ agents = {a1, a2, ...}, to = {x, y}, spacing = s }
//   -> the stop points {{x, y}, ...} (by agent), or nil, message
int steer_lua__world_move_group(lua_State *L)
{
    static const char *const names[] = {"agents", "to", "spacing", NULL};
    lcore *core = steer_lua__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    check_keys(L, 2, names);
    steer_lua__check_mutable(L, core);
    steer_world *w = core->world;
    lua_getfield(L, 2, "to"); // 3
    steer_vec2 to = point_or_agent(L, 2, "to", 3);
    char buf[96];
    const char *phrase = steer_lua__nav_check_point(core, to, buf, sizeof buf);
    if (phrase != NULL) steer_laux_error(L, steer_laux_field(2, "to"), phrase, 3);
    float spacing = 0.0f;
    if (lua_getfield(L, 2, "spacing") != LUA_TNIL) // 4
        spacing = (float)steer_laux_number(L, steer_laux_field(2, "spacing"), 4, LAUX_POSITIVE);
    if (lua_getfield(L, 2, "agents") != LUA_TTABLE) // 5
        steer_laux_error(L, steer_laux_field(2, "agents"), "must be a list of agents", 5);
    const int n = (int)lua_rawlen(L, 5);
    if (n < 1) steer_laux_error_plain(L, steer_laux_field(2, "agents"), "must list at least one agent");
    steer_agent_id *ids = lua_newuserdatauv(L, sizeof *ids * (size_t)n, 0); // 6
    steer_vec2 *stops = lua_newuserdatauv(L, sizeof *stops * (size_t)n, 0); // 7
    lua_getiuservalue(L, 1, 1); // 8: core
    lua_pushnil(L);             // 9: the default unit behaviour, made when needed
    float radius = 0.0f;
    for (int i = 0; i < n; ++i) {
        char name[24];
        snprintf(name, sizeof name, "agents[%d]", i + 1);
        lua_rawgeti(L, 5, i + 1);
        lagent *a = steer_lua__test_agent(L, -1);
        if (a == NULL || a->core != core) steer_laux_error(L, steer_laux_field(2, name), "must be an agent of this world", -1);
        steer_lua__check_alive(L, a);
        for (int k = 0; k < i; ++k)
            if (steer_agent_id_equal(ids[k], a->id)) steer_laux_error_plain(L, steer_laux_field(2, name), "is listed twice");
        ids[i] = a->id;
        radius = fmaxf(radius, steer_agent_get_limits(w, a->id).radius);
        const steer_behaviour *node = steer_behaviour_navigate_node(steer_agent_get_behaviour(w, a->id));
        if (node != NULL && steer_behaviour_get_def(node)->target.kind != STEER_TARGET_NONE)
            steer_laux_error_plain(L, steer_laux_field(2, name),
                                   "navigates to a target of its own (move_group sets the goal of a navigate without one)");
        lua_pop(L, 1);
    }
    steer_nav *nav = steer_lua__nav_of(core);
    if (nav == NULL) return luaL_error(L, "not enough memory");
    if (steer_nav_clearance(nav, to) < radius) {
        lua_pushnil(L);
        snprintf(buf, sizeof buf, "goal (%g, %g) is inside a shape or closer than %g to one", (double)to.x,
                 (double)to.y, (double)radius);
        lua_pushstring(L, buf);
        return 2;
    }
    if (steer_world_move_group(w, ids, n, to, spacing, stops) != n) {
        lua_pushnil(L);
        snprintf(buf, sizeof buf, "no room for %d agents round (%g, %g) with spacing %g", n, (double)to.x,
                 (double)to.y, (double)(spacing > 0.0f ? spacing : 4.4f * radius));
        lua_pushstring(L, buf);
        return 2;
    }
    // units without a navigate in their behaviour get the default one
    for (int i = 0; i < n; ++i) {
        if (steer_behaviour_navigate_node(steer_agent_get_behaviour(w, ids[i])) != NULL) continue;
        if (lua_isnil(L, 9)) {
            lua_pop(L, 1);
            push_default_unit_behaviour(L);
        }
        steer_lua__set_steering(L, 8, ids[i], 9, false);
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; ++i) {
        lua_createtable(L, 2, 0);
        steer_laux_push_float(L, stops[i].x);
        lua_rawseti(L, -2, 1);
        steer_laux_push_float(L, stops[i].y);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static steer_vec2 check_xy(lua_State *L)
{
    steer_vec2 p;
    p.x = steer_laux_check_float(L, 2, LAUX_FINITE);
    p.y = steer_laux_check_float(L, 3, LAUX_FINITE);
    return p;
}

// field:direction(x, y) -> dx, dy: the unit direction towards the goal (0, 0 at it or where unreachable)
static int field_direction(lua_State *L)
{
    lfield *f = check_field(L, 1);
    steer_vec2 d = steer_flow_field_direction(f->field, check_xy(L));
    steer_laux_push_float(L, d.x);
    steer_laux_push_float(L, d.y);
    return 2;
}

// field:distance(x, y) -> metres to the goal along the free space (math.huge where unreachable)
static int field_distance(lua_State *L)
{
    lfield *f = check_field(L, 1);
    float d = steer_flow_field_distance(f->field, check_xy(L));
    lua_pushnumber(L, d == FLT_MAX ? HUGE_VAL : (lua_Number)d);
    return 1;
}

// field:grid() -> columns, rows, cell, x1, y1
static int field_grid(lua_State *L)
{
    lfield *f = check_field(L, 1);
    int columns, rows;
    float cell;
    steer_vec2 lower;
    steer_flow_field_grid(f->field, &columns, &rows, &cell, &lower);
    lua_pushinteger(L, columns);
    lua_pushinteger(L, rows);
    steer_laux_push_float(L, cell);
    steer_laux_push_float(L, lower.x);
    steer_laux_push_float(L, lower.y);
    return 5;
}

// field:goal() -> x, y
static int field_goal(lua_State *L)
{
    lfield *f = check_field(L, 1);
    steer_flow_field_def d = steer_flow_field_get_def(f->field);
    steer_laux_push_float(L, d.goal.x);
    steer_laux_push_float(L, d.goal.y);
    return 2;
}

static int field_gc(lua_State *L)
{
    lfield_proxy *p = luaL_checkudata(L, 1, STEER_LUA_FLOW_FIELD);
    field_release(p->shared);
    p->shared = NULL;
    return 0;
}

static int field_tostring(lua_State *L)
{
    lfield_proxy *p = luaL_checkudata(L, 1, STEER_LUA_FLOW_FIELD);
    if (p->shared == NULL) {
        lua_pushliteral(L, "steer.FlowField (released)");
        return 1;
    }
    int columns, rows;
    steer_flow_field_grid(p->shared->field, &columns, &rows, NULL, NULL);
    lua_pushfstring(L, "steer.FlowField (%d x %d cells)", columns, rows);
    return 1;
}

/* ---- follow_flow_field: a C callback behaviour over a shared field --------------- */

typedef struct lfollow {
    lfield *shared;
    float time_to_target; ///< seconds to reach the desired velocity
    float slow_radius;    ///< metres from the goal where the speed starts to drop
    float target_radius;  ///< metres from the goal where it stops
} lfollow;

static void follow_release(void *context)
{
    lfollow *f = context;
    field_release(f->shared);
    steer_free(f);
}

// The notes' arrive, with the field's direction instead of the straight one:
// the desired velocity points down the field, at max_speed, slowing inside
// slow_radius of the goal's distance.
static steer_callback_result follow_flow_field(steer_world *world, steer_agent_id agent, float dt,
                                               steer_steering *out, void *context)
{
    (void)dt;
    const lfollow *f = context;
    steer_vec2 p = steer_agent_get_position(world, agent);
    steer_vec2 v = steer_agent_get_velocity(world, agent);
    steer_limits limits = steer_agent_get_limits(world, agent);
    float distance = steer_flow_field_distance(f->shared->field, p);
    steer_vec2 dir = steer_flow_field_direction(f->shared->field, p);
    if (distance == FLT_MAX || distance <= f->target_radius || (dir.x == 0.0f && dir.y == 0.0f)) {
        // stop: the notes' arrive inside its target radius
        out->linear = steer_v2(-v.x / f->time_to_target, -v.y / f->time_to_target);
    } else {
        float speed = limits.max_speed;
        if (distance < f->slow_radius) speed *= distance / f->slow_radius;
        out->linear = steer_v2((dir.x * speed - v.x) / f->time_to_target, (dir.y * speed - v.y) / f->time_to_target);
    }
    float len = sqrtf(out->linear.x * out->linear.x + out->linear.y * out->linear.y);
    if (len > limits.max_acceleration && len > 0.0f) {
        out->linear.x *= limits.max_acceleration / len;
        out->linear.y *= limits.max_acceleration / len;
    }
    out->angular = 0.0f;
    return STEER_CALLBACK_STEERING;
}

// steer.follow_flow_field{ field = f, time_to_target = 0.1, slow_radius = 3, target_radius = 0.25 }
int steer_lua__follow_flow_field_new(lua_State *L)
{
    static const char *const names[] = {"field", "time_to_target", "slow_radius", "target_radius", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    check_keys(L, 1, names);
    lua_getfield(L, 1, "field");
    if (!luaL_testudata(L, -1, STEER_LUA_FLOW_FIELD))
        steer_laux_error(L, steer_laux_field(1, "field"), "must be a steer.FlowField", -1);
    lfield *shared = check_field(L, lua_gettop(L));
    lua_pop(L, 1);
    float values[3] = {0.1f, 3.0f, 0.25f};
    for (int i = 0; i < 3; ++i) {
        if (lua_getfield(L, 1, names[i + 1]) != LUA_TNIL)
            values[i] = (float)steer_laux_number(L, steer_laux_field(1, names[i + 1]), -1, LAUX_POSITIVE);
        lua_pop(L, 1);
    }
    lfollow *f = steer_alloc(sizeof *f);
    if (f == NULL) return luaL_error(L, "not enough memory");
    f->shared = shared;
    f->time_to_target = values[0];
    f->slow_radius = values[1];
    f->target_radius = values[2];
    shared->refs++;
    steer_behaviour_def def = steer_default_behaviour_def(STEER_CALLBACK);
    def.callback = follow_flow_field;
    def.context = f;
    def.release = follow_release;
    steer_behaviour *b = steer_behaviour_create(&def);
    if (b == NULL) {
        follow_release(f);
        return luaL_error(L, "not enough memory");
    }
    steer_lua__push_behaviour(L, b);
    steer_behaviour_release(b);
    return 1;
}

static const luaL_Reg field_methods[] = {
    {"direction", field_direction},
    {"distance", field_distance},
    {"goal", field_goal},
    {"grid", field_grid},
    {NULL, NULL},
};

// field.x: methods only (no properties)
static int field_index(lua_State *L)
{
    check_field(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    return luaL_error(L, "steer.FlowField has no property '%s'", luaL_tolstring(L, 2, NULL));
}

static int field_newindex(lua_State *L)
{
    check_field(L, 1);
    return luaL_error(L, "steer.FlowField is read-only (make a new field)");
}

static const luaL_Reg field_meta[] = {
    {"__newindex", field_newindex},
    {"__gc", field_gc},
    {"__close", field_gc},
    {"__tostring", field_tostring},
    {NULL, NULL},
};

// steer.follow_flow_field
static const luaL_Reg nav_functions[] = {
    {"follow_flow_field", steer_lua__follow_flow_field_new},
    {NULL, NULL},
};

// world:find_path, world:flow_field, world:move_group
static const luaL_Reg world_nav_methods[] = {
    {"find_path", steer_lua__world_find_path},
    {"flow_field", steer_lua__world_flow_field},
    {"move_group", steer_lua__world_move_group},
    {NULL, NULL},
};

void steer_lua__open_nav(lua_State *L)
{
    steer_laux_new_class(L, STEER_LUA_FLOW_FIELD, field_meta);
    static const char *const no_properties[] = {NULL};
    luaL_newlib(L, field_methods);
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, no_properties);
    lua_pushcclosure(L, field_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_setfuncs(L, nav_functions, 0);
    // the world's methods join steer.World's (its __index closure's first
    // upvalue), so wrap_world.c needs nothing of this file
    luaL_getmetatable(L, STEER_LUA_WORLD);
    lua_getfield(L, -1, "__index");
    if (lua_getupvalue(L, -1, 1) == NULL) lua_pushnil(L);
    if (lua_istable(L, -1)) luaL_setfuncs(L, world_nav_methods, 0);
    lua_pop(L, 3);
}
