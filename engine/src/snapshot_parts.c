// snapshot_parts.c: the shapes, navigate's plans and formations of a world snapshot
// (snapshot.h): written as they are held, slots and generations included,
// so ids stay valid and the next step sees the same parts in the same
// order; read back with every index and number checked first.
#include "formation.h"
#include "geometry.h"
#include "navigate.h"
#include "snapshot.h"

/* ---- shapes ---------------------------------------------------------------------------- */

void steer__snapshot_write_shapes(snap_writer *o, const steer_world *w)
{
    const struct steer_geometry *g = w->geometry;
    snap_u8(o, g != NULL);
    if (g == NULL) return;
    snap_u32(o, (uint32_t)g->slot_count), snap_u32(o, g->free_slot);
    for (int s = 0; s < g->slot_count; ++s) {
        const geo_slot *sl = &g->slots[s];
        snap_u32(o, sl->generation), snap_u32(o, sl->first), snap_u32(o, sl->count), snap_u32(o, sl->next_free);
        snap_u32(o, sl->category), snap_f32(o, sl->z), snap_f32(o, sl->height);
        snap_u8(o, sl->type), snap_u8(o, sl->alive);
    }
    snap_u32(o, (uint32_t)g->src_count);
    for (int i = 0; i < g->src_count; ++i) {
        const geo_prim *p = &g->src[i];
        snap_u8(o, p->type), snap_u8(o, p->dead), snap_u32(o, p->count), snap_u32(o, p->category);
        snap_f32(o, p->z), snap_f32(o, p->top);
        snap_u32(o, p->shape), snap_u32(o, p->part), snap_u32(o, p->first);
        for (int k = 0; k < 6; ++k) snap_f32(o, p->d[k]);
    }
    snap_u32(o, (uint32_t)g->vert_count);
    for (int i = 0; i < g->vert_count; ++i) snap_vec2(o, g->verts[i]), snap_vec2(o, g->normals[i]);
    snap_u8(o, g->grid_off);
}

static bool coord_ok(float v) { return isfinite(v) && fabsf(v) <= STEER_MAX_COORDINATE; }

static bool prim_ok(const struct steer_geometry *g, const geo_prim *p)
{
    for (int k = 0; k < 6; ++k) {
        if (!coord_ok(p->d[k])) return false;
    }
    switch (p->type) {
    case PRIM_SEGMENT: return (p->d[0] != p->d[2] || p->d[1] != p->d[3]) && fabsf(p->d[4]) <= 1.0f && fabsf(p->d[5]) <= 1.0f;
    case PRIM_CIRCLE: return p->d[2] > 0.0f;
    case PRIM_BOX: return p->d[0] < p->d[2] && p->d[1] < p->d[3];
    case PRIM_POLYGON:
        return p->count >= 3 && p->count <= STEER_MAX_POLYGON_VERTICES && p->first <= (uint32_t)g->vert_count &&
               p->count <= (uint32_t)g->vert_count - p->first;
    default: return false;
    }
}

// The free list of n slots: every dead slot once, ending at 0.
static bool free_list_ok(const geo_slot *slots, int n, uint32_t head, int dead)
{
    int seen = 0;
    for (uint32_t s = head; s != 0; s = slots[s - 1].next_free) {
        if (s > (uint32_t)n || slots[s - 1].alive || ++seen > dead) return false;
    }
    return seen == dead;
}

bool steer__snapshot_read_shapes(snap_reader *r, steer_world *w)
{
    r->part = "the shapes";
    if (!snap_rbool(r)) return r->ok;
    int slot_count = snap_rcount(r, 30, INT32_MAX / 4);
    uint32_t free_slot = snap_ru32(r);
    geo_slot *slots = r->ok ? steer__alloc(sizeof *slots * (size_t)(slot_count > 0 ? slot_count : 1)) : NULL;
    if (r->ok && slots == NULL) return snap_fail(r, "not enough memory for the shapes");
    int dead = 0, live = 0;
    for (int s = 0; s < slot_count && r->ok; ++s) {
        geo_slot *sl = &slots[s];
        sl->generation = snap_ru32(r), sl->first = snap_ru32(r), sl->count = snap_ru32(r);
        sl->next_free = snap_ru32(r), sl->category = snap_ru32(r);
        sl->z = snap_rf32(r), sl->height = snap_rf32(r), sl->type = (uint8_t)snap_ru8(r);
        sl->alive = snap_rbool(r);
        SNAP_NEED(r, sl->generation != 0 && sl->type <= STEER_SHAPE_POLYGON, "a shape slot is out of range");
        SNAP_NEED(r, isfinite(sl->z) && isfinite(sl->height) && sl->height >= 0.0f, "a shape's z or height is not finite");
        dead += !sl->alive, live += sl->alive;
    }
    SNAP_NEED(r, free_list_ok(slots, slot_count, free_slot, dead), "the free shape slots do not form a list");
    int src_count = snap_rcount(r, 54, INT32_MAX / 4);
    struct steer_geometry *g = r->ok ? steer__geometry_make(w, src_count, 0, slot_count) : NULL;
    if (r->ok && g == NULL) snap_fail(r, "not enough memory for the shapes");
    if (!r->ok) {
        steer__free(slots);
        return false;
    }
    memcpy(g->slots, slots, sizeof *slots * (size_t)slot_count);
    steer__free(slots);
    g->slot_count = slot_count, g->free_slot = free_slot, g->shape_count = live;
    for (int i = 0; i < src_count && r->ok; ++i) {
        geo_prim *p = &g->src[i];
        p->type = (uint8_t)snap_ru8(r), p->dead = (uint8_t)snap_rbool(r);
        uint32_t count = snap_ru32(r);
        p->count = (uint16_t)count, p->category = snap_ru32(r);
        p->z = snap_rf32(r), p->top = snap_rf32(r);
        p->shape = snap_ru32(r), p->part = snap_ru32(r), p->first = snap_ru32(r);
        for (int k = 0; k < 6; ++k) p->d[k] = snap_rf32(r);
        SNAP_NEED(r, count <= STEER_MAX_POLYGON_VERTICES && p->shape < (uint32_t)slot_count, "a part is out of range");
        SNAP_NEED(r, isfinite(p->z) && isfinite(p->top) && p->top >= p->z, "a part's vertical extent is not finite");
        g->dead_count += p->dead;
        g->src_count = i + 1;
    }
    int vert_count = snap_rcount(r, 16, INT32_MAX / 4);
    if (r->ok && vert_count > 0) {
        // the polygon pool, with room as the shape functions reserve it
        int cap = vert_count;
        if (!STEER_GROW(g->verts, cap) || !STEER_GROW(g->normals, cap)) return snap_fail(r, "not enough memory for the shapes");
        g->vert_capacity = cap;
    }
    for (int i = 0; i < vert_count && r->ok; ++i) {
        g->verts[i] = snap_rvec2(r), g->normals[i] = snap_rvec2(r);
        SNAP_NEED(r, coord_ok(g->verts[i].x) && coord_ok(g->verts[i].y) && fabsf(g->normals[i].x) <= 1.0f &&
                         fabsf(g->normals[i].y) <= 1.0f, "a polygon vertex is out of range");
    }
    g->vert_count = vert_count;
    g->grid_off = snap_rbool(r);
    if (!r->ok) return false;
    // every live part within its shape, polygons' vertices in order and
    // apart (as the shape functions append them), every live shape's parts its own
    uint32_t next_vertex = 0;
    int live_parts = 0;
    for (int i = 0; i < src_count; ++i) {
        const geo_prim *p = &g->src[i];
        if (!SNAP_NEED(r, prim_ok(g, p), "a part of a shape is out of range")) return false;
        if (p->dead) continue;
        const geo_slot *sl = &g->slots[p->shape];
        if (!SNAP_NEED(r, sl->alive && p->part < sl->count && sl->first + p->part == (uint32_t)i,
                       "a part does not belong to its shape"))
            return false;
        if (p->type == PRIM_POLYGON) {
            if (!SNAP_NEED(r, p->first >= next_vertex, "polygon vertices overlap")) return false;
            next_vertex = p->first + p->count;
        }
        ++live_parts;
    }
    long long parts = 0;
    for (int s = 0; s < slot_count; ++s) parts += g->slots[s].alive ? (long long)g->slots[s].count : 0;
    if (!SNAP_NEED(r, parts == live_parts, "a shape's parts are missing")) return false;
    g->dirty = true;
    return true;
}

static bool finite_at_least(float v, float low) { return isfinite(v) && v >= low; }

/* ---- navigate's plans ------------------------------------------------------------------ */

void steer__snapshot_write_plan(snap_writer *o, const nav_plan *p, const steer_behaviour *tree, const snap_refs *refs)
{
    snap_u8(o, p != NULL);
    if (p == NULL) return;
    // the node is only compared with the tree's navigate: any other is as none
    const steer_behaviour *nav = tree != NULL ? tree->nav : NULL;
    snap_u32(o, p->node != NULL && p->node == nav ? (uint32_t)snap_ref_of(refs, nav) : 0);
    snap_vec2(o, p->goal), snap_vec2(o, p->order);
    snap_u32(o, p->group);
    snap_u8(o, p->has_order), snap_u8(o, p->partial), snap_u8(o, p->stuck), snap_u8(o, p->status);
    snap_i32(o, p->count), snap_i32(o, p->next), snap_i32(o, p->replans);
    snap_u64(o, p->version);
    snap_f32(o, p->radius), snap_f32(o, p->retry), snap_f32(o, p->best), snap_f32(o, p->stall);
    snap_f32(o, p->remaining);
    for (int k = 0; k < p->count; ++k) snap_vec2(o, p->points[k]), snap_f32(o, p->rest[k]);
    snap_str(o, p->message);
}

bool steer__snapshot_read_plan(snap_reader *r, nav_plan **out, const steer_behaviour *tree, const snap_refs *refs)
{
    const steer_behaviour *nav = tree != NULL ? tree->nav : NULL;
    const bool saved = snap_rbool(r);
    if (!r->ok || (!saved && nav == NULL)) return r->ok;
    nav_plan *p = *out = steer__navigate_new();
    if (p == NULL) return snap_fail(r, "not enough memory for a plan");
    if (!saved) return true;
    uint32_t node = snap_ru32(r);
    p->goal = snap_rvec2(r), p->order = snap_rvec2(r);
    p->group = snap_ru32(r);
    p->has_order = snap_rbool(r), p->partial = snap_rbool(r), p->stuck = snap_rbool(r);
    uint32_t status = snap_ru8(r);
    p->count = snap_ri32(r), p->next = snap_ri32(r), p->replans = snap_ri32(r);
    p->version = snap_ru64(r);
    p->radius = snap_rf32(r), p->retry = snap_rf32(r), p->best = snap_rf32(r), p->stall = snap_rf32(r);
    p->remaining = snap_rf32(r);
    p->status = (uint8_t)status;
    // the route: none, or 2 to STEER_PLAN_POINTS points; one being followed
    // is past its first point (navigate.c reads points[next - 1] and [next])
    const bool follows = status == STEER_PLAN_FOLLOWING || status == STEER_PLAN_ARRIVED;
    if (!SNAP_NEED(r, status <= STEER_PLAN_NO_GOAL && (p->count == 0 || (p->count >= 2 && p->count <= STEER_PLAN_POINTS)) &&
                          p->next >= 0 && p->next < STEER_PLAN_POINTS && p->replans >= 0 &&
                          (!follows || (p->count >= 2 && p->next >= 1 && p->next < p->count)),
                   "a plan's status or route length is out of range"))
        return false;
    bool finite = steer_vec2_is_finite(p->goal) && steer_vec2_is_finite(p->order) && isfinite(p->retry) &&
                  isfinite(p->best) && isfinite(p->remaining) && finite_at_least(p->radius, 0.0f) &&
                  finite_at_least(p->stall, 0.0f);
    for (int k = 0; k < p->count && r->ok; ++k) {
        p->points[k] = snap_rvec2(r), p->rest[k] = snap_rf32(r);
        finite = finite && steer_vec2_is_finite(p->points[k]) && isfinite(p->rest[k]);
    }
    snap_rstr(r, p->message, sizeof p->message);
    SNAP_NEED(r, finite, "a plan's route or timers are not finite");
    SNAP_NEED(r, node == 0 || (node <= (uint32_t)refs->behaviour_count && refs->behaviours[node - 1] == nav),
              "a plan was made for a navigate its behaviour tree lacks");
    p->node = node > 0 ? nav : NULL;
    return r->ok;
}

/* ---- formations ------------------------------------------------------------------------- */

static void write_id(snap_writer *o, uint32_t index, uint32_t generation) { snap_u32(o, index), snap_u32(o, generation); }

static void write_formation(snap_writer *o, const formation *f, const snap_refs *refs)
{
    const steer_formation_def *d = &f->def;
    snap_u32(o, (uint32_t)d->pattern), snap_f32(o, d->spacing);
    snap_u32(o, (uint32_t)d->slot_count);
    for (int i = 0; i < d->slot_count; ++i) {
        snap_vec2(o, d->slots[i].offset), snap_f32(o, d->slots[i].orientation), snap_i32(o, d->slots[i].cost_role);
    }
    write_id(o, d->leader.index, d->leader.generation);
    snap_vec2(o, d->anchor_position), snap_f32(o, d->anchor_orientation);
    snap_u8(o, (uint32_t)d->anchor_target.kind), snap_vec2(o, d->anchor_target.point);
    write_id(o, d->anchor_target.agent.index, d->anchor_target.agent.generation);
    snap_u32(o, (uint32_t)snap_ref_of(refs, d->anchor_path));
    snap_u32(o, (uint32_t)snap_ref_of(refs, d->anchor_behaviour));
    snap_f32(o, d->anchor_max_acceleration), snap_f32(o, d->anchor_max_speed);
    snap_f32(o, d->anchor_max_rotation), snap_f32(o, d->moderation_distance);
    snap_u32(o, (uint32_t)d->motion), snap_u32(o, (uint32_t)d->assignment), snap_f32(o, d->distance_weight);
    snap_u32(o, (uint32_t)d->cost_role_count);
    for (int i = 0; i < d->cost_role_count * d->cost_role_count; ++i) snap_f32(o, d->cost_role_costs[i]);
    snap_i32(o, d->member_capacity);
    snap_u32(o, (uint32_t)f->count);
    for (int m = 0; m < f->count; ++m) {
        const member *mb = &f->members[m];
        write_id(o, mb->agent.index, mb->agent.generation);
        snap_i32(o, mb->cost_role), snap_i32(o, mb->slot);
        snap_u32(o, (uint32_t)mb->extra_count);
        for (int k = 0; k < mb->extra_count; ++k) snap_f32(o, mb->extra[k]);
        snap_vec2(o, f->target_pos[m]), snap_vec2(o, f->target_vel[m]), snap_f32(o, f->target_orient[m]);
        snap_u8(o, f->has_target[m]);
    }
    snap_u32(o, (uint32_t)f->slot_count);
    for (int s = 0; s < f->slot_count; ++s) {
        snap_vec2(o, f->slots[s].offset), snap_f32(o, f->slots[s].orientation), snap_i32(o, f->slots[s].cost_role);
        snap_i32(o, f->holder[s]), snap_i32(o, f->parent[s]);
    }
    snap_vec2(o, f->anchor_pos), snap_vec2(o, f->anchor_vel);
    const float anchor[] = {f->anchor_orient, f->anchor_rotation, f->anchor_param, f->moderation, f->leader_orient,
                            f->leader_rotation};
    for (size_t k = 0; k < sizeof anchor / sizeof anchor[0]; ++k) snap_f32(o, anchor[k]);
    snap_u8(o, f->leader_seen);
    for (int k = 0; k < STEER_MAX_TREE_MEMORY; ++k) snap_f32(o, f->anchor_mem[k]);
    snap_u64(o, f->anchor_rng);
    snap_u8(o, f->dirty), snap_i32(o, f->depth);
    steer__snapshot_write_plan(o, f->anchor_plan, d->anchor_behaviour, refs);
}

void steer__snapshot_write_formations(snap_writer *o, const steer_world *w, const snap_refs *refs)
{
    const struct steer_formations *fs = w->formations;
    snap_u32(o, fs != NULL ? (uint32_t)fs->count : 0);
    if (fs == NULL) return;
    for (int k = 0; k < fs->count; ++k) {
        snap_u32(o, fs->items[k].generation), snap_u8(o, fs->items[k].alive);
        if (fs->items[k].alive) write_formation(o, &fs->items[k], refs);
    }
    // memberships and slot targets by agent slot index
    snap_u32(o, (uint32_t)fs->ref_capacity);
    for (int s = 0; s < fs->ref_capacity; ++s) {
        const member_ref *mr = &fs->ref[s];
        snap_u32(o, mr->formation), snap_u32(o, mr->generation), snap_i32(o, mr->member);
        const slot_target *t = &w->slot_targets[s];
        write_id(o, t->formation.index, t->formation.generation);
        snap_u8(o, t->has_target), snap_f32(o, t->orientation), snap_vec2(o, t->position), snap_vec2(o, t->velocity);
    }
}

static steer_agent_id read_agent(snap_reader *r)
{
    steer_agent_id a;
    a.index = snap_ru32(r), a.generation = snap_ru32(r);
    return a;
}

static bool read_target(snap_reader *r, steer_target *t)
{
    uint32_t kind = snap_ru8(r);
    t->kind = (steer_target_kind)kind;
    t->point = snap_rvec2(r);
    t->agent = read_agent(r);
    return SNAP_NEED(r, kind <= STEER_TARGET_AGENT && steer_vec2_is_finite(t->point), "a target is out of range");
}

// The definition's part of a formation (its arrays owned by f).
static bool read_formation_def(snap_reader *r, formation *f, const snap_refs *refs)
{
    steer_formation_def *d = &f->def;
    *d = steer_default_formation_def();
    uint32_t pattern = snap_ru32(r);
    d->spacing = snap_rf32(r);
    int given = snap_rcount(r, 16, 1 << 24);
    f->given = r->ok && given > 0 ? steer__alloc(sizeof *f->given * (size_t)given) : NULL;
    if (r->ok && given > 0 && f->given == NULL) return snap_fail(r, "not enough memory for a formation");
    for (int i = 0; i < given && r->ok; ++i) {
        steer_formation_slot *s = &f->given[i];
        s->offset = snap_rvec2(r), s->orientation = snap_rf32(r), s->cost_role = snap_ri32(r);
        SNAP_NEED(r, steer_vec2_is_finite(s->offset) && isfinite(s->orientation) && s->cost_role >= 0,
                  "a slot is out of range");
    }
    d->slots = f->given, d->slot_count = given;
    d->leader = read_agent(r);
    d->anchor_position = snap_rvec2(r), d->anchor_orientation = snap_rf32(r);
    read_target(r, &d->anchor_target);
    uint32_t path = snap_ru32(r), behaviour = snap_ru32(r);
    d->anchor_max_acceleration = snap_rf32(r), d->anchor_max_speed = snap_rf32(r);
    d->anchor_max_rotation = snap_rf32(r), d->moderation_distance = snap_rf32(r);
    uint32_t motion = snap_ru32(r), assignment = snap_ru32(r);
    d->distance_weight = snap_rf32(r);
    int roles = snap_rcount(r, 0, 4096);
    size_t cells = (size_t)roles * (size_t)roles;
    if (!SNAP_NEED(r, cells * 4 <= r->size - r->pos, "the cost table is longer than the snapshot")) return false;
    f->cost_role_costs = cells > 0 ? steer__alloc(sizeof *f->cost_role_costs * cells) : NULL;
    if (cells > 0 && f->cost_role_costs == NULL) return snap_fail(r, "not enough memory for a formation");
    for (size_t i = 0; i < cells && r->ok; ++i) {
        f->cost_role_costs[i] = snap_rf32(r);
        SNAP_NEED(r, !isnan(f->cost_role_costs[i]) && f->cost_role_costs[i] != -INFINITY, "a cost is NaN or -inf");
    }
    d->cost_role_costs = f->cost_role_costs, d->cost_role_count = roles;
    d->member_capacity = snap_ri32(r);
    if (!r->ok) return false;
    d->pattern = (steer_formation_pattern)pattern, d->motion = (steer_formation_motion)motion;
    d->assignment = (steer_formation_assignment)assignment;
    SNAP_NEED(r, pattern <= STEER_PATTERN_OFFSETS && motion <= STEER_MOTION_EMERGENT && assignment <= STEER_ASSIGN_ORDERED,
              "an option is out of range");
    SNAP_NEED(r, isfinite(d->spacing) && d->spacing > 0.0f && (pattern != STEER_PATTERN_OFFSETS || given >= 1),
              "its spacing or slots are out of range");
    SNAP_NEED(r, steer_vec2_is_finite(d->anchor_position) && isfinite(d->anchor_orientation), "its anchor is not finite");
    SNAP_NEED(r, finite_at_least(d->anchor_max_acceleration, 0.0f) && finite_at_least(d->anchor_max_speed, 0.0f) &&
                     finite_at_least(d->anchor_max_rotation, 0.0f) && finite_at_least(d->distance_weight, 0.0f) &&
                     isfinite(d->moderation_distance) && d->moderation_distance > 0.0f && d->member_capacity >= 0,
              "a limit is out of range");
    SNAP_NEED(r, path <= (uint32_t)refs->path_count && behaviour <= (uint32_t)refs->behaviour_count,
              "it refers to a path or behaviour the snapshot lacks");
    if (!r->ok) return false;
    d->anchor_path = path > 0 ? steer_path_retain(refs->paths[path - 1]) : NULL;
    d->anchor_behaviour = behaviour > 0 ? steer_behaviour_retain(refs->behaviours[behaviour - 1]) : NULL;
    return SNAP_NEED(r, steer_formation_can_steer_anchor(d->anchor_behaviour),
                     "its anchor behaviour holds a callback or formation_slot behaviour");
}

static bool read_formation(snap_reader *r, steer_world *w, formation *f, const snap_refs *refs)
{
    if (!read_formation_def(r, f, refs)) return false;
    int count = snap_rcount(r, 41, 1 << 24);
    int cap = count > 16 ? count : 16, given = f->def.slot_count;
    if (r->ok && !steer__formation_reserve(w, f, cap, given > cap ? given : cap, 0))
        return snap_fail(r, "not enough memory for a formation");
    for (int m = 0; m < count && r->ok; ++m) {
        member *mb = &f->members[m];
        memset(mb, 0, sizeof *mb);
        mb->agent = read_agent(r);
        mb->cost_role = snap_ri32(r), mb->slot = snap_ri32(r);
        int extra = snap_rcount(r, 4, 1 << 24);
        mb->extra = extra > 0 ? steer__alloc(sizeof *mb->extra * (size_t)extra) : NULL;
        if (extra > 0 && mb->extra == NULL) return snap_fail(r, "not enough memory for a formation");
        mb->extra_count = extra;
        f->count = m + 1;
        for (int k = 0; k < extra; ++k) {
            mb->extra[k] = snap_rf32(r);
            SNAP_NEED(r, !isnan(mb->extra[k]) && mb->extra[k] != -INFINITY, "a member's cost is NaN or -inf");
        }
        f->target_pos[m] = snap_rvec2(r), f->target_vel[m] = snap_rvec2(r), f->target_orient[m] = snap_rf32(r);
        f->has_target[m] = snap_rbool(r);
        // (a member's agent may be gone, but its slot index is one of the world's)
        SNAP_NEED(r, mb->agent.index >= 1 && mb->agent.index <= (uint32_t)w->slot_count, "a member's id is out of range");
        SNAP_NEED(r, mb->cost_role >= 0 && steer_vec2_is_finite(f->target_pos[m]) &&
                         steer_vec2_is_finite(f->target_vel[m]) && isfinite(f->target_orient[m]),
                  "a member is out of range");
    }
    int slots = snap_rcount(r, 28, f->slot_capacity);
    for (int s = 0; s < slots && r->ok; ++s) {
        f->slots[s].offset = snap_rvec2(r), f->slots[s].orientation = snap_rf32(r), f->slots[s].cost_role = snap_ri32(r);
        f->holder[s] = snap_ri32(r), f->parent[s] = snap_ri32(r);
        SNAP_NEED(r, steer_vec2_is_finite(f->slots[s].offset) && isfinite(f->slots[s].orientation) &&
                         f->holder[s] >= -1 && f->holder[s] < count && f->parent[s] >= -1 && f->parent[s] < s,
                  "a slot is out of range");
    }
    f->slot_count = slots;
    for (int m = 0; m < count && r->ok; ++m) SNAP_NEED(r, f->members[m].slot >= -1 && f->members[m].slot < slots, "a member's slot is out of range");
    f->anchor_pos = snap_rvec2(r), f->anchor_vel = snap_rvec2(r);
    float *anchor[] = {&f->anchor_orient, &f->anchor_rotation, &f->anchor_param, &f->moderation, &f->leader_orient,
                       &f->leader_rotation};
    bool finite = steer_vec2_is_finite(f->anchor_pos) && steer_vec2_is_finite(f->anchor_vel);
    for (size_t k = 0; k < sizeof anchor / sizeof anchor[0]; ++k) *anchor[k] = snap_rf32(r), finite = finite && isfinite(*anchor[k]);
    f->leader_seen = snap_rbool(r);
    for (int k = 0; k < STEER_MAX_TREE_MEMORY; ++k) f->anchor_mem[k] = snap_rf32(r), finite = finite && isfinite(f->anchor_mem[k]);
    f->anchor_rng = snap_ru64(r);
    f->dirty = snap_rbool(r), f->depth = snap_ri32(r);
    if (!SNAP_NEED(r, finite && f->depth >= 0 && f->depth <= w->formations->count, "its anchor is out of range"))
        return false;
    return steer__snapshot_read_plan(r, &f->anchor_plan, f->def.anchor_behaviour, refs);
}

bool steer__snapshot_read_formations(snap_reader *r, steer_world *w, const snap_refs *refs)
{
    r->part = "the formations";
    int count = snap_rcount(r, 5, 1 << 24);
    if (!r->ok || count == 0) return r->ok;
    if (!steer__formation_reserve(w, NULL, 0, 0, 0) || !STEER_GROW(w->formations->items, count))
        return snap_fail(r, "not enough memory for the formations");
    struct steer_formations *fs = w->formations;
    fs->capacity = count;
    for (int k = 0; k < count && r->ok; ++k) {
        formation *f = &fs->items[k];
        memset(f, 0, sizeof *f);
        fs->count = k + 1;
        f->generation = snap_ru32(r);
        if (!snap_rbool(r)) continue;
        f->alive = true; // from here on freed with the world, whatever fails
        ++fs->live;
        char part[48];
        snprintf(part, sizeof part, "formation %d", k + 1);
        r->part = part;
        read_formation(r, w, f, refs);
        r->part = "the formations";
    }
    int refs_count = snap_rcount(r, 41, w->slot_capacity > 0 ? w->slot_capacity : 0);
    // room for every agent slot, as joining reserves it
    int room = refs_count > w->slot_count ? refs_count : w->slot_count;
    if (r->ok && room > 0 && !steer__formation_reserve(w, NULL, 0, 0, (uint32_t)room))
        return snap_fail(r, "not enough memory for the formations");
    for (int s = 0; s < refs_count && r->ok; ++s) {
        member_ref *mr = &fs->ref[s];
        mr->formation = snap_ru32(r), mr->generation = snap_ru32(r), mr->member = snap_ri32(r);
        slot_target *t = &w->slot_targets[s];
        t->formation.index = snap_ru32(r), t->formation.generation = snap_ru32(r);
        t->has_target = snap_rbool(r), t->orientation = snap_rf32(r);
        t->position = snap_rvec2(r), t->velocity = snap_rvec2(r);
        SNAP_NEED(r, mr->formation <= (uint32_t)count && (mr->formation == 0 || mr->member >= 0) &&
                         isfinite(t->orientation) && steer_vec2_is_finite(t->position) &&
                         steer_vec2_is_finite(t->velocity),
                  "a membership is out of range");
    }
    return r->ok;
}
