// trace.h: per-agent traces of one evaluation, for the debug draw
// and inspectors. Only traced agents have a buffer (allocated by
// steer_agent_set_trace, outside the step); evaluation writes into it and
// never calls out, drawing reads it after the step.
#ifndef STEER_TRACE_H
#define STEER_TRACE_H

#include "behaviour.h"
#include "eval.h"

enum { TRACE_MAX_RAYS = 12, TRACE_MAX_MARKS = 8 };

/// One node, packed (32 bytes): thousands of traced agents write theirs
/// every step, so the trace stays small (steer_agent_trace_node unpacks it).
typedef struct trace_node {
    const steer_behaviour *behaviour;
    steer_steering output;
    float weight;
    int16_t parent;
    uint8_t child_index, depth;
    int8_t winner_linear, winner_angular;
    uint8_t type;
    uint8_t bits; ///< TRACE_HAS_OUTPUT, TRACE_FALLBACK_LINEAR, TRACE_FALLBACK_ANGULAR
} trace_node;
enum { TRACE_HAS_OUTPUT = 1, TRACE_FALLBACK_LINEAR = 2, TRACE_FALLBACK_ANGULAR = 4 };
enum { MARK_WANDER, MARK_PATH_TARGET, MARK_NEIGHBOURS };

typedef struct trace_ray {
    steer_vec2 origin, dir;
    float length, radius;
    bool hit;
    steer_vec2 point, normal;
} trace_ray;

typedef struct trace_mark {
    int kind;
    steer_vec2 a, b; ///< wander: circle centre, target; path: target
    float radius;    ///< wander circle, neighbour radius
} trace_mark;

/// One evaluation's trace in full: the buffer an evaluation writes into
/// (one per worker), and a traced agent's record when it does not fit a
/// compact one.
typedef struct agent_trace {
    int node_count, ray_count, mark_count;
    bool truncated;
    int current;          ///< node being evaluated (-1: none)
    float pending_weight; ///< weight the next node gets from its blend parent
    int pending_child;    ///< its index among the parent's children
    steer_steering final;
    trace_mark marks[TRACE_MAX_MARKS];
    trace_node nodes[STEER_TRACE_MAX_NODES];
    trace_ray rays[TRACE_MAX_RAYS];
} agent_trace;

/// Compact records: a traced agent's evaluation is copied, when it fits,
/// into a record of this many bytes (a header, then its nodes, marks and
/// rays), one per traced agent in step order: with every agent traced the
/// step writes a few consecutive cache lines per agent, in the order it
/// evaluates them, instead of lines of a buffer per agent scattered in the
/// heap. A blend of three group behaviours (4 nodes, 3 marks) takes 216.
enum { TRACE_RECORD_SIZE = 256 };
/// trace_at: no traced step has run since tracing was turned on; the
/// agent's full buffer holds its record.
enum { TRACE_AT_NONE = -2, TRACE_AT_FULL = -1 };

/// What the readers see of an agent's last trace (either form).
typedef struct trace_view {
    int node_count, ray_count, mark_count;
    bool truncated;
    steer_steering final;
    const trace_node *nodes;
    const trace_mark *marks;
    const trace_ray *rays;
} trace_view;

/// Clear a trace before the agent's evaluation.
void steer__trace_begin(agent_trace *t);
/// The traced dispatch (evaluate.c) records a node around its evaluation:
/// enter before (the node's index, or -1 when the trace is full; the
/// parent is t->current before the call), leave after, with its output and
/// what it looked at (wander circle, path target, neighbour radius).
/// (Inline: called around every traced node; the calls cost the traced
/// flock 53 of its 1,917 instructions an agent-step.)
/// The node of behaviour b as it enters (steer__trace_enter) or, for a leaf
/// recorded after it runs, as it leaves: child `child` (weight `weight`) of
/// node `parent` of t (-1: the root, weight 1) at `depth` (steer__trace_depth),
/// no winners, and its output if it has one already (else NULL).
static inline trace_node steer__trace_node(const steer_behaviour *b, int parent, int depth, int child, float weight,
                                           const steer_steering *output)
{
    return (trace_node){
        .behaviour = b,
        .output = output != NULL ? *output : (steer_steering){{0.0f, 0.0f}, 0.0f},
        .weight = parent < 0 ? 1.0f : weight,
        .parent = (int16_t)parent,
        // depth and child index saturate: only the first 32 nodes are kept anyway
        .child_index = (uint8_t)(parent < 0 ? 0 : (child > 255 ? 255 : child)),
        .depth = (uint8_t)(depth > 255 ? 255 : depth),
        .winner_linear = -1,
        .winner_angular = -1,
        .type = (uint8_t)b->def.type,
        .bits = output != NULL ? TRACE_HAS_OUTPUT : 0,
    };
}
/// The depth of a child of node `parent` of t (-1: the root).
static inline int steer__trace_depth(const agent_trace *t, int parent)
{
    return parent < 0 ? 0 : t->nodes[parent].depth + 1;
}
static inline int steer__trace_enter(agent_trace *t, const steer_behaviour *b)
{
    const int parent = t->current;
    int n = -1;
    if (t->node_count < STEER_TRACE_MAX_NODES) {
        n = t->node_count++;
        t->nodes[n] = steer__trace_node(b, parent, steer__trace_depth(t, parent), t->pending_child, t->pending_weight, NULL);
        t->current = n;
    } else {
        t->truncated = true;
    }
    t->pending_weight = 1.0f;
    t->pending_child = 0;
    return n;
}
static inline void steer__trace_add_mark(agent_trace *t, int kind, steer_vec2 a, steer_vec2 b, float radius)
{
    if (t->mark_count >= TRACE_MAX_MARKS) {
        t->truncated = true;
        return;
    }
    trace_mark *m = &t->marks[t->mark_count++];
    m->kind = kind, m->a = a, m->b = b, m->radius = radius;
}
/// The marks that need a call (a heading, a point of a path): out of line,
/// so that recording the common nodes saves no registers.
void steer__trace_computed_marks(eval_ctx *ctx, const steer_behaviour_def *d);
static inline void steer__trace_leave(eval_ctx *ctx, const steer_behaviour *b, int parent, int n, bool has,
                                      const steer_steering *out)
{
    agent_trace *t = ctx->trace;
    t->current = parent;
    if (n >= 0) {
        t->nodes[n].bits |= has ? TRACE_HAS_OUTPUT : 0;
        t->nodes[n].output = has ? *out : (steer_steering){{0.0f, 0.0f}, 0.0f};
    }
    // what the node looked at, recomputed from its parameters and the
    // memory it just wrote, so the family files need no tracing code
    switch (b->def.type) {
    case STEER_WANDER:
    case STEER_FOLLOW_PATH: steer__trace_computed_marks(ctx, &b->def); break;
    case STEER_SEPARATION:
    case STEER_COHESION:
    case STEER_ALIGNMENT:
    case STEER_COLLISION_AVOIDANCE:
        steer__trace_add_mark(t, MARK_NEIGHBOURS, ctx->me.position, ctx->me.position, b->def.radius);
        break;
    default: break;
    }
}
/// A combinator announces the weight and index of the child it evaluates next.
static inline void steer__trace_child(eval_ctx *ctx, int index, float weight)
{
    if (ctx->trace != NULL) {
        ctx->trace->pending_child = index;
        ctx->trace->pending_weight = weight;
    }
}
/// A priority node records its winners.
void steer__trace_priority(eval_ctx *ctx, int win_lin, int win_ang, bool fb_lin, bool fb_ang);
/// Obstacle avoidance records one ray.
void steer__trace_ray(eval_ctx *ctx, steer_vec2 origin, steer_vec2 dir, float length, float radius, bool hit,
                      const steer_ray_hit *h);
/// Free every trace of a world (world destruction) and one agent's (removal).
struct steer_world;
void steer__trace_free_all(struct steer_world *w);
void steer__trace_drop(struct steer_world *w, uint32_t slot);
/// Before the evaluation pass when any agent is traced: each traced agent's
/// record, in step order (`order`: the grid's).
void steer__trace_prepare(struct steer_world *w, const uint32_t *order);
/// The buffer worker `worker` evaluates dense agent i's trace into
/// (cleared), and the copy of it into the agent's record after evaluation.
agent_trace *steer__trace_start(struct steer_world *w, int worker);
void steer__trace_finish(struct steer_world *w, int i, const agent_trace *t);
/// Dense agent i's last trace (a traced step has run since tracing was
/// turned on); false if none.
bool steer__trace_of(const struct steer_world *w, int i, trace_view *out);

#endif
