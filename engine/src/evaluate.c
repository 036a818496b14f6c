// evaluate.c: the only place an evaluation starts or recurses: an agent of
// the step, a preview, a body that is not an agent (a formation's anchor);
// the dispatch of one node (limit overrides, the traced dispatch that
// calls the trace recorders), callback behaviours, the two combinators
// (weighted blending and priorities) and the reciprocal node's preferred
// child. Behaviour families are leaves under it.
#include "behaviour.h"
#include "evaluate.h"
#include "navigate.h"
#include "store.h"
#include "trace.h"
#include "world.h"


/// One node's evaluator: one per type in node_table (below).
typedef bool node_fn(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);
static node_fn *const node_table[STEER_BEHAVIOUR_TYPE_COUNT];
/// A node with limit overrides, or of a traced agent.
static bool evaluate_special(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);

/// Evaluate a behaviour node; false for "no steering". The common case (an
/// untraced agent, a node without limit overrides) is one predictable
/// branch and one indirect call: a blend of three reaches its children
/// without a switch or a call in between.
static inline bool evaluate(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    if (ctx->trace != NULL || b->overrides) return evaluate_special(ctx, b, out);
    return node_table[b->def.type](ctx, b, out);
}

// (not inlined into eval_blend: its registers would be saved before the
// test that jumps to the kernel)
STEER_NOINLINE static bool blend_children(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    // weighted blending: sum of weighted outputs, then clamped
    const int n = b->def.child_count;
    const steer_child *children = b->children;
    double x = 0.0, y = 0.0, angular = 0.0;
    bool any = false;
    if (b->memory == 0) {
        // no stateful node below: no memory places to hand out (the flock)
        for (int i = 0; i < n; ++i) {
            steer__trace_child(ctx, i, children[i].weight);
            steer_steering s;
            if (!evaluate(ctx, children[i].behaviour, &s)) continue;
            const double wgt = children[i].weight;
            x += s.linear.x * wgt;
            y += s.linear.y * wgt;
            angular += s.angular * wgt;
            any = true;
        }
    } else {
        // each child evaluates with its memory at its fixed place (behaviour.h)
        const int base = ctx->mem_base;
        int offset = base;
        for (int i = 0; i < n; ++i) {
            const steer_behaviour *c = children[i].behaviour;
            ctx->mem_base = offset;
            offset += c->memory;
            steer__trace_child(ctx, i, children[i].weight);
            steer_steering s;
            if (!evaluate(ctx, c, &s)) continue;
            const double wgt = children[i].weight;
            x += s.linear.x * wgt;
            y += s.linear.y * wgt;
            angular += s.angular * wgt;
            any = true;
        }
        ctx->mem_base = base;
    }
    if (!any) return false;
    steer__clamp_output(ctx, x, y, angular, out);
    return true;
}

// A neighbour blend (steer_behaviour.neighbour_blend) of a traced agent:
// blend_children's loop with each child recorded as evaluate_traced records
// it (its index and weight, its node, its output and marks), the same
// record and the same bits, without evaluate's dispatch per child (its
// children have no limit overrides: the flag admits none). Here, not in
// group.c: a second caller there stopped gcc inlining the children's
// evaluators into steer__group_blend (64 more instructions an untraced
// agent-step). The children (separation, cohesion, alignment) are leaves
// that record nothing while they run, so each child's node (trace.h,
// steer__trace_node, as steer__trace_enter makes it) is written whole after
// it runs, its output with it, then its mark, as steer__trace_leave would.
STEER_NOINLINE static bool neighbour_blend_traced(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    agent_trace *t = ctx->trace;
    const int n = b->def.child_count;
    const steer_child *children = b->children;
    const int parent = t->current, depth = steer__trace_depth(t, parent);
    const steer_vec2 at = ctx->me.position;
    double x = 0.0, y = 0.0, angular = 0.0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        const steer_behaviour *c = children[i].behaviour;
        steer_steering s;
        const bool has = node_table[c->def.type](ctx, c, &s);
        if (t->node_count < STEER_TRACE_MAX_NODES) {
            t->nodes[t->node_count++] = steer__trace_node(c, parent, depth, i, children[i].weight, has ? &s : NULL);
        } else {
            t->truncated = true;
        }
        steer__trace_add_mark(t, MARK_NEIGHBOURS, at, at, c->def.radius);
        if (!has) continue;
        const double wgt = children[i].weight;
        x += s.linear.x * wgt;
        y += s.linear.y * wgt;
        angular += s.angular * wgt;
        any = true;
    }
    // (pending_weight and pending_child are 1 and 0 still: the blend's own
    // steer__trace_enter reset them, and nothing here announces a child)
    if (!any) return false;
    steer__clamp_output(ctx, x, y, angular, out);
    return true;
}

static bool eval_blend(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    // separation, cohesion and alignment only: one kernel (group.c), the
    // same operations in the same order as blend_children (a traced agent's
    // records each child as the loop does)
    if (b->neighbour_blend) {
        return ctx->trace == NULL ? steer__group_blend(ctx, b, out) : neighbour_blend_traced(ctx, b, out);
    }
    return blend_children(ctx, b, out);
}

static bool eval_priority(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    // Priority: groups in order; per channel (linear, angular) the first
    // group whose output exceeds epsilon wins. When none does, the last group
    // that gave any steering is used, as in the notes' fallback. Groups
    // skipped or not reached keep their memory where it is.
    const float eps = b->def.epsilon;
    const int base = ctx->mem_base;
    int offset = base;
    bool have_lin = false, have_ang = false, any = false;
    int win_lin = -1, win_ang = -1, last_index = -1;
    steer_steering result = {{0.0f, 0.0f}, 0.0f}, last = result;
    for (int i = 0; i < b->def.child_count && !(have_lin && have_ang); ++i) {
        const steer_behaviour *c = b->children[i].behaviour;
        ctx->mem_base = offset;
        offset += c->memory;
        steer__trace_child(ctx, i, 1.0f);
        steer_steering s;
        if (!evaluate(ctx, c, &s)) continue;
        any = true;
        last = s;
        last_index = i;
        if (!have_lin && steer_length(s.linear) > eps) {
            result.linear = s.linear;
            have_lin = true;
            win_lin = i;
        }
        if (!have_ang && steer_absf(s.angular) > eps) {
            result.angular = s.angular;
            have_ang = true;
            win_ang = i;
        }
    }
    ctx->mem_base = base;
    if (ctx->trace != NULL) {
        steer__trace_priority(ctx, have_lin ? win_lin : last_index, have_ang ? win_ang : last_index,
                              !have_lin && any, !have_ang && any);
    }
    if (!any) return false;
    if (!have_lin) result.linear = last.linear;
    if (!have_ang) result.angular = last.angular;
    *out = result;
    return true;
}

// The id of the agent being evaluated (for callbacks).
static steer_agent_id self_id(const eval_ctx *ctx)
{
    return steer__store_id_of(ctx->world, ctx->self); // (an anchor, self < 0, calls none)
}

static bool eval_callback(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    // An anchor's steering holds no callback (steer_formation_can_steer_anchor
    // when the formation takes it); one put into its tree since (new
    // children) gives nothing: it has no agent to be called for (the Lua
    // module asked the key of the null agent: an engine assertion)
    if (ctx->self < 0) return false;
    steer_steering s = {{0.0f, 0.0f}, 0.0f};
    steer_callback_result r = d->callback(ctx->world, self_id(ctx), ctx->dt, &s, d->context);
    if (r == STEER_CALLBACK_ERROR) {
        ctx->failed = true;
        return false;
    }
    if (r != STEER_CALLBACK_STEERING) return false;
    if (!steer_vec2_is_finite(s.linear) || !isfinite(s.angular)) {
        ctx->failed = true; // a host bug; never let it into the state
        return false;
    }
    *out = s;
    return true;
}

/* ---- the node table: one evaluator per type -------------------------------------- */

// Families that tell their types apart themselves take the definition.
static bool node_kinematic(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return steer__kinematic_steer(ctx, &b->def, out);
}

static bool node_basic(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return steer__steering_basic(ctx, &b->def, out);
}

static bool node_delegated(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return steer__delegated_steer(ctx, &b->def, out);
}

static bool node_obstacle_avoidance(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return steer__avoidance_steer(ctx, &b->def, out);
}

static bool node_callback(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return eval_callback(ctx, &b->def, out);
}

static bool node_reciprocal(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    // the preferred velocity comes from the child, evaluated here into out
    // (its memory starts where ours would); the solver is a leaf
    // (reciprocal.c), called last, so the call is a jump
    bool has = evaluate(ctx, b->children[0].behaviour, out);
    const steer_steering child = has ? *out : (steer_steering){{0.0f, 0.0f}, 0.0f};
    return steer__reciprocal_steer(ctx, &b->def, &b->children[0].behaviour->def, has, child, out);
}

static bool node_formation_slot(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return steer__formation_slot_steer(ctx, &b->def, out);
}

// Every type has its entry (test_tree walks every type through it).
static node_fn *const node_table[STEER_BEHAVIOUR_TYPE_COUNT] = {
    [STEER_KINEMATIC_SEEK] = node_kinematic,
    [STEER_KINEMATIC_FLEE] = node_kinematic,
    [STEER_KINEMATIC_ARRIVE] = node_kinematic,
    [STEER_KINEMATIC_WANDER] = node_kinematic,
    [STEER_SEEK] = node_basic,
    [STEER_FLEE] = node_basic,
    [STEER_ARRIVE] = node_basic,
    [STEER_ALIGN] = node_basic,
    [STEER_VELOCITY_MATCH] = node_basic,
    [STEER_PURSUE] = node_delegated,
    [STEER_EVADE] = node_delegated,
    [STEER_FACE] = node_delegated,
    [STEER_LOOK_WHERE_YOU_ARE_GOING] = node_delegated,
    [STEER_WANDER] = node_delegated,
    [STEER_FOLLOW_PATH] = node_delegated,
    [STEER_SEPARATION] = steer__group_separation,
    [STEER_COHESION] = steer__group_cohesion,
    [STEER_ALIGNMENT] = steer__group_alignment,
    [STEER_COLLISION_AVOIDANCE] = steer__group_collision_avoidance,
    [STEER_OBSTACLE_AVOIDANCE] = node_obstacle_avoidance,
    [STEER_BLEND] = eval_blend,
    [STEER_PRIORITY] = eval_priority,
    [STEER_CALLBACK] = node_callback,
    [STEER_FORMATION_SLOT] = node_formation_slot,
    [STEER_RECIPROCAL_AVOIDANCE] = node_reciprocal,
    [STEER_NAVIGATE] = steer__navigate_steer,
};

// A node whose limit overrides hold for it and everything under it.
static bool evaluate_node(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    if (!b->overrides) return node_table[b->def.type](ctx, b, out);
    const steer_behaviour_def *d = &b->def;
    const steer_limits saved = ctx->lim;
    if (d->max_speed >= 0.0f) ctx->lim.max_speed = d->max_speed;
    if (d->max_acceleration >= 0.0f) ctx->lim.max_acceleration = d->max_acceleration;
    if (d->max_rotation >= 0.0f) ctx->lim.max_rotation = d->max_rotation;
    if (d->max_angular_acceleration >= 0.0f) ctx->lim.max_angular_acceleration = d->max_angular_acceleration;
    bool has = node_table[d->type](ctx, b, out);
    ctx->lim = saved;
    return has;
}

// A traced agent's node: recorded around its evaluation (trace.c writes
// the record; nothing there evaluates).
static bool evaluate_traced(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    agent_trace *t = ctx->trace;
    const int parent = t->current;
    const int n = steer__trace_enter(t, b);
    bool has = evaluate_node(ctx, b, out);
    steer__trace_leave(ctx, b, parent, n, has, out);
    return has;
}

static bool evaluate_special(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    if (ctx->trace != NULL) return evaluate_traced(ctx, b, out);
    return evaluate_node(ctx, b, out);
}

/* ---- entries: an agent, a preview, a body ---------------------------------------------------- */

// The evaluation context of agent i, reading (and advancing) mem and rng.
static void init_ctx(eval_ctx *ctx, steer_world *w, const eval_view *view, eval_scratch *scratch, int i, float dt,
                     float *mem, uint64_t *rng)
{
    // field by field: a memset of the whole context costs more than the step's arithmetic
    ctx->world = w;
    ctx->view = view;
    ctx->self = i;
    ctx->self_proxy = w->grid.proxy_of[i];
    ctx->me = w->state[i];
    ctx->lim = w->limits[i];
    ctx->key = w->key[i];
    ctx->dt = dt;
    ctx->kinematic = (w->flags[i] & AGENT_KINEMATIC) != 0;
    ctx->failed = false;
    ctx->mem = mem;
    ctx->mem_base = 0;
    ctx->rng = rng;
    ctx->scratch = scratch;
    ctx->neighbour_count = 0;
    ctx->gathered_radius = -1.0f;
    ctx->sums.radius = -1.0f;
    ctx->trace = NULL;
    ctx->intent = NULL;
    ctx->course = NULL;
    ctx->course_written = false;
    ctx->rest = NULL;
    ctx->rest_written = ctx->rest_now = false;
    ctx->rest_marks = 0; // (the agent's, where it may write: steer__evaluate_agent)
    ctx->plan = NULL; // an agent's is read from the view, by navigate only
    ctx->plan_writable = true;
}

bool steer__evaluate_agent(steer_world *w, const eval_view *view, eval_scratch *scratch, int i, float dt)
{
    steer_steering out = {{0.0f, 0.0f}, 0.0f};
    const steer_behaviour *b = w->behaviour[i];
    bool failed = false, written = false, held = false;
    const uint8_t marks = w->rest_held[i];
    if (b != NULL) {
        eval_ctx ctx;
        init_ctx(&ctx, w, view, scratch, i, dt, w->memory[i].value, &w->rng[i]);
        ctx.intent = &w->intent[i];
        ctx.course = &w->course_next[i];
        ctx.rest = &w->rest_next[i];
        ctx.rest_marks = marks;
        // a traced agent's evaluation goes into its worker's buffer, then
        // into the agent's record (trace.c)
        if (w->flags[i] & AGENT_TRACE) ctx.trace = steer__trace_start(w, (int)(scratch - w->scratch));
        if (!evaluate(&ctx, b, &out) || ctx.failed) out = (steer_steering){{0.0f, 0.0f}, 0.0f};
        failed = ctx.failed;
        if (ctx.trace != NULL) {
            ctx.trace->final = out;
            steer__trace_finish(w, i, ctx.trace);
        }
        written = ctx.course_written;
        held = ctx.rest_now;
    }
    // the course the next step reads (world.h, orca_course): the one
    // written (its opposition counted by reciprocal.c), else the agent's own
    if (!written) {
        w->course_next[i] = w->course[i];
        scratch->opposed += w->course[i].opp > 0.0f;
    }
    // its settling state likewise (world.h, orca_rest, rest_held: the
    // buffers' states that may not be all 0); kept, where one may not be 0
    if (!written && marks != 0) {
        w->rest_next[i] = (marks & 1) ? w->rest[i] : (orca_rest){0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        held = marks & 1;
    }
    w->rest_held[i] = (uint8_t)(held | (marks & 1) << 1); // (the buffers swap after the step)
    scratch->settling += held;
    w->out[i] = out;
    return !failed;
}

bool steer__evaluate_preview(steer_world *w, const steer_behaviour *b, int i, float dt, steer_steering *out,
                             bool record_trace)
{
    // on copies of the memory and the random stream: asking changes nothing
    agent_memory mem = w->memory[i];
    uint64_t rng = w->rng[i];
    eval_view view;
    steer__context_view_init(&view, w);
    eval_ctx ctx;
    // worker 0's scratch: previews run on the thread that steps the world
    init_ctx(&ctx, w, &view, &w->scratch[0], i, dt, mem.value, &rng);
    ctx.plan_writable = false;
    ctx.rest_marks = w->rest_held[i]; // (its level is read as a step reads it)
    if (record_trace && (w->flags[i] & AGENT_TRACE) && w->trace_stage != NULL) {
        // an inspector's preview of a paused world: the trace as a step
        // would record it (worker 0's buffer, then the agent's record)
        ctx.trace = steer__trace_start(w, 0);
    }
    steer_steering s = {{0.0f, 0.0f}, 0.0f};
    bool has = evaluate(&ctx, b, &s) && !ctx.failed;
    *out = has ? s : (steer_steering){{0.0f, 0.0f}, 0.0f};
    if (ctx.trace != NULL) {
        ctx.trace->final = *out;
        steer__trace_finish(w, i, ctx.trace);
    }
    return has;
}



steer_steering steer__evaluate_body(steer_world *w, const steer_behaviour *b, const eval_body *body, float dt)
{
    eval_view view;
    steer__context_view_init(&view, w);
    eval_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.world = w;
    ctx.view = &view;
    ctx.self = -1;              // no agent: its id is null
    ctx.self_proxy = UINT32_MAX; // no neighbour is itself
    ctx.me = body->state;
    ctx.lim = body->limits;
    ctx.dt = dt;
    ctx.mem = body->memory;
    ctx.rng = body->rng;
    ctx.plan = body->plan;
    ctx.plan_writable = true;
    ctx.scratch = w->scratch;
    ctx.gathered_radius = -1.0f;
    ctx.sums.radius = -1.0f;
    steer_steering out = {{0.0f, 0.0f}, 0.0f};
    if (!evaluate(&ctx, b, &out) || !steer_vec2_is_finite(out.linear)) out.linear = steer_v2(0.0f, 0.0f);
    return out;
}
