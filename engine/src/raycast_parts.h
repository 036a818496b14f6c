// raycast_parts.h: what the casts of one part (raycast_parts.c) share with
// the queries (raycast.c): the ray-box slab test, which the grid walk runs
// on its boxes inline, and the ray-disc test that agents are cast with.
#ifndef STEER_RAYCAST_PARTS_H
#define STEER_RAYCAST_PARTS_H

#include "raycast.h"

/// Ray against a solid disc. Origin strictly inside: s = 0, normal -u.
/// Tangent rays touch (normal perpendicular to the ray).
bool steer__ray_circle(steer_vec2 o, steer_vec2 u, float max, steer_vec2 c, float r, float *s_out,
                       steer_vec2 *n_out);

// Ray against a box: the polygon rules with slabs. At a corner, x wins.
// box_entry is the distance without the normal or the limit: s (0 when the
// origin is strictly inside) and which side the ray enters by (BOX_INSIDE,
// BOX_X, BOX_Y); false when the line misses the box or leaves it behind the
// origin. The grid walk tests its boxes with it and computes the normal of
// the closest one only, at the end (box_normal).
enum { BOX_INSIDE, BOX_X, BOX_Y };

STEER_ALWAYS_INLINE static bool box_entry(steer_vec2 o, steer_vec2 u, const float *d, float *s_out, int *side)
{
    // (the tests joined with & and |, not && and ||: one branch at most,
    // not one a comparison, whose outcomes over boxes in random places the
    // CPU cannot predict)
    const bool inside = (o.x > d[0]) & (o.x < d[2]) & (o.y > d[1]) & (o.y < d[3]);
    float enter = -INFINITY, leave = INFINITY;
    bool y_enters = false, off = false;
    // the sides the ray enters and leaves by, as indices into d (selected
    // without a branch): (d[0] - o.x) / u.x is entering when u.x > 0
    const int ex = u.x > 0.0f ? 0 : 2, ey = u.y > 0.0f ? 1 : 3;
    // (u.x == 0 and u.y == 0 are the same for every box of a ray: predicted)
    if (u.x == 0.0f) {
        off = (o.x < d[0]) | (o.x > d[2]);
    } else {
        enter = (d[ex] - o.x) / u.x;
        leave = (d[2 - ex] - o.x) / u.x;
    }
    if (u.y == 0.0f) {
        off = off | (o.y < d[1]) | (o.y > d[3]);
    } else {
        float en = (d[ey] - o.y) / u.y, le = (d[4 - ey] - o.y) / u.y;
        y_enters = en > enter;
        enter = steer_maxf(en, enter);
        leave = steer_minf(leave, le);
    }
    *s_out = inside ? 0.0f : enter;
    *side = inside ? BOX_INSIDE : (y_enters ? BOX_Y : BOX_X);
    return inside | !(off | (enter > leave) | (enter < 0.0f));
}

static inline steer_vec2 box_normal(steer_vec2 u, int side)
{
    if (side == BOX_INSIDE) return steer_neg(u);
    if (side == BOX_Y) return steer_v2(0.0f, u.y > 0.0f ? -1.0f : 1.0f);
    return u.x == 0.0f ? steer_v2(0.0f, 0.0f) : steer_v2(u.x > 0.0f ? -1.0f : 1.0f, 0.0f);
}

static inline bool ray_box(steer_vec2 o, steer_vec2 u, float max, const float *d, float *s_out, steer_vec2 *n_out)
{
    float s;
    int side;
    if (!box_entry(o, u, d, &s, &side) || s > max) return false;
    *s_out = s;
    *n_out = box_normal(u, side);
    return true;
}

#endif
