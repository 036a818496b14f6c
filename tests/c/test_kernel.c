// The neighbour-sums kernel: the vector paths (AVX2 packing and summing in
// one function, or SSSE3 packing and SSE2 sums; each this CPU runs, in
// turn; with and without separation's sums) and the plain C paths give the
// same bits; so do the gathers (AVX2, or SSE2
// distances and a plain compaction, against plain C), and ORCA's shares
// and half-planes (orca_lines.c: AVX2, SSE2, one by one and the plain
// build, against flow_share and agent_line themselves). The plain paths
// are compiled here from the
// same source.
#include "eval.h"
#include "world.h"
#include "test.h"

#define STEER_PLAIN_KERNEL
#define steer__neighbour_sums plain_neighbour_sums
#define steer__neighbour_gather plain_neighbour_gather
#define steer__neighbour_shortlist plain_neighbour_shortlist
#define steer__neighbour_rank plain_neighbour_rank
#include "../../engine/src/neighbour_sums.c"
#undef steer__neighbour_sums
#undef steer__neighbour_gather
#undef steer__neighbour_shortlist
#undef steer__neighbour_rank
#define steer__orca_agent_lines plain_orca_agent_lines
#define steer__orca_shares plain_orca_shares
#define steer__orca_pairs plain_orca_pairs
#define steer__orca_oncoming plain_orca_oncoming
#include "../../engine/src/orca_lines.c"
#undef steer__orca_agent_lines
#undef steer__orca_shares
#undef steer__orca_pairs
#undef steer__orca_oncoming

void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation, neighbour_sums *out);
int steer__neighbour_gather(const neighbour_grid *g, const uint32_t ranges[][2], int count, float cx, float cy, float r2,
                            uint32_t self, eval_scratch *s);
int steer__neighbour_shortlist(const float *dist_sq, int found, float guess, uint32_t *pick, uint32_t *keys);
void steer__neighbour_rank(const uint32_t *bits, int n, uint32_t *order);
void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out);
void steer__orca_lines_limit(int level);
void steer__orca_shares(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle, float shed);
uint64_t steer__orca_pairs(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int k,
                           const orca_pair_frame *f);
uint64_t steer__orca_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay);

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

// (separation's sums only when they were asked for)
static bool same_bits(const neighbour_sums *a, const neighbour_sums *b)
{
    return a->count == b->count && a->has_separation == b->has_separation &&
           memcmp(&a->sum_dx, &b->sum_dx, sizeof(float)) == 0 &&
           memcmp(&a->sum_dy, &b->sum_dy, sizeof(float)) == 0 && memcmp(&a->sum_vx, &b->sum_vx, sizeof(float)) == 0 &&
           memcmp(&a->sum_vy, &b->sum_vy, sizeof(float)) == 0 &&
           (!a->has_separation || (memcmp(&a->sep_x, &b->sep_x, sizeof(float)) == 0 &&
                                   memcmp(&a->sep_y, &b->sep_y, sizeof(float)) == 0));
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
            // every third without separation (cohesion and alignment ask for the sums alone)
            const steer_behaviour_def *with = i % 3 == 2 ? NULL : &sep;
            steer__neighbour_sums(&ctx, radius, with, &a);
            plain_neighbour_sums(&ctx, radius, with, &b);
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
    static uint32_t a[256 + 8], b[256 + 8], ka[256 + 8], kb[256 + 8];
    int compared = 0, differ = 0, kept = 0;
    for (int found = 0; found <= 256; ++found) {
        for (int i = 0; i < found + STEER_GRID_PAD; ++i) {
            // every fourth a lattice distance, so that some equal the guess
            dist[i] = (i & 3) == 0 ? (float)(i % 5) * 25.0f : uniform(&rng, 0.0f, 225.0f);
        }
        const float guesses[] = {0.0f, 25.0f, 50.0f, uniform(&rng, 0.0f, 225.0f), 225.0f, 1e30f};
        for (size_t gi = 0; gi < sizeof guesses / sizeof guesses[0]; ++gi) {
            int na = steer__neighbour_shortlist(dist, found, guesses[gi], a, ka);
            int nb = plain_neighbour_shortlist(dist, found, guesses[gi], b, kb);
            ++compared;
            kept += na;
            differ += na != nb || memcmp(a, b, sizeof *a * (size_t)na) != 0;
            // the keys: the picked distances' bits
            for (int i = 0; i < na; ++i) differ += memcmp(&ka[i], &dist[a[i]], sizeof ka[i]) != 0;
            for (int i = 0; i < nb; ++i) differ += memcmp(&kb[i], &dist[b[i]], sizeof kb[i]) != 0;
        }
    }
    CHECK(kept > 1000); // (not all empty)
    CHECK(differ == 0);
    if (differ) fprintf(stderr, "  level %d: %d of %d shortlists differ between the vector and plain paths\n", level, differ, compared);
}


// The order of a shortlist (reciprocal.c, closest_neighbours): every path
// gives the order an insertion sort of the keys (value, place) gives, for
// 0 to 64 keys (tails of 1 to 7 after the groups of 8), with many ties,
// zeros and the largest values.
static void ranks_agree(int level)
{
    uint64_t rng = 11;
    static uint32_t bits[64 + 8], a[64], b[64];
    uint64_t key[64];
    int compared = 0, differ = 0, ties = 0;
    for (int round = 0; round < 2000; ++round) {
        const int n = round % 65;
        const int spread = 1 + round % 7; // few distinct values: ties
        for (int i = 0; i < n + 8; ++i) {
            float d = (round & 1) ? uniform(&rng, 0.0f, 225.0f) : (float)(int)(steer__rng_float(&rng) * (float)spread) * 25.0f;
            if (round % 13 == 0 && i % 5 == 0) d = FLT_MAX;
            if (round % 17 == 0 && i % 3 == 0) d = INFINITY;
            memcpy(&bits[i], &d, sizeof d);
        }
        for (int i = 0; i < n; ++i) {
            uint64_t c = (uint64_t)bits[i] << 32 | (uint32_t)i;
            int at = i;
            for (; at > 0 && key[at - 1] > c; --at) key[at] = key[at - 1];
            key[at] = c;
            for (int j = 0; j < i; ++j) ties += bits[j] == bits[i];
        }
        steer__neighbour_rank(bits, n, a);
        plain_neighbour_rank(bits, n, b);
        for (int r = 0; r < n; ++r) differ += a[r] != (uint32_t)key[r] || b[r] != (uint32_t)key[r];
        compared += n;
    }
    CHECK(compared > 60000);
    CHECK(ties > 10000);
    CHECK(differ == 0);
    if (differ) fprintf(stderr, "  level %d: %d of %d ranks differ from an insertion sort's\n", level, differ, compared);
}

// Packing 8 (AVX2), then 4 (SSSE3) candidates at a time, then the engine's
// own plain packing: each against the plain kernel compiled here.
static void vector_and_plain_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__neighbour_pack_limit(level);
        paths_agree(level);
        shortlists_agree(level);
        ranks_agree(level);
    }
    steer__neighbour_pack_limit(2);
}


// Two floats alike: the same bits, or both NaN (a NaN's sign and payload
// depend on which operand the compiler put first, not on the path).
static bool same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

// The lines of `a` and `b` that differ from each other, of the first k.
static int lines_differ(const orca_line *a, const orca_line *b, int k)
{
    int differ = 0;
    for (int i = 0; i < k; ++i) {
        differ += !(same_float(a[i].point.x, b[i].point.x) && same_float(a[i].point.y, b[i].point.y) &&
                    same_float(a[i].dir.x, b[i].dir.x) && same_float(a[i].dir.y, b[i].dir.y));
    }
    return differ;
}

// agent_line's cases, as agent_line decides them: overlapping, the cut-off
// disc, the left leg, the right leg.
enum { CASE_OVERLAP, CASE_CUT, CASE_LEFT, CASE_RIGHT, CASES };
static int line_case(const orca_pairs *in, int i, float inv_tau)
{
    steer_vec2 rel = steer_v2(in->rx[i], in->ry[i]), rv = steer_v2(in->vx[i], in->vy[i]);
    float dist2 = steer_length_sq(rel), r2 = in->r[i] * in->r[i];
    if (!(dist2 > r2)) return CASE_OVERLAP;
    steer_vec2 w = steer_sub(rv, steer_scale(rel, inv_tau));
    float wdot = steer_dot(w, rel);
    if (wdot < 0.0f && wdot * wdot > r2 * steer_length_sq(w)) return CASE_CUT;
    return rel.x * w.y - rel.y * w.x > 0.0f ? CASE_LEFT : CASE_RIGHT;
}

// One neighbour of a random kind: anywhere in reach, overlapping, at the
// very centre (and there at rest: agent_line's fixed direction), exactly touching, overlapping with a relative velocity that
// cancels the separation (agent_line's w = 0), on a leg's edge, or with
// extreme magnitudes (tiny: squares underflow; huge: they overflow).
static void random_pair(uint64_t *rng, orca_pairs *in, int i, float inv_dt)
{
    float r = uniform(rng, 0.5f, 4.0f), a = uniform(rng, 0.0f, 6.2831853f), d;
    int kind = (int)(steer__rng_float(rng) * 9.0f);
    switch (kind) {
    case 0: d = uniform(rng, 0.0f, r); break;         // overlapping
    case 1: d = 0.0f; break;                          // at the same point
    case 2: d = r; break;                             // touching (dist2 may round either way)
    case 3: d = uniform(rng, r, r * 1.001f); break;   // just outside: a short leg
    case 4: d = uniform(rng, 1e-22f, 1e-19f); r = uniform(rng, 0.0f, 1e-20f); break; // tiny
    case 5: d = uniform(rng, 1e18f, 1e20f); break;    // huge
    default: d = uniform(rng, r, 20.0f); break;       // in reach
    }
    in->rx[i] = d * cosf(a);
    in->ry[i] = d * sinf(a);
    in->vx[i] = uniform(rng, -4.0f, 4.0f);
    in->vy[i] = uniform(rng, -4.0f, 4.0f);
    if (kind == 0 && steer__rng_float(rng) < 0.3f) {
        // w = rel_vel - rel_pos / dt is zero
        in->vx[i] = in->rx[i] * inv_dt;
        in->vy[i] = in->ry[i] * inv_dt;
    }
    if (kind == 1 && steer__rng_float(rng) < 0.5f) in->vx[i] = in->vy[i] = 0.0f; // w = 0 at the very centre
    if (kind == 5 && steer__rng_float(rng) < 0.5f) in->vx[i] = uniform(rng, -1e20f, 1e20f);
    if (steer__rng_float(rng) < 0.2f) in->vy[i] = 0.0f; // exact zeros: signed zeros in products
    in->r[i] = r;
    in->share[i] = steer__rng_float(rng) < 0.2f ? 1.0f : steer__rng_float(rng);
}

// A group of neighbours as the AVX2 path takes them (eight, the last four
// or fewer in one of four; the SSE2 path's groups of four lie inside them),
// counted in groups[0] when none kept takes a leg (every one the cut-off
// disc or overlapping: the vector paths skip the legs), else in groups[1].
static void count_leg_groups(const orca_pairs *in, int k, float inv_tau, int groups[2])
{
    for (int i = 0; i < k; i += 8) {
        const int end = k - i > 4 && i + 8 < k ? i + 8 : k;
        bool legs = false;
        for (int j = i; j < end; ++j) legs |= line_case(in, j, inv_tau) >= CASE_LEFT;
        ++groups[legs];
        if (end == k) break;
    }
}

// ORCA's half-planes (reciprocal.c's neighbour loop): every path, against
// agent_line one by one, bit for bit; every case of agent_line many times
// and every count of neighbours (tails of 1 to 7 after the groups of 8);
// every third round a crowd at a distance moving along (nearly every line
// the cut-off disc's), so that groups without a leg come often.
static void agent_lines_agree(int level)
{
    static orca_pairs in;
    static orca_line want[ORCA_PAIRS_ROOM], got[ORCA_PAIRS_ROOM], plain[ORCA_PAIRS_ROOM];
    uint64_t rng = 99;
    int compared = 0, differ = 0, plain_differ = 0, cases[CASES] = {0}, groups[2] = {0};
    for (int round = 0; round < 3000; ++round) {
        const int k = round % (STEER_MAX_AVOID_NEIGHBOURS + 1);
        const float inv_tau = 1.0f / uniform(&rng, 0.5f, 12.0f), inv_dt = 1.0f / uniform(&rng, 0.01f, 0.5f);
        const steer_vec2 v = steer_v2(uniform(&rng, -3.0f, 3.0f), uniform(&rng, -3.0f, 3.0f));
        for (int i = 0; i < ORCA_PAIRS_ROOM; ++i) {
            random_pair(&rng, &in, i, inv_dt); // (the padding too)
            if (round % 3 == 1 && steer__rng_float(&rng) < 0.95f) {
                // a crowd: the relative velocity small, the neighbour 1 to 4 radii off
                const float a = uniform(&rng, 0.0f, 6.2831853f), d = in.r[i] * uniform(&rng, 1.0f, 4.0f);
                in.rx[i] = d * cosf(a);
                in.ry[i] = d * sinf(a);
                in.vx[i] = uniform(&rng, -0.05f, 0.05f);
                in.vy[i] = uniform(&rng, -0.05f, 0.05f);
            }
        }
        count_leg_groups(&in, k, inv_tau, groups);
        for (int i = 0; i < k; ++i) {
            want[i] = agent_line(steer_v2(in.rx[i], in.ry[i]), steer_v2(in.vx[i], in.vy[i]), in.r[i], inv_tau, inv_dt,
                                 v, in.share[i]);
            ++cases[line_case(&in, i, inv_tau)];
        }
        // the lines past k are left alone
        const orca_line mark = {steer_v2(123.0f, 456.0f), steer_v2(0.0f, 1.0f)};
        for (int i = 0; i < ORCA_PAIRS_ROOM; ++i) got[i] = plain[i] = mark;
        steer__orca_agent_lines(&in, k, inv_tau, inv_dt, v, got);
        plain_orca_agent_lines(&in, k, inv_tau, inv_dt, v, plain);
        compared += k;
        differ += lines_differ(want, got, k);
        plain_differ += lines_differ(want, plain, k);
        for (int i = k; i < ORCA_PAIRS_ROOM; ++i) differ += lines_differ(&mark, &got[i], 1);
    }
    CHECK(compared > 90000);
    for (int c = 0; c < CASES; ++c) CHECK(cases[c] > 1000);
    CHECK(groups[0] > 1000 && groups[1] > 1000);
    CHECK(differ == 0);
    CHECK(plain_differ == 0);
    if (differ || plain_differ)
        fprintf(stderr, "  level %d: %d (plain build: %d) of %d half-planes differ from agent_line's\n", level, differ,
                plain_differ, compared);
    // (and the comparison sees one bit)
    orca_line one = want[0], flipped = want[0];
    uint32_t bits;
    memcpy(&bits, &flipped.point.y, sizeof bits);
    bits ^= 1u;
    memcpy(&flipped.point.y, &bits, sizeof bits);
    CHECK(lines_differ(&one, &flipped, 1) == 1);
}

static void orca_lines_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__orca_lines_limit(level);
        agent_lines_agree(level);
    }
    steer__orca_lines_limit(2);
}

// flow_share's paths, as the scalar code takes them for one pair: B does
// not avoid; the velocities' share guarded (its denominator zero or not
// finite, or the ratio not finite), or computed; at speed (the velocities'
// share alone) or at a crawl (the blend), the queue's guarded (distance
// zero or not finite, or its product not finite) or computed; and an idle
// agent's share raised to half.
enum {
    SHARE_ONE,
    SHARE_DEN,
    SHARE_RATIO,
    SHARE_FAST,
    SHARE_BLEND,
    SHARE_QUEUE_DIST,
    SHARE_QUEUE_RATIO,
    SHARE_IDLE,
    SHARE_CASES
};
static void share_cases(const orca_pairs *in, int i, steer_vec2 v, float speed, steer_vec2 mine, bool idle, int *cases)
{
    if (in->avoids[i] == 0.0f) {
        ++cases[SHARE_ONE];
        return;
    }
    steer_vec2 rel = steer_v2(in->rx[i], in->ry[i]), vj = steer_v2(in->jx[i], in->jy[i]);
    float lj = steer_length(vj), d = steer_length(rel);
    float den = d * steer_maxf(speed + lj, ORCA_SHARE_FLOOR * in->mean[i]);
    if (!(den > 0.0f && den <= FLT_MAX)) ++cases[SHARE_DEN];
    else if (!isfinite(steer_dot(rel, steer_add(v, vj)) / den)) ++cases[SHARE_RATIO];
    float room = ORCA_FLOW_BLEND * in->mean[i] - speed;
    if (!(room > 0.0f && vj.x * vj.x + vj.y * vj.y < room * room)) {
        ++cases[SHARE_FAST];
    } else {
        ++cases[SHARE_BLEND];
        float ca = steer_dot(mine, rel) / d, cb = -(in->tx[i] * rel.x + in->ty[i] * rel.y) / d;
        if (!(d > 0.0f && d <= FLT_MAX)) ++cases[SHARE_QUEUE_DIST];
        else if (!isfinite(steer_maxf(ca, 0.0f) * steer_maxf(-cb, 0.0f) - steer_maxf(cb, 0.0f) * steer_maxf(-ca, 0.0f)))
            ++cases[SHARE_QUEUE_RATIO];
    }
    if (idle) ++cases[SHARE_IDLE];
}

// flow_share with its blend written as q + w (vshare - q): the same value
// but for rounding (a planted mutation: the comparison must see it).
static float share_reassociated(const orca_pairs *in, int i, steer_vec2 v, float speed, steer_vec2 mine)
{
    steer_vec2 rel = steer_v2(in->rx[i], in->ry[i]), vj = steer_v2(in->jx[i], in->jy[i]);
    float vshare = avoid_share(rel, v, speed, vj, ORCA_SHARE_FLOOR * in->mean[i]);
    float blend = ORCA_FLOW_BLEND * in->mean[i], room = blend - speed;
    if (!(room > 0.0f && vj.x * vj.x + vj.y * vj.y < room * room)) return vshare;
    float w = steer_minf((speed + steer_length(vj)) / blend, 1.0f);
    float q = 0.5f + 0.5f * queue_ahead(rel, mine, steer_v2(in->tx[i], in->ty[i]));
    return q + w * (vshare - q);
}

// One pair for the shares, of a random kind: in reach at any speed, at a
// crawl (the blend), at the very same point, at rest, B not avoiding, tiny
// magnitudes (products underflow: the guards), huge ones (they overflow),
// or a non-finite velocity or wish.
static void random_share_pair(uint64_t *rng, orca_pairs *in, int i)
{
    int kind = (int)(steer__rng_float(rng) * 9.0f);
    float a = uniform(rng, 0.0f, 6.2831853f), d = uniform(rng, 0.0f, 16.0f);
    float b = uniform(rng, 0.0f, 6.2831853f), s = uniform(rng, 0.0f, 2.5f);
    in->mean[i] = uniform(rng, 0.5f, 2.0f);
    in->tx[i] = uniform(rng, -1.0f, 1.0f) / ORCA_SHARE_FLOOR;
    in->ty[i] = uniform(rng, -1.0f, 1.0f) / ORCA_SHARE_FLOOR;
    switch (kind) {
    case 0: s = uniform(rng, 0.0f, 0.3f); break;    // a crawl
    case 1: d = 0.0f; break;                          // the same point
    case 2: s = 0.0f; break;                          // at rest
    case 3: d = uniform(rng, 1e-30f, 1e-19f); s = uniform(rng, 0.0f, 1e-20f); in->mean[i] = uniform(rng, 0.0f, 1e-19f);
        break;                                        // tiny
    case 4: d = uniform(rng, 1e18f, 3e38f); s = uniform(rng, 0.0f, 3e38f); break; // huge
    case 5: in->tx[i] = uniform(rng, -3e38f, 3e38f); s = uniform(rng, 0.0f, 0.2f); break; // a huge wish
    default: break;
    }
    in->rx[i] = d * cosf(a);
    in->ry[i] = d * sinf(a);
    in->jx[i] = s * cosf(b);
    in->jy[i] = s * sinf(b);
    if (steer__rng_float(rng) < 0.1f) in->jy[i] = 0.0f; // exact zeros: signed zeros in products
    if (steer__rng_float(rng) < 0.05f) in->mean[i] = 0.0f;
    if (steer__rng_float(rng) < 0.02f) in->jx[i] = steer__rng_float(rng) < 0.5f ? NAN : INFINITY;
    if (steer__rng_float(rng) < 0.02f) in->tx[i] = NAN;
    in->avoids[i] = steer__rng_float(rng) < 0.15f ? 0.0f : 1.0f;
}

// Whether pair i takes flow_share's blend at a crawl (B avoids, and both
// are below the blend speed).
static bool blends(const orca_pairs *in, int i, float speed)
{
    const float room = ORCA_FLOW_BLEND * in->mean[i] - speed;
    return in->avoids[i] != 0.0f && room > 0.0f && in->jx[i] * in->jx[i] + in->jy[i] * in->jy[i] < room * room;
}

// The groups of pairs as count_leg_groups takes them, counted in groups[0]
// when none kept blends (the vector paths skip the blend), else in groups[1].
static void count_blend_groups(const orca_pairs *in, int k, float speed, int groups[2])
{
    for (int i = 0; i < k; i += 8) {
        const int end = k - i > 4 && i + 8 < k ? i + 8 : k;
        bool blend = false;
        for (int j = i; j < end; ++j) blend |= blends(in, j, speed);
        ++groups[blend];
        if (end == k) break;
    }
}

// The shares (reciprocal.c's neighbour loop): every path, against
// flow_share one by one, bit for bit, each of its paths many times and
// every count of neighbours.
static void shares_agree(int level)
{
    static orca_pairs in, plain;
    static float want[ORCA_PAIRS_ROOM];
    uint64_t rng = 7;
    int compared = 0, differ = 0, plain_differ = 0, mutant_differ = 0, cases[SHARE_CASES] = {0}, groups[2] = {0};
    for (int round = 0; round < 6000; ++round) {
        const int k = round % (STEER_MAX_AVOID_NEIGHBOURS + 1);
        steer_vec2 v = steer_v2(uniform(&rng, -2.0f, 2.0f), uniform(&rng, -2.0f, 2.0f));
        if (round % 7 == 0) v = steer_v2(0.0f, 0.0f);                       // at rest
        if (round % 11 == 0) v = steer_scale(v, uniform(&rng, 0.0f, 0.1f)); // a crawl
        float speed = steer_length(v);
        if (round % 13 == 0) speed = uniform(&rng, 0.0f, 3.0f);   // (any speed: the kernel's contract)
        if (round % 97 == 0) v.x = 3e38f;                          // v + vj overflows
        if (round % 89 == 0) speed = NAN;                          // (the floor's maxps: its operands' order)
        const steer_vec2 mine = steer_v2(uniform(&rng, -5.0f, 5.0f), uniform(&rng, -5.0f, 5.0f));
        const bool idle = round % 3 == 0;
        const float shed = round % 5 == 0 ? 0.0f : uniform(&rng, 0.0f, 2.0f); // (0: any closing takes half)
        for (int i = 0; i < ORCA_PAIRS_ROOM; ++i) {
            random_share_pair(&rng, &in, i); // (the padding too)
            if (steer__rng_float(&rng) < 0.03f) {
                // exactly at the blend speed: |vj|^2 = room^2, not below it
                in.jx[i] = ORCA_FLOW_BLEND * in.mean[i] - speed;
                in.jy[i] = 0.0f;
            }
        }
        for (int i = 0; i < k; ++i) {
            float share = in.avoids[i] != 0.0f
                              ? flow_share(steer_v2(in.rx[i], in.ry[i]), v, speed, steer_v2(in.jx[i], in.jy[i]), mine,
                                           steer_v2(in.tx[i], in.ty[i]), in.mean[i])
                              : 1.0f;
            want[i] = recoil_share(idle ? steer_maxf(share, 0.5f) : share, v, mine, steer_v2(in.rx[i], in.ry[i]),
                                   steer_v2(in.jx[i], in.jy[i]), shed);
            share_cases(&in, i, v, speed, mine, idle, cases);
            mutant_differ += in.avoids[i] != 0.0f && !same_float(share, share_reassociated(&in, i, v, speed, mine));
        }
        count_blend_groups(&in, k, speed, groups);
        plain = in;
        steer__orca_shares(&in, k, v, speed, mine, idle, shed);
        plain_orca_shares(&plain, k, v, speed, mine, idle, shed);
        compared += k;
        for (int i = 0; i < k; ++i) {
            differ += !same_float(want[i], in.share[i]);
            plain_differ += !same_float(want[i], plain.share[i]);
            // (a share is never NaN: every non-finite ratio is guarded)
            differ += isnan(in.share[i]);
        }
    }
    CHECK(compared > 180000);
    for (int c = 0; c < SHARE_CASES; ++c) {
        CHECK(cases[c] > 200);
        if (cases[c] <= 200) fprintf(stderr, "  shares: case %d seen %d times\n", c, cases[c]);
    }
    CHECK(groups[0] > 1000 && groups[1] > 1000);
    CHECK(differ == 0);
    CHECK(plain_differ == 0);
    if (differ || plain_differ)
        fprintf(stderr, "  level %d: %d (plain build: %d) of %d shares differ from flow_share's\n", level, differ,
                plain_differ, compared);
    // (and the comparison sees a difference of rounding)
    CHECK(mutant_differ > 100);
}

static void orca_shares_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__orca_lines_limit(level);
        shares_agree(level);
    }
    steer__orca_lines_limit(2);
}

// A float of a random kind for the records: ordinary, a signed zero, tiny,
// huge, infinite or NaN.
static float random_field(uint64_t *rng, float lo, float hi)
{
    const float r = steer__rng_float(rng);
    if (r < 0.80f) return uniform(rng, lo, hi);
    if (r < 0.85f) return steer__rng_float(rng) < 0.5f ? 0.0f : -0.0f;
    if (r < 0.90f) return uniform(rng, -1e-30f, 1e-30f);
    if (r < 0.95f) return uniform(rng, -1e30f, 1e30f);
    if (r < 0.975f) return steer__rng_float(rng) < 0.5f ? INFINITY : -INFINITY;
    return NAN;
}

// What reciprocal.c's neighbour loop computed for pair i before the
// grid's records (from the record's fields, in its expressions).
static void want_pair(orca_pairs *in, const grid_body *b, int i, const orca_pair_frame *f)
{
    steer_vec2 vj = steer_v2(b->vx, b->vy);
    steer_vec2 pj = steer_mul_add(steer_v2(b->x, b->y), vj, f->lead);
    steer_vec2 rel = steer_sub(pj, f->p), rel_vel = steer_sub(f->v, vj);
    in->rx[i] = rel.x;
    in->ry[i] = rel.y;
    in->vx[i] = rel_vel.x;
    in->vy[i] = rel_vel.y;
    in->r[i] = step_radius(pair_radius(f->r_self, f->r_cap, b->radius), f->radius + b->radius, f->lead, rel, f->v, vj,
                           f->brake);
    in->jx[i] = vj.x;
    in->jy[i] = vj.y;
    in->tx[i] = b->px;
    in->ty[i] = b->py;
    in->mean[i] = 0.5f * (f->max_speed + b->max_speed);
    in->avoids[i] = b->max_speed >= 0.0f ? 1.0f : 0.0f; // (grid_body: a negative max speed does not avoid)
}

// The pairs of the first k of `a` and `b` that differ in any field.
static int pairs_differ(const orca_pairs *a, const orca_pairs *b, int k)
{
    int differ = 0;
    for (int i = 0; i < k; ++i) {
        differ += !(same_float(a->rx[i], b->rx[i]) && same_float(a->ry[i], b->ry[i]) &&
                    same_float(a->vx[i], b->vx[i]) && same_float(a->vy[i], b->vy[i]) &&
                    same_float(a->r[i], b->r[i]) && same_float(a->jx[i], b->jx[i]) &&
                    same_float(a->jy[i], b->jy[i]) && same_float(a->tx[i], b->tx[i]) &&
                    same_float(a->ty[i], b->ty[i]) && same_float(a->mean[i], b->mean[i]) &&
                    same_float(a->avoids[i], b->avoids[i]));
    }
    return differ;
}

// The pairs from the grid's records (steer__orca_pairs): every path against
// the neighbour loop's expressions, bit for bit, every count from 0 to 64
// (repeated proxies, any order), records of every kind of float (signed
// zeros tell minps's operand order apart), frames with and without the lead.
static void pairs_agree(int level)
{
    enum { BODIES = 300 };
    static grid_body bodies[BODIES + STEER_GRID_PAD];
    static orca_pairs want, got, plain;
    uint64_t rng = 7;
    int compared = 0, differ = 0, plain_differ = 0, opposite = 0;
    for (int round = 0; round < 2000; ++round) {
        const int k = round % (STEER_MAX_AVOID_NEIGHBOURS + 1);
        for (int b = 0; b < BODIES + STEER_GRID_PAD; ++b) {
            grid_body *r = &bodies[b];
            *r = (grid_body){random_field(&rng, -100.0f, 100.0f), random_field(&rng, -100.0f, 100.0f),
                             random_field(&rng, -3.0f, 3.0f), random_field(&rng, -3.0f, 3.0f),
                             random_field(&rng, -1.0f, 1.0f), random_field(&rng, -1.0f, 1.0f),
                             random_field(&rng, 0.0f, 4.0f),
                             steer__rng_float(&rng) < 0.8f ? random_field(&rng, 0.0f, 5.0f) : GRID_BODY_NOT_AVOIDING};
        }
        orca_neighbour near[STEER_MAX_AVOID_NEIGHBOURS];
        for (int i = 0; i < STEER_MAX_AVOID_NEIGHBOURS; ++i)
            near[i] = (orca_neighbour){(uint32_t)(steer__rng_float(&rng) * BODIES) % BODIES, uniform(&rng, 0.0f, 9.0f)};
        const bool zeros = round % 7 == 0; // r_self -0 and r_cap +0: with a radius of -0, min(-0, +0)
        const orca_pair_frame f = {steer_v2(random_field(&rng, -100.0f, 100.0f), random_field(&rng, -100.0f, 100.0f)),
                                   steer_v2(random_field(&rng, -3.0f, 3.0f), random_field(&rng, -3.0f, 3.0f)),
                                   round % 3 == 0 ? 0.0f : uniform(&rng, 0.01f, 0.5f),
                                   zeros ? -0.0f : random_field(&rng, 0.0f, 4.0f),
                                   zeros ? 0.0f : random_field(&rng, 0.0f, 4.0f), random_field(&rng, 0.0f, 5.0f),
                                   steer_v2(random_field(&rng, -1.0f, 1.0f), random_field(&rng, -1.0f, 1.0f)),
                                   zeros ? -0.0f : random_field(&rng, 0.0f, 2.0f),
                                   round % 5 == 0 ? (orca_brake){INFINITY, 0.0f}
                                                  : (orca_brake){uniform(&rng, 0.0f, 2.0f), uniform(&rng, 0.01f, 0.5f)}};
        if (zeros) bodies[near[0].proxy].radius = -0.0f;
        uint64_t against = 0; // (the neighbours wishing against the agent)
        for (int i = 0; i < k; ++i) {
            want_pair(&want, &bodies[near[i].proxy], i, &f);
            against |= (uint64_t)(steer_dot(f.wish, steer_v2(want.tx[i], want.ty[i])) < 0.0f) << i;
        }
        opposite += __builtin_popcountll(against);
        differ += steer__orca_pairs(&got, bodies, near, k, &f) != against;
        plain_differ += plain_orca_pairs(&plain, bodies, near, k, &f) != against;
        compared += k;
        differ += pairs_differ(&want, &got, k);
        plain_differ += pairs_differ(&want, &plain, k);
    }
    CHECK(compared > 60000);
    CHECK(opposite > 10000 && opposite < compared - 10000);
    CHECK(differ == 0);
    CHECK(plain_differ == 0);
    if (differ || plain_differ)
        fprintf(stderr, "  level %d: %d (plain build: %d) of %d pairs differ from the neighbour loop's\n", level, differ,
                plain_differ, compared);
    // (and the comparison sees one bit of any field)
    orca_pairs flipped = want;
    uint32_t bits;
    memcpy(&bits, &flipped.avoids[0], sizeof bits);
    bits ^= 1u;
    memcpy(&flipped.avoids[0], &bits, sizeof bits);
    CHECK(pairs_differ(&want, &flipped, 1) == 1);
}

static void orca_pairs_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__orca_lines_limit(level);
        pairs_agree(level);
    }
    steer__orca_lines_limit(2);
}

// The keep-right rule's candidates (reciprocal.c, oncoming): every path's
// mask, against oncoming_candidate one pair at a time, for every count of
// neighbours up to 64, with and without the relay; pairs of every kind
// (random_field: zeros, tiny, huge, infinite, NaN), wishes exactly
// opposite and exactly at the 0.24 bound, and the padding past k filled
// with pairs that would pass (the mask must leave them out).
static void oncoming_agree(int level)
{
    static orca_pairs in;
    uint64_t rng = 11;
    int compared = 0, differ = 0, plain_differ = 0, against = 0, relayed = 0, skipped = 0;
    for (int round = 0; round < 4000; ++round) {
        const int k = round % (STEER_MAX_AVOID_NEIGHBOURS + 1);
        const bool relay = round % 2 == 1;
        steer_vec2 wish = steer_v2(random_field(&rng, -1.0f, 1.0f), random_field(&rng, -1.0f, 1.0f));
        if (round % 5 == 0) wish = steer_v2(uniform(&rng, -1.0f, 1.0f), uniform(&rng, -1.0f, 1.0f));
        const float wl = steer_length(wish);
        for (int i = 0; i < ORCA_PAIRS_ROOM; ++i) {
            in.rx[i] = random_field(&rng, -15.0f, 15.0f);
            in.ry[i] = random_field(&rng, -15.0f, 15.0f);
            in.tx[i] = random_field(&rng, -5.0f, 5.0f);
            in.ty[i] = random_field(&rng, -5.0f, 5.0f);
            const float kind = steer__rng_float(&rng);
            if (kind < 0.2f) {
                // straight against the wish, ahead (the rule's case)
                const float s = uniform(&rng, 0.1f, 5.0f);
                in.tx[i] = -s * wish.x;
                in.ty[i] = -s * wish.y;
                in.rx[i] = uniform(&rng, 0.0f, 3.0f) * wish.x;
                in.ry[i] = uniform(&rng, 0.0f, 3.0f) * wish.y;
            } else if (kind < 0.25f) {
                // near the bound: t at 120 or so degrees from the wish
                const float a = atan2f(wish.y, wish.x) + uniform(&rng, 2.05f, 2.15f);
                in.tx[i] = cosf(a);
                in.ty[i] = sinf(a);
                in.rx[i] = wish.x;
                in.ry[i] = wish.y;
            }
        }
        for (int i = k; i < ORCA_PAIRS_ROOM; ++i) {
            if (steer__rng_float(&rng) < 0.5f) {
                in.tx[i] = -wish.x;
                in.ty[i] = -wish.y;
                in.rx[i] = wish.x;
                in.ry[i] = wish.y;
            }
        }
        uint64_t want = 0;
        for (int i = 0; i < k; ++i) {
            const bool c = oncoming_candidate(&in, i, wish, wl, relay);
            want |= (uint64_t)c << i;
            const float wt = steer_dot(wish, steer_v2(in.tx[i], in.ty[i]));
            against += c && wt < 0.0f;
            relayed += c && wt > 0.0f;
            skipped += !c;
        }
        compared += k;
        differ += steer__orca_oncoming(&in, k, wish, relay) != want;
        plain_differ += plain_orca_oncoming(&in, k, wish, relay) != want;
    }
    CHECK(compared > 100000);
    CHECK(against > 5000 && relayed > 5000 && skipped > 5000);
    CHECK(differ == 0);
    CHECK(plain_differ == 0);
    if (differ || plain_differ)
        fprintf(stderr, "  level %d: %d (plain build: %d) masks differ from oncoming_candidate's\n", level, differ,
                plain_differ);
}

static void orca_oncoming_paths_agree(void)
{
    for (int level = 2; level >= 0; --level) {
        steer__orca_lines_limit(level);
        oncoming_agree(level);
    }
    steer__orca_lines_limit(2);
}

int main(void)
{
    RUN(orca_pairs_paths_agree);
    RUN(vector_and_plain_paths_agree);
    RUN(orca_lines_paths_agree);
    RUN(orca_shares_paths_agree);
    RUN(orca_oncoming_paths_agree);
    return TEST_RESULT();
}
