// neighbour_sums.c: one pass over an agent's candidate neighbours that sums
// what separation, cohesion and alignment need, four candidates at a time.
//
// Candidates are the grid ranges of the cells a disc touches; each is
// masked (in range, not the agent itself) instead of branched on. Lane j of
// a range holds its candidates j, j+4, ...; lanes are added in the fixed
// order (l0 + l1) + (l2 + l3) at the end. The SSE2 path and the plain C path
// perform the same IEEE operations in the same order: the same bits. Masked
// lanes add +0.0 in both.
#include "core.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
#define STEER_AVX_CLONE __attribute__((target_clones("avx", "default")))
#else
#define STEER_AVX_CLONE
#endif

typedef struct sums_params {
    float cx, cy, r, r2;
    uint32_t self;
    bool separation;
    bool linear_law;
    float decay, max_acc;
} sums_params;

// Lane accumulators: count, offsets, velocities, separation.
typedef struct lane_sums {
    float count[4], dx[4], dy[4], vx[4], vy[4], sx[4], sy[4], coincident[4];
} lane_sums;

static float reduce(const float v[4]) { return (v[0] + v[1]) + (v[2] + v[3]); }

#if defined(__SSE2__)
// All ranges in one call, constants hoisted, accumulators in registers. On
// CPUs with AVX the same SSE operations get their three-operand encoding
// (fewer register copies): same lanes, same order, same bits.
STEER_AVX_CLONE
static void sum_ranges(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p, lane_sums *out)
{
    const __m128 cx = _mm_set1_ps(p->cx), cy = _mm_set1_ps(p->cy), r2 = _mm_set1_ps(p->r2);
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128 max_acc = _mm_set1_ps(p->max_acc), decay = _mm_set1_ps(p->decay), r = _mm_set1_ps(p->r);
    const __m128i lanes = _mm_set_epi32(3, 2, 1, 0);
    const bool separation = p->separation, linear_law = p->linear_law;
    __m128 n = zero, sdx = zero, sdy = zero, svx = zero, svy = zero, ssx = zero, ssy = zero, same = zero;
    for (int c = 0; c < count; ++c) {
        const uint32_t begin = ranges[c][0];
        const int m = (int)(ranges[c][1] - begin);
        const __m128i end = _mm_set1_epi32(m);
        // the agent itself, as a lane index of this range (-1: elsewhere)
        const __m128i self_lane = _mm_set1_epi32(p->self - begin < (uint32_t)m ? (int)(p->self - begin) : -1);
        __m128i idx = lanes;
        for (int i = 0; i < m; i += 4) {
            const uint32_t k = begin + (uint32_t)i;
            __m128 dx = _mm_sub_ps(_mm_loadu_ps(g->x + k), cx);
            __m128 dy = _mm_sub_ps(_mm_loadu_ps(g->y + k), cy);
            __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
            __m128 valid = _mm_castsi128_ps(_mm_andnot_si128(_mm_cmpeq_epi32(idx, self_lane), _mm_cmplt_epi32(idx, end)));
            __m128 in = _mm_and_ps(valid, _mm_cmplt_ps(d2, r2));
            idx = _mm_add_epi32(idx, _mm_set1_epi32(4));
            n = _mm_add_ps(n, _mm_and_ps(in, one));
            sdx = _mm_add_ps(sdx, _mm_and_ps(in, dx));
            sdy = _mm_add_ps(sdy, _mm_and_ps(in, dy));
            svx = _mm_add_ps(svx, _mm_and_ps(in, _mm_loadu_ps(g->vx + k)));
            svy = _mm_add_ps(svy, _mm_and_ps(in, _mm_loadu_ps(g->vy + k)));
            if (separation) {
                __m128 apart = _mm_cmpgt_ps(d2, zero);
                __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(d2));
                // (linear: max_acc * ((r - d) / r), the ratio first so nothing overflows)
                __m128 strength = linear_law ? _mm_mul_ps(max_acc, _mm_div_ps(_mm_sub_ps(r, _mm_mul_ps(d2, inv)), r))
                                             : _mm_min_ps(_mm_mul_ps(decay, _mm_mul_ps(inv, inv)), max_acc);
                __m128 use = _mm_and_ps(in, apart);
                // away from the neighbour: -(dx, dy) / distance
                ssx = _mm_sub_ps(ssx, _mm_and_ps(use, _mm_mul_ps(strength, _mm_mul_ps(dx, inv))));
                ssy = _mm_sub_ps(ssy, _mm_and_ps(use, _mm_mul_ps(strength, _mm_mul_ps(dy, inv))));
                same = _mm_add_ps(same, _mm_and_ps(_mm_andnot_ps(apart, in), one));
            }
        }
    }
    _mm_storeu_ps(out->count, n);
    _mm_storeu_ps(out->dx, sdx);
    _mm_storeu_ps(out->dy, sdy);
    _mm_storeu_ps(out->vx, svx);
    _mm_storeu_ps(out->vy, svy);
    _mm_storeu_ps(out->sx, ssx);
    _mm_storeu_ps(out->sy, ssy);
    _mm_storeu_ps(out->coincident, same);
}
#else
static float masked(bool keep, float v) { return keep ? v : 0.0f; }

static void sum_range(const neighbour_grid *g, uint32_t begin, uint32_t end, const sums_params *p, lane_sums *acc)
{
    const int m = (int)(end - begin);
    // (the same operations as the SSE2 path, lane by lane)
    for (int i = 0; i < m; i += 4) {
        for (int lane = 0; lane < 4; ++lane) {
            uint32_t k = begin + (uint32_t)(i + lane);
            float dx = g->x[k] - p->cx, dy = g->y[k] - p->cy;
            float d2 = dx * dx + dy * dy;
            bool in = i + lane < m && d2 < p->r2 && k != p->self;
            acc->count[lane] += masked(in, 1.0f);
            acc->dx[lane] += masked(in, dx);
            acc->dy[lane] += masked(in, dy);
            acc->vx[lane] += masked(in, g->vx[k]);
            acc->vy[lane] += masked(in, g->vy[k]);
            if (p->separation) {
                bool apart = d2 > 0.0f;
                float inv = 1.0f / sqrtf(d2);
                float strength = p->linear_law ? p->max_acc * ((p->r - d2 * inv) / p->r)
                                               : steer_minf(p->decay * (inv * inv), p->max_acc);
                acc->sx[lane] -= masked(in && apart, strength * (dx * inv));
                acc->sy[lane] -= masked(in && apart, strength * (dy * inv));
                acc->coincident[lane] += masked(in && !apart, 1.0f);
            }
        }
    }
}

static void sum_ranges(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p, lane_sums *out)
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < count; ++c) sum_range(g, ranges[c][0], ranges[c][1], p, out);
}
#endif

// Direction away from a neighbour at the very same point: a fixed axis
// chosen by key, so the two agents go opposite ways.
static float tie_break_x(const eval_ctx *ctx, uint32_t proxy)
{
    uint64_t other = ctx->w->key[ctx->w->grid.agent[proxy]];
    return ctx->key < other ? -1.0f : 1.0f;
}

// Coincident neighbours are rare: a plain second pass adds their tie-break
// pushes, in canonical order.
static float coincident_push(const eval_ctx *ctx, const uint32_t ranges[][2], int count, const sums_params *p)
{
    const neighbour_grid *g = &ctx->w->grid;
    float push = 0.0f;
    for (int i = 0; i < count; ++i) {
        for (uint32_t k = ranges[i][0]; k < ranges[i][1]; ++k) {
            if (k != p->self && g->x[k] == p->cx && g->y[k] == p->cy) push += p->max_acc * tie_break_x(ctx, k);
        }
    }
    return push;
}

void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation, neighbour_sums *out)
{
    const neighbour_grid *g = &ctx->w->grid;
    sums_params p = {
        .cx = ctx->me.position.x, .cy = ctx->me.position.y, .r = radius, .r2 = radius * radius,
        .self = ctx->self_proxy, .separation = separation != NULL,
        .linear_law = separation != NULL && separation->law == STEER_LAW_LINEAR,
        .decay = separation != NULL ? separation->decay_coefficient : 0.0f,
        .max_acc = ctx->lim.max_acceleration,
    };
    const uint32_t (*ranges)[2];
    int count = steer__grid_ranges(g, &ctx->scratch->ranges, ctx->me.position, radius, &ranges);
    lane_sums acc;
    sum_ranges(g, ranges, count, &p, &acc);
    out->radius = radius;
    out->count = (int)reduce(acc.count);
    out->sum_dx = reduce(acc.dx);
    out->sum_dy = reduce(acc.dy);
    out->sum_vx = reduce(acc.vx);
    out->sum_vy = reduce(acc.vy);
    out->has_separation = separation != NULL;
    if (separation != NULL) {
        out->law = separation->law;
        out->decay = separation->decay_coefficient;
        out->max_acc = p.max_acc;
        out->sep_x = reduce(acc.sx);
        out->sep_y = reduce(acc.sy);
        if (reduce(acc.coincident) > 0.0f) out->sep_x += coincident_push(ctx, ranges, count, &p);
    }
}
