// orca_lines.c: the shares and the half-planes of an agent's neighbours
// (reciprocal.c), flow_share and agent_line (orca_lines.h) for four (SSE2)
// or eight (AVX2) neighbours at once.
//
// flow_share's tests (the guards against non-finite ratios, the blend at
// a crawl, a neighbour that does not avoid, an idle agent) become lane
// masks: every lane computes both sides and keeps the one the scalar code
// returns; its lengths in double, as steer_length; steer_maxf, steer_minf
// and steer_clampf as maxps and minps with the operands in the order that
// gives the same result for NaN and signed zeros (a > b ? a : b is
// maxps(a, b)).
//
// flow_share's blend at a crawl (the queue's right of way, three
// divisions) is computed only when a lane kept takes it (about one group of
// eight in five in steer-bench crowd --scene disc's free crowd).
//
// agent_line has three cases: the cut-off disc, the legs of the cone and,
// rarely outside a jam, overlapping. The vector paths compute the first
// for every lane, the legs when a lane kept takes one (apart, not cut: in
// the free disc crowd about one group of eight in nine; in its jam two in
// five) and the third when a lane needs it (its length in double, as
// steer_length), and keep in each lane what the scalar code would take (an
// overlapping lane: agent_line's test `dist2 > r2` false, also for NaN).
// (The lanes skipped are those whose values the selects would drop: the
// divider, shared by every square root and division, was a bottleneck of
// the step.) Every kept value is the same IEEE
// operations on the same operands in the same order as agent_line's (sqrt
// and division are correctly rounded in any width; no contraction:
// CMakeLists.txt), so the lines have the same bits on every path
// (tests/c/test_kernel.c). The lanes not kept may compute infinities and
// NaNs: no trap, and never stored.
#include "orca_lines.h"

#include "kernel_isa.h"

// The one-by-one path of steer__orca_pairs (in every build): pair i.
static inline void plain_pair(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int i,
                              const orca_pair_frame *f)
{
    const grid_body *b = &bodies[near[i].proxy];
    const steer_vec2 vj = steer_v2(b->vx, b->vy);
    const steer_vec2 rel = steer_sub(steer_mul_add(steer_v2(b->x, b->y), vj, f->lead), f->p);
    const steer_vec2 rel_vel = steer_sub(f->v, vj);
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
    in->avoids[i] = b->max_speed >= 0.0f ? 1.0f : 0.0f;
}

// The one-by-one path of steer__orca_pairs, with its mask.
static inline uint64_t plain_pairs(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int k,
                                   const orca_pair_frame *f)
{
    uint64_t against = 0;
    for (int i = 0; i < k; ++i) {
        plain_pair(in, bodies, near, i, f);
        against |= (uint64_t)(steer_dot(f->wish, steer_v2(in->tx[i], in->ty[i])) < 0.0f) << i;
    }
    return against;
}

#if defined(__SSE2__) || defined(STEER_X86_DISPATCH)
// The bits of pairs 0 to k - 1 of a mask (those past k: the padding).
static inline uint64_t first_bits(uint64_t m, int k)
{
    return k < 64 ? m & ((UINT64_C(1) << k) - 1) : m;
}
#endif

#if defined(STEER_X86_DISPATCH) || !defined(__SSE2__)
// The one-by-one path of steer__orca_oncoming.
static inline uint64_t plain_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay)
{
    const float wl = steer_length(wish);
    uint64_t m = 0;
    for (int i = 0; i < k; ++i) m |= (uint64_t)oncoming_candidate(in, i, wish, wl, relay) << i;
    return m;
}
#endif

#if defined(STEER_X86_DISPATCH) || !defined(__SSE2__)
// The one-by-one paths.
static inline void plain_share(orca_pairs *in, int i, steer_vec2 v, float speed, steer_vec2 mine, bool idle)
{
    float share = in->avoids[i] != 0.0f ? flow_share(steer_v2(in->rx[i], in->ry[i]), v, speed,
                                                     steer_v2(in->jx[i], in->jy[i]), mine,
                                                     steer_v2(in->tx[i], in->ty[i]), in->mean[i])
                                        : 1.0f;
    in->share[i] = idle_share(share, idle);
}

static inline void plain_line(const orca_pairs *in, int i, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out)
{
    out[i] = agent_line(steer_v2(in->rx[i], in->ry[i]), steer_v2(in->vx[i], in->vy[i]), in->r[i], inv_tau, inv_dt, v,
                        in->share[i]);
}
#endif

// The recoil (recoil_share) over the k shares of an agent moving against
// its wish, one by one on every path (rare: no vector form).
static void recoil_shares(orca_pairs *in, int k, steer_vec2 v, steer_vec2 mine, float shed)
{
    if (!(steer_dot(v, mine) < 0.0f)) return;
    for (int i = 0; i < k; ++i)
        in->share[i] = recoil_share(in->share[i], v, mine, steer_v2(in->rx[i], in->ry[i]),
                                    steer_v2(in->jx[i], in->jy[i]), shed);
}

#if defined(__SSE2__)
// Four lines, the scalar code's cases selected lane by lane. Always
// inlined: the AVX2 path takes its last four with it (in AVX's encoding).
typedef struct lines4 {
    __m128 px, py, dx, dy;
} lines4;

static STEER_ALWAYS_INLINE __m128 select4(__m128 mask, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

// steer_length's (float)sqrt((double)x * x + (double)y * y), four lanes
// as two pairs of doubles.
static STEER_ALWAYS_INLINE __m128 length4(__m128 x, __m128 y)
{
    const __m128d xl = _mm_cvtps_pd(x), yl = _mm_cvtps_pd(y);
    const __m128d xh = _mm_cvtps_pd(_mm_movehl_ps(x, x)), yh = _mm_cvtps_pd(_mm_movehl_ps(y, y));
    const __m128d lo = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(xl, xl), _mm_mul_pd(yl, yl)));
    const __m128d hi = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(xh, xh), _mm_mul_pd(yh, yh)));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}

// length4 of the lanes set in `lanes`: of lanes 0 and 1 alone (one pair of
// doubles, 2 and 3 then 0) when those are all.
static STEER_ALWAYS_INLINE __m128 length4_of(__m128 x, __m128 y, int lanes)
{
    if (lanes & 12) return length4(x, y);
    const __m128d xl = _mm_cvtps_pd(x), yl = _mm_cvtps_pd(y);
    return _mm_cvtpd_ps(_mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(xl, xl), _mm_mul_pd(yl, yl))));
}

// lanes: those of the n to compute (1 to 4) as a mask of bits.
static STEER_ALWAYS_INLINE lines4 lines4_at(const orca_pairs *in, int i, int lanes, __m128 inv_tau, __m128 inv_dt,
                                            __m128 vx0, __m128 vy0)
{
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), sign = _mm_set1_ps(-0.0f);
    const __m128 rx = _mm_loadu_ps(in->rx + i), ry = _mm_loadu_ps(in->ry + i);
    const __m128 vx = _mm_loadu_ps(in->vx + i), vy = _mm_loadu_ps(in->vy + i);
    const __m128 r = _mm_loadu_ps(in->r + i), share = _mm_loadu_ps(in->share + i);
    const __m128 dist2 = _mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), r2 = _mm_mul_ps(r, r);
    const __m128 apart = _mm_cmpgt_ps(dist2, r2); // (false for NaN, as agent_line's test)
    // w: from the cut-off disc's centre to the relative velocity
    const __m128 wx = _mm_sub_ps(vx, _mm_mul_ps(rx, inv_tau)), wy = _mm_sub_ps(vy, _mm_mul_ps(ry, inv_tau));
    const __m128 w2 = _mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy));
    const __m128 wdot = _mm_add_ps(_mm_mul_ps(wx, rx), _mm_mul_ps(wy, ry));
    const __m128 cut = _mm_and_ps(_mm_cmplt_ps(wdot, zero), _mm_cmpgt_ps(_mm_mul_ps(wdot, wdot), _mm_mul_ps(r2, w2)));
    // the cut-off disc
    const __m128 wl = _mm_sqrt_ps(w2), inv_wl = _mm_div_ps(one, wl);
    const __m128 ux = _mm_mul_ps(wx, inv_wl), uy = _mm_mul_ps(wy, inv_wl);
    const __m128 grow = _mm_sub_ps(_mm_mul_ps(r, inv_tau), wl);
    lines4 o;
    o.dx = uy;
    o.dy = _mm_xor_ps(ux, sign);
    __m128 u_x = _mm_mul_ps(ux, grow), u_y = _mm_mul_ps(uy, grow);
    if (_mm_movemask_ps(_mm_andnot_ps(cut, apart)) & lanes) {
        // a leg (some lane kept takes one: see the top): left when rel_pos x w > 0
        const __m128 leg = _mm_sqrt_ps(_mm_sub_ps(dist2, r2)), inv = _mm_div_ps(one, dist2);
        const __m128 left = _mm_cmpgt_ps(_mm_sub_ps(_mm_mul_ps(rx, wy), _mm_mul_ps(ry, wx)), zero);
        const __m128 lx = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(rx, leg), _mm_mul_ps(ry, r)), inv);
        const __m128 ly = _mm_mul_ps(_mm_add_ps(_mm_mul_ps(rx, r), _mm_mul_ps(ry, leg)), inv);
        const __m128 qx = _mm_mul_ps(_mm_xor_ps(_mm_add_ps(_mm_mul_ps(rx, leg), _mm_mul_ps(ry, r)), sign), inv);
        const __m128 qy =
            _mm_mul_ps(_mm_xor_ps(_mm_add_ps(_mm_mul_ps(_mm_xor_ps(rx, sign), r), _mm_mul_ps(ry, leg)), sign), inv);
        const __m128 ldx = select4(left, lx, qx), ldy = select4(left, ly, qy);
        const __m128 along = _mm_add_ps(_mm_mul_ps(vx, ldx), _mm_mul_ps(vy, ldy));
        const __m128 lux = _mm_sub_ps(_mm_mul_ps(ldx, along), vx), luy = _mm_sub_ps(_mm_mul_ps(ldy, along), vy);
        o.dx = select4(cut, o.dx, ldx);
        o.dy = select4(cut, o.dy, ldy);
        u_x = select4(cut, u_x, lux);
        u_y = select4(cut, u_y, luy);
    }
    if ((_mm_movemask_ps(apart) ^ 15) & lanes) {
        // overlapping: the cut-off disc of horizon dt; w's length in double
        const __m128 cwx = _mm_sub_ps(vx, _mm_mul_ps(rx, inv_dt)), cwy = _mm_sub_ps(vy, _mm_mul_ps(ry, inv_dt));
        const __m128 cwl = length4(cwx, cwy), inv_cwl = _mm_div_ps(one, cwl), moving = _mm_cmpgt_ps(cwl, zero);
        // (w = 0 at a distance: straight apart, -rel_pos / |rel_pos|)
        const __m128 still = _mm_and_ps(_mm_cmpeq_ps(cwl, zero), _mm_cmpgt_ps(dist2, zero));
        const __m128 away = _mm_div_ps(_mm_set1_ps(-1.0f), _mm_sqrt_ps(dist2));
        const __m128 cux = select4(still, _mm_mul_ps(rx, away), select4(moving, _mm_mul_ps(cwx, inv_cwl), zero));
        const __m128 cuy =
            select4(still, _mm_mul_ps(ry, away), select4(moving, _mm_mul_ps(cwy, inv_cwl), _mm_set1_ps(-1.0f)));
        const __m128 cgrow = _mm_sub_ps(_mm_mul_ps(r, inv_dt), cwl);
        o.dx = select4(apart, o.dx, cuy);
        o.dy = select4(apart, o.dy, _mm_xor_ps(cux, sign));
        u_x = select4(apart, u_x, _mm_mul_ps(cux, cgrow));
        u_y = select4(apart, u_y, _mm_mul_ps(cuy, cgrow));
    }
    o.px = _mm_add_ps(vx0, _mm_mul_ps(u_x, share));
    o.py = _mm_add_ps(vy0, _mm_mul_ps(u_y, share));
    return o;
}

// The first n (1 to 4) of four lines to out.
static STEER_ALWAYS_INLINE void store4(lines4 l, orca_line *out, int n)
{
    _MM_TRANSPOSE4_PS(l.px, l.py, l.dx, l.dy);
    _mm_storeu_ps(&out[0].point.x, l.px);
    if (n > 1) _mm_storeu_ps(&out[1].point.x, l.py);
    if (n > 2) _mm_storeu_ps(&out[2].point.x, l.dx);
    if (n > 3) _mm_storeu_ps(&out[3].point.x, l.dy);
}

static STEER_NOINLINE void lines_sse2(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v,
                                      orca_line *out)
{
    const __m128 tau = _mm_set1_ps(inv_tau), step = _mm_set1_ps(inv_dt), vx0 = _mm_set1_ps(v.x), vy0 = _mm_set1_ps(v.y);
    for (int i = 0; i < k; i += 4) {
        const int n = k - i < 4 ? k - i : 4;
        store4(lines4_at(in, i, (1 << n) - 1, tau, step, vx0, vy0), out + i, n);
    }
}

// isfinite, lane by lane (false for NaN)
static STEER_ALWAYS_INLINE __m128 finite4(__m128 a)
{
    return _mm_cmple_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), a), _mm_set1_ps(FLT_MAX));
}

// steer_clampf(a, -1, 1) of a finite a
static STEER_ALWAYS_INLINE __m128 clamp_unit4(__m128 a)
{
    return _mm_min_ps(_mm_set1_ps(1.0f), _mm_max_ps(_mm_set1_ps(-1.0f), a));
}

// The shares of pairs i to i + 3 (steer__orca_shares), flow_share's
// operations lane by lane; mine: A's preferred velocity; lanes: those of
// the pairs to compute as a mask of bits (the blend only when one of them
// takes it: see the top).
static STEER_ALWAYS_INLINE __m128 shares4_at(const orca_pairs *in, int i, int lanes, __m128 vx0, __m128 vy0,
                                             __m128 speed, __m128 mx, __m128 my, bool idle)
{
    const __m128 zero = _mm_setzero_ps(), half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    const __m128 big = _mm_set1_ps(FLT_MAX), sign = _mm_set1_ps(-0.0f);
    const __m128 rx = _mm_loadu_ps(in->rx + i), ry = _mm_loadu_ps(in->ry + i);
    const __m128 jx = _mm_loadu_ps(in->jx + i), jy = _mm_loadu_ps(in->jy + i);
    const __m128 mean = _mm_loadu_ps(in->mean + i);
    // avoid_share: the velocities' right of way
    const __m128 sum = _mm_add_ps(speed, length4_of(jx, jy, lanes)), d = length4_of(rx, ry, lanes);
    const __m128 speeds = _mm_max_ps(sum, _mm_mul_ps(_mm_set1_ps(ORCA_SHARE_FLOOR), mean));
    const __m128 den = _mm_mul_ps(d, speeds);
    const __m128 ahead = _mm_div_ps(
        _mm_add_ps(_mm_mul_ps(rx, _mm_add_ps(vx0, jx)), _mm_mul_ps(ry, _mm_add_ps(vy0, jy))), den);
    const __m128 fair = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(den, zero), _mm_cmple_ps(den, big)), finite4(ahead));
    const __m128 vshare = select4(fair, _mm_add_ps(half, _mm_mul_ps(half, clamp_unit4(ahead))), half);
    // the blend below the blend speed
    const __m128 blend = _mm_mul_ps(_mm_set1_ps(ORCA_FLOW_BLEND), mean), room = _mm_sub_ps(blend, speed);
    const __m128 slow = _mm_and_ps(_mm_cmpgt_ps(room, zero), _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(jx, jx), _mm_mul_ps(jy, jy)),
                                                                         _mm_mul_ps(room, room)));
    const __m128 avoids = _mm_cmpneq_ps(_mm_loadu_ps(in->avoids + i), zero);
    __m128 share = select4(avoids, vshare, one);
    if (_mm_movemask_ps(_mm_and_ps(avoids, slow)) & lanes) {
        const __m128 w = _mm_min_ps(_mm_div_ps(sum, blend), one);
        // queue_ahead: the preferred velocities' right of way
        const __m128 tx = _mm_loadu_ps(in->tx + i), ty = _mm_loadu_ps(in->ty + i);
        const __m128 ca = _mm_div_ps(_mm_add_ps(_mm_mul_ps(mx, rx), _mm_mul_ps(my, ry)), d);
        const __m128 cb = _mm_div_ps(_mm_xor_ps(_mm_add_ps(_mm_mul_ps(tx, rx), _mm_mul_ps(ty, ry)), sign), d);
        const __m128 queue = _mm_sub_ps(_mm_mul_ps(_mm_max_ps(ca, zero), _mm_max_ps(_mm_xor_ps(cb, sign), zero)),
                                        _mm_mul_ps(_mm_max_ps(cb, zero), _mm_max_ps(_mm_xor_ps(ca, sign), zero)));
        const __m128 kept = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(d, zero), _mm_cmple_ps(d, big)), finite4(queue));
        const __m128 qa = _mm_and_ps(kept, clamp_unit4(queue));
        const __m128 mixed = _mm_add_ps(_mm_mul_ps(w, vshare),
                                        _mm_mul_ps(_mm_sub_ps(one, w), _mm_add_ps(half, _mm_mul_ps(half, qa))));
        share = select4(avoids, select4(slow, mixed, vshare), one);
    }
    return idle ? _mm_max_ps(share, _mm_set1_ps(ORCA_IDLE_SHARE)) : share;
}

static STEER_NOINLINE void shares_sse2(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle)
{
    const __m128 vx0 = _mm_set1_ps(v.x), vy0 = _mm_set1_ps(v.y), sp = _mm_set1_ps(speed);
    const __m128 mx = _mm_set1_ps(mine.x), my = _mm_set1_ps(mine.y);
    for (int i = 0; i < k; i += 4) {
        const int n = k - i < 4 ? k - i : 4;
        _mm_storeu_ps(in->share + i, shares4_at(in, i, (1 << n) - 1, vx0, vy0, sp, mx, my, idle));
    }
}

// oncoming_candidate of pairs i to i + 3, as a 4-bit lane mask (lim: 0.24 |wish|^2).
static STEER_ALWAYS_INLINE int oncoming4_at(const orca_pairs *in, int i, __m128 mx, __m128 my, __m128 lim, __m128 relay)
{
    const __m128 zero = _mm_setzero_ps();
    const __m128 rx = _mm_loadu_ps(in->rx + i), ry = _mm_loadu_ps(in->ry + i);
    const __m128 tx = _mm_loadu_ps(in->tx + i), ty = _mm_loadu_ps(in->ty + i);
    const __m128 wt = _mm_add_ps(_mm_mul_ps(mx, tx), _mm_mul_ps(my, ty));
    const __m128 tt = _mm_add_ps(_mm_mul_ps(tx, tx), _mm_mul_ps(ty, ty));
    const __m128 against = _mm_and_ps(_mm_cmplt_ps(wt, zero), _mm_cmpgt_ps(_mm_mul_ps(wt, wt), _mm_mul_ps(lim, tt)));
    const __m128 ahead = _mm_cmpgt_ps(_mm_add_ps(_mm_mul_ps(mx, rx), _mm_mul_ps(my, ry)), zero);
    return _mm_movemask_ps(_mm_and_ps(ahead, _mm_or_ps(against, _mm_and_ps(relay, _mm_cmpgt_ps(wt, zero)))));
}

static STEER_NOINLINE uint64_t oncoming_sse2(const orca_pairs *in, int k, steer_vec2 wish, bool relay)
{
    const float wl = steer_length(wish);
    const __m128 mx = _mm_set1_ps(wish.x), my = _mm_set1_ps(wish.y), lim = _mm_set1_ps(0.24f * wl * wl);
    const __m128 rel = _mm_castsi128_ps(_mm_set1_epi32(relay ? -1 : 0));
    uint64_t m = 0;
    for (int i = 0; i < k; i += 4) m |= (uint64_t)oncoming4_at(in, i, mx, my, lim, rel) << i;
    return first_bits(m, k);
}
#endif

#if defined(STEER_X86_DISPATCH)
static bool has_avx2 = false;
static int lines_level = 1;

// Before main: the CPU check is made once, before any worker thread reads it.
__attribute__((constructor)) static void init_lines(void)
{
    has_avx2 = __builtin_cpu_supports("avx2");
    lines_level = has_avx2 ? 2 : 1;
}

void steer__orca_lines_limit(int level)
{
    init_lines();
    if (level < lines_level) lines_level = level;
}

__attribute__((target("avx2"))) static inline __m256 select8(__m256 mask, __m256 a, __m256 b)
{
    return _mm256_blendv_ps(b, a, mask);
}

// length4 in eight lanes (two groups of four doubles).
__attribute__((target("avx2"))) static inline __m256 length8(__m256 x, __m256 y)
{
    const __m256d xl = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), yl = _mm256_cvtps_pd(_mm256_castps256_ps128(y));
    const __m256d xh = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)), yh = _mm256_cvtps_pd(_mm256_extractf128_ps(y, 1));
    const __m256d lo = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(xl, xl), _mm256_mul_pd(yl, yl)));
    const __m256d hi = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(xh, xh), _mm256_mul_pd(yh, yh)));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
}

// AVX2: eight at a time, lines4_at's operations in eight lanes; the last
// four or fewer with lines4_at.
__attribute__((target("avx2"))) static STEER_NOINLINE void lines_avx2(const orca_pairs *in, int k, float inv_tau,
                                                                    float inv_dt, steer_vec2 v, orca_line *out)
{
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), sign = _mm256_set1_ps(-0.0f);
    const __m256 tau = _mm256_set1_ps(inv_tau), step = _mm256_set1_ps(inv_dt);
    const __m256 vx0 = _mm256_set1_ps(v.x), vy0 = _mm256_set1_ps(v.y);
    int i = 0;
    for (; k - i > 4; i += 8) {
        const __m256 rx = _mm256_loadu_ps(in->rx + i), ry = _mm256_loadu_ps(in->ry + i);
        const __m256 vx = _mm256_loadu_ps(in->vx + i), vy = _mm256_loadu_ps(in->vy + i);
        const __m256 r = _mm256_loadu_ps(in->r + i), share = _mm256_loadu_ps(in->share + i);
        const __m256 dist2 = _mm256_add_ps(_mm256_mul_ps(rx, rx), _mm256_mul_ps(ry, ry)), r2 = _mm256_mul_ps(r, r);
        const __m256 apart = _mm256_cmp_ps(dist2, r2, _CMP_GT_OQ);
        const __m256 wx = _mm256_sub_ps(vx, _mm256_mul_ps(rx, tau)), wy = _mm256_sub_ps(vy, _mm256_mul_ps(ry, tau));
        const __m256 w2 = _mm256_add_ps(_mm256_mul_ps(wx, wx), _mm256_mul_ps(wy, wy));
        const __m256 wdot = _mm256_add_ps(_mm256_mul_ps(wx, rx), _mm256_mul_ps(wy, ry));
        const __m256 cut = _mm256_and_ps(_mm256_cmp_ps(wdot, zero, _CMP_LT_OQ),
                                         _mm256_cmp_ps(_mm256_mul_ps(wdot, wdot), _mm256_mul_ps(r2, w2), _CMP_GT_OQ));
        const __m256 wl = _mm256_sqrt_ps(w2), inv_wl = _mm256_div_ps(one, wl);
        const __m256 ux = _mm256_mul_ps(wx, inv_wl), uy = _mm256_mul_ps(wy, inv_wl);
        const __m256 grow = _mm256_sub_ps(_mm256_mul_ps(r, tau), wl);
        __m256 dx = uy, dy = _mm256_xor_ps(ux, sign);
        __m256 u_x = _mm256_mul_ps(ux, grow), u_y = _mm256_mul_ps(uy, grow);
        const int n = k - i < 8 ? k - i : 8;
        if (_mm256_movemask_ps(_mm256_andnot_ps(cut, apart)) & ((1 << n) - 1)) {
            // a leg (some lane kept takes one)
            const __m256 leg = _mm256_sqrt_ps(_mm256_sub_ps(dist2, r2)), inv = _mm256_div_ps(one, dist2);
            const __m256 left =
                _mm256_cmp_ps(_mm256_sub_ps(_mm256_mul_ps(rx, wy), _mm256_mul_ps(ry, wx)), zero, _CMP_GT_OQ);
            const __m256 lx = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(rx, leg), _mm256_mul_ps(ry, r)), inv);
            const __m256 ly = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(rx, r), _mm256_mul_ps(ry, leg)), inv);
            const __m256 qx =
                _mm256_mul_ps(_mm256_xor_ps(_mm256_add_ps(_mm256_mul_ps(rx, leg), _mm256_mul_ps(ry, r)), sign), inv);
            const __m256 qy = _mm256_mul_ps(
                _mm256_xor_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_xor_ps(rx, sign), r), _mm256_mul_ps(ry, leg)), sign),
                inv);
            const __m256 ldx = select8(left, lx, qx), ldy = select8(left, ly, qy);
            const __m256 along = _mm256_add_ps(_mm256_mul_ps(vx, ldx), _mm256_mul_ps(vy, ldy));
            dx = select8(cut, dx, ldx);
            dy = select8(cut, dy, ldy);
            u_x = select8(cut, u_x, _mm256_sub_ps(_mm256_mul_ps(ldx, along), vx));
            u_y = select8(cut, u_y, _mm256_sub_ps(_mm256_mul_ps(ldy, along), vy));
        }
        if ((_mm256_movemask_ps(apart) ^ 255) & ((1 << n) - 1)) {
            // overlapping (lines4_at's operations)
            const __m256 cwx = _mm256_sub_ps(vx, _mm256_mul_ps(rx, step)), cwy = _mm256_sub_ps(vy, _mm256_mul_ps(ry, step));
            const __m256 cwl = length8(cwx, cwy), inv_cwl = _mm256_div_ps(one, cwl);
            const __m256 moving = _mm256_cmp_ps(cwl, zero, _CMP_GT_OQ);
            const __m256 still = _mm256_and_ps(_mm256_cmp_ps(cwl, zero, _CMP_EQ_OQ), _mm256_cmp_ps(dist2, zero, _CMP_GT_OQ));
            const __m256 away = _mm256_div_ps(_mm256_set1_ps(-1.0f), _mm256_sqrt_ps(dist2));
            const __m256 cux =
                select8(still, _mm256_mul_ps(rx, away), select8(moving, _mm256_mul_ps(cwx, inv_cwl), zero));
            const __m256 cuy = select8(still, _mm256_mul_ps(ry, away),
                                       select8(moving, _mm256_mul_ps(cwy, inv_cwl), _mm256_set1_ps(-1.0f)));
            const __m256 cgrow = _mm256_sub_ps(_mm256_mul_ps(r, step), cwl);
            dx = select8(apart, dx, cuy);
            dy = select8(apart, dy, _mm256_xor_ps(cux, sign));
            u_x = select8(apart, u_x, _mm256_mul_ps(cux, cgrow));
            u_y = select8(apart, u_y, _mm256_mul_ps(cuy, cgrow));
        }
        const __m256 px = _mm256_add_ps(vx0, _mm256_mul_ps(u_x, share)), py = _mm256_add_ps(vy0, _mm256_mul_ps(u_y, share));
        lines4 lo = {_mm256_castps256_ps128(px), _mm256_castps256_ps128(py), _mm256_castps256_ps128(dx),
                     _mm256_castps256_ps128(dy)};
        lines4 hi = {_mm256_extractf128_ps(px, 1), _mm256_extractf128_ps(py, 1), _mm256_extractf128_ps(dx, 1),
                     _mm256_extractf128_ps(dy, 1)};
        store4(lo, out + i, 4);
        store4(hi, out + i + 4, n - 4);
    }
    if (i < k) {
        const int n = k - i;
        store4(lines4_at(in, i, (1 << n) - 1, _mm256_castps256_ps128(tau), _mm256_castps256_ps128(step),
                         _mm256_castps256_ps128(vx0), _mm256_castps256_ps128(vy0)),
               out + i, n);
    }
}

// shares4_at in eight lanes.
__attribute__((target("avx2"))) static inline __m256 shares8_at(const orca_pairs *in, int i, int lanes, __m256 vx0,
                                                                __m256 vy0, __m256 speed, __m256 mx, __m256 my,
                                                                bool idle)
{
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 big = _mm256_set1_ps(FLT_MAX), sign = _mm256_set1_ps(-0.0f), lo = _mm256_set1_ps(-1.0f);
    const __m256 rx = _mm256_loadu_ps(in->rx + i), ry = _mm256_loadu_ps(in->ry + i);
    const __m256 jx = _mm256_loadu_ps(in->jx + i), jy = _mm256_loadu_ps(in->jy + i);
    const __m256 mean = _mm256_loadu_ps(in->mean + i);
    const __m256 sum = _mm256_add_ps(speed, length8(jx, jy)), d = length8(rx, ry);
    const __m256 speeds = _mm256_max_ps(sum, _mm256_mul_ps(_mm256_set1_ps(ORCA_SHARE_FLOOR), mean));
    const __m256 den = _mm256_mul_ps(d, speeds);
    const __m256 ahead = _mm256_div_ps(
        _mm256_add_ps(_mm256_mul_ps(rx, _mm256_add_ps(vx0, jx)), _mm256_mul_ps(ry, _mm256_add_ps(vy0, jy))), den);
    const __m256 fair = _mm256_and_ps(
        _mm256_and_ps(_mm256_cmp_ps(den, zero, _CMP_GT_OQ), _mm256_cmp_ps(den, big, _CMP_LE_OQ)),
        _mm256_cmp_ps(_mm256_andnot_ps(sign, ahead), big, _CMP_LE_OQ));
    const __m256 vshare =
        select8(fair, _mm256_add_ps(half, _mm256_mul_ps(half, _mm256_min_ps(one, _mm256_max_ps(lo, ahead)))), half);
    const __m256 blend = _mm256_mul_ps(_mm256_set1_ps(ORCA_FLOW_BLEND), mean), room = _mm256_sub_ps(blend, speed);
    const __m256 slow = _mm256_and_ps(
        _mm256_cmp_ps(room, zero, _CMP_GT_OQ),
        _mm256_cmp_ps(_mm256_add_ps(_mm256_mul_ps(jx, jx), _mm256_mul_ps(jy, jy)), _mm256_mul_ps(room, room), _CMP_LT_OQ));
    const __m256 avoids = _mm256_cmp_ps(_mm256_loadu_ps(in->avoids + i), zero, _CMP_NEQ_UQ);
    __m256 share = select8(avoids, vshare, one);
    if (_mm256_movemask_ps(_mm256_and_ps(avoids, slow)) & lanes) {
        const __m256 w = _mm256_min_ps(_mm256_div_ps(sum, blend), one);
        const __m256 tx = _mm256_loadu_ps(in->tx + i), ty = _mm256_loadu_ps(in->ty + i);
        const __m256 ca = _mm256_div_ps(_mm256_add_ps(_mm256_mul_ps(mx, rx), _mm256_mul_ps(my, ry)), d);
        const __m256 cb =
            _mm256_div_ps(_mm256_xor_ps(_mm256_add_ps(_mm256_mul_ps(tx, rx), _mm256_mul_ps(ty, ry)), sign), d);
        const __m256 queue =
            _mm256_sub_ps(_mm256_mul_ps(_mm256_max_ps(ca, zero), _mm256_max_ps(_mm256_xor_ps(cb, sign), zero)),
                          _mm256_mul_ps(_mm256_max_ps(cb, zero), _mm256_max_ps(_mm256_xor_ps(ca, sign), zero)));
        const __m256 kept = _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(d, zero, _CMP_GT_OQ), _mm256_cmp_ps(d, big, _CMP_LE_OQ)),
            _mm256_cmp_ps(_mm256_andnot_ps(sign, queue), big, _CMP_LE_OQ));
        const __m256 qa = _mm256_and_ps(kept, _mm256_min_ps(one, _mm256_max_ps(lo, queue)));
        const __m256 queued = _mm256_add_ps(half, _mm256_mul_ps(half, qa));
        const __m256 mixed = _mm256_add_ps(_mm256_mul_ps(w, vshare), _mm256_mul_ps(_mm256_sub_ps(one, w), queued));
        share = select8(avoids, select8(slow, mixed, vshare), one);
    }
    return idle ? _mm256_max_ps(share, _mm256_set1_ps(ORCA_IDLE_SHARE)) : share;
}

// AVX2: eight at a time; the last four or fewer with shares4_at.
__attribute__((target("avx2"))) static STEER_NOINLINE void shares_avx2(orca_pairs *in, int k, steer_vec2 v, float speed,
                                                                     steer_vec2 mine, bool idle)
{
    const __m256 vx0 = _mm256_set1_ps(v.x), vy0 = _mm256_set1_ps(v.y), sp = _mm256_set1_ps(speed);
    const __m256 mx = _mm256_set1_ps(mine.x), my = _mm256_set1_ps(mine.y);
    int i = 0;
    for (; k - i > 4; i += 8) {
        const int n = k - i < 8 ? k - i : 8;
        _mm256_storeu_ps(in->share + i, shares8_at(in, i, (1 << n) - 1, vx0, vy0, sp, mx, my, idle));
    }
    if (i < k) {
        _mm_storeu_ps(in->share + i,
                      shares4_at(in, i, (1 << (k - i)) - 1, _mm256_castps256_ps128(vx0), _mm256_castps256_ps128(vy0),
                                 _mm256_castps256_ps128(sp), _mm256_castps256_ps128(mx), _mm256_castps256_ps128(my),
                                 idle));
    }
}

// oncoming4_at in eight lanes: an 8-bit lane mask.
__attribute__((target("avx2"))) static inline int oncoming8_at(const orca_pairs *in, int i, __m256 mx, __m256 my,
                                                               __m256 lim, __m256 relay)
{
    const __m256 zero = _mm256_setzero_ps();
    const __m256 rx = _mm256_loadu_ps(in->rx + i), ry = _mm256_loadu_ps(in->ry + i);
    const __m256 tx = _mm256_loadu_ps(in->tx + i), ty = _mm256_loadu_ps(in->ty + i);
    const __m256 wt = _mm256_add_ps(_mm256_mul_ps(mx, tx), _mm256_mul_ps(my, ty));
    const __m256 tt = _mm256_add_ps(_mm256_mul_ps(tx, tx), _mm256_mul_ps(ty, ty));
    const __m256 against = _mm256_and_ps(_mm256_cmp_ps(wt, zero, _CMP_LT_OQ),
                                         _mm256_cmp_ps(_mm256_mul_ps(wt, wt), _mm256_mul_ps(lim, tt), _CMP_GT_OQ));
    const __m256 ahead = _mm256_cmp_ps(_mm256_add_ps(_mm256_mul_ps(mx, rx), _mm256_mul_ps(my, ry)), zero, _CMP_GT_OQ);
    const __m256 same = _mm256_and_ps(relay, _mm256_cmp_ps(wt, zero, _CMP_GT_OQ));
    return _mm256_movemask_ps(_mm256_and_ps(ahead, _mm256_or_ps(against, same)));
}

// AVX2: eight at a time (the pairs past k in the last group masked off).
__attribute__((target("avx2"))) static STEER_NOINLINE uint64_t oncoming_avx2(const orca_pairs *in, int k,
                                                                            steer_vec2 wish, bool relay)
{
    const __m256 mx = _mm256_set1_ps(wish.x), my = _mm256_set1_ps(wish.y);
    const float wl = steer_length(wish);
    const __m256 lim = _mm256_set1_ps(0.24f * wl * wl);
    const __m256 rel = _mm256_castsi256_ps(_mm256_set1_epi32(relay ? -1 : 0));
    uint64_t m = 0;
    for (int i = 0; i < k; i += 8) m |= (uint64_t)oncoming8_at(in, i, mx, my, lim, rel) << i;
    return first_bits(m, k);
}

// Four fields (from `at`, a multiple of four) of the eight records at
// base + off[l] floats, four vectors of eight lanes: a load of four fields
// each record, records 0-3 in the low halves and 4-7 in the high ones,
// transposed in each half.
__attribute__((target("avx2"))) static inline void fields8(const float *base, const uint32_t off[8], int at,
                                                          __m256 out[4])
{
    __m256 r[4];
    for (int l = 0; l < 4; ++l)
        r[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(base + off[l] + at)),
                                    _mm_loadu_ps(base + off[l + 4] + at), 1);
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    out[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

// AVX2: plain_pair's operations in eight lanes (steer_minf(a, b) is
// minps(a, b)). The eight proxies of a group come out of near[] with two
// loads and a lane permutation; lanes past k take record 0 (there is one:
// the records are padded), whose pairs are not kept.
__attribute__((target("avx2"))) static STEER_NOINLINE uint64_t pairs_avx2(orca_pairs *in, const grid_body *bodies,
                                                                        const orca_neighbour *near, int k,
                                                                        const orca_pair_frame *f)
{
    const __m256 wx = _mm256_set1_ps(f->wish.x), wy = _mm256_set1_ps(f->wish.y);
    uint64_t against = 0;
    const __m256 lead = _mm256_set1_ps(f->lead), px = _mm256_set1_ps(f->p.x), py = _mm256_set1_ps(f->p.y);
    const __m256 vx0 = _mm256_set1_ps(f->v.x), vy0 = _mm256_set1_ps(f->v.y);
    const __m256 r_self = _mm256_set1_ps(f->r_self), r_cap = _mm256_set1_ps(f->r_cap);
    const __m256 max_speed = _mm256_set1_ps(f->max_speed), half = _mm256_set1_ps(0.5f);
    const __m256 clearance = _mm256_set1_ps(ORCA_CLEARANCE), radius = _mm256_set1_ps(f->radius);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 shed = _mm256_set1_ps(f->brake.shed), inv2a = _mm256_set1_ps(f->brake.inv2a);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6); // the proxies of four orca_neighbour
    const float *base = (const float *)bodies;
    const __m256i scale = _mm256_set1_epi32((int)(sizeof(grid_body) / sizeof(float)));
    for (int i = 0; i < k; i += 8) {
        // (near[] has room for STEER_MAX_AVOID_NEIGHBOURS: a group never reads past it)
        const __m256i n0 = _mm256_loadu_si256((const __m256i *)(near + i));
        const __m256i n1 = _mm256_loadu_si256((const __m256i *)(near + i + 4));
        __m256i q = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(n0, pick), _mm256_permutevar8x32_epi32(n1, pick),
                                       0xf0);
        q = _mm256_and_si256(q, _mm256_cmpgt_epi32(_mm256_set1_epi32(k - i), lane));
        // each record's place in floats
        uint32_t off[8];
        _mm256_storeu_si256((__m256i *)off, _mm256_mullo_epi32(q, scale));
        __m256 a[4], b[4];
        fields8(base, off, 0, a); // x, y, vx, vy
        fields8(base, off, 4, b); // px, py, radius, max_speed (GRID_BODY_NOT_AVOIDING: does not avoid)
        const __m256 rx = _mm256_sub_ps(_mm256_add_ps(a[0], _mm256_mul_ps(a[2], lead)), px);
        const __m256 ry = _mm256_sub_ps(_mm256_add_ps(a[1], _mm256_mul_ps(a[3], lead)), py);
        _mm256_storeu_ps(in->rx + i, rx);
        _mm256_storeu_ps(in->ry + i, ry);
        _mm256_storeu_ps(in->vx + i, _mm256_sub_ps(vx0, a[2]));
        _mm256_storeu_ps(in->vy + i, _mm256_sub_ps(vy0, a[3]));
        const __m256 r =
            _mm256_min_ps(_mm256_add_ps(r_self, _mm256_mul_ps(b[2], clearance)), _mm256_add_ps(r_cap, b[2]));
        // step_radius
        const __m256 mine = _mm256_add_ps(_mm256_mul_ps(vx0, rx), _mm256_mul_ps(vy0, ry));
        const __m256 theirs = _mm256_xor_ps(_mm256_add_ps(_mm256_mul_ps(a[2], rx), _mm256_mul_ps(a[3], ry)), sign);
        const __m256 c_mine = _mm256_andnot_ps(_mm256_cmp_ps(theirs, zero, _CMP_GT_OQ), mine);
        const __m256 c_theirs = _mm256_andnot_ps(_mm256_cmp_ps(mine, zero, _CMP_GT_OQ), theirs);
        const __m256 away = _mm256_max_ps(_mm256_max_ps(c_mine, c_theirs), zero);
        const __m256 d = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(rx, rx), _mm256_mul_ps(ry, ry)));
        const __m256 bodies = _mm256_add_ps(radius, b[2]);
        const __m256 c = _mm256_div_ps(away, _mm256_max_ps(d, bodies)), travel = _mm256_mul_ps(lead, c);
        const __m256 over = _mm256_and_ps(_mm256_cmp_ps(c_mine, zero, _CMP_GT_OQ), // the agent closing
                                          _mm256_max_ps(_mm256_sub_ps(c, shed), zero));
        const __m256 brake = _mm256_mul_ps(_mm256_mul_ps(over, over), inv2a);
        _mm256_storeu_ps(in->r + i, _mm256_max_ps(_mm256_add_ps(_mm256_add_ps(bodies, travel), brake), r));
        _mm256_storeu_ps(in->jx + i, a[2]);
        _mm256_storeu_ps(in->jy + i, a[3]);
        _mm256_storeu_ps(in->tx + i, b[0]);
        _mm256_storeu_ps(in->ty + i, b[1]);
        _mm256_storeu_ps(in->mean + i, _mm256_mul_ps(half, _mm256_add_ps(max_speed, b[3])));
        _mm256_storeu_ps(in->avoids + i, _mm256_and_ps(_mm256_cmp_ps(b[3], zero, _CMP_GE_OQ), one));
        const __m256 wt = _mm256_add_ps(_mm256_mul_ps(wx, b[0]), _mm256_mul_ps(wy, b[1]));
        against |= (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps(wt, zero, _CMP_LT_OQ)) << i;
    }
    return first_bits(against, k);
}

uint64_t steer__orca_pairs(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int k,
                           const orca_pair_frame *f)
{
    if (lines_level >= 2) return pairs_avx2(in, bodies, near, k, f);
    return plain_pairs(in, bodies, near, k, f);
}

void steer__orca_shares(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle, float shed)
{
    if (lines_level >= 2) {
        shares_avx2(in, k, v, speed, mine, idle);
    } else if (lines_level == 1) {
        shares_sse2(in, k, v, speed, mine, idle);
    } else {
        for (int i = 0; i < k; ++i) plain_share(in, i, v, speed, mine, idle);
    }
    recoil_shares(in, k, v, mine, shed);
}

uint64_t steer__orca_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay)
{
    if (lines_level >= 2) return oncoming_avx2(in, k, wish, relay);
    if (lines_level == 1) return oncoming_sse2(in, k, wish, relay);
    return plain_oncoming(in, k, wish, relay);
}

void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out)
{
    if (lines_level >= 2) {
        lines_avx2(in, k, inv_tau, inv_dt, v, out);
    } else if (lines_level == 1) {
        lines_sse2(in, k, inv_tau, inv_dt, v, out);
    } else {
        for (int i = 0; i < k; ++i) plain_line(in, i, inv_tau, inv_dt, v, out);
    }
}
#else
uint64_t steer__orca_pairs(orca_pairs *in, const grid_body *bodies, const orca_neighbour *near, int k,
                           const orca_pair_frame *f)
{
    return plain_pairs(in, bodies, near, k, f);
}
#if defined(__SSE2__)
void steer__orca_shares(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle, float shed)
{
    shares_sse2(in, k, v, speed, mine, idle);
    recoil_shares(in, k, v, mine, shed);
}

uint64_t steer__orca_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay)
{
    return oncoming_sse2(in, k, wish, relay);
}

void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out)
{
    lines_sse2(in, k, inv_tau, inv_dt, v, out);
}
#else
void steer__orca_shares(orca_pairs *in, int k, steer_vec2 v, float speed, steer_vec2 mine, bool idle, float shed)
{
    for (int i = 0; i < k; ++i) plain_share(in, i, v, speed, mine, idle);
    recoil_shares(in, k, v, mine, shed);
}

uint64_t steer__orca_oncoming(const orca_pairs *in, int k, steer_vec2 wish, bool relay)
{
    return plain_oncoming(in, k, wish, relay);
}

void steer__orca_agent_lines(const orca_pairs *in, int k, float inv_tau, float inv_dt, steer_vec2 v, orca_line *out)
{
    for (int i = 0; i < k; ++i) plain_line(in, i, inv_tau, inv_dt, v, out);
}
#endif
#if !defined(STEER_PLAIN_KERNEL) // (tests/c/test_kernel.c compiles this file a second time)
void steer__orca_lines_limit(int level) { (void)level; }
#endif
#endif
