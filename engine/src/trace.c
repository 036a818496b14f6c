// trace.c: recording one traced agent's evaluation (nodes with their
// outputs and weights, priority winners, avoidance rays, wander circle, path
// target, neighbour radius), reading it back, and steer_world_draw.
#include "behaviour.h"
#include "geometry.h"
#include "trace.h"
#include "store.h"
#include "world.h"

/* ---- recording (inside the step: writes only into the agent's buffer) -------- */

void steer__trace_begin(agent_trace *t)
{
    t->node_count = t->ray_count = t->mark_count = 0;
    t->truncated = false;
    t->valid = true;
    t->current = -1;
    t->pending_weight = 1.0f;
    t->pending_child = 0;
}

static void add_mark(agent_trace *t, int kind, steer_vec2 a, steer_vec2 b, float radius)
{
    if (t->mark_count >= TRACE_MAX_MARKS) {
        t->truncated = true;
        return;
    }
    trace_mark *m = &t->marks[t->mark_count++];
    m->kind = kind, m->a = a, m->b = b, m->radius = radius;
}

// What a node looked at, recomputed from its parameters and the memory it
// just wrote, so the family files need no tracing code of their own.
static void record_marks(eval_ctx *ctx, const steer_behaviour_def *d)
{
    agent_trace *t = ctx->trace;
    const float *mem = ctx->mem + ctx->mem_base;
    switch (d->type) {
    case STEER_WANDER: {
        steer_vec2 centre = steer_mul_add(ctx->me.position, steer_heading(ctx->me.orientation), d->wander_offset);
        steer_vec2 target = steer_mul_add(centre, steer_heading(mem[0] + ctx->me.orientation), d->wander_radius);
        add_mark(t, MARK_WANDER, centre, target, d->wander_radius);
        break;
    }
    case STEER_FOLLOW_PATH:
        if (d->path != NULL && mem[0] > 0.0f) {
            steer_vec2 target = steer_path_position(d->path, mem[0] - 1.0f + d->path_offset);
            add_mark(t, MARK_PATH_TARGET, target, target, 0.0f);
        }
        break;
    case STEER_SEPARATION:
    case STEER_COHESION:
    case STEER_ALIGNMENT:
    case STEER_COLLISION_AVOIDANCE:
        add_mark(t, MARK_NEIGHBOURS, ctx->me.position, ctx->me.position, d->radius);
        break;
    default: break;
    }
}

int steer__trace_enter(agent_trace *t, const steer_behaviour *b)
{
    const int parent = t->current;
    int n = -1;
    if (t->node_count < STEER_TRACE_MAX_NODES) {
        n = t->node_count++;
        trace_node *node = &t->nodes[n];
        node->behaviour = b;
        node->type = (uint8_t)b->def.type;
        node->parent = (int16_t)parent;
        // depth and child index saturate: only the first 32 nodes are kept anyway
        int depth = parent < 0 ? 0 : t->nodes[parent].depth + 1;
        node->depth = (uint8_t)(depth > 255 ? 255 : depth);
        node->child_index = (uint8_t)(parent < 0 ? 0 : (t->pending_child > 255 ? 255 : t->pending_child));
        node->weight = parent < 0 ? 1.0f : t->pending_weight;
        node->winner_linear = node->winner_angular = -1;
        node->bits = 0;
        t->current = n;
    } else {
        t->truncated = true;
    }
    t->pending_weight = 1.0f;
    t->pending_child = 0;
    return n;
}

void steer__trace_leave(eval_ctx *ctx, const steer_behaviour *b, int parent, int n, bool has,
                        const steer_steering *out)
{
    agent_trace *t = ctx->trace;
    t->current = parent;
    if (n >= 0) {
        t->nodes[n].bits |= has ? TRACE_HAS_OUTPUT : 0;
        t->nodes[n].output = has ? *out : (steer_steering){{0.0f, 0.0f}, 0.0f};
    }
    record_marks(ctx, &b->def);
}

void steer__trace_priority(eval_ctx *ctx, int win_lin, int win_ang, bool fb_lin, bool fb_ang)
{
    agent_trace *t = ctx->trace;
    if (t->current < 0) return;
    trace_node *node = &t->nodes[t->current];
    // child indices past 127 are not told apart (a priority of that many groups)
    node->winner_linear = (int8_t)(win_lin > 127 ? 127 : win_lin);
    node->winner_angular = (int8_t)(win_ang > 127 ? 127 : win_ang);
    node->bits |= (fb_lin ? TRACE_FALLBACK_LINEAR : 0) | (fb_ang ? TRACE_FALLBACK_ANGULAR : 0);
}

void steer__trace_ray(eval_ctx *ctx, steer_vec2 origin, steer_vec2 dir, float length, float radius, bool hit,
                      const steer_ray_hit *h)
{
    agent_trace *t = ctx->trace;
    if (t->ray_count >= TRACE_MAX_RAYS) {
        t->truncated = true;
        return;
    }
    trace_ray *r = &t->rays[t->ray_count++];
    r->origin = origin, r->dir = dir, r->length = length, r->radius = radius, r->hit = hit;
    r->point = hit ? h->point : steer_mul_add(origin, dir, length);
    r->normal = hit ? h->normal : steer_v2(0.0f, 0.0f);
}

/* ---- buffers and queries (outside the step) ----------------------------------- */

void steer__traces_free(steer_world *w)
{
    for (int i = 0; i < w->trace_slots; ++i) steer__free(w->traces[i]);
    steer__free(w->traces);
    w->traces = NULL;
    w->trace_slots = 0;
}

void steer__trace_prefetch(const steer_world *w, int i)
{
    if (w->flags[i] & AGENT_TRACE) {
        const char *t = (const char *)w->traces[w->slot_of[i]];
        // the lines every step writes: counters, marks, the first nodes
#if defined(__GNUC__) || defined(__clang__)
        for (int line = 0; line < 6; ++line) __builtin_prefetch(t + 64 * line, 1);
#else
        (void)t;
#endif
    }
}

void steer__trace_drop(steer_world *w, uint32_t slot)
{
    if ((int)slot >= w->trace_slots || w->traces[slot] == NULL) return;
    --w->traced;
    steer__free(w->traces[slot]);
    w->traces[slot] = NULL;
}

bool steer_agent_set_trace(steer_world *w, steer_agent_id id, bool trace)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0)) return false;
    if (!STEER_CHECK(!w->stepping)) return false;
    const uint32_t slot = w->slot_of[i];
    if (!trace) {
        w->flags[i] &= (uint8_t)~AGENT_TRACE;
        steer__trace_drop(w, slot);
        return true;
    }
    if ((int)slot >= w->trace_slots) {
        int n = w->slot_capacity > (int)slot ? w->slot_capacity : (int)slot + 1;
        agent_trace **grown = steer__realloc(w->traces, sizeof *grown * (size_t)n);
        if (grown == NULL) return false;
        for (int k = w->trace_slots; k < n; ++k) grown[k] = NULL;
        w->traces = grown;
        w->trace_slots = n;
    }
    if (w->traces[slot] == NULL) {
        agent_trace *t = steer__alloc(sizeof *t);
        if (t == NULL) return false;
        memset(t, 0, sizeof *t);
        w->traces[slot] = t;
        ++w->traced;
    }
    w->flags[i] |= AGENT_TRACE;
    return true;
}

// The agent's trace after at least one traced step, or NULL.
static const agent_trace *trace_of(const steer_world *w, int i)
{
    if (!(w->flags[i] & AGENT_TRACE)) return NULL;
    const agent_trace *t = w->traces[w->slot_of[i]];
    return t->valid ? t : NULL;
}

bool steer_agent_get_trace(const steer_world *w, steer_agent_id id)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0)) return false;
    return (w->flags[i] & AGENT_TRACE) != 0;
}

int steer_agent_trace_node_count(const steer_world *w, steer_agent_id id)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0)) return 0;
    const agent_trace *t = trace_of(w, i);
    return t != NULL ? t->node_count : 0;
}

bool steer_agent_trace_node(const steer_world *w, steer_agent_id id, int k, steer_trace_node *out)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0 && out != NULL)) return false;
    const agent_trace *t = trace_of(w, i);
    if (t == NULL || k < 0 || k >= t->node_count) return false;
    const trace_node *n = &t->nodes[k];
    memset(out, 0, sizeof *out);
    out->behaviour = n->behaviour;
    out->type = (steer_behaviour_type)n->type;
    out->depth = n->depth;
    out->parent = n->parent;
    out->child_index = n->child_index;
    out->weight = n->weight;
    out->has_output = (n->bits & TRACE_HAS_OUTPUT) != 0;
    out->output = n->output;
    out->winner_linear = n->winner_linear;
    out->winner_angular = n->winner_angular;
    out->fallback_linear = (n->bits & TRACE_FALLBACK_LINEAR) != 0;
    out->fallback_angular = (n->bits & TRACE_FALLBACK_ANGULAR) != 0;
    return true;
}

bool steer_agent_trace_truncated(const steer_world *w, steer_agent_id id)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0)) return false;
    const agent_trace *t = trace_of(w, i);
    return t != NULL && t->truncated;
}

/* ---- steer_world_draw ------------------------------------------------------------ */

#define COLOR_SHAPE 0x8c9aa8ffu
#define COLOR_PATH 0x4a90d9ffu
#define COLOR_AGENT 0xd0d0d0ffu
#define COLOR_VELOCITY 0x3ad13affu
#define COLOR_STEERING 0xffd23affu
#define COLOR_WINNER 0x3affa0ffu
#define COLOR_LOSER 0x707070ffu
#define COLOR_RAY 0x9a9a9affu
#define COLOR_HIT 0xff4040ffu
#define COLOR_WANDER 0xc080ffffu
#define COLOR_TARGET 0xff80c0ffu
#define COLOR_NEIGHBOURS 0x40c0ff80u

/// Colours of blend children by their index (the inspector uses the same order).
static const steer_color child_colors[8] = {0xff6b6bffu, 0x4dabf7ffu, 0x69db7cffu, 0xffa94dffu,
                                            0xda77f2ffu, 0x3bc9dbffu, 0xffd43bffu, 0xf783acffu};


static void draw_poly(const steer_debug_draw *d, const steer_vec2 *p, int n, steer_color c)
{
    if (d->draw_solid_polygon != NULL) d->draw_solid_polygon(p, n, c, d->context);
    else if (d->draw_polygon != NULL) d->draw_polygon(p, n, c, d->context);
}

static void draw_shapes(steer_world *w, const steer_debug_draw *d)
{
    const struct steer_geometry *g = w->geometry;
    if (g == NULL) return;
    for (int s = 0; s < g->slot_count; ++s) {
        const geo_slot *slot = &g->slots[s];
        if (!slot->alive) continue;
        for (uint32_t k = slot->first; k < slot->first + slot->count; ++k) {
            const geo_prim *p = &g->src[k];
            if (p->dead) continue;
            switch (p->type) {
            case PRIM_SEGMENT:
                if (d->draw_segment) d->draw_segment(steer_v2(p->d[0], p->d[1]), steer_v2(p->d[2], p->d[3]), COLOR_SHAPE, d->context);
                break;
            case PRIM_CIRCLE:
                if (d->draw_solid_circle) d->draw_solid_circle(steer_v2(p->d[0], p->d[1]), p->d[2], 0.0f, COLOR_SHAPE, d->context);
                else if (d->draw_circle) d->draw_circle(steer_v2(p->d[0], p->d[1]), p->d[2], COLOR_SHAPE, d->context);
                break;
            case PRIM_BOX: {
                steer_vec2 q[4] = {{p->d[0], p->d[1]}, {p->d[2], p->d[1]}, {p->d[2], p->d[3]}, {p->d[0], p->d[3]}};
                draw_poly(d, q, 4, COLOR_SHAPE);
                break;
            }
            default: draw_poly(d, g->verts + p->first, p->count, COLOR_SHAPE); break;
            }
        }
    }
}

enum { DRAW_MAX_SEEN = 64 };
typedef struct seen_set {
    const void *item[DRAW_MAX_SEEN];
    int count;
} seen_set;

// True the first time an item is seen (and when the set is full: then
// drawing twice is the lesser evil).
static bool first_sight(seen_set *s, const void *item)
{
    for (int i = 0; i < s->count; ++i) {
        if (s->item[i] == item) return false;
    }
    if (s->count < DRAW_MAX_SEEN) s->item[s->count++] = item;
    return true;
}

static void draw_path(const steer_debug_draw *d, const steer_path *path)
{
    int n = steer_path_point_count(path);
    for (int i = 0; i + 1 < n; ++i) d->draw_segment(steer_path_point(path, i), steer_path_point(path, i + 1), COLOR_PATH, d->context);
    if (steer_path_is_loop(path) && n > 2) d->draw_segment(steer_path_point(path, n - 1), steer_path_point(path, 0), COLOR_PATH, d->context);
}

static void collect_paths(const steer_behaviour *b, const steer_debug_draw *d, seen_set *nodes, seen_set *paths, int depth)
{
    if (b == NULL || depth > STEER_MAX_TREE_DEPTH || !first_sight(nodes, b)) return;
    if (b->def.type == STEER_FOLLOW_PATH && b->def.path != NULL && first_sight(paths, b->def.path)) draw_path(d, b->def.path);
    for (int i = 0; i < b->def.child_count; ++i) collect_paths(b->children[i].behaviour, d, nodes, paths, depth + 1);
}

static void draw_paths(steer_world *w, const steer_debug_draw *d)
{
    if (d->draw_segment == NULL) return;
    seen_set nodes, paths;
    nodes.count = paths.count = 0;
    const steer_behaviour *previous = NULL;
    for (int i = 0; i < w->count; ++i) {
        // thousands of agents usually share a few behaviours: skip repeats cheaply
        if (w->behaviour[i] == previous) continue;
        previous = w->behaviour[i];
        collect_paths(previous, d, &nodes, &paths, 0);
    }
}

static void arrow(const steer_debug_draw *d, steer_vec2 o, steer_vec2 v, steer_color c)
{
    if (d->draw_arrow != NULL) d->draw_arrow(o, v, c, d->context);
    else if (d->draw_segment != NULL) d->draw_segment(o, steer_add(o, v), c, d->context);
}

static void draw_tree(const agent_trace *t, steer_vec2 pos, const steer_debug_draw *d)
{
    for (int k = 0; k < t->node_count; ++k) {
        const trace_node *n = &t->nodes[k];
        if (n->parent < 0 || !(n->bits & TRACE_HAS_OUTPUT)) continue;
        const trace_node *p = &t->nodes[n->parent];
        if (p->type == STEER_BLEND) {
            // a child's contribution: its output times its weight
            arrow(d, pos, steer_scale(n->output.linear, n->weight * d->steering_scale), child_colors[n->child_index & 7]);
        } else if (p->type == STEER_PRIORITY) {
            bool won = n->child_index == p->winner_linear;
            arrow(d, pos, steer_scale(n->output.linear, d->steering_scale), won ? COLOR_WINNER : COLOR_LOSER);
        }
    }
}

static void draw_trace(const agent_trace *t, const steer_kinematic *s, const steer_debug_draw *d)
{
    const steer_vec2 pos = s->position;
    if (d->flags & STEER_DRAW_VELOCITY) arrow(d, pos, steer_scale(s->velocity, d->velocity_scale), COLOR_VELOCITY);
    if (d->flags & STEER_DRAW_TREE) draw_tree(t, pos, d);
    if (d->flags & STEER_DRAW_STEERING) arrow(d, pos, steer_scale(t->final.linear, d->steering_scale), COLOR_STEERING);
    if ((d->flags & STEER_DRAW_RAYS) && d->draw_segment != NULL) {
        for (int k = 0; k < t->ray_count; ++k) {
            const trace_ray *r = &t->rays[k];
            d->draw_segment(r->origin, r->point, r->hit ? COLOR_HIT : COLOR_RAY, d->context);
            if (r->radius > 0.0f && d->draw_circle) d->draw_circle(r->point, r->radius, r->hit ? COLOR_HIT : COLOR_RAY, d->context);
            if (r->hit) {
                if (d->draw_point) d->draw_point(r->point, 6.0f, COLOR_HIT, d->context);
                arrow(d, r->point, r->normal, COLOR_HIT);
            }
        }
    }
    if (d->flags & STEER_DRAW_MARKS) {
        for (int k = 0; k < t->mark_count; ++k) {
            const trace_mark *m = &t->marks[k];
            switch (m->kind) {
            case MARK_WANDER:
                if (d->draw_circle) d->draw_circle(m->a, m->radius, COLOR_WANDER, d->context);
                if (d->draw_point) d->draw_point(m->b, 6.0f, COLOR_WANDER, d->context);
                if (d->draw_segment) d->draw_segment(m->a, m->b, COLOR_WANDER, d->context);
                break;
            case MARK_PATH_TARGET:
                if (d->draw_point) d->draw_point(m->a, 6.0f, COLOR_TARGET, d->context);
                if (d->draw_segment) d->draw_segment(pos, m->a, COLOR_TARGET, d->context);
                break;
            default:
                if (d->draw_circle) d->draw_circle(pos, m->radius, COLOR_NEIGHBOURS, d->context);
                break;
            }
        }
    }
}

void steer_world_draw(steer_world *w, const steer_debug_draw *d)
{
    if (!STEER_CHECK(w != NULL && d != NULL)) return;
    if (!STEER_CHECK(!w->stepping)) return;
    if (d->flags & STEER_DRAW_SHAPES) draw_shapes(w, d);
    if (d->flags & STEER_DRAW_PATHS) draw_paths(w, d);
    for (int i = 0; i < w->count; ++i) {
        const steer_kinematic *s = &w->state[i];
        if (d->flags & STEER_DRAW_AGENTS) {
            if (d->draw_solid_circle != NULL) d->draw_solid_circle(s->position, w->limits[i].radius, s->orientation, COLOR_AGENT, d->context);
            if (d->draw_transform != NULL) d->draw_transform(s->position, s->orientation, d->context);
        }
        const agent_trace *t = trace_of(w, i);
        if (t != NULL) draw_trace(t, s, d);
    }
}
