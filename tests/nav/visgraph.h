// visgraph.h: the exact shortest path for a disc of radius r among the
// navigation's shapes, by brute force: a visibility graph over the corners
// of every shape grown by r (nav_shape_inflate: circumscribed arcs, so the
// reference keeps at least r and is at most 0.5% of its arcs longer than the
// true optimum), searched with Dijkstra, every edge tested against every
// shape. O(V^2 S): small maps only. For tests/nav and steer-bench nav.
#ifndef STEER_NAV_VISGRAPH_H
#define STEER_NAV_VISGRAPH_H

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "nav_internal.h"

typedef struct vg_poly {
    int count;
    steer_vec2 p[NAV_MAX_INFLATED];
} vg_poly;

static double vg_cross(steer_vec2 a, steer_vec2 b, double px, double py)
{
    return ((double)b.x - a.x) * (py - a.y) - ((double)b.y - a.y) * (px - a.x);
}

// True if p lies strictly inside the counter-clockwise polygon (by more than eps).
static int vg_inside(const vg_poly *g, steer_vec2 p, double eps)
{
    for (int i = 0; i < g->count; ++i) {
        steer_vec2 a = g->p[i], b = g->p[(i + 1) % g->count];
        double len = hypot((double)b.x - a.x, (double)b.y - a.y);
        if (vg_cross(a, b, p.x, p.y) <= eps * len) return 0;
    }
    return 1;
}

// True if segment p-q passes through the polygon's interior (Cyrus-Beck:
// the part of the segment inside every edge's half-plane, shrunk by eps).
static int vg_blocks(const vg_poly *g, steer_vec2 p, steer_vec2 q, double eps)
{
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < g->count; ++i) {
        steer_vec2 a = g->p[i], b = g->p[(i + 1) % g->count];
        double len = hypot((double)b.x - a.x, (double)b.y - a.y);
        double f0 = vg_cross(a, b, p.x, p.y) - eps * len;
        double f1 = vg_cross(a, b, q.x, q.y) - eps * len;
        // inside where f0 + t (f1 - f0) > 0
        double df = f1 - f0;
        if (df == 0.0) {
            if (f0 <= 0.0) return 0;
        } else {
            double t = -f0 / df;
            if (df > 0.0) {
                if (t > t0) t0 = t;
            } else if (t < t1) {
                t1 = t;
            }
        }
        if (t0 >= t1) return 0;
    }
    return t1 - t0 > 1e-9;
}

/// Length of the shortest path from a to b keeping r from every shape, or
/// -1 when there is none. Writes the path's corners when out is not NULL.
static double vg_shortest(const steer_nav *nav, steer_vec2 a, steer_vec2 b, float r)
{
    int shapes = 0;
    for (int i = 1; i < nav->used; ++i) shapes += nav->shapes[i].type != 0;
    vg_poly *polys = (vg_poly *)malloc((size_t)(shapes + 1) * sizeof *polys);
    int np = 0, nv = 2;
    for (int i = 1; i < nav->used; ++i) {
        if (!nav->shapes[i].type) continue;
        polys[np].count = nav_shape_inflate(&nav->shapes[i], r, polys[np].p);
        nv += polys[np].count;
        ++np;
    }
    steer_vec2 *v = (steer_vec2 *)malloc((size_t)nv * sizeof *v);
    int n = 0;
    v[n++] = a;
    v[n++] = b;
    for (int k = 0; k < np; ++k) {
        for (int i = 0; i < polys[k].count; ++i) {
            steer_vec2 p = polys[k].p[i];
            int free_ = 1;
            for (int o = 0; o < np && free_; ++o)
                if (o != k && vg_inside(&polys[o], p, 1e-6)) free_ = 0;
            if (free_) v[n++] = p;
        }
    }
    double *dist = (double *)malloc((size_t)n * sizeof *dist);
    char *done = (char *)calloc((size_t)n, 1);
    for (int i = 0; i < n; ++i) dist[i] = DBL_MAX;
    dist[0] = 0.0;
    double answer = -1.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < n; ++i)
            if (!done[i] && dist[i] < DBL_MAX && (u < 0 || dist[i] < dist[u])) u = i;
        if (u < 0) break;
        if (u == 1) {
            answer = dist[1];
            break;
        }
        done[u] = 1;
        for (int w = 1; w < n; ++w) {
            if (done[w]) continue;
            double d = dist[u] + hypot((double)v[w].x - v[u].x, (double)v[w].y - v[u].y);
            if (d >= dist[w]) continue;
            int visible = 1;
            for (int k = 0; k < np && visible; ++k)
                if (vg_blocks(&polys[k], v[u], v[w], 1e-6)) visible = 0;
            if (visible) dist[w] = d;
        }
    }
    free(polys), free(v), free(dist), free(done);
    return answer;
}

/// Smallest distance from the polyline to any shape (exact), metres.
static float vg_clearance(const steer_nav *nav, const steer_vec2 *p, int n)
{
    float best = FLT_MAX;
    for (int s = 1; s < nav->used; ++s) {
        if (!nav->shapes[s].type) continue;
        for (int i = 0; i + 1 < n; ++i) {
            float d = nav_shape_segment_distance(&nav->shapes[s], p[i], p[i + 1]);
            if (d < best) best = d;
        }
    }
    return best;
}

/// A random layout: boxes and circles in a side x side square, seeded.
static unsigned vg_rand(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}
static float vg_uniform(unsigned *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)(vg_rand(state) & 0xffffu) / 65535.0f;
}
static void vg_layout(steer_nav *nav, unsigned seed, float side, int boxes, int circles, float size)
{
    unsigned s = seed * 2654435761u + 1u;
    for (int i = 0; i < boxes; ++i) {
        float x = vg_uniform(&s, 0.0f, side), y = vg_uniform(&s, 0.0f, side);
        float w = vg_uniform(&s, 0.3f, 1.0f) * size, h = vg_uniform(&s, 0.1f, 1.0f) * size;
        steer_nav_add_box(nav, steer_v2(x - w * 0.5f, y - h * 0.5f), steer_v2(x + w * 0.5f, y + h * 0.5f));
    }
    for (int i = 0; i < circles; ++i) {
        float x = vg_uniform(&s, 0.0f, side), y = vg_uniform(&s, 0.0f, side);
        steer_nav_add_circle(nav, steer_v2(x, y), vg_uniform(&s, 0.2f, 0.5f) * size);
    }
}
/// A random point at least r from every shape.
static steer_vec2 vg_free_point(const steer_nav *nav, unsigned *state, float side, float r)
{
    for (;;) {
        steer_vec2 p = steer_v2(vg_uniform(state, 0.0f, side), vg_uniform(state, 0.0f, side));
        if (steer_nav_clearance(nav, p) >= r + 0.01f) return p;
    }
}

#endif
