// nav_path.c: a path query (steer_nav_find_path) and its repair against the
// exact shapes, in plain C. The ends are checked against the shapes; a
// start and goal in plain sight of each other are joined without the mesh;
// else the mesh's string-pulled corners (nav_mesh_corners, nav_mesh.cpp:
// Recast/Detour) are set against the shapes themselves: pushed out to the
// radius + 5 cm (nav_path_clear_out: the mesh's walls lie within a voxel of
// the radius, either side), pulled in to it (nav_path_tighten), and the path
// checked against every shape (a mesh with a 0.15 m margin when that fails).
#include "nav_path.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "steer/steer.h"

int nav_search_mode = 0;
int nav_fallbacks = 0;

/* ---- a path set against the shapes ---------------------------------------------------- */

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
        if (nav_point_segment_distance(cx, cy, a, b) > (double)reach) continue;
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

/* ---- the query --------------------------------------------------------------------------- */

// Room for n points in nav->path (grown, never shrunk: once grown, a query
// allocates nothing).
static bool path_room(steer_nav *nav, int n)
{
    if (n <= nav->path_capacity) return true;
    int capacity = n > 2 * nav->path_capacity ? n : 2 * nav->path_capacity;
    steer_vec2 *path = (steer_vec2 *)steer_alloc(sizeof *path * (size_t)capacity);
    if (!path) return false;
    steer_free(nav->path);
    nav->path = path, nav->path_capacity = capacity;
    return true;
}

// The mesh's path (its shapes grown by radius + margin) from one end to the
// other, string-pulled, from and to at its ends, in nav->path with room for
// `extra` more points. Its point count in *count.
static steer_nav_status mesh_path(steer_nav *nav, float margin, steer_vec2 from, steer_vec2 to, float radius,
                                  uint32_t mask, int extra, int *count, steer_nav_result *result)
{
    const float *corners = NULL;
    int ncorners = 0;
    steer_nav_status status = nav_mesh_corners(nav, margin, from, to, radius, mask, &corners, &ncorners, result);
    if (status != STEER_NAV_OK) return status;
    if (!path_room(nav, ncorners + 2 + extra)) return nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory");
    steer_vec2 *path = nav->path;
    int n = 0;
    path[n++] = from;
    for (int i = 0; i < ncorners; ++i) {
        steer_vec2 p = steer_v2(corners[3 * i], corners[3 * i + 2]); // Detour's (x, 0, z)
        steer_vec2 last = path[n - 1];
        if (fabsf(p.x - last.x) > 1e-4f || fabsf(p.y - last.y) > 1e-4f) path[n++] = p;
    }
    steer_vec2 last = path[n - 1];
    if (last.x != to.x || last.y != to.y) {
        // the mesh's end point is within a cell of the goal: end at the goal itself
        const float reach_mesh = margin + 2.0f * nav->def.cell_size;
        if (n > 1 && fabsf(last.x - to.x) <= reach_mesh && fabsf(last.y - to.y) <= reach_mesh)
            path[n - 1] = to;
        else
            path[n++] = to;
    }
    *count = n;
    return STEER_NAV_OK;
}

static float polyline_length(const steer_vec2 *p, int n)
{
    double length = 0.0;
    for (int i = 1; i < n; ++i) length += hypot((double)p[i].x - p[i - 1].x, (double)p[i].y - p[i - 1].y);
    return (float)length;
}

// Write the path (with from and to at its ends) and its figures.
static steer_nav_status deliver(const steer_vec2 *path, int n, steer_vec2 *points, int capacity,
                                steer_nav_result *result)
{
    for (int i = 0; i < n && i < capacity; ++i) points[i] = path[i];
    if (result) {
        memset(result, 0, sizeof *result);
        result->status = STEER_NAV_OK;
        result->count = n;
        result->length = polyline_length(path, n);
    }
    return STEER_NAV_OK;
}

steer_nav_status steer_nav_find_path(steer_nav *nav, steer_vec2 from, steer_vec2 to, float radius, steer_vec2 *points,
                                     int capacity, steer_nav_result *result)
{
    return steer_nav_find_path_masked(nav, from, to, radius, STEER_ALL_LAYERS, points, capacity, result);
}

steer_nav_status steer_nav_find_path_masked(steer_nav *nav, steer_vec2 from, steer_vec2 to, float radius,
                                            uint32_t mask, steer_vec2 *points, int capacity,
                                            steer_nav_result *result)
{
    steer_nav_result scratch;
    if (!result) result = &scratch;
    if (!nav || (capacity > 0 && !points) || capacity < 0)
        return nav_fail(result, STEER_NAV_BAD_INPUT, "no navigation or no room for points");
    if (!nav_point_ok(from) || !nav_point_ok(to))
        return nav_fail(result, STEER_NAV_BAD_INPUT, "points must be finite, within %g m of the origin",
                        (double)STEER_NAV_MAX_COORDINATE);
    if (!(radius > 0.0f && radius <= STEER_NAV_MAX_RADIUS))
        return nav_fail(result, STEER_NAV_BAD_INPUT, "radius must be in (0, %g], got %g",
                        (double)STEER_NAV_MAX_RADIUS, (double)radius);
    const steer_nav_def *def = &nav->def;
    const steer_vec2 ends[2] = {from, to};
    const char *names[2] = {"start", "goal"};
    for (int i = 0; i < 2; ++i) {
        steer_vec2 p = ends[i];
        if (def->has_bounds &&
            (p.x < def->lower.x || p.x > def->upper.x || p.y < def->lower.y || p.y > def->upper.y))
            return nav_fail(result, STEER_NAV_OUTSIDE, "%s (%g, %g) is outside the navigation bounds", names[i],
                            (double)p.x, (double)p.y);
        if (steer_nav_clearance_masked(nav, p, mask) < radius)
            return nav_fail(result, STEER_NAV_BLOCKED, "%s (%g, %g) is inside a shape or closer than %g to one",
                            names[i], (double)p.x, (double)p.y, (double)radius);
    }
    // in plain sight: the straight segment is the shortest path
    if (nav_segment_is_clear(nav, from, to, radius, mask)) return deliver(ends, 2, points, capacity, result);

    const float keep = radius + (nav_search_mode & NAV_SEARCH_AT_R ? 0.0f : 0.05f);
    const float safe = def->margin > NAV_SAFE_MARGIN ? def->margin : NAV_SAFE_MARGIN;
    enum { INSERTED = 64 }; // corners nav_path_clear_out may add
    int n = 0;
    steer_nav_status status = mesh_path(nav, def->margin, from, to, radius, mask, INSERTED, &n, result);
    if (status != STEER_NAV_OK || (nav_search_mode & NAV_SEARCH_LOOSE))
        return status != STEER_NAV_OK ? status : deliver(nav->path, n, points, capacity, result);
    // the mesh's walls lie within a voxel of the radius, either side: push
    // the corners out to the radius + 5 cm against the shapes themselves,
    // then pull them in to it (to the radius exactly, a crowd following the
    // paths is pushed into the shapes: demo.looks_right.rts had 21 of 36
    // home, not 24), and check the path's clearance against every shape
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (attempt == 1 || (nav_search_mode & NAV_SEARCH_FALLBACK)) {
            // the repair failed (never seen in 1 600 random queries): the
            // path of a mesh whose walls keep a margin outside the radius
            ++nav_fallbacks;
            status = mesh_path(nav, safe, from, to, radius, mask, INSERTED, &n, result);
            if (status != STEER_NAV_OK) return status;
        }
        n = nav_path_clear_out(nav, nav->path, n, n + INSERTED, radius, keep, 0.01f, mask);
        n = nav_path_tighten(nav, nav->path, n, keep, mask);
        if (nav_path_clearance(nav, nav->path, n, radius, mask) >= radius - 0.01f) break;
        if (attempt == 1) {
            // the margin's mesh, only pulled in: its walls keep the radius
            // within the voxels' error by construction
            status = mesh_path(nav, safe, from, to, radius, mask, INSERTED, &n, result);
            if (status != STEER_NAV_OK) return status;
            n = nav_path_tighten(nav, nav->path, n, keep, mask);
        }
    }
    return deliver(nav->path, n, points, capacity, result);
}
