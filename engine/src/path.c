// path.c: polyline paths (open or looped): arc lengths, positions and the
// nearest parameter (the notes' getParam). Following them is a behaviour's (follow_path).
#include "core.h"

struct steer_path {
    int refcount;
    int count;        ///< points
    int segments;     ///< count - 1, or count when looped
    bool loop;
    float length;
    steer_vec2 *points;
    float *start;     ///< arc length at the start of each segment
};

int steer_polyline_link_count(const steer_vec2 *points, int count, bool loop)
{
    if (points == NULL || count < 2) return 0;
    // a looped polyline whose last point repeats the first closes on its own
    bool closes = points[0].x == points[count - 1].x && points[0].y == points[count - 1].y;
    return loop && !closes ? count : count - 1;
}

bool steer_path_def_is_valid(const steer_path_def *def)
{
    if (def == NULL || def->cookie != STEER_COOKIE || def->count < 2 || def->points == NULL) return false;
    for (int i = 0; i < def->count; ++i) {
        if (!steer_vec2_is_finite(def->points[i])) return false;
        const float bound = STEER_MAX_PATH_COORDINATE;
        if (fabsf(def->points[i].x) > bound || fabsf(def->points[i].y) > bound) return false;
        if (i > 0 && def->points[i].x == def->points[i - 1].x && def->points[i].y == def->points[i - 1].y) return false;
    }
    // the length, summed as steer_path_create sums it, must be a positive float
    int segments = steer_polyline_link_count(def->points, def->count, def->loop);
    double total = 0.0;
    for (int i = 0; i < segments; ++i) total += (double)steer_distance(def->points[i], def->points[(i + 1) % def->count]);
    float length = (float)total;
    return length > 0.0f && isfinite(length);
}

steer_path *steer_path_create(const steer_path_def *def)
{
    if (!STEER_CHECK(steer_path_def_is_valid(def))) return NULL;
    steer_path *p = steer__alloc(sizeof *p);
    if (p == NULL) return NULL;
    p->points = steer__alloc(sizeof *p->points * (size_t)def->count);
    p->start = steer__alloc(sizeof *p->start * (size_t)(def->count + 1));
    if (p->points == NULL || p->start == NULL) {
        steer__free(p->points);
        steer__free(p->start);
        steer__free(p);
        return NULL;
    }
    p->refcount = 1;
    p->count = def->count;
    p->loop = def->loop;
    p->segments = steer_polyline_link_count(def->points, def->count, def->loop);
    memcpy(p->points, def->points, sizeof *p->points * (size_t)def->count);
    double total = 0.0;
    for (int i = 0; i < p->segments; ++i) {
        p->start[i] = (float)total;
        steer_vec2 a = p->points[i], b = p->points[(i + 1) % p->count];
        total += (double)steer_distance(a, b);
    }
    p->start[p->segments] = (float)total;
    p->length = (float)total;
    return p;
}

steer_path *steer_path_retain(steer_path *p)
{
    if (p != NULL) ++p->refcount;
    return p;
}

void steer_path_release(steer_path *p)
{
    if (p == NULL || --p->refcount > 0) return;
    steer__free(p->points);
    steer__free(p->start);
    steer__free(p);
}

int steer_path_point_count(const steer_path *p) { return p->count; }
bool steer_path_is_loop(const steer_path *p) { return p->loop; }
float steer_path_length(const steer_path *p) { return p->length; }

steer_vec2 steer_path_point(const steer_path *p, int i)
{
    if (!STEER_CHECK(i >= 0 && i < p->count)) return steer_v2(0, 0);
    return p->points[i];
}

// Wrap a looped parameter into [0, length).
static float wrap_param(const steer_path *p, float s)
{
    if (s >= 0.0f && s < p->length) return s;
    double d = fmod((double)s, (double)p->length);
    if (d < 0.0) d += p->length;
    float f = (float)d;
    return f >= p->length ? 0.0f : f;
}

steer_vec2 steer_path_position(const steer_path *p, float s)
{
    if (!STEER_CHECK(isfinite(s))) return p->points[0];
    s = p->loop ? wrap_param(p, s) : steer_clampf(s, 0.0f, p->length);
    // binary search for the segment holding s
    int lo = 0, hi = p->segments - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (p->start[mid] <= s) lo = mid;
        else hi = mid - 1;
    }
    steer_vec2 a = p->points[lo], b = p->points[(lo + 1) % p->count];
    float len = p->start[lo + 1] - p->start[lo];
    float t = len > 0.0f ? steer_clampf((s - p->start[lo]) / len, 0.0f, 1.0f) : 0.0f;
    return steer_mul_add(a, steer_sub(b, a), t);
}

// Closest point to q on segment i restricted to arc lengths [lo, hi];
// returns the squared distance and writes the arc length.
static float closest_on_segment(const steer_path *p, int i, steer_vec2 q, float lo, float hi, float *param)
{
    float s0 = p->start[i], s1 = p->start[i + 1];
    lo = steer_maxf(lo, s0);
    hi = steer_minf(hi, s1);
    if (lo > hi) return INFINITY;
    steer_vec2 a = p->points[i], b = p->points[(i + 1) % p->count];
    steer_vec2 ab = steer_sub(b, a);
    float len = s1 - s0;
    float t = steer_dot(steer_sub(q, a), ab) / steer_length_sq(ab);
    float s = steer_clampf(s0 + t * len, lo, hi);
    steer_vec2 c = steer_mul_add(a, ab, len > 0.0f ? (s - s0) / len : 0.0f);
    *param = s;
    return steer_length_sq(steer_sub(q, c));
}

// Best point over every segment with arc length in [lo, hi].
static float closest_in_range(const steer_path *p, steer_vec2 q, float lo, float hi, float *param)
{
    float best = INFINITY;
    for (int i = 0; i < p->segments; ++i) {
        float s = 0.0f;
        float d2 = closest_on_segment(p, i, q, lo, hi, &s);
        if (d2 < best) {
            best = d2;
            *param = s;
        }
    }
    return best;
}

float steer_path_param(const steer_path *p, steer_vec2 q, float last, float window)
{
    if (!STEER_CHECK(steer_vec2_is_finite(q) && isfinite(last) && isfinite(window))) return 0.0f;
    float global = 0.0f;
    float global_d2 = closest_in_range(p, q, 0.0f, p->length, &global);
    if (last < 0.0f || window <= 0.0f) return global;
    // Coherence: prefer the stretch [last - window, last + window], so at a
    // crossing the agent stays on the branch it is on.
    float local = 0.0f, local_d2;
    if (p->loop) {
        last = wrap_param(p, last);
        float lo = last - window, hi = last + window;
        local_d2 = closest_in_range(p, q, steer_maxf(lo, 0.0f), steer_minf(hi, p->length), &local);
        float extra = 0.0f, extra_d2 = INFINITY;
        if (lo < 0.0f) extra_d2 = closest_in_range(p, q, lo + p->length, p->length, &extra);
        else if (hi > p->length) extra_d2 = closest_in_range(p, q, 0.0f, hi - p->length, &extra);
        if (extra_d2 < local_d2) {
            local_d2 = extra_d2;
            local = extra;
        }
    } else {
        local_d2 = closest_in_range(p, q, last - window, last + window, &local);
    }
    // an agent pushed far off its stretch rejoins the path where it is
    float slack = sqrtf(global_d2) + window;
    return local_d2 <= slack * slack ? local : global;
}
