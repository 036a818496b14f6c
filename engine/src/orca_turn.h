// orca_turn.h: turning into a fixed destination, for reciprocal
// avoidance's preferred velocity (reciprocal.c).
#ifndef STEER_ORCA_TURN_H
#define STEER_ORCA_TURN_H
#include <math.h>
#include "steer/math.h"
#include "steer/types.h"
#include "orca_lp.h"

/// Leaning (steer__orca_lean): an opposed seek or arrive asks for a part to
/// the right of its destination of this many radians of its speed...
#define ORCA_LEAN 0.15f
/// ...plus this fraction of its max speed as far as it is opposed
/// (ORCA_ONCOMING_SIDE five times: what an arrive with the default
/// time_to_target of 0.5 s reached at a step of 0.1 s; docs/crowds/seek21.md)
#define ORCA_ONCOMING_LEAN 0.85f
/// (not within this many metres of its destination: no direction to lean from)
#define ORCA_LEAN_NEAR 1e-3f
/// Held up, an opposed seek or arrive asks towards its destination for no
/// more than its own speed that way plus this fraction of its max speed
/// (what an arrive with a time_to_target of 0.5 s, the matrix's, asks at a step
/// of 0.1 s, as ORCA_ONCOMING_LEAN; steer__orca_unpressed)
#define ORCA_PRESS 0.2f

// v turned by the angle whose cosine is c and sine s.
static inline steer_vec2 steer__orca_turned(steer_vec2 v, float c, float s)
{
    return steer_v2(v.x * c - v.y * s, v.x * s + v.y * c);
}

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

// A child that steers straight at its destination: the direction a lean is
// measured from.
static inline bool steer__orca_straight(steer_behaviour_type type)
{
    return type == STEER_SEEK || type == STEER_ARRIVE || type == STEER_KINEMATIC_SEEK || type == STEER_KINEMATIC_ARRIVE;
}

// Leaning right in two-way traffic (issue 21, docs/crowds/seek21.md). The
// step to the right of an opposed agent (and the side bias) were added to
// the preferred velocity every step; a child whose output follows the
// agent's velocity (an arrive: v + (desired - v) dt / time_to_target)
// carried each step's addition into the next and so stepped several times
// further than one whose output does not (a seek at a high acceleration),
// and further at a smaller step: the same two groups flowed or locked with
// the behaviour's braking, its acceleration and the step. So for a child
// steering straight at its destination (`to_dest`, `dist` away) the part
// of the preferred velocity to the right of that direction is raised to
// `right`, not added to (a part already further right is kept). Not
// clamped to the max speed: the linear program keeps the velocity inside
// the speed disc, and a clamp would shorten the part ahead of an agent
// held on its right.
// Beside a wall (`hard` static half-planes: the walls and shapes in reach)
// a part to the right pressed beyond the wall's line is turned by the
// linear program into a slide along the wall; at an angle to the
// destination (a door post, the destination diagonally through the door)
// that slide went back, away from it, into the agents there
// (docs/crowds/door21.md). So where it would, the lean's part along that
// line beyond it is taken back; the part into the wall is kept.
static inline steer_vec2 steer__orca_lean(steer_vec2 preferred, steer_vec2 to_dest, float dist, float right,
                                          const orca_line *hard_lines, int hard)
{
    const steer_vec2 r = {to_dest.y / dist, -to_dest.x / dist};
    const float now = steer_dot(preferred, r);
    const float add = right - now;
    if (!(add > 0.0f)) return preferred;
    steer_vec2 undo = {0.0f, 0.0f};
    for (int i = 0; i < hard; ++i) {
        // inside: cross(dir, v - point) >= 0; the lean changes it by add * into
        const orca_line *l = &hard_lines[i];
        const float into = steer_cross(l->dir, r);
        if (!(into < 0.0f)) continue;
        // beyond the line the program keeps the part along it: when that
        // part (`slide`) points away from the destination (`ahead`: the
        // line's direction towards it), the lean's part along the line
        // beyond it is taken back
        const float ahead = steer_dot(l->dir, to_dest) < 0.0f ? -1.0f : 1.0f, back = ahead * steer_dot(r, l->dir);
        const float room = steer_cross(l->dir, steer_sub(preferred, l->point));
        const float beyond = add - steer_maxf(room, 0.0f) / -into;
        const float slide = ahead * (steer_dot(preferred, l->dir) + add * steer_dot(r, l->dir));
        if (back < 0.0f && beyond > 0.0f && slide < 0.0f) undo = steer_mul_add(undo, l->dir, -ahead * back * beyond);
    }
    return steer_add(steer_mul_add(preferred, r, add), undo);
}

// Not pressing into an oncoming front (issue 21, docs/crowds/seeklock21.md).
// A seek asks for its max speed towards its goal whatever its velocity, so
// held up at a crawl by the group coming the other way it still asked for
// full speed ahead, as much as the lean asked to the right: each front
// pressed into the other, nobody had room to step right, and the two
// locked for good (twoway_50 with `seek` at an acceleration of 100 times
// the max speed: 0 of 50 home). An arrive's output follows its velocity
// and asked about its crawl plus a fifth of the max speed ahead (a
// time_to_target of 0.5 s at a step of 0.1 s), so it stepped right and
// flowed. So an opposed child steering straight at its
// destination (`n`, the unit direction to it) asks along that direction
// for at most its velocity's part that way (none when pushed back) plus
// `most`; the part across, and the lean added after, are kept. At speed
// nothing changes (the velocity's own part is already about the ask).
static inline steer_vec2 steer__orca_unpressed(steer_vec2 preferred, steer_vec2 v, steer_vec2 n, float most)
{
    const float ahead = steer_dot(preferred, n), cap = steer_maxf(steer_dot(v, n), 0.0f) + most;
    return ahead > cap ? steer_mul_add(preferred, n, cap - ahead) : preferred;
}

#endif
