// orca_dest.h: of two avoiders heading for one point, the nearer one goes
// first (orca_dest.c; issue 21, docs/crowds.md "The nearer one goes first",
// docs/crowds/exit21b.md), for reciprocal avoidance (reciprocal.c).
//
// A crowd converging on one point (an exit: agents leave there) stands in
// a ring round it, each about the clearance distance from the next; every
// pair in the ring converges, so the right of way splits each avoidance
// equally, and an equal split never lets one of them in ahead of the
// others: the ring crawls in together. So, for a neighbour whose
// destination is the agent's own (within ORCA_DEST_SAME of their two
// radii), the share computed by the right of way (steer__orca_shares) moves
// by dp = (dA - dB) / (ORCA_DEST_SPAN (rA + rB)), clamped to
// +-ORCA_DEST_MAX (dA, dB: the two distances to the point): towards all of
// the avoidance for the further one (s + dp (1 - s)), towards none for the
// nearer (s + dp s). Two shares that added up to 1 still do (before the
// idle floor; the recoil, orca_lines.h, may have raised one above it). dp
// fades out as the pair's speeds add up to ORCA_DEST_SLOW times their mean
// max speed (at speed the velocities decide who is
// ahead, and two seekers contending for a spot kept orbiting longer), and
// as the nearer of the two gets further than ORCA_DEST_NEAR times their two
// radii from the point (a queue at a gap towards a waypoint beyond it, or a
// crowd that has not reached the point yet, is left to the right of way:
// without it bottleneck_500 went to 9.3 cm overlaps). Pairs with a settled
// agent (or one easing out of it: orca_settle.h) are left to the settling
// rules. Only a destination the agent already had at the step before
// counts. Everything read of either agent is the grid's copy or the course
// of the step before: the same bits for any agent order and worker count.
// Not with layers or priorities in use (their lines are rebuilt with their
// own shares: reciprocal.c, adjust_lines; the caller skips it there).
#ifndef STEER_ORCA_DEST_H
#define STEER_ORCA_DEST_H

#include <math.h>

#include "eval.h"
#include "grid.h"
#include "orca_lines.h"

/// Two destinations within this fraction of the pair's two radii are one
/// point (the published course is the target itself: a float's rounding)
#ifndef ORCA_DEST_SAME
#define ORCA_DEST_SAME 0.05f
#endif
/// The difference of the distances (in the pair's two radii) over which
/// the share moves by its whole ORCA_DEST_MAX: one body's width
#ifndef ORCA_DEST_SPAN
#define ORCA_DEST_SPAN 1.0f
#endif
/// At most this far from the right of way's share towards 0 or 1 (all of
/// the way crushed a hallway at its points: 0.24 m overlaps; exit21)
#ifndef ORCA_DEST_MAX
#define ORCA_DEST_MAX 0.5f
#endif
/// None once the pair's speeds add up to this many mean max speeds
#ifndef ORCA_DEST_SLOW
#define ORCA_DEST_SLOW 1.5f
#endif
/// In full while the nearer is within this many of the pair's two radii of
/// the point, none from twice that
#ifndef ORCA_DEST_NEAR
#define ORCA_DEST_NEAR 1.0f
#endif

/// A standoff at a shared point (reciprocal.c, yields): of two slow avoiders
/// that want into each other, the one that comes first keeps its way and the
/// other yields. By key, a setting, unless both head for one point (the
/// agent's destination kept since the step before, the neighbour's course
/// within ORCA_DEST_SAME of their two radii of it) and neither of the two is
/// settled or easing out (a heap is the settling rules'; read of the pair
/// alone, so both decide alike: exitgate21; the nearer-moving gate below
/// keeps it out of a packed heap): then the one
/// nearer to it by more than ORCA_DEST_YIELD_BY of their two radii (the
/// grid's positions), else by key. By key alone, the one nearest an exit
/// yielded to one 0.3 m further out, which then had to crawl round it
/// (docs/crowds/exitdt21.md). Both agents of a pair measure to the course of
/// the one whose key comes first, so they agree; everything is the step
/// before's. 0: by key alone (main's rule before exitdt21).
#ifndef ORCA_DEST_YIELD
#define ORCA_DEST_YIELD 1
#endif
/// ...a difference of distances under this fraction of the two radii goes by
/// key, a decision noise cannot flip (at any difference: `big_gather` 1,686
/// contact episodes; at 0.1: 1,433; at 0.2: 1,011, main 1,082; at 0.25 the
/// exit's stall came back)
#ifndef ORCA_DEST_YIELD_BY
#define ORCA_DEST_YIELD_BY 0.2f
#endif
/// ...and only while the nearer one moves in at this fraction of its max
/// speed or more: a holder standing on a kept point goes by key, as before
/// the rule (ungated, `blocks_100` of the held-out set lost in every cell).
/// At 0.1 (the idle speed) an exit's front braking in its last half metre
/// fell under it and yielded by key to one further out: `exit` `arrive` 166
/// of 180 runs ok, 178 at 0.02 (docs/crowds/exitgate21.md)
#ifndef ORCA_DEST_YIELD_MOVING
#define ORCA_DEST_YIELD_MOVING 0.02f
#endif

/// Whether neighbour j (proxy q) comes first against the agent in a standoff
/// (reciprocal.c, yields): by key, or by ORCA_DEST_YIELD's rule when the
/// agent's destination is `dest`.
bool steer__orca_comes_first(const eval_ctx *ctx, uint32_t q, uint32_t j, steer_vec2 dest);

/// Whether any of the k pairs can be near enough to the agent's destination
/// `dest` for steer__orca_shared_destination to act (inline: in a crowd
/// far from its destinations the call is skipped): not when even the
/// farthest neighbour (near: nearest first) could not be within twice
/// ORCA_DEST_NEAR of the pair's radii of it. Unless the radii are mixed
/// every neighbour's is the agent's stored one; else pairs->r, with the
/// clearance, is at least the two.
static inline bool steer__orca_dest_within_reach(const eval_ctx *ctx, const orca_neighbour *near, int k,
                                                 steer_vec2 dest, const orca_pairs *pairs)
{
    if (!(ORCA_DEST_SPAN > 0.0f) || k == 0) return false; // (-DORCA_DEST_SPAN=0: a build with the rule off)
    const neighbour_grid *g = ctx->view->grid;
    float r_most = ctx->lim.radius + ctx->view->limits[ctx->self].radius;
    if (g->mixed_radii)
        for (int i = 0; i < k; ++i) r_most = steer_maxf(r_most, pairs->r[i]);
    const float ex = g->x[ctx->self_proxy] - dest.x, ey = g->y[ctx->self_proxy] - dest.y;
    const float bound = 2.0f * ORCA_DEST_NEAR * r_most + sqrtf(near[k - 1].d2) + 0.01f;
    return ex * ex + ey * ey <= bound * bound;
}

/// The shares of the k pairs (steer__orca_shares's) moved by how much nearer
/// to the agent's destination `dest` each neighbour heading there is (idle:
/// its shares keep at least half, as steer__orca_shares keeps them).
void steer__orca_shared_destination(const eval_ctx *ctx, const orca_neighbour *near, int k, bool idle,
                                    steer_vec2 dest, orca_pairs *pairs);

#endif
