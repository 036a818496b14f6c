/// steer/id.h: generation-checked handles.
///
/// An id is {index, generation}. {0, 0} is the null id. Removing an object
/// bumps its slot's generation, so an old id is detected as stale by the
/// `*_is_valid` functions and never dereferenced.
#ifndef STEER_ID_H
#define STEER_ID_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"

/// Handle of an agent inside one world.
typedef struct steer_agent_id {
    uint32_t index;      ///< slot index + 1 (0 in the null id)
    uint32_t generation; ///< slot generation at creation
} steer_agent_id;

/// Handle of a static shape inside one world.
typedef struct steer_shape_id {
    uint32_t index;
    uint32_t generation;
} steer_shape_id;

/// Handle of a formation inside one world (steer_formation_create).
typedef struct steer_formation_id {
    uint32_t index;
    uint32_t generation;
} steer_formation_id;

STEER_EXTERN_C_BEGIN

static const steer_formation_id steer_null_formation = {0, 0};
static const steer_agent_id steer_null_agent = {0, 0};
static const steer_shape_id steer_null_shape = {0, 0};

static inline bool steer_agent_id_is_null(steer_agent_id id) { return id.index == 0; }
static inline bool steer_agent_id_equal(steer_agent_id a, steer_agent_id b)
{
    return a.index == b.index && a.generation == b.generation;
}
static inline bool steer_shape_id_is_null(steer_shape_id id) { return id.index == 0; }
static inline bool steer_shape_id_equal(steer_shape_id a, steer_shape_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

static inline bool steer_formation_id_is_null(steer_formation_id id) { return id.index == 0; }
static inline bool steer_formation_id_equal(steer_formation_id a, steer_formation_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

/// Store an id in one 64-bit integer (index in the high half, generation in
/// the low half), as Box2D's b2StoreBodyId: a key for hash tables and a
/// value for languages without structs. Null stores as 0.
static inline uint64_t steer_agent_id_store(steer_agent_id id)
{
    return ((uint64_t)id.index << 32) | id.generation;
}
/// The id steer_agent_id_store stored.
static inline steer_agent_id steer_agent_id_load(uint64_t x)
{
    steer_agent_id id = {(uint32_t)(x >> 32), (uint32_t)x};
    return id;
}
static inline uint64_t steer_shape_id_store(steer_shape_id id) { return ((uint64_t)id.index << 32) | id.generation; }
static inline steer_shape_id steer_shape_id_load(uint64_t x)
{
    steer_shape_id id = {(uint32_t)(x >> 32), (uint32_t)x};
    return id;
}
static inline uint64_t steer_formation_id_store(steer_formation_id id)
{
    return ((uint64_t)id.index << 32) | id.generation;
}
static inline steer_formation_id steer_formation_id_load(uint64_t x)
{
    steer_formation_id id = {(uint32_t)(x >> 32), (uint32_t)x};
    return id;
}

STEER_EXTERN_C_END

#endif
