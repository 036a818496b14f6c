// The neighbour-sums kernel: the vector paths (AVX2 or SSSE3 packing, SSE2
// sums or their AVX encoding; each packing this CPU runs, in turn) and the
// plain C paths give the same bits; so do the gathers (AVX2, or SSE2
// distances and a plain compaction, against plain C). The plain paths are compiled here from the same source.
#include "eval.h"
#include "world.h"
#include "test.h"

#define STEER_PLAIN_KERNEL
#define steer__neighbour_sums plain_neighbour_sums
#define steer__neighbour_gather plain_neighbour_gather
#define steer__neighbour_shortlist plain_neighbour_shortlist
#include "../../engine/src/neighbour_sums.c"
#undef steer__neighbour_sums
#undef steer__neighbour_gather
#undef steer__neighbour_shortlist

void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation, neighbour_sums *out);
int steer__neighbour_gather(const neighbour_grid *g, const uint32_t ranges[][2], int count, float cx, float cy, float r2,
                            uint32_t self, eval_scratch *s);
int steer__neighbour_shortlist(const float *dist_sq, int found, float guess, uint32_t *pick);

// The gather (steer__context_gather's kernel) of both paths: the same
// proxies and squared distances, in the same order. Counts the lists that
// differ.
static int gathers_differ(eval_ctx *ctx, float radius, uint32_t *list, float *dist)
{
    const neighbour_grid *g = ctx->view->grid;
    const uint32_t (*ranges)[2];
    int count = steer__grid_ranges(g, &ctx->scratch->ranges, ctx->me.position, radius, &ranges);
    const float cx = ctx->me.position.x, cy = ctx->me.position.y, r2 = radius * radius;
    int a = steer__neighbour_gather(g, ranges, count, cx, cy, r2, ctx->self_proxy, ctx->scratch);
    memcpy(list, ctx->scratch->proxy, sizeof *list * (size_t)a);
    memcpy(dist, ctx->scratch->dist_sq, sizeof *dist * (size_t)a);
    int b = plain_neighbour_gather(g, ranges, count, cx, cy, r2, ctx->self_proxy, ctx->scratch);
    return a != b || memcmp(list, ctx->scratch->proxy, sizeof *list * (size_t)a) != 0 ||
           memcmp(dist, ctx->scratch->dist_sq, sizeof *dist * (size_t)a) != 0;
}

static float uniform(uint64_t *s, float lo, float hi) { return lo + (hi - lo) * steer__rng_float(s); }

static bool same_bits(const neighbour_sums *a, const neighbour_sums *b)
{
    return a->count == b->count && memcmp(&a->sum_dx, &b->sum_dx, sizeof(float)) == 0 &&
           memcmp(&a->sum_dy, &b->sum_dy, sizeof(float)) == 0 && memcmp(&a->sum_vx, &b->sum_vx, sizeof(float)) == 0 &&
           memcmp(&a->sum_vy, &b->sum_vy, sizeof(float)) == 0 && memcmp(&a->sep_x, &b->sep_x, sizeof(float)) == 0 &&
           memcmp(&a->sep_y, &b->sep_y, sizeof(float)) == 0;
}

static void paths_agree(int level)
{
    uint64_t rng = 42;
    int compared = 0, differ = 0, gathers = 0;
    static uint32_t list[1000];
    static float dist[1000];
    for (int world = 0; world < 20; ++world) {
        steer_world_def wd = steer_default_world_def();
        wd.cell_size = uniform(&rng, 0.5f, 4.0f);
        steer_world *w = steer_world_create(&wd);
        steer_agent_def d = steer_default_agent_def();
        int n = 50 + world * 40;
        float side = uniform(&rng, 5.0f, 40.0f);
        for (int i = 0; i < n; ++i) {
            d.state.position = steer_v2(uniform(&rng, 0, side), uniform(&rng, 0, side));
            // some agents on the very same point, to exercise the tie-break
            if (i % 17 == 3) d.state.position = steer_v2(1.0f, 1.0f);
            d.state.velocity = steer_v2(uniform(&rng, -3, 3), uniform(&rng, -3, 3));
            steer_agent_create(w, &d);
        }
        steer__grid_update(w);
        eval_view view;
        steer__context_view_init(&view, w);
        steer_behaviour_def sep = steer_default_behaviour_def(STEER_SEPARATION);
        for (int i = 0; i < n; ++i) {
            sep.law = (i & 1) ? STEER_LAW_LINEAR : STEER_LAW_INVERSE_SQUARE;
            float radius = uniform(&rng, 0.5f, 6.0f);
            eval_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.world = w;
            ctx.view = &view;
            ctx.self = i;
            ctx.self_proxy = w->grid.proxy_of[i];
            ctx.me = w->state[i];
            ctx.lim = w->limits[i];
            ctx.key = w->key[i];
            ctx.scratch = &w->scratch[0];
            neighbour_sums a, b;
            steer__neighbour_sums(&ctx, radius, &sep, &a);
            plain_neighbour_sums(&ctx, radius, &sep, &b);
            ++compared;
            differ += !same_bits(&a, &b);
            gathers += gathers_differ(&ctx, radius, list, dist);
        }
        steer_world_destroy(w);
    }
    CHECK(compared > 8000);
    CHECK(differ == 0);
    CHECK(gathers == 0);
    if (differ) fprintf(stderr, "  level %d: %d of %d sums differ between the vector and plain paths\n", level, differ, compared);
    if (gathers) fprintf(stderr, "  level %d: %d of %d gathers differ between the vector and plain paths\n", level, gathers, compared);
}

// The shortlist of the closest neighbours (reciprocal.c): the same places
// on every path, for lists of every length from 0 to 256 (tails of 1 to 7
// after the groups of 8), guesses from nothing to everything, and ties.
static void shortlists_agree(int level)
{
    uint64_t rng = 7;
    static float dist[256 + STEER_GRID_PAD];
    static uint32_t a[256 + 8], b[256 + 8];
    int compared = 0, differ = 0, kept = 0;
    for (int found = 0; found <= 256; ++found) {
        for (int i = 0; i < found + STEER_GRID_PAD; ++i) {
            // every fourth a lattice distance, so that some equal the guess
            dist[i] = (i & 3) == 0 ? (float)(i % 5) * 25.0f : uniform(&rng, 0.0f, 225.0f);
        }
        const float guesses[] = {0.0f, 25.0f, 50.0f, uniform(&rng, 0.0f, 225.0f), 225.0f, 1e30f};
        for (size_t gi = 0; gi < sizeof guesses / sizeof guesses[0]; ++gi) {
            int na = steer__neighbour_shortlist(dist, found, guesses[gi], a);
            int nb = plain_neighbour_shortlist(dist, found, guesses[gi], b);
            ++compared;
            kept += na;
            differ += na != nb || memcmp(a, b, sizeof *a * (size_t)na) != 0;
        }
    }
    CHECK(kept > 1000); // (not all empty)
    CHECK(differ == 0);
    if (differ) fprintf(stderr, "  level %d: %d of %d shortlists differ between the vector and plain paths\n", level, differ, compared);
}

// Packing 8 (AVX2), then 4 (SSSE3) candidates at a time, then the engine's
// own plain packing: each against the plain kernel compiled here.
static void vector_and_plain_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__neighbour_pack_limit(level);
        paths_agree(level);
        shortlists_agree(level);
    }
    steer__neighbour_pack_limit(2);
}

int main(void)
{
    RUN(vector_and_plain_paths_agree);
    return TEST_RESULT();
}
