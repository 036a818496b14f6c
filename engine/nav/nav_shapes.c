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

/* ---- exact geometry (in double: far from the origin nothing cancels) ------- */

static double point_segment_distance(double px, double py, steer_vec2 a, steer_vec2 b)
{
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    double ex = px - a.x, ey = py - a.y;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? (ex * dx + ey * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    double fx = ex - t * dx, fy = ey - t * dy;
    return sqrt(fx * fx + fy * fy);
}

// Distance from p to the chain's convex hull (0 inside).
static double hull_distance(const nav_shape *s, double px, double py)
{
    if (s->count == 1) {
        double dx = px - s->points[0].x, dy = py - s->points[0].y;
        return sqrt(dx * dx + dy * dy);
    }
    if (s->count == 2) return point_segment_distance(px, py, s->points[0], s->points[1]);
    bool inside = true;
    double best = DBL_MAX;
    for (int i = 0; i < s->count; ++i) {
        steer_vec2 a = s->points[i], b = s->points[(i + 1) % s->count];
        // counter-clockwise: inside is to the left of every edge
        double c = ((double)b.x - a.x) * (py - a.y) - ((double)b.y - a.y) * (px - a.x);
        if (c < 0.0) inside = false;
        double d = point_segment_distance(px, py, a, b);
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
        double d = point_segment_distance(s->points[i].x, s->points[i].y, a, b);
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

// True if segment a-b keeps r from each of the listed shapes.
static bool clear_of(const steer_nav *nav, const int *near, int count, steer_vec2 a, steer_vec2 b,
                     float r)
{
    for (int k = 0; k < count; ++k) {
        const nav_shape *s = &nav->shapes[near[k]];
        // the shape's box's circle further than r from the segment: clear
        float cx = 0.5f * (s->lower.x + s->upper.x), cy = 0.5f * (s->lower.y + s->upper.y);
        float hx = 0.5f * (s->upper.x - s->lower.x), hy = 0.5f * (s->upper.y - s->lower.y);
        float reach = r + sqrtf(hx * hx + hy * hy);
        if (point_segment_distance(cx, cy, a, b) > (double)reach) continue;
        if (nav_shape_segment_distance(s, a, b) < r) return false;
    }
    return true;
}

int nav_path_tighten(const steer_nav *nav, steer_vec2 *p, int n, float r, uint32_t mask)
{
    enum { MAX_NEAR = 64, MAX_CANDIDATES = 256, PASSES = 2, STEPS = 6 };
    int near[MAX_NEAR];
    // the shapes near the path (every later segment lies inside its box);
    // on a crowded map, all of them
    int candidates[MAX_CANDIDATES], ncand = 0;
    float plx = p[0].x, ply = p[0].y, phx = p[0].x, phy = p[0].y;
    for (int i = 1; i < n; ++i)
        plx = fminf(plx, p[i].x), ply = fminf(ply, p[i].y), phx = fmaxf(phx, p[i].x),
        phy = fmaxf(phy, p[i].y);
    for (int s = 1; s < nav->used && ncand <= MAX_CANDIDATES; ++s) {
        const nav_shape *sh = &nav->shapes[s];
        if (!sh->type || !(sh->layer & mask) || sh->lower.x > phx + r || sh->upper.x < plx - r || sh->lower.y > phy + r ||
            sh->upper.y < ply - r)
            continue;
        if (ncand < MAX_CANDIDATES) candidates[ncand] = s;
        ++ncand;
    }
    bool all = ncand > MAX_CANDIDATES;
    if (all) ncand = nav->used - 1;
    for (int pass = 0; pass < PASSES; ++pass) {
        bool moved = false;
        for (int i = 1; i + 1 < n;) {
            steer_vec2 a = p[i - 1], c = p[i], b = p[i + 1];
            // the shapes that may touch the triangle a c b grown by r
            float lx = fminf(a.x, fminf(b.x, c.x)) - r, ly = fminf(a.y, fminf(b.y, c.y)) - r;
            float hx = fmaxf(a.x, fmaxf(b.x, c.x)) + r, hy = fmaxf(a.y, fmaxf(b.y, c.y)) + r;
            int count = 0;
            for (int k = 0; k < ncand && count <= MAX_NEAR; ++k) {
                int index = all ? k + 1 : candidates[k];
                const nav_shape *sh = &nav->shapes[index];
                if (!sh->type || !(sh->layer & mask) || sh->lower.x > hx || sh->upper.x < lx || sh->lower.y > hy ||
                    sh->upper.y < ly)
                    continue;
                if (count < MAX_NEAR) near[count] = index;
                ++count;
            }
            if (count > MAX_NEAR) {
                ++i; // too crowded to bother: keep the corner
                continue;
            }
            if (clear_of(nav, near, count, a, b, r)) {
                // the corner is not needed
                memmove(&p[i], &p[i + 1], (size_t)(n - i - 1) * sizeof *p);
                --n;
                moved = true;
                continue;
            }
            // slide the corner towards the chord a-b while both sides keep r
            float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
            float t = len2 > 0.0f ? ((c.x - a.x) * dx + (c.y - a.y) * dy) / len2 : 0.0f;
            t = fminf(1.0f, fmaxf(0.0f, t));
            steer_vec2 q = steer_v2(a.x + t * dx, a.y + t * dy);
            float lo = 0.0f, hi = 1.0f;
            for (int k = 0; k < STEPS; ++k) {
                float mid = 0.5f * (lo + hi);
                steer_vec2 m = steer_v2(c.x + mid * (q.x - c.x), c.y + mid * (q.y - c.y));
                if (clear_of(nav, near, count, a, m, r) && clear_of(nav, near, count, m, b, r))
                    lo = mid;
                else
                    hi = mid;
            }
            if (lo > 0.0f) {
                p[i] = steer_v2(c.x + lo * (q.x - c.x), c.y + lo * (q.y - c.y));
                moved = true;
            }
            ++i;
        }
        if (!moved) break;
    }
    return n;
}

// The shapes a path's repair may meet: those whose layer meets the mask and
// whose box comes within reach of some segment's box (all of them when there
// are more than fit).
typedef struct near_set {
    const steer_nav *nav;
    uint32_t mask;
    int count;
    bool all;
    int index[256];
} near_set;

static float min2(float a, float b) { return a < b ? a : b; }
static float max2(float a, float b) { return a > b ? a : b; }

static void near_path(near_set *set, const steer_nav *nav, const steer_vec2 *p, int n, float reach, uint32_t mask)
{
    set->nav = nav, set->mask = mask, set->count = 0, set->all = false;
    float lx = p[0].x, ly = p[0].y, hx = p[0].x, hy = p[0].y;
    for (int i = 1; i < n; ++i)
        lx = min2(lx, p[i].x), ly = min2(ly, p[i].y), hx = max2(hx, p[i].x), hy = max2(hy, p[i].y);
    lx -= reach, ly -= reach, hx += reach, hy += reach;
    for (int s = 1; s < nav->used; ++s) {
        const nav_shape *sh = &nav->shapes[s];
        if (!sh->type || !(sh->layer & mask) || sh->lower.x > hx || sh->upper.x < lx || sh->lower.y > hy ||
            sh->upper.y < ly)
            continue;
        bool near = false;
        for (int i = 0; i + 1 < n && !near; ++i) {
            near = sh->lower.x <= max2(p[i].x, p[i + 1].x) + reach && sh->upper.x >= min2(p[i].x, p[i + 1].x) - reach &&
                   sh->lower.y <= max2(p[i].y, p[i + 1].y) + reach && sh->upper.y >= min2(p[i].y, p[i + 1].y) - reach;
        }
        if (!near) continue;
        if (set->count == (int)(sizeof set->index / sizeof set->index[0])) {
            set->all = true;
            return;
        }
        set->index[set->count++] = s;
    }
}

static int near_count(const near_set *set) { return set->all ? set->nav->used - 1 : set->count; }
static const nav_shape *near_shape(const near_set *set, int k, int *index)
{
    *index = set->all ? k + 1 : set->index[k];
    const nav_shape *s = &set->nav->shapes[*index];
    return s->type && (s->layer & set->mask) ? s : NULL;
}

// The shape of the set nearest p within r, and its distance (0 and FLT_MAX when none is).
static int nearest_shape_within(const near_set *set, steer_vec2 p, float r, float *distance)
{
    int best = 0;
    float best_d = FLT_MAX;
    for (int k = 0, count = near_count(set); k < count; ++k) {
        int i;
        const nav_shape *s = near_shape(set, k, &i);
        if (!s || s->lower.x > p.x + r || s->upper.x < p.x - r || s->lower.y > p.y + r || s->upper.y < p.y - r)
            continue;
        float d = nav_shape_distance(s, p);
        if (d < r && d < best_d) best = i, best_d = d;
    }
    *distance = best_d;
    return best;
}

// Move p out of every shape's reach r: away from the nearest shape (along
// its distance's gradient; from its box's centre when p is inside it) until
// it keeps r, a few times when pushing out of one shape pushes into another.
// False when it could not (a gap narrower than 2 r).
static bool push_out_to(const near_set *set, steer_vec2 *point, float r)
{
    steer_vec2 p = *point;
    for (int iteration = 0; iteration < 8; ++iteration) {
        float d;
        int k = nearest_shape_within(set, p, r, &d);
        if (!k) {
            *point = p;
            return true;
        }
        const nav_shape *s = &set->nav->shapes[k];
        const float e = 1e-3f;
        float gx = nav_shape_distance(s, steer_v2(p.x + e, p.y)) - nav_shape_distance(s, steer_v2(p.x - e, p.y));
        float gy = nav_shape_distance(s, steer_v2(p.x, p.y + e)) - nav_shape_distance(s, steer_v2(p.x, p.y - e));
        float len = sqrtf(gx * gx + gy * gy);
        if (d <= 0.0f || !(len > 0.0f)) {
            gx = p.x - 0.5f * (s->lower.x + s->upper.x), gy = p.y - 0.5f * (s->lower.y + s->upper.y);
            len = sqrtf(gx * gx + gy * gy);
            if (!(len > 0.0f)) gx = 1.0f, gy = 0.0f, len = 1.0f;
        }
        float step = r - d + 2e-3f;
        p = steer_v2(p.x + gx / len * step, p.y + gy / len * step);
    }
    return false;
}

// p pushed out to keep, else (a gap narrower than 2 keep) to r, else as it was.
static steer_vec2 push_out(const near_set *set, steer_vec2 p, float r, float keep)
{
    steer_vec2 q = p;
    if (push_out_to(set, &q, keep)) return q;
    q = p;
    if (push_out_to(set, &q, r)) return q;
    return p;
}

// Smallest distance from segment a-b to the set's shapes within r of its box.
static float segment_clearance(const near_set *set, steer_vec2 a, steer_vec2 b, float r)
{
    steer_vec2 lo = steer_v2(min2(a.x, b.x) - r, min2(a.y, b.y) - r);
    steer_vec2 hi = steer_v2(max2(a.x, b.x) + r, max2(a.y, b.y) + r);
    float best = FLT_MAX;
    for (int k = 0, count = near_count(set); k < count; ++k) {
        int i;
        const nav_shape *s = near_shape(set, k, &i);
        if (!s || s->lower.x > hi.x || s->upper.x < lo.x || s->lower.y > hi.y || s->upper.y < lo.y) continue;
        float d = nav_shape_segment_distance(s, a, b);
        if (d < best) best = d;
    }
    return best;
}

int nav_path_clear_out(const steer_nav *nav, steer_vec2 *p, int n, int capacity, float r, float keep, float slack,
                       uint32_t mask)
{
    // the corners move by about the mesh's error: the shapes within a metre
    // more than keep of the path are the ones they may meet (the path's
    // clearance is checked against every shape afterwards)
    near_set set;
    near_path(&set, nav, p, n, keep + 1.0f, mask);
    for (int i = 1; i + 1 < n; ++i) p[i] = push_out(&set, p[i], r, keep);
    // a segment between two corners pushed out may still cut a shape (an arc
    // the mesh's corners skipped): its middle pushed out becomes a corner. A
    // segment asks no more than its ends keep (a fixed end, a corner in a gap
    // narrower than 2 keep).
    float here;
    nearest_shape_within(&set, p[0], keep, &here);
    int inserted = 0;
    for (int i = 0; i + 1 < n;) {
        float next;
        nearest_shape_within(&set, p[i + 1], keep, &next);
        float want = fminf(keep - slack, fminf(here, next) - 1e-3f);
        if (inserted >= 64 || n >= capacity || segment_clearance(&set, p[i], p[i + 1], keep) >= want) {
            ++i;
            here = next;
            continue;
        }
        steer_vec2 mid = steer_v2(0.5f * (p[i].x + p[i + 1].x), 0.5f * (p[i].y + p[i + 1].y));
        mid = push_out(&set, mid, r, keep);
        memmove(&p[i + 2], &p[i + 1], (size_t)(n - i - 1) * sizeof *p);
        p[i + 1] = mid;
        ++n, ++inserted;
    }
    return n;
}

float nav_path_clearance(const steer_nav *nav, const steer_vec2 *p, int n, float r, uint32_t mask)
{
    // a shape whose box is further than r from every segment's box is further than r from the path
    near_set set;
    near_path(&set, nav, p, n, r, mask);
    float best = FLT_MAX;
    for (int i = 0; i + 1 < n; ++i) {
        float d = segment_clearance(&set, p[i], p[i + 1], r);
        if (d < best) best = d;
    }
    return best;
}
