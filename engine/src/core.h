// core.h: engine internals shared by the engine's .c files (and tests).
#ifndef STEER_CORE_H
#define STEER_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "steer/steer.h"

/* ---- asserts ---------------------------------------------------------------- */

void steer__assert_failed(const char *condition, const char *file, int line);

/// Check a precondition; on failure call the hook and evaluate to false, so
/// the caller can refuse the call: `if (!STEER_CHECK(x > 0)) return;`.
#define STEER_CHECK(cond) ((cond) ? 1 : (steer__assert_failed(#cond, __FILE__, __LINE__), 0))
#define STEER_COOKIE 0x57EE7

/* ---- memory ------------------------------------------------------------------- */

/// Allocations and reallocations made so far (for the no-allocation test;
/// not synchronised).
extern unsigned long steer__allocations;
void *steer__alloc(size_t size);
void *steer__realloc(void *p, size_t size);
void steer__free(void *p);

/* ---- random ----------------------------------------------------------------- */

/// splitmix64: one 64-bit word of state per stream.
static inline uint64_t steer__rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/// Uniform in [0, 1), 24 bits.
static inline float steer__rng_float(uint64_t *state)
{
    return (float)(steer__rng_next(state) >> 40) * (1.0f / 16777216.0f);
}
/// The notes' randomBinomial: random() - random(), in (-1, 1), most often near 0.
static inline float steer__rng_binomial(uint64_t *state)
{
    float a = steer__rng_float(state);
    float b = steer__rng_float(state);
    return a - b;
}
/// Stream seed of an agent: a mix of the world seed and the agent's key.
uint64_t steer__stream_seed(uint64_t world_seed, uint64_t key);
/// 64-bit mixing (finaliser of splitmix64).
uint64_t steer__mix64(uint64_t x);

/* ---- agents ----------------------------------------------------------------- */

/// Floats of behaviour memory per agent. Stateful behaviours (wander: 1,
/// follow_path: 1) take slots in depth-first order of the agent's tree.
#define STEER_MEMORY_FLOATS 8

typedef struct agent_memory {
    float value[STEER_MEMORY_FLOATS];
} agent_memory;

enum { AGENT_KINEMATIC = 1, AGENT_FACE_VELOCITY = 2 };

typedef struct agent_slot {
    uint32_t generation; ///< bumped when the agent is removed
    uint32_t dense;      ///< index into the dense arrays, or next free slot
    bool alive;
} agent_slot;

/// Padding after the grid's proxy arrays and the gather's scratch, so that
/// vector loops may read up to 4 floats past the last proxy.
#define STEER_GRID_PAD 4

/* ---- neighbour grid ----------------------------------------------------------- */

/// Spatial hash rebuilt every step: agents sorted by bucket with a counting
/// sort, then by key inside a bucket, so every scan is in a canonical order.
typedef struct neighbour_grid {
    float cell_size, inv_cell;
    uint32_t bucket_mask;  ///< bucket count - 1 (a power of two)
    int width_bits;        ///< the table is 2^width_bits buckets wide
    uint32_t *bucket_start; ///< bucket_mask + 2 entries
    // proxies in bucket order (structure of arrays)
    float *x, *y, *vx, *vy;
    uint32_t *agent;    ///< dense index of the proxy's agent
    uint32_t *proxy_of; ///< dense index -> proxy index
    uint32_t *bucket_of; ///< scratch: bucket of each dense agent
    int count, capacity, bucket_capacity;
    uint32_t version; ///< bumped by every rebuild
    bool dirty;
} neighbour_grid;

/* ---- world -------------------------------------------------------------------- */

struct steer_geometry;

struct steer_world {
    steer_world_def def;
    uint64_t steps;

    // handles
    agent_slot *slots;
    int slot_count, slot_capacity;
    uint32_t free_slot; ///< head of the free list (slot index + 1), 0 when empty

    // dense agent arrays, `count` live entries
    int count, capacity;
    steer_kinematic *state;
    steer_limits *limits;
    steer_behaviour **behaviour;
    steer_steering *out;
    agent_memory *memory;
    uint64_t *rng;
    uint64_t *key;
    uint32_t *slot_of; ///< dense -> slot index
    uint8_t *flags;
    void **user_data;
    void *reorder_buffer; ///< capacity * the largest per-agent field
    uint64_t next_key;

    neighbour_grid grid;
    struct eval_scratch *scratch;
    struct steer_geometry *geometry;
    int callback_errors;
    bool stepping; ///< inside steer_world_step: structural changes are refused
};

/// Dense index of a live id, or -1.
int steer__agent_dense(const steer_world *w, steer_agent_id id);
/// Move every agent to dense index k where order[k] held it; order then
/// becomes the identity. Handles are unchanged.
void steer__world_reorder(steer_world *w, uint32_t *order);
/// The id of a dense index.
steer_agent_id steer__agent_id_of(const steer_world *w, int dense);

/* ---- grid ------------------------------------------------------------------- */

bool steer__grid_reserve(neighbour_grid *g, int capacity);
void steer__grid_free(neighbour_grid *g);
/// Rebuild from the world's dense arrays if dirty.
void steer__grid_update(steer_world *w);

#define STEER_MAX_RANGES 64

/// The last window of cells asked for, and its ranges.
typedef struct range_cache {
    uint32_t version; ///< grid version the ranges belong to
    int32_t x0, x1, y0, y1;
    int count;
    uint32_t ranges[STEER_MAX_RANGES][2];
} range_cache;

/// The proxy ranges [begin, end) holding every agent of the cells a disc
/// touches, in canonical order (one range of all agents when the disc is
/// wider than the table). Returns their count; *ranges points into cache.
int steer__grid_ranges(const neighbour_grid *g, range_cache *cache, steer_vec2 center, float radius,
                       const uint32_t (**ranges)[2]);

/// Iterate over the ranges of a disc one by one (for callers that stop early).
typedef struct grid_cursor {
    range_cache cache;
    const uint32_t (*ranges)[2];
    int count, next;
} grid_cursor;
void steer__grid_cursor_init(const neighbour_grid *g, grid_cursor *c, steer_vec2 center, float radius);
/// Next range [begin, end); false when finished.
bool steer__grid_cursor_next(grid_cursor *c, uint32_t *begin, uint32_t *end);

/* ---- evaluation --------------------------------------------------------------- */

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
    int capacity;
} eval_scratch;

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
    steer_world *w;
    int self;             ///< dense index
    uint32_t self_proxy;  ///< grid proxy index
    steer_kinematic me;   ///< state at the start of the step
    steer_limits lim;     ///< limits in force (overrides applied)
    uint64_t key;
    float dt;
    agent_memory *mem;    ///< the agent's memory (a copy while previewing)
    int mem_cursor;       ///< next free float in mem
    uint64_t *rng;
    float overflow[2];    ///< memory for stateful behaviours past the slots
    bool failed;          ///< a callback reported an error
    // neighbour cache: the last gather and its radius
    eval_scratch *scratch;
    int neighbour_count;
    float gathered_radius; ///< < 0: nothing gathered yet
    uint32_t gathered_epoch; ///< scratch->gather_epoch of that gather
    neighbour_sums sums;   ///< the last sums (sums.radius < 0: none)
} eval_ctx;

/// Sum the neighbours within radius; separation's sum too when `separation`
/// is given (its law and decay, with ctx's max_acceleration).
void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation, neighbour_sums *out);

/// Evaluate a behaviour node; false for "no steering".
bool steer__evaluate(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);

/// Claim `n` floats of behaviour memory for a stateful node.
float *steer__memory_claim(eval_ctx *ctx, int n);

/// Gather the neighbours within radius (excluding self) into ctx->scratch;
/// returns their count. Cached across the behaviours of one evaluation.
int steer__gather_neighbours(eval_ctx *ctx, float radius);

bool steer__scratch_reserve(eval_scratch *s, int capacity);
void steer__scratch_free(eval_scratch *s);

/// Resolve a target to a position and velocity (and orientation); false if
/// the target is none or a stale agent.
typedef struct target_state {
    steer_vec2 position, velocity;
    float orientation;
    bool is_agent;
} target_state;
bool steer__resolve_target(const eval_ctx *ctx, const steer_target *t, target_state *out);

/* ---- behaviour internals -------------------------------------------------------- */

struct steer_behaviour {
    int refcount;
    bool overrides; ///< any of the four limit overrides is set
    steer_behaviour_def def; ///< children points at `children` below
    steer_child *children;
};

/// Family evaluators (one per source file).
bool steer__eval_kinematic(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__eval_basic(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__eval_delegated(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__eval_follow_path(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__eval_group(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);
bool steer__eval_obstacle_avoidance(eval_ctx *ctx, const steer_behaviour_def *d,
                                    steer_steering *out);
bool steer__eval_combinator(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);

/// (goal - current) / t, capped at length max: the notes' "reach a velocity
/// over time_to_target, capped at the limit". In double, so a tiny t or a
/// huge difference never overflows into inf or NaN.
static inline steer_vec2 steer__over_time(steer_vec2 goal, steer_vec2 current, float t, float max)
{
    double x = ((double)goal.x - current.x) / t, y = ((double)goal.y - current.y) / t;
    double len2 = x * x + y * y, m = max;
    if (len2 > m * m) {
        double s = m / sqrt(len2);
        x *= s;
        y *= s;
    }
    return steer_v2((float)x, (float)y);
}

/// Building blocks shared by delegating behaviours (steering.c).
/// Seek (flee when away) a point with full max_acceleration.
void steer__seek_point(const eval_ctx *ctx, steer_vec2 point, bool away, steer_steering *out);
/// Arrive at a point with the given radii and time; false inside target_radius.
bool steer__arrive_point(const eval_ctx *ctx, steer_vec2 point, float target_radius,
                         float slow_radius, float time_to_target, steer_steering *out);
/// Align to an orientation; false inside target_radius.
bool steer__align_orientation(const eval_ctx *ctx, float orientation, float target_radius,
                              float slow_radius, float time_to_target, steer_steering *out);

/* ---- integration and geometry ------------------------------------------------- */

void steer__integrate(steer_world *w, float dt);
/// Free the world's static geometry (geometry.c).
void steer__geometry_destroy(struct steer_geometry *g);
/// Contact resolution after integration (geometry.c).
void steer__resolve_contacts(steer_world *w);
/// Bring the static geometry's broadphase (and the largest agent radius used
/// by agent ray casts) up to date, so that the evaluation pass only reads
/// it. Optional: queries do it lazily otherwise (geometry.c).
void steer__geometry_prepare(steer_world *w);

#endif
