// grid.c: the neighbour grid, rebuilt in O(N) every step.
//
// Cells of side cell_size tile the plane; cell (cx, cy) lives in bucket
// (cx mod W, cy mod H) of a W x H table with W*H >= capacity. Any query
// window up to W x H cells therefore visits distinct buckets (no bucket
// twice, no deduplication); agents of far cells that share a bucket are
// rejected by the distance test. Agents are counting-sorted by bucket and
// then by state inside a bucket (position x, y, then velocity x, y; the key
// only breaks exact ties), so every scan visits neighbours in an order that
// depends only on the agents' states, never on spawn order, storage order
// or keys: the sums over neighbours, added in that order, are the same bits
// however the world was built (docs/engine.md, determinism).
#include "tasks.h"
#include "world.h"

// STEER_PLAIN_KERNEL: plain C only (the plain engine of tests/CMakeLists.txt)
#if defined(STEER_PLAIN_KERNEL)
#undef __SSE2__
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { MIN_BUCKET_BITS = 10 };

static int ceil_log2(uint32_t n)
{
    int b = 0;
    while ((1u << b) < n) ++b;
    return b;
}

// The proxies' ten arrays in one block. Arrays of a few hundred kB each
// come from the system page-aligned, so ten separate ones start at the
// same offset in their pages: element k of every array falls in the same
// set of an 8-way L1 cache, and the fill, which writes all of them (and
// reads the agents' columns), evicted its own lines: 8.9 write misses an
// agent-step at 100k in callgrind's simulation. Here each array starts
// STAGGER bytes further into its page than the one before, and the first
// at a cache line (the records, 32 bytes, then never straddle two lines).
// Their contents are not kept (reserve marks the grid dirty: the next
// update refills them).
enum { PAGE = 4096, STAGGER = 3 * 64, LINE = 64 };

static size_t page_round(size_t bytes) { return (bytes + PAGE - 1) / PAGE * PAGE + STAGGER; }

static bool reserve_proxies(neighbour_grid *g, size_t n)
{
    if (n <= g->proxy_capacity) return true;
    if (n > SIZE_MAX / 16 / sizeof(grid_body)) return false;
    const size_t f = page_round(n * sizeof(float)), u = page_round(n * sizeof(uint64_t));
    const size_t b = page_round(n * sizeof(grid_body));
    char *block = steer__alloc(8 * f + u + b + LINE);
    if (block == NULL) return false;
    steer__free(g->proxies);
    g->proxies = block;
    g->proxy_capacity = n;
    char *first = block + (LINE - (uintptr_t)block % LINE) % LINE;
    float **arrays[8] = {&g->x, &g->y, &g->vx, &g->vy, &g->ix, &g->iy, &g->px, &g->py};
    for (int j = 0; j < 8; ++j) *arrays[j] = (float *)(first + (size_t)j * f);
    g->yield_to = (uint64_t *)(first + 8 * f);
    g->bodies = (grid_body *)(first + 8 * f + u);
    return true;
}

bool steer__grid_reserve(neighbour_grid *g, int capacity)
{
    // + STEER_GRID_PAD: the neighbour scan reads whole 8-wide groups past a range's end
    size_t n = (size_t)capacity + STEER_GRID_PAD;
    if (!reserve_proxies(g, n) ||
        !STEER_GROW(g->agent, n) || !STEER_GROW(g->proxy_of, n) || !STEER_GROW(g->bucket_of, n) ||
        !STEER_GROW(g->order_key, n))
        return false;
    int bits = ceil_log2((uint32_t)capacity);
    if (bits < MIN_BUCKET_BITS) bits = MIN_BUCKET_BITS;
    int buckets = 1 << bits;
    if (buckets > g->bucket_capacity) {
        if (!STEER_GROW(g->bucket_start, (size_t)buckets + 2)) return false;
        g->bucket_capacity = buckets;
        g->bucket_mask = (uint32_t)buckets - 1;
        g->width_bits = (bits + 1) / 2;
    }
    g->dirty = true;
    return true;
}

void steer__grid_free(neighbour_grid *g)
{
    steer__free(g->proxies);
    steer__free(g->agent);
    steer__free(g->proxy_of);
    steer__free(g->bucket_of);
    steer__free(g->order_key);
    steer__free(g->bucket_start);
    memset(g, 0, sizeof *g);
}

bool steer_cell_size_is_valid(float cell_size)
{
    // also false for NaN
    return cell_size >= STEER_MIN_CELL_SIZE && cell_size <= STEER_MAX_CELL_SIZE;
}

// Cell coordinate of a position, clamped so that huge coordinates stay
// inside int range (they only cost precision of the bucketing, never
// results: the clamp is monotone, so a window still contains its agents).
// With a valid cell size, v * inv_cell is finite or +-inf, never NaN, for
// any finite v; the clamp is written so that even a NaN lands in range
// (+1e9, as minps then maxps in cell_window) instead of reaching the
// float-to-int conversion.
static inline int32_t cell_coord(float v, float inv_cell)
{
    float c = v * inv_cell;
    c = c < 1.0e9f ? c : 1.0e9f;
    c = c > -1.0e9f ? c : -1.0e9f;
    // floor without a libm call: truncate, then step down for negatives
    int32_t i = (int32_t)c;
    return i - ((float)i > c);
}

// The cells of a disc's bounding box: x0, x1, y0, y1 (cell_coord of each
// edge; SSE2 does the four at once, with the same operations).
static inline void cell_window(const neighbour_grid *g, steer_vec2 c, float r, int32_t w[4])
{
#if defined(__SSE2__)
    __m128 v = _mm_mul_ps(_mm_add_ps(_mm_set_ps(c.y, c.y, c.x, c.x), _mm_set_ps(r, -r, r, -r)), _mm_set1_ps(g->inv_cell));
    v = _mm_max_ps(_mm_min_ps(v, _mm_set1_ps(1.0e9f)), _mm_set1_ps(-1.0e9f));
    __m128i t = _mm_cvttps_epi32(v);
    // floor: truncation, one less where truncating went up (negatives)
    t = _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), v)));
    _mm_storeu_si128((__m128i *)w, t);
#else
    w[0] = cell_coord(c.x - r, g->inv_cell);
    w[1] = cell_coord(c.x + r, g->inv_cell);
    w[2] = cell_coord(c.y - r, g->inv_cell);
    w[3] = cell_coord(c.y + r, g->inv_cell);
#endif
}

static inline uint32_t bucket_of_cell(const neighbour_grid *g, int32_t cx, int32_t cy)
{
    uint32_t wmask = (1u << g->width_bits) - 1u;
    return (((uint32_t)cx & wmask) | ((uint32_t)cy << g->width_bits)) & g->bucket_mask;
}

// Canonical order of two agents of a bucket: position (g->order_key), then
// velocity, then key (only agents with the very same position and velocity
// get there, and then their sums are the same bits either way).
static inline bool sorts_before(const steer_world *w, uint32_t a, uint32_t b)
{
    const uint64_t *ok = w->grid.order_key;
    if (ok[a] != ok[b]) return ok[a] < ok[b];
    uint64_t va = steer__sortable_pair(w->state[a].velocity.x, w->state[a].velocity.y);
    uint64_t vb = steer__sortable_pair(w->state[b].velocity.x, w->state[b].velocity.y);
    if (va != vb) return va < vb;
    return w->key[a] < w->key[b];
}

// Bucket and position sort key of agent i (cell_coord, bucket_of_cell).
static inline void key_one(steer_world *w, int i)
{
    neighbour_grid *g = &w->grid;
    steer_vec2 p = w->state[i].position;
    g->bucket_of[i] = bucket_of_cell(g, cell_coord(p.x, g->inv_cell), cell_coord(p.y, g->inv_cell));
    g->order_key[i] = steer__sortable_pair(p.x, p.y);
}

// Bucket and position sort key of agents [start, end). SSE2: four agents
// at a time, the same operations as key_one (the floor of cell_window,
// integer masks and shifts, the sortable bits): the same keys.
static void key_range(int start, int end, int worker, void *context)
{
    (void)worker;
    steer_world *w = context;
    int i = start;
#if defined(__SSE2__)
    neighbour_grid *g = &w->grid;
    const steer_kinematic *st = w->state;
    const __m128 inv = _mm_set1_ps(g->inv_cell), hi = _mm_set1_ps(1.0e9f), lo = _mm_set1_ps(-1.0e9f);
    const __m128i wmask = _mm_set1_epi32((int32_t)((1u << g->width_bits) - 1u));
    const __m128i bmask = _mm_set1_epi32((int32_t)g->bucket_mask), shift = _mm_cvtsi32_si128(g->width_bits);
    const __m128i top = _mm_set1_epi32(INT32_MIN);
    for (; i + 4 <= end; i += 4) {
        // positions (x, y) of agents i..i+3 into xs and ys
        const __m128 p01 = _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)&st[i].position),
                                                               _mm_loadl_epi64((const __m128i *)&st[i + 1].position)));
        const __m128 p23 = _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)&st[i + 2].position),
                                                               _mm_loadl_epi64((const __m128i *)&st[i + 3].position)));
        const __m128 xs = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 ys = _mm_shuffle_ps(p01, p23, _MM_SHUFFLE(3, 1, 3, 1));
        __m128i cell[2];
        for (int a = 0; a < 2; ++a) {
            const __m128 v = _mm_max_ps(_mm_min_ps(_mm_mul_ps(a == 0 ? xs : ys, inv), hi), lo);
            const __m128i t = _mm_cvttps_epi32(v);
            cell[a] = _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), v)));
        }
        const __m128i bucket =
            _mm_and_si128(_mm_or_si128(_mm_and_si128(cell[0], wmask), _mm_sll_epi32(cell[1], shift)), bmask);
        _mm_storeu_si128((__m128i *)&g->bucket_of[i], bucket);
        // steer__sortable_bits: u ^ (all ones when negative, else the top bit)
        const __m128i bx = _mm_castps_si128(xs), by = _mm_castps_si128(ys);
        const __m128i sx = _mm_xor_si128(bx, _mm_or_si128(_mm_srai_epi32(bx, 31), top));
        const __m128i sy = _mm_xor_si128(by, _mm_or_si128(_mm_srai_epi32(by, 31), top));
        // (x's bits high, y's low: 64-bit little-endian keys)
        _mm_storeu_si128((__m128i *)&g->order_key[i], _mm_unpacklo_epi32(sy, sx));
        _mm_storeu_si128((__m128i *)&g->order_key[i + 2], _mm_unpackhi_epi32(sy, sx));
    }
#endif
    for (; i < end; ++i) key_one(w, i);
}

// Canonical order inside buckets [start, end): insertion sort, buckets
// hold a few agents.
static void sort_buckets(int start, int end, int worker, void *context)
{
    (void)worker;
    steer_world *w = context;
    neighbour_grid *g = &w->grid;
    for (int b = start; b < end; ++b) {
        uint32_t lo = g->bucket_start[b], hi = g->bucket_start[b + 1];
        for (uint32_t k = lo + 1; k < hi; ++k) {
            uint32_t a = g->agent[k];
            uint32_t j = k;
            while (j > lo && sorts_before(w, a, g->agent[j - 1])) {
                g->agent[j] = g->agent[j - 1];
                --j;
            }
            g->agent[j] = a;
        }
    }
}

// Counting sort of the agents by bucket, then by state inside a bucket:
// g->agent lists dense indices in canonical order. The per-agent and
// per-bucket passes run on the world's workers; only the counting and the
// scatter are serial.
static void sort_agents(steer_world *w)
{
    neighbour_grid *g = &w->grid;
    int n = w->count;
    uint32_t buckets = g->bucket_mask + 1u;
    uint32_t *start = g->bucket_start;
    steer__tasks_parallel_for(w, key_range, n, 512, w);
    memset(start, 0, sizeof *start * (size_t)(buckets + 2));
    // count per bucket (shifted by one for the prefix sum)
    for (int i = 0; i < n; ++i) ++start[g->bucket_of[i] + 2];
    for (uint32_t b = 2; b < buckets + 2; ++b) start[b] += start[b - 1];
    // scatter: start[b + 1] is the next free place of bucket b
    for (int i = 0; i < n; ++i) {
        uint32_t k = start[g->bucket_of[i] + 1]++;
        g->agent[k] = (uint32_t)i;
    }
    steer__tasks_parallel_for(w, sort_buckets, (int)buckets, 1024, w);
    g->count = n;
}

// Proxies [start, end): positions and velocities in grid order.
static void fill_range(int start, int end, int worker, void *context)
{
    steer_world *w = context;
    neighbour_grid *g = &w->grid;
    int yielders = 0;
    for (int k = start; k < end; ++k) {
        uint32_t a = g->agent[k];
        const steer_kinematic *s = &w->state[a];
        g->x[k] = s->position.x;
        g->y[k] = s->position.y;
        g->vx[k] = s->velocity.x;
        g->vy[k] = s->velocity.y;
        g->ix[k] = w->intent[a].x;
        g->iy[k] = w->intent[a].y;
        g->px[k] = w->intent[a].px;
        g->py[k] = w->intent[a].py;
        g->yield_to[k] = (uint64_t)w->intent[a].to_hi << 32 | w->intent[a].to_lo;
        g->proxy_of[a] = (uint32_t)k;
        yielders += g->yield_to[k] != 0;
    }
    // (counted here, on the workers, while the columns are in the cache)
    g->counted[worker] += yielders;
    // the records, from the columns just written (a loop of their own: in
    // the one above they cost a flock, which has none, registers)
    if (!g->want_bodies) return;
    for (int k = start; k < end; ++k) {
        uint32_t a = g->agent[k];
        g->bodies[k] =
            steer__grid_body(g->x[k], g->y[k], g->vx[k], g->vy[k], g->px[k], g->py[k], &w->limits[a], w->flags[a], AGENT_AVOIDS);
    }
}

// The proxies, on the world's workers (each writes its own proxies).
static void fill_proxies(steer_world *w)
{
    neighbour_grid *g = &w->grid;
    const int n = g->count;
    memset(g->counted, 0, sizeof g->counted);
    steer__tasks_parallel_for(w, fill_range, n, 512, w);
    for (int k = n; k < n + STEER_GRID_PAD; ++k) g->x[k] = g->y[k] = g->vx[k] = g->vy[k] = g->ix[k] = g->iy[k] = g->px[k] = g->py[k] = 0.0f;
    for (int k = n; k < n + STEER_GRID_PAD; ++k) g->yield_to[k] = 0;
    memset(g->bodies + n, 0, sizeof *g->bodies * STEER_GRID_PAD);
    g->has_bodies = g->want_bodies;
    int yielders = 0;
    for (int k = 0; k < STEER_MAX_WORKERS; ++k) yielders += g->counted[k];
    g->yielders = yielders;
    // agents of more than one size (reciprocal.c ranks neighbours by their
    // bodies then; with one size, by their centres, as before), looked at
    // again only when some agent's limits were written, not every step (a
    // walk over every agent's limits, on one thread). A removal leaves it
    // as it was: true for agents that are all of one size again ranks them
    // by the same keys (body_distances gives a neighbour of the agent's own
    // radius its squared distance), so it costs time, never a result.
    if (g->mixed_version != w->limits_version) {
        bool mixed = false;
        for (int i = 1; i < n; ++i) mixed |= w->limits[i].radius != w->limits[0].radius;
        g->mixed_radii = mixed;
        g->mixed_version = w->limits_version;
    }
    ++g->version;
    g->dirty = false;
}

bool steer__grid_update(steer_world *w)
{
    if (!w->grid.dirty) return false;
    sort_agents(w);
    fill_proxies(w);
    return true;
}

void steer__grid_sort(steer_world *w) { sort_agents(w); }

void steer__grid_refill(steer_world *w) { fill_proxies(w); }

float steer__grid_disorder(const neighbour_grid *g)
{
    if (g->count < 2) return 0.0f;
    int breaks = 0;
    for (int k = 1; k < g->count; ++k) breaks += g->agent[k] != g->agent[k - 1] + 1;
    return (float)breaks / (float)g->count;
}

void steer__grid_cursor_init(const neighbour_grid *g, grid_cursor *c, steer_vec2 center, float radius)
{
    c->cache.version = g->version - 1u; // nothing cached
    c->count = steer__grid_ranges(g, &c->cache, center, radius, &c->ranges);
    c->next = 0;
}

bool steer__grid_cursor_next(grid_cursor *c, uint32_t *begin, uint32_t *end)
{
    if (c->next >= c->count) return false;
    *begin = c->ranges[c->next][0];
    *end = c->ranges[c->next][1];
    ++c->next;
    return true;
}

// Append the proxies of `cells` consecutive buckets from `first`.
static inline int push_range(const uint32_t *start, uint32_t first, uint32_t cells, uint32_t ranges[][2], int n)
{
    uint32_t lo = start[first], hi = start[first + cells];
    ranges[n][0] = lo;
    ranges[n][1] = hi;
    return n + (lo != hi);
}

// The ranges of a window of cells into the cache (a miss of steer__grid_ranges;
// not inlined, so that a hit saves no registers).
STEER_NOINLINE static int fill_ranges(const neighbour_grid *g, range_cache *cache, int32_t x0, int32_t x1, int32_t y0,
                                      int32_t y1)
{
    cache->version = g->version;
    cache->x0 = x0;
    cache->x1 = x1;
    cache->y0 = y0;
    cache->y1 = y1;
    const int64_t width = (int64_t)1 << g->width_bits;
    const int64_t height = (int64_t)(g->bucket_mask + 1u) >> g->width_bits;
    // every row takes at most two ranges (a row narrower than the table wraps once)
    if ((int64_t)x1 - x0 >= width || (int64_t)y1 - y0 >= height || 2 * ((int64_t)y1 - y0 + 1) > STEER_MAX_RANGES) {
        // wider than the table: every agent is a candidate
        cache->ranges[0][0] = 0;
        cache->ranges[0][1] = (uint32_t)g->count;
        return cache->count = 1;
    }
    const uint32_t wmask = (uint32_t)width - 1u;
    const uint32_t cells = (uint32_t)(x1 - x0) + 1u;
    const uint32_t offset = (uint32_t)x0 & wmask;
    // cells of a row before the table wraps
    const uint32_t head = offset + cells <= wmask + 1u ? cells : wmask + 1u - offset;
    int n = 0;
    for (int32_t cy = y0; cy <= y1; ++cy) {
        n = push_range(g->bucket_start, bucket_of_cell(g, x0, cy), head, cache->ranges, n);
        if (head < cells) n = push_range(g->bucket_start, bucket_of_cell(g, x0 + (int32_t)head, cy), cells - head, cache->ranges, n);
    }
    return cache->count = n;
}

int steer__grid_ranges(const neighbour_grid *g, range_cache *cache, steer_vec2 center, float radius,
                       const uint32_t (**out)[2])
{
    int32_t win[4];
    cell_window(g, center, radius, win);
    const int32_t x0 = win[0], x1 = win[1], y0 = win[2], y1 = win[3];
    *out = (const uint32_t(*)[2])cache->ranges;
    // consecutive agents in grid order mostly share their window of cells
    if (cache->version == g->version && cache->x0 == x0 && cache->x1 == x1 && cache->y0 == y0 && cache->y1 == y1)
        return cache->count;
    return fill_ranges(g, cache, x0, x1, y0, y1);
}
