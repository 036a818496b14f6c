// core.h: the engine's base services: asserts and the mid-step guard,
// allocation, random streams, hashing, and the few numeric helpers every
// module shares. Each module has its own private header on top of this
// one, so a file sees what it may touch and nothing more. Its functions
// are the only private ones not named after their file (steer__alloc,
// steer__grow, ...): they are the base every file uses.
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

/* ---- the mid-step guard -------------------------------------------------------- */

/// Engine calls in progress on this thread that evaluate behaviours
/// (steer_world_step, steer_behaviour_get_steering). While it is non-zero,
/// behaviours and paths are not changed: a callback behaviour could
/// otherwise free the node being evaluated (docs/engine.md, mid-step rules).
extern _Thread_local int steer__evaluating;

/// True when behaviours and paths may be changed now; asserts otherwise.
#define STEER_NOT_EVALUATING() STEER_CHECK(steer__evaluating == 0)

/* ---- memory ------------------------------------------------------------------- */

/// Allocations made so far (for the no-allocation test; not synchronised).
extern unsigned long steer__allocations;
/// Every engine allocation goes through these (and so through the hook of
/// steer_set_allocator). Sizes are remembered, so free needs none.
void *steer__alloc(size_t size);
void *steer__realloc(void *p, size_t size);
void steer__free(void *p);

/// Grow `*array` (of elements `sizeof **array`) to hold n; false when
/// memory ran out (the array is then unchanged).
#define STEER_GROW(array, n)                                                              \
    steer__grow((void **)&(array), sizeof *(array), (size_t)(n))
bool steer__grow(void **array, size_t item, size_t n);

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

/* ---- numeric helpers ------------------------------------------------------------- */

/// (goal - current) / t, capped at length max: the notes' "reach a velocity
/// over time_to_target, capped at the limit". In double, so a tiny t or a
/// huge difference never overflows into inf or NaN.
/// A goal that is itself infinite (a sum of neighbour velocities past the
/// float range) gives its direction at full length.
static inline steer_vec2 steer__over_time(steer_vec2 goal, steer_vec2 current, float t, float max)
{
    double dx = (double)goal.x - current.x, dy = (double)goal.y - current.y;
    if (isinf(dx) || isinf(dy)) return steer_scale(steer_normalize(steer_v2((float)dx, (float)dy)), max);
    return steer_clamp_length_d(dx / t, dy / t, max);
}

/// A float's bits mapped to an unsigned integer of the same order (-0 just
/// below +0): a total order on finite values, compared as integers. The
/// canonical orders of the step (grid buckets, tie-breaks) use it.
static inline uint32_t steer__sortable_bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/// Two floats as one sort key: a first, then b.
static inline uint64_t steer__sortable_pair(float a, float b)
{
    return ((uint64_t)steer__sortable_bits(a) << 32) | steer__sortable_bits(b);
}

/// A function kept out of line (a rare path whose inlining would cost the
/// hot one around it), and one inlined wherever it is called (a hot
/// helper that a second caller would otherwise push out of line).
#if defined(__GNUC__)
#define STEER_NOINLINE __attribute__((noinline))
#define STEER_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define STEER_NOINLINE
#define STEER_ALWAYS_INLINE inline
#endif

/* ---- layers and floors ---------------------------------------------------------- */

/// Who an agent meets (docs/engine.md, layers and floors): the layers it is
/// on, the layers it sees, its vertical extent [z, z + height].
typedef struct agent_filter {
    uint32_t layer, mask;
    float z, height;
} agent_filter;

/// True when the extents [z0, top0] and [z1, top1] overlap (touching counts).
static inline bool steer__extents_meet(float z0, float top0, float z1, float top1)
{
    return z1 <= top0 && z0 <= top1;
}

/// True when the agent of filter `me` sees the one of `other`: other's
/// layer meets me's mask and their extents overlap.
static inline bool steer__filter_sees(const agent_filter *me, const agent_filter *other)
{
    return (other->layer & me->mask) != 0 &&
           steer__extents_meet(me->z, me->z + me->height, other->z, other->z + other->height);
}

/// The default filter: layer 1, every layer seen, at z 0 with no height.
static inline bool steer__filter_is_default(const agent_filter *f)
{
    return f->layer == 1u && f->mask == STEER_ALL_LAYERS && f->z == 0.0f && f->height == 0.0f;
}

#endif
