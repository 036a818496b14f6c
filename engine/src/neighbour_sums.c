// neighbour_sums.c: what separation, cohesion and alignment need from an
// agent's neighbours, in two passes.
//
// 1. Pack: the candidates of the grid ranges a disc touches, eight (AVX2)
//    or four (SSSE3) at a time; the offsets, squared distances and velocities of those in range
//    (not the agent itself) are packed to the front of scratch arrays, in
//    candidate order, without a branch per candidate (AVX2 does not store
//    the squared distances: the sums compute them again, the same bits).
// 2. Sum: the packed neighbours into four lanes (lane j holds neighbours
//    j, j+4, ...): count, offsets, velocities and separation's pushes, whose
//    sqrt and division now run on neighbours only, not on every candidate
//    (eight at a time with AVX2, summed four by four in the same order).
//    Lanes are added in the fixed order (l0 + l1) + (l2 + l3) at the end.
//    With AVX2 both passes are one function (neighbour_sums_avx2), from the
//    ranges of the disc to the sums written in place.
// Also the gather of steer__context_gather (the reciprocal avoidance's
// candidates): proxies and squared distances of those in range, packed the
// same way.
//
// The vector paths (AVX2 packing and sums, or SSSE3 packing and SSE2 sums)
// and the plain C paths perform the same IEEE operations in the same order: the same
// bits (tests/c/test_kernel.c). Masked lanes add +0.0 in both.
#include "eval.h"

#include "kernel_isa.h"


typedef struct sums_params {
    float cx, cy, r, r2;
    uint32_t self;
    bool separation;
    bool linear_law;
    float decay, max_acc;
} sums_params;

// Neighbours packed by pass 1 (scratch arrays, STEER_GRID_PAD floats of slack each).
typedef struct packed {
    float *dx, *dy, *d2, *vx, *vy;
} packed;

// What the second pass sums, in this order.
enum { SUM_NEIGHBOURS, SUM_DX, SUM_DY, SUM_VX, SUM_VY, SUM_SX, SUM_SY, SUM_SAME, SUM_FIELDS };

/* ---- pass 1: pack ------------------------------------------------------------------ */

// Plain C: write every candidate, advance past those in range (and, with
// `sees` (a world with filters), that the agent sees: eval.h, steer__sees_proxy).
// (Not inlined: in the common case it is not called, and inlined it made
// steer__neighbour_sums spill its registers.)
STEER_NOINLINE static int pack_plain(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p,
                      const packed *out, const eval_ctx *sees)
{
    int n = 0;
    for (int c = 0; c < count; ++c) {
        for (uint32_t k = ranges[c][0]; k < ranges[c][1]; ++k) {
            float dx = g->x[k] - p->cx, dy = g->y[k] - p->cy;
            float d2 = dx * dx + dy * dy;
            out->dx[n] = dx;
            out->dy[n] = dy;
            out->d2[n] = d2;
            out->vx[n] = g->vx[k];
            out->vy[n] = g->vy[k];
            n += (d2 < p->r2) & (k != p->self) & (sees == NULL || steer__sees_proxy(sees, k));
        }
    }
    return n;
}

#if defined(STEER_X86_DISPATCH)

// Byte shuffles that move the lanes set in a 4-bit mask to the front
// (SSSE3), and lane permutations that do it for an 8-bit mask (AVX2), a
// byte a lane (pack_perm widens them): 2 kB, where lanes of 32 bits took
// 8 kB, a quarter of the L1 data cache, from which the gathers' loads of
// it missed (the crowd's gather stalled on them).
static __m128i left_pack[16];
static int left_pack_count[16];
static uint8_t left_pack8[256][8] __attribute__((aligned(8)));
static bool has_ssse3, has_avx2;

// Before main: the tables and the CPU checks are written once, before any
// worker thread reads them.
__attribute__((constructor)) static void init_left_pack(void)
{
    has_ssse3 = __builtin_cpu_supports("ssse3");
    has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    for (int m = 0; m < 16; ++m) {
        unsigned char bytes[16];
        memset(bytes, 0x80, sizeof bytes);
        int n = 0;
        for (int lane = 0; lane < 4; ++lane) {
            if (!(m & (1 << lane))) continue;
            for (int b = 0; b < 4; ++b) bytes[4 * n + b] = (unsigned char)(4 * lane + b);
            ++n;
        }
        memcpy(&left_pack[m], bytes, sizeof bytes);
        left_pack_count[m] = n;
    }
    for (int m = 0; m < 256; ++m) {
        int n = 0;
        for (int lane = 0; lane < 8; ++lane) {
            if (m & (1 << lane)) left_pack8[m][n++] = (uint8_t)lane;
        }
        while (n < 8) left_pack8[m][n++] = 0; // past the count: never summed
    }
}

void steer__neighbour_pack_limit(int level)
{
    init_left_pack();
    if (level < 2) has_avx2 = false;
    if (level < 1) has_ssse3 = false;
}

// The agent itself as a lane index of the range [begin, begin + m) (-1: elsewhere).
static inline int self_lane_of(const sums_params *p, uint32_t begin, int m)
{
    return p->self - begin < (uint32_t)m ? (int)(p->self - begin) : -1;
}

// SSSE3: four candidates at a time, packed with one byte shuffle an array.
// (The arrays are read into locals: the stores may alias any pointer, so
// fields read through g and out would be read again every group.)
__attribute__((target("ssse3"))) static int pack_ssse3(const neighbour_grid *g, const uint32_t ranges[][2], int count,
                                                      const sums_params *p, const packed *out)
{
    const float *gx = g->x, *gy = g->y, *gvx = g->vx, *gvy = g->vy;
    float *odx = out->dx, *ody = out->dy, *od2 = out->d2, *ovx = out->vx, *ovy = out->vy;
    const __m128 cx = _mm_set1_ps(p->cx), cy = _mm_set1_ps(p->cy), r2 = _mm_set1_ps(p->r2);
    const __m128i lanes = _mm_set_epi32(3, 2, 1, 0);
    int n = 0;
    for (int c = 0; c < count; ++c) {
        const uint32_t begin = ranges[c][0];
        const int m = (int)(ranges[c][1] - begin);
        const __m128i end = _mm_set1_epi32(m);
        const __m128i self_lane = _mm_set1_epi32(self_lane_of(p, begin, m));
        __m128i idx = lanes;
        for (int i = 0; i < m; i += 4) {
            const uint32_t k = begin + (uint32_t)i;
            __m128 dx = _mm_sub_ps(_mm_loadu_ps(gx + k), cx);
            __m128 dy = _mm_sub_ps(_mm_loadu_ps(gy + k), cy);
            __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
            __m128 valid = _mm_castsi128_ps(_mm_andnot_si128(_mm_cmpeq_epi32(idx, self_lane), _mm_cmplt_epi32(idx, end)));
            int bits = _mm_movemask_ps(_mm_and_ps(valid, _mm_cmplt_ps(d2, r2)));
            idx = _mm_add_epi32(idx, _mm_set1_epi32(4));
            const __m128i shuffle = left_pack[bits];
            _mm_storeu_si128((__m128i *)(odx + n), _mm_shuffle_epi8(_mm_castps_si128(dx), shuffle));
            _mm_storeu_si128((__m128i *)(ody + n), _mm_shuffle_epi8(_mm_castps_si128(dy), shuffle));
            _mm_storeu_si128((__m128i *)(od2 + n), _mm_shuffle_epi8(_mm_castps_si128(d2), shuffle));
            _mm_storeu_si128((__m128i *)(ovx + n), _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(gvx + k)), shuffle));
            _mm_storeu_si128((__m128i *)(ovy + n), _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(gvy + k)), shuffle));
            n += left_pack_count[bits];
        }
    }
    return n;
}

// AVX2: the eight candidates from proxy k (lanes idx): their offsets from
// (cx, cy), squared distances, and the mask of those in range that are
// neither the agent itself nor past the range's last proxy. Shared by
// pack_avx2 and gather_avx2, so both compute the same bits.
typedef struct group8 {
    __m256 dx, dy, d2;
    int bits;
} group8;

// The lane permutation of left_pack8 for an 8-bit mask (one load that widens it).
__attribute__((target("avx2"), always_inline)) static inline __m256i pack_perm(int mask)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)left_pack8[mask]));
}
__attribute__((target("avx2,popcnt"), always_inline)) static inline group8
group8_at(const float *gx, const float *gy, uint32_t k, __m256 cx, __m256 cy, __m256 r2, __m256i idx, __m256i self,
          __m256i last)
{
    group8 o;
    o.dx = _mm256_sub_ps(_mm256_loadu_ps(gx + k), cx);
    o.dy = _mm256_sub_ps(_mm256_loadu_ps(gy + k), cy);
    o.d2 = _mm256_add_ps(_mm256_mul_ps(o.dx, o.dx), _mm256_mul_ps(o.dy, o.dy));
    __m256i valid = _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpeq_epi32(idx, self), _mm256_cmpgt_epi32(idx, last)),
                                        _mm256_castps_si256(_mm256_cmp_ps(o.d2, r2, _CMP_LT_OQ)));
    o.bits = _mm256_movemask_ps(_mm256_castsi256_ps(valid));
    return o;
}

// (AVX2 packs inside sums_avx2, below)
static int pack(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p, const packed *out)
{
    return has_ssse3 ? pack_ssse3(g, ranges, count, p, out) : pack_plain(g, ranges, count, p, out, NULL);
}
#else
static int pack(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p, const packed *out)
{
    return pack_plain(g, ranges, count, p, out, NULL);
}

#if !defined(STEER_PLAIN_KERNEL) // (tests/c/test_kernel.c compiles this file a second time)
void steer__neighbour_pack_limit(int level) { (void)level; }
#endif
#endif

/* ---- the gather of steer__context_gather ------------------------------------------- */

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

#if defined(STEER_X86_DISPATCH)
// AVX2: eight candidates at a time (group8_at), their squared distances
// and proxies moved to the front with one lane permutation each (the
// left_pack8 table of pack_avx2). The same IEEE operations on the same
// candidates, in the same order, as gather_range: the same list.
__attribute__((target("avx2,popcnt"))) static int gather_avx2(const neighbour_grid *g, const uint32_t ranges[][2],
                                                              int count, float cx, float cy, float r2, uint32_t self,
                                                              uint32_t *restrict list, float *restrict dist)
{
    const float *gx = g->x, *gy = g->y;
    const __m256 vcx = _mm256_set1_ps(cx), vcy = _mm256_set1_ps(cy), vr2 = _mm256_set1_ps(r2);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_epi32(8);
    const __m256i own = _mm256_set1_epi32((int32_t)self);
    int n = 0;
    for (int c = 0; c < count; ++c) {
        const uint32_t begin = ranges[c][0], end = ranges[c][1];
        const __m256i last = _mm256_set1_epi32((int32_t)end - 1);
        __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int32_t)begin), lanes);
        for (uint32_t k = begin; k < end; k += 8) {
            const group8 c8 = group8_at(gx, gy, k, vcx, vcy, vr2, idx, own, last);
            const __m256i perm = pack_perm(c8.bits);
            _mm256_storeu_ps(dist + n, _mm256_permutevar8x32_ps(c8.d2, perm));
            _mm256_storeu_si256((__m256i *)(list + n), _mm256_permutevar8x32_epi32(idx, perm));
            idx = _mm256_add_epi32(idx, eight);
            n += __builtin_popcount((unsigned)c8.bits);
        }
    }
    return n;
}
#endif

int steer__neighbour_gather(const neighbour_grid *g, const uint32_t ranges[][2], int count, float cx, float cy, float r2,
                            uint32_t self, eval_scratch *s)
{
#if defined(STEER_X86_DISPATCH)
    if (has_avx2) return gather_avx2(g, ranges, count, cx, cy, r2, self, s->proxy, s->dist_sq);
#endif
    int n = 0;
    for (int i = 0; i < count; ++i) n = gather_range(g, s, ranges[i][0], ranges[i][1], cx, cy, r2, self, n);
    return n;
}

/* ---- the shortlist of closest_neighbours (reciprocal.c) ------------------------------ */

// The places i < found whose dist_sq[i] is no larger than `guess`, in order
// (non-negative floats order as their bits; the comparison is of the bits,
// unsigned, so that any float gives the same list on every path).
static int shortlist_plain(const float *dist_sq, int found, float guess, uint32_t *pick, uint32_t *keys)
{
    uint32_t limit, bits;
    memcpy(&limit, &guess, sizeof limit);
    int n = 0;
    for (int i = 0; i < found; ++i) {
        memcpy(&bits, &dist_sq[i], sizeof bits);
        pick[n] = (uint32_t)i;
        keys[n] = bits;
        n += bits <= limit;
    }
    return n;
}

#if defined(STEER_X86_DISPATCH)
// AVX2: eight places at a time, packed with the left_pack8 permutations
// (the unsigned comparison as a signed one of the bits with the top bit
// flipped), their bits with them.
__attribute__((target("avx2,popcnt"))) static int shortlist_avx2(const float *dist_sq, int found, float guess,
                                                                 uint32_t *pick, uint32_t *keys)
{
    const __m256i flip = _mm256_set1_epi32(INT32_MIN), eight = _mm256_set1_epi32(8);
    const __m256i limit = _mm256_xor_si256(_mm256_castps_si256(_mm256_set1_ps(guess)), flip);
    const __m256i end = _mm256_set1_epi32(found);
    __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int n = 0;
    for (int i = 0; i < found; i += 8) {
        const __m256i raw = _mm256_loadu_si256((const __m256i *)(dist_sq + i));
        __m256i bits = _mm256_xor_si256(raw, flip);
        __m256i keep = _mm256_andnot_si256(_mm256_cmpgt_epi32(bits, limit), _mm256_cmpgt_epi32(end, idx));
        int mask = _mm256_movemask_ps(_mm256_castsi256_ps(keep));
        const __m256i perm = pack_perm(mask);
        _mm256_storeu_si256((__m256i *)(pick + n), _mm256_permutevar8x32_epi32(idx, perm));
        _mm256_storeu_si256((__m256i *)(keys + n), _mm256_permutevar8x32_epi32(raw, perm));
        idx = _mm256_add_epi32(idx, eight);
        n += __builtin_popcount((unsigned)mask);
    }
    return n;
}
#endif

int steer__neighbour_shortlist(const float *dist_sq, int found, float guess, uint32_t *pick, uint32_t *keys)
{
#if defined(STEER_X86_DISPATCH)
    if (has_avx2) return shortlist_avx2(dist_sq, found, guess, pick, keys);
#endif
    return shortlist_plain(dist_sq, found, guess, pick, keys);
}

/* ---- the order of the shortlist (reciprocal.c) ----------------------------------------- */

// The rank of key m: the keys smaller than it, and the equal ones placed
// before it (keys equal in value and place are the same key).
static void rank_plain(const uint32_t *bits, int n, uint32_t *order)
{
    for (int m = 0; m < n; ++m) {
        uint32_t rank = 0;
        for (int j = 0; j < n; ++j) rank += (bits[j] < bits[m]) | ((bits[j] == bits[m]) & (j < m));
        order[rank] = (uint32_t)m;
    }
}

#if defined(STEER_X86_DISPATCH)
// AVX2: the ranks of sixteen keys m at a time, two groups of eight sharing
// each broadcast key j (signed comparisons: the keys are below 2^31). Key j
// comes before key m when bits[j] < bits[m] + (j < m): for the keys j
// before the sixteen that is bits[j] < bits[m] + 1, for those after them
// bits[j] < bits[m], and for those among them the + 1 is a mask of the
// lanes past j's (-1 in the lanes m > j: `later` read from 15 - (j - c) on).
__attribute__((target("avx2,popcnt"))) static void rank_avx2(const uint32_t *bits, int n, uint32_t *order)
{
    static const int32_t later[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    const __m256i minus_one = _mm256_set1_epi32(-1);
    int32_t rank[16] __attribute__((aligned(32)));
    for (int c = 0; c < n; c += 16) {
        const __m256i key_lo = _mm256_loadu_si256((const __m256i *)(bits + c));
        const __m256i key_hi = _mm256_loadu_si256((const __m256i *)(bits + c + 8));
        const __m256i up_lo = _mm256_sub_epi32(key_lo, minus_one), up_hi = _mm256_sub_epi32(key_hi, minus_one);
        const int end = c + 16 < n ? c + 16 : n;
        __m256i acc_lo = _mm256_setzero_si256(), acc_hi = acc_lo;
        for (int j = 0; j < c; ++j) {
            const __m256i bj = _mm256_set1_epi32((int32_t)bits[j]);
            acc_lo = _mm256_sub_epi32(acc_lo, _mm256_cmpgt_epi32(up_lo, bj));
            acc_hi = _mm256_sub_epi32(acc_hi, _mm256_cmpgt_epi32(up_hi, bj));
        }
        for (int j = c; j < end; ++j) {
            const __m256i bj = _mm256_set1_epi32((int32_t)bits[j]);
            const int32_t *after = later + 15 - (j - c);
            const __m256i t_lo = _mm256_sub_epi32(key_lo, _mm256_loadu_si256((const __m256i *)after));
            const __m256i t_hi = _mm256_sub_epi32(key_hi, _mm256_loadu_si256((const __m256i *)(after + 8)));
            acc_lo = _mm256_sub_epi32(acc_lo, _mm256_cmpgt_epi32(t_lo, bj));
            acc_hi = _mm256_sub_epi32(acc_hi, _mm256_cmpgt_epi32(t_hi, bj));
        }
        for (int j = end; j < n; ++j) {
            const __m256i bj = _mm256_set1_epi32((int32_t)bits[j]);
            acc_lo = _mm256_sub_epi32(acc_lo, _mm256_cmpgt_epi32(key_lo, bj));
            acc_hi = _mm256_sub_epi32(acc_hi, _mm256_cmpgt_epi32(key_hi, bj));
        }
        _mm256_store_si256((__m256i *)rank, acc_lo);
        _mm256_store_si256((__m256i *)(rank + 8), acc_hi);
        for (int m = c; m < end; ++m) order[rank[m - c]] = (uint32_t)m;
    }
}
#endif

void steer__neighbour_rank(const uint32_t *bits, int n, uint32_t *order)
{
#if defined(STEER_X86_DISPATCH)
    if (has_avx2) {
        rank_avx2(bits, n, order);
        return;
    }
#endif
    rank_plain(bits, n, order);
}

/* ---- pass 2: sum ---------------------------------------------------------------------- */

#if defined(__SSE2__)
// SSE2: four neighbours at a time (not inlined: see pack_plain).
STEER_NOINLINE static void sum_packed_sse2(const packed *nb, int n, const sums_params *p, float out[SUM_FIELDS])
{
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128 max_acc = _mm_set1_ps(p->max_acc), decay = _mm_set1_ps(p->decay), r = _mm_set1_ps(p->r);
    const __m128i end = _mm_set1_epi32(n);
    const bool separation = p->separation, linear_law = p->linear_law;
    __m128 cnt = zero, sdx = zero, sdy = zero, svx = zero, svy = zero, ssx = zero, ssy = zero, same = zero;
    __m128i idx = _mm_set_epi32(3, 2, 1, 0);
    for (int i = 0; i < n; i += 4) {
        __m128 in = _mm_castsi128_ps(_mm_cmplt_epi32(idx, end));
        idx = _mm_add_epi32(idx, _mm_set1_epi32(4));
        __m128 dx = _mm_loadu_ps(nb->dx + i), dy = _mm_loadu_ps(nb->dy + i), d2 = _mm_loadu_ps(nb->d2 + i);
        cnt = _mm_add_ps(cnt, _mm_and_ps(in, one));
        sdx = _mm_add_ps(sdx, _mm_and_ps(in, dx));
        sdy = _mm_add_ps(sdy, _mm_and_ps(in, dy));
        svx = _mm_add_ps(svx, _mm_and_ps(in, _mm_loadu_ps(nb->vx + i)));
        svy = _mm_add_ps(svy, _mm_and_ps(in, _mm_loadu_ps(nb->vy + i)));
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
    // (l0 + l1) + (l2 + l3), as the plain path's reduce() adds them
    const __m128 all[SUM_FIELDS] = {cnt, sdx, sdy, svx, svy, ssx, ssy, same};
    for (int k = 0; k < SUM_FIELDS; ++k) {
        __m128 pairs = _mm_add_ps(all[k], _mm_shuffle_ps(all[k], all[k], _MM_SHUFFLE(2, 3, 0, 1)));
        out[k] = _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehl_ps(pairs, pairs)));
    }
}
#if defined(STEER_X86_DISPATCH)
// Separation's terms of eight packed neighbours (lanes `in`): the pushes
// away from each and the mask of those at the agent's very point. The
// per-neighbour arithmetic of sum_packed_sse2 (the same bits in any width).
typedef struct push8 {
    __m256 sx, sy, same;
} push8;
__attribute__((target("avx2,popcnt"), always_inline)) static inline push8
push8_of(__m256 dx, __m256 dy, __m256 in, __m256 one, __m256 max_acc, __m256 decay, __m256 r, bool linear_law)
{
    const __m256 d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)); // (as packing computed it)
    const __m256 apart = _mm256_cmp_ps(d2, _mm256_setzero_ps(), _CMP_GT_OQ);
    const __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(d2));
    const __m256 strength = linear_law ? _mm256_mul_ps(max_acc, _mm256_div_ps(_mm256_sub_ps(r, _mm256_mul_ps(d2, inv)), r))
                                       : _mm256_min_ps(_mm256_mul_ps(decay, _mm256_mul_ps(inv, inv)), max_acc);
    const __m256 use = _mm256_and_ps(in, apart);
    push8 o;
    o.sx = _mm256_and_ps(use, _mm256_mul_ps(strength, _mm256_mul_ps(dx, inv)));
    o.sy = _mm256_and_ps(use, _mm256_mul_ps(strength, _mm256_mul_ps(dy, inv)));
    o.same = _mm256_andnot_ps(apart, in);
    return o;
}

// AVX2: both passes in one function. Pack: eight candidates at a time
// (group8_at), one lane permutation an array; the squared distances are
// not stored but computed again from the packed offsets (the same
// operations, so the same bits). Sum: eight packed neighbours at a time,
// each field's low half, then its high half, added into the four lane
// accumulators, as two steps of sum_packed_sse2 would (the same additions
// in the same order). The lanes past n are masked and add +0.0 where the
// SSE2 path takes no step: a no-op, as no accumulator is ever -0.0.
// The count is n itself (the lanes' counts are small whole numbers: their
// sum is exact), and only whether a neighbour coincides is kept.
__attribute__((target("avx2,popcnt"), always_inline)) static inline bool
sums_avx2(const neighbour_grid *g, const uint32_t ranges[][2], int count, const sums_params *p, eval_scratch *sc,
          neighbour_sums *out)
{
    float *odx = sc->pack_dx, *ody = sc->pack_dy, *ovx = sc->pack_vx, *ovy = sc->pack_vy;
    int n = 0;
    {
        const float *gx = g->x, *gy = g->y, *gvx = g->vx, *gvy = g->vy;
        const __m256 cx = _mm256_set1_ps(p->cx), cy = _mm256_set1_ps(p->cy), r2 = _mm256_set1_ps(p->r2);
        // proxy indices of the lanes, against the range's end and the agent's own
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_epi32(8);
        const __m256i self = _mm256_set1_epi32((int32_t)p->self);
        for (int c = 0; c < count; ++c) {
            const uint32_t begin = ranges[c][0], end = ranges[c][1];
            const __m256i last = _mm256_set1_epi32((int32_t)end - 1);
            __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int32_t)begin), lanes);
            for (uint32_t k = begin; k < end; k += 8) {
                const group8 c8 = group8_at(gx, gy, k, cx, cy, r2, idx, self, last);
                idx = _mm256_add_epi32(idx, eight);
                const __m256i perm = pack_perm(c8.bits);
                _mm256_storeu_ps(odx + n, _mm256_permutevar8x32_ps(c8.dx, perm));
                _mm256_storeu_ps(ody + n, _mm256_permutevar8x32_ps(c8.dy, perm));
                _mm256_storeu_ps(ovx + n, _mm256_permutevar8x32_ps(_mm256_loadu_ps(gvx + k), perm));
                _mm256_storeu_ps(ovy + n, _mm256_permutevar8x32_ps(_mm256_loadu_ps(gvy + k), perm));
                n += __builtin_popcount((unsigned)c8.bits);
            }
        }
    }
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 max_acc = _mm256_set1_ps(p->max_acc), decay = _mm256_set1_ps(p->decay), r = _mm256_set1_ps(p->r);
    const bool separation = p->separation, linear_law = p->linear_law;
    __m128 sdx = _mm_setzero_ps(), sdy = sdx, svx = sdx, svy = sdx, ssx = sdx, ssy = sdx;
    __m256 same = _mm256_setzero_ps();
#define LO(v) _mm256_castps256_ps128(v)
#define HI(v) _mm256_extractf128_ps(v, 1)
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int i = 0; i < n; i += 8) {
        // (past n the lanes add +0.0: a no-op, since no accumulator is ever -0.0:
        // they start at +0.0, and a sum is -0.0 only when both terms are)
        const __m256 in = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n - i), lanes));
        const __m256 dx = _mm256_loadu_ps(odx + i), dy = _mm256_loadu_ps(ody + i);
        const __m256 tdx = _mm256_and_ps(in, dx), tdy = _mm256_and_ps(in, dy);
        const __m256 tvx = _mm256_and_ps(in, _mm256_loadu_ps(ovx + i)), tvy = _mm256_and_ps(in, _mm256_loadu_ps(ovy + i));
        sdx = _mm_add_ps(_mm_add_ps(sdx, LO(tdx)), HI(tdx));
        sdy = _mm_add_ps(_mm_add_ps(sdy, LO(tdy)), HI(tdy));
        svx = _mm_add_ps(_mm_add_ps(svx, LO(tvx)), HI(tvx));
        svy = _mm_add_ps(_mm_add_ps(svy, LO(tvy)), HI(tvy));
        if (separation) {
            const push8 t = push8_of(dx, dy, in, one, max_acc, decay, r, linear_law);
            // separation's pushes point away: subtracted, as in the SSE2 path
            ssx = _mm_sub_ps(_mm_sub_ps(ssx, LO(t.sx)), HI(t.sx));
            ssy = _mm_sub_ps(_mm_sub_ps(ssy, LO(t.sy)), HI(t.sy));
            same = _mm256_or_ps(same, t.same);
        }
    }
#undef LO
#undef HI
    // (l0 + l1) + (l2 + l3) of every field at once: a horizontal add takes
    // the lane pairs, the second one adds the pairs
    out->count = n;
    _mm_storeu_ps(&out->sum_dx, _mm_hadd_ps(_mm_hadd_ps(sdx, sdy), _mm_hadd_ps(svx, svy)));
    _mm_storel_pi((__m64 *)&out->sep_x, _mm_hadd_ps(_mm_hadd_ps(ssx, ssy), ssx));
    return _mm256_movemask_ps(same) != 0;
}
// (the four sums, then the two pushes, are neighbours in neighbour_sums)
_Static_assert(offsetof(neighbour_sums, sum_vy) == offsetof(neighbour_sums, sum_dx) + 3 * sizeof(float), "sums apart");
_Static_assert(offsetof(neighbour_sums, sep_y) == offsetof(neighbour_sums, sep_x) + sizeof(float), "pushes apart");
#endif
static void sum_packed(const packed *nb, int n, const sums_params *p, float out[SUM_FIELDS])
{
    sum_packed_sse2(nb, n, p, out);
}
#else
// Lane accumulators: count, offsets, velocities, separation.
typedef struct lane_sums {
    float count[4], dx[4], dy[4], vx[4], vy[4], sx[4], sy[4], coincident[4];
} lane_sums;

static float reduce(const float v[4]) { return (v[0] + v[1]) + (v[2] + v[3]); }
static float masked(bool keep, float v) { return keep ? v : 0.0f; }

// (the same operations as the SSE2 path, lane by lane)
static void sum_packed(const packed *nb, int n, const sums_params *p, float out[SUM_FIELDS])
{
    lane_sums lanes, *acc = &lanes;
    memset(acc, 0, sizeof *acc);
    for (int i = 0; i < n; i += 4) {
        for (int lane = 0; lane < 4; ++lane) {
            int j = i + lane;
            bool in = j < n;
            float dx = nb->dx[j], dy = nb->dy[j], d2 = nb->d2[j];
            acc->count[lane] += masked(in, 1.0f);
            acc->dx[lane] += masked(in, dx);
            acc->dy[lane] += masked(in, dy);
            acc->vx[lane] += masked(in, nb->vx[j]);
            acc->vy[lane] += masked(in, nb->vy[j]);
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
    const float *all[SUM_FIELDS] = {acc->count, acc->dx, acc->dy, acc->vx, acc->vy, acc->sx, acc->sy, acc->coincident};
    for (int k = 0; k < SUM_FIELDS; ++k) out[k] = reduce(all[k]);
}
#endif

// The paths without AVX2, and worlds with filters: pack, then sum.
static bool sums_packed(const eval_ctx *ctx, const neighbour_grid *g, const uint32_t ranges[][2],
                                       int count, const sums_params *p, neighbour_sums *out)
{
    const eval_scratch *sc = ctx->scratch;
    const packed nb = {sc->pack_dx, sc->pack_dy, sc->pack_d2, sc->pack_vx, sc->pack_vy};
    float sum[SUM_FIELDS];
    int n = ctx->view->filtered ? pack_plain(g, ranges, count, p, &nb, ctx) : pack(g, ranges, count, p, &nb);
    sum_packed(&nb, n, p, sum);
    out->count = (int)sum[SUM_NEIGHBOURS];
    out->sum_dx = sum[SUM_DX];
    out->sum_dy = sum[SUM_DY];
    out->sum_vx = sum[SUM_VX];
    out->sum_vy = sum[SUM_VY];
    out->sep_x = sum[SUM_SX];
    out->sep_y = sum[SUM_SY];
    return sum[SUM_SAME] > 0.0f;
}

// Direction away from a neighbour at the very same point: a fixed axis
// chosen by key, so the two agents go opposite ways.
static float tie_break_x(const eval_ctx *ctx, uint32_t proxy)
{
    uint64_t other = steer__proxy_key(ctx, proxy);
    return ctx->key < other ? -1.0f : 1.0f;
}

// Coincident neighbours are rare: a plain second pass adds their tie-break
// pushes, in canonical order.
static float coincident_push(const eval_ctx *ctx, const uint32_t ranges[][2], int count, const sums_params *p)
{
    const neighbour_grid *g = ctx->view->grid;
    float push = 0.0f;
    for (int i = 0; i < count; ++i) {
        for (uint32_t k = ranges[i][0]; k < ranges[i][1]; ++k) {
            if (k != p->self && g->x[k] == p->cx && g->y[k] == p->cy && steer__sees_proxy(ctx, k))
                push += p->max_acc * tie_break_x(ctx, k);
        }
    }
    return push;
}

// What both paths do first: the parameters, the ranges of the disc, and
// what the sums were asked for (sums_at in group.c compares it).
static inline int sums_start(const eval_ctx *ctx, float radius, const steer_behaviour_def *separation,
                             neighbour_sums *out, sums_params *p, const uint32_t (**ranges)[2])
{
    // (the ranges first: less to keep across the call)
    const int count = steer__grid_ranges(ctx->view->grid, &ctx->scratch->ranges, ctx->me.position, radius, ranges);
    *p = (sums_params){
        .cx = ctx->me.position.x, .cy = ctx->me.position.y, .r = radius, .r2 = radius * radius,
        .self = ctx->self_proxy, .separation = separation != NULL,
        .linear_law = separation != NULL && separation->law == STEER_LAW_LINEAR,
        .decay = separation != NULL ? separation->decay_coefficient : 0.0f,
        .max_acc = ctx->lim.max_acceleration,
    };
    out->radius = radius;
    out->has_separation = separation != NULL;
    if (separation != NULL) {
        out->law = separation->law;
        out->decay = separation->decay_coefficient;
        out->max_acc = p->max_acc;
    }
    return count;
}

#if defined(STEER_X86_DISPATCH)
// AVX2 and no filters: everything in one function (no parameters handed
// from one call to the next).
__attribute__((target("avx2,popcnt"))) static void neighbour_sums_avx2(eval_ctx *ctx, float radius,
                                                                       const steer_behaviour_def *separation,
                                                                       neighbour_sums *out)
{
    sums_params p;
    const uint32_t (*ranges)[2];
    const int count = sums_start(ctx, radius, separation, out, &p, &ranges);
    if (sums_avx2(ctx->view->grid, ranges, count, &p, ctx->scratch, out) && separation != NULL)
        out->sep_x += coincident_push(ctx, ranges, count, &p);
}
#endif

// The other paths (not inlined: the common case does not take them).
STEER_NOINLINE static void neighbour_sums_packed(eval_ctx *ctx, float radius, const steer_behaviour_def *separation,
                                                 neighbour_sums *out)
{
    sums_params p;
    const uint32_t (*ranges)[2];
    const int count = sums_start(ctx, radius, separation, out, &p, &ranges);
    if (sums_packed(ctx, ctx->view->grid, ranges, count, &p, out) && separation != NULL)
        out->sep_x += coincident_push(ctx, ranges, count, &p);
}

void steer__neighbour_sums(eval_ctx *ctx, float radius, const steer_behaviour_def *separation, neighbour_sums *out)
{
#if defined(STEER_X86_DISPATCH)
    if (has_avx2 && !ctx->view->filtered) {
        neighbour_sums_avx2(ctx, radius, separation, out);
        return;
    }
#endif
    neighbour_sums_packed(ctx, radius, separation, out);
}
