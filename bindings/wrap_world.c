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

static void build_world_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_WORLD, false, NULL, NULL); }
static const char world_options_key = 0;

// steer.world{seed=, integrator=, cell_size=, capacity=, resolve_contacts=,
//             resolve_agent_contacts=, workers=} -> world
int steer_lua__world_new(lua_State *L)
{
    steer_world_def def = steer_default_world_def();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_settop(L, 1);
        steer_lua__push_memo(L, &world_options_key, build_world_options);
        steer_lua_reader r = {.arg = 1, .def = &def};
        steer_lua__read_options(L, 1, 2, &r);
    }
    lua_settop(L, 0);
    lworld *lw = steer_lua__new_world(L);
    lw->core->world = steer_world_create(&def);
    if (lw->core->world == NULL) return luaL_error(L, "not enough memory or threads for the world");
    lw->core->owned = true;
    return 1;
}

/* ---- spawn -------------------------------------------------------------------------- */

// What spawn takes besides the agent definition's fields: kept in the
// slots 3, 4, 5, 6 of world_spawn's stack (color as its number).
static const char *const spawn_extras[] = {"steering", "role", "tag", "color", NULL};
enum { SPAWN_STEERING, SPAWN_ROLE, SPAWN_TAG, SPAWN_COLOR, SPAWN_EXTRAS };

static void build_spawn_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_AGENT, false, NULL, spawn_extras); }
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
    // the colour before the spawn hook: a host's role colour fills only an unset one
    if (!lua_isnil(L, EXTRAS + SPAWN_COLOR) &&
        !steer_agent_set_color(core->world, id, (steer_color)lua_tointeger(L, EXTRAS + SPAWN_COLOR)))
        return luaL_error(L, "not enough memory");
    // a role without steering: the spawn hook (if any) gives the role's behaviour
    if (lua_isnil(L, EXTRAS + SPAWN_STEERING) && !lua_isnil(L, EXTRAS + SPAWN_ROLE)) {
        steer_lua__push_spawn_steering(L, PROXY, EXTRAS + SPAWN_ROLE);
        if (!lua_isnil(L, -1)) {
            if (steer_lua__test_behaviour(L, -1) == NULL)
                return luaL_error(L, "the behaviour of role '%s' is not a behaviour", lua_tostring(L, EXTRAS + SPAWN_ROLE));
            steer_lua__set_steering(L, CORE, id, -1, false);
        }
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

/* ---- lookups: by key, role and tag ------------------------------------------------- */

/// What world:find and world:agents{...} match (unset fields match all).
typedef struct agent_filter {
    bool by_key;
    uint64_t key;
    int role, tag; ///< stack indices of the strings, 0: any
} agent_filter;

// Read {key =, role =, tag =} at arg into f (the strings stay at arg's fields).
static void read_filter(lua_State *L, int arg, agent_filter *f)
{
    memset(f, 0, sizeof *f);
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (k == NULL || (strcmp(k, "key") != 0 && strcmp(k, "role") != 0 && strcmp(k, "tag") != 0))
            steer_laux_unknown_field(L, arg, -2);
        lua_pop(L, 1);
    }
    if (lua_getfield(L, arg, "key") != LUA_TNIL) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
            steer_laux_error(L, steer_laux_field(arg, "key"), "must be a positive integer", -1);
        f->by_key = true;
        f->key = (uint64_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    static const char *const names[] = {"role", "tag"};
    for (int i = 0; i < 2; ++i) {
        if (lua_getfield(L, arg, names[i]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (lua_type(L, -1) != LUA_TSTRING) steer_laux_error(L, steer_laux_field(arg, names[i]), "must be a string", -1);
        *(i == 0 ? &f->role : &f->tag) = lua_gettop(L); // kept on the stack
    }
}

// Does the agent match? roles and tags: the core's tables at roles, tags.
static bool filter_match(lua_State *L, const agent_filter *f, lcore *core, steer_agent_id id, int roles, int tags)
{
    if (f->by_key && steer_agent_get_key(core->world, id) != f->key) return false;
    lua_Integer stored = steer_lua__stored_id(id);
    const int idx[2] = {f->role, f->tag}, tables[2] = {roles, tags};
    for (int i = 0; i < 2; ++i) {
        if (idx[i] == 0) continue;
        lua_rawgeti(L, tables[i], stored);
        bool same = lua_rawequal(L, -1, idx[i]);
        lua_pop(L, 1);
        if (!same) return false;
    }
    return true;
}

// world:find{ key =, role =, tag = } -> the matching agent with the lowest
// key (then the lowest storage slot), or nil. O(agents).
static int world_find(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_settop(L, 2);
    agent_filter f;
    read_filter(L, 2, &f);
    lua_getiuservalue(L, 1, 1);
    int core_idx = lua_gettop(L);
    lua_getiuservalue(L, core_idx, CORE_UV_ROLE);
    lua_getiuservalue(L, core_idx, CORE_UV_TAG);
    int roles = core_idx + 1, tags = core_idx + 2;
    steer_agent_id best = steer_null_agent;
    uint64_t best_key = 0, best_slot = 0;
    for (int i = 0, n = steer_world_agent_count(core->world); i < n; ++i) {
        steer_agent_id id = steer_world_agent_at(core->world, i);
        if (!filter_match(L, &f, core, id, roles, tags)) continue;
        uint64_t key = steer_agent_get_key(core->world, id), slot = steer_agent_id_store(id) >> 32;
        if (steer_agent_id_is_null(best) || key < best_key || (key == best_key && slot < best_slot)) {
            best = id;
            best_key = key;
            best_slot = slot;
        }
    }
    if (steer_agent_id_is_null(best)) lua_pushnil(L);
    else steer_lua__push_agent(L, core_idx, best);
    return 1;
}

// The agents() iterator: upvalues world, core, the next dense index, and
// the filter's role, tag and key (nil: any).
// Descending, so removing the current agent (swap-remove) skips nothing.
static int agents_next(lua_State *L)
{
    lcore *core = lua_touserdata(L, lua_upvalueindex(2));
    if (core->world == NULL) return luaL_error(L, "attempt to use a closed world");
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    int count = steer_world_agent_count(core->world);
    if (i >= count) i = count - 1;
    agent_filter f = {.role = lua_isnil(L, lua_upvalueindex(4)) ? 0 : lua_upvalueindex(4),
                      .tag = lua_isnil(L, lua_upvalueindex(5)) ? 0 : lua_upvalueindex(5),
                      .by_key = !lua_isnil(L, lua_upvalueindex(6)),
                      .key = (uint64_t)lua_tointeger(L, lua_upvalueindex(6))};
    bool filtered = f.role != 0 || f.tag != 0 || f.by_key;
    if (filtered) {
        lua_getiuservalue(L, lua_upvalueindex(2), CORE_UV_ROLE);
        lua_getiuservalue(L, lua_upvalueindex(2), CORE_UV_TAG);
    }
    int top = lua_gettop(L);
    for (; i >= 0; --i) {
        steer_agent_id id = steer_world_agent_at(core->world, (int)i);
        if (filtered && !filter_match(L, &f, core, id, top - 1, top)) continue;
        lua_pushinteger(L, i - 1);
        lua_replace(L, lua_upvalueindex(3));
        steer_lua__push_agent(L, lua_upvalueindex(2), id);
        return 1;
    }
    lua_pushinteger(L, -1);
    lua_replace(L, lua_upvalueindex(3));
    return 0;
}

// world:agents([{ role =, tag =, key = }]) -> iterator over the live agents
// (that match): for agent in world:agents{ role = "guard" } do
static int world_agents(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    agent_filter f = {0};
    if (!lua_isnoneornil(L, 2)) {
        lua_settop(L, 2);
        read_filter(L, 2, &f);
    }
    int role = f.role, tag = f.tag;
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_pushinteger(L, steer_world_agent_count(core->world) - 1);
    if (role != 0) lua_getfield(L, 2, "role"); else lua_pushnil(L);
    if (tag != 0) lua_getfield(L, 2, "tag"); else lua_pushnil(L);
    if (f.by_key) lua_pushinteger(L, (lua_Integer)f.key); else lua_pushnil(L);
    lua_pushcclosure(L, agents_next, 6);
    return 1;
}

static int compare_ids(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// world:formations() -> list of the live formations made through Lua, in
// the order of their ids (a reload finds its squads here)
static int world_formations(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, 2, CORE_UV_FORMATIONS); // 3
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) {
        lua_pop(L, 1);
        ++n;
    }
    // ids in order (a table's traversal order is not deterministic)
    uint64_t *ids = lua_newuserdatauv(L, (n > 0 ? n : 1) * sizeof *ids, 0); // 4
    size_t live = 0;
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) {
        lformation *lf = luaL_testudata(L, -1, STEER_LUA_FORMATION);
        lua_pop(L, 1);
        if (lf != NULL && live < n && steer_formation_is_valid(core->world, lf->id))
            ids[live++] = (uint64_t)lua_tointeger(L, -1);
    }
    qsort(ids, live, sizeof *ids, compare_ids);
    lua_createtable(L, (int)live, 0); // 5
    for (size_t i = 0; i < live; ++i) {
        lua_rawgeti(L, 3, (lua_Integer)ids[i]);
        lua_rawseti(L, 5, (lua_Integer)i + 1);
    }
    return 1;
}

// world:query(x, y, radius) -> list of the agents within radius (distance < radius)
static int world_query(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    float x = steer_laux_check_float(L, 2, LAUX_FINITE);
    float y = steer_laux_check_float(L, 3, LAUX_FINITE);
    float r = steer_laux_check_float(L, 4, LAUX_NONNEGATIVE);
    lua_settop(L, 4);
    lua_getiuservalue(L, 1, 1); // 5
    steer_agent_id local[64];
    steer_agent_id *ids = local;
    int n = steer_world_query(core->world, steer_v2(x, y), r, ids, 64);
    if (n > 64) {
        ids = lua_newuserdatauv(L, sizeof *ids * (size_t)n, 0);
        n = steer_world_query(core->world, steer_v2(x, y), r, ids, n);
    }
    lua_createtable(L, n, 0);
    int t = lua_gettop(L);
    for (int i = 0; i < n; ++i) {
        steer_lua__push_agent(L, 5, ids[i]);
        lua_rawseti(L, t, i + 1);
    }
    return 1;
}

// world:hash([format]) -> integer digest of every agent's state (order-independent);
// format "hex": the 64 bits as 16 hexadecimal digits, exact under every Lua
// (before 5.3 a number is a double)
static int world_hash(lua_State *L)
{
    static const char *const formats[] = {"integer", "hex", NULL};
    lcore *core = steer_lua__check_world(L, 1);
    uint64_t h = steer_world_hash(core->world);
    if (luaL_checkoption(L, 2, "integer", formats) == 1) {
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

// The new shape, copied for navigation too (nav_sync.c).
static int push_new_shape_nav(lua_State *L, steer_shape_id id, int kind, const steer_vec2 *p, int n, float r,
                              bool loop)
{
    if (steer_shape_id_is_null(id)) return luaL_error(L, "could not add the shape (not enough memory?)");
    lcore *core = steer_lua__check_world(L, 1);
    if (!steer_lua__nav_shape_added(core, id, kind, p, n, r, loop)) {
        steer_shape_destroy(core->world, id);
        return luaL_error(L, "not enough memory");
    }
    lua_getiuservalue(L, 1, 1);
    steer_lua__push_handle(L, lua_gettop(L), LKIND_SHAPE, steer_shape_id_store(id));
    return 1;
}

// world:add_wall(x1, y1, x2, y2) -> shape: a wall segment between two distinct points
static int world_add_wall(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    steer_vec2 a = {check_coord(L, 2), check_coord(L, 3)};
    steer_vec2 b = {check_coord(L, 4), check_coord(L, 5)};
    if (a.x == b.x && a.y == b.y) return luaL_error(L, "bad arguments to 'add_wall' (the two points are the same)");
    steer_vec2 ends[2] = {a, b};
    return push_new_shape_nav(L, steer_world_add_segment(core->world, a, b), LNAV_SEGMENT, ends, 2, 0.0f, false);
}

// world:add_circle(x, y, radius) -> shape: a solid circle
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
    return push_new_shape_nav(L, steer_world_add_circle(core->world, c, r), LNAV_CIRCLE, &c, 1, r, false);
}

// world:add_box(x1, y1, x2, y2) -> shape: a solid axis-aligned box (corners in any order)
static int world_add_box(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    float x1 = check_coord(L, 2), y1 = check_coord(L, 3);
    float x2 = check_coord(L, 4), y2 = check_coord(L, 5);
    if (x1 == x2 || y1 == y2) return luaL_error(L, "bad arguments to 'add_box' (the box is empty)");
    steer_vec2 lo = {steer_minf(x1, x2), steer_minf(y1, y2)}, hi = {steer_maxf(x1, x2), steer_maxf(y1, y2)};
    steer_vec2 corners[2] = {lo, hi};
    return push_new_shape_nav(L, steer_world_add_box(core->world, lo, hi), LNAV_BOX, corners, 2, 0.0f, false);
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

// world:add_polygon{ {x, y}, ... } -> shape: a solid convex polygon (3 to 16 points)
static int world_add_polygon(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    int n;
    check_list_keys(L, 2, false, NULL);
    steer_vec2 *p = check_points(L, 2, 3, STEER_MAX_POLYGON_VERTICES, &n);
    if (!steer_polygon_is_valid(p, n)) return luaL_argerror(L, 2, "the polygon must be convex, with no three points in line");
    return push_new_shape_nav(L, steer_world_add_polygon(core->world, p, n), LNAV_POLYGON, p, n, 0.0f, false);
}

// world:add_polyline{ {x, y}, ..., loop = false } -> shape: a chain of walls
static int world_add_polyline(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_lua__check_mutable(L, core);
    bool loop = false;
    check_list_keys(L, 2, true, &loop);
    int n;
    steer_vec2 *p = check_points(L, 2, 2, 1 << 22, &n);
    for (int i = 0; i + 1 < n; ++i) {
        if (p[i].x == p[i + 1].x && p[i].y == p[i + 1].y) return luaL_argerror(L, 2, "consecutive points must differ");
    }
    if (loop && steer_polyline_link_count(p, n, loop) < 3) return luaL_argerror(L, 2, "a loop needs at least 3 distinct points");
    return push_new_shape_nav(L, steer_world_add_polyline(core->world, p, n, loop), LNAV_POLYLINE, p, n, 0.0f, loop);
}

// A ray filter's options.
static const char *const filter_extras[] = {"mask", "agents", "ignore", NULL};
enum { FILTER_MASK, FILTER_AGENTS, FILTER_IGNORE };
static void build_filter_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, filter_extras); }
static const char filter_options_key = 0;

static bool filter_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    steer_ray_filter *filter = context;
    if (code == FILTER_MASK) {
        if (!lua_isinteger(L, vidx)) steer_laux_error(L, w, "must be an integer", vidx);
        filter->mask = (uint32_t)lua_tointeger(L, vidx);
    } else if (code == FILTER_AGENTS) {
        filter->include_agents = steer_laux_boolean(L, w, vidx);
    } else {
        lagent *a = steer_lua__test_agent(L, vidx);
        if (a == NULL) steer_laux_error(L, w, "must be an agent", vidx);
        filter->ignore = a->id;
    }
    return true;
}

// world:raycast(x, y, dx, dy, max_distance [, filter]) -> x, y, nx, ny, distance, hit
// or nil. filter: {mask = bits, agents = bool, ignore = agent}. hit is the
// shape or agent hit.
static int world_raycast(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    steer_vec2 o = {steer_laux_check_float(L, 2, LAUX_FINITE), steer_laux_check_float(L, 3, LAUX_FINITE)};
    steer_vec2 d = {steer_laux_check_float(L, 4, LAUX_FINITE), steer_laux_check_float(L, 5, LAUX_FINITE)};
    float max_distance = steer_laux_check_float(L, 6, LAUX_NONNEGATIVE);
    steer_ray_filter filter = steer_default_ray_filter();
    if (!lua_isnoneornil(L, 7)) {
        luaL_checktype(L, 7, LUA_TTABLE);
        lua_settop(L, 7);
        steer_lua__push_memo(L, &filter_options_key, build_filter_options);
        steer_lua_reader r = {.arg = 7, .extra = filter_extra, .context = &filter};
        steer_lua__read_options(L, 7, 8, &r);
    }
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
static const char *const world_extras[] = {"steps", "workers", "data", NULL};
enum { WORLD_STEPS, WORLD_WORKERS, WORLD_DATA };

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
    {"agents", world_agents},
    {"close", world_close},
    {"count", world_count},
    {"draw", steer_lua__world_draw},
    {"find", world_find},
    {"formations", world_formations},
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
    steer_lua__push_def_names(L, STEER_DEF_WORLD, true, NULL, world_extras);
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
