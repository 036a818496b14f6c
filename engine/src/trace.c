// trace.c: recording one traced agent's evaluation (nodes with their
// outputs and weights, priority winners, avoidance rays, wander circle, path
// target, neighbour radius) and reading it back. The recorders write only
// into the agent's buffer and call nothing back.
#include "behaviour.h"
#include "trace.h"
#include "store.h"
#include "world.h"

/* ---- recording (inside the step: writes only into the agent's buffer) -------- */

void steer__trace_begin(agent_trace *t)
{
    t->node_count = t->ray_count = t->mark_count = 0;
    t->truncated = false;
    t->current = -1;
    t->pending_weight = 1.0f;
    t->pending_child = 0;
}

// The marks that need a call (a heading, a point of a path): out of line,
// so that recording the common nodes saves no registers (a flock's
// trace_leave pushed six for them).
STEER_NOINLINE void steer__trace_computed_marks(eval_ctx *ctx, const steer_behaviour_def *d)
{
    agent_trace *t = ctx->trace;
    const float *mem = ctx->mem + ctx->mem_base;
    if (d->type == STEER_WANDER) {
        steer_vec2 centre = steer_mul_add(ctx->me.position, steer_heading(ctx->me.orientation), d->wander_offset);
        steer_vec2 target = steer_mul_add(centre, steer_heading(mem[0] + ctx->me.orientation), d->wander_radius);
        steer__trace_add_mark(t, MARK_WANDER, centre, target, d->wander_radius);
    } else if (d->path != NULL && mem[0] > 0.0f) {
        steer_vec2 target = steer_path_position(d->path, mem[0] - 1.0f + d->path_offset);
        steer__trace_add_mark(t, MARK_PATH_TARGET, target, target, 0.0f);
    }
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

/* ---- records (inside the step: each agent's own record) ----------------------- */

typedef struct trace_record_head {
    uint8_t node_count, ray_count, mark_count;
    bool truncated;
    steer_steering final;
} trace_record_head;

_Static_assert(sizeof(trace_record_head) % 8 == 0 && sizeof(trace_node) % 8 == 0,
               "a record's nodes are aligned for their pointer");

void steer__trace_prepare(steer_world *w, const uint32_t *order)
{
    int rank = 0;
    for (int k = 0; k < w->count; ++k) {
        const uint32_t i = order[k];
        if (!(w->flags[i] & AGENT_TRACE)) continue;
        // an agent without a behaviour is not evaluated: no trace
        w->trace_at[w->slot_of[i]] = w->behaviour[i] != NULL ? rank++ : TRACE_AT_NONE;
    }
}

agent_trace *steer__trace_start(steer_world *w, int worker)
{
    agent_trace *t = &w->trace_stage[worker];
    steer__trace_begin(t);
    return t;
}

STEER_NOINLINE static void trace_overflow(steer_world *w, uint32_t slot, const agent_trace *t);

void steer__trace_finish(steer_world *w, int i, const agent_trace *t)
{
    const uint32_t slot = w->slot_of[i];
    const int at = w->trace_at[slot];
    const size_t nodes = sizeof *t->nodes * (size_t)t->node_count, marks = sizeof *t->marks * (size_t)t->mark_count,
                 rays = sizeof *t->rays * (size_t)t->ray_count;
    if (at >= 0 && sizeof(trace_record_head) + nodes + marks + rays <= TRACE_RECORD_SIZE) {
        // (element by element: a few short copies, inline)
        unsigned char *r = w->trace_records + (size_t)at * TRACE_RECORD_SIZE;
        *(trace_record_head *)(void *)r = (trace_record_head){(uint8_t)t->node_count, (uint8_t)t->ray_count,
                                                               (uint8_t)t->mark_count, t->truncated, t->final};
        trace_node *rn = (trace_node *)(void *)(r + sizeof(trace_record_head));
        for (int k = 0; k < t->node_count; ++k) rn[k] = t->nodes[k];
        trace_mark *rm = (trace_mark *)(void *)(rn + t->node_count);
        for (int k = 0; k < t->mark_count; ++k) rm[k] = t->marks[k];
        trace_ray *rr = (trace_ray *)(void *)(rm + t->mark_count);
        for (int k = 0; k < t->ray_count; ++k) rr[k] = t->rays[k];
        return;
    }
    trace_overflow(w, slot, t);
}

// A trace too large for a record: into the agent's own buffer (its used
// parts). Out of line: its calls made the common case save six registers.
STEER_NOINLINE static void trace_overflow(steer_world *w, uint32_t slot, const agent_trace *t)
{
    const size_t nodes = sizeof *t->nodes * (size_t)t->node_count, marks = sizeof *t->marks * (size_t)t->mark_count,
                 rays = sizeof *t->rays * (size_t)t->ray_count;
    agent_trace *full = w->traces[slot];
    full->node_count = t->node_count;
    full->ray_count = t->ray_count;
    full->mark_count = t->mark_count;
    full->truncated = t->truncated;
    full->final = t->final;
    memcpy(full->nodes, t->nodes, nodes);
    memcpy(full->marks, t->marks, marks);
    memcpy(full->rays, t->rays, rays);
    w->trace_at[slot] = TRACE_AT_FULL;
}

/* ---- buffers and queries (outside the step) ----------------------------------- */

void steer__trace_free_all(steer_world *w)
{
    for (int i = 0; i < w->trace_slots; ++i) steer__free(w->traces[i]);
    steer__free(w->traces);
    steer__free(w->trace_at);
    steer__free(w->trace_records);
    steer__free(w->trace_stage);
    w->traces = NULL;
    w->trace_at = NULL;
    w->trace_records = NULL;
    w->trace_stage = NULL;
    w->trace_slots = 0;
    w->trace_record_capacity = 0;
}

void steer__trace_drop(steer_world *w, uint32_t slot)
{
    if ((int)slot >= w->trace_slots || w->traces[slot] == NULL) return;
    --w->traced;
    steer__free(w->traces[slot]);
    w->traces[slot] = NULL;
    w->trace_at[slot] = TRACE_AT_NONE;
}

// Room for `slots` slots' buffers and `traced` records, and the workers'
// buffers.
static bool trace_reserve(steer_world *w, int slots, int traced)
{
    if (slots > w->trace_slots) {
        agent_trace **grown = steer__realloc(w->traces, sizeof *grown * (size_t)slots);
        if (grown == NULL) return false;
        w->traces = grown;
        int32_t *at = steer__realloc(w->trace_at, sizeof *at * (size_t)slots);
        if (at == NULL) return false;
        w->trace_at = at;
        for (int k = w->trace_slots; k < slots; ++k) {
            grown[k] = NULL;
            at[k] = TRACE_AT_NONE;
        }
        w->trace_slots = slots;
    }
    if (traced > w->trace_record_capacity) {
        int n = traced > 2 * w->trace_record_capacity ? traced : 2 * w->trace_record_capacity;
        unsigned char *records = steer__realloc(w->trace_records, (size_t)TRACE_RECORD_SIZE * (size_t)n);
        if (records == NULL) return false;
        w->trace_records = records;
        w->trace_record_capacity = n;
    }
    if (w->trace_stage == NULL) {
        w->trace_stage = steer__alloc(sizeof *w->trace_stage * (size_t)w->def.worker_count);
        if (w->trace_stage == NULL) return false;
        memset(w->trace_stage, 0, sizeof *w->trace_stage * (size_t)w->def.worker_count);
    }
    return true;
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
    int slots = w->slot_capacity > (int)slot ? w->slot_capacity : (int)slot + 1;
    if (!trace_reserve(w, slots, w->traced + 1)) return false;
    if (w->traces[slot] == NULL) {
        agent_trace *t = steer__alloc(sizeof *t);
        if (t == NULL) return false;
        memset(t, 0, sizeof *t);
        w->traces[slot] = t;
        w->trace_at[slot] = TRACE_AT_NONE;
        ++w->traced;
    }
    w->flags[i] |= AGENT_TRACE;
    return true;
}

bool steer__trace_of(const steer_world *w, int i, trace_view *out)
{
    if (!(w->flags[i] & AGENT_TRACE)) return false;
    const uint32_t slot = w->slot_of[i];
    const int at = w->trace_at[slot];
    if (at == TRACE_AT_NONE) return false;
    if (at == TRACE_AT_FULL) {
        const agent_trace *t = w->traces[slot];
        *out = (trace_view){t->node_count, t->ray_count, t->mark_count, t->truncated, t->final,
                            t->nodes, t->marks, t->rays};
        return true;
    }
    const unsigned char *r = w->trace_records + (size_t)at * TRACE_RECORD_SIZE;
    trace_record_head head;
    memcpy(&head, r, sizeof head);
    const unsigned char *nodes = r + sizeof head;
    const unsigned char *marks = nodes + sizeof(trace_node) * head.node_count;
    const unsigned char *rays = marks + sizeof(trace_mark) * head.mark_count;
    *out = (trace_view){head.node_count, head.ray_count, head.mark_count, head.truncated, head.final,
                        (const trace_node *)(const void *)nodes, (const trace_mark *)(const void *)marks,
                        (const trace_ray *)(const void *)rays};
    return true;
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
    trace_view t;
    return steer__trace_of(w, i, &t) ? t.node_count : 0;
}

bool steer_agent_trace_node(const steer_world *w, steer_agent_id id, int k, steer_trace_node *out)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0 && out != NULL)) return false;
    trace_view t;
    if (!steer__trace_of(w, i, &t) || k < 0 || k >= t.node_count) return false;
    const trace_node *n = &t.nodes[k];
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
    trace_view t;
    return steer__trace_of(w, i, &t) && t.truncated;
}
