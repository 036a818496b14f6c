// world.h: the world and its agents (world.c, agent.c): dense agent arrays
// addressed through generation-checked slots.
#ifndef STEER_WORLD_H
#define STEER_WORLD_H

#include "core.h"
#include "grid.h"

/// Floats of behaviour memory per agent: each stateful node of the agent's
/// tree (wander: 1, follow_path: 1, obstacle_avoidance: 1) has a fixed place
/// in it, decided by the tree's shape (behaviour.h). A tree needing more is
/// refused (STEER_MAX_TREE_MEMORY).
#define STEER_MEMORY_FLOATS STEER_MAX_TREE_MEMORY

typedef struct agent_memory {
    float value[STEER_MEMORY_FLOATS];
} agent_memory;

/// AGENT_AVOIDS: the agent avoids reciprocally (its tree has a
/// reciprocal_avoidance node, kinematic or not); refreshed before
/// every evaluation pass (steer__flag_avoiders).
/// AGENT_TRACE: the agent records what its evaluation computed (trace.c).
enum { AGENT_KINEMATIC = 1, AGENT_FACE_VELOCITY = 2, AGENT_AVOIDS = 4, AGENT_TRACE = 8 };

typedef struct agent_slot {
    uint32_t generation; ///< bumped when the agent is removed
    uint32_t dense;      ///< index into the dense arrays, or next free slot
    bool alive;
} agent_slot;

struct steer_geometry;
struct eval_scratch;
struct task_pool;

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
    steer_vec2 *push; ///< scratch of agent contact resolution (agent_contacts.c)
    void *reorder_buffer; ///< capacity * the largest per-agent field
    uint64_t next_key;

    neighbour_grid grid;
    /// One evaluation scratch per worker (def.worker_count); a step's
    /// callback pass and get_steering use worker 0's.
    struct eval_scratch *scratch;
    /// The built-in pool when def.worker_count > 1 and the embedder gave no
    /// task callbacks (def.enqueue_task then points at the pool's), or NULL.
    struct task_pool *pool;
    struct steer_geometry *geometry;
    struct steer_formations *formations; ///< formation.c; NULL until the first one
    int callback_errors;
    struct agent_trace **traces; ///< by slot index, trace_slots entries (NULL: untraced)
    int trace_slots;
    int traced; ///< agents with AGENT_TRACE
    bool stepping; ///< inside steer_world_step: structural changes are refused
};

/// Dense index of a live id, or -1.
int steer__agent_dense(const steer_world *w, steer_agent_id id);
/// The id of a dense index.
steer_agent_id steer__agent_id_of(const steer_world *w, int dense);
/// Room for `capacity` agents in every dense array (outside the step only).
bool steer__world_reserve(steer_world *w, int capacity);
/// Move every agent to dense index k where order[k] held it; order then
/// becomes the identity. Handles are unchanged.
void steer__world_reorder(steer_world *w, uint32_t *order);

/// The checks agent creation and the setters share.
bool steer__limits_are_valid(const steer_limits *l);
bool steer__kinematic_is_valid(const steer_kinematic *k);

/* ---- integration and geometry ------------------------------------------------- */

/// Integrate agents [begin, end) of the dense arrays (each independently).
void steer__integrate(steer_world *w, float dt, int begin, int end);
/// Free the world's static geometry (geometry.c).
void steer__geometry_destroy(struct steer_geometry *g);
/// Contact resolution after integration (contacts.c).
void steer__resolve_contacts(steer_world *w);
/// Push agent i (dense index) out of static geometry, as resolve_contacts
/// does for every agent; the geometry must be ready (contacts.c).
void steer__push_out_of_geometry(steer_world *w, int i);
/// Separate overlapping agents after integration (agent_contacts.c).
void steer__resolve_agent_contacts(steer_world *w);
/// Set AGENT_AVOIDS on every agent from its tree's shape (world.c).
void steer__flag_avoiders(steer_world *w);
/// Bring the static geometry's broadphase (and the largest agent radius used
/// by agent ray casts) up to date, so that the evaluation pass only reads
/// it. Optional: queries do it lazily otherwise (geometry.c).
void steer__geometry_prepare(steer_world *w);

#endif
