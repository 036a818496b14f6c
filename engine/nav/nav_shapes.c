// nav_shapes.c: the navigation's own copy of the shapes (plain data), and
// the exact geometry every other part uses: distance from a point or a
// segment to a shape, and a shape grown by a radius as a convex polygon.
#include "nav_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "steer/steer.h"

steer_nav_def steer_default_nav_def(void)
{
    steer_nav_def d;
    memset(&d, 0, sizeof d);
    d.cell_size = 0.2f;
    d.tile_size = 25.6f;
    d.margin = 0.0f;
    d.has_bounds = false;
    d.max_radii = 4;
    d.max_tiles = 4096;
    return d;
}

bool nav_point_ok(steer_vec2 p)
{
    return isfinite(p.x) && isfinite(p.y) && fabsf(p.x) <= STEER_NAV_MAX_COORDINATE &&
           fabsf(p.y) <= STEER_NAV_MAX_COORDINATE;
}

steer_nav_status nav_fail(steer_nav_result *result, steer_nav_status status, const char *format, ...)
{
    if (result) {
        result->status = status;
        result->count = 0;
        result->length = 0.0f;
        va_list args;
        va_start(args, format);
        vsnprintf(result->message, sizeof result->message, format, args);
        va_end(args);
    }
    return status;
}

steer_nav *steer_nav_create(const steer_nav_def *def)
{
    steer_nav_def d = def ? *def : steer_default_nav_def();
    // cells of 1 cm to 10 m, tiles of 8 to 1024 cells
    if (!(d.cell_size >= 0.01f && d.cell_size <= 10.0f)) return NULL;
    if (!(d.tile_size >= 8.0f * d.cell_size && d.tile_size <= 1024.0f * d.cell_size)) return NULL;
    if (!(d.margin >= 0.0f && d.margin <= 10.0f)) return NULL;
    if (d.max_radii < 1 || d.max_radii > 64 || d.max_tiles < 1 || d.max_tiles > (1 << 12)) return NULL;
    if (d.has_bounds && (!nav_point_ok(d.lower) || !nav_point_ok(d.upper) || !(d.lower.x < d.upper.x) ||
                         !(d.lower.y < d.upper.y)))
        return NULL;
    steer_nav *nav = (steer_nav *)steer_alloc(sizeof *nav);
    if (!nav) return NULL;
    memset(nav, 0, sizeof *nav);
    nav->def = d;
    nav->used = 1; // slot 0 is the null handle
    nav->mesh = nav_mesh_create(&nav->def);
    if (!nav->mesh) {
        steer_free(nav);
        return NULL;
    }
    return nav;
}

void steer_nav_destroy(steer_nav *nav)
{
    if (!nav) return;
    nav_mesh_destroy(nav->mesh);
    steer_free(nav->path);
    steer_free(nav->shapes);
    steer_free(nav);
}

static nav_shape *slot_for(steer_nav *nav, int *index)
{
    if (nav->free_head) {
        *index = nav->free_head;
        nav->free_head = nav->shapes[*index].next_free;
        return &nav->shapes[*index];
    }
    if (nav->used >= nav->capacity) {
        int capacity = nav->capacity ? 2 * nav->capacity : 64;
        nav_shape *grown = (nav_shape *)steer_alloc((size_t)capacity * sizeof *grown);
        if (!grown) return NULL;
        memset(grown, 0, (size_t)capacity * sizeof *grown);
        if (nav->shapes) memcpy(grown, nav->shapes, (size_t)nav->capacity * sizeof *grown);
        steer_free(nav->shapes);
        nav->shapes = grown;
        nav->capacity = capacity;
    }
    *index = nav->used++;
    return &nav->shapes[*index];
}

// Store a checked shape: box from its points grown by its radius; its tiles dirty.
static steer_nav_shape commit(steer_nav *nav, const nav_shape *s)
{
    int index;
    nav_shape *slot = slot_for(nav, &index);
    if (!slot) return (steer_nav_shape){0, 0};
    uint16_t generation = (uint16_t)(slot->generation + 1u);
    if (generation == 0) generation = 1;
    *slot = *s;
    slot->layer = 1u;
    slot->generation = generation;
    slot->next_free = 0;
    steer_vec2 lo = s->points[0], hi = s->points[0];
    for (int i = 1; i < s->count; ++i) {
        lo.x = fminf(lo.x, s->points[i].x), lo.y = fminf(lo.y, s->points[i].y);
        hi.x = fmaxf(hi.x, s->points[i].x), hi.y = fmaxf(hi.y, s->points[i].y);
    }
    slot->lower = steer_v2(lo.x - s->radius, lo.y - s->radius);
    slot->upper = steer_v2(hi.x + s->radius, hi.y + s->radius);
    nav->live++;
    nav_mesh_dirty(nav->mesh, slot->lower, slot->upper);
    return (steer_nav_shape){index, generation};
}

static bool shape_coordinate_ok(steer_vec2 p)
{
    // shapes a little beyond the query range still count (their clearance does)
    return isfinite(p.x) && isfinite(p.y) && fabsf(p.x) <= 2.0f * STEER_NAV_MAX_COORDINATE &&
           fabsf(p.y) <= 2.0f * STEER_NAV_MAX_COORDINATE;
}

steer_nav_shape steer_nav_add_segment(steer_nav *nav, steer_vec2 a, steer_vec2 b)
{
    if (!nav || !shape_coordinate_ok(a) || !shape_coordinate_ok(b) || (a.x == b.x && a.y == b.y))
        return (steer_nav_shape){0, 0};
    nav_shape s = {.type = NAV_SEGMENT, .count = 2, .points = {a, b}};
    return commit(nav, &s);
}

steer_nav_shape steer_nav_add_circle(steer_nav *nav, steer_vec2 center, float radius)
{
    if (!nav || !shape_coordinate_ok(center) || !(radius > 0.0f && radius <= STEER_NAV_MAX_COORDINATE))
        return (steer_nav_shape){0, 0};
    nav_shape s = {.type = NAV_CIRCLE, .count = 1, .points = {center}, .radius = radius};
    return commit(nav, &s);
}

steer_nav_shape steer_nav_add_box(steer_nav *nav, steer_vec2 lower, steer_vec2 upper)
{
    if (!nav || !shape_coordinate_ok(lower) || !shape_coordinate_ok(upper) || !(lower.x < upper.x) ||
        !(lower.y < upper.y))
        return (steer_nav_shape){0, 0};
    nav_shape s = {.type = NAV_BOX,
                   .count = 4,
                   .points = {lower, {upper.x, lower.y}, upper, {lower.x, upper.y}}};
    return commit(nav, &s);
}

static float cross3(steer_vec2 a, steer_vec2 b, steer_vec2 c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

steer_nav_shape steer_nav_add_polygon(steer_nav *nav, const steer_vec2 *points, int count)
{
    if (!nav || !points || count < 3 || count > 16) return (steer_nav_shape){0, 0};
    for (int i = 0; i < count; ++i)
        if (!shape_coordinate_ok(points[i])) return (steer_nav_shape){0, 0};
    if (!steer_polygon_is_valid(points, count)) return (steer_nav_shape){0, 0};
    nav_shape s = {.type = NAV_POLYGON, .count = count};
    // store counter-clockwise
    bool ccw = cross3(points[0], points[1], points[2]) > 0.0f;
    for (int i = 0; i < count; ++i) s.points[i] = points[ccw ? i : count - 1 - i];
    return commit(nav, &s);
}

bool steer_nav_remove(steer_nav *nav, steer_nav_shape shape)
{
    if (!nav || shape.index <= 0 || shape.index >= nav->used) return false;
    nav_shape *s = &nav->shapes[shape.index];
    if (s->type == 0 || s->generation != shape.generation) return false;
    nav_mesh_dirty(nav->mesh, s->lower, s->upper);
    s->type = 0;
    s->next_free = nav->free_head;
    nav->free_head = shape.index;
    nav->live--;
    return true;
}

int steer_nav_shape_count(const steer_nav *nav) { return nav ? nav->live : 0; }

bool steer_nav_set_layer(steer_nav *nav, steer_nav_shape shape, uint32_t layer)
{
    if (!nav || shape.index <= 0 || shape.index >= nav->used) return false;
    nav_shape *s = &nav->shapes[shape.index];
    if (s->type == 0 || s->generation != shape.generation) return false;
    if (s->layer != layer) {
        s->layer = layer;
        nav_mesh_dirty(nav->mesh, s->lower, s->upper);
    }
    return true;
}

uint32_t steer_nav_get_layer(const steer_nav *nav, steer_nav_shape shape)
{
    if (!nav || shape.index <= 0 || shape.index >= nav->used) return 0;
    const nav_shape *s = &nav->shapes[shape.index];
    return s->type != 0 && s->generation == shape.generation ? s->layer : 0;
}

bool nav_shapes_box(const steer_nav *nav, steer_vec2 *lower, steer_vec2 *upper)
{
    bool any = false;
    for (int i = 1; i < nav->used; ++i) {
        const nav_shape *s = &nav->shapes[i];
        if (!s->type) continue;
        if (!any) {
            *lower = s->lower, *upper = s->upper, any = true;
        } else {
            lower->x = fminf(lower->x, s->lower.x), lower->y = fminf(lower->y, s->lower.y);
            upper->x = fmaxf(upper->x, s->upper.x), upper->y = fmaxf(upper->y, s->upper.y);
        }
    }
    return any;
}

bool nav_tile_range(const steer_nav *nav, float tile, float grow, const steer_vec2 *points, int count, int range[4])
{
    steer_vec2 lo, hi;
    if (nav->def.has_bounds) {
        lo = nav->def.lower, hi = nav->def.upper;
    } else {
        bool any = nav_shapes_box(nav, &lo, &hi);
        for (int i = 0; i < count; ++i) {
            if (!any) lo = hi = points[i], any = true;
            lo.x = fminf(lo.x, points[i].x), lo.y = fminf(lo.y, points[i].y);
            hi.x = fmaxf(hi.x, points[i].x), hi.y = fmaxf(hi.y, points[i].y);
        }
        if (!any) lo = hi = steer_v2(0.0f, 0.0f);
        lo = steer_v2(lo.x - grow, lo.y - grow), hi = steer_v2(hi.x + grow, hi.y + grow);
    }
    range[0] = (int)floorf(lo.x / tile), range[1] = (int)floorf(lo.y / tile);
    range[2] = (int)floorf(hi.x / tile), range[3] = (int)floorf(hi.y / tile);
    double tiles = ((double)range[2] - range[0] + 1) * ((double)range[3] - range[1] + 1);
    return tiles <= (double)nav->def.max_tiles;
}

/* ---- exact geometry (in double: far from the origin nothing cancels) ------- */

// Distance from p to the chain's convex hull (0 inside).
static double hull_distance(const nav_shape *s, double px, double py)
{
    if (s->count == 1) {
        double dx = px - s->points[0].x, dy = py - s->points[0].y;
        return sqrt(dx * dx + dy * dy);
    }
    if (s->count == 2) return nav_point_segment_distance(px, py, s->points[0], s->points[1]);
    bool inside = true;
    double best = DBL_MAX;
    for (int i = 0; i < s->count; ++i) {
        steer_vec2 a = s->points[i], b = s->points[(i + 1) % s->count];
        // counter-clockwise: inside is to the left of every edge
        double c = ((double)b.x - a.x) * (py - a.y) - ((double)b.y - a.y) * (px - a.x);
        if (c < 0.0) inside = false;
        double d = nav_point_segment_distance(px, py, a, b);
        if (d < best) best = d;
    }
    return inside ? 0.0 : best;
}

float nav_shape_distance(const nav_shape *s, steer_vec2 p)
{
    double d = hull_distance(s, p.x, p.y) - s->radius;
    return d > 0.0 ? (float)d : 0.0f;
}

static bool segments_cross(steer_vec2 a, steer_vec2 b, steer_vec2 c, steer_vec2 d)
{
    double d1 = ((double)b.x - a.x) * ((double)c.y - a.y) - ((double)b.y - a.y) * ((double)c.x - a.x);
    double d2 = ((double)b.x - a.x) * ((double)d.y - a.y) - ((double)b.y - a.y) * ((double)d.x - a.x);
    double d3 = ((double)d.x - c.x) * ((double)a.y - c.y) - ((double)d.y - c.y) * ((double)a.x - c.x);
    double d4 = ((double)d.x - c.x) * ((double)b.y - c.y) - ((double)d.y - c.y) * ((double)b.x - c.x);
    return ((d1 < 0.0) != (d2 < 0.0)) && ((d3 < 0.0) != (d4 < 0.0)) && d1 != 0.0 && d2 != 0.0 &&
           d3 != 0.0 && d4 != 0.0;
}

float nav_shape_segment_distance(const nav_shape *s, steer_vec2 a, steer_vec2 b)
{
    // the segment's ends against the hull, the hull's corners against the
    // segment; zero if they cross
    double best = hull_distance(s, a.x, a.y);
    double db = hull_distance(s, b.x, b.y);
    if (db < best) best = db;
    for (int i = 0; i < s->count; ++i) {
        double d = nav_point_segment_distance(s->points[i].x, s->points[i].y, a, b);
        if (d < best) best = d;
        if (s->count >= 2 && segments_cross(a, b, s->points[i], s->points[(i + 1) % s->count])) best = 0.0;
    }
    double d = best - s->radius;
    return d > 0.0 ? (float)d : 0.0f;
}

int nav_shape_inflate(const nav_shape *s, float r, steer_vec2 *out)
{
    const double pi = 3.14159265358979323846;
    double grow = (double)s->radius + r;
    int n = 0;
    for (int i = 0; i < s->count; ++i) {
        steer_vec2 v = s->points[i];
        // the arc at corner i runs from the normal of the edge arriving at it
        // to the normal of the edge leaving it (all the way round for a
        // lone centre, half way for a segment's end)
        double a0, a1;
        if (s->count == 1) {
            a0 = 0.0, a1 = 2.0 * pi;
        } else {
            steer_vec2 prev = s->points[(i + s->count - 1) % s->count], next = s->points[(i + 1) % s->count];
            // outward normal of edge p->q (counter-clockwise): (dy, -dx)
            a0 = atan2(-((double)v.x - prev.x), (double)v.y - prev.y);
            a1 = atan2(-((double)next.x - v.x), (double)next.y - v.y);
            while (a1 <= a0) a1 += 2.0 * pi;
            if (s->count == 2 && a1 - a0 > pi + 1e-9) a1 = a0 + pi; // a segment's end: half a turn
        }
        int steps = (int)ceil((a1 - a0) / (2.0 * pi / NAV_ARC_STEPS) - 1e-9);
        if (steps < 1) steps = 1;
        double step = (a1 - a0) / steps;
        // the tangent lines at a0, a0 + step, ..., a1 meet at these points
        double far = grow / cos(step * 0.5);
        for (int k = 0; k < steps; ++k) {
            double a = a0 + (k + 0.5) * step;
            out[n++] = steer_v2((float)(v.x + far * cos(a)), (float)(v.y + far * sin(a)));
        }
    }
    return n;
}

float steer_nav_clearance(const steer_nav *nav, steer_vec2 p)
{
    return steer_nav_clearance_masked(nav, p, STEER_ALL_LAYERS);
}

float steer_nav_clearance_masked(const steer_nav *nav, steer_vec2 p, uint32_t mask)
{
    float best = FLT_MAX;
    if (!nav) return best;
    for (int i = 1; i < nav->used; ++i) {
        const nav_shape *s = &nav->shapes[i];
        if (!s->type || !(s->layer & mask)) continue;
        // the box's distance is a lower bound: skip shapes that cannot be nearer
        float bx = fmaxf(fmaxf(s->lower.x - p.x, p.x - s->upper.x), 0.0f);
        float by = fmaxf(fmaxf(s->lower.y - p.y, p.y - s->upper.y), 0.0f);
        if (bx >= best || by >= best) continue;
        float d = nav_shape_distance(s, p);
        if (d < best) best = d;
    }
    return best;
}

bool nav_segment_is_clear(const steer_nav *nav, steer_vec2 a, steer_vec2 b, float r, uint32_t mask)
{
    steer_vec2 lo = steer_v2(fminf(a.x, b.x) - r, fminf(a.y, b.y) - r);
    steer_vec2 hi = steer_v2(fmaxf(a.x, b.x) + r, fmaxf(a.y, b.y) + r);
    for (int i = 1; i < nav->used; ++i) {
        const nav_shape *s = &nav->shapes[i];
        if (!s->type || !(s->layer & mask) || s->lower.x > hi.x || s->upper.x < lo.x || s->lower.y > hi.y || s->upper.y < lo.y) continue;
        if (nav_shape_segment_distance(s, a, b) < r) return false;
    }
    return true;
}
