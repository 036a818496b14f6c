// orca_lp.c: the 2-D and 3-D linear programs of reciprocal avoidance
// (orca_lp.h), written from the paper's description: constraints are added
// one by one; the optimum changes only when the new constraint is violated,
// and then the new optimum lies on that constraint's line, a 1-D program
// over the earlier constraints and the speed disc.
#include "orca_lp.h"

/// Lines closer to parallel than this (|cross| of unit directions) are
/// treated as parallel.
#define ORCA_PARALLEL 1e-6f
/// Lines facing each other closer to opposite than this (|cross|) cross far
/// away: their bisector is taken again through its point nearest the origin
/// when the program through their crossing fails.
#define ORCA_NEARLY_OPPOSITE 1e-3f
/// A velocity more than 1% outside the speed disc (this factor squared) is
/// float noise of a far crossing; rounding stays within a few ulps.
#define ORCA_DISC_SLACK 1.0201f

static float cross(steer_vec2 a, steer_vec2 b) { return a.x * b.y - a.y * b.x; }

// 1-D program on line i: the point of line i, inside the disc and the
// half-planes 0..i-1, closest to `opt` (or furthest along `opt` when
// `direction`). False when that segment of the line is empty.
static bool solve_on_line(const orca_line *lines, int i, float radius, steer_vec2 opt, bool direction,
                          steer_vec2 *result)
{
    const orca_line *l = &lines[i];
    // the line's chord of the disc: point + t*dir with |.| <= radius
    float along = steer_dot(l->point, l->dir);
    float disc = along * along + radius * radius - steer_length_sq(l->point);
    if (disc < 0.0f) return false;
    float root = sqrtf(disc);
    float lo = -along - root, hi = -along + root;
    for (int j = 0; j < i; ++j) {
        const orca_line *m = &lines[j];
        // cross(m.dir, point + t dir - m.point) >= 0  <=>  t * denom <= numer
        float denom = cross(l->dir, m->dir);
        float numer = cross(m->dir, steer_sub(l->point, m->point));
        if (steer_absf(denom) <= ORCA_PARALLEL) {
            if (numer < 0.0f) return false; // parallel, and line i lies outside j
            continue;
        }
        float t = numer / denom;
        if (denom > 0.0f) hi = steer_minf(hi, t);
        else lo = steer_maxf(lo, t);
        if (lo > hi) return false;
    }
    float t;
    if (direction) t = steer_dot(opt, l->dir) > 0.0f ? hi : lo;
    else t = steer_clampf(steer_dot(l->dir, steer_sub(opt, l->point)), lo, hi);
    *result = steer_mul_add(l->point, l->dir, t);
    return true;
}

// steer_normalize's result for a finite vector (the bisectors' directions
// are differences of unit vectors), without its tests for infinities.
static steer_vec2 unit(steer_vec2 a)
{
    double x = a.x, y = a.y, len = sqrt(x * x + y * y);
    if (len > 0.0) return (steer_vec2){(float)(x / len), (float)(y / len)};
    return (steer_vec2){0.0f, 0.0f};
}

// 2-D program: the optimum over lines[0..count) and the disc. Returns count
// on success, else the index of the line that could not be met (*result
// then holds the optimum of the lines before it).
static int solve_plane(const orca_line *lines, int count, float radius, steer_vec2 opt, bool direction,
                       steer_vec2 *result)
{
    if (direction) *result = steer_scale(opt, radius); // opt is a unit vector here
    else if (steer_length_sq(opt) > radius * radius) *result = steer_scale(steer_normalize(opt), radius);
    else *result = opt;
    for (int i = 0; i < count; ++i) {
        if (cross(lines[i].dir, steer_sub(*result, lines[i].point)) >= 0.0f) continue; // still met
        steer_vec2 kept = *result;
        if (!solve_on_line(lines, i, radius, opt, direction, result)) {
            *result = kept;
            return i;
        }
    }
    return count;
}

// Whether lines l and m are nearly opposite but not parallel (their
// crossing kilometres away).
static bool nearly_opposite(const orca_line *l, const orca_line *m)
{
    const float det = steer_absf(cross(l->dir, m->dir));
    return det > ORCA_PARALLEL && det < ORCA_NEARLY_OPPOSITE && steer_dot(l->dir, m->dir) < 0.0f;
}

// The hard lines, then the bisectors of line i with each soft line before
// it, into proj; returns their count. With `near_origin`, a nearly opposite
// pair's bisector goes through its point nearest the origin instead of the
// two lines' far crossing.
static int bisectors(const orca_line *lines, int hard, int i, bool near_origin, orca_line *proj)
{
    const orca_line *l = &lines[i];
    int n = 0;
    for (int h = 0; h < hard; ++h) proj[n++] = lines[h];
    for (int j = hard; j < i; ++j) {
        const orca_line *m = &lines[j];
        orca_line b;
        float det = cross(l->dir, m->dir);
        if (steer_absf(det) <= ORCA_PARALLEL) {
            if (steer_dot(l->dir, m->dir) > 0.0f) continue; // same direction: j never binds first
            b.point = steer_scale(steer_add(l->point, m->point), 0.5f);
        } else if (near_origin && nearly_opposite(l, m)) {
            // the same bisector (equal violations: cross(l.dir - m.dir, v)
            // = cross(l.dir, l.point) - cross(m.dir, m.point))
            const steer_vec2 w = steer_sub(l->dir, m->dir);
            const float c = cross(l->dir, l->point) - cross(m->dir, m->point);
            b.point = steer_scale(steer_v2(w.y, -w.x), -c / steer_length_sq(w));
        } else {
            b.point = steer_mul_add(l->point, l->dir, cross(m->dir, steer_sub(l->point, m->point)) / det);
        }
        b.dir = unit(steer_sub(m->dir, l->dir));
        proj[n++] = b;
    }
    return n;
}

// 3-D program of the infeasible case: minimise the largest violation d of
// the soft lines (from `first` on) while keeping the hard ones. Solved as a
// sequence of 2-D programs: when line i is violated by more than the current
// d, the new optimum lies where i's violation equals that of an earlier soft
// line, i.e. on their bisectors, and moves as far into i as they allow.
static steer_vec2 solve_least_violation(const orca_line *lines, int count, int hard, int first, float radius,
                                        steer_vec2 result)
{
    orca_line proj[ORCA_MAX_LINES];
    float worst = 0.0f;
    for (int i = first; i < count; ++i) {
        const orca_line *l = &lines[i];
        float violation = cross(l->dir, steer_sub(l->point, result));
        if (violation <= worst) continue;
        steer_vec2 kept = result;
        // as far as possible into line i's permitted side
        int n = bisectors(lines, hard, i, false, proj);
        bool met = solve_plane(proj, n, radius, steer_perp(l->dir), true, &result) == n;
        if (!met || steer_length_sq(result) > ORCA_DISC_SLACK * radius * radius) {
            // failed, or outside the speed disc: with a nearly opposite
            // pair (an agent between its leader and its follower in a
            // file), its bisector through the far crossing was float
            // noise; once more through its point nearest the origin (a
            // failure keeps the velocity before line i, which may run into
            // a neighbour; docs/crowds.md, "The crowd brain")
            bool far = false;
            for (int j = hard; j < i && !far; ++j) far = nearly_opposite(l, &lines[j]);
            if (far) {
                n = bisectors(lines, hard, i, true, proj);
                met = solve_plane(proj, n, radius, steer_perp(l->dir), true, &result) == n;
            }
            if (!met) result = kept;
        }
        worst = cross(l->dir, steer_sub(l->point, result));
    }
    return result;
}

// Line l moved outwards by its own violation at `result` plus `give`.
static inline orca_line eased_line(const orca_line *l, steer_vec2 result, float give)
{
    const float own = steer_maxf(cross(l->dir, steer_sub(l->point, result)), 0.0f);
    return (orca_line){steer_mul_add(l->point, steer_perp(l->dir), -(own + give)), l->dir};
}

steer_vec2 steer__orca_lp_solve(const orca_line *lines, int count, int hard, float max_speed, steer_vec2 preferred,
                             float give, uint64_t stiff)
{
    const int first = hard; // (stiff counts from the first soft line as given)
    steer_vec2 result;
    int failed = solve_plane(lines, count, max_speed, preferred, false, &result);
    if (failed == count) return result;
    // the static lines alone may be unsatisfiable (an agent wedged in a
    // corner): then every line is soft
    if (failed < hard) hard = 0;
    result = solve_least_violation(lines, count, hard, failed, max_speed, result);
    if (!(give > 0.0f)) return result;
    // a jam: every soft line may be violated by `give` more than at the
    // least-violating velocity; the velocity nearest the preferred one
    // among those
    // (the hard lines copied, the soft ones written once; then a settled
    // pair's line, bit i - first of `stiff`, again without the give: a
    // second pass over the few such lines costs less in a jam than a test
    // of every line)
    orca_line relaxed[ORCA_MAX_LINES];
    for (int i = 0; i < hard; ++i) relaxed[i] = lines[i];
    for (int i = hard; i < count; ++i) relaxed[i] = eased_line(&lines[i], result, give);
    for (; stiff != 0; stiff &= stiff - 1) {
        const int i = first + __builtin_ctzll(stiff);
        if (i >= hard && i < count) relaxed[i] = eased_line(&lines[i], result, 0.0f);
    }
    steer_vec2 eased;
    if (solve_plane(relaxed, count, max_speed, preferred, false, &eased) == count) return eased;
    return result;
}
