// eval.h: what a behaviour family sees while a behaviour is evaluated for
// one agent: the evaluation context, the read-only view of the step (other
// agents, the neighbour grid, the static geometry, formation slot targets),
// and the services of the context (targets, neighbours, scratch). Family
// files read everything through the view, never through the world's
// internals, and start no evaluation of their own.
#ifndef STEER_EVAL_H
#define STEER_EVAL_H

#include "behaviour.h"
#include "core.h"
#include "grid.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// AGENT_AVOIDS: the agent avoids reciprocally (its tree has a
/// reciprocal_avoidance node, kinematic or not); refreshed before
/// every evaluation pass (step.c).
/// AGENT_TRACE: the agent records what its evaluation computed (trace.c).
/// AGENT_NAVIGATES: the agent's tree has a navigate node (its plan is
/// brought up to date in prepare); refreshed with AGENT_AVOIDS.
enum { AGENT_KINEMATIC = 1, AGENT_FACE_VELOCITY = 2, AGENT_AVOIDS = 4, AGENT_TRACE = 8, AGENT_NAVIGATES = 16 };

/// A formation member's slot target, by agent slot index: written by the
/// formations whenever they compute targets (before the evaluation pass,
/// and when membership or assignment changes), cleared when the agent
/// leaves its formation; read by the formation_slot behaviour.
typedef struct slot_target {
    steer_formation_id formation; ///< {0}: the agent is in no formation
    bool has_target;              ///< the formation has a reference to place the slot
    float orientation;
    steer_vec2 position, velocity;
} slot_target;

/// Read-only arrays of the step, shared by every evaluation: agents in
/// dense order, their grid proxies, the static geometry, formation slot
/// targets. Filled before the evaluation pass.
typedef struct eval_view {
    const steer_kinematic *state;
    const steer_limits *limits;
    const uint64_t *key;
    /// per-agent flags (AGENT_*): AGENT_AVOIDS is set before the
    /// pass for agents whose tree has a reciprocal_avoidance node, so no
    /// evaluation looks into another agent's tree
    const uint8_t *flags;
    const agent_filter *filter; ///< layers, masks, vertical extents (core.h)
    const float *priority;      ///< reciprocal avoidance's right of way
    bool prioritised;           ///< some agent's priority is not 0
    /// some agent's filter is not the default: neighbour scans test filters
    /// (while false they skip the test, and every agent sees every other)
    bool filtered;
    const neighbour_grid *grid;
    /// the static shapes with their broadphase ready (geometry.h,
    /// raycast.h), or NULL when the world has none
    const struct steer_geometry *geometry;
    /// the agents' destinations and oppositions by dense index (world.h,
    /// orca_course): during a step, what the step before wrote
    const struct orca_course *course;
    bool opposed; ///< some agent's course has an opposition (world.h, opposed)
    /// the agents' settling states (world.h, orca_rest), the step before's;
    /// while `settling` is false all are 0 and the rules skip them
    const struct orca_rest *rest;
    bool settling;
    const uint32_t *slot_of; ///< dense index -> agent slot index
    const slot_target *slot_targets; ///< by agent slot index, slot_target_count entries
    int slot_target_count;
    /// navigate's plans by dense index (navigate.h); an agent's evaluation
    /// reads and advances its own only
    struct nav_plan *const *plan;
} eval_view;

/// Neighbours gathered for one agent: proxy indices and squared distances,
/// in canonical order.
typedef struct eval_scratch {
    uint32_t *proxy;
    float *dist_sq;
    float *tmp_d2; ///< candidates of one range, before compaction
    /// neighbours packed by steer__neighbour_sums: offsets, squared
    /// distances, velocities
    float *pack_dx, *pack_dy, *pack_d2, *pack_vx, *pack_vy;
    range_cache ranges;
    uint32_t gather_epoch; ///< bumped by every gather into this scratch
    /// reciprocal.c: a guess of the next agent's k-th nearest squared
    /// distance (from the last agent's); it saves work, never changes results
    float closest_hint;
    /// the step: agents evaluated on this worker whose new course has an
    /// opposition (step.c sums them into the world's `opposed`)
    int opposed;
    /// ...and whose new settling state may not be all 0 (the world's
    /// `settling`, evaluate.c)
    int settling;
} eval_scratch;

bool steer__context_scratch_reserve(eval_scratch *s, int capacity);
void steer__context_scratch_free(eval_scratch *s);

/// What separation, cohesion and alignment need from the neighbours within
/// a radius, summed in one pass (neighbour_sums.c).
typedef struct neighbour_sums {
    float radius; ///< < 0: not computed yet
    int count;
    float sum_dx, sum_dy; ///< sum of (neighbour position - agent position)
    float sum_vx, sum_vy; ///< sum of neighbour velocities
    bool has_separation;  ///< sep_* hold separation's sum for law/decay/max_acc
    int law;
    float decay, max_acc;
    float sep_x, sep_y;
} neighbour_sums;

/// Everything a behaviour reads while evaluating one agent.
typedef struct eval_ctx {
    steer_world *world;    ///< for callback behaviours and agent targets (never read by families)
    const eval_view *view;
    int self;              ///< dense index
    uint32_t self_proxy;   ///< grid proxy index
    steer_kinematic me;    ///< state at the start of the step
    steer_limits lim;      ///< limits in force (overrides applied)
    uint64_t key;
    float dt;
    bool kinematic;        ///< the agent is kinematic
    bool failed;           ///< a callback reported an error
    float *mem;            ///< the agent's memory (a copy while previewing)
    int mem_base;          ///< where the memory of the node being evaluated starts
    uint64_t *rng;
    // neighbour cache: the last gather and its radius
    eval_scratch *scratch;
    int neighbour_count;
    float gathered_radius;   ///< < 0: nothing gathered yet
    uint32_t gathered_epoch; ///< scratch->gather_epoch of that gather
    neighbour_sums sums;     ///< the last sums (sums.radius < 0: none)
    struct agent_trace *trace; ///< the agent's trace buffer when traced, else NULL
    /// where reciprocal_avoidance leaves the agent's intent (world.h,
    /// orca_intent): its column during a step; NULL in previews and bodies
    struct orca_intent *intent;
    /// where it leaves the agent's course (world.h, orca_course): the
    /// step's course_next, NULL in previews and bodies; `course_written`
    /// tells the step that it did (else the agent keeps the course it had)
    struct orca_course *course;
    bool course_written;
    /// where it leaves the agent's settling state (world.h, orca_rest):
    /// the step's rest_next (set with `course`); `rest_written` once it did;
    /// `rest_now` whether the last one it left may not be all 0
    struct orca_rest *rest;
    bool rest_written, rest_now;
    /// the agent's rest_held (world.h): bit 0, its settling state of the
    /// step before may not be all 0 (clear: it is, and is not read); bit 1,
    /// the one of two steps before in `rest` may not be (clear: it is, and
    /// is written over only by a state that may not be)
    uint8_t rest_marks;
    struct nav_plan *plan;     ///< a body's (an anchor's) navigate plan; agents' are in the view
    bool plan_writable;        ///< false while previewing: the plan's progress is not advanced
} eval_ctx;

struct steer_world;
/// Fill a view from the world's arrays (before an evaluation pass); makes
/// the static geometry ready.
void steer__context_view_init(eval_view *v, struct steer_world *w);

/// The memory of the stateful node being evaluated (steer__behaviour_type_memory
/// floats, at the node's fixed place in the agent's memory).
static inline float *steer__node_memory(eval_ctx *ctx) { return ctx->mem + ctx->mem_base; }

/// Gather the neighbours within radius (excluding self) into ctx->scratch;
/// returns their count. Cached across the behaviours of one evaluation.
int steer__context_gather(eval_ctx *ctx, float radius);
/// steer__context_gather within `radius` over the cells of the box of
/// `cells` (at least radius): consecutive agents mostly share that box,
/// whose ranges of proxies the grid keeps from one to the next.
int steer__context_gather_within(eval_ctx *ctx, float cells, float radius);

/// The kernel of steer__context_gather (neighbour_sums.c): the proxies of
/// `ranges` within squared distance r2 of (cx, cy), but `self`, into
/// s->proxy and their squared distances into s->dist_sq, in candidate order;
/// returns their count. AVX2 when the CPU has it (steer__neighbour_pack_limit
/// 2), else SSE2 distances and a plain compaction: the same list.
int steer__neighbour_gather(const neighbour_grid *g, const uint32_t ranges[][2], int count, float cx, float cy, float r2,
                            uint32_t self, eval_scratch *s);
/// The places i < found of a gather whose squared distance dist_sq[i] is at
/// most `guess` (compared as bits: non-negative floats order so), in order,
/// into pick, and their distances' bits into keys (each found + 8 entries:
/// the AVX2 path writes whole groups of 8); returns their count
/// (reciprocal.c, closest_neighbours; the same lists on every path).
int steer__neighbour_shortlist(const float *dist_sq, int found, float guess, uint32_t *pick, uint32_t *keys);
/// The order of n (at most 64) keys (`bits`: non-negative floats' bits,
/// below 2^31; room for n rounded up to 16: the AVX2 path reads groups of 16) by
/// value, then by place: order[r] is the place m whose key has rank r, for
/// every r < n. Branch-free counts of the keys before each (AVX2 when the CPU
/// has it, else plain C: the same order; reciprocal.c, closest_neighbours).
void steer__neighbour_rank(const uint32_t *bits, int n, uint32_t *order);
/// Sum the neighbours within radius; separation's sum too when `separation`
/// is given (its law and decay, with ctx's max_acceleration).
void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation,
                           neighbour_sums *out);
/// Tests: the widest kernels the neighbour sums, the gather and the
/// shortlist may use from now on (2: AVX2 packing and sums in one function,
/// AVX2 gather and shortlist, 1: SSSE3 packing and SSE2 sums, 0: plain C
/// packing and SSE2 sums), within what the CPU has. Not thread-safe: call it
/// with no step running.
void steer__neighbour_pack_limit(int level);

/// True when the agent being evaluated sees the neighbour at a grid proxy
/// (always, in a world without filters).
static inline bool steer__sees_proxy(const eval_ctx *ctx, uint32_t proxy)
{
    const agent_filter *f = ctx->view->filter;
    return !ctx->view->filtered || steer__filter_sees(&f[ctx->self], &f[ctx->view->grid->agent[proxy]]);
}

/// A neighbour (by grid proxy): its dense index, key and radius.
static inline uint64_t steer__proxy_key(const eval_ctx *ctx, uint32_t proxy)
{
    return ctx->view->key[ctx->view->grid->agent[proxy]];
}
static inline float steer__proxy_radius(const eval_ctx *ctx, uint32_t proxy)
{
    return ctx->view->limits[ctx->view->grid->agent[proxy]].radius;
}

/// Resolve a target to a position and velocity (and orientation); false if
/// the target is none or a stale agent.
typedef struct target_state {
    steer_vec2 position, velocity;
    float orientation;
    bool is_agent;
} target_state;
bool steer__context_target(const eval_ctx *ctx, const steer_target *t, target_state *out);

/// l > r ? a : b, without a branch where SSE2 has masks (a compiler turns
/// the ?: into a branch, which mispredicts when the comparison follows no
/// pattern); the same value either way.
static inline double steer__select_gt(double l, double r, double a, double b)
{
#if defined(__SSE2__)
    const __m128d m = _mm_cmpgt_sd(_mm_set_sd(l), _mm_set_sd(r));
    return _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(m, _mm_set_sd(a)), _mm_andnot_pd(m, _mm_set_sd(b))));
#else
    return l > r ? a : b;
#endif
}

// The combined output, clamped to the character's limits: accelerations for
// steering agents, speed and rotation for kinematic ones. In double: weights
// are any finite floats, so a weighted sum may leave the float range before
// the clamp brings it back.
static inline void steer__clamp_output(const eval_ctx *ctx, double x, double y, double angular, steer_steering *out)
{
    double lin = ctx->kinematic ? ctx->lim.max_speed : ctx->lim.max_acceleration;
    double ang = ctx->kinematic ? ctx->lim.max_rotation : ctx->lim.max_angular_acceleration;
    // whether a blend exceeds the limit is data-dependent: compute the scale
    // either way and select it, instead of a branch that mispredicts
    double len2 = x * x + y * y;
    const double scale = steer__select_gt(len2, lin * lin, lin / sqrt(len2 > 0.0 ? len2 : 1.0), 1.0);
    out->linear = steer_v2((float)(x * scale), (float)(y * scale));
    out->angular = (float)(angular < -ang ? -ang : (angular > ang ? ang : angular));
}

/* ---- family evaluators (one per source file) ---------------------------------------- */

bool steer__kinematic_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__steering_basic(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__delegated_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
/// group.c: one evaluator per type (the node table calls them directly).
bool steer__group_separation(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
bool steer__group_cohesion(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
bool steer__group_alignment(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
bool steer__group_collision_avoidance(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
/// A blend whose children are separation, cohesion and alignment only
/// (steer_behaviour.neighbour_blend), evaluated as eval_blend would: each
/// child's steering weighted and summed in double in child order, then
/// clamped (steer__clamp_output); one kernel, no dispatch per child.
bool steer__group_blend(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
bool steer__avoidance_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
/// formation_slot (formation_slot.c): arrive at and align to the agent's slot target.
bool steer__formation_slot_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
/// reciprocal_avoidance (reciprocal.c): the steering towards the permitted
/// velocity nearest the preferred one, from the steering of its child
/// (evaluated by the caller; zero when it gave none, `has` false); `pref`
/// is the child's definition (its target is the agent's destination).
bool steer__reciprocal_steer(eval_ctx *ctx, const steer_behaviour_def *d, const steer_behaviour_def *pref, bool has,
                             steer_steering child, steer_steering *out);

/// Building blocks shared by delegating behaviours (steering.c).
/// flee and evade: true when panic_radius is set and the point is at that
/// distance or farther (no steering).
bool steer__beyond_panic(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 point);
/// Seek (flee when away) a point with full max_acceleration.
void steer__steering_seek(const eval_ctx *ctx, steer_vec2 point, bool away, steer_steering *out);
/// Arrive at a point with the given radii and time; false inside target_radius.
bool steer__steering_arrive(const eval_ctx *ctx, steer_vec2 point, float target_radius, float slow_radius,
                         float time_to_target, steer_steering *out);
/// Align to an orientation; false inside target_radius.
bool steer__steering_align(const eval_ctx *ctx, float orientation, float target_radius, float slow_radius,
                              float time_to_target, steer_steering *out);

#endif
