// orca_room.c: parked agents make room (issue 21; docs/crowds/parked21.md,
// docs/crowds/room21b.md, docs/crowds/goalline21.md).
#include <math.h>

#include "behaviour.h"
#include "eval.h"
#include "orca_lines.h"
#include "orca_room.h"
#include "world.h"

/// Making room: an idle agent at its own destination whose centre lies
/// within ORCA_ROOM_REACH times the two radii of a slow avoider that wants to
/// get past it, or needs its space, steps aside at this fraction of its max
/// speed
#define ORCA_ROOM_REACH 1.2f
#define ORCA_ROOM_STEP 0.1f
/// ...for one that wants past it when that avoider's wish is at least this
/// long (flow_share's direction, of length 1 from ORCA_SHARE_FLOOR of the
/// max speed on: 0.5 is a wish of ORCA_IDLE_SPEED, an avoider that is not
/// idle itself)
#define ORCA_ROOM_WISH 0.5f
/// Parked: idle within its radius of its destination; for a neighbour bound
/// for a destination of its own, within this many of its radii (goalline21:
/// held off its spot by more than its radius, in a line of goals closer
/// than a body's width, it made no room; docs/crowds/goalline21.md)
#define ORCA_ROOM_PARKED 1.5f
/// ...and it makes room no further out than this fraction of that reach
/// (its radius, or ORCA_ROOM_PARKED of them) from its destination
#define ORCA_ROOM_HOLD 0.8f
/// A parked agent steps aside at this fraction of its max speed, not
/// ORCA_ROOM_STEP, when a neighbour that wants to get past it is among
/// those it makes room for (bigswap21: bodies of radius 1.5 to 2 on spots
/// 5.2 m apart, a latecomer outside the ring round its spot; the one in
/// its way made room at every step at ORCA_ROOM_STEP and hardly moved,
/// docs/crowds/bigswap21.md)
#define ORCA_ROOM_STEP_PAST 0.3f

// The unit direction square to u (a unit vector) on the side of rel
// (`across`, u x rel): left of u when rel is on its left, else right.
static inline steer_vec2 away_from_line(steer_vec2 u, float across)
{
    return across > 0.0f ? steer_v2(-u.y, u.x) : steer_v2(u.y, -u.x);
}

// Agents at rest in the way (issue 21). A latecomer whose destination lies
// among or behind agents parked on their own spots stops at rest at the
// clearance distance from two of them, and from rest nobody gives ground:
// its velocity is zero, so the idle agents' share of the avoidance is zero
// too (docs/crowds/parked21.md). So an idle agent on its own destination
// (parked: within its radius of it, not held up in a heap short of it; for
// a neighbour bound for a destination other than its own, within
// ORCA_ROOM_PARKED of its radii: held a little off its spot by its
// neighbours, as in a line of goals closer than a body's width, it is
// parked for that one, goalline21; a neighbour bound for its own
// destination, a heap at a shared point, is left to the radius) steps
// aside, as its preferred velocity, for a neighbour j close by (centres within
// ORCA_ROOM_REACH times the two radii) that is held up (slower than
// ORCA_YIELD_SLOW of its max speed: one walking past is avoided by the
// idle share already), wants something (a wish, the grid's copy, not
// zero), and
// - wants to get past it: j's wish is at least ORCA_ROOM_WISH long and
//   points through it (it lies ahead of j, within the pair's clearance
//   distance of j's line) and j's destination (its course) lies beyond it
//   along that line by more than its radius. It steps away from j's line,
//   square to j's wish;
// - or needs its space (room21b): j's destination lies within the pair's
//   clearance distance of it (j on it would touch it), is not its own
//   destination (within its radius: a contention, the yield's; the point
//   of a heap), j is not on it yet (further than its own radius from it)
//   and it stands on j's side of it (ahead of j towards it). Goals closer
//   than a body's width (a line of them) make this; the wish does not
//   count here beyond not being zero: an arrive at rest asks for a fifth of
//   what it wants (below ORCA_ROOM_WISH within 2 m), and j may
//   have yielded to it (its wish as copied is the one before the yield).
//   It steps away from the line from j to j's destination, square to it,
//   and on past it along that line (the stagger a line of goals closer than
//   a body needs: away from j's destination alone, or square to its line
//   alone, brought fewer home, docs/crowds/room21b.md).
// The sum over such neighbours, at ORCA_ROOM_STEP of its max speed
// (ORCA_ROOM_STEP_PAST when one of them wants past it), while that lasts;
// once j moves on, is past it or no longer wants it, its own arrive takes
// it back (and never further than ORCA_ROOM_HOLD of the reach
// it is parked by from its destination: beyond it, it would no longer be
// parked). The preferred velocity is not
// the avoidance: nothing pulls it back while it lasts (a step back inside
// the avoidance, tried first, settled at the edge of its reach), and the
// avoidance still keeps it clear of the rest. Its intent and wish as the
// grid copies them stay those of its arrive, so that nobody makes room for
// an agent making room. Everything read of j is the grid's copy or the
// course of the step before: the same for any agent order and worker count.
steer_vec2 steer__orca_make_room(const eval_ctx *ctx, steer_vec2 dest_me,
                                 const orca_neighbour *near, int k, steer_vec2 preferred)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    const orca_course *course = view->course;
    const steer_vec2 me = ctx->me.position;
    const float r_me = ctx->lim.radius, r_self = r_me * ORCA_CLEARANCE,
                r_cap = r_me + ORCA_CLEARANCE_MAX;
    // parked: on its own destination (not held up short of it); for a
    // neighbour bound elsewhere, near it (held off it a little)
    const float near_spot = ORCA_ROOM_PARKED * r_me, at2 = steer_length_sq(steer_sub(dest_me, me));
    if (!(at2 < near_spot * near_spot)) return preferred;
    const bool parked = at2 < r_me * r_me;
    bool wide = false; // made room for one bound elsewhere
    bool past = false; // ...for one that wants to get past it
    steer_vec2 side = steer_v2(0.0f, 0.0f);
    for (int i = 0; i < k; ++i) {
        uint32_t q = near[i].proxy, j = g->agent[q];
        if (!(view->flags[j] & AGENT_AVOIDS)) continue;
        const float rj = view->limits[j].radius, reach = ORCA_ROOM_REACH * (r_me + rj);
        if (!(near[i].d2 < reach * reach)) continue;
        const float slow_j = ORCA_YIELD_SLOW * view->limits[j].max_speed;
        if (!(g->vx[q] * g->vx[q] + g->vy[q] * g->vy[q] < slow_j * slow_j))
            continue; // it is moving
        const steer_vec2 w = steer_v2(g->px[q], g->py[q]), pj = steer_v2(g->x[q], g->y[q]);
        const steer_vec2 rel = steer_sub(me, pj), dest = steer_v2(course[j].dx, course[j].dy);
        const float wl = steer_length(w), keep = pair_radius(r_self, r_cap, rj);
        if (!(wl > 0.0f)) continue; // it wants nothing
        // bound for a destination of its own (not this agent's: a heap at a
        // shared point is left as it was)
        const bool other = steer_length_sq(steer_sub(dest, dest_me)) > r_me * r_me;
        if (!parked && !other) continue;
        if (wl >= ORCA_ROOM_WISH) {
            const steer_vec2 u = steer_scale(w, 1.0f / wl);
            const float ahead = steer_dot(rel, u), across = steer_cross(u, rel);
            if (ahead > 0.0f && fabsf(across) < keep &&
                steer_dot(steer_sub(dest, pj), u) > ahead + r_me) {
                // away from j's line
                side = steer_add(side, away_from_line(u, across));
                wide = wide || other;
                past = true;
                continue;
            }
        }
        // j's destination among the parked (see the top): square to j's
        // line to it, away from it, and on along that line
        const steer_vec2 off = steer_sub(me, dest), to = steer_sub(dest, pj);
        const float od2 = steer_length_sq(off);
        if (!(od2 < keep * keep) || !(od2 > 0.0f) || !other) continue;
        if (!(steer_length_sq(to) > rj * rj) || !(steer_dot(rel, to) > 0.0f)) continue;
        const float tl = steer_length(to);
        const steer_vec2 sq = away_from_line(steer_v2(to.x / tl, to.y / tl), steer_cross(to, rel));
        side = steer_add(side, steer_add(sq, steer_scale(to, 1.0f / tl)));
        wide = true;
    }
    const float len = steer_length(side);
    if (!(len > 0.0f)) return preferred;
    side =
        steer_scale(side, (past ? ORCA_ROOM_STEP_PAST : ORCA_ROOM_STEP) * ctx->lim.max_speed / len);
    // at the edge of its spot: no further out (it holds there, rather than
    // leave it, be taken back by its arrive and step out again)
    const steer_vec2 out = steer_sub(me, dest_me);
    const float ol2 = steer_length_sq(out), hold = ORCA_ROOM_HOLD * (wide ? near_spot : r_me),
                o = steer_dot(side, out);
    if (ol2 > hold * hold && o > 0.0f) side = steer_mul_add(side, out, -o / ol2);
    return side;
}
