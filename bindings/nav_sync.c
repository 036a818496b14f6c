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
    if (lua_type(L, vidx) != LUA_TTABLE || lua_rawlen(L, vidx) != 4) steer_laux_error(L, w, phrase, vidx);
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
static bool step_out(const steer_nav *nav, steer_vec2 p, float radius, steer_vec2 *out)
{
    const float short_by = radius - steer_nav_clearance(nav, p);
    for (int ring = 1; ring <= 4; ++ring) {
        const float d = short_by * (float)ring * 0.5f + 0.05f + 0.25f * (float)(ring - 1) / 3.0f;
        for (int k = 0; k < 16; ++k) {
            const float a = (float)k * 0.39269908f; // 2 pi / 16
            steer_vec2 q = steer_v2(p.x + d * cosf(a), p.y + d * sinf(a));
            if (steer_nav_clearance(nav, q) >= radius + 0.01f) {
                *out = q;
                return true;
            }
        }
    }
    return false;
}

static int plan_find_path(void *context, steer_vec2 from, steer_vec2 to, float radius, steer_vec2 *points,
                          int capacity, float *length, char *message, int message_size)
{
    lcore *core = context;
    steer_nav *nav = steer_lua__nav_of(core);
    if (nav == NULL) {
        snprintf(message, (size_t)message_size, "not enough memory to plan");
        return 0;
    }
    steer_nav_result res;
    steer_nav_find_path(nav, from, to, radius, points, capacity, &res);
    steer_vec2 start;
    if (res.status == STEER_NAV_BLOCKED && steer_nav_clearance(nav, from) < radius && step_out(nav, from, radius, &start)) {
        // planned from the nearest free point, the agent's own position first
        steer_nav_find_path(nav, start, to, radius, capacity > 0 ? points + 1 : NULL, capacity > 0 ? capacity - 1 : 0,
                            &res);
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
    steer_planner p = {plan_find_path, plan_version, plan_draw, core};
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
    steer_nav_shape s = {0, 0};
    switch (kind) {
    case LNAV_SEGMENT: s = steer_nav_add_segment(n->nav, p[0], p[1]); break;
    case LNAV_CIRCLE: s = steer_nav_add_circle(n->nav, p[0], radius); break;
    case LNAV_BOX: s = steer_nav_add_box(n->nav, p[0], p[1]); break;
    case LNAV_POLYGON: s = steer_nav_add_polygon(n->nav, p, count); break;
    default: break;
    }
    if (kind != LNAV_POLYLINE) {
        if (s.index == 0) return false;
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
            e->many = NULL;
            e->count = 0;
            return false;
        }
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
    memset(e, 0, sizeof *e);
}

void steer_lua__nav_free(lcore *core)
{
    struct lnav *n = core->nav;
    if (n == NULL) return;
    if (n->shown_release != NULL) n->shown_release(n->shown_owner);
    for (int i = 0; i < n->capacity; ++i) steer_free(n->entries[i].many);
    steer_free(n->entries);
    steer_nav_destroy(n->nav);
    steer_free(n);
    core->nav = NULL;
}
