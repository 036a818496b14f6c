// context.c: the services a behaviour family may call while it evaluates:
// targets resolved to a state, the neighbour gather (cached across the
// behaviours of one evaluation), the evaluation view and the workers'
// scratch. It starts no evaluation.
#include "behaviour.h"
#include "eval.h"
#include "geometry.h"
#include "store.h"
#include "world.h"

// STEER_PLAIN_KERNEL: the plain C gather (tests/CMakeLists.txt builds an
// engine with it to check that both give the same bits)
#if defined(STEER_PLAIN_KERNEL)
#undef __SSE2__
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Candidates of one proxy range: squared distances four at a time (past
// the range's end too: the arrays are padded), then a branch-free
// compaction of those in range: about a third are, in no predictable
// pattern, so a branch per candidate would mispredict (PERFORMANCE.md).
// The agent itself (proxy `self`) is stepped over rather than tested for.
// The SSE2 and plain paths compute the same IEEE operations: same bits.
static int gather_range(const neighbour_grid *g, eval_scratch *s, uint32_t begin, uint32_t end, float cx, float cy,
                        float r2, uint32_t self, int n)
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
    // [0, own) and (own, m): the agent itself is at own when in this range
    const int own = self - begin < (uint32_t)m ? (int)(self - begin) : m;
    for (int i = 0; i < own; ++i) {
        list[n] = begin + (uint32_t)i;
        dist[n] = td[i];
        n += td[i] < r2;
    }
    for (int i = own + 1; i < m; ++i) {
        list[n] = begin + (uint32_t)i;
        dist[n] = td[i];
        n += td[i] < r2;
    }
    return n;
}

int steer__context_gather(eval_ctx *ctx, float radius)
{
    // the list lives in the shared scratch: a callback behaviour may have run a
    // nested evaluation (get_steering) that gathered over it since
    if (ctx->gathered_radius >= radius && ctx->gathered_epoch == ctx->scratch->gather_epoch) return ctx->neighbour_count;
    const neighbour_grid *g = ctx->view->grid;
    eval_scratch *s = ctx->scratch;
    const float cx = ctx->me.position.x, cy = ctx->me.position.y;
    const float r2 = radius * radius;
    const uint32_t (*ranges)[2];
    int count = steer__grid_ranges(g, &s->ranges, ctx->me.position, radius, &ranges);
    int n = 0;
    for (int i = 0; i < count; ++i)
        n = gather_range(g, s, ranges[i][0], ranges[i][1], cx, cy, r2, ctx->self_proxy, n);
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
