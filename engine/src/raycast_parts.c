// raycast_parts.c: ray and swept-circle casts against one part (segment,
// circle, box, convex polygon): steer__raycast_prim, which the hierarchy,
// the grid walk and the brute-force check of raycast.c call. The edge-case
// rules are listed in docs/geometry.md.
#include "raycast_parts.h"

// Ray against a segment a-b (left normal n). Collinear: the nearer end, or
// the origin when it lies on the segment, with the normal against the ray.
static bool ray_segment(steer_vec2 o, steer_vec2 u, float max, steer_vec2 a, steer_vec2 b,
                        steer_vec2 n, float *s_out, steer_vec2 *n_out)
{
    steer_vec2 e = steer_sub(b, a), ao = steer_sub(a, o);
    float denom = steer_cross(u, e);
    if (denom == 0.0f) {
        if (steer_cross(ao, u) != 0.0f) return false; // parallel, off the line
        float sa = steer_dot(ao, u), sb = steer_dot(steer_sub(b, o), u);
        if (steer_maxf(sa, sb) < 0.0f) return false;
        float s = steer_maxf(steer_minf(sa, sb), 0.0f);
        if (s > max) return false;
        *s_out = s;
        *n_out = steer_neg(u);
        return true;
    }
    // o + u s = a + e t, solved with cross products
    float s = steer_cross(ao, e) / denom;
    float t = steer_cross(ao, u) / denom;
    if (!(s >= 0.0f && s <= max && t >= 0.0f && t <= 1.0f)) return false;
    *s_out = s;
    *n_out = steer_dot(n, u) > 0.0f ? steer_neg(n) : n;
    return true;
}

// Unit normal of a ray hit from a raw outward vector: -u when the vector is
// degenerate, and never facing along the ray (rounding at a grazing hit can
// tilt it past the tangent: the tangent on its side is then the answer, and
// dot(tangent, u) is exactly 0 in float).
static steer_vec2 hit_normal(double x, double y, steer_vec2 u)
{
    steer_vec2 n;
    if (!geo_unit_d(x, y, &n)) return steer_neg(u);
    if (steer_dot(n, u) > 0.0f) n = steer_cross(u, n) >= 0.0f ? steer_perp(u) : steer_neg(steer_perp(u));
    return n;
}

// Ray against a solid disc. Origin strictly inside: s = 0, normal -u.
// Tangent rays touch (normal perpendicular to the ray). In double: radii and
// offsets up to 1e30 square past the float range, and the entry point is
// taken from the closest approach (q - u sqrt(h2)), not o + u s - c, which
// cancels to nothing for an origin far from a small disc.
bool steer__ray_circle(steer_vec2 o, steer_vec2 u, float max, steer_vec2 c, float r, float *s_out,
                       steer_vec2 *n_out)
{
    double fx = (double)o.x - c.x, fy = (double)o.y - c.y, rr = (double)r * r;
    if (fx * fx + fy * fy < rr) {
        *s_out = 0.0f;
        *n_out = steer_neg(u);
        return true;
    }
    double b = fx * u.x + fy * u.y;
    if (b > 0.0) return false; // outside (or on it) and moving away
    // perpendicular offset at the closest approach, then back along the ray
    double qx = fx - u.x * b, qy = fy - u.y * b;
    double h2 = rr - (qx * qx + qy * qy);
    if (h2 < 0.0) return false;
    double root = sqrt(h2), s = -b - root;
    if (!(s > 0.0)) s = 0.0, qx = fx, qy = fy, root = 0.0; // on the circle
    if (s > max) return false;
    *s_out = (float)s;
    *n_out = hit_normal(qx - u.x * root, qy - u.y * root, u);
    return true;
}

// Ray against a convex polygon (counter-clockwise, outward normals). Origin
// strictly inside: s = 0, normal -u. On the boundary and leaving: no hit. At
// a vertex the entering edge listed first wins.
static bool ray_polygon(steer_vec2 o, steer_vec2 u, float max, const steer_vec2 *v,
                        const steer_vec2 *nrm, int count, float *s_out, steer_vec2 *n_out)
{
    float lower = -INFINITY, upper = INFINITY;
    int index = -1;
    bool inside = true;
    for (int i = 0; i < count; ++i) {
        // num > 0: the origin is behind edge i
        float num = steer_dot(nrm[i], steer_sub(v[i], o));
        float den = steer_dot(nrm[i], u);
        inside = inside && num > 0.0f;
        if (den == 0.0f) {
            if (num < 0.0f) return false;
            continue;
        }
        float t = num / den;
        if (den < 0.0f) {
            if (t > lower) lower = t, index = i;
        } else if (t < upper) {
            upper = t;
        }
        if (upper < lower) return false;
    }
    if (inside) {
        *s_out = 0.0f;
        *n_out = steer_neg(u);
        return true;
    }
    if (index < 0 || lower < 0.0f || lower > max) return false;
    *s_out = lower;
    *n_out = nrm[index];
    return true;
}

static void box_polygon(const float *d, steer_vec2 *v, steer_vec2 *n)
{
    v[0] = steer_v2(d[0], d[1]), v[1] = steer_v2(d[2], d[1]);
    v[2] = steer_v2(d[2], d[3]), v[3] = steer_v2(d[0], d[3]);
    n[0] = steer_v2(0.0f, -1.0f), n[1] = steer_v2(1.0f, 0.0f);
    n[2] = steer_v2(0.0f, 1.0f), n[3] = steer_v2(-1.0f, 0.0f);
}

// Circle of radius R swept along a ray against a convex outline (a segment
// is the 2-gon a, b): the outline grown by R is bounded by the edges pushed
// out along their normals and by circles of radius R at the vertices; the
// first of those the ray meets is the contact.
static bool sweep_outline(steer_vec2 o, steer_vec2 u, float max, float R, const steer_vec2 *v,
                          const steer_vec2 *nrm, int count, float *s_out, steer_vec2 *n_out)
{
    float best = INFINITY;
    steer_vec2 bn = {0.0f, 0.0f};
    for (int i = 0; i < count; ++i) {
        float s;
        steer_vec2 n;
        if (steer_dot(nrm[i], u) < 0.0f) {
            steer_vec2 a = steer_mul_add(v[i], nrm[i], R), b = steer_mul_add(v[(i + 1) % count], nrm[i], R);
            if (ray_segment(o, u, max, a, b, nrm[i], &s, &n) && s < best) best = s, bn = nrm[i];
        }
        if (steer__ray_circle(o, u, max, v[i], R, &s, &n) && s < best) best = s, bn = n;
    }
    if (best == INFINITY) return false;
    *s_out = best;
    *n_out = bn;
    return true;
}

bool steer__raycast_prim(const struct steer_geometry *g, const geo_prim *p, const geo_ray *r, float max,
                      float *s, steer_vec2 *n)
{
    steer_vec2 o = r->origin, u = r->dir;
    if (r->radius == 0.0f) {
        switch (p->type) {
        case PRIM_SEGMENT:
            return ray_segment(o, u, max, steer_v2(p->d[0], p->d[1]), steer_v2(p->d[2], p->d[3]),
                               steer_v2(p->d[4], p->d[5]), s, n);
        case PRIM_CIRCLE: return steer__ray_circle(o, u, max, steer_v2(p->d[0], p->d[1]), p->d[2], s, n);
        case PRIM_BOX: return ray_box(o, u, max, p->d, s, n);
        default: return ray_polygon(o, u, max, &g->verts[p->first], &g->normals[p->first], p->count, s, n);
        }
    }
    // Already touching: a contact at 0 with the shape's normal if the motion
    // goes into it; moving away or along it, this convex part cannot be met
    // later (the distance to a convex set is convex along the line).
    steer_vec2 point, normal;
    if (steer__geometry_closest(g, p, o, &point, &normal) < r->radius) {
        if (p->type == PRIM_SEGMENT && steer_dot(normal, u) > 0.0f && steer_length_sq(steer_sub(o, point)) == 0.0f)
            normal = steer_neg(normal);
        if (steer_dot(normal, u) >= 0.0f) return false;
        *s = 0.0f;
        *n = normal;
        return true;
    }
    steer_vec2 v[4], nrm[4];
    switch (p->type) {
    case PRIM_CIRCLE: return steer__ray_circle(o, u, max, steer_v2(p->d[0], p->d[1]), p->d[2] + r->radius, s, n);
    case PRIM_SEGMENT:
        v[0] = steer_v2(p->d[0], p->d[1]), v[1] = steer_v2(p->d[2], p->d[3]);
        nrm[0] = steer_v2(p->d[4], p->d[5]), nrm[1] = steer_neg(nrm[0]);
        return sweep_outline(o, u, max, r->radius, v, nrm, 2, s, n);
    case PRIM_BOX: box_polygon(p->d, v, nrm); return sweep_outline(o, u, max, r->radius, v, nrm, 4, s, n);
    default:
        return sweep_outline(o, u, max, r->radius, &g->verts[p->first], &g->normals[p->first], p->count, s, n);
    }
}
