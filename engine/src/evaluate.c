// evaluate.c: dispatch of one behaviour node, limit overrides, behaviour
// memory, targets, the neighbour gather, and the two combinators.
#include "core.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

bool steer__scratch_reserve(eval_scratch *s, int capacity)
{
    // spare entries: the branch-free gather writes one past the last kept,
    // the vector loop whole groups of 4
    size_t n = (size_t)capacity + STEER_GRID_PAD;
    uint32_t *p = steer__realloc(s->proxy, sizeof *p * n);
    if (p == NULL) return false;
    s->proxy = p;
    float **arrays[] = {&s->dist_sq, &s->tmp_d2, &s->pack_dx, &s->pack_dy, &s->pack_d2, &s->pack_vx, &s->pack_vy};
    for (int i = 0; i < 7; ++i) {
        float *d = steer__realloc(*arrays[i], sizeof *d * n);
        if (d == NULL) return false;
        *arrays[i] = d;
    }
    s->capacity = capacity;
    return true;
}

void steer__scratch_free(eval_scratch *s)
{
    steer__free(s->proxy);
    steer__free(s->dist_sq);
    steer__free(s->tmp_d2);
    steer__free(s->pack_dx);
    steer__free(s->pack_dy);
    steer__free(s->pack_d2);
    steer__free(s->pack_vx);
    steer__free(s->pack_vy);
    memset(s, 0, sizeof *s);
    s->capacity = 0;
}

float *steer__memory_claim(eval_ctx *ctx, int n)
{
    if (ctx->mem_cursor + n <= STEER_MEMORY_FLOATS) {
        float *p = &ctx->mem->value[ctx->mem_cursor];
        ctx->mem_cursor += n;
        return p;
    }
    // Past the agent's slots: the behaviour runs with memory that lasts one
    // evaluation (documented limit of STEER_MEMORY_FLOATS per agent).
    ctx->overflow[0] = ctx->overflow[1] = 0.0f;
    return ctx->overflow;
}

bool steer__resolve_target(const eval_ctx *ctx, const steer_target *t, target_state *out)
{
    switch (t->kind) {
    case STEER_TARGET_POINT:
        out->position = t->point;
        out->velocity = steer_v2(0.0f, 0.0f);
        out->orientation = 0.0f;
        out->is_agent = false;
        return true;
    case STEER_TARGET_AGENT: {
        int j = steer__agent_dense(ctx->w, t->agent);
        if (j < 0) return false; // removed target: no steering
        const steer_kinematic *s = &ctx->w->state[j];
        out->position = s->position;
        out->velocity = s->velocity;
        out->orientation = s->orientation;
        out->is_agent = true;
        return true;
    }
    default:
        return false;
    }
}

// Candidates of one proxy range: squared distances four at a time (past
// the range's end too: the arrays are padded), then a branch-free
// compaction of those in range: about a third are, in no predictable
// pattern, so a branch per candidate would mispredict (PERFORMANCE.md).
// The SSE2 and plain paths compute the same IEEE operations: same bits.
static int gather_range(const neighbour_grid *g, eval_scratch *s, uint32_t begin, uint32_t end, float cx, float cy,
                        float r2, int n)
{
    const int m = (int)(end - begin);
    const float *restrict px = g->x + begin;
    const float *restrict py = g->y + begin;
    float *restrict td = s->tmp_d2;
#if defined(__SSE2__)
    const __m128 vcx = _mm_set1_ps(cx), vcy = _mm_set1_ps(cy);
    for (int i = 0; i < m; i += 4) {
        __m128 dx = _mm_sub_ps(_mm_loadu_ps(px + i), vcx);
        __m128 dy = _mm_sub_ps(_mm_loadu_ps(py + i), vcy);
        _mm_storeu_ps(td + i, _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)));
    }
#else
    for (int i = 0; i < m; ++i) {
        float dx = px[i] - cx, dy = py[i] - cy;
        td[i] = dx * dx + dy * dy;
    }
#endif
    uint32_t *restrict list = s->proxy;
    float *restrict dist = s->dist_sq;
    for (int i = 0; i < m; ++i) {
        list[n] = begin + (uint32_t)i;
        dist[n] = td[i];
        n += td[i] < r2;
    }
    return n;
}

int steer__gather_neighbours(eval_ctx *ctx, float radius)
{
    // the list lives in the shared scratch: a callback behaviour may have run a
    // nested evaluation (get_steering) that gathered over it since
    if (ctx->gathered_radius >= radius && ctx->gathered_epoch == ctx->scratch->gather_epoch) return ctx->neighbour_count;
    const neighbour_grid *g = &ctx->w->grid;
    eval_scratch *s = ctx->scratch;
    const float cx = ctx->me.position.x, cy = ctx->me.position.y;
    const float r2 = radius * radius;
    const uint32_t (*ranges)[2];
    int count = steer__grid_ranges(g, &s->ranges, ctx->me.position, radius, &ranges);
    int n = 0;
    for (int i = 0; i < count; ++i) n = gather_range(g, s, ranges[i][0], ranges[i][1], cx, cy, r2, n);
    // the agent itself was kept (distance 0): take it out, keeping the order
    for (int j = 0; j < n; ++j) {
        if (s->proxy[j] == ctx->self_proxy) {
            for (int k = j + 1; k < n; ++k) {
                s->proxy[k - 1] = s->proxy[k];
                s->dist_sq[k - 1] = s->dist_sq[k];
            }
            --n;
            break;
        }
    }
    ctx->neighbour_count = n;
    ctx->gathered_radius = radius;
    ctx->gathered_epoch = ++s->gather_epoch;
    return n;
}

static float clamp_abs(float v, float limit) { return steer_clampf(v, -limit, limit); }

// Clamp a combined output to the character's limits: accelerations for
// steering agents, speed and rotation for kinematic ones.
static void clamp_output(const eval_ctx *ctx, steer_steering *s)
{
    bool kinematic = (ctx->w->flags[ctx->self] & AGENT_KINEMATIC) != 0;
    float lin = kinematic ? ctx->lim.max_speed : ctx->lim.max_acceleration;
    float ang = kinematic ? ctx->lim.max_rotation : ctx->lim.max_angular_acceleration;
    // whether a blend exceeds the limit is data-dependent: compute the scale
    // either way and select it, instead of a branch that mispredicts
    float len2 = steer_length_sq(s->linear);
    float scale = lin / sqrtf(len2 > 0.0f ? len2 : 1.0f);
    scale = len2 > lin * lin ? scale : 1.0f;
    s->linear = steer_scale(s->linear, scale);
    s->angular = clamp_abs(s->angular, ang);
}

bool steer__eval_combinator(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    const steer_behaviour_def *d = &b->def;
    if (d->type == STEER_BLEND) {
        // weighted blending: sum of weighted outputs, then clamped
        steer_steering sum = {{0.0f, 0.0f}, 0.0f};
        bool any = false;
        for (int i = 0; i < d->child_count; ++i) {
            steer_steering s;
            if (!steer__evaluate(ctx, b->children[i].behaviour, &s)) continue;
            float wgt = b->children[i].weight;
            sum.linear = steer_mul_add(sum.linear, s.linear, wgt);
            sum.angular += s.angular * wgt;
            any = true;
        }
        if (!any) return false;
        clamp_output(ctx, &sum);
        *out = sum;
        return true;
    }
    // Priority: groups in order; per channel (linear, angular) the first
    // group whose output exceeds epsilon wins. When none does, the last group
    // that gave any steering is used, as in the notes' fallback.
    const float eps = d->epsilon;
    bool have_lin = false, have_ang = false, any = false;
    steer_steering result = {{0.0f, 0.0f}, 0.0f}, last = result;
    for (int i = 0; i < d->child_count && !(have_lin && have_ang); ++i) {
        steer_steering s;
        if (!steer__evaluate(ctx, b->children[i].behaviour, &s)) continue;
        any = true;
        last = s;
        if (!have_lin && steer_length(s.linear) > eps) {
            result.linear = s.linear;
            have_lin = true;
        }
        if (!have_ang && steer_absf(s.angular) > eps) {
            result.angular = s.angular;
            have_ang = true;
        }
    }
    if (!any) return false;
    if (!have_lin) result.linear = last.linear;
    if (!have_ang) result.angular = last.angular;
    *out = result;
    return true;
}

static bool eval_callback(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    steer_steering s = {{0.0f, 0.0f}, 0.0f};
    steer_agent_id id = steer__agent_id_of(ctx->w, ctx->self);
    steer_callback_result r = d->callback(ctx->w, id, ctx->dt, &s, d->context);
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

// One node of the tree: the family evaluator of its type.
static bool dispatch(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    const steer_behaviour_def *d = &b->def;
    switch (d->type) {
    case STEER_KINEMATIC_SEEK:
    case STEER_KINEMATIC_FLEE:
    case STEER_KINEMATIC_ARRIVE:
    case STEER_KINEMATIC_WANDER: return steer__eval_kinematic(ctx, d, out);
    case STEER_SEEK:
    case STEER_FLEE:
    case STEER_ARRIVE:
    case STEER_ALIGN:
    case STEER_VELOCITY_MATCH: return steer__eval_basic(ctx, d, out);
    case STEER_PURSUE:
    case STEER_EVADE:
    case STEER_FACE:
    case STEER_LOOK_WHERE_YOU_ARE_GOING:
    case STEER_WANDER: return steer__eval_delegated(ctx, d, out);
    case STEER_FOLLOW_PATH: return steer__eval_follow_path(ctx, d, out);
    case STEER_SEPARATION:
    case STEER_COHESION:
    case STEER_ALIGNMENT:
    case STEER_COLLISION_AVOIDANCE: return steer__eval_group(ctx, d, out);
    case STEER_OBSTACLE_AVOIDANCE: return steer__eval_obstacle_avoidance(ctx, d, out);
    case STEER_BLEND:
    case STEER_PRIORITY: return steer__eval_combinator(ctx, b, out);
    case STEER_CALLBACK: return eval_callback(ctx, d, out);
    default: return false;
    }
}

bool steer__evaluate(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    if (!b->overrides) return dispatch(ctx, b, out);
    // limit overrides hold for this node and everything under it
    const steer_behaviour_def *d = &b->def;
    const steer_limits saved = ctx->lim;
    if (d->max_speed >= 0.0f) ctx->lim.max_speed = d->max_speed;
    if (d->max_acceleration >= 0.0f) ctx->lim.max_acceleration = d->max_acceleration;
    if (d->max_rotation >= 0.0f) ctx->lim.max_rotation = d->max_rotation;
    if (d->max_angular_acceleration >= 0.0f) ctx->lim.max_angular_acceleration = d->max_angular_acceleration;
    bool has = dispatch(ctx, b, out);
    ctx->lim = saved;
    return has;
}
