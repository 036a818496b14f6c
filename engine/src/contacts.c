// contacts.c: closest points on shapes, and the optional contact resolution
// after integration (world.resolve_contacts, off by default).
#include "geometry.h"

/// Passes of contact resolution per agent (a corner needs two).
enum { CONTACT_PASSES = 4 };
/// Contact within this distance of touching (metres): the velocity into
/// the surface is removed even without penetration, so an agent pushed
/// against a wall stays on it instead of entering it every other step.
#define CONTACT_SKIN 1e-3f

// In double: an agent a denormal distance from the segment has a float
// offset whose reciprocal length overflows (the normal became inf and NaN),
// and a denormal segment has a float squared length of 0. The normal falls
// back to the wall's own when the point is on it.
static float closest_segment(steer_vec2 a, steer_vec2 b, steer_vec2 n, steer_vec2 p, steer_vec2 *point,
                             steer_vec2 *normal)
{
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double ee = ex * ex + ey * ey, t = 0.0;
    if (ee > 0.0) t = (((double)p.x - a.x) * ex + ((double)p.y - a.y) * ey) / ee;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    *point = steer_v2((float)(a.x + ex * t), (float)(a.y + ey * t));
    double dx = (double)p.x - point->x, dy = (double)p.y - point->y;
    if (!geo_unit_d(dx, dy, normal)) *normal = n;
    return (float)sqrt(dx * dx + dy * dy);
}

// Signed distance to a convex outline (counter-clockwise, outward normals):
// inside, the nearest edge's plane; outside, the nearest point of the edges.
static float closest_outline(const steer_vec2 *v, const steer_vec2 *nrm, int count, steer_vec2 p,
                             steer_vec2 *point, steer_vec2 *normal)
{
    float sep = -INFINITY;
    int face = 0;
    for (int i = 0; i < count; ++i) {
        float s = steer_dot(nrm[i], steer_sub(p, v[i]));
        if (s > sep) sep = s, face = i;
    }
    if (sep <= 0.0f) {
        *normal = nrm[face];
        *point = steer_mul_add(p, nrm[face], -sep);
        return sep;
    }
    float best = INFINITY;
    for (int i = 0; i < count; ++i) {
        steer_vec2 q, n;
        float d = closest_segment(v[i], v[(i + 1) % count], nrm[i], p, &q, &n);
        if (d < best) best = d, *point = q, *normal = n;
    }
    return best;
}

float steer__prim_closest(const struct steer_geometry *g, const geo_prim *prim, steer_vec2 p,
                          steer_vec2 *point, steer_vec2 *normal)
{
    switch (prim->type) {
    case PRIM_SEGMENT:
        return closest_segment(steer_v2(prim->d[0], prim->d[1]), steer_v2(prim->d[2], prim->d[3]),
                               steer_v2(prim->d[4], prim->d[5]), p, point, normal);
    case PRIM_CIRCLE: {
        // in double, as closest_segment (denormal offsets)
        steer_vec2 c = steer_v2(prim->d[0], prim->d[1]);
        double fx = (double)p.x - c.x, fy = (double)p.y - c.y;
        // at the very centre any direction is the shortest way out: +y
        if (!geo_unit_d(fx, fy, normal)) *normal = steer_v2(0.0f, 1.0f);
        *point = steer_mul_add(c, *normal, prim->d[2]);
        return (float)(sqrt(fx * fx + fy * fy) - prim->d[2]);
    }
    case PRIM_BOX: {
        const float *d = prim->d;
        steer_vec2 v[4] = {{d[0], d[1]}, {d[2], d[1]}, {d[2], d[3]}, {d[0], d[3]}};
        steer_vec2 n[4] = {{0.0f, -1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}};
        return closest_outline(v, n, 4, p, point, normal);
    }
    default:
        return closest_outline(&g->verts[prim->first], &g->normals[prim->first], prim->count, p, point, normal);
    }
}

/* ---- contact resolution ---------------------------------------------------------- */

typedef struct contact_query {
    const struct steer_geometry *g;
    steer_vec2 p, v;
    float radius;
    float depth; ///< deepest penetration found (> 0)
    steer_vec2 normal;
} contact_query;

static void contact_visit(const geo_prim *prim, void *context)
{
    contact_query *q = context;
    steer_vec2 point, n;
    float d = steer__prim_closest(q->g, prim, q->p, &point, &n);
    if (prim->type == PRIM_SEGMENT && d == 0.0f) {
        // centre on the wall: push back to the side it came from
        if (steer_dot(q->v, n) > 0.0f) n = steer_neg(n);
    }
    float depth = q->radius - d;
    if (depth > q->depth) q->depth = depth, q->normal = n;
}

void steer__push_out_of_geometry(steer_world *w, int i)
{
    float r = w->limits[i].radius;
    steer_kinematic *s = &w->state[i];
    for (int pass = 0; pass < CONTACT_PASSES; ++pass) {
        contact_query q = {w->geometry, s->position, s->velocity, r + CONTACT_SKIN, 0.0f, {0.0f, 0.0f}};
        steer_vec2 ext = steer_v2(q.radius, q.radius);
        steer__geometry_overlap(w, steer_sub(s->position, ext), steer_add(s->position, ext), contact_visit, &q);
        if (q.depth <= 0.0f) break;
        // out along the normal; velocity into the wall removed
        s->position = steer_mul_add(s->position, q.normal, steer_maxf(q.depth - CONTACT_SKIN, 0.0f));
        float into = steer_dot(s->velocity, q.normal);
        if (into < 0.0f) s->velocity = steer_mul_add(s->velocity, q.normal, -into);
        if (q.depth <= CONTACT_SKIN) break; // touching only
    }
}

void steer__resolve_contacts(steer_world *w)
{
    // Each agent is pushed out of static geometry on its own: the result
    // does not depend on agent order.
    if (steer__geometry_ready(w) == NULL) return;
    for (int i = 0; i < w->count; ++i) steer__push_out_of_geometry(w, i);
}
