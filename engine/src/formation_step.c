// formation_step.c: what formations do each step and whenever their shape
// or membership changes: slots laid out from the pattern, the assignment of
// members to slots (ordered, or optimal with hysteresis), slot targets
// (written for the evaluation view), the anchor of a two-level formation
// (evaluated and integrated as a body, by the evaluator and integrator
// agents use), and the placement of rigid formations after integration.
#include "evaluate.h"
#include "formation.h"
#include "navigate.h"

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
void steer__formation_step_slots(formation *f)
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
            f->slots[i].cost_role = i < d->slot_count ? f->given[i].cost_role : 0;
        }
    }
}

static void compute_slots(formation *f)
{
    steer__formation_step_slots(f);
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

/* ---- slot targets ------------------------------------------------------------------ */

bool steer__formation_step_slot_target(const steer_world *w, const formation *f, int s, steer_vec2 *pos,
                                       steer_vec2 *vel, float *orient)
{
    pose ref;
    if (!formation_reference_pose(w, f, &ref)) return false;
    if (f->def.motion != STEER_MOTION_EMERGENT) {
        formation_fixed_target(f, &ref, s, pos, vel, orient);
        return true;
    }
    // emergent: an offset from the member followed, in its frame
    int p = formation_occupied_parent(f, s);
    pose parent = ref;
    steer_vec2 base = {0.0f, 0.0f};
    float base_o = 0.0f;
    if (p >= 0 && formation_agent_pose(w, f->members[f->holder[p]].agent, &parent)) {
        base = f->slots[p].offset;
        base_o = f->slots[p].orientation;
    }
    float frame = parent.orient - base_o;
    *pos = steer_add(parent.pos, formation_rotate(steer_sub(f->slots[s].offset, base), frame));
    *vel = parent.vel;
    *orient = steer_wrap_angle(frame + f->slots[s].orientation);
    return true;
}

/* ---- assignment -------------------------------------------------------------------- */

static int cost_cols(const formation *f) { return f->slot_count > f->count ? f->slot_count : f->count; }

float steer__formation_step_pair_cost(const steer_world *w, const formation *f, int m, int s,
                                      const steer_vec2 *targets)
{
    if (s >= f->slot_count) return INFINITY; // a column for members beyond the slots
    const member *mb = &f->members[m];
    double c = 0.0;
    if (f->def.distance_weight > 0.0f && targets != NULL) {
        int i = steer__store_dense(w, mb->agent);
        if (i >= 0) c += (double)f->def.distance_weight * steer_length(steer_sub(w->state[i].position, targets[s]));
    }
    int rc = f->def.cost_role_count, mr = mb->cost_role, sr = f->slots[s].cost_role;
    if (f->cost_role_costs != NULL && mr >= 0 && mr < rc && sr >= 0 && sr < rc) c += f->cost_role_costs[mr * rc + sr];
    if (s < mb->extra_count) c += mb->extra[s];
    return isfinite(c) ? (float)c : INFINITY;
}

// Fixed-frame slot positions now, into cost-sized scratch (target_pos of
// slots, not members: the update rewrites target_pos afterwards).
static const steer_vec2 *slot_positions(const steer_world *w, formation *f, steer_vec2 *out)
{
    pose ref;
    if (!formation_reference_pose(w, f, &ref)) return NULL;
    for (int s = 0; s < f->slot_count; ++s) out[s] = steer_add(ref.pos, formation_rotate(f->slots[s].offset, ref.orient));
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
            f->cost[(size_t)r * (size_t)cols + (size_t)s] = steer__formation_step_pair_cost(w, f, f->by_key[r], s, targets);
    }
}

// A rigid slot's velocity as its holder moves: at most the member's max
// speed. A reference that turned within a tiny step, or a slot far out,
// asks for more (never an infinity: the rotation is bounded, and
// steer_clamp_length takes one that overflowed).
static steer_vec2 member_bound(const steer_world *w, steer_agent_id a, steer_vec2 v)
{
    int i = steer__store_dense(w, a);
    return i >= 0 ? steer_clamp_length(v, w->limits[i].max_speed) : v;
}

// Every member's slot target, and its copy in the world's slot targets
// (what the formation_slot behaviour reads through the evaluation view)
// for members whose membership entry is theirs.
static void update_targets(steer_world *w, formation *f)
{
    const steer_formation_id id = formation_id_of(w, f);
    for (int m = 0; m < f->count; ++m) {
        int s = f->members[m].slot;
        f->has_target[m] = s >= 0 && steer__formation_step_slot_target(w, f, s, &f->target_pos[m],
                                                                       &f->target_vel[m], &f->target_orient[m]);
        // finite (a velocity that overflowed comes back STEER_MAX_LIMIT long)
        if (f->has_target[m]) f->target_vel[m] = steer_clamp_length(f->target_vel[m], (float)STEER_MAX_LIMIT);
        int held;
        steer_agent_id a = f->members[m].agent;
        if (formation_membership(w, a, &held) != f || held != m) continue;
        w->slot_targets[a.index - 1] =
            (slot_target){id, f->has_target[m], f->target_orient[m], f->target_pos[m], f->target_vel[m]};
    }
}

static void assign_slots(steer_world *w, formation *f);

unsigned long steer__formation_assignments = 0;

void steer__formation_step_assign(steer_world *w, formation *f)
{
    ++steer__formation_assignments; // (tests count them; not atomic: outside the parallel passes)
    assign_slots(w, f);
    update_targets(w, f);
}

static void assign_slots(steer_world *w, formation *f)
{
    // members removed from the world leave first (no allocation)
    for (int m = f->count - 1; m >= 0; --m) {
        if (steer__store_dense(w, f->members[m].agent) < 0) steer__formation_step_remove(w, f, m);
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
                if (f->holder[s] < 0 && isfinite(steer__formation_step_pair_cost(w, f, m, s, targets))) {
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

/* ---- leaving ------------------------------------------------------------------------ */

void steer__formation_step_remove(steer_world *w, formation *f, int m)
{
    steer_agent_id a = f->members[m].agent;
    steer__free(f->members[m].extra);
    // keep the order of joining: ordered assignment and ties depend on it
    for (int k = m + 1; k < f->count; ++k) f->members[k - 1] = f->members[k];
    --f->count;
    struct steer_formations *fs = w->formations;
    // clear the agent's entries only while they are still this member's: a
    // removed agent's index may already belong to a new agent that joined
    // another formation before this step
    if (a.index >= 1 && (int)a.index <= fs->ref_capacity) {
        member_ref *r = &fs->ref[a.index - 1];
        const bool reused = r->formation != 0 && r->generation != a.generation;
        if (!reused) {
            r->formation = 0;
            w->slot_targets[a.index - 1].formation = steer_null_formation;
        }
    }
    for (int k = m; k < f->count; ++k) {
        steer_agent_id b = f->members[k].agent;
        if (steer__store_dense(w, b) >= 0) formation_set_ref(w, f, k);
    }
    f->dirty = true;
}

/* ---- the step ---------------------------------------------------------------------- */

static void turn_anchor(formation *f, float dt, float old_o);

// Two-level formation: the anchor arrives at its target or runs along its
// path, at a speed scaled down when the members lag (formation motion
// moderation: the group does not string out).
// The anchor's own behaviour is evaluated as a body (evaluate.c: as for an
// agent at the anchor, no agent excluded from its neighbours, its own
// memory and random stream), then integrated with the moderated speed
// limit (integrate.c).
static void steer_anchor(steer_world *w, formation *f, float dt, float speed)
{
    eval_body body;
    body.state = (steer_kinematic){f->anchor_pos, f->anchor_orient, f->anchor_vel, f->anchor_rotation};
    body.limits = steer_default_limits();
    body.limits.radius = 0.0f;
    body.limits.max_speed = speed;
    body.limits.max_acceleration = f->def.anchor_max_acceleration;
    body.limits.max_rotation = f->def.anchor_max_rotation;
    body.memory = f->anchor_mem;
    body.rng = &f->anchor_rng;
    // a navigating anchor plans here (prepare is serial), round the shapes,
    // with the navigate's radius or the formation's spacing
    const steer_behaviour *nav = f->def.anchor_behaviour->nav;
    if (nav != NULL) steer__navigate_update(w, &f->anchor_plan, nav, f->anchor_pos, f->def.spacing, STEER_ALL_LAYERS, dt);
    body.plan = f->anchor_plan;
    steer_steering out = steer__evaluate_body(w, f->def.anchor_behaviour, &body, dt);
    // moved as an agent would be; its orientation is the formation's to
    // turn (turn_anchor), so only the position and velocity are kept
    steer__integrate_body(w, &body.state, &body.limits, out, dt);
    f->anchor_pos = body.state.position;
    f->anchor_vel = body.state.velocity;
}

// What moved over dt as a velocity. dt may be so small (a denormal) that
// 1 / dt overflows: then 0 * inf made a resting anchor's velocity NaN, and
// its rigid members' velocities with it (fuzz_c, a step of 1.4e-45 s).
static steer_vec2 moved_per_second(steer_vec2 moved, float dt)
{
    if (!(dt > 0.0f)) return steer_v2(0.0f, 0.0f);
    float inv = 1.0f / dt;
    if (isfinite(inv)) return steer_scale(moved, inv); // (the common case, the bits as before)
    return steer_clamp_length(steer_v2(moved.x / dt, moved.y / dt), (float)STEER_MAX_LIMIT);
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
        formation_fixed_target(f, &ref, s, &p, &v, &o);
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
        has_goal = formation_agent_pose(w, d->anchor_target.agent, &p);
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
    f->anchor_vel = moved_per_second(steer_sub(f->anchor_pos, old), dt);
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
    while (depth <= w->formations->count && (g = formation_membership(w, a, NULL)) != NULL) {
        ++depth;
        a = g->def.leader;
    }
    return depth;
}

void steer__formation_step_settle(steer_world *w)
{
    struct steer_formations *fs = w->formations;
    if (fs == NULL) return;
    for (int k = 0; k < fs->count; ++k)
        if (fs->items[k].alive && fs->items[k].dirty) steer__formation_step_assign(w, &fs->items[k]);
}

void steer__formation_step_update(steer_world *w, float dt)
{
    struct steer_formations *fs = w->formations;
    if (fs == NULL) return;
    for (int k = 0; k < fs->count; ++k) {
        formation *f = &fs->items[k];
        if (!f->alive) continue;
        // members removed from the world leave the formation (no allocation)
        for (int m = f->count - 1; m >= 0; --m) {
            if (steer__store_dense(w, f->members[m].agent) < 0) steer__formation_step_remove(w, f, m);
        }
        if (f->dirty) steer__formation_step_assign(w, f);
        pose lead;
        if (steer_agent_id_is_null(f->def.leader)) {
            move_anchor(w, f, dt);
        } else if (formation_agent_pose(w, f->def.leader, &lead)) {
            // the turn since the last step, at most as fast as the leader can
            // turn: a leader turned by a script (set_orientation) before a
            // tiny dt would otherwise give an unbounded (or infinite) rotation;
            // a leader placed by a rigid formation turns at its state's rate
            float most = fmaxf(w->limits[steer__store_dense(w, f->def.leader)].max_rotation, fabsf(lead.rotation));
            float turn = f->leader_seen && dt > 0.0f ? steer_wrap_angle(lead.orient - f->leader_orient) / dt
                                                     : lead.rotation;
            f->leader_rotation = steer_clampf(turn, -most, most);
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
    if (!formation_reference_pose(w, f, &ref)) return;
    for (int m = 0; m < f->count; ++m) {
        int i = steer__store_dense(w, f->members[m].agent), s = f->members[m].slot;
        if (i < 0 || s < 0) continue;
        steer_kinematic *k = &w->state[i];
        formation_fixed_target(f, &ref, s, &k->position, &k->velocity, &k->orientation);
        k->velocity = member_bound(w, f->members[m].agent, k->velocity);
        k->rotation = ref.rotation;
    }
}

void steer__formation_step_place(steer_world *w)
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

