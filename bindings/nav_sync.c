// nav_sync.c: a world's shapes mirrored into its steer_nav (nav_sync.h).
#include "nav_sync.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct lnav_entry {
    uint32_t generation; ///< of the world's shape; 0: none
    int count;           ///< navigation shapes (a polyline has one per link)
    steer_nav_shape one;
    steer_nav_shape *many;
    // the shape as given (steer_lua__nav_shape_added's arguments), which a
    // snapshot saves: a restored world's navigation is made again from it
    int kind, points;
    float radius;
    bool loop;
    steer_vec2 *at;
} lnav_entry;

struct lnav {
    steer_nav *nav;      ///< made on first use
    lnav_entry *entries; ///< by the world's shape slot index
    int capacity;
    uint64_t version;    ///< bumped by every shape added or removed (the planner's version)
    bool has_bounds;
    steer_vec2 lower, upper;
    const steer_flow_field *shown; ///< the field world:draw shows
    void *shown_owner;
    void (*shown_release)(void *);
};

static struct lnav *lnav_of(lcore *core)
{
    if (core->nav == NULL) {
        struct lnav *n = steer_alloc(sizeof *n);
        if (n == NULL) return NULL;
        memset(n, 0, sizeof *n);
        core->nav = n;
    }
    return core->nav;
}

steer_nav *steer_lua__nav_of(lcore *core)
{
    struct lnav *n = lnav_of(core);
    if (n == NULL) return NULL;
    if (n->nav == NULL) {
        steer_nav_def def = steer_default_nav_def();
        def.has_bounds = n->has_bounds;
        def.lower = n->lower;
        def.upper = n->upper;
        n->nav = steer_nav_create(&def);
    }
    return n->nav;
}

bool steer_lua__nav_set_bounds(lcore *core, steer_vec2 lower, steer_vec2 upper)
{
    struct lnav *n = lnav_of(core);
    if (n == NULL) return false;
    n->has_bounds = true;
    n->lower = lower;
    n->upper = upper;
    return true;
}

bool steer_lua__nav_bounds(const lcore *core, steer_vec2 *lower, steer_vec2 *upper)
{
    if (core->nav == NULL || !core->nav->has_bounds) return false;
    *lower = core->nav->lower;
    *upper = core->nav->upper;
    return true;
}

void steer_lua__nav_check_bounds(lua_State *L, steer_laux_where w, int vidx, steer_vec2 *lower, steer_vec2 *upper)
{
    static const char phrase[] = "must be {x1, y1, x2, y2} with x1 < x2 and y1 < y2, within [-1e6, 1e6]";
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TTABLE || lua_rawlen(L, vidx) != 4) steer_laux_error(L, w, phrase, vidx);
    // four values and nothing else: {x1, y1, x2, y2, margin = 1} was read
    // as the four, the rest silently dropped
    int entries = 0;
    lua_pushnil(L);
    while (lua_next(L, vidx) != 0) {
        lua_pop(L, 1);
        ++entries;
    }
    if (entries != 4) steer_laux_error(L, w, phrase, vidx);
    float b[4];
    for (int i = 0; i < 4; ++i) {
        lua_rawgeti(L, vidx, i + 1);
        lua_Number v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || !(fabs(v) <= STEER_NAV_MAX_COORDINATE))
            steer_laux_error(L, w, phrase, vidx);
        b[i] = (float)v;
        lua_pop(L, 1);
    }
    if (!(b[0] < b[2] && b[1] < b[3])) steer_laux_error(L, w, phrase, vidx);
    *lower = steer_v2(b[0], b[1]);
    *upper = steer_v2(b[2], b[3]);
}

void steer_lua__nav_push_bounds(lua_State *L, const lcore *core)
{
    steer_vec2 lo, hi;
    if (!steer_lua__nav_bounds(core, &lo, &hi)) {
        lua_pushnil(L);
        return;
    }
    const float b[4] = {lo.x, lo.y, hi.x, hi.y};
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; ++i) {
        steer_laux_push_float(L, b[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

const char *steer_lua__nav_check_point(const lcore *core, steer_vec2 p, char *buf, size_t size)
{
    if (!(fabsf(p.x) <= STEER_NAV_MAX_COORDINATE && fabsf(p.y) <= STEER_NAV_MAX_COORDINATE))
        return "must be within [-1e6, 1e6]";
    steer_vec2 lo, hi;
    if (steer_lua__nav_bounds(core, &lo, &hi) && !(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y)) {
        snprintf(buf, size, "must lie within nav_bounds {%g, %g, %g, %g}", (double)lo.x, (double)lo.y, (double)hi.x,
                 (double)hi.y);
        return buf;
    }
    return NULL;
}

void steer_lua__nav_show_field(lcore *core, const steer_flow_field *field, void *owner, void (*release)(void *))
{
    struct lnav *n = lnav_of(core);
    if (n == NULL) {
        release(owner);
        return;
    }
    if (n->shown_release != NULL) n->shown_release(n->shown_owner);
    n->shown = field;
    n->shown_owner = owner;
    n->shown_release = release;
}

/* ---- the world's planner ------------------------------------------------------------- */

// A point near p keeping the radius from every shape (an agent pushed
// against a wall by a crowd starts its route from there), within a step of
// the shortfall plus 0.3 m; false when none.
static bool step_out(const steer_nav *nav, steer_vec2 p, float radius, uint32_t mask, steer_vec2 *out)
{
    const float short_by = radius - steer_nav_clearance_masked(nav, p, mask);
    for (int ring = 1; ring <= 4; ++ring) {
        const float d = short_by * (float)ring * 0.5f + 0.05f + 0.25f * (float)(ring - 1) / 3.0f;
        for (int k = 0; k < 16; ++k) {
            const float a = (float)k * 0.39269908f; // 2 pi / 16
            steer_vec2 q = steer_v2(p.x + d * cosf(a), p.y + d * sinf(a));
            if (steer_nav_clearance_masked(nav, q, mask) >= radius + 0.01f) {
                *out = q;
                return true;
            }
        }
    }
    return false;
}

static int plan_find_path_masked(void *context, steer_vec2 from, steer_vec2 to, float radius, uint32_t mask,
                                 steer_vec2 *points, int capacity, float *length, char *message, int message_size)
{
    lcore *core = context;
    steer_nav *nav = steer_lua__nav_of(core);
    if (nav == NULL) {
        snprintf(message, (size_t)message_size, "not enough memory to plan");
        return 0;
    }
    steer_nav_result res;
    steer_nav_find_path_masked(nav, from, to, radius, mask, points, capacity, &res);
    steer_vec2 start;
    if (res.status == STEER_NAV_BLOCKED && steer_nav_clearance_masked(nav, from, mask) < radius &&
        step_out(nav, from, radius, mask, &start)) {
        // planned from the nearest free point, the agent's own position first
        steer_nav_find_path_masked(nav, start, to, radius, mask, capacity > 0 ? points + 1 : NULL,
                                   capacity > 0 ? capacity - 1 : 0, &res);
        if (res.status == STEER_NAV_OK) {
            if (capacity > 0) points[0] = from;
            ++res.count;
            res.length += steer_length(steer_sub(start, from));
        }
    }
    *length = res.length;
    if (res.status != STEER_NAV_OK) {
        snprintf(message, (size_t)message_size, "%s", res.message);
        return 0;
    }
    return res.count;
}

static int plan_find_path(void *context, steer_vec2 from, steer_vec2 to, float radius, steer_vec2 *points,
                          int capacity, float *length, char *message, int message_size)
{
    return plan_find_path_masked(context, from, to, radius, STEER_ALL_LAYERS, points, capacity, length, message,
                                 message_size);
}

static uint64_t plan_version(void *context)
{
    lcore *core = context;
    return core->nav != NULL ? core->nav->version : 0;
}

typedef struct mesh_draw {
    const steer_debug_draw *draw;
} mesh_draw;

static void mesh_polygon(const steer_vec2 *points, int count, void *context)
{
    const steer_debug_draw *d = ((mesh_draw *)context)->draw;
    if (d->draw_polygon != NULL) d->draw_polygon(points, count, 0x3c6e8cffu, d->context);
}

// The shown field's arrows: at most 48 x 48 of them over its grid.
static void draw_field(const steer_flow_field *f, const steer_debug_draw *d)
{
    int columns, rows;
    float cell;
    steer_vec2 lower;
    steer_flow_field_grid(f, &columns, &rows, &cell, &lower);
    const int stride_x = columns > 48 ? (columns + 47) / 48 : 1, stride_y = rows > 48 ? (rows + 47) / 48 : 1;
    const float span = cell * (float)(stride_x < stride_y ? stride_x : stride_y);
    for (int j = stride_y / 2; j < rows; j += stride_y) {
        for (int i = stride_x / 2; i < columns; i += stride_x) {
            steer_vec2 p = steer_v2(lower.x + ((float)i + 0.5f) * cell, lower.y + ((float)j + 0.5f) * cell);
            steer_vec2 dir = steer_flow_field_direction(f, p);
            if (dir.x == 0.0f && dir.y == 0.0f) continue;
            steer_vec2 v = steer_scale(dir, 0.6f * span);
            if (d->draw_arrow != NULL) d->draw_arrow(p, v, 0xe0a040ffu, d->context);
            else if (d->draw_segment != NULL) d->draw_segment(p, steer_add(p, v), 0xe0a040ffu, d->context);
        }
    }
}

static void plan_draw(void *context, const steer_debug_draw *d, float radius)
{
    lcore *core = context;
    struct lnav *n = core->nav;
    if (n == NULL) return;
    if ((d->flags & STEER_DRAW_NAV_MESH) && n->nav != NULL) {
        mesh_draw m = {d};
        steer_nav_draw_mesh(n->nav, radius, mesh_polygon, &m);
    }
    if ((d->flags & STEER_DRAW_FLOW) && n->shown != NULL) draw_field(n->shown, d);
}

void steer_lua__nav_attach(lcore *core)
{
    steer_planner p = {plan_find_path, plan_version, plan_draw, core, plan_find_path_masked};
    steer_world_set_planner(core->world, &p);
}

static lnav_entry *entry_for(struct lnav *n, uint32_t index)
{
    if ((int64_t)index >= n->capacity) {
        int capacity = n->capacity ? n->capacity : 64;
        while (capacity <= (int64_t)index) capacity *= 2;
        lnav_entry *grown = steer_alloc((size_t)capacity * sizeof *grown);
        if (grown == NULL) return NULL;
        memset(grown, 0, (size_t)capacity * sizeof *grown);
        if (n->entries) memcpy(grown, n->entries, (size_t)n->capacity * sizeof *grown);
        steer_free(n->entries);
        n->entries = grown;
        n->capacity = capacity;
    }
    return &n->entries[index];
}

bool steer_lua__nav_shape_added(lcore *core, steer_shape_id id, int kind, const steer_vec2 *p, int count,
                                float radius, bool loop)
{
    if (steer_lua__nav_of(core) == NULL) return false;
    struct lnav *n = core->nav;
    ++n->version;
    lnav_entry *e = entry_for(n, id.index);
    if (e == NULL) return false;
    memset(e, 0, sizeof *e);
    e->at = steer_alloc((size_t)count * sizeof *e->at);
    if (e->at == NULL) return false;
    memcpy(e->at, p, (size_t)count * sizeof *e->at);
    e->kind = kind, e->points = count, e->radius = radius, e->loop = loop;
    steer_nav_shape s = {0, 0};
    switch (kind) {
    case LNAV_SEGMENT: s = steer_nav_add_segment(n->nav, p[0], p[1]); break;
    case LNAV_CIRCLE: s = steer_nav_add_circle(n->nav, p[0], radius); break;
    case LNAV_BOX: s = steer_nav_add_box(n->nav, p[0], p[1]); break;
    case LNAV_POLYGON: s = steer_nav_add_polygon(n->nav, p, count); break;
    default: break;
    }
    // the shape's layer as the world has it (set before: a constructor's options, a snapshot)
    const uint32_t layer = steer_shape_get_category(core->world, id);
    if (kind != LNAV_POLYLINE) {
        if (s.index != 0 && layer != 1u) steer_nav_set_layer(n->nav, s, layer);
        if (s.index == 0) {
            steer_free(e->at);
            e->at = NULL;
            return false;
        }
        e->generation = id.generation;
        e->count = 1;
        e->one = s;
        return true;
    }
    int links = loop ? count : count - 1;
    e->many = steer_alloc((size_t)links * sizeof *e->many);
    if (e->many == NULL) return false;
    for (int i = 0; i < links; ++i) {
        steer_vec2 a = p[i], b = p[(i + 1) % count];
        if (a.x == b.x && a.y == b.y) continue; // a loop already closed by its points
        steer_nav_shape link = steer_nav_add_segment(n->nav, a, b);
        if (link.index == 0) {
            for (int k = 0; k < e->count; ++k) steer_nav_remove(n->nav, e->many[k]);
            steer_free(e->many);
            steer_free(e->at);
            e->many = NULL;
            e->at = NULL;
            e->count = 0;
            return false;
        }
        if (layer != 1u) steer_nav_set_layer(n->nav, link, layer);
        e->many[e->count++] = link;
    }
    e->generation = id.generation;
    return true;
}

void steer_lua__nav_shape_removed(lcore *core, steer_shape_id id)
{
    struct lnav *n = core->nav;
    if (n == NULL || (int64_t)id.index >= n->capacity) return;
    lnav_entry *e = &n->entries[id.index];
    if (e->generation != id.generation || e->count == 0) return;
    ++n->version;
    if (e->many) {
        for (int k = 0; k < e->count; ++k) steer_nav_remove(n->nav, e->many[k]);
        steer_free(e->many);
    } else {
        steer_nav_remove(n->nav, e->one);
    }
    steer_free(e->at);
    memset(e, 0, sizeof *e);
}

void steer_lua__nav_shape_layer(lcore *core, steer_shape_id id, uint32_t layer)
{
    struct lnav *n = core->nav;
    if (n == NULL || (int64_t)id.index >= n->capacity) return;
    lnav_entry *e = &n->entries[id.index];
    if (e->generation != id.generation || e->count == 0) return;
    if (steer_nav_get_layer(n->nav, e->many ? e->many[0] : e->one) == layer) return;
    ++n->version; // plans made round the shape, or through it, may be wrong now
    if (e->many) {
        for (int k = 0; k < e->count; ++k) steer_nav_set_layer(n->nav, e->many[k], layer);
    } else {
        steer_nav_set_layer(n->nav, e->one, layer);
    }
}

void steer_lua__nav_free(lcore *core)
{
    struct lnav *n = core->nav;
    if (n == NULL) return;
    if (n->shown_release != NULL) n->shown_release(n->shown_owner);
    for (int i = 0; i < n->capacity; ++i) steer_free(n->entries[i].many), steer_free(n->entries[i].at);
    steer_free(n->entries);
    steer_nav_destroy(n->nav);
    steer_free(n);
    core->nav = NULL;
}

/* ---- snapshots ------------------------------------------------------------------------- */

void steer_lua__nav_push_state(lua_State *L, const lcore *core)
{
    const struct lnav *n = core->nav;
    if (n == NULL) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)n->version);
    lua_setfield(L, -2, "version");
    steer_lua__nav_push_bounds(L, core);
    lua_setfield(L, -2, "bounds");
    lua_newtable(L);
    for (int i = 0; i < n->capacity; ++i) {
        const lnav_entry *e = &n->entries[i];
        if (e->generation == 0) continue;
        // {generation, kind, radius, loop, x1, y1, x2, y2, ...}
        lua_createtable(L, 4 + 2 * e->points, 0);
        const lua_Number head[] = {(lua_Number)e->generation, (lua_Number)e->kind, (lua_Number)e->radius,
                                   e->loop ? 1.0 : 0.0};
        for (int k = 0; k < 4; ++k) {
            lua_pushnumber(L, head[k]);
            lua_rawseti(L, -2, k + 1);
        }
        for (int k = 0; k < e->points; ++k) {
            lua_pushnumber(L, (lua_Number)e->at[k].x);
            lua_rawseti(L, -2, 5 + 2 * k);
            lua_pushnumber(L, (lua_Number)e->at[k].y);
            lua_rawseti(L, -2, 6 + 2 * k);
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "shapes");
}

static int nav_damaged(lua_State *L)
{
    return luaL_error(L, "steer.world_from_snapshot: the script's state in the snapshot is damaged (its navigation)");
}

// Field k of the table at idx as a number: finite, within [lo, hi].
static double nav_number(lua_State *L, int idx, int k, double lo, double hi)
{
    lua_rawgeti(L, idx, k);
    double v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= lo && v <= hi)) nav_damaged(L);
    lua_pop(L, 1);
    return v;
}

// One saved shape (the table on top) for the world's shape slot `index`.
static void nav_load_shape(lua_State *L, lcore *core, uint32_t index)
{
    const int t = lua_gettop(L);
    if (!lua_istable(L, t)) nav_damaged(L);
    const double c = STEER_NAV_MAX_COORDINATE;
    steer_shape_id id = {index, (uint32_t)nav_number(L, t, 1, 1, 4294967295.0)};
    int kind = (int)nav_number(L, t, 2, LNAV_SEGMENT, LNAV_POLYLINE);
    float radius = (float)nav_number(L, t, 3, 0, c);
    bool loop = nav_number(L, t, 4, 0, 1) != 0.0;
    int len = (int)lua_rawlen(L, t), count = (len - 4) / 2;
    const int need[] = {2, 1, 2, 3, 2}; // points: segment, circle, box; at least, polygon and polyline
    if (len < 4 || len % 2 != 0 || count < need[kind] || ((kind <= LNAV_BOX) && count != need[kind]) ||
        !steer_shape_is_valid(core->world, id))
        nav_damaged(L);
    steer_vec2 *p = lua_newuserdatauv(L, (size_t)count * sizeof *p, 0);
    for (int k = 0; k < count; ++k) {
        p[k].x = (float)nav_number(L, t, 5 + 2 * k, -c, c);
        p[k].y = (float)nav_number(L, t, 6 + 2 * k, -c, c);
    }
    if (!steer_lua__nav_shape_added(core, id, kind, p, count, radius, loop)) luaL_error(L, "not enough memory");
    lua_settop(L, t);
}

void steer_lua__nav_load_state(lua_State *L, lcore *core, int idx)
{
    idx = lua_absindex(L, idx);
    if (lua_isnil(L, idx)) return;
    if (!lua_istable(L, idx)) nav_damaged(L);
    steer_lua__nav_free(core);
    lua_getfield(L, idx, "bounds");
    if (!lua_isnil(L, -1)) {
        steer_vec2 lo, hi;
        if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 4) nav_damaged(L);
        const double c = STEER_NAV_MAX_COORDINATE;
        lo.x = (float)nav_number(L, -1, 1, -c, c), lo.y = (float)nav_number(L, -1, 2, -c, c);
        hi.x = (float)nav_number(L, -1, 3, -c, c), hi.y = (float)nav_number(L, -1, 4, -c, c);
        if (!(lo.x < hi.x && lo.y < hi.y)) nav_damaged(L);
        if (!steer_lua__nav_set_bounds(core, lo, hi)) luaL_error(L, "not enough memory");
    }
    lua_pop(L, 1);
    // the shapes in slot order (the order is the world's, whatever the table's)
    lua_getfield(L, idx, "shapes");
    const int shapes = lua_gettop(L);
    if (!lua_istable(L, shapes)) nav_damaged(L);
    lua_Integer top = 0;
    lua_pushnil(L);
    while (lua_next(L, shapes) != 0) {
        if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > STEER_MAX_AGENT_CAPACITY)
            nav_damaged(L);
        if (lua_tointeger(L, -2) > top) top = lua_tointeger(L, -2);
        lua_pop(L, 1);
    }
    if (steer_lua__nav_of(core) == NULL) luaL_error(L, "not enough memory");
    for (lua_Integer i = 1; i <= top; ++i) {
        lua_rawgeti(L, shapes, i);
        if (lua_isnil(L, -1)) lua_pop(L, 1);
        else nav_load_shape(L, core, (uint32_t)(i - 1)), lua_pop(L, 1);
    }
    lua_pop(L, 1);
    // the planner's version as saved: the restored plans were made at it
    lua_getfield(L, idx, "version");
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0) nav_damaged(L);
    core->nav->version = (uint64_t)lua_tointeger(L, -1);
    lua_pop(L, 1);
}
