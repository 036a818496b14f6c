// grid.h: the neighbour grid, rebuilt in O(N) every step.
#ifndef STEER_GRID_H
#define STEER_GRID_H

#include "core.h"

/// Padding after the grid's proxy arrays and the evaluation scratch, so that
/// vector loops may read (and the packing write) up to 8 floats past the end.
#define STEER_GRID_PAD 8

/// What reciprocal avoidance reads of a neighbour (orca_lines.c,
/// steer__orca_pairs), one record a proxy so that its neighbours' are read
/// from a few cache lines, four fields at a time: the proxy columns'
/// position, velocity and preferred direction, the agent's radius, and its
/// max speed when it avoids reciprocally (AGENT_AVOIDS), else
/// GRID_BODY_NOT_AVOIDING (a max speed is never negative: it tells the two
/// apart, and only an avoiding neighbour's max speed is used). 32 bytes,
/// two a cache line, the array aligned to cache lines (grid.c): a record
/// never straddles two lines. Filled
/// with the columns when the step before had agents that avoid
/// (want_bodies; reciprocal.c builds the records of its neighbours from the
/// columns otherwise, with the same values); the limits are the world's
/// when the grid was filled (steer_agent_set_limits marks the grid dirty)
/// and whether it avoids follows the flags (step.c, flag_range).
typedef struct grid_body {
    float x, y, vx, vy;
    float px, py, radius, max_speed;
} grid_body;
_Static_assert(sizeof(grid_body) == 8 * sizeof(float), "grid_body: two groups of four floats (orca_lines.c)");
#define GRID_BODY_NOT_AVOIDING (-1.0f)

/// The record's max_speed field for an agent with this max speed that
/// avoids or not.
static inline float steer__grid_body_speed(float max_speed, bool avoids)
{
    return avoids ? max_speed : GRID_BODY_NOT_AVOIDING;
}

/// The record of a proxy (position, velocity, preferred direction) whose
/// agent has these limits and flags.
static inline grid_body steer__grid_body(float x, float y, float vx, float vy, float px, float py,
                                         const steer_limits *limits, uint8_t flags, uint8_t avoids_flag)
{
    return (grid_body){x, y, vx, vy, px, py, limits->radius,
                       steer__grid_body_speed(limits->max_speed, (flags & avoids_flag) != 0)};
}

/// Spatial hash rebuilt every step: agents sorted by bucket with a counting
/// sort, then by state inside a bucket (position, velocity; the key breaks
/// exact ties only), so every scan is in a canonical order of states.
typedef struct neighbour_grid {
    float cell_size, inv_cell;
    uint32_t bucket_mask;   ///< bucket count - 1 (a power of two)
    int width_bits;         ///< the table is 2^width_bits buckets wide
    uint32_t *bucket_start; ///< bucket_mask + 2 entries
    // proxies in bucket order (structure of arrays)
    float *x, *y, *vx, *vy;
    float *ix, *iy;    ///< the agents' intents (world.h, orca_intent), copied with the positions
    uint64_t *yield_to; ///< and the key each yielded to (0: none)
    float *px, *py;     ///< and their preferred directions (orca_intent)
    /// the nine arrays above and `bodies` share this block, each a few
    /// cache lines further into its page than the one before, all aligned
    /// to cache lines (grid.c, reserve_proxies)
    void *proxies;
    size_t proxy_capacity; ///< elements each of the ten has room for
    grid_body *bodies;  ///< per proxy (STEER_GRID_PAD past the end), when has_bodies
    bool has_bodies;    ///< the last fill wrote the records
    bool want_bodies;   ///< the next fill writes them (some agent avoided in the last step)
    int yielders;       ///< how many yield_to are not 0 (none: nothing to look up)
    int counted[STEER_MAX_WORKERS]; ///< yielders counted by each worker during the fill
    bool mixed_radii;   ///< the agents are not all of one radius (or were, since the radii last changed)
    uint32_t mixed_version; ///< the world's limits_version mixed_radii was found for
    uint32_t *agent;     ///< dense index of the proxy's agent
    uint32_t *proxy_of;  ///< dense index -> proxy index
    uint32_t *bucket_of; ///< scratch: bucket of each dense agent
    uint64_t *order_key; ///< scratch: each dense agent's position, as a sort key
    int count, bucket_capacity;
    uint32_t version; ///< bumped by every rebuild
    bool dirty;
} neighbour_grid;

struct steer_world;

/// Room for `capacity` agents (outside the step only).
bool steer__grid_reserve(neighbour_grid *g, int capacity);
void steer__grid_free(neighbour_grid *g);
/// Rebuild from the world's dense arrays if dirty: proxies in canonical
/// order. Returns true when it rebuilt.
bool steer__grid_update(struct steer_world *w);
/// The two halves of steer__grid_update, for the step, which may move the
/// agents in storage between them (step.c): the canonical order
/// (grid.agent, bucket starts) from the world's dense arrays, then the
/// proxies from storage (which clears dirty). The refill alone also serves
/// after the agents moved in storage (same order).
void steer__grid_sort(struct steer_world *w);
void steer__grid_refill(struct steer_world *w);
/// Fraction of the grid order that breaks storage order, in [0, 1]: the
/// step reorders storage when it is high.
float steer__grid_disorder(const neighbour_grid *g);

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

#endif
