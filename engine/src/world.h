// world.h: the world object: its settings, the agent store's columns
// (dense per-agent arrays addressed through generation-checked slots), the
// neighbour grid, the static geometry, formations, traces and
// the workers' scratch, and the stages the step runs after evaluation.
#ifndef STEER_WORLD_H
#define STEER_WORLD_H

#include "core.h"
#include "eval.h"
#include "grid.h"

/// Room for the storage reorder's spares: at least the number of element
/// sizes among the columns that move (store.c checks it).
#define STEER_STORE_SPARES 21

/// An agent's behaviour memory: each stateful node of the agent's tree
/// (wander: 1, follow_path: 1, obstacle_avoidance: 1) has a fixed place in
/// it, decided by the tree's shape (behaviour.h). A tree needing more than
/// STEER_MAX_TREE_MEMORY floats is refused.
/// What a reciprocal_avoidance node tells its neighbours about itself
/// (reciprocal.c, yielding a spot): the change of velocity it asked for at
/// its last evaluation, and the key of the agent it yielded to then (0: it
/// did not yield; keys are never 0), in two 32-bit words; and for the
/// queue's right of way (flow_share) its preferred velocity, divided by the
/// larger of its length and a fifth of the max speed. Written by the
/// agent's own evaluation; the neighbours read the grid's copy, taken
/// before the step's evaluation, so every agent order and worker count
/// reads the same.
typedef struct orca_intent {
    float x, y;
    uint32_t to_lo, to_hi;
    float px, py; ///< the preferred velocity's direction (reciprocal.c, flow_share)
} orca_intent;

/// The rest of it, for keeping right in two-way traffic (reciprocal.c,
/// oncoming): its destination (its preferred behaviour's target; none: its
/// own position) and its opposition. Read only by the agents that meet
/// oncoming traffic or settle at a shared point, so it is not copied into
/// the grid with the intent: a step's evaluation reads the world's `course`
/// (what the step before wrote) and writes `course_next`, which take each
/// other's place after it (step.c), so every agent order and worker count
/// reads the same. 12 bytes: every agent writes it every step (its
/// settling state, written by few, is orca_rest).
typedef struct orca_course {
    float dx, dy; ///< the destination
    float opp;    ///< the opposition, relayed
} orca_course;

/// An agent's settling state (orca_settle.h), in columns of its own
/// (`rest`, `rest_next`) double-buffered as the course: all 0 but while the
/// agent settles at a shared point or its level eases back to 0. An agent
/// whose states in both buffers are 0 (its `rest_held` marks) neither
/// reads nor writes them, so the course every agent writes stays 12 bytes
/// (docs/crowds/course21.md).
typedef struct orca_rest {
    float rest; ///< the settling level in [0, 1] (orca_settle.h)
    /// settled at a shared point: how much it presses on its supports,
    /// the area it carries, the heap's area it knows and how many supports
    /// it has (orca_settle.h, orca_settling; 0 when not settled)
    float press, mass, heap, supports;
} orca_rest;

/// Whether a settling state holds anything but +0 in its fields (compared
/// as bits: a -0 counts).
static inline bool steer__rest_held(orca_rest r)
{
    uint32_t b[5];
    memcpy(b, &r, sizeof b);
    return (b[0] | b[1] | b[2] | b[3] | b[4]) != 0;
}

typedef struct agent_memory {
    float value[STEER_MAX_TREE_MEMORY];
} agent_memory;

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
    orca_intent *intent; ///< reciprocal avoidance's intent (orca_intent)
    orca_course *course; ///< and its destination and opposition (orca_course)
    orca_rest *rest;     ///< its settling state (orca_rest)
    uint64_t *rng;
    uint64_t *key;
    uint32_t *slot_of; ///< dense -> slot index
    uint8_t *flags;
    agent_filter *filter; ///< layers, mask and vertical extent (core.h)
    float *priority;      ///< reciprocal avoidance's right of way
    void **user_data;
    steer_vec2 *push; ///< scratch of agent contact resolution (agent_contacts.c)
    /// During a step, the outputs of the step before (copied in prepare):
    /// what a behaviour written in Lua reads as last_steering, whatever the
    /// order agents are evaluated in and the number of workers.
    steer_steering *last_out;
    /// During a step, the courses the evaluation writes (orca_course); an
    /// agent whose evaluation wrote none keeps its own
    orca_course *course_next;
    /// During a step, the settling states the evaluation writes (orca_rest):
    /// an agent's only where it or the one there may not be all 0 (rest_held)
    orca_rest *rest_next;
    /// Which of the agent's two settling states may not be all 0 (a clear
    /// bit: that one is): bit 0 its `rest`, bit 1 its `rest_next` (between
    /// steps: the one of two steps before). Read and written by the agent's
    /// own evaluation only (and spawn, removal, the reorder, a snapshot's
    /// restore: agent.c, store.c).
    uint8_t *rest_held;
    struct nav_plan **plan; ///< navigate's plan (navigate.h), NULL until the agent navigates
    /// The storage reorder's spares (store.c): one per element size of the
    /// columns that move, capacity elements each; a column is gathered into
    /// the spare of its size, which then takes the column's place.
    void *reorder_spare[STEER_STORE_SPARES];
    /// The one block the columns above and the spares are carved from,
    /// each array at a cache line (and in a large block at a colour of its
    /// own: store.c, steer__store_reserve)
    void *store_block;
    uint64_t next_key;
    /// Counts the writes of agents' limits (spawn, set_limits, a snapshot
    /// read): the grid looks at the radii again only when it moved.
    uint32_t limits_version;
    /// Counts the writes of agents' behaviours (spawn, set_behaviour, a
    /// snapshot read). With steer__behaviour_shape_epoch, what the step's
    /// flag pass compares to know whether AGENT_AVOIDS and AGENT_NAVIGATES
    /// can have changed since it last read the trees (step.c, flag_avoiders).
    uint32_t trees_version;
    uint32_t flagged_trees, flagged_epoch; ///< trees_version and the shape epoch at the last reading
    bool flags_read;                       ///< the flags were read from the trees at least once
    /// The id the next move_group order gives its units (navigate.h's
    /// nav_plan.group): 1, 2, 3, ... (never 0: no group), saved in snapshots.
    uint32_t next_group;
    /// Agents whose filter is not the default (layer 1, every layer seen, z
    /// and height 0): while there are none, neighbour scans skip the test.
    int filtered;
    int prioritised; ///< agents whose priority is not 0
    /// Agents whose course's opposition is above 0, or more (counted by
    /// the step's evaluation, step.c: a tree with two reciprocal_avoidance
    /// nodes may count its agent twice, which costs time, never a result):
    /// while there are none, no agent has an opposition to pass back
    /// (reciprocal.c, oncoming)
    int opposed;
    /// Agents whose settling state (`rest`) may not be all 0 (settled or
    /// easing at the step before), or more (a removal may leave it high):
    /// while 0, every agent's is 0, and no rule looks at the neighbours'
    /// (orca_settle.c), nor the reorder at the column (store.c).
    int settling;

    neighbour_grid grid;
    /// One evaluation scratch per worker (def.worker_count); a step's
    /// callback pass and get_steering use worker 0's.
    struct eval_scratch *scratch;
    /// The built-in pool when def.worker_count > 1 and the embedder gave no
    /// task callbacks (def.enqueue_task then points at the pool's), or NULL.
    struct task_pool *pool;
    struct steer_geometry *geometry;
    struct steer_formations *formations; ///< formation.c; NULL until the first one
    /// formation members' slot targets by agent slot index (eval.h; the
    /// formations write them), slot_target_capacity entries
    slot_target *slot_targets;
    int slot_target_capacity;
    int callback_errors;
    /// Traces (trace.c): each traced agent's full buffer, by slot index,
    /// trace_slots entries (NULL: untraced); where its last record is
    /// (trace_at, by slot: a record of trace_records, or TRACE_AT_*); the
    /// records, one per traced agent in step order (traced entries of
    /// TRACE_RECORD_SIZE bytes); one buffer per worker that evaluations
    /// write into before their record is copied out.
    struct agent_trace **traces;
    int32_t *trace_at;
    unsigned char *trace_records;
    struct agent_trace *trace_stage;
    int trace_slots;
    int trace_record_capacity;
    int traced; ///< agents with AGENT_TRACE
    /// Presentation colours by slot index (steer_agent_set_color), color_slots
    /// entries; NULL until the first colour. Cold: no stage reads them.
    steer_color *colors;
    int color_slots;
    steer_planner planner; ///< navigate's planner (a navigation layer sets it)
    bool has_planner;
    bool stepping; ///< inside steer_world_step: structural changes are refused
};

/// Room for `capacity` agents in the store (store.h) and every other
/// per-agent array (outside the step only).
bool steer__world_reserve(steer_world *w, int capacity);

/// Give agent i (dense index) a filter, keeping the count of filtered agents.
void steer__agent_set_filter(steer_world *w, int i, agent_filter f);
/// Count again the agents with settings other than the defaults, and the
/// opposed (after the columns were written directly: a restored snapshot).
void steer__agent_recount(steer_world *w);

/// The checks agent creation and the setters share.
bool steer__agent_limits_are_valid(const steer_limits *l);
bool steer__agent_kinematic_is_valid(const steer_kinematic *k);

/* ---- integration and contacts -------------------------------------------------- */

/// Integrate agents [begin, end) of the dense arrays (each independently).
void steer__integrate(steer_world *w, float dt, int begin, int end);
/// Integrate a body that is not an agent (a formation's anchor) by the same
/// update, integrator, drag and clamps as an agent with those limits.
void steer__integrate_body(const steer_world *w, steer_kinematic *state, const steer_limits *limits,
                           steer_steering steering, float dt);
/// Contact resolution after integration (contacts.c).
void steer__contacts_resolve(steer_world *w);
/// Push agent i (dense index) out of static geometry, as contacts_resolve
/// does for every agent; the geometry must be ready (contacts.c).
void steer__contacts_push_out(steer_world *w, int i);
/// Separate overlapping agents after integration (agent_contacts.c).
void steer__agent_contacts_resolve(steer_world *w);

#endif
