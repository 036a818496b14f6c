// reciprocal.c: reciprocal avoidance, optimal reciprocal collision avoidance
// (ORCA) after van den Berg, Guy, Lin and Manocha, "Reciprocal n-body
// collision avoidance" (2011). Our own code from the paper's method.
//
// The velocity obstacle of agent B for agent A within time tau is the set
// of relative velocities that make the two discs touch before tau: a cone
// from the origin towards the relative position, cut off by a disc of
// radius (rA + rB)/tau around (pB - pA)/tau. u is the smallest change of
// the relative velocity that leaves it, n the outward normal there. ORCA
// permits A the half-plane {v : (v - (vA + share*u)) . n >= 0}: share 1
// when B does not avoid (a player, any agent whose tree has no reciprocal
// avoidance, or one whose mask does not see A's layer); when B avoids too (kinematic or not), the two shares add up
// to 1, and the agent behind (along the pair's mean velocity when they move,
// along their preferred velocities at a crawl) takes more of it (see
// flow_share), unless their priorities differ: then the lower
// takes more, all of it against one ORCA_PRIORITY_SPAN higher (see
// priority_share).
// Static geometry gives one half-plane per part within reach: do not close
// in on its nearest point faster than the gap closes in the obstacle time
// horizon. The velocity chosen is the permitted one nearest the preferred
// velocity (orca_lp.c).
//
// Timing: the notes' integrator moves an agent by its current velocity
// before the new steering changes it (integrate.c), so a steering agent's
// new velocity acts from the end of this step. Positions are therefore
// taken where the current velocities bring every agent by then (p + v*dt);
// a kinematic agent takes its velocity at once, so it uses p.
#include "behaviour.h"
#include "eval.h"
#include "geometry.h"
#include "orca_dest.h"
#include "orca_lines.h"
#include "orca_lp.h"
#include "orca_obstacles.h"
#include "orca_room.h"
#include "orca_settle.h"
#include "orca_turn.h"
#include "world.h"

/// The wish's horizon: with anything to avoid, the preferred velocity is the
/// child's steering applied over the larger of the step and this many seconds
/// (the step the rules' thresholds were set at), so that what an agent wishes
/// for, against what each step's rules add and take, does not halve with the
/// step (docs/crowds/dt21.md); with nothing to avoid, over the step (the
/// child's own steering). A child that brings the agent to rest within the
/// step (an arrive inside its target radius) is not carried past rest.
#define ORCA_WISH_HORIZON 0.1f
/// Deadlock breaking: the preferred velocity turns right by this many
/// radians (a consistent side preference: two agents meeting head-on both
/// keep right)...
#define ORCA_SIDE_BIAS 0.03f
/// ...plus up to this many either way from the agent's random stream, so
/// that exactly symmetric layouts (an antipodal circle) do not stay balanced.
#define ORCA_JITTER 0.02f
/// Two-way traffic (oncoming): as far as the traffic ahead opposes it, the agent
/// adds a velocity of up to this fraction of its max speed to the right of its
/// preferred velocity, so that groups head-on sort into lanes before they meet
/// (docs/crowds/relay21.md). A speed, not a turn: at a crawl a turn asks for
/// almost nothing sideways (docs/crowds/twowaylarge21.md, G).
#ifndef ORCA_ONCOMING_SIDE
#define ORCA_ONCOMING_SIDE 0.17f
#endif
/// Two wishes oppose only when more than acos(-ORCA_ONCOMING_COS) apart
/// (120 degrees): crossing traffic sorts itself without lanes.
#define ORCA_ONCOMING_COS 0.5f
/// Jams: when the half-planes leave nothing, each agent constraint may be
/// violated this fraction of (max_speed - speed) more than the least
/// violation requires, for the sake of the preferred velocity (orca_lp.c).
/// A crowd whose velocities all lock at the least violation never drains
/// through a gap (scripts/scenarios/bottleneck_500: 319 of 500 through in
/// 600 s without it). Zero for an agent at full speed, so that fast
/// encounters keep the plain least violation.
#define ORCA_JAM_GIVE (1.0f / 30.0f)
/// An agent whose preferred speed is below this fraction of its max speed
/// is idle (arrived, waiting): it takes at least half of every avoidance,
/// whatever the right of way says (see avoid_share).
#define ORCA_IDLE_SPEED 0.1f
/// Priority: against a neighbour whose priority is at least this much
/// higher an agent takes all of the avoidance (and the neighbour none); a
/// smaller difference moves the share that far from the right of way's.
#define ORCA_PRIORITY_SPAN 1.0f

/// Yielding a spot: a slow agent whose preferred velocity points (within
/// acos ORCA_YIELD_COS) into a slow avoider it touches (centres within
/// ORCA_YIELD_REACH times the two radii) yields, takes a preferred velocity
/// of zero, when that neighbour has yielded, or wants through it the other
/// way and comes first by key; once yielded, the one it yielded to, at rest
/// on its own spot, keeps it yielded (see yields).
#define ORCA_YIELD_REACH 1.2f
#define ORCA_YIELD_COS 0.5f
/// ...and a preferred velocity counts as pointing somewhere from this
/// fraction of the max speed on (an arrive from rest asks for a tenth of
/// what it wants in the first step: below ORCA_IDLE_SPEED)
#define ORCA_YIELD_INTENT 0.01f
/// Only agents slower than ORCA_YIELD_SLOW (orca_room.h) of their max
/// speed yield, or are yielded to...
/// ...and a yielded agent is assumed to give way at this fraction of its
/// max speed (half that, so that both stay slow while it is pushed)
#define ORCA_YIELD_PUSH 0.1f


// Candidate i of the gather as one 64-bit key: its squared distance's bits
// (a non-negative float orders as its bits) above its place in the gather
// list, so that one comparison orders by distance and then by gather order.
static inline uint64_t closest_key(const float *dist_sq, int i)
{
    uint32_t bits;
    memcpy(&bits, &dist_sq[i], sizeof bits);
    return (uint64_t)bits << 32 | (uint32_t)i;
}

// Insert key c into the sorted key[0..n) (room for n + 1).
static inline void insert_key(uint64_t *key, int n, uint64_t c)
{
    int at = n;
    for (; at > 0 && key[at - 1] > c; --at) key[at] = key[at - 1];
    key[at] = c;
}

// The order "closest" means among agents of several sizes: by the distance
// from the agent's centre to each neighbour's body, not to its centre. By
// centres, a neighbour of radius 2 touching an agent of radius 2 (centres
// 4 m apart) came after ten of radius 0.5 up to 1.5 m from its body, so
// two large agents in a crowd of small ones dropped out of each other's
// ten closest and walked into each other (issue 21, the matrix's
// `junction`: overlaps of 0.78 m with contact resolution off). Written to
// the gather's spare column, as squared distances from the agent's centre
// to a body of the agent's own radius round the neighbour's centre
// (max(d - r_other + r_self, 0)^2; the squared distance itself for a
// neighbour of the agent's own radius), so that the order of equal radii
// is the order of centres, to the bit.
static STEER_NOINLINE const float *body_distances(const eval_ctx *ctx, int found)
{
    eval_scratch *s = ctx->scratch;
    const neighbour_grid *g = ctx->view->grid;
    const float r_self = ctx->lim.radius;
    float *key_of = s->tmp_d2;
    for (int i = 0; i < found; ++i) {
        float r = ctx->view->limits[g->agent[s->proxy[i]]].radius;
        float d = sqrtf(s->dist_sq[i]) - r + r_self;
        key_of[i] = r == r_self ? s->dist_sq[i] : d > 0.0f ? d * d : 0.0f;
    }
    return key_of;
}

/// closest_neighbours shortlists among at most ORCA_CANDIDATES candidates,
/// and orders a shortlist of at most ORCA_SHORTLIST.
#define ORCA_CANDIDATES 256
#define ORCA_SHORTLIST 40

// The k closest neighbours gathered, nearest first. The gather lists
// proxies in the grid's canonical order (bucket, then state), so keeping
// the earlier of two equally distant neighbours (the smaller key) is a
// choice that does not depend on the agents' storage order.
// Most candidates are not among the k (about 28 within 15 m, 10 kept, in
// the disc scene): the candidates within a guessed distance (the last
// agent's k-th, a little further: a neighbour in grid order sees about the
// same density) are shortlisted without a branch and only they are put in
// order, also without a branch (each one's rank: the keys before it,
// steer__neighbour_rank; an insertion sort of the shortlist mispredicted
// and cost steer-bench crowd --scene disc about 400 instructions an agent).
// When the guess holds k or more, the k smallest keys are all in it; else
// (or when the shortlist or the candidates are too many) every candidate
// goes through a sorted list of k. The guess only decides how much work is
// done: same result. `guessed`: the gather itself kept only candidates
// within a guess and found k or more (gather_closest): they are the
// shortlist.
static int closest_neighbours(const eval_ctx *ctx, int found, int k, bool guessed, orca_neighbour *out)
{
    eval_scratch *s = ctx->scratch;
    const float *dist_sq = s->dist_sq;
    if (guessed && found <= ORCA_SHORTLIST) {
        // (not with agents of several sizes: see gather_closest; the keys:
        // room for the ranks' groups of 16)
        uint32_t bits[ORCA_SHORTLIST + 16], order[ORCA_SHORTLIST];
        memcpy(bits, dist_sq, (size_t)found * sizeof *bits);
        steer__neighbour_rank(bits, found, order);
        for (int i = 0; i < k; ++i) out[i] = (orca_neighbour){s->proxy[order[i]], dist_sq[order[i]]};
        s->closest_hint = dist_sq[order[k - 1]] * 1.1f;
        return k;
    }
    // agents of several sizes: the nearest bodies (see body_distances)
    const float *key_of = ctx->view->grid->mixed_radii ? body_distances(ctx, found) : dist_sq;
    if (k > 0 && found > k && found <= ORCA_CANDIDATES) {
        // (the keys: room for the shortlist's groups of 8, and the ranks' of 16)
        uint32_t pick[ORCA_CANDIDATES + 8], bits[ORCA_CANDIDATES + 16];
        int n = steer__neighbour_shortlist(key_of, found, s->closest_hint, pick, bits);
        if (n >= k && n <= ORCA_SHORTLIST) {
            // the shortlist in the order of its keys (the places in pick
            // rise with the places in the gather): the first k are the k
            // nearest
            uint32_t order[ORCA_SHORTLIST];
            steer__neighbour_rank(bits, n, order);
            for (int i = 0; i < k; ++i) {
                uint32_t at = pick[order[i]];
                out[i] = (orca_neighbour){s->proxy[at], dist_sq[at]};
            }
            // the next agent's guess: its k-th neighbour, a tenth further in area
            s->closest_hint = key_of[pick[order[k - 1]]] * 1.1f;
            return k;
        }
    }
    // a bad guess, or few candidates: every candidate through a sorted list of k
    uint64_t key[STEER_MAX_AVOID_NEIGHBOURS];
    int n = 0;
    for (int i = 0; i < found && n < k; ++i, ++n) insert_key(key, n, closest_key(key_of, i));
    for (int i = n; i < found; ++i) {
        uint64_t c = closest_key(key_of, i);
        if (c < key[k - 1]) insert_key(key, k - 1, c); // rarely, once the list is full
    }
    for (int i = 0; i < n; ++i) {
        uint32_t at = (uint32_t)key[i];
        out[i] = (orca_neighbour){s->proxy[at], dist_sq[at]};
    }
    if (n == k && k > 0) s->closest_hint = key_of[(uint32_t)key[k - 1]] * 1.1f;
    return n;
}

/// gather_closest first gathers within this many times the squared distance
/// closest_neighbours guessed (closest_hint, itself a tenth beyond the last
/// agent's k-th).
#define ORCA_GATHER_GUESS 1.1f
/// ...over the guess's own box of cells when that is under this fraction of
/// the radius's squared (the box at most 0.59 times as wide): a jam's (the
/// disc scene's about 6 m of 15: 0.16 to 0.22), not a free crowd's; else
/// over the radius's box. Taken at 0.49 in the free disc scene (its 10th
/// neighbour 10 m off in 15) the guess's box saved 14 instructions an
/// agent-step but cost 1.3 more mispredicted branches (boxes of cells that
/// change from agent to agent, which the grid's one-entry cache of ranges
/// then rebuilds) and about 5% of its CPU time.
#define ORCA_GATHER_NARROWER 0.35f

// The gather for closest_neighbours: first within the distance the last
// agent's k-th neighbour suggests (a neighbour in grid order sees about the
// same density), over a box of cells smaller than the full radius's when
// the guess is much shorter (cells as wide as the look distance: about 4
// instead of 9 in the disc scene's jam), then, when that holds fewer than
// k, within the full radius. Same result: with k or more within the guess,
// the k closest within the radius are those k, and a gather lists
// candidates in the grid's canonical order whatever its box, so ties break
// the same way. *guessed: the first gather found k or more (then
// closest_neighbours needs no shortlist of its own: in the free disc crowd
// about 99 agents in 100). Not for agents of several sizes (their order is
// by bodies: see body_distances). gather_guess is off only in a test
// (steer__orca_gather_guess).
static bool gather_guess = true;

void steer__orca_gather_guess(bool on) { gather_guess = on; }

static int gather_closest(eval_ctx *ctx, float radius, int k, bool *guessed)
{
    const float guess = ctx->scratch->closest_hint * ORCA_GATHER_GUESS, r2 = radius * radius;
    *guessed = false;
    if (k > 0 && guess > 0.0f && guess < r2 && !ctx->view->grid->mixed_radii && gather_guess) {
        const float within = sqrtf(guess);
        int found = steer__context_gather_within(ctx, guess < ORCA_GATHER_NARROWER * r2 ? within : radius, within);
        if (found >= k) {
            *guessed = true;
            return found;
        }
    }
    return steer__context_gather(ctx, radius);
}

// Priority: A's share with B moves from the right of way's share towards 1
// when B's priority is higher, towards 0 when it is lower, linearly in the
// difference, all the way at ORCA_PRIORITY_SPAN. B's share with A moves the
// other way by the same fraction, so the two still add up to 1. Priorities
// are settings, not velocities: a difference of one gives all of it whatever
// the velocity noise, and the same for every agent order. The one that
// takes none ignores the other (steer__reciprocal_steer).
static float priority_share(float share, float mine, float theirs)
{
    // (finite priorities: the difference is finite or infinite, never NaN)
    float dp = steer_clampf((theirs - mine) * (1.0f / ORCA_PRIORITY_SPAN), -1.0f, 1.0f);
    if (dp > 0.0f) return share + dp * (1.0f - share);
    if (dp < 0.0f) return share + dp * share;
    return share;
}

// Contention for one spot (issue 21). Two agents that want the same point,
// or through each other at a standstill, press into each other for ever:
// ORCA shares the avoidance, and from rest nobody ever gives ground (at the
// clearance distance the half-planes pass through both velocities). So a
// slow agent yields to a slow avoider j it touches and wants to go into
// (`want`, the change of velocity it asks for, points at j) when
// - j has not yielded itself, wants back into it (a standoff) and j comes
//   first (steer__orca_comes_first: by key, which velocity noise cannot
//   flip; at a shared point the nearer one, orca_dest.h): it yields to j;
// - or it yielded last time to j, and j is idle (at rest on the spot: the
//   loser stays beside the winner). Only to j: before, any idle agent
//   touching it in its way kept the old yield, so that an agent stayed
//   yielded to one long gone through an exit (for 12 s and more), and
//   neither yielded to nor pushed by the one actually in its way.
// Yielding is not passed on: an agent that yielded is no reason for others
// to yield (tried: a gathering came to rest, but loosely, and round an exit
// agents that had yielded to one gone through held each other up).
// Yielding does not stop the agent: it gives up only what it wants into
// those it yields to (yield_slide), so it walks round a single one (an
// agent on its own goal, in a field of goals) and comes to rest in a pocket
// between two, or straight behind one. The winner pushes it off the spot
// (yield_lines). Any new order that no longer points into a touching
// neighbour, or the neighbour moving off, ends the yield at once.
// Everything read of j is the grid's copy from before the step. Returns the key
// yielded to (the first), or 0; their directions go to `away` (at most ORCA_YIELD_MAX).
#define ORCA_YIELD_MAX 8
static STEER_NOINLINE uint64_t yields(const eval_ctx *ctx, const orca_neighbour *near, int k, steer_vec2 want, float speed,
                       steer_vec2 dest, steer_vec2 *away, int *n_away)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    *n_away = 0;
    if (speed >= ORCA_YIELD_SLOW * ctx->lim.max_speed || ctx->self_proxy >= (uint32_t)g->count) return 0;
    const steer_vec2 me = ctx->me.position;
    const uint64_t mine = ctx->key, was = g->yield_to[ctx->self_proxy];
    const float want_len = steer_length(want);
    uint64_t first = 0;
    for (int i = 0; i < k && *n_away < ORCA_YIELD_MAX; ++i) {
        uint32_t q = near[i].proxy;
        steer_vec2 rel = steer_sub(steer_v2(g->x[q], g->y[q]), me);
        // not in the way, told first and without a square root: the test
        // below, for d > 0 and a finite or infinite want_len (a NaN in either
        // gives a NaN dot); the tests have no side effects, so their order
        // changes no result
        if (steer_dot(want, rel) <= 0.0f) continue;
        uint32_t j = g->agent[q];
        if (!(view->flags[j] & AGENT_AVOIDS) || g->yield_to[q] == mine) continue;
        float reach = ORCA_YIELD_REACH * (ctx->lim.radius + view->limits[j].radius), d = steer_length(rel);
        if (d >= reach || d <= 0.0f) continue;
        if (steer_dot(want, rel) <= ORCA_YIELD_COS * want_len * d) continue; // not in the way
        float slow_j = ORCA_YIELD_SLOW * view->limits[j].max_speed;
        if (g->vx[q] * g->vx[q] + g->vy[q] * g->vy[q] >= slow_j * slow_j) continue; // it is moving
        if (g->yield_to[q] != 0) continue; // it gave way itself
        uint64_t to = 0;
        steer_vec2 ij = steer_v2(g->ix[q], g->iy[q]);
        float ij_len = steer_length(ij);
        if (was != 0 && view->key[j] == was && ij_len < ORCA_IDLE_SPEED * view->limits[j].max_speed) {
            to = was; // still beside the one it yielded to (only that one: see above)
        } else if (ij_len >= ORCA_YIELD_INTENT * view->limits[j].max_speed &&
                   -steer_dot(ij, rel) > ORCA_YIELD_COS * ij_len * d && steer__orca_comes_first(ctx, q, j, dest)) {
            to = view->key[j];
        }
        if (to == 0) continue;
        away[(*n_away)++] = steer_scale(rel, 1.0f / d);
        first = first != 0 && first < to ? first : to;
    }
    return first;
}

// A yielding agent's preferred velocity without what it had into those it
// yields to (unit directions `away`): projected off each in turn, twice
// round; whatever still points into one of them (a pocket) is dropped.
static steer_vec2 yield_slide(steer_vec2 preferred, const steer_vec2 *away, int n)
{
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            float into = steer_dot(preferred, away[i]);
            if (into > 0.0f) preferred = steer_mul_add(preferred, away[i], -into);
        }
    }
    for (int i = 0; i < n; ++i) {
        if (steer_dot(preferred, away[i]) > 1e-6f) return steer_v2(0.0f, 0.0f);
    }
    return preferred;
}

// The share with avoider j adjusted for layers and priorities: j avoids
// this agent only if it sees it (layers are one-way; floors are not), and
// their priorities move the share (priority_share).
static float adjusted_share(const eval_ctx *ctx, uint32_t j, float share)
{
    const eval_view *view = ctx->view;
    if (!(view->flags[j] & AGENT_AVOIDS)) return share;
    if (view->filtered && (view->filter[ctx->self].layer & view->filter[j].mask) == 0) return 1.0f;
    return view->prioritised ? priority_share(share, view->priority[ctx->self], view->priority[j]) : share;
}

// A grid filled without its records (grid.h, grid_body: the step before
// had no agent that avoids, or a preview): the records of the k neighbours
// from the grid's columns and the agents' limits and flags, as the fill
// writes them.
static STEER_NOINLINE uint64_t pairs_from_columns(const eval_ctx *ctx, const orca_neighbour *near, int k,
                                                  const orca_pair_frame *f, orca_pairs *pairs)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    grid_body body[STEER_MAX_AVOID_NEIGHBOURS];
    orca_neighbour at[STEER_MAX_AVOID_NEIGHBOURS];
    for (int i = 0; i < k; ++i) {
        uint32_t q = near[i].proxy, j = g->agent[q];
        body[i] = steer__grid_body(g->x[q], g->y[q], g->vx[q], g->vy[q], g->px[q], g->py[q], &view->limits[j],
                                   view->flags[j], AGENT_AVOIDS);
        at[i] = (orca_neighbour){(uint32_t)i, near[i].d2};
    }
    return steer__orca_pairs(pairs, body, at, k, f);
}

// What the half-planes of an agent's neighbours are computed from.
typedef struct orca_frame {
    steer_vec2 p, v;
    float speed, lead, max_speed, r_self, r_cap, inv_tau, inv_dt;
    bool idle;
    steer_vec2 wish; ///< the agent's preferred velocity as the neighbours see it (flow_share)
    orca_brake brake; ///< its braking (step_radius)
} orca_frame;

// The neighbours' half-planes again, with their shares adjusted for layers
// and priorities (adjusted_share): the same computation as the loop of
// steer__reciprocal_steer, which stays without it because a test of a
// false flag there cost steer-bench crowd 2% more instructions (and made
// a function of the two, called from both, did not inline). Out of line
// for the same reason.
static STEER_NOINLINE void adjust_lines(const eval_ctx *ctx, const orca_neighbour *near, int k, const orca_frame *f,
                                        orca_line *lines)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    for (int i = 0; i < k; ++i) {
        uint32_t q = near[i].proxy, j = g->agent[q];
        steer_vec2 vj = steer_v2(g->vx[q], g->vy[q]);
        steer_vec2 rel = steer_sub(steer_mul_add(steer_v2(g->x[q], g->y[q]), vj, f->lead), f->p);
        float mean_max = 0.5f * (f->max_speed + view->limits[j].max_speed);
        float share = (view->flags[j] & AGENT_AVOIDS)
                          ? flow_share(rel, f->v, f->speed, vj, f->wish, steer_v2(g->px[q], g->py[q]), mean_max)
                          : 1.0f;
        share = adjusted_share(ctx, j, recoil_share(share, f->v, f->wish, rel, vj, ctx->lim.max_acceleration * ctx->dt));
        share = idle_share(share, f->idle);
        const float rj = view->limits[j].radius;
        const float r = step_radius(pair_radius(f->r_self, f->r_cap, rj), ctx->lim.radius + rj, f->lead, rel, f->v, vj,
                                    f->brake);
        lines[i] = agent_line(rel, steer_sub(f->v, vj), r, f->inv_tau, f->inv_dt, f->v, share);
    }
}

// Neighbours much lower in priority (by ORCA_PRIORITY_SPAN or more) that
// avoid and see this agent take all of the avoidance: this agent ignores
// them (unless it is idle). Kept at a share of 0, their half-planes would
// pass through its velocity and pin it wherever the step left it, off its
// way, inside a crowd (docs/crowds.md, priority). Order kept.
static int drop_much_lower(const eval_ctx *ctx, orca_neighbour *near, int k)
{
    const eval_view *view = ctx->view;
    const float mine = view->priority[ctx->self];
    int kept = 0;
    for (int i = 0; i < k; ++i) {
        uint32_t j = view->grid->agent[near[i].proxy];
        bool reciprocates = (view->flags[j] & AGENT_AVOIDS) &&
                            (!view->filtered || (view->filter[ctx->self].layer & view->filter[j].mask) != 0);
        near[kept] = near[i];
        kept += !(reciprocates && (mine - view->priority[j]) * (1.0f / ORCA_PRIORITY_SPAN) >= 1.0f);
    }
    return kept;
}

// The pairs of a yield (see yields): against a neighbour that yielded to
// this agent, the half-plane is built as if that neighbour were already
// moving away at its idle speed (a yielded agent gives way), and this agent
// takes all of it: so a winner standing at the clearance distance can push
// the loser off the spot, at most that much faster than it gives way. An
// agent that yielded takes all of the avoidance of the one it yielded to.
// Out of line: in a crowd without yields it only compares keys.
static STEER_NOINLINE void yield_lines(const eval_ctx *ctx, const orca_neighbour *near, int k, const orca_frame *f,
                                       uint64_t yielded, orca_line *lines)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    for (int i = 0; i < k; ++i) {
        uint32_t q = near[i].proxy, j = g->agent[q];
        bool pushes = g->yield_to[q] == ctx->key, gives = yielded != 0 && view->key[j] == yielded;
        if (!pushes && !gives) continue;
        steer_vec2 vj = steer_v2(g->vx[q], g->vy[q]);
        steer_vec2 rel = steer_sub(steer_mul_add(steer_v2(g->x[q], g->y[q]), vj, f->lead), f->p);
        float d = steer_length(rel);
        if (pushes && d > 0.0f) {
            // its velocity along the line of centres replaced by the push
            steer_vec2 n = steer_scale(rel, 1.0f / d);
            vj = steer_mul_add(vj, n, ORCA_YIELD_PUSH * view->limits[j].max_speed - steer_dot(vj, n));
        }
        // (a settled pair's margin: orca_settle.h)
        const float rb = ctx->lim.radius + view->limits[j].radius;
        // (0 while its own level is: world.h, rest_held)
        const float lvl = (ctx->rest_marks & 1) ? steer__orca_pair_level(view, ctx->self, (int)j) : 0.0f;
        const float r = steer__orca_settle_radius(pair_radius(f->r_self, f->r_cap, view->limits[j].radius), rb, lvl);
        lines[i] = agent_line(rel, steer_sub(f->v, vj), r, f->inv_tau, f->inv_dt, f->v, 1.0f);
    }
}

// Whether the preferred behaviour goes to a target (its destination).
static bool has_destination(const steer_behaviour_def *pref)
{
    switch (pref->type) {
    case STEER_SEEK:
    case STEER_ARRIVE:
    case STEER_KINEMATIC_SEEK:
    case STEER_KINEMATIC_ARRIVE:
    case STEER_PURSUE:
    case STEER_NAVIGATE:
        return true;
    default:
        return false;
    }
}

// The agent's destination as its neighbours read it (oncoming): the target
// of its preferred behaviour when that has one (`goes`: has_destination),
// else where it is (an agent going nowhere opposes nobody).
static STEER_ALWAYS_INLINE steer_vec2 destination(const eval_ctx *ctx, const steer_behaviour_def *pref, bool goes)
{
    if (goes) {
        // (a point: steer__context_target's position, without the call;
        // finite: every way a target is set checks it)
        if (pref->target.kind == STEER_TARGET_POINT) return pref->target.point;
        target_state t;
        if (steer__context_target(ctx, &pref->target, &t) && steer_vec2_is_finite(t.position)) return t.position;
    }
    return ctx->me.position;
}

// The agent's settling state into the step's buffer (world.h, orca_rest):
// where it may not be all 0 (`held`: settled, or its level of the step
// before above 0; else every field is 0), or the one there may not
// (rest_held's bit 1), or this evaluation wrote one already (a second
// reciprocal_avoidance node's replaces it); else the 0 there stays.
static inline void write_rest(eval_ctx *ctx, bool held, orca_rest r)
{
    ctx->rest_now = held;
    if (held || (ctx->rest_marks & 2) || ctx->rest_written) {
        *ctx->rest = r;
        ctx->rest_written = true;
    }
}

// Two-way traffic: how much the traffic ahead opposes the agent, in [0, 1]
// (its wish and the neighbours' wishes are the grid's copies of the step
// before, their destinations and oppositions the courses the step before
// wrote (world.h, orca_course): every agent order and worker count reads
// the same).
// Only neighbours the agent wants to get past count: its own destination
// lies beyond them (by more than their two bodies; an agent about to stop
// short of them does not turn). A neighbour ahead whose wish is more than
// 120 degrees from the agent's opposes it only if it wants to get past the
// agent too: its destination lies behind the agent (by more than their two
// bodies), not between them (two agents converging on one point do not
// oppose: they would orbit it). Its weight: how far beyond 120 degrees, how
// fast both wish, how much it is ahead. A neighbour ahead wishing the same
// way passes its own opposition back, scaled by how much it is ahead and
// the same way, so that the whole group turns, not only its front (crowds/relay21.md).
// The pairs that fail the first test (oncoming_candidate, orca_lines.h) are
// found several at a time (steer__orca_oncoming) and skipped: in a crowd
// where no wishes oppose, the loop body never runs.
// Without the relay only a neighbour wishing against the agent can count:
// none (`against`, from steer__orca_pairs), nothing to look at.
static float oncoming(const eval_view *view, const orca_neighbour *near, int k, const orca_pairs *pairs,
                      uint64_t against, steer_vec2 p, steer_vec2 wish, int me)
{
    const bool relay = view->opposed; // (else none has any to pass back)
    if (!relay && against == 0) return 0.0f;
    uint64_t left = steer__orca_oncoming(pairs, k, wish, relay);
    if (left == 0) return 0.0f;
    const float wl = steer_length(wish);
    if (!(wl > 0.0f)) return 0.0f;
    // (the courses by dense index: the neighbours' through the grid's agent column)
    const orca_course *course = view->course;
    const uint32_t *agent = view->grid->agent;
    const steer_vec2 mine = steer_v2(course[me].dx, course[me].dy);
    float opp = 0.0f;
    for (; left != 0; left &= left - 1) {
        // a candidate: ahead, and against the agent or (relay) the same way
        const int i = __builtin_ctzll(left);
        const orca_course *cj = &course[agent[near[i].proxy]];
        const steer_vec2 r = steer_v2(pairs->rx[i], pairs->ry[i]), t = steer_v2(pairs->tx[i], pairs->ty[i]);
        const float wt = steer_dot(wish, t);
        if (wt > 0.0f && !(cj->opp > 0.0f)) continue; // the same way, nothing to pass back
        const float d = steer_length(r), tl = steer_length(t);
        if (!(d > 0.0f && tl > 0.0f)) continue;
        const float ahead = steer_dot(wish, r) / (wl * d), c = wt / (wl * tl);
        if (!(ahead > 0.0f) || !(steer_dot(steer_sub(mine, p), r) > (d + pairs->r[i]) * d)) continue;
        if (c < -ORCA_ONCOMING_COS) {
            const steer_vec2 dest = steer_v2(cj->dx, cj->dy);
            if (steer_dot(steer_sub(dest, p), r) >= -pairs->r[i] * d) continue;
            const float beyond = (-c - ORCA_ONCOMING_COS) / (1.0f - ORCA_ONCOMING_COS);
            opp = steer_maxf(opp, steer_minf(-c * beyond * tl * wl * wl * ahead, 1.0f));
        } else if (c > 0.0f) {
            opp = steer_maxf(opp, c * ahead * cj->opp);
        }
    }
    return opp;
}

bool steer__reciprocal_steer(eval_ctx *ctx, const steer_behaviour_def *d, const steer_behaviour_def *pref, bool has,
                             steer_steering child, steer_steering *out)
{
    if (ctx->dt <= 0.0f) {
        // nothing moves in a zero step: no constraint to compute
        *out = child;
        return has;
    }
    // the neighbours first: no value computed below is kept across these
    // calls (their registers would be saved and restored round each)
    orca_neighbour near[STEER_MAX_AVOID_NEIGHBOURS];
    bool guessed;
    int found = gather_closest(ctx, d->radius, (int)d->max_neighbours, &guessed);
    int k = closest_neighbours(ctx, found, (int)d->max_neighbours, guessed, near);

    const float dt = ctx->dt, max_speed = ctx->lim.max_speed;
    const steer_vec2 v = ctx->me.velocity;
    // where everyone is when the new velocity starts to act (see the top)
    const float lead = ctx->kinematic ? 0.0f : dt;
    const steer_vec2 p = steer_mul_add(ctx->me.position, v, lead);
    orca_line lines[ORCA_MAX_LINES];
    // (out of line: a crowd without shapes only tests the pointer)
    int hard = ctx->view->geometry != NULL ? steer__orca_obstacle_lines(ctx, d, p, lines) : 0;
    int count = hard;

    // the preferred velocity: the child's steering applied over the step,
    // or over ORCA_WISH_HORIZON if longer when there is anything to avoid
    // (what the rules below read of the wish then does not hinge on the
    // step), or a kinematic child's velocity (the caller evaluated the child)
    float over = dt;
    if (k + hard > 0 && !ctx->kinematic && dt < ORCA_WISH_HORIZON) {
        // no further than its acceleration reaches within the step, so the
        // answer stays reachable (a child at its max acceleration, a seek,
        // keeps its step); a child that brings the agent to rest within the
        // step (an arrive inside its target radius): at rest, not past it
        const float al = steer_length(child.linear), amax = ctx->lim.max_acceleration;
        const bool rests = steer_length_sq(steer_mul_add(v, child.linear, dt)) <= 1e-8f * steer_length_sq(v);
        if (al < 0.999f * amax && !rests) over = steer_minf(ORCA_WISH_HORIZON, amax * dt / al);
    }
    steer_vec2 preferred = ctx->kinematic ? child.linear : steer_mul_add(v, child.linear, over);
    preferred = steer_clamp_length(preferred, max_speed);
    // its destination (published in its course, read by the rules below)
    const bool goes = has_destination(pref);
    const steer_vec2 dest = destination(ctx, pref, goes);
    // a fixed destination inside the circle the agent turns on: less across
    // (turnable; a kinematic agent turns at once, a moving target with it)
    if (!ctx->kinematic && pref->target.kind == STEER_TARGET_POINT && goes)
        preferred = steer__orca_turnable(preferred, steer_sub(dest, p), ctx->lim.max_acceleration);

    const neighbour_grid *g = ctx->view->grid;
    const float inv_tau = 1.0f / d->time_horizon, inv_dt = 1.0f / dt, r_self = ctx->lim.radius * ORCA_CLEARANCE;
    const float r_cap = ctx->lim.radius + ORCA_CLEARANCE_MAX;
    const float speed = steer_length(v);
    const float idle_speed = ORCA_IDLE_SPEED * max_speed;
    bool idle = steer_length_sq(preferred) < idle_speed * idle_speed;
    // the intent: the change of velocity the agent asks for (its direction
    // is where it wants to go even while it is pushed the other way)
    const steer_vec2 want = steer_sub(preferred, v);
    // (only a slow agent yields: out of line, and not called otherwise)
    const bool intends = speed < ORCA_YIELD_SLOW * max_speed &&
                         steer_length_sq(want) >= ORCA_YIELD_INTENT * ORCA_YIELD_INTENT * max_speed * max_speed;
    steer_vec2 away[ORCA_YIELD_MAX];
    int n_away = 0;
    const uint64_t yielded = intends ? yields(ctx, near, k, want, speed, dest, away, &n_away) : 0;
    if (ctx->intent != NULL) {
        // the preferred velocity for the queue's right of way (flow_share),
        // as a direction shortened below ORCA_SHARE_FLOOR of the max speed
        float unit = steer_maxf(steer_length(preferred), ORCA_SHARE_FLOOR * max_speed);
        steer_vec2 dir = steer_scale(preferred, 1.0f / unit);
        if (!steer_vec2_is_finite(dir)) dir = steer_v2(0.0f, 0.0f);
        const uint32_t lo = (uint32_t)yielded, hi = (uint32_t)(yielded >> 32);
        *ctx->intent = (orca_intent){want.x, want.y, lo, hi, dir.x, dir.y};
    }
    // settling at a shared point (orca_settle.h; only a slow agent asking
    // for little can be settled: the call is skipped otherwise)
    orca_settling st = {false, false, 0.0f, 0.0f, 0.0f, 0.0f, {0.0f, 0.0f}};
    bool settled = false;
    if (speed < ORCA_SETTLE_SLOW * max_speed) {
        const float asks = steer_length(preferred);
        if (asks < ORCA_SETTLE_WISH * max_speed)
            settled = steer__orca_settled(ctx, near, k, dest, asks, r_self, r_cap, &st);
    }
    const bool fresh = st.fresh, pocket = st.pocket;
    const steer_vec2 push = st.push;
    if (ctx->course != NULL) {
        // its destination, its count and pressing; its opposition and
        // settling level below (0 without neighbours)
        *ctx->course = (orca_course){dest.x, dest.y, 0.0f};
        ctx->course_written = true;
    }
    float level = 0.0f; // its settling level (written at the end: write_rest)
    if (yielded != 0) {
        // what it asks for, not its velocity: being pushed round, it would
        // keep going round
        preferred = yield_slide(want, away, n_away);
        idle = steer_length_sq(preferred) < idle_speed * idle_speed;
    }
    // an idle agent in the way of one that wants past it steps aside
    // (steer__orca_make_room, orca_room.c); it stays idle for its shares
    if (idle && yielded == 0 && ctx->view->course != NULL && ctx->self_proxy < (uint32_t)g->count)
        preferred = steer__orca_make_room(ctx, dest, near, k, preferred);
    if (ctx->view->prioritised && !idle) k = drop_much_lower(ctx, near, k);
    // its own preferred velocity as the neighbours read it (flow_share):
    // the grid's copy, so that each pair's two shares use the same values
    const bool listed = ctx->self_proxy < (uint32_t)g->count;
    const steer_vec2 wish = listed ? steer_v2(g->px[ctx->self_proxy], g->py[ctx->self_proxy]) : steer_v2(0.0f, 0.0f);
    // what each neighbour's share and half-plane are computed from (from
    // the grid's records of them), then the shares and the half-planes,
    // each several at a time (orca_lines.c: flow_share's and agent_line's
    // bits)
    orca_pairs pairs;
    const orca_brake brake = orca_braking(lead, ctx->lim.max_acceleration, dt);
    const orca_pair_frame frame = {p, v, lead, r_self, r_cap, max_speed, wish, ctx->lim.radius, brake};
    const uint64_t against = g->has_bodies ? steer__orca_pairs(&pairs, g->bodies, near, k, &frame)
                                           : pairs_from_columns(ctx, near, k, &frame, &pairs);
    steer__orca_shares(&pairs, k, v, speed, wish, idle, ctx->lim.max_acceleration * dt);
    // (not with layers or priorities in use: adjust_lines rebuilds the lines)
    if (listed && goes && ctx->course != NULL && ctx->view->course != NULL && !ctx->view->filtered &&
        !ctx->view->prioritised && steer__orca_dest_within_reach(ctx, near, k, dest, &pairs))
        steer__orca_shared_destination(ctx, near, k, idle, dest, &pairs);
    steer__orca_agent_lines(&pairs, k, inv_tau, inv_dt, v, lines + count);
    // a settled agent's pairs of the same destination (not with layers or
    // priorities in use: their lines are rebuilt below with the clearance)
    uint64_t stiff = 0;
    // its level (0 where its state is: rest_held's bit 0)
    const float was = listed && (ctx->rest_marks & 1) ? ctx->view->rest[ctx->self].rest : 0.0f;
    if (was > 0.0f && !ctx->view->filtered && !ctx->view->prioritised)
        stiff = steer__orca_settle_lines(ctx, near, k, &pairs, v, speed, inv_tau, inv_dt, fresh, pocket,
                                         lines + count);
    count += k;
    // layers or priorities in use: the same lines with adjusted shares
    if (ctx->view->filtered || ctx->view->prioritised) {
        const orca_frame f = {p, v, speed, lead, max_speed, r_self, r_cap, inv_tau, inv_dt, idle, wish, brake};
        adjust_lines(ctx, near, k, &f, lines + hard);
    }
    if ((yielded != 0 || g->yielders > 0) && ctx->self_proxy < (uint32_t)g->count) {
        const orca_frame f = {p, v, speed, lead, max_speed, r_self, r_cap, inv_tau, inv_dt, idle, wish, brake};
        yield_lines(ctx, near, k, &f, yielded, lines + hard);
    }
    if (hard > 0) {
        // alone at a shape: slide along it (no neighbour within twice the
        // distance the two would keep)
        float keep = k > 0 ? 2.0f * pair_radius(r_self, r_cap, ctx->view->limits[g->agent[near[0].proxy]].radius) : 0.0f;
        if (k == 0 || near[0].d2 > keep * keep) preferred = steer__orca_slide_along_shapes(lines, hard, preferred);
    }

    if (count > 0) {
        // symmetric deadlocks (two agents head-on, a circle of them, an agent
        // square on to a wall): keep right, with a little noise of our own
        // stream; nothing to avoid, nothing changed
        // (a small angle: sin t ~ t and cos t ~ 1 - t^2/2 to 1e-7); more
        // to the right as far as traffic ahead opposes it (oncoming)
        const float turn = -ORCA_SIDE_BIAS + ORCA_JITTER * steer__rng_binomial(ctx->rng);
        const float opp = listed ? oncoming(ctx->view, near, k, &pairs, against, p, wish, ctx->self) : 0.0f;
        if (ctx->course != NULL) ctx->course->opp = opp;
        // (opposed or settled, never both)
        if (ctx->course != NULL && !(opp > 0.0f) && listed)
            level = steer__orca_settle_level(was, settled);
        // (an opposed seek or arrive leans instead: steer__orca_lean)
        const bool leans = opp > 0.0f && steer__orca_straight(pref->type);
        const steer_vec2 to_dest = steer_sub(dest, ctx->me.position);
        const float to_len = leans ? steer_length(to_dest) : 0.0f, pl = leans ? steer_length(preferred) : 0.0f;
        const bool lean = pl > 0.0f && to_len > ORCA_LEAN_NEAR;
        if (!lean) preferred = steer__orca_turned(preferred, 1.0f - 0.5f * turn * turn, turn);
        if (opp > 0.0f) {
            // (counted for the world's `opposed`, step.c: a tree writing
            // twice may count twice, which costs time only); a step to the
            // right at a speed of its own (at a crawl too), faded within a
            // horizon's travel of the destination
            if (ctx->course != NULL) ++ctx->scratch->opposed;
            const float reach = d->time_horizon * max_speed, left = steer_length(steer_sub(dest, p));
            const float fade = left < reach ? left / reach : 1.0f, tl = lean ? pl : steer_length(preferred);
            if (lean) {
                // by ORCA_LEAN, down to the side bias within that travel;
                // held up, not pressing ahead (steer__orca_unpressed)
                const float angle = (ORCA_LEAN - ORCA_SIDE_BIAS) * (to_len < reach ? to_len / reach : 1.0f) - turn;
                const float side = ORCA_ONCOMING_LEAN * opp * max_speed * fade;
                const steer_vec2 ahead = steer_scale(to_dest, 1.0f / to_len);
                preferred = steer__orca_unpressed(preferred, v, ahead, ORCA_PRESS * max_speed);
                preferred = steer__orca_lean(preferred, to_dest, to_len, pl * angle + side, lines, hard);
            } else if (tl > 0.0f) {
                const float side = ORCA_ONCOMING_SIDE * opp * max_speed * fade;
                preferred = steer_mul_add(preferred, steer_v2(preferred.y, -preferred.x), side / tl);
                preferred = steer_clamp_length(preferred, max_speed);
            }
        }
    }
    if (ctx->course != NULL)
        write_rest(ctx, settled || was > 0.0f, (orca_rest){level, st.press, st.mass, st.heap, st.supports});
    // pressed by outer agents of its heap (orca_settle.h; not with layers
    // or priorities in use, as the resting half-planes)
    if ((push.x != 0.0f || push.y != 0.0f) && !ctx->view->filtered && !ctx->view->prioritised)
        preferred = steer_clamp_length(steer_add(preferred, push), max_speed);
    float give = ORCA_JAM_GIVE * steer_maxf(max_speed - speed, 0.0f);
    steer_vec2 chosen = steer__orca_lp_solve(lines, count, hard, max_speed, preferred, give, stiff);
    // extreme settings (a horizon of 1e-30 s, a step of 1e-30 s) overflow the
    // half-planes: then stop rather than let a non-finite velocity out
    if (!steer_vec2_is_finite(chosen)) chosen = steer_v2(0.0f, 0.0f);

    if (ctx->kinematic) {
        out->linear = chosen;
    } else {
        // the acceleration that reaches the chosen velocity within the step
        // (in double: a tiny step must not make 0 * inf out of an unchanged
        // component; a zero step asks for nothing)
        out->linear = dt > 0.0f ? steer__over_time(chosen, v, dt, ctx->lim.max_acceleration) : steer_v2(0.0f, 0.0f);
        if (!steer_vec2_is_finite(out->linear)) out->linear = steer_v2(0.0f, 0.0f);
    }
    out->angular = child.angular;
    return true;
}
