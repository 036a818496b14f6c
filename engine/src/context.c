// context.c: the services a behaviour family may call while it evaluates:
// targets resolved to a state, the neighbour gather (cached across the
// behaviours of one evaluation), the evaluation view and the workers'
// scratch. It starts no evaluation.
#include "behaviour.h"
#include "eval.h"
#include "geometry.h"
#include "store.h"
#include "world.h"

bool steer__context_scratch_reserve(eval_scratch *s, int capacity)
{
    // spare entries: the branch-free gather writes one past the last kept,
    // the vector loop whole groups of 4
    size_t n = (size_t)capacity + STEER_GRID_PAD;
    if (!STEER_GROW(s->proxy, n)) return false;
    float **arrays[] = {&s->dist_sq, &s->tmp_d2, &s->pack_dx, &s->pack_dy, &s->pack_d2, &s->pack_vx, &s->pack_vy};
    for (int i = 0; i < 7; ++i) {
        if (!STEER_GROW(*arrays[i], n)) return false;
    }
    return true;
}

void steer__context_scratch_free(eval_scratch *s)
{
    steer__free(s->proxy);
    float *arrays[] = {s->dist_sq, s->tmp_d2, s->pack_dx, s->pack_dy, s->pack_d2, s->pack_vx, s->pack_vy};
    for (int i = 0; i < 7; ++i) steer__free(arrays[i]);
    memset(s, 0, sizeof *s);
}

void steer__context_view_init(eval_view *v, steer_world *w)
{
    v->state = w->state;
    v->limits = w->limits;
    v->key = w->key;
    v->flags = w->flags;
    v->filter = w->filter;
    v->priority = w->priority;
    v->prioritised = w->prioritised > 0;
    v->filtered = w->filtered > 0;
    v->grid = &w->grid;
    // (inside a step it is ready already, and this changes nothing)
    steer__geometry_ready(w);
    v->geometry = w->geometry;
    v->course = w->course;
    v->opposed = w->opposed > 0;
    v->rest = w->rest;
    v->settling = w->settling > 0;
    v->slot_of = w->slot_of;
    v->slot_targets = w->slot_targets;
    v->slot_target_count = w->slot_target_capacity;
    v->plan = w->plan;
}

bool steer__context_target(const eval_ctx *ctx, const steer_target *t, target_state *out)
{
    switch (t->kind) {
    case STEER_TARGET_POINT:
        out->position = t->point;
        out->velocity = steer_v2(0.0f, 0.0f);
        out->orientation = 0.0f;
        out->is_agent = false;
        return true;
    case STEER_TARGET_AGENT: {
        int j = steer__store_dense(ctx->world, t->agent);
        if (j < 0) return false; // removed target: no steering
        const steer_kinematic *s = &ctx->view->state[j];
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

int steer__context_gather(eval_ctx *ctx, float radius) { return steer__context_gather_within(ctx, radius, radius); }

int steer__context_gather_within(eval_ctx *ctx, float cells, float radius)
{
    // the list lives in the shared scratch: a callback behaviour may have run a
    // nested evaluation (get_steering) that gathered over it since
    if (ctx->gathered_radius >= radius && ctx->gathered_epoch == ctx->scratch->gather_epoch) return ctx->neighbour_count;
    const neighbour_grid *g = ctx->view->grid;
    eval_scratch *s = ctx->scratch;
    const float cx = ctx->me.position.x, cy = ctx->me.position.y;
    const float r2 = radius * radius;
    const uint32_t (*ranges)[2];
    int count = steer__grid_ranges(g, &s->ranges, ctx->me.position, cells, &ranges);
    int n = steer__neighbour_gather(g, ranges, count, cx, cy, r2, ctx->self_proxy, s);
    // layers and floors: only the neighbours the agent sees, in order
    if (ctx->view->filtered) {
        int kept = 0;
        for (int j = 0; j < n; ++j) {
            s->proxy[kept] = s->proxy[j];
            s->dist_sq[kept] = s->dist_sq[j];
            kept += steer__sees_proxy(ctx, s->proxy[j]);
        }
        n = kept;
    }
    ctx->neighbour_count = n;
    ctx->gathered_radius = radius;
    ctx->gathered_epoch = ++s->gather_epoch;
    return n;
}
