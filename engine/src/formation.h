// formation.h: formations: world-owned objects addressed by
// generation-checked ids, their members, slots and anchors, and their work
// in the step (slots, assignment, targets, anchors, placement). The step updates them before the evaluation pass
// (members gone, reassignment, anchor motion, slot targets) so that
// evaluation only reads them (the targets, through the evaluation view);
// rigid formations place their members after integration.
#ifndef STEER_FORMATION_H
#define STEER_FORMATION_H

#include <math.h>

#include "store.h"
#include "world.h"

typedef struct member {
    steer_agent_id agent;
    int cost_role;
    int slot; ///< -1: none
    float *extra; ///< per-slot extra costs (owned), or NULL
    int extra_count;
} member;

typedef struct formation {
    uint32_t generation;
    bool alive;
    steer_formation_def def;     ///< arrays point at the copies below
    steer_formation_slot *given; ///< copy of def.slots
    float *cost_role_costs;           ///< copy of def.cost_role_costs
    // members, in order of joining
    member *members;
    int count, capacity;
    // slots (built-in patterns: one per member)
    steer_formation_slot *slots;
    int slot_count, slot_capacity;
    int *holder; ///< slot -> member index, -1
    int *parent; ///< slot -> parent slot (emergent), -1: the reference
    // per member, written by the update, read by evaluation
    steer_vec2 *target_pos, *target_vel;
    float *target_orient;
    bool *has_target;
    // assignment scratch: rows = members, cols = max(slots, members)
    float *cost;
    int *row_to_col;
    int *by_key; ///< members in order of agent key: the rows of the assignment
    void *scratch;
    size_t cost_capacity, scratch_capacity;
    // the anchor (two-level formation)
    steer_vec2 anchor_pos, anchor_vel;
    float anchor_orient, anchor_rotation, anchor_param, moderation;
    // a leader's turning rate, measured from its orientation step to step
    // (an agent that faces its velocity turns without a rotation of its own)
    float leader_orient, leader_rotation;
    bool leader_seen;
    float anchor_mem[STEER_MAX_TREE_MEMORY]; ///< the anchor behaviour's memory
    uint64_t anchor_rng;                    ///< and random stream
    struct nav_plan *anchor_plan;           ///< its navigate's plan (navigate.h), or NULL
    bool dirty; ///< reassign at the next update
    int depth;  ///< formations above (whose members lead this one)
} formation;

/// Where an agent is a member: by agent slot index (stable across storage
/// reordering), checked against the agent's generation.
typedef struct member_ref {
    uint32_t formation; ///< formation index + 1, 0: none
    uint32_t generation;
    int member;
} member_ref;

struct steer_formations {
    formation *items;
    int count, capacity, live;
    member_ref *ref;
    int ref_capacity;
};

/* ---- lookup ------------------------------------------------------------------------ */

static inline formation *formation_get(const steer_world *w, steer_formation_id id)
{
    const struct steer_formations *fs = w->formations;
    if (fs == NULL || id.index == 0 || id.index > (uint32_t)fs->count) return NULL;
    formation *f = &fs->items[id.index - 1];
    return f->alive && f->generation == id.generation ? f : NULL;
}

static inline steer_formation_id formation_id_of(const steer_world *w, const formation *f)
{
    return (steer_formation_id){(uint32_t)(f - w->formations->items) + 1, f->generation};
}

// The formation and member index of an agent, or NULL.
static inline formation *formation_membership(const steer_world *w, steer_agent_id a, int *m)
{
    const struct steer_formations *fs = w->formations;
    if (fs == NULL || a.index == 0 || a.index > (uint32_t)fs->ref_capacity) return NULL;
    const member_ref *r = &fs->ref[a.index - 1];
    if (r->formation == 0 || r->generation != a.generation) return NULL;
    formation *f = &fs->items[r->formation - 1];
    if (!f->alive || r->member >= f->count || !steer_agent_id_equal(f->members[r->member].agent, a)) return NULL;
    if (m != NULL) *m = r->member;
    return f;
}

static inline void formation_set_ref(steer_world *w, formation *f, int m)
{
    steer_agent_id a = f->members[m].agent;
    w->formations->ref[a.index - 1] =
        (member_ref){(uint32_t)(f - w->formations->items) + 1, a.generation, m};
}

/* ---- reference pose ---------------------------------------------------------------- */

typedef struct pose {
    steer_vec2 pos, vel;
    float orient, rotation;
} pose;

static inline bool formation_agent_pose(const steer_world *w, steer_agent_id a, pose *out)
{
    int i = steer__store_dense(w, a);
    if (i < 0) return false;
    const steer_kinematic *k = &w->state[i];
    *out = (pose){k->position, k->velocity, k->orientation, k->rotation};
    return true;
}

static inline bool formation_reference_pose(const steer_world *w, const formation *f, pose *out)
{
    if (!steer_agent_id_is_null(f->def.leader)) {
        if (!formation_agent_pose(w, f->def.leader, out)) return false;
        if (f->leader_seen) out->rotation = f->leader_rotation;
        return true;
    }
    *out = (pose){f->anchor_pos, f->anchor_vel, f->anchor_orient, f->anchor_rotation};
    return true;
}

// local (x right, y forward) to world for an orientation a (heading (sin a, cos a))
static inline steer_vec2 formation_rotate(steer_vec2 v, float a)
{
    float s = sinf(a), c = cosf(a);
    return steer_v2(v.x * c + v.y * s, -v.x * s + v.y * c);
}

// Slot s's target from the reference pose (fixed formation); its velocity
// includes the reference's turning: v + w * (r.y, -r.x).
static inline void formation_fixed_target(const formation *f, const pose *ref, int s, steer_vec2 *pos, steer_vec2 *vel, float *orient)
{
    steer_vec2 r = formation_rotate(f->slots[s].offset, ref->orient);
    *pos = steer_add(ref->pos, r);
    *vel = steer_add(ref->vel, steer_scale(steer_v2(r.y, -r.x), ref->rotation));
    *orient = steer_wrap_angle(ref->orient + f->slots[s].orientation);
}

// Emergent: the nearest occupied ancestor slot of s (-1: the reference).
static inline int formation_occupied_parent(const formation *f, int s)
{
    int p = f->parent[s];
    while (p >= 0 && f->holder[p] < 0) p = f->parent[p];
    return p;
}

/* ---- formation_step.c ------------------------------------------------------------ */

/// Before the evaluation pass: drop members that were removed, reassign
/// where membership changed, move anchors, compute every member's slot
/// target. Allocates nothing (room is reserved when members join).
void steer__formation_step_update(steer_world *w, float dt);
/// The slots of the current definition and member count (offsets, cost
/// roles; not the emergent tree), without assigning: O(slots).
void steer__formation_step_slots(formation *f);
/// Assignments run so far (a test counts them: one per change of members
/// read, not one per member added).
extern unsigned long steer__formation_assignments;
/// Assign every formation whose members changed since (outside a step:
/// what a preview reads).
void steer__formation_step_settle(steer_world *w);
/// After integration: rigid formations put their members on their slots,
/// parents before the formations their members lead.
void steer__formation_step_place(steer_world *w);
/// Reassign every member (no allocation: room reserved when members
/// joined), then bring the targets up to date, so that get_steering between
/// steps reads the targets of the new assignment.
void steer__formation_step_assign(steer_world *w, formation *f);
/// Member m leaves f (order of joining kept); f is reassigned later.
void steer__formation_step_remove(steer_world *w, formation *f, int m);
/// Target of slot s (held by a member) now; false without a reference.
bool steer__formation_step_slot_target(const steer_world *w, const formation *f, int s, steer_vec2 *pos,
                                       steer_vec2 *vel, float *orient);
/// Cost of member m in slot s: distance (to targets[s], when given), cost role,
/// extra (INFINITY: forbidden).
float steer__formation_step_pair_cost(const steer_world *w, const formation *f, int m, int s,
                                      const steer_vec2 *targets);

/* ---- formation.c ------------------------------------------------------------------ */

/// Snapshots: make the world's formation table if it has none; give f
/// (may be NULL) room for members and slots, and the membership table room
/// for agent slot index max_index (0: none). False when memory ran out.
bool steer__formation_reserve(steer_world *w, formation *f, int members, int slots, uint32_t max_index);
/// Free what a formation holds (its arrays, references to its path and behaviour).
void steer__formation_free(formation *f);
/// Free every formation of a world, and the slot targets.
void steer__formation_free_all(steer_world *w);

#endif
