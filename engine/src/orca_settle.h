// orca_settle.h: settling at a shared point (reciprocal.c;
// docs/crowds/gap21.md, docs/crowds/settle21c.md). A group sent to one
// point piles up round it; an agent of it that is slow and asks for little
// (under ORCA_SETTLE_WISH) and is on the point, or touches a settled agent
// of the same destination nearer to that point (a support), is settled; it
// is in a pocket when on the point or touching two settled agents.
// Two settled agents of one destination, both slow, keep ORCA_REST_GAP
// between their bodies instead of the clearance; one in a pocket builds
// its half-plane as if the other stood still, and gives nothing of it in
// a jam (without pockets one agent behind a single settled one froze out
// of the heap in gather_12; the give of a
// jam is what pressed a resting heap into itself; the other's velocity
// noise is what kept it sliding). A pair of which one has just left the
// settled state keeps a margin that grows back to the clearance over
// 1 / ORCA_SETTLE_EASE steps, so that a heap given a new order is not
// pushed apart in one step.
//
// A stiff heap stays as it settled: one that settled lopsided (a first
// ring of five, arches of agents leaning on outer ones) left a late agent
// outside. So the heap counts itself: each settled agent carries its own
// area and an equal share of what each outer agent resting on it carries,
// so that the agent on the point carries the whole heap's; and each relays
// outwards the largest heap its supports know. An agent farther out than
// ORCA_PRESS_BEYOND packed radii of that heap presses on its supports:
// each adds to its preferred velocity its wish's length in the direction
// away from the agents pressing on it, and presses on its own supports by
// ORCA_PRESS_RELAY of that. Its half-planes are as stiff as before: only
// an agent free to move moves, sideways round the heap, so the heap
// rearranges until the late agent is in, and a compact heap (no agent
// beyond) is not pressed at all.
//
// The state each agent publishes is its settling level, 1 when settled,
// easing to 0 when not, in its settling state's `rest`, and its count and
// pressing (orca_settling) in the state's other fields (world.h, orca_rest:
// a column of its own, not read while every agent's is 0).
// Everything read of a neighbour is the grid's copy or the course from
// before the step, so the result is the same for any agent order and
// worker count.
#ifndef STEER_ORCA_SETTLE_H
#define STEER_ORCA_SETTLE_H

#include "eval.h"
#include "orca_lines.h"
#include "world.h"

/// Only agents slower than this fraction of their max speed settle, and a
/// settled pair rests only while both are slower than it (of their mean max
/// speed).
#define ORCA_SETTLE_SLOW 0.2f
/// ...and only agents whose preferred speed is below this fraction of their
/// max speed (an arrive from rest asks for a fifth of it in a step; an
/// agent asking for more is not at rest).
#define ORCA_SETTLE_WISH 0.25f
/// The margin (m) between the bodies of two settled agents of one
/// destination (the clearance's 0.1 m cap kept gaps of about 0.1 m at
/// rest; issue 21 asks for at most 5 cm at any radius).
#define ORCA_REST_GAP 0.03f
/// An agent whose destination is within this many of its radii (under its
/// body) settles on the point; two agents apart by their rest gap cannot
/// both. (At 1.2, gap21's, two agents straddling the point were both on it
/// and stood stiff against each other: an exit, where the agent on the
/// point leaves, jammed: the matrix's `exit` at the centre 26 of 60 home
/// against 47; docs/crowds/settle21c.md.)
#define ORCA_SETTLE_ROOT 1.0f
/// A settled neighbour counts when its body is within this much (m) beyond
/// the distance the pair keeps.
#define ORCA_SETTLE_REACH 0.05f
/// Two destinations closer than this (m) are one.
#define ORCA_SETTLE_SAME 0.01f
/// How much of the level an agent that is no longer settled loses a step.
#define ORCA_SETTLE_EASE 0.1f
/// The radius (m) that a heap of area a (the sum of its agents' squared
/// radii) fills packed hexagonally is ORCA_PACKED sqrt(a) (issue 21's
/// 0.525 sqrt(N) at radius 0.5)...
#define ORCA_PACKED 1.05f
/// ...and a settled agent whose centre is farther out than this many of it
/// presses on its supports (issue 21 calls a heap compact within 1.3)...
#define ORCA_PRESS_BEYOND 1.2f
/// ...once the heap's area it knows is the one it knew a step before (to
/// this fraction): while the count still flows to the point and back it is
/// too small, and a growing heap would press at every arrival.
#define ORCA_HEAP_SAME 0.01f
/// How much of the pressing it receives an agent passes on to its supports.
#define ORCA_PRESS_RELAY 0.8f

/// What steer__orca_settled finds of the agent (the last four published
/// in its settling state, world.h's orca_rest).
typedef struct orca_settling {
    bool fresh;      ///< its order is new (then it is not settled)
    bool pocket;     ///< on the point, or touching two settled agents
    float supports;  ///< the settled agents of its destination it touches nearer to it
    float mass;      ///< the area it carries: its own and its share of the outer ones'
    float heap;      ///< the heap's area as its supports relay it (at least its mass)
    float press;     ///< how much it presses on its supports, in [0, 1]
    steer_vec2 push; ///< what the outer ones' pressing adds to its preferred velocity
} orca_settling;

/// Whether the agent (not kinematic-specific; its grid record at me) is
/// settled this step. Called only for a slow agent asking for little
/// (its speed under ORCA_SETTLE_SLOW and `wish` under ORCA_SETTLE_WISH of its
/// max speed: reciprocal.c tests both before the call, so that a moving
/// agent pays nothing). Settled: its destination (the grid's copy) within
/// ORCA_SETTLE_ROOT of its radii, or a settled neighbour of the same
/// destination touching it and nearer to the destination. dest_now: its
/// destination from this step's order; out->fresh is set when it differs
/// from the grid's copy (a new order: then it is not settled); for a
/// settled agent, out->pocket when it is on the point or touches two
/// settled agents of its destination, and its count and pressing (the
/// top): all 0 for an agent not settled.
bool steer__orca_settled(const eval_ctx *ctx, const orca_neighbour *near, int k, steer_vec2 dest_now,
                         float wish, float r_self, float r_cap, orca_settling *out);

/// The level to publish (the settling state's rest): 1 when settled, else the
/// level of the step before (`was`) eased towards 0.
static inline float steer__orca_settle_level(float was, bool settled)
{
    if (settled) return 1.0f;
    return was > 0.0f ? steer_maxf(was - ORCA_SETTLE_EASE, 0.0f) : 0.0f;
}

/// The level of a pair (dense indices me and j in the settling states and
/// courses of the step before): the smaller of the two, in [0, 1], and 0
/// unless they have one destination.
static inline float steer__orca_pair_level(const eval_view *view, int me, int j)
{
    const orca_course *course = view->course;
    float lvl = steer_clampf(steer_minf(view->rest[me].rest, view->rest[j].rest), 0.0f, 1.0f);
    const float ex = course[j].dx - course[me].dx, ey = course[j].dy - course[me].dy;
    if (!(ex * ex + ey * ey < ORCA_SETTLE_SAME * ORCA_SETTLE_SAME)) lvl = 0.0f;
    return lvl;
}

/// The combined radius of a pair at level lvl: r (with the clearance) at 0,
/// rb (the two bodies) plus ORCA_REST_GAP at 1, in between linearly.
static inline float steer__orca_settle_radius(float r, float rb, float lvl)
{
    const float r_hard = rb + steer_minf(ORCA_REST_GAP, r - rb);
    return r_hard + (r - r_hard) * (1.0f - lvl);
}

/// The half-planes of the agent's pairs that have a level (lines[i] for
/// pair i; called only when the agent's own level of the step before is
/// above 0): a resting pair's (level 1, both slow, no new order, the agent
/// in a pocket) at
/// ORCA_REST_GAP against the neighbour as if it stood still; another's at
/// the radius of its level. Returns the mask of the resting pairs (their
/// half-planes give nothing in a jam: steer__orca_lp_solve's stiff).
uint64_t steer__orca_settle_lines(const eval_ctx *ctx, const orca_neighbour *near, int k, const orca_pairs *pairs,
                                  steer_vec2 v, float speed, float inv_tau, float inv_dt, bool fresh, bool pocket,
                                  orca_line *lines);

#endif
