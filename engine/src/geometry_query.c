// geometry_query.c: the closest point of a part to a point (contacts,
// orca's obstacle legs) and the box query over the hierarchy; geometry.c
// owns the shapes and builds the hierarchy and the grid.
#include "geometry.h"
#include "world.h"

/* ---- closest points ------------------------------------------------------------ */

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

float steer__geometry_closest(const struct steer_geometry *g, const geo_prim *prim, steer_vec2 p,
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

// The tangents from p to the disc (c, rho), folded into the outermost so
// far (seen from p, left is counter-clockwise). False when p is inside.
static bool fold_legs(steer_vec2 c, float rho, steer_vec2 p, bool first, steer_vec2 *left, steer_vec2 *right)
{
    double rx = (double)c.x - p.x, ry = (double)c.y - p.y, dd = rx * rx + ry * ry, rr = (double)rho * rho;
    if (!(dd > rr)) return false;
    double leg = sqrt(dd - rr);
    // rotated by +-asin(rho / |c - p|), scaled to unit length
    steer_vec2 l = steer_v2((float)((rx * leg - ry * rho) / dd), (float)((rx * rho + ry * leg) / dd));
    steer_vec2 r = steer_v2((float)((rx * leg + ry * rho) / dd), (float)((ry * leg - rx * rho) / dd));
    if (first || steer_cross(*left, l) > 0.0f) *left = l;
    if (first || steer_cross(*right, r) < 0.0f) *right = r;
    return true;
}

bool steer__geometry_legs(const struct steer_geometry *g, const geo_prim *prim, steer_vec2 p, float radius,
                          steer_vec2 *left, steer_vec2 *right)
{
    const float *d = prim->d;
    switch (prim->type) {
    case PRIM_SEGMENT:
        return fold_legs(steer_v2(d[0], d[1]), radius, p, true, left, right) &&
               fold_legs(steer_v2(d[2], d[3]), radius, p, false, left, right);
    case PRIM_CIRCLE:
        return fold_legs(steer_v2(d[0], d[1]), d[2] + radius, p, true, left, right);
    case PRIM_BOX: // its corners
        return fold_legs(steer_v2(d[0], d[1]), radius, p, true, left, right) &&
               fold_legs(steer_v2(d[2], d[1]), radius, p, false, left, right) &&
               fold_legs(steer_v2(d[2], d[3]), radius, p, false, left, right) &&
               fold_legs(steer_v2(d[0], d[3]), radius, p, false, left, right);
    default:
        for (int i = 0; i < prim->count; ++i)
            if (!fold_legs(g->verts[prim->first + i], radius, p, i == 0, left, right)) return false;
        return prim->count > 0;
    }
}

/* ---- box queries -------------------------------------------------------------- */

void steer__geometry_overlap(const struct steer_geometry *g, steer_vec2 lower, steer_vec2 upper,
                             const geo_filter *filter, geo_overlap_fn *fn, void *context)
{
    if (g == NULL || g->tree.leaf_count == 0) return;
    int stack[GEO_MAX_DEPTH + 2];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const geo_node *n = &g->tree.nodes[stack[--sp]];
        if (n->lx > upper.x || n->ux < lower.x || n->ly > upper.y || n->uy < lower.y) continue;
        if (n->count > 0) {
            for (int k = 0; k < n->count; ++k) {
                const geo_prim *p = &g->tree.leaf[n->child + k];
                if (geo_prim_passes(p, filter)) fn(p, context);
            }
        } else {
            stack[sp++] = n->child + 1;
            stack[sp++] = n->child;
        }
    }
}
