// orca_lines.h: the half-planes ORCA's neighbours impose (reciprocal.c):
// the right of way (flow_share) and agent_line for one neighbour, and
// steer__orca_shares and steer__orca_agent_lines (orca_lines.c) for a list
// of them, four or eight at a time, with the same bits.
#ifndef STEER_ORCA_LINES_H
#define STEER_ORCA_LINES_H

#include <float.h>

#include "core.h"
#include "grid.h"
#include "orca_lp.h"

/// Bodies are avoided as if this much larger: when the half-planes leave
/// nothing (a crowd pressing an agent at full speed), the least-violating
/// velocity gives up a little of the horizon, and the margin keeps that from
/// becoming contact (scripts/scenarios: contacts in the small cases went to 0).
#define ORCA_CLEARANCE 1.1f
/// ...but by at most this much (m) for a pair: the margin takes up what the
/// least violation gives up in a step, a speed times the step, which does not
/// grow with the bodies' size; a tenth of two radii of 2 m kept 0.4 m between
/// them at rest (issue 21). Agents of radius 0.5 or less keep their tenth.
#define ORCA_CLEARANCE_MAX 0.1f

// The combined radius a pair is avoided at: each body a tenth larger
// (ORCA_CLEARANCE), the two tenths together at most ORCA_CLEARANCE_MAX.
// r_self is the agent's radius times ORCA_CLEARANCE, r_cap its radius plus
// ORCA_CLEARANCE_MAX (so that a pair of radius 0.5 keeps the same bits).
static STEER_ALWAYS_INLINE float pair_radius(float r_self, float r_cap, float r_other)
{
    return steer_minf(r_self + r_other * ORCA_CLEARANCE, r_cap + r_other);
}

/// step_radius's braking for an agent of max acceleration `accel` at a step
/// dt: what it sheds of its speed in a step (a dt) and 1 / 2a; none (shed
/// infinite, inv2a 0) for a kinematic agent (lead 0) or an acceleration that
/// is not a positive finite number.
typedef struct orca_brake {
    float shed, inv2a;
} orca_brake;
static STEER_ALWAYS_INLINE orca_brake orca_braking(float lead, float accel, float dt)
{
    if (lead > 0.0f && accel > 0.0f && accel <= FLT_MAX) return (orca_brake){accel * dt, 0.5f / accel};
    return (orca_brake){INFINITY, 0.0f};
}
/// The combined radius a pair's half-plane is built with: pair_radius, or
/// the two bodies plus how far one of the pair closes on the other in the
/// step its new velocity waits for (`lead`: the notes' integrator moves an
/// agent by its velocity before the steering changes it), when the other is
/// not closing on it, whichever is larger. Each agent chooses its velocity
/// from the other's current one: in a file at a gap an agent squeezed
/// between the one ahead and the one behind gives up its half-planes (the
/// least violation) and stops short, and the one behind closes in by its
/// speed times the step before it can answer. The clearance covers only
/// 0.1 m of that: a file at 1.5 m/s with a step of 0.1 s closes 0.15 m,
/// and the first compression at a gap crushed such files by 5 to 7 cm
/// (`bottleneck_500` with contact resolution off; docs/crowds.md, "The
/// step's travel"). Pairs head-on or crossing (both closing), side by side
/// or at rest keep pair_radius (counting them too widened every meeting at
/// speed and jammed the small two-way hallways), as does a kinematic agent
/// (lead 0: it takes its velocity at once). rel is the other's position
/// relative to the agent's (at the lead), v and vj the two velocities,
/// bodies the two radii; the step's travel is symmetric in the two agents, so
/// both build with the same radius. Coincident agents keep pair_radius
/// (0 / 0 is NaN, and the larger of NaN and r is r).
/// The braking (orca_braking): at a low max acceleration the one closing
/// cannot stop within the step either. ORCA takes any velocity of the speed
/// disc as reachable in one step, but the agent changes its velocity by at
/// most `shed` (its max acceleration a times the step) a step, so from a
/// closing speed c it still covers (c - shed)^2 / 2a after the step's travel
/// (`inv2a` is 1 / 2a). That much is added, in the program of the one closing
/// only: the one it closes on keeps the radius above (its own braking is not
/// what is missing, and widening its pair pushed it onto the ones ahead of it:
/// docs/crowds/overlap21d.md). At an acceleration of 3 times the max speed
/// and a step of 0.1 s an agent walking up at 1.1 m/s onto one that had
/// braked (or turned back: the recoil within one step) closed 4.7 cm more
/// than the step's travel, and the matrix's two-way layouts went over 5 cm in
/// three runs (5.3 to 5.9 cm; docs/crowds/overlap21c.md). A closing speed
/// under shed adds exactly 0, so at an acceleration of 10 times the max speed
/// or more and a step of 0.1 s nothing changes to the bit. A kinematic agent,
/// or one whose acceleration is not limited, adds nothing.
static STEER_ALWAYS_INLINE float step_radius(float r, float bodies, float lead, steer_vec2 rel, steer_vec2 v,
                                             steer_vec2 vj, orca_brake brake)
{
    const float mine = v.x * rel.x + v.y * rel.y, theirs = -(vj.x * rel.x + vj.y * rel.y);
    const float closing = steer_maxf(steer_maxf(theirs > 0.0f ? 0.0f : mine, mine > 0.0f ? 0.0f : theirs), 0.0f);
    const float d = sqrtf(rel.x * rel.x + rel.y * rel.y);
    const float c = closing / steer_maxf(d, bodies);
    const float over = theirs > 0.0f || !(mine > 0.0f) ? 0.0f : steer_maxf(c - brake.shed, 0.0f); // the agent closing
    return steer_maxf(bodies + lead * c + over * over * brake.inv2a, r);
}
/// A neighbour reciprocal.c takes into account: its proxy in the grid and
/// its squared distance.
typedef struct orca_neighbour {
    uint32_t proxy;
    float d2;
} orca_neighbour;
_Static_assert(sizeof(orca_neighbour) == 8, "orca_neighbour: two 32-bit fields (orca_lines.c reads four a load)");

// The half-plane B imposes on A: relative position and velocity (B - A and
// A - B), combined radius, horizon tau, the step dt, A's velocity.
static STEER_ALWAYS_INLINE orca_line agent_line(steer_vec2 rel_pos, steer_vec2 rel_vel, float r, float inv_tau, float inv_dt,
                            steer_vec2 v, float share)
{
    orca_line line;
    steer_vec2 u;
    float dist2 = steer_length_sq(rel_pos), r2 = r * r;
    if (dist2 > r2) {
        // w: from the cut-off disc's centre to the relative velocity
        steer_vec2 w = steer_sub(rel_vel, steer_scale(rel_pos, inv_tau));
        float w2 = steer_length_sq(w), wdot = steer_dot(w, rel_pos);
        if (wdot < 0.0f && wdot * wdot > r2 * w2) {
            // nearest boundary point is on the cut-off disc
            float wl = sqrtf(w2);
            steer_vec2 unit = steer_scale(w, 1.0f / wl);
            line.dir = steer_v2(unit.y, -unit.x);
            u = steer_scale(unit, r * inv_tau - wl);
        } else {
            // on a leg of the cone: the side w lies on
            float leg = sqrtf(dist2 - r2), inv = 1.0f / dist2;
            if (rel_pos.x * w.y - rel_pos.y * w.x > 0.0f) {
                line.dir = steer_v2((rel_pos.x * leg - rel_pos.y * r) * inv, (rel_pos.x * r + rel_pos.y * leg) * inv);
            } else {
                line.dir = steer_v2(-(rel_pos.x * leg + rel_pos.y * r) * inv, -(-rel_pos.x * r + rel_pos.y * leg) * inv);
            }
            u = steer_sub(steer_scale(line.dir, steer_dot(rel_vel, line.dir)), rel_vel);
        }
    } else {
        // already overlapping: separate within this step (the cut-off disc
        // of horizon dt)
        steer_vec2 w = steer_sub(rel_vel, steer_scale(rel_pos, inv_dt));
        float wl = steer_length(w);
        steer_vec2 unit = wl > 0.0f ? steer_scale(w, 1.0f / wl) : steer_v2(0.0f, -1.0f);
        if (wl == 0.0f && dist2 > 0.0f) unit = steer_scale(rel_pos, -1.0f / sqrtf(dist2));
        line.dir = steer_v2(unit.y, -unit.x);
        u = steer_scale(unit, r * inv_dt - wl);
    }
    line.point = steer_mul_add(v, u, share);
    return line;
}

/// Right of way: the pair's speeds count as at least this fraction of their
/// mean max speed, so that at a crawl velocity noise cannot flip the shares
/// (see avoid_share). Measured in the bottleneck (scripts/scenarios,
/// bottleneck_500, orca): 0.2 gives 499 of 500 home, 1,475 contacts, 4.7 cm
/// at most (none: 499, 1,851, 5.4 cm); 0.4 gives 486 and 11 cm, 1.0 489 and
/// 16 cm: the press at the gap is slow, and there the right of way is what
/// keeps the front from being crushed.
#define ORCA_SHARE_FLOOR 0.2f
/// The right of way's source (see flow_share): below this fraction of the
/// pair's mean max speed (their speeds summed) the preferred velocities
/// decide who is behind, above it the velocities, in between a blend.
#define ORCA_FLOW_BLEND 1.0f

// Right of way. Two avoiding agents share the avoidance in proportions that
// add up to 1 (share for A with B, 1 - share for B with A: the expression is
// exactly antisymmetric). When they move the same way, the one behind along
// their mean velocity takes more of it, all of it when B is straight ahead:
// a queue then does not push its front, and the front of a crowd at a gap
// drains instead of being pressed into the walls. Head-on (velocities
// cancelling) or at rest, both take half, as in the paper. speed is |v|.
// The pair's speeds count as at least floor_speed (ORCA_SHARE_FLOOR of their
// mean max speed): at a crawl the direction of two velocities of a few cm/s
// is noise, and divided by their own sum it redrew the shares from 0 to 1
// every step, so that a slow jam never formed lanes and never drained
// (issue 21). With the floor the share moves by at most about |dv| / floor
// for a change dv of either velocity: below the floor (0.3 m/s for two
// agents of max speed 1.5) it tends to half as the pair slows down, and a
// noise of a few cm/s moves it by a few percent instead of flipping it. At
// speed (the sum of the speeds above the floor) nothing changes, so a
// moving queue keeps its right of way.
// An idle agent (its preferred velocity near zero: arrived) raises its own
// share to at least half: the two shares then add up to more than 1, which
// only avoids more. Without it, agents standing on their goals kept the
// right of way over those walking up behind them and walled them off from
// goals further in (the bottleneck's and the blocks' fields of goals).
static STEER_ALWAYS_INLINE float avoid_share(steer_vec2 rel_pos, steer_vec2 v, float speed, steer_vec2 vj, float floor_speed)
{
    float speeds = steer_maxf(speed + steer_length(vj), floor_speed), d = steer_length(rel_pos);
    // both positive and their product finite (an underflow to 0 would
    // divide to a non-finite `ahead`: the same half either way)
    float den = d * speeds;
    if (!(den > 0.0f && den <= FLT_MAX)) return 0.5f;
    float ahead = steer_dot(rel_pos, steer_add(v, vj)) / den; // in [-1, 1]
    if (!isfinite(ahead)) return 0.5f;
    return 0.5f + 0.5f * steer_clampf(ahead, -1.0f, 1.0f);
}

// The right of way in a queue, from what the pair wants rather than how it
// moves. mine and theirs are the two agents' preferred velocities of the
// step before (the grid's copies, orca_intent), each divided by the larger
// of its length and ORCA_SHARE_FLOOR of its max speed (see the end of
// steer__reciprocal_steer): ca says how much A's wish closes on B, cb how
// much B's closes on A. A is behind in a queue when its wish closes on B
// and B's leads away from A: then A takes more, all of it when both point
// straight along the line from A to B. When both close on each other
// (head-on, crossing, converging on one point) or neither does (side by
// side), the pair shares equally, as the paper does. Preferred velocities
// come from goals and do not jitter in a jam, so the shares hold still
// where the velocities' directions are noise (issue 21). The expression
// is exactly antisymmetric (swapping A and B swaps ca and cb).
static STEER_ALWAYS_INLINE float queue_ahead(steer_vec2 rel_pos, steer_vec2 mine, steer_vec2 theirs)
{
    float d = steer_length(rel_pos);
    if (!(d > 0.0f && d <= FLT_MAX)) return 0.0f;
    float ca = steer_dot(mine, rel_pos) / d, cb = -steer_dot(theirs, rel_pos) / d;
    float ahead = steer_maxf(ca, 0.0f) * steer_maxf(-cb, 0.0f) - steer_maxf(cb, 0.0f) * steer_maxf(-ca, 0.0f);
    return isfinite(ahead) ? steer_clampf(ahead, -1.0f, 1.0f) : 0.0f;
}

// The share of a pair of avoiders: the velocities' right of way
// (avoid_share) for a pair that moves, the preferred velocities' (queue_ahead)
// for a pair at a crawl, blended linearly in the sum of their speeds, all
// the velocities' from ORCA_FLOW_BLEND times their mean max speed on. At a
// crawl the velocities' directions are noise and the queue decides; at
// speed the velocities say what the preferred velocities cannot: who is
// actually moving through a gap and who is pressed aside (scripts/scenarios
// bottleneck_500). The blend's weight moves by |dv| / (blend speed) for a
// change dv of either velocity: no flip. Symmetric in the two speeds, so
// the shares still add up to 1.
// mine and theirs: the two agents' preferred velocities as the grid keeps
// them (queue_ahead). steer__orca_shares (orca_lines.c) computes it for
// four or eight neighbours at once, with the same bits.
static STEER_ALWAYS_INLINE float flow_share(steer_vec2 rel_pos, steer_vec2 v, float speed, steer_vec2 vj,
                                            steer_vec2 mine, steer_vec2 theirs, float mean_max_speed)
{
    float vshare = avoid_share(rel_pos, v, speed, vj, ORCA_SHARE_FLOOR * mean_max_speed);
    // at speed (|vj| >= blend - speed, tested without a square root; a
    // zero max speed: the velocities' half)
    float blend = ORCA_FLOW_BLEND * mean_max_speed, room = blend - speed;
    if (!(room > 0.0f && vj.x * vj.x + vj.y * vj.y < room * room)) return vshare;
    float w = steer_minf((speed + steer_length(vj)) / blend, 1.0f);
    return w * vshare + (1.0f - w) * (0.5f + 0.5f * queue_ahead(rel_pos, mine, theirs));
}

/// The idle floor: an idle agent (what it wants is under ORCA_IDLE_SPEED
/// times its max speed: steer__reciprocal_steer) takes at least this share
/// of each avoidance, whatever the right of way says (docs/crowds.md, "Idle
/// agents"). One constant for every path: the vector kernels of
/// steer__orca_shares, plain_share, the layered path (reciprocal.c) and
/// the nearer-one-first rule (orca_dest.c).
#define ORCA_IDLE_SHARE 0.5f
static STEER_ALWAYS_INLINE float idle_share(float share, bool idle)
{
    return idle ? steer_maxf(share, ORCA_IDLE_SHARE) : share;
}

/// The recoil: an agent moving against its own wish (its velocity and its
/// preferred velocity as the grid keeps it more than 90 degrees apart:
/// pushed backwards) takes up to this share of the avoidance with a
/// neighbour behind it along that wish (see recoil_share).
#define ORCA_RECOIL_SHARE 0.5f

// The share of an agent of velocity v and wish `mine` (its preferred
// velocity as the grid keeps it) with a neighbour at rel of velocity vj,
// raised by the recoil. The right of way gives a queue to the one behind
// ("the one behind takes it all"), so an agent pushed back (recoiling out
// of its clearance with the one ahead, which braked) saw the one behind as
// taking all of it and moved back into it at its full acceleration. At a
// low acceleration the one behind, still walking up, cannot shed its
// closing speed within the step, and the recoil ran down the file, each
// agent pushed into the next: up to 7 cm deep (issue 21's matrix at an
// acceleration of 3 times the max speed, dt 0.1 s;
// docs/crowds/bounce21.md). So an agent moving backwards takes more of the
// avoidance with one behind it that closes on it, up to half (as the
// paper shares) when that one closes at `shed` or faster: the speed one
// can shed in a step (the agent's own max acceleration times the step, the
// one behind taken to be alike), linearly below it. At a high acceleration
// (shed well above any walking speed) it fades out: the one behind answers
// within the step. Not a fixed half: against a push that does not give way
// (a player backing into a file), a file whose members all held half would
// pass the press to its front instead of backing up (a player backing at
// 0.4 m/s into a file at 1.1 m/s, max acceleration 4.5 m/s^2: 17 cm deep
// with a fixed half, 10 cm without the rule, 10 cm with this one). The
// two shares may add up to more than 1, which only avoids more. An agent
// walking up to a door or a crowd (along its wish) is not touched: its
// avoidance is not widened. Reads the agent's own velocity, the grid's
// copy of its wish and the neighbour's grid record only.
static STEER_ALWAYS_INLINE float recoil_share(float share, steer_vec2 v, steer_vec2 mine, steer_vec2 rel, steer_vec2 vj,
                                              float shed)
{
    if (!(steer_dot(v, mine) < 0.0f && steer_dot(rel, mine) < 0.0f)) return share;
    const float d = steer_length(rel), closes = -steer_dot(vj, rel) / d; // (d > 0: rel . mine < 0)
    const float ramp = closes >= shed ? 1.0f : closes > 0.0f ? closes / shed : 0.0f;
    return steer_maxf(share, ORCA_RECOIL_SHARE * ramp);
}

/// What agent_line takes for each of an agent's neighbours, one array a
/// field, with room past the last neighbour for a group of eight.
#define ORCA_PAIRS_ROOM (STEER_MAX_AVOID_NEIGHBOURS + 8)
typedef struct orca_pairs {
    float rx[ORCA_PAIRS_ROOM], ry[ORCA_PAIRS_ROOM]; ///< relative position, B - A
    float vx[ORCA_PAIRS_ROOM], vy[ORCA_PAIRS_ROOM]; ///< relative velocity, A - B
    float r[ORCA_PAIRS_ROOM];                       ///< combined radius
    float share[ORCA_PAIRS_ROOM];                   ///< A's share of the avoidance
    // what flow_share takes (steer__orca_shares)
    float jx[ORCA_PAIRS_ROOM], jy[ORCA_PAIRS_ROOM]; ///< B's velocity
    float tx[ORCA_PAIRS_ROOM], ty[ORCA_PAIRS_ROOM]; ///< B's preferred velocity as the grid keeps it
    float mean[ORCA_PAIRS_ROOM];                    ///< the pair's mean max speed
    float avoids[ORCA_PAIRS_ROOM];                  ///< 1 when B avoids too (flow_share), 0 (a share of 1)
} orca_pairs;

/// What an agent's pairs are computed from (steer__orca_pairs).
typedef struct orca_pair_frame {
    steer_vec2 p, v;      ///< the agent's position where the new velocity starts to act, its velocity
    float lead;           ///< how far ahead the neighbours' positions are taken (s)
    float r_self, r_cap;  ///< pair_radius's
    float max_speed;
    steer_vec2 wish;      ///< its preferred velocity as the grid keeps it (steer__orca_pairs' mask)
    float radius;         ///< its body's radius (step_radius)
    orca_brake brake;     ///< its braking (orca_braking, step_radius)
} orca_pair_frame;

/// The first k pairs of in from the grid's records of the neighbours near[0..k):
/// for pair i, with b = bodies[near[i].proxy] and vj = (b.vx, b.vy),
///   rel = (b.x, b.y) + vj * lead - p, rx, ry = rel, vx, vy = v - vj,
///   r = step_radius(pair_radius(r_self, r_cap, b.radius), radius + b.radius, lead, rel, v, vj, brake),
///   jx, jy = vj, tx, ty = (b.px, b.py),
///   mean = 0.5 (max_speed + b.max_speed), avoids = 1 when b.max_speed >= 0 (the
///   neighbour avoids: grid_body), else 0 (and then mean is not used),
/// eight at a time with AVX2 (four records' fields a load), else one by one:
/// the same IEEE operations in the same order, so the same bits
/// (tests/c/test_kernel.c). The pairs past k in the last group of eight may
/// be written. Returns the pairs whose neighbour wishes against the agent:
/// bit i (i < k) set when f->wish . (tx, ty)[i] < 0 (the only candidates of
/// the keep-right rule when no agent is opposed: steer__orca_oncoming).
uint64_t steer__orca_pairs(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int k,
                           const orca_pair_frame *f);

/// The shares of agent A (velocity v, speed |v|, preferred velocity mine as
/// the grid keeps it; idle: see steer__reciprocal_steer) with the first k
/// pairs, to in->share: for pair i
///   s = avoids[i] != 0 ? flow_share(rel i, v, speed, (jx, jy)[i], mine, (tx, ty)[i], mean[i]) : 1,
///   then idle_share(s, idle), then recoil_share(s, v, mine, rel i, (jx, jy)[i], shed),
/// eight at a time with AVX2, four with SSE2, else one by one: the same
/// IEEE operations in the same order on every path, so the same bits
/// (tests/c/test_kernel.c; the recoil one by one on every path, for an
/// agent moving against its wish only). The shares past k in the last
/// group of eight may be written.
void steer__orca_shares(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle, float shed);

/// out[i] = agent_line(pair i, inv_tau, inv_dt, v) for i < k (k at most
/// STEER_MAX_AVOID_NEIGHBOURS): eight at a time with AVX2, four with SSE2,
/// else one by one; the same IEEE operations in the same order on every
/// path, so the same bits (tests/c/test_kernel.c).
void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out);

/// Whether pair i may count for the keep-right rule (reciprocal.c, oncoming):
/// it is ahead of the agent (wish . r > 0) and either wishes more than a
/// little wide of 120 degrees against the agent's wish (wt = wish . t < 0 and
/// wt^2 > 0.24 |wish|^2 |t|^2, no square root) or, when some agent is
/// opposed (relay), wishes the same way (wt > 0: it may pass its opposition
/// back). wl is |wish|. oncoming looks only at such pairs (and of those
/// the same way, only at the ones with an opposition to pass back).
static STEER_ALWAYS_INLINE bool oncoming_candidate(const orca_pairs *in, int i, steer_vec2 wish, float wl, bool relay)
{
    const steer_vec2 r = steer_v2(in->rx[i], in->ry[i]), t = steer_v2(in->tx[i], in->ty[i]);
    const float wt = steer_dot(wish, t);
    const bool against = wt < 0.0f && wt * wt > 0.24f * wl * wl * steer_dot(t, t);
    return steer_dot(wish, r) > 0.0f && (against || (relay && wt > 0.0f));
}

/// Bit i (i < k) set when oncoming_candidate(in, i, wish, |wish|, relay): eight
/// pairs at a time with AVX2, four with SSE2, else one by one; the same IEEE
/// operations in the same order on every path, so the same bits
/// (tests/c/test_kernel.c). In a crowd where nothing is opposed it is
/// mostly 0, and oncoming does no work of its own per neighbour.
uint64_t steer__orca_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay);

/// The widest path used: 2 AVX2, 1 SSE2, 0 one by one (as far as the CPU
/// allows; for tests).
void steer__orca_lines_limit(int level);

/// Whether reciprocal.c's gather first tries the distance its last agent's
/// neighbours suggest (the default) or always gathers within the full
/// radius (tests/c/test_reciprocal.c: the same bits either way). For
/// tests, like steer__orca_lines_limit: not thread-safe, call it with no
/// step running.
void steer__orca_gather_guess(bool on);

#endif
