// formation.c: formations, from the formation questions of the movement
// notes: a set of slots that the characters of a group take, usually
// around a leader (fixed formation); members that each follow another
// member (emergent formation, a tree); a rigid shape whose members need no
// steering of their own; a two-level formation whose anchor point moves
// on its own and slows when members fall behind (formation motion
// moderation); slot roles with costs and an exact optimal assignment.
#include "formation.h"

#include <math.h>
#include <stdio.h>

#include "eval.h"
#include "store.h"
#include "world.h"

typedef struct member {
    steer_agent_id agent;
    int role;
    int slot; ///< -1: none
    float *extra; ///< per-slot extra costs (owned), or NULL
    int extra_count;
} member;

typedef struct formation {
    uint32_t generation;
    bool alive;
    steer_formation_def def;     ///< arrays point at the copies below
    steer_formation_slot *given; ///< copy of def.slots
    float *role_costs;           ///< copy of def.role_costs
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

static formation *get(const steer_world *w, steer_formation_id id)
{
    const struct steer_formations *fs = w->formations;
    if (fs == NULL || id.index == 0 || id.index > (uint32_t)fs->count) return NULL;
    formation *f = &fs->items[id.index - 1];
    return f->alive && f->generation == id.generation ? f : NULL;
}

static steer_formation_id id_of(const steer_world *w, const formation *f)
{
    return (steer_formation_id){(uint32_t)(f - w->formations->items) + 1, f->generation};
}

// The formation and member index of an agent, or NULL.
static formation *membership(const steer_world *w, steer_agent_id a, int *m)
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

static void set_ref(steer_world *w, formation *f, int m)
{
    steer_agent_id a = f->members[m].agent;
    w->formations->ref[a.index - 1] =
        (member_ref){(uint32_t)(f - w->formations->items) + 1, a.generation, m};
}

/* ---- patterns ---------------------------------------------------------------------- */

// Slot i of n of a built-in pattern, in the reference's frame (+y forward).
static steer_formation_slot pattern_slot(steer_formation_pattern p, float s, int i, int n)
{
    steer_formation_slot slot = {{0.0f, 0.0f}, 0.0f, 0};
    const float diag = 0.70710678f;
    switch (p) {
    case STEER_PATTERN_LINE: // one rank behind the reference, centred
        slot.offset = steer_v2(((float)i - 0.5f * (float)(n - 1)) * s, -s);
        break;
    case STEER_PATTERN_COLUMN:
        slot.offset = steer_v2(0.0f, -(float)(i + 1) * s);
        break;
    case STEER_PATTERN_V: { // 45-degree wedge: left, right, left, right...
        float rank = (float)(i / 2 + 1), side = (i % 2 == 0) ? -1.0f : 1.0f;
        slot.offset = steer_v2(side * rank * s * diag, -rank * s * diag);
        break;
    }
    case STEER_PATTERN_CIRCLE:
    case STEER_PATTERN_DEFENSIVE_CIRCLE: {
        // the circle grows with its members: neighbours stay `spacing` apart
        float r = fmaxf(s, (float)n * s / (2.0f * STEER_PI));
        float a = 2.0f * STEER_PI * (float)i / (float)n;
        slot.offset = steer_scale(steer_heading(a), r);
        if (p == STEER_PATTERN_DEFENSIVE_CIRCLE) slot.orientation = steer_wrap_angle(a); // facing out
        break;
    }
    case STEER_PATTERN_GRID: {
        int cols = (int)ceil(sqrt((double)n));
        int row = i / cols, col = i % cols;
        slot.offset = steer_v2(((float)col - 0.5f * (float)(cols - 1)) * s, -(float)(row + 1) * s);
        break;
    }
    default: break;
    }
    return slot;
}

// Lay out the slots for the current members (no allocation: reserved).
static void compute_slots(formation *f)
{
    const steer_formation_def *d = &f->def;
    if (d->pattern == STEER_PATTERN_OFFSETS) {
        f->slot_count = d->slot_count;
        for (int i = 0; i < d->slot_count; ++i) f->slots[i] = f->given[i];
    } else {
        f->slot_count = f->count;
        for (int i = 0; i < f->count; ++i) {
            f->slots[i] = pattern_slot(d->pattern, d->spacing, i, f->count);
            // slot roles of a built-in pattern come from the given slots
            f->slots[i].role = i < d->slot_count ? f->given[i].role : 0;
        }
    }
    // emergent: each slot follows the nearest of the reference and the
    // slots before it (ties: the reference, then the lowest index), so the
    // follow graph is a tree whatever the pattern. Only on a change of shape.
    for (int i = 0; i < f->slot_count; ++i) {
        float best = steer_length_sq(f->slots[i].offset);
        int p = -1;
        for (int j = 0; j < i; ++j) {
            float d2 = steer_length_sq(steer_sub(f->slots[i].offset, f->slots[j].offset));
            if (d2 < best) best = d2, p = j;
        }
        f->parent[i] = p;
    }
}

/* ---- reference pose ---------------------------------------------------------------- */

typedef struct pose {
    steer_vec2 pos, vel;
    float orient, rotation;
} pose;

static bool agent_pose(const steer_world *w, steer_agent_id a, pose *out)
{
    int i = steer__store_dense(w, a);
    if (i < 0) return false;
    const steer_kinematic *k = &w->state[i];
    *out = (pose){k->position, k->velocity, k->orientation, k->rotation};
    return true;
}

static bool reference_pose(const steer_world *w, const formation *f, pose *out)
{
    if (!steer_agent_id_is_null(f->def.leader)) {
        if (!agent_pose(w, f->def.leader, out)) return false;
        if (f->leader_seen) out->rotation = f->leader_rotation;
        return true;
    }
    *out = (pose){f->anchor_pos, f->anchor_vel, f->anchor_orient, f->anchor_rotation};
    return true;
}

// local (x right, y forward) to world for an orientation a (heading (sin a, cos a))
static steer_vec2 rotate(steer_vec2 v, float a)
{
    float s = sinf(a), c = cosf(a);
    return steer_v2(v.x * c + v.y * s, -v.x * s + v.y * c);
}

// Slot s's target from the reference pose (fixed formation); its velocity
// includes the reference's turning: v + w * (r.y, -r.x).
static void fixed_target(const formation *f, const pose *ref, int s, steer_vec2 *pos, steer_vec2 *vel, float *orient)
{
    steer_vec2 r = rotate(f->slots[s].offset, ref->orient);
    *pos = steer_add(ref->pos, r);
    *vel = steer_add(ref->vel, steer_scale(steer_v2(r.y, -r.x), ref->rotation));
    *orient = steer_wrap_angle(ref->orient + f->slots[s].orientation);
}

// Emergent: the nearest occupied ancestor slot of s (-1: the reference).
static int occupied_parent(const formation *f, int s)
{
    int p = f->parent[s];
    while (p >= 0 && f->holder[p] < 0) p = f->parent[p];
    return p;
}

// Target of slot s (held by a member) now; false without a reference.
static bool slot_target(const steer_world *w, const formation *f, int s, steer_vec2 *pos, steer_vec2 *vel,
                        float *orient)
{
    pose ref;
    if (!reference_pose(w, f, &ref)) return false;
    if (f->def.motion != STEER_MOTION_EMERGENT) {
        fixed_target(f, &ref, s, pos, vel, orient);
        return true;
    }
    // emergent: an offset from the member followed, in its frame
    int p = occupied_parent(f, s);
    pose parent = ref;
    steer_vec2 base = {0.0f, 0.0f};
    float base_o = 0.0f;
    if (p >= 0 && agent_pose(w, f->members[f->holder[p]].agent, &parent)) {
        base = f->slots[p].offset;
        base_o = f->slots[p].orientation;
    }
    float frame = parent.orient - base_o;
    *pos = steer_add(parent.pos, rotate(steer_sub(f->slots[s].offset, base), frame));
    *vel = parent.vel;
    *orient = steer_wrap_angle(frame + f->slots[s].orientation);
    return true;
}

/* ---- assignment -------------------------------------------------------------------- */

static int cost_cols(const formation *f) { return f->slot_count > f->count ? f->slot_count : f->count; }

// Cost of member m in slot s: distance, role, extra (INFINITY: forbidden).
static float pair_cost(const steer_world *w, const formation *f, int m, int s, const steer_vec2 *targets)
{
    if (s >= f->slot_count) return INFINITY; // a column for members beyond the slots
    const member *mb = &f->members[m];
    double c = 0.0;
    if (f->def.distance_weight > 0.0f && targets != NULL) {
        int i = steer__store_dense(w, mb->agent);
        if (i >= 0) c += (double)f->def.distance_weight * steer_length(steer_sub(w->state[i].position, targets[s]));
    }
    int rc = f->def.role_count, mr = mb->role, sr = f->slots[s].role;
    if (f->role_costs != NULL && mr >= 0 && mr < rc && sr >= 0 && sr < rc) c += f->role_costs[mr * rc + sr];
    if (s < mb->extra_count) c += mb->extra[s];
    return isfinite(c) ? (float)c : INFINITY;
}

// Fixed-frame slot positions now, into cost-sized scratch (target_pos of
// slots, not members: the update rewrites target_pos afterwards).
static const steer_vec2 *slot_positions(const steer_world *w, formation *f, steer_vec2 *out)
{
    pose ref;
    if (!reference_pose(w, f, &ref)) return NULL;
    for (int s = 0; s < f->slot_count; ++s) out[s] = steer_add(ref.pos, rotate(f->slots[s].offset, ref.orient));
    return out;
}

static uint64_t key_of(const steer_world *w, steer_agent_id a)
{
    int i = steer__store_dense(w, a);
    return i >= 0 ? w->key[i] : UINT64_MAX;
}

// Row r of the cost matrix is member by_key[r]: members in order of agent
// key, so ties resolve the same way whatever order members joined in.
static void fill_costs(const steer_world *w, formation *f, const steer_vec2 *targets)
{
    const int cols = cost_cols(f);
    for (int m = 0; m < f->count; ++m) {
        // insertion by key (only when the shape changes; n is small)
        uint64_t key = key_of(w, f->members[m].agent);
        int r = m;
        while (r > 0 && key_of(w, f->members[f->by_key[r - 1]].agent) > key) {
            f->by_key[r] = f->by_key[r - 1];
            --r;
        }
        f->by_key[r] = m;
    }
    for (int r = 0; r < f->count; ++r) {
        for (int s = 0; s < cols; ++s)
            f->cost[(size_t)r * (size_t)cols + (size_t)s] = pair_cost(w, f, f->by_key[r], s, targets);
    }
}

static void update_targets(const steer_world *w, formation *f)
{
    for (int m = 0; m < f->count; ++m) {
        int s = f->members[m].slot;
        f->has_target[m] = s >= 0 && slot_target(w, f, s, &f->target_pos[m], &f->target_vel[m], &f->target_orient[m]);
    }
}

static void assign_slots(steer_world *w, formation *f);

// Reassign every member (no allocation: room reserved when members joined),
// then bring the targets up to date, so that get_steering between steps
// reads the targets of the new assignment.
static void assign(steer_world *w, formation *f)
{
    assign_slots(w, f);
    update_targets(w, f);
}

static void remove_member(steer_world *w, formation *f, int m);

static void assign_slots(steer_world *w, formation *f)
{
    // members removed from the world leave first (no allocation)
    for (int m = f->count - 1; m >= 0; --m) {
        if (!steer_agent_is_valid(w, f->members[m].agent)) remove_member(w, f, m);
    }
    compute_slots(f);
    const int n = f->count, cols = cost_cols(f);
    // slot positions go in target_pos (sized for max(members, slots))
    const steer_vec2 *targets = slot_positions(w, f, f->target_pos);
    fill_costs(w, f, targets);
    if (f->def.assignment == STEER_ASSIGN_ORDERED) {
        // member order: each takes the first free slot it is allowed in
        for (int s = 0; s < f->slot_count; ++s) f->holder[s] = -1;
        for (int m = 0; m < n; ++m) {
            f->members[m].slot = -1;
            for (int s = 0; s < f->slot_count; ++s) {
                if (f->holder[s] < 0 && isfinite(pair_cost(w, f, m, s, targets))) {
                    f->members[m].slot = s;
                    f->holder[s] = m;
                    break;
                }
            }
        }
        f->dirty = false;
        return;
    }
    steer_assign_optimal(f->cost, n, cols, f->row_to_col, f->scratch);
    // Hysteresis: keep the current assignment when it is complete and costs
    // no more than the optimum (ties), so members never swap back and forth.
    bool keep = n > 0;
    double current = 0.0, best = 0.0;
    for (int s = 0; s < f->slot_count; ++s) f->holder[s] = -1;
    for (int r = 0; r < n && keep; ++r) {
        int m = f->by_key[r], s = f->members[m].slot;
        if (s < 0 || s >= f->slot_count || f->holder[s] >= 0) keep = false;
        else f->holder[s] = m, current += f->cost[(size_t)r * (size_t)cols + (size_t)s];
    }
    for (int r = 0; r < n; ++r) {
        int s = f->row_to_col[r];
        best += s >= 0 ? (double)f->cost[(size_t)r * (size_t)cols + (size_t)s] : INFINITY;
    }
    keep = keep && isfinite(current) && current <= best + 1e-6 * (1.0 + fabs(best));
    for (int s = 0; s < f->slot_count; ++s) f->holder[s] = -1;
    for (int r = 0; r < n; ++r) {
        int m = f->by_key[r];
        int s = keep ? f->members[m].slot : f->row_to_col[r];
        if (s >= f->slot_count) s = -1;
        f->members[m].slot = s;
        if (s >= 0) f->holder[s] = m;
    }
    f->dirty = false;
}

/* ---- storage ----------------------------------------------------------------------- */

// Room for `members` members and `slots` slots, everything the update and
// the assignment use; outside the step only.
static bool reserve(formation *f, int members, int slots)
{
    if (members > f->capacity) {
        int cap = members;
        if (!STEER_GROW(f->members, cap) || !STEER_GROW(f->target_vel, cap) || !STEER_GROW(f->target_orient, cap) ||
            !STEER_GROW(f->has_target, cap) || !STEER_GROW(f->row_to_col, cap) || !STEER_GROW(f->by_key, cap))
            return false;
        f->capacity = cap;
    }
    int scap = slots > members ? slots : members;
    if (scap > f->slot_capacity) {
        if (!STEER_GROW(f->slots, scap) || !STEER_GROW(f->holder, scap) || !STEER_GROW(f->parent, scap))
            return false;
        f->slot_capacity = scap;
    }
    // target_pos doubles as the slot positions of the assignment
    int tcap = f->capacity > f->slot_capacity ? f->capacity : f->slot_capacity;
    if (!STEER_GROW(f->target_pos, tcap)) return false;
    size_t cols = (size_t)(f->slot_capacity > f->capacity ? f->slot_capacity : f->capacity);
    size_t cells = (size_t)f->capacity * cols;
    if (cells > f->cost_capacity) {
        if (!STEER_GROW(f->cost, cells)) return false;
        f->cost_capacity = cells;
    }
    size_t bytes = steer_assignment_scratch_size(f->capacity, (int)cols);
    if (bytes > f->scratch_capacity) {
        void *p = steer__realloc(f->scratch, bytes);
        if (p == NULL) return false;
        f->scratch = p;
        f->scratch_capacity = bytes;
    }
    return true;
}

static bool reserve_refs(steer_world *w, uint32_t index)
{
    struct steer_formations *fs = w->formations;
    if ((int)index <= fs->ref_capacity) return true;
    int cap = w->slot_capacity > (int)index ? w->slot_capacity : (int)index;
    if (!STEER_GROW(fs->ref, cap)) return false;
    memset(fs->ref + fs->ref_capacity, 0, sizeof *fs->ref * (size_t)(cap - fs->ref_capacity));
    fs->ref_capacity = cap;
    return true;
}

static void free_formation(formation *f)
{
    for (int m = 0; m < f->count; ++m) steer__free(f->members[m].extra);
    if (f->def.anchor_path != NULL) steer_path_release(f->def.anchor_path);
    steer_behaviour_release(f->def.anchor_behaviour);
    steer__free(f->given);
    steer__free(f->role_costs);
    steer__free(f->members);
    steer__free(f->slots);
    steer__free(f->holder);
    steer__free(f->parent);
    steer__free(f->target_pos);
    steer__free(f->target_vel);
    steer__free(f->target_orient);
    steer__free(f->has_target);
    steer__free(f->cost);
    steer__free(f->row_to_col);
    steer__free(f->by_key);
    steer__free(f->scratch);
}

void steer__formations_destroy(struct steer_formations *fs)
{
    if (fs == NULL) return;
    for (int i = 0; i < fs->count; ++i) {
        if (fs->items[i].alive) free_formation(&fs->items[i]);
    }
    steer__free(fs->items);
    steer__free(fs->ref);
    steer__free(fs);
}

/* ---- definitions ------------------------------------------------------------------- */

bool steer_formation_can_steer_anchor(const steer_behaviour *b)
{
    // the recursion is as deep as the tree (at most STEER_MAX_TREE_DEPTH)
    if (b == NULL) return true;
    steer_behaviour_type t = steer_behaviour_get_type(b);
    if (t == STEER_CALLBACK || t == STEER_FORMATION_SLOT) return false;
    for (int i = 0; i < steer_behaviour_child_count(b); ++i) {
        if (!steer_formation_can_steer_anchor(steer_behaviour_get_child(b, i).behaviour)) return false;
    }
    return true;
}

static bool def_is_valid(const steer_formation_def *d)
{
    if (!STEER_CHECK(d != NULL && d->cookie == STEER_COOKIE)) return false;
    if (!STEER_CHECK((unsigned)d->pattern <= STEER_PATTERN_OFFSETS)) return false;
    if (!STEER_CHECK(isfinite(d->spacing) && d->spacing > 0.0f && d->spacing <= 1e15f)) return false;
    if (!STEER_CHECK(d->slot_count >= 0 && (d->slot_count == 0 || d->slots != NULL))) return false;
    if (!STEER_CHECK(d->pattern != STEER_PATTERN_OFFSETS || d->slot_count >= 1)) return false;
    for (int i = 0; i < d->slot_count; ++i) {
        const steer_formation_slot *s = &d->slots[i];
        if (!STEER_CHECK(steer_vec2_is_finite(s->offset) && isfinite(s->orientation) && s->role >= 0)) return false;
        if (!STEER_CHECK(fabsf(s->offset.x) <= 1e15f && fabsf(s->offset.y) <= 1e15f)) return false;
    }
    if (!STEER_CHECK(steer_vec2_is_finite(d->anchor_position) && isfinite(d->anchor_orientation))) return false;
    if (!STEER_CHECK(d->anchor_target.kind != STEER_TARGET_POINT || steer_vec2_is_finite(d->anchor_target.point)))
        return false;
    if (!STEER_CHECK(isfinite(d->anchor_max_speed) && d->anchor_max_speed >= 0.0f)) return false;
    if (!STEER_CHECK(isfinite(d->anchor_max_rotation) && d->anchor_max_rotation >= 0.0f)) return false;
    if (!STEER_CHECK(isfinite(d->moderation_distance) && d->moderation_distance > 0.0f)) return false;
    if (!STEER_CHECK(isfinite(d->anchor_max_acceleration) && d->anchor_max_acceleration >= 0.0f)) return false;
    if (!STEER_CHECK(steer_formation_can_steer_anchor(d->anchor_behaviour))) return false;
    if (!STEER_CHECK((unsigned)d->motion <= STEER_MOTION_EMERGENT)) return false;
    if (!STEER_CHECK((unsigned)d->assignment <= STEER_ASSIGN_ORDERED)) return false;
    if (!STEER_CHECK(isfinite(d->distance_weight) && d->distance_weight >= 0.0f)) return false;
    if (!STEER_CHECK(d->role_count >= 0 && d->role_count <= 4096 && (d->role_count == 0 || d->role_costs != NULL)))
        return false;
    for (int i = 0; i < d->role_count * d->role_count; ++i) {
        // finite costs or +INFINITY (forbidden); never NaN or -INFINITY
        if (!STEER_CHECK(!isnan(d->role_costs[i]) && d->role_costs[i] != -INFINITY)) return false;
    }
    if (!STEER_CHECK(d->member_capacity >= 0)) return false;
    return true;
}

// Would `a` (as a leader) sit below formation `target`: is `a` a member of
// `target`, or of a formation whose leader is, and so on?
static bool leads_into(const steer_world *w, steer_agent_id a, const formation *target)
{
    for (int hops = 0; hops <= w->formations->count && !steer_agent_id_is_null(a); ++hops) {
        formation *g = membership(w, a, NULL);
        if (g == NULL) return false;
        if (g == target) return true;
        a = g->def.leader;
    }
    return true; // a longer chain than there are formations: a cycle
}

// Copy the definition's arrays into f (allocates; outside the step).
static bool adopt_def(formation *f, const steer_formation_def *d)
{
    steer_formation_slot *given = NULL;
    float *costs = NULL;
    if (d->slot_count > 0) {
        given = steer__alloc(sizeof *given * (size_t)d->slot_count);
        if (given == NULL) return false;
        memcpy(given, d->slots, sizeof *given * (size_t)d->slot_count);
    }
    if (d->role_count > 0) {
        size_t n = (size_t)d->role_count * (size_t)d->role_count;
        costs = steer__alloc(sizeof *costs * n);
        if (costs == NULL) {
            steer__free(given);
            return false;
        }
        memcpy(costs, d->role_costs, sizeof *costs * n);
    }
    int slots = d->pattern == STEER_PATTERN_OFFSETS ? d->slot_count : f->count;
    if (!reserve(f, f->count > 0 ? f->count : 1, slots)) {
        steer__free(given);
        steer__free(costs);
        return false;
    }
    if (d->anchor_path != NULL) steer_path_retain(d->anchor_path);
    if (f->def.anchor_path != NULL) steer_path_release(f->def.anchor_path);
    if (d->anchor_behaviour != f->def.anchor_behaviour) memset(f->anchor_mem, 0, sizeof f->anchor_mem);
    steer_behaviour_retain(d->anchor_behaviour);
    steer_behaviour_release(f->def.anchor_behaviour);
    steer__free(f->given);
    steer__free(f->role_costs);
    f->given = given;
    f->role_costs = costs;
    f->def = *d;
    f->def.slots = given;
    f->def.role_costs = costs;
    return true;
}

steer_formation_id steer_formation_create(steer_world *w, const steer_formation_def *def)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return steer_null_formation;
    if (!def_is_valid(def)) return steer_null_formation;
    if (!steer_agent_id_is_null(def->leader) && !STEER_CHECK(steer_agent_is_valid(w, def->leader)))
        return steer_null_formation;
    if (w->formations == NULL) {
        w->formations = steer__alloc(sizeof *w->formations);
        if (w->formations == NULL) return steer_null_formation;
        memset(w->formations, 0, sizeof *w->formations);
    }
    struct steer_formations *fs = w->formations;
    // a free entry, or a new one
    int at = -1;
    for (int i = 0; i < fs->count && at < 0; ++i) at = fs->items[i].alive ? -1 : i;
    if (at < 0) {
        if (fs->count == fs->capacity) {
            int cap = fs->capacity > 0 ? fs->capacity * 2 : 4;
            if (!STEER_GROW(fs->items, cap)) return steer_null_formation;
            fs->capacity = cap;
        }
        at = fs->count++;
        memset(&fs->items[at], 0, sizeof fs->items[at]);
    }
    formation *f = &fs->items[at];
    uint32_t generation = f->generation + 1 == 0 ? 1 : f->generation + 1;
    memset(f, 0, sizeof *f);
    f->generation = generation;
    int cap = def->member_capacity > 0 ? def->member_capacity : 16;
    if (!reserve(f, cap, def->pattern == STEER_PATTERN_OFFSETS ? def->slot_count : cap) || !adopt_def(f, def)) {
        free_formation(f);
        memset(f, 0, sizeof *f);
        f->generation = generation;
        return steer_null_formation;
    }
    f->alive = true;
    f->anchor_pos = def->anchor_position;
    f->anchor_orient = steer_wrap_angle(def->anchor_orientation);
    f->moderation = 1.0f;
    f->anchor_rng = steer__stream_seed(w->def.seed, 0xF0F0F0F000000000ull + (uint64_t)at);
    ++fs->live;
    return id_of(w, f);
}

void steer_formation_destroy(steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    if (f == NULL || !STEER_CHECK(!w->stepping)) return;
    uint32_t generation = f->generation;
    free_formation(f);
    memset(f, 0, sizeof *f);
    f->generation = generation; // the next formation here gets generation + 1
    --w->formations->live;
}

bool steer_formation_is_valid(const steer_world *w, steer_formation_id id) { return get(w, id) != NULL; }
int steer_world_formation_count(const steer_world *w) { return w->formations ? w->formations->live : 0; }

const steer_formation_def *steer_formation_get_def(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return STEER_CHECK(f != NULL) ? &f->def : NULL;
}

bool steer_formation_set_def(steer_world *w, steer_formation_id id, const steer_formation_def *def)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return false;
    if (!def_is_valid(def)) return false;
    // a member, or a cycle of formations
    if (!STEER_CHECK(steer_formation_check_leader(w, id, def->leader) == NULL)) return false;
    const steer_agent_id old_leader = f->def.leader;
    if (!steer_agent_id_equal(f->def.leader, def->leader)) f->leader_seen = false;
    if (!adopt_def(f, def)) return false;
    if (!steer_agent_id_is_null(old_leader) && steer_agent_id_is_null(def->leader)) {
        // from a leader to an anchor: the anchor starts where the leader was
        pose p;
        if (agent_pose(w, old_leader, &p)) f->anchor_pos = p.pos, f->anchor_orient = p.orient;
    }
    assign(w, f);
    return true;
}

/* ---- members ----------------------------------------------------------------------- */

const char *steer_formation_check_add(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = get(w, id);
    if (f == NULL) return "must be added to a live formation";
    if (!steer_agent_is_valid(w, a)) return "must be a live agent";
    if (steer_agent_id_equal(a, f->def.leader)) return "must not be the formation's leader";
    if (membership(w, a, NULL) != NULL) return "is already a member of a formation";
    // a member that leads a formation above this one would close a cycle
    const struct steer_formations *fs = w->formations;
    for (int i = 0; i < fs->count; ++i) {
        const formation *g = &fs->items[i];
        if (!g->alive || !steer_agent_id_equal(g->def.leader, a)) continue;
        if (g == f || leads_into(w, f->def.leader, g)) return "would make formations lead each other in a cycle";
    }
    return NULL;
}

const char *steer_formation_check_leader(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = get(w, id);
    if (f == NULL) return "must be set on a live formation";
    if (steer_agent_id_is_null(a)) return NULL;
    if (!steer_agent_is_valid(w, a)) return "must be a live agent";
    if (membership(w, a, NULL) == f) return "must not be a member of the formation";
    if (leads_into(w, a, f)) return "would make formations lead each other in a cycle";
    return NULL;
}

bool steer_formation_set_member_role(steer_world *w, steer_formation_id id, steer_agent_id a, int role)
{
    formation *f = get(w, id);
    int m;
    if (!STEER_CHECK(f != NULL && !w->stepping && role >= 0 && membership(w, a, &m) == f)) return false;
    f->members[m].role = role;
    return true;
}

int steer_formation_allowed_slots(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = get(w, id);
    int m, n = 0;
    if (f == NULL || membership(w, a, &m) != f) return 0;
    for (int s = 0; s < f->slot_count; ++s) n += isfinite(pair_cost(w, f, m, s, NULL)) != 0;
    return n;
}

bool steer_formation_add(steer_world *w, steer_formation_id id, steer_agent_id a, int role)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return false;
    if (!STEER_CHECK(role >= 0)) return false;
    if (!STEER_CHECK(steer_formation_check_add(w, id, a) == NULL)) return false;
    int slots = f->def.pattern == STEER_PATTERN_OFFSETS ? f->def.slot_count : f->count + 1;
    int cap = f->count + 1 > f->capacity ? f->capacity * 2 : f->capacity;
    if (!reserve(f, cap, slots) || !reserve_refs(w, a.index)) return false;
    f->members[f->count] = (member){a, role, -1, NULL, 0};
    set_ref(w, f, f->count);
    ++f->count;
    assign(w, f);
    return true;
}

static void remove_member(steer_world *w, formation *f, int m)
{
    steer_agent_id a = f->members[m].agent;
    steer__free(f->members[m].extra);
    // keep the order of joining: ordered assignment and ties depend on it
    for (int k = m + 1; k < f->count; ++k) f->members[k - 1] = f->members[k];
    --f->count;
    struct steer_formations *fs = w->formations;
    if (a.index >= 1 && (int)a.index <= fs->ref_capacity) fs->ref[a.index - 1].formation = 0;
    for (int k = m; k < f->count; ++k) {
        steer_agent_id b = f->members[k].agent;
        if (steer_agent_is_valid(w, b)) set_ref(w, f, k);
    }
    f->dirty = true;
}

bool steer_formation_remove(steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return false;
    int m;
    if (membership(w, a, &m) != f) return false;
    remove_member(w, f, m);
    assign(w, f);
    return true;
}

int steer_formation_member_count(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return f != NULL ? f->count : 0;
}

steer_agent_id steer_formation_member_at(const steer_world *w, steer_formation_id id, int i)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && i >= 0 && i < f->count)) return steer_null_agent;
    return f->members[i].agent;
}

steer_formation_id steer_agent_get_formation(const steer_world *w, steer_agent_id a)
{
    formation *f = membership(w, a, NULL);
    return f != NULL ? id_of(w, f) : steer_null_formation;
}

bool steer_formation_set_member_costs(steer_world *w, steer_formation_id id, steer_agent_id a, const float *costs,
                                      int count)
{
    formation *f = get(w, id);
    int m;
    if (!STEER_CHECK(f != NULL && !w->stepping && membership(w, a, &m) == f)) return false;
    if (!STEER_CHECK(count >= 0 && (count == 0 || costs != NULL))) return false;
    for (int i = 0; i < count; ++i) {
        if (!STEER_CHECK(!isnan(costs[i]) && costs[i] != -INFINITY)) return false;
    }
    float *copy = NULL;
    if (count > 0) {
        copy = steer__alloc(sizeof *copy * (size_t)count);
        if (copy == NULL) return false;
        memcpy(copy, costs, sizeof *copy * (size_t)count);
    }
    steer__free(f->members[m].extra);
    f->members[m].extra = copy;
    f->members[m].extra_count = count;
    assign(w, f);
    return true;
}

void steer_formation_reassign(steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return;
    assign(w, f);
}

/* ---- queries ----------------------------------------------------------------------- */

int steer_formation_slot_count(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return f != NULL ? f->slot_count : 0;
}

int steer_formation_slot_of(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    int m;
    formation *f = get(w, id);
    if (f == NULL || membership(w, a, &m) != f) return -1;
    return f->members[m].slot;
}

steer_agent_id steer_formation_slot_holder(const steer_world *w, steer_formation_id id, int s)
{
    formation *f = get(w, id);
    if (f == NULL || s < 0 || s >= f->slot_count || f->holder[s] < 0) return steer_null_agent;
    return f->members[f->holder[s]].agent;
}

steer_formation_slot steer_formation_get_slot(const steer_world *w, steer_formation_id id, int s)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL && s >= 0 && s < f->slot_count)) return (steer_formation_slot){{0, 0}, 0, 0};
    return f->slots[s];
}

bool steer_formation_slot_target(const steer_world *w, steer_formation_id id, int s, steer_vec2 *position,
                                 float *orientation)
{
    formation *f = get(w, id);
    if (f == NULL || s < 0 || s >= f->slot_count) return false;
    steer_vec2 p, v;
    float o;
    if (!slot_target(w, f, s, &p, &v, &o)) return false;
    if (position != NULL) *position = p;
    if (orientation != NULL) *orientation = o;
    return true;
}

steer_agent_id steer_formation_followed(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    int m;
    formation *f = get(w, id);
    if (f == NULL || membership(w, a, &m) != f) return steer_null_agent;
    int s = f->members[m].slot;
    if (f->def.motion != STEER_MOTION_EMERGENT || s < 0) return f->def.leader;
    int p = occupied_parent(f, s);
    return p >= 0 ? f->members[f->holder[p]].agent : f->def.leader;
}

float steer_formation_total_cost(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    if (!STEER_CHECK(f != NULL)) return 0.0f;
    pose ref;
    bool has_ref = reference_pose(w, f, &ref);
    double total = 0.0;
    for (int m = 0; m < f->count; ++m) {
        int s = f->members[m].slot;
        if (s < 0) continue;
        // the distance part against the fixed-frame slot position, as assigned
        steer_vec2 t = has_ref ? steer_add(ref.pos, rotate(f->slots[s].offset, ref.orient)) : steer_v2(0, 0);
        total += pair_cost(w, f, m, s, NULL); // roles and extras
        if (has_ref && f->def.distance_weight > 0.0f) {
            int i = steer__store_dense(w, f->members[m].agent);
            if (i >= 0) total += (double)f->def.distance_weight * steer_length(steer_sub(w->state[i].position, t));
        }
    }
    return (float)total;
}

steer_vec2 steer_formation_anchor_position(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return STEER_CHECK(f != NULL) ? f->anchor_pos : steer_v2(0.0f, 0.0f);
}

float steer_formation_anchor_orientation(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return STEER_CHECK(f != NULL) ? f->anchor_orient : 0.0f;
}

float steer_formation_anchor_moderation(const steer_world *w, steer_formation_id id)
{
    formation *f = get(w, id);
    return STEER_CHECK(f != NULL) ? f->moderation : 0.0f;
}

/* ---- the step ---------------------------------------------------------------------- */

static void turn_anchor(formation *f, float dt, float old_o);

// Two-level formation: the anchor arrives at its target or runs along its
// path, at a speed scaled down when the members lag (formation motion
// moderation: the group does not string out).
// The anchor's own behaviour, evaluated as for an agent at the anchor (no
// agent excluded from its neighbours, its own memory and random stream),
// then integrated as the notes' update with the moderated speed limit.
static void steer_anchor(steer_world *w, formation *f, float dt, float speed)
{
    eval_view view;
    steer__view_init(&view, w);
    eval_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.world = w;
    ctx.view = &view;
    ctx.self = -1;
    ctx.self_proxy = UINT32_MAX;
    ctx.me = (steer_kinematic){f->anchor_pos, f->anchor_orient, f->anchor_vel, f->anchor_rotation};
    ctx.lim = steer_default_limits();
    ctx.lim.radius = 0.0f;
    ctx.lim.max_speed = speed;
    ctx.lim.max_acceleration = f->def.anchor_max_acceleration;
    ctx.lim.max_rotation = f->def.anchor_max_rotation;
    ctx.dt = dt;
    ctx.mem = f->anchor_mem;
    ctx.rng = &f->anchor_rng;
    ctx.scratch = w->scratch;
    ctx.gathered_radius = -1.0f;
    ctx.sums.radius = -1.0f;
    steer_steering out = {{0.0f, 0.0f}, 0.0f};
    if (!steer__evaluate(&ctx, f->def.anchor_behaviour, &out) || !steer_vec2_is_finite(out.linear))
        out.linear = steer_v2(0.0f, 0.0f);
    f->anchor_pos = steer_mul_add(f->anchor_pos, f->anchor_vel, dt);
    f->anchor_vel = steer_clamp_length(steer_mul_add(f->anchor_vel, out.linear, dt), speed);
}

static void move_anchor(steer_world *w, formation *f, float dt)
{
    const steer_formation_def *d = &f->def;
    float lag = 0.0f;
    pose ref = {f->anchor_pos, f->anchor_vel, f->anchor_orient, f->anchor_rotation};
    for (int m = 0; m < f->count; ++m) {
        int s = f->members[m].slot, i = steer__store_dense(w, f->members[m].agent);
        if (s < 0 || i < 0) continue;
        steer_vec2 p, v;
        float o;
        fixed_target(f, &ref, s, &p, &v, &o);
        lag = fmaxf(lag, steer_length(steer_sub(w->state[i].position, p)));
    }
    f->moderation = lag > d->moderation_distance ? d->moderation_distance / lag : 1.0f;
    float speed = d->anchor_max_speed * f->moderation;
    steer_vec2 goal = f->anchor_pos;
    bool has_goal = false;
    steer_vec2 old = f->anchor_pos;
    float old_o = f->anchor_orient;
    if (d->anchor_behaviour != NULL) {
        steer_anchor(w, f, dt, speed);
        turn_anchor(f, dt, old_o);
        return;
    }
    if (d->anchor_path != NULL) {
        float length = steer_path_length(d->anchor_path);
        float next = f->anchor_param + speed * dt;
        if (!steer_path_is_loop(d->anchor_path) && next > length) next = length;
        f->anchor_param = next;
        goal = steer_path_position(d->anchor_path, next);
        has_goal = true;
    } else if (d->anchor_target.kind == STEER_TARGET_POINT) {
        goal = d->anchor_target.point;
        has_goal = true;
    } else if (d->anchor_target.kind == STEER_TARGET_AGENT) {
        pose p = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0.0f};
        has_goal = agent_pose(w, d->anchor_target.agent, &p);
        goal = p.pos;
    }
    steer_vec2 to = steer_sub(goal, f->anchor_pos);
    float dist = steer_length(to);
    // arrive: slow within two spacings of the goal; never overshoot it
    float step = dist;
    if (d->anchor_path == NULL) {
        float slow = 2.0f * d->spacing;
        float v = dist < slow ? speed * dist / slow : speed;
        step = fminf(dist, v * dt);
    }
    if (has_goal && dist > 1e-6f) f->anchor_pos = steer_add(f->anchor_pos, steer_scale(to, step / dist));
    f->anchor_vel = dt > 0.0f ? steer_scale(steer_sub(f->anchor_pos, old), 1.0f / dt) : steer_v2(0.0f, 0.0f);
    turn_anchor(f, dt, old_o);
}

// Turn the anchor towards its direction of motion at up to anchor_max_rotation.
static void turn_anchor(formation *f, float dt, float old_o)
{
    const steer_formation_def *d = &f->def;
    if (steer_length(f->anchor_vel) > 1e-3f) {
        float want = steer_orientation_of(f->anchor_vel);
        float turn = steer_wrap_angle(want - f->anchor_orient);
        float limit = d->anchor_max_rotation * dt;
        f->anchor_orient = steer_wrap_angle(f->anchor_orient + steer_clampf(turn, -limit, limit));
    }
    f->anchor_rotation = dt > 0.0f ? steer_wrap_angle(f->anchor_orient - old_o) / dt : 0.0f;
}

static int formation_depth(const steer_world *w, const formation *f)
{
    int depth = 0;
    steer_agent_id a = f->def.leader;
    const formation *g;
    while (depth <= w->formations->count && (g = membership(w, a, NULL)) != NULL) {
        ++depth;
        a = g->def.leader;
    }
    return depth;
}

void steer__formations_update(steer_world *w, float dt)
{
    struct steer_formations *fs = w->formations;
    if (fs == NULL) return;
    for (int k = 0; k < fs->count; ++k) {
        formation *f = &fs->items[k];
        if (!f->alive) continue;
        // members removed from the world leave the formation (no allocation)
        for (int m = f->count - 1; m >= 0; --m) {
            if (!steer_agent_is_valid(w, f->members[m].agent)) remove_member(w, f, m);
        }
        if (f->dirty) assign(w, f);
        pose lead;
        if (steer_agent_id_is_null(f->def.leader)) {
            move_anchor(w, f, dt);
        } else if (agent_pose(w, f->def.leader, &lead)) {
            f->leader_rotation = f->leader_seen && dt > 0.0f ? steer_wrap_angle(lead.orient - f->leader_orient) / dt
                                                             : lead.rotation;
            f->leader_orient = lead.orient;
            f->leader_seen = true;
        }
        f->depth = formation_depth(w, f);
        update_targets(w, f);
    }
}

// Rigid motion: the leader's speed is limited so that the member furthest
// out can keep up with its slot when the shape turns (the notes: the leader
// must take the size of its group into account), then every member is put
// on its slot.
static void place(steer_world *w, formation *f)
{
    int li = steer_agent_id_is_null(f->def.leader) ? -1 : steer__store_dense(w, f->def.leader);
    if (li >= 0) {
        float cap = INFINITY, reach = 0.0f;
        for (int m = 0; m < f->count; ++m) {
            int i = steer__store_dense(w, f->members[m].agent), s = f->members[m].slot;
            if (i < 0 || s < 0) continue;
            cap = fminf(cap, w->limits[i].max_speed);
            reach = fmaxf(reach, steer_length(f->slots[s].offset));
        }
        steer_kinematic *k = &w->state[li];
        float need = steer_length(k->velocity) + fabsf(k->rotation) * reach;
        if (isfinite(cap) && need > cap && need > 0.0f) {
            float scale = cap / need;
            k->velocity = steer_scale(k->velocity, scale);
            k->rotation *= scale;
        }
    }
    pose ref;
    if (!reference_pose(w, f, &ref)) return;
    for (int m = 0; m < f->count; ++m) {
        int i = steer__store_dense(w, f->members[m].agent), s = f->members[m].slot;
        if (i < 0 || s < 0) continue;
        steer_kinematic *k = &w->state[i];
        fixed_target(f, &ref, s, &k->position, &k->velocity, &k->orientation);
        k->rotation = ref.rotation;
    }
}

void steer__formations_place(steer_world *w)
{
    struct steer_formations *fs = w->formations;
    if (fs == NULL) return;
    int deepest = 0;
    for (int k = 0; k < fs->count; ++k) {
        if (fs->items[k].alive && fs->items[k].depth > deepest) deepest = fs->items[k].depth;
    }
    // formations led by members of others after those: the sub-leader is
    // placed before its own members are
    for (int depth = 0; depth <= deepest; ++depth) {
        for (int k = 0; k < fs->count; ++k) {
            formation *f = &fs->items[k];
            if (f->alive && f->depth == depth && f->def.motion == STEER_MOTION_RIGID) place(w, f);
        }
    }
}

/* ---- the member's behaviour -------------------------------------------------------- */

bool steer__eval_formation_slot(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    int m;
    steer_agent_id self = steer__ctx_self_id(ctx);
    formation *f = membership(ctx->world, self, &m);
    if (f == NULL || f->generation != d->formation.generation ||
        (uint32_t)(f - ctx->world->formations->items) + 1 != d->formation.index)
        return false;
    if (!f->has_target[m]) return false;
    // arrive at a moving slot: the slot's own velocity plus an approach
    // that slows inside slow_radius (arrive, from the movement notes), so a
    // member holds its place while the formation moves instead of lagging
    steer_vec2 to = steer_sub(f->target_pos[m], ctx->me.position);
    float dist = steer_length(to);
    steer_vec2 want = f->target_vel[m];
    if (dist >= d->target_radius && dist > 0.0f) {
        float speed = dist > d->slow_radius ? ctx->lim.max_speed : ctx->lim.max_speed * dist / d->slow_radius;
        want = steer_add(want, steer_scale(to, speed / dist));
    }
    want = steer_clamp_length(want, ctx->lim.max_speed);
    out->linear = steer__over_time(want, ctx->me.velocity, d->time_to_target, ctx->lim.max_acceleration);
    // align to the slot's orientation (align's defaults: 0.01 and 0.5 rad)
    steer_steering turn;
    out->angular = steer__align_orientation(ctx, f->target_orient[m], 0.01f, 0.5f, d->time_to_target, &turn)
                       ? turn.angular
                       : 0.0f;
    return true;
}
