// orca_turn.h: turning into a fixed destination, for reciprocal
// avoidance's preferred velocity (reciprocal.c).
#ifndef STEER_ORCA_TURN_H
#define STEER_ORCA_TURN_H
#include <math.h>
#include "steer/math.h"

// Turning into a fixed destination (issue 21, docs/crowds.md "Turning into
// a spot"): at speed s an agent turns at best on a circle of radius s^2 / a
// (a its max acceleration), and a point inside that circle it cannot reach
// on this pass however it steers. A `seek`, which keeps its speed, then
// circles its goal for good: alone at about the turning radius, or two sent
// to one point round each other (at an acceleration of 3 times the max
// speed the turning radius, 0.5 m at 1.5 m/s, is the arrival radius). A
// point at distance d, h off the line of the velocity, is outside the
// circle of radius R tangent to the velocity on its side when
// d^2 >= 2 R h, that is s^2 <= a d^2 / (2 h); with u the part of the
// velocity along the line to the point and w the part across it
// (h = d |w| / s), when |w| s <= a d / 2. So the part across is shortened
// until the destination is on that circle, the part along kept:
// w^2 (u^2 + w^2) = (a d / 2)^2. Nothing changes for an agent heading at
// its destination (w = 0) or far enough from it (d >= 2 s^2 / a).
static inline steer_vec2 steer__orca_turnable(steer_vec2 preferred, steer_vec2 to_dest, float accel)
{
    const float d2 = steer_length_sq(to_dest), reach = accel * d2, s2 = steer_length_sq(preferred);
    // most agents: at least twice the turning radius away (d >= 2 s^2 / a,
    // and h <= d), told without a square root
    if (reach * accel >= 4.0f * s2 * s2) return preferred;
    // 2 |to_dest x preferred| s = 2 d |w| s against a d^2 (false for NaN:
    // unchanged; true only with a part across, s > 0 and d > 0)
    const float across = fabsf(to_dest.x * preferred.y - to_dest.y * preferred.x), s = sqrtf(s2);
    if (!(2.0f * across * s > reach)) return preferred;
    const float d = sqrtf(d2), half = 0.5f * accel * d;
    const steer_vec2 n = steer_scale(to_dest, 1.0f / d);
    const float u = steer_dot(preferred, n), u2 = u * u;
    const steer_vec2 w = steer_mul_add(preferred, n, -u);
    const float wl2 = steer_length_sq(w);
    if (!(wl2 > 0.0f)) return preferred; // (rounding: nothing across after all)
    // w'^2 = (sqrt(u^4 + 4 (a d / 2)^2) - u^2) / 2, smaller than |w|^2
    const float w2 = 0.5f * (sqrtf(u2 * u2 + 4.0f * half * half) - u2);
    return steer_mul_add(steer_scale(n, u), w, sqrtf(w2 / wl2));
}

#endif
