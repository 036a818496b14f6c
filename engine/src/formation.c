// formation.c: formations as objects (creation, definitions, members,
// queries); their per-step work is the formation step's. Formations, from the formation questions of the movement
// notes: a set of slots that the characters of a group take, usually
// around a leader (fixed formation); members that each follow another
// member (emergent formation, a tree); a rigid shape whose members need no
// steering of their own; a two-level formation whose anchor point moves
// on its own and slows when members fall behind (formation motion
// moderation); slot roles with costs and an exact optimal assignment.
#include "formation.h"
#include "navigate.h"

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
    // the slot targets are by agent slot too, as long as the refs
    if (!STEER_GROW(fs->ref, cap) || !STEER_GROW(w->slot_targets, cap)) return false;
    memset(fs->ref + fs->ref_capacity, 0, sizeof *fs->ref * (size_t)(cap - fs->ref_capacity));
    memset(w->slot_targets + fs->ref_capacity, 0, sizeof *w->slot_targets * (size_t)(cap - fs->ref_capacity));
    fs->ref_capacity = cap;
    w->slot_target_capacity = cap;
    return true;
}

static void free_formation(formation *f)
{
    for (int m = 0; m < f->count; ++m) steer__free(f->members[m].extra);
    if (f->def.anchor_path != NULL) steer_path_release(f->def.anchor_path);
    steer_behaviour_release(f->def.anchor_behaviour);
    steer__navigate_free(f->anchor_plan);
    f->anchor_plan = NULL;
    steer__free(f->given);
    steer__free(f->cost_role_costs);
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

void steer__formation_free_all(steer_world *w)
{
    struct steer_formations *fs = w->formations;
    steer__free(w->slot_targets);
    if (fs == NULL) return;
    for (int i = 0; i < fs->count; ++i) {
        if (fs->items[i].alive) free_formation(&fs->items[i]);
    }
    steer__free(fs->items);
    steer__free(fs->ref);
    steer__free(fs);
}

bool steer__formation_reserve(steer_world *w, formation *f, int members, int slots, uint32_t max_index)
{
    if (w->formations == NULL) {
        w->formations = steer__alloc(sizeof *w->formations);
        if (w->formations == NULL) return false;
        memset(w->formations, 0, sizeof *w->formations);
    }
    if (f != NULL && !reserve(f, members > 0 ? members : 1, slots)) return false;
    return max_index == 0 || reserve_refs(w, max_index);
}

void steer__formation_free(formation *f) { free_formation(f); }

/* ---- definitions ------------------------------------------------------------------- */

// A change of members only marks the formation dirty: building a formation
// member by member costs one assignment, not one per member. Whatever reads
// the assignment (and the step) settles it first.
static void formation_settle(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    if (f != NULL && f->dirty && !w->stepping) steer__formation_step_assign((steer_world *)w, f);
}

// What the slots alone need (their count, their cost roles): those of the
// current definition and members, without the assignment, so that checking
// each member as it joins costs O(slots), not an assignment.
static void formation_slots_settle(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    if (f != NULL && f->dirty && !w->stepping) steer__formation_step_slots(f);
}

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
    if (!STEER_CHECK(isfinite(d->spacing) && d->spacing > 0.0f && d->spacing <= STEER_MAX_COORDINATE)) return false;
    if (!STEER_CHECK(d->slot_count >= 0 && (d->slot_count == 0 || d->slots != NULL))) return false;
    if (!STEER_CHECK(d->pattern != STEER_PATTERN_OFFSETS || d->slot_count >= 1)) return false;
    for (int i = 0; i < d->slot_count; ++i) {
        const steer_formation_slot *s = &d->slots[i];
        if (!STEER_CHECK(steer_vec2_is_finite(s->offset) && isfinite(s->orientation) && s->cost_role >= 0)) return false;
        if (!STEER_CHECK(fabsf(s->offset.x) <= STEER_MAX_COORDINATE && fabsf(s->offset.y) <= STEER_MAX_COORDINATE))
            return false;
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
    if (!STEER_CHECK(d->cost_role_count >= 0 && d->cost_role_count <= STEER_MAX_FORMATION_ROLES && (d->cost_role_count == 0 || d->cost_role_costs != NULL)))
        return false;
    for (int i = 0; i < d->cost_role_count * d->cost_role_count; ++i) {
        // finite costs or +INFINITY (forbidden); never NaN or -INFINITY
        if (!STEER_CHECK(!isnan(d->cost_role_costs[i]) && d->cost_role_costs[i] != -INFINITY)) return false;
    }
    if (!STEER_CHECK(d->member_capacity >= 0)) return false;
    return true;
}

// Would `a` (as a leader) sit below formation `target`: is `a` a member of
// `target`, or of a formation whose leader is, and so on?
static bool leads_into(const steer_world *w, steer_agent_id a, const formation *target)
{
    for (int hops = 0; hops <= w->formations->count; ++hops) {
        // the chain ends at a formation without a leader (an anchored one)
        if (steer_agent_id_is_null(a)) return false;
        formation *g = formation_membership(w, a, NULL);
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
    if (d->cost_role_count > 0) {
        size_t n = (size_t)d->cost_role_count * (size_t)d->cost_role_count;
        costs = steer__alloc(sizeof *costs * n);
        if (costs == NULL) {
            steer__free(given);
            return false;
        }
        memcpy(costs, d->cost_role_costs, sizeof *costs * n);
    }
    int slots = d->pattern == STEER_PATTERN_OFFSETS ? d->slot_count : f->count;
    if (!reserve(f, f->count > 0 ? f->count : 1, slots)) {
        steer__free(given);
        steer__free(costs);
        return false;
    }
    if (d->anchor_path != NULL) steer_path_retain(d->anchor_path);
    if (f->def.anchor_path != NULL) steer_path_release(f->def.anchor_path);
    if (d->anchor_behaviour != f->def.anchor_behaviour) {
        memset(f->anchor_mem, 0, sizeof f->anchor_mem);
        steer__navigate_behaviour_changed(f->anchor_plan, d->anchor_behaviour, false);
        // a navigating anchor gets its plan here, not in a step
        if (f->anchor_plan == NULL && d->anchor_behaviour != NULL && d->anchor_behaviour->nav != NULL)
            f->anchor_plan = steer__navigate_new();
    }
    steer_behaviour_retain(d->anchor_behaviour);
    steer_behaviour_release(f->def.anchor_behaviour);
    steer__free(f->given);
    steer__free(f->cost_role_costs);
    f->given = given;
    f->cost_role_costs = costs;
    f->def = *d;
    f->def.slots = given;
    f->def.cost_role_costs = costs;
    return true;
}

steer_formation_id steer_formation_create(steer_world *w, const steer_formation_def *def)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return steer_null_formation;
    if (!def_is_valid(def)) return steer_null_formation;
    if (!steer_agent_id_is_null(def->leader) && !STEER_CHECK((steer__store_dense(w, def->leader) >= 0)))
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
    return formation_id_of(w, f);
}

void steer_formation_destroy(steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    if (f == NULL || !STEER_CHECK(!w->stepping)) return;
    uint32_t generation = f->generation;
    // its members' slot targets go with it
    for (int m = 0; m < f->count; ++m) {
        uint32_t slot = f->members[m].agent.index - 1;
        if ((int)slot < w->slot_target_capacity && w->slot_targets[slot].formation.index == id.index &&
            w->slot_targets[slot].formation.generation == id.generation)
            w->slot_targets[slot].formation = steer_null_formation;
    }
    free_formation(f);
    memset(f, 0, sizeof *f);
    f->generation = generation; // the next formation here gets generation + 1
    --w->formations->live;
}

bool steer_formation_is_valid(const steer_world *w, steer_formation_id id) { return formation_get(w, id) != NULL; }
int steer_world_formation_count(const steer_world *w) { return w->formations ? w->formations->live : 0; }

const steer_formation_def *steer_formation_get_def(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return STEER_CHECK(f != NULL) ? &f->def : NULL;
}

bool steer_formation_set_def(steer_world *w, steer_formation_id id, const steer_formation_def *def)
{
    formation *f = formation_get(w, id);
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
        if (formation_agent_pose(w, old_leader, &p)) f->anchor_pos = p.pos, f->anchor_orient = p.orient;
    }
    f->dirty = true; // assigned once at the next read or step
    return true;
}

/* ---- members ----------------------------------------------------------------------- */

const char *steer_formation_check_add(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = formation_get(w, id);
    if (f == NULL) return "must be added to a live formation";
    if (!(steer__store_dense(w, a) >= 0)) return "must be a live agent";
    if (steer_agent_id_equal(a, f->def.leader)) return "must not be the formation's leader";
    if (formation_membership(w, a, NULL) != NULL) return "is already a member of a formation";
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
    formation *f = formation_get(w, id);
    if (f == NULL) return "must be set on a live formation";
    // no leader, or the one it has (which may have left the world: the
    // formation then has no reference until it gets another)
    if (steer_agent_id_is_null(a) || steer_agent_id_equal(a, f->def.leader)) return NULL;
    if (!(steer__store_dense(w, a) >= 0)) return "must be a live agent";
    if (formation_membership(w, a, NULL) == f) return "must not be a member of the formation";
    if (leads_into(w, a, f)) return "would make formations lead each other in a cycle";
    return NULL;
}

bool steer_formation_set_member_cost_role(steer_world *w, steer_formation_id id, steer_agent_id a, int cost_role)
{
    formation *f = formation_get(w, id);
    int m;
    if (!STEER_CHECK(f != NULL && !w->stepping && cost_role >= 0 && formation_membership(w, a, &m) == f)) return false;
    f->members[m].cost_role = cost_role;
    return true;
}

int steer_formation_allowed_slots(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation_slots_settle(w, id);
    formation *f = formation_get(w, id);
    int m, n = 0;
    if (f == NULL || formation_membership(w, a, &m) != f) return 0;
    for (int s = 0; s < f->slot_count; ++s) n += isfinite(steer__formation_step_pair_cost(w, f, m, s, NULL)) != 0;
    return n;
}

bool steer_formation_add(steer_world *w, steer_formation_id id, steer_agent_id a, int cost_role)
{
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return false;
    if (!STEER_CHECK(cost_role >= 0)) return false;
    if (!STEER_CHECK(steer_formation_check_add(w, id, a) == NULL)) return false;
    int slots = f->def.pattern == STEER_PATTERN_OFFSETS ? f->def.slot_count : f->count + 1;
    int cap = f->count + 1 > f->capacity ? f->capacity * 2 : f->capacity;
    if (!reserve(f, cap, slots) || !reserve_refs(w, a.index)) return false;
    f->members[f->count] = (member){a, cost_role, -1, NULL, 0};
    formation_set_ref(w, f, f->count);
    ++f->count;
    f->dirty = true; // assigned once at the next read or step (formation_settled)
    return true;
}

bool steer_formation_remove(steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return false;
    int m;
    if (formation_membership(w, a, &m) != f) return false;
    steer__formation_step_remove(w, f, m); // marks it dirty
    return true;
}

int steer_formation_member_count(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return f != NULL ? f->count : 0;
}

steer_agent_id steer_formation_member_at(const steer_world *w, steer_formation_id id, int i)
{
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL && i >= 0 && i < f->count)) return steer_null_agent;
    return f->members[i].agent;
}

steer_formation_id steer_agent_get_formation(const steer_world *w, steer_agent_id a)
{
    formation *f = formation_membership(w, a, NULL);
    return f != NULL ? formation_id_of(w, f) : steer_null_formation;
}

bool steer_formation_set_member_costs(steer_world *w, steer_formation_id id, steer_agent_id a, const float *costs,
                                      int count)
{
    formation *f = formation_get(w, id);
    int m;
    if (!STEER_CHECK(f != NULL && !w->stepping && formation_membership(w, a, &m) == f)) return false;
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
    f->dirty = true; // (a costs function sets every member's: one assignment, not one per member)
    return true;
}

void steer_formation_reassign(steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL && !w->stepping)) return;
    steer__formation_step_assign(w, f);
}

/* ---- queries ----------------------------------------------------------------------- */

// The work of f's next assignment (0: up to date): an optimal one takes
// about members x columns^2 steps, an ordered one members x slots. Members
// that left the world make the step reassign too.
static double pending_work(const steer_world *w, const formation *f)
{
    bool due = f->dirty;
    for (int m = 0; m < f->count && !due; ++m) due = steer__store_dense(w, f->members[m].agent) < 0;
    if (!due) return 0.0;
    double n = f->count;
    double slots = f->def.pattern == STEER_PATTERN_OFFSETS ? f->def.slot_count : n;
    double cols = slots > n ? slots : n;
    return f->def.assignment == STEER_ASSIGN_ORDERED ? n * slots : n * cols * cols;
}

double steer_formation_pending_work(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return f != NULL ? pending_work(w, f) : 0.0;
}

double steer_world_pending_formation_work(const steer_world *w)
{
    const struct steer_formations *fs = w->formations;
    double work = 0.0;
    for (int i = 0; fs != NULL && i < fs->count; ++i)
        if (fs->items[i].alive) work += pending_work(w, &fs->items[i]);
    return work;
}

int steer_formation_slot_count(const steer_world *w, steer_formation_id id)
{
    formation_slots_settle(w, id);
    formation *f = formation_get(w, id);
    return f != NULL ? f->slot_count : 0;
}

int steer_formation_slot_of(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation_settle(w, id);
    int m;
    formation *f = formation_get(w, id);
    if (f == NULL || formation_membership(w, a, &m) != f) return -1;
    return f->members[m].slot;
}

steer_agent_id steer_formation_slot_holder(const steer_world *w, steer_formation_id id, int s)
{
    formation_settle(w, id);
    formation *f = formation_get(w, id);
    if (f == NULL || s < 0 || s >= f->slot_count || f->holder[s] < 0) return steer_null_agent;
    return f->members[f->holder[s]].agent;
}

steer_formation_slot steer_formation_get_slot(const steer_world *w, steer_formation_id id, int s)
{
    formation_settle(w, id);
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL && s >= 0 && s < f->slot_count)) return (steer_formation_slot){{0, 0}, 0, 0};
    return f->slots[s];
}

bool steer_formation_slot_target(const steer_world *w, steer_formation_id id, int s, steer_vec2 *position,
                                 float *orientation)
{
    formation_settle(w, id);
    formation *f = formation_get(w, id);
    if (f == NULL || s < 0 || s >= f->slot_count) return false;
    steer_vec2 p, v;
    float o;
    if (!steer__formation_step_slot_target(w, f, s, &p, &v, &o)) return false;
    if (position != NULL) *position = p;
    if (orientation != NULL) *orientation = o;
    return true;
}

steer_agent_id steer_formation_followed(const steer_world *w, steer_formation_id id, steer_agent_id a)
{
    formation_settle(w, id);
    int m;
    formation *f = formation_get(w, id);
    if (f == NULL || formation_membership(w, a, &m) != f) return steer_null_agent;
    int s = f->members[m].slot;
    if (f->def.motion != STEER_MOTION_EMERGENT || s < 0) return f->def.leader;
    int p = formation_occupied_parent(f, s);
    return p >= 0 ? f->members[f->holder[p]].agent : f->def.leader;
}

float steer_formation_total_cost(const steer_world *w, steer_formation_id id)
{
    formation_settle(w, id);
    formation *f = formation_get(w, id);
    if (!STEER_CHECK(f != NULL)) return 0.0f;
    pose ref;
    bool has_ref = formation_reference_pose(w, f, &ref);
    double total = 0.0;
    for (int m = 0; m < f->count; ++m) {
        int s = f->members[m].slot;
        if (s < 0) continue;
        // the distance part against the fixed-frame slot position, as assigned
        steer_vec2 t = has_ref ? steer_add(ref.pos, formation_rotate(f->slots[s].offset, ref.orient)) : steer_v2(0, 0);
        total += steer__formation_step_pair_cost(w, f, m, s, NULL); // roles and extras
        if (has_ref && f->def.distance_weight > 0.0f) {
            int i = steer__store_dense(w, f->members[m].agent);
            if (i >= 0) total += (double)f->def.distance_weight * steer_length(steer_sub(w->state[i].position, t));
        }
    }
    return (float)total;
}

steer_vec2 steer_formation_anchor_position(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return STEER_CHECK(f != NULL) ? f->anchor_pos : steer_v2(0.0f, 0.0f);
}

float steer_formation_anchor_orientation(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return STEER_CHECK(f != NULL) ? f->anchor_orient : 0.0f;
}

float steer_formation_anchor_moderation(const steer_world *w, steer_formation_id id)
{
    formation *f = formation_get(w, id);
    return STEER_CHECK(f != NULL) ? f->moderation : 0.0f;
}

