// raycast.c: ray casts against static shapes (through the BVH) and agents
// (through the neighbour grid), and the swept-circle cast of obstacle
// avoidance.
//
// Every cast answers the same question: the first contact at a distance s in
// [0, max_distance] along the unit direction. Ties in distance are broken by
// a key (shapes before agents, then shape slot, then part), so the hierarchy
// and a brute-force scan give the same answer, and raycast_all can visit the
// hits in a total order without a buffer (each visit is a new closest-hit
// query above the last one). Exact answers for the edge cases (origin inside,
// grazing, collinear, zero length) are listed in docs/geometry.md; the
// casts against one part are raycast_parts.c's.
#include <float.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "raycast_parts.h"
#include "store.h"
#include "world.h"

#define KEY_AGENT (1ull << 62)
#define KEY_NONE UINT64_MAX

static inline uint64_t prim_key(const geo_prim *p) { return ((uint64_t)p->shape << 24) | p->part; }

/* ---- the closest-hit query ---------------------------------------------------------- */

/// The best hit so far, above an optional lower bound (raycast_all).
typedef struct cast_state {
    geo_ray ray;
    float clip;
    geo_filter filter;
    float best_s;
    uint64_t best_key;
    steer_vec2 best_n;
    float low_s; ///< hits must come after (low_s, low_key); -inf for none
    uint64_t low_key;
    /// the best hit is this box of the grid walk: best_n is not set yet
    /// (box_normal at the end); NULL when best_n holds the normal
    const geo_prim *best_box;
} cast_state;

static inline bool after_low(const cast_state *c, float s, uint64_t key)
{
    return s > c->low_s || (s == c->low_s && key > c->low_key);
}

static inline void offer(cast_state *c, float s, uint64_t key, steer_vec2 n)
{
    if ((s < c->best_s || (s == c->best_s && key < c->best_key)) && after_low(c, s, key)) {
        c->best_s = s, c->best_key = key, c->best_n = n, c->best_box = NULL;
    }
}

static inline float limit_of(const cast_state *c) { return steer_minf(c->clip, c->best_s); }

// Slab test of a node grown by the sweep radius: the interval of the ray
// inside it, clipped to [0, limit]. Boxes are fattened at build, so this is
// conservative.
static inline bool node_hit(const geo_node *n, const geo_ray *r, float limit, float *enter, float *leave)
{
    float tx1 = (n->lx - r->radius - r->origin.x) * r->inv_x;
    float tx2 = (n->ux + r->radius - r->origin.x) * r->inv_x;
    float ty1 = (n->ly - r->radius - r->origin.y) * r->inv_y;
    float ty2 = (n->uy + r->radius - r->origin.y) * r->inv_y;
    float t0 = steer_maxf(steer_maxf(steer_minf(tx1, tx2), steer_minf(ty1, ty2)), 0.0f);
    float t1 = steer_minf(steer_minf(steer_maxf(tx1, tx2), steer_maxf(ty1, ty2)), limit);
    *enter = t0, *leave = t1;
    return t0 <= t1;
}

static inline bool node_visit(const cast_state *c, const geo_node *n, float *enter)
{
    float leave;
    if (!node_hit(n, &c->ray, limit_of(c), enter, &leave)) return false;
    // every contact inside lies before the lower bound
    return leave >= c->low_s;
}

STEER_ALWAYS_INLINE static void test_parts(const struct steer_geometry *g, cast_state *c, const geo_prim *parts,
                                            int count)
{
    // rays meet boxes, the commonest part, through ray_box directly
    const bool ray = c->ray.radius == 0.0f;
    for (int k = 0; k < count; ++k) {
        const geo_prim *p = &parts[k];
        if (!geo_prim_passes(p, &c->filter)) continue;
        float s;
        steer_vec2 nrm;
        bool hit = ray && p->type == PRIM_BOX ? ray_box(c->ray.origin, c->ray.dir, limit_of(c), p->d, &s, &nrm)
                                              : steer__raycast_prim(g, p, &c->ray, limit_of(c), &s, &nrm);
        if (hit) offer(c, s, prim_key(p), nrm);
    }
}

// Front-to-back traversal: the nearer child first, the farther one pushed
// with its entry distance and skipped if the best hit is already closer.
static void cast_tree(const struct steer_geometry *g, const geo_bvh *tree, cast_state *c)
{
    if (tree->leaf_count == 0) return;
    int stack[GEO_MAX_DEPTH + 2];
    float stack_t[GEO_MAX_DEPTH + 2];
    int sp = 0, node = 0;
    float t;
    if (!node_visit(c, &tree->nodes[0], &t)) return;
    for (;;) {
        const geo_node *n = &tree->nodes[node];
        if (n->count > 0) {
            test_parts(g, c, &tree->leaf[n->child], n->count);
        } else {
            float t0, t1;
            bool h0 = node_visit(c, &tree->nodes[n->child], &t0);
            bool h1 = node_visit(c, &tree->nodes[n->child + 1], &t1);
            if (h0 && h1) {
                int near = t1 < t0 ? n->child + 1 : n->child;
                stack[sp] = near == n->child ? n->child + 1 : n->child;
                stack_t[sp++] = t1 < t0 ? t0 : t1;
                node = near;
                continue;
            }
            if (h0 || h1) {
                node = h0 ? n->child : n->child + 1;
                continue;
            }
        }
        // pop the next subtree that can still beat the best hit
        for (;;) {
            if (sp == 0) return;
            --sp;
            if (stack_t[sp] <= limit_of(c)) break;
        }
        node = stack[sp];
    }
}

// Grid cell of a coordinate, clamped to [0, size) in float before the
// conversion: a point far outside (or an overflowed one) never casts an
// out-of-range float to int.
static inline int grid_cell(float v, float origin, float inv_cell, int size)
{
    // steer_maxf gives 0 for NaN; both compile to minss/maxss
    return (int)steer_minf(steer_maxf((v - origin) * inv_cell, 0.0f), (float)(size - 1));
}

// The best hit of a grid walk, in registers (cast_state's best_s, best_key,
// best_box and its bounds, read once).
typedef struct walk_best {
    float s, clip, low_s;
    uint64_t key, low_key;
    const geo_prim *box;
#if defined(__SSE2__)
    bool oblique; ///< the ray is along neither axis: box_entry_sse
    __m128 o4, u4; ///< origin and direction as (x, y, x, y)
#endif
} walk_best;

static inline void walk_load(walk_best *b, const cast_state *c)
{
    b->s = c->best_s, b->clip = c->clip, b->low_s = c->low_s;
    b->key = c->best_key, b->low_key = c->low_key, b->box = c->best_box;
}

static inline void walk_store(const walk_best *b, cast_state *c)
{
    c->best_s = b->s, c->best_key = b->key, c->best_box = b->box;
}

#if defined(__SSE2__)
// box_entry's distance for a ray along neither axis, the four sides at once
// (the same subtractions and divisions, so the same bits): t = (d - o) / u
// per side. With d[0] <= d[2] the x slab is entered at the smaller of its
// two whatever the sign of u.x (the rounding is monotone), so no side is
// picked by the ray's direction. The origin is strictly inside when d - o
// is negative for the lower sides and positive for the upper ones (the sign
// of a float difference is that of the exact one).
STEER_ALWAYS_INLINE static bool box_entry_sse(__m128 o4, __m128 u4, const float *d, float *s_out)
{
    const __m128 diff = _mm_sub_ps(_mm_loadu_ps(d), o4), zero = _mm_setzero_ps();
    const __m128 t = _mm_div_ps(diff, u4);
    const __m128 swapped = _mm_shuffle_ps(t, t, _MM_SHUFFLE(1, 0, 3, 2));
    const __m128 lo = _mm_min_ps(t, swapped), hi = _mm_max_ps(t, swapped); // lanes 0, 1: x, y
    // (operands ordered as steer_maxf and steer_minf take them in box_entry:
    // equal values give the same one)
    const float enter = _mm_cvtss_f32(_mm_max_ss(_mm_shuffle_ps(lo, lo, 1), lo));
    const float leave = _mm_cvtss_f32(_mm_min_ss(hi, _mm_shuffle_ps(hi, hi, 1)));
    const int signs = _mm_movemask_ps(_mm_cmplt_ps(diff, zero)) | _mm_movemask_ps(_mm_cmpgt_ps(diff, zero)) << 4;
    const bool inside = signs == 0xC3;
    // s = inside ? 0 : enter, as a mask (a select here becomes a branch)
    uint32_t bits;
    memcpy(&bits, &enter, sizeof bits);
    bits &= (uint32_t)inside - 1u;
    memcpy(s_out, &bits, sizeof bits);
    return inside | !((enter > leave) | (enter < 0.0f));
}
#endif

#if defined(__SSE2__)
// box_normal(box_entry's side) for a ray along neither axis, with no branch
// on the side (as often x as y): the slab distances as box_entry_sse takes
// them; y when its entry is the later (box_entry's test); -u from inside.
STEER_ALWAYS_INLINE static steer_vec2 box_normal_oblique(steer_vec2 o, steer_vec2 u, const float *d)
{
    const __m128 o4 = _mm_setr_ps(o.x, o.y, o.x, o.y), u4 = _mm_setr_ps(u.x, u.y, u.x, u.y);
    const __m128 diff = _mm_sub_ps(_mm_loadu_ps(d), o4), zero = _mm_setzero_ps(), sign = _mm_set1_ps(-0.0f);
    const __m128 t = _mm_div_ps(diff, u4);
    const __m128 lo = _mm_min_ps(t, _mm_shuffle_ps(t, t, _MM_SHUFFLE(1, 0, 3, 2))); // lanes 0, 1: x, y entries
    const int signs = _mm_movemask_ps(_mm_cmplt_ps(diff, zero)) | _mm_movemask_ps(_mm_cmpgt_ps(diff, zero)) << 4;
    const __m128 later = _mm_cmpgt_ss(_mm_shuffle_ps(lo, lo, 1), lo), y = _mm_shuffle_ps(later, later, 0); // y enters
    // the faces' normals against the ray, (-sign u.x, 0) or (0, -sign u.y), masked by lane
    const __m128 against = _mm_or_ps(_mm_andnot_ps(_mm_and_ps(u4, sign), sign), _mm_set1_ps(1.0f));
    const __m128 lane = _mm_castsi128_ps(_mm_setr_epi32(-1, 0, 0, 0));
    const __m128 lane1 = _mm_shuffle_ps(lane, lane, 0x51);
    const __m128 face = _mm_and_ps(against, _mm_or_ps(_mm_and_ps(y, lane1), _mm_andnot_ps(y, lane)));
    const __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-(int)(signs == 0xC3)));
    float n[4];
    _mm_storeu_ps(n, _mm_or_ps(_mm_and_ps(in, _mm_xor_ps(u4, sign)), _mm_andnot_ps(in, face)));
    return steer_v2(n[0], n[1]);
}
#endif

// A box met at s no later than the best hit: the best hit if the filter
// takes it and it comes first in (distance, key) order (after the last
// hit, for a bounded walk).
STEER_ALWAYS_INLINE static void take_box(const cast_state *c, walk_best *b, const geo_prim *p, float s, bool bounded)
{
    const geo_filter *f = &c->filter;
    const uint64_t key = prim_key(p);
    const bool passes = ((p->category & f->mask) != 0) & (p->z <= f->top) & (f->z <= p->top);
    const bool better = (s < b->s) | (key < b->key); // (s == b->s here otherwise)
    const bool after = !bounded || ((s > b->low_s) | ((s == b->low_s) & (key > b->low_key)));
    if (passes & better & after) b->s = s, b->key = key, b->box = p;
}

// One part of a grid cell, for a ray. A box: box_entry_sse, then the limit
// and offer's test, joined with & and | (one branch, not one a comparison),
// and its normal only at the end (cast_state.best_box). Other
// parts go through test_parts (rare in a world of boxes: that branch is
// predicted), and so do boxes met by a ray along an axis (the same for
// every box of the ray: predicted). `bounded`: a lower bound to pass
// (raycast_all); without one every hit is after it.
STEER_ALWAYS_INLINE static void ray_part(const struct steer_geometry *g, cast_state *c, walk_best *b,
                                          const geo_prim *p, bool bounded)
{
    float s;
    bool meets;
#if defined(__SSE2__)
    if (p->type == PRIM_BOX && b->oblique) {
        meets = box_entry_sse(b->o4, b->u4, p->d, &s);
    } else
#endif
    {
        if (p->type != PRIM_BOX) {
            walk_store(b, c);
            test_parts(g, c, p, 1);
            walk_load(b, c);
            return;
        }
        int side;
        meets = box_entry(c->ray.origin, c->ray.dir, p->d, &s, &side);
    }
    // most boxes are missed or lie behind the best hit: one test for those
    if (!(meets & !(s > b->clip) & (s <= b->s))) return;
    take_box(c, b, p, s, bounded);
}

#if defined(__SSE2__)
// ray_part for an oblique ray, from the item's box (g->item_box, 16 bytes
// against the part's 52: the cells' boxes stay in the L1 cache): the part
// itself is read only when its box is met no later than the best hit. A
// box part's box is the box (box_entry_sse's bits, as ray_part's); any
// other part's is its fattened bounds, and the part's own test follows.
STEER_ALWAYS_INLINE static void oblique_part(const struct steer_geometry *g, cast_state *c, walk_best *b,
                                              const float *box, const geo_prim *p, bool bounded)
{
    float s;
    const bool meets = box_entry_sse(b->o4, b->u4, box, &s);
    if (!(meets & !(s > b->clip) & (s <= b->s))) return;
    if (p->type != PRIM_BOX) {
        walk_store(b, c);
        test_parts(g, c, p, 1);
        walk_load(b, c);
        return;
    }
    take_box(c, b, p, s, bounded);
}
#endif

// Rays through the uniform grid (Amanatides-Woo): cells in the order the
// ray crosses them, stopping once the next cell starts past the best hit.
// Parts' boxes are fattened, so rounding at cell borders loses nothing.
STEER_ALWAYS_INLINE static void walk_grid(const struct steer_geometry *g, cast_state *c, bool bounded)
{
    const geo_ray *r = &c->ray;
    const float x1 = g->gx1, y1 = g->gy1;
    // where the ray enters the grid: at its origin when that is inside (the
    // slab test below gives 0 then too), most rays
    float t0 = 0.0f;
    if (!((r->origin.x >= g->gx) & (r->origin.x < x1) & (r->origin.y >= g->gy) & (r->origin.y < y1))) {
        float tx1 = (g->gx - r->origin.x) * r->inv_x, tx2 = (x1 - r->origin.x) * r->inv_x;
        float ty1 = (g->gy - r->origin.y) * r->inv_y, ty2 = (y1 - r->origin.y) * r->inv_y;
        t0 = steer_maxf(steer_maxf(steer_minf(tx1, tx2), steer_minf(ty1, ty2)), 0.0f);
        float t1 = steer_minf(steer_maxf(tx1, tx2), steer_maxf(ty1, ty2));
        if (t0 > steer_minf(t1, limit_of(c))) return;
    }
    steer_vec2 p = steer_mul_add(r->origin, r->dir, t0);
    int cx = grid_cell(p.x, g->gx, g->inv_cell, g->gw), cy = grid_cell(p.y, g->gy, g->inv_cell, g->gh);
    int sx = (r->dir.x > 0.0f) - (r->dir.x < 0.0f), sy = (r->dir.y > 0.0f) - (r->dir.y < 0.0f);
    if (sx == 0 && sy == 0) return; // not a direction (unit_of never gives one)
    // Termination: every step moves one cell along an axis the ray moves on
    // (an axis at rest has a border at +INFINITY, so tx < ty implies
    // sx != 0; the other branch refuses sy == 0), so the path is monotone
    // and leaves the grid within gw + gh steps, whatever the limit (a limit
    // of FLT_MAX makes the slack below infinite, so that exit never fires).
    // the grid's fields in locals: the parts' tests write through c, which
    // the compiler cannot tell apart from g
    const int gw = g->gw, gh = g->gh;
    const uint32_t *cell_start = g->cell_start;
    const geo_prim *items = g->items;
#if defined(__SSE2__)
    const float *boxes = g->item_box;
#endif
    const float cell_size = g->cell, gx = g->gx, gy = g->gy, ox = r->origin.x, oy = r->origin.y;
    const float inv_x = r->inv_x, inv_y = r->inv_y;
    const int px = sx > 0, py = sy > 0;
    // distance to the next x and y borders, from the cell index (no drift);
    // a step across one border leaves the other's distance as it was
    float tx = sx == 0 ? INFINITY : (gx + (float)(cx + px) * cell_size - ox) * inv_x;
    float ty = sy == 0 ? INFINITY : (gy + (float)(cy + py) * cell_size - oy) * inv_y;
    walk_best best;
    walk_load(&best, c);
#if defined(__SSE2__)
    best.oblique = (sx != 0) & (sy != 0);
    best.o4 = _mm_setr_ps(ox, oy, ox, oy);
    best.u4 = _mm_setr_ps(r->dir.x, r->dir.y, r->dir.x, r->dir.y);
#endif
    for (;;) {
        const int cell = cy * gw + cx;
        const uint32_t begin = cell_start[cell], end = cell_start[cell + 1];
#if defined(__SSE2__)
        if (best.oblique) {
            for (uint32_t k = begin; k < end; ++k) oblique_part(g, c, &best, &boxes[4 * k], &items[k], bounded);
        } else
#endif
        {
            for (uint32_t k = begin; k < end; ++k) ray_part(g, c, &best, &items[k], bounded);
        }
        const float next = steer_minf(tx, ty), limit = steer_minf(best.clip, best.s);
        if (next > limit + 1e-6f * (limit + 1.0f)) break;
        if (tx < ty) {
            cx += sx;
            if (cx < 0 || cx >= gw) break;
            tx = (gx + (float)(cx + px) * cell_size - ox) * inv_x;
        } else {
            if (sy == 0) break; // both borders out of float range: none ahead
            cy += sy;
            if (cy < 0 || cy >= gh) break;
            ty = (gy + (float)(cy + py) * cell_size - oy) * inv_y;
        }
    }
    walk_store(&best, c);
}

static void cast_grid(const struct steer_geometry *g, cast_state *c)
{
    // closest-hit queries have no lower bound: their walk skips that test
    if (c->low_s == -INFINITY) walk_grid(g, c, false);
    else walk_grid(g, c, true);
}

/// A ray's unit direction and the inverses of its components.
typedef struct unit_dir {
    steer_vec2 u;
    float inv_x, inv_y;
} unit_dir;

// The unit vector along a finite direction, denormal or huge (geo_unit's
// bits); false for the zero vector. The inverses, which only the
// conservative slab and border tests take, come from the double length
// (len / x, within an ulp of 1 / u.x) beside the unit vector, not after it:
// the division is off the set-up's chain. A component under 1e-30 gets a
// huge finite inverse instead: slabs stay NaN-free.
static bool unit_of(steer_vec2 d, unit_dir *r)
{
    double x = d.x, y = d.y, len = sqrt(x * x + y * y);
    if (!(len > 0.0) || !(len <= DBL_MAX)) return false; // zero or non-finite
    r->u = steer_v2((float)(x / len), (float)(y / len));
#if defined(__SSE2__)
    // (both divisions at once and the choice by masks: a branch on u.x
    // would put them after it)
    const __m128 inv = _mm_cvtpd_ps(_mm_div_pd(_mm_set1_pd(len), _mm_setr_pd(x, y)));
    const __m128 abs_u = _mm_andnot_ps(_mm_set1_ps(-0.0f), _mm_setr_ps(r->u.x, r->u.y, 0.0f, 0.0f));
    const __m128 big = _mm_cmpgt_ps(abs_u, _mm_set1_ps(1e-30f));
    float v[4];
    _mm_storeu_ps(v, _mm_or_ps(_mm_and_ps(big, inv), _mm_andnot_ps(big, _mm_set1_ps(1e30f))));
    r->inv_x = v[0], r->inv_y = v[1];
#else
    r->inv_x = steer_absf(r->u.x) > 1e-30f ? (float)(len / x) : 1e30f;
    r->inv_y = steer_absf(r->u.y) > 1e-30f ? (float)(len / y) : 1e30f;
#endif
    return true;
}

static void init_state(cast_state *c, steer_vec2 origin, const unit_dir *d, float radius, float max,
                       const geo_filter *filter)
{
    c->ray = (geo_ray){.origin = origin, .dir = d->u, .inv_x = d->inv_x, .inv_y = d->inv_y, .radius = radius};
    c->clip = max;
    c->filter = *filter;
    c->best_s = INFINITY;
    c->best_key = KEY_NONE;
    c->best_n = steer_v2(0.0f, 0.0f);
    c->low_s = -INFINITY;
    c->low_key = 0;
    c->best_box = NULL;
}

/* ---- agents ------------------------------------------------------------------------ */

// Largest agent radius. Limits cannot change during a step, so the value is
// cached for the step; outside a step it is recomputed (O(N)).
static float max_agent_radius(steer_world *w)
{
    struct steer_geometry *g = w->geometry;
    if (g != NULL && w->stepping && g->radius_valid && g->radius_step == w->steps) return g->max_radius;
    float r = 0.0f;
    for (int i = 0; i < w->count; ++i) r = steer_maxf(r, w->limits[i].radius);
    if (g != NULL && w->stepping) g->max_radius = r, g->radius_step = w->steps, g->radius_valid = true;
    return r;
}

void steer__raycast_prepare(steer_world *w)
{
    if (w->geometry == NULL) return;
    steer__geometry_ready(w);
    if (w->stepping) max_agent_radius(w);
}

// Agents as discs, through the neighbour grid: the buckets covering a disc
// around the ray, grown by the largest radius. The disc is computed in
// double and clamped to the float range: a max_distance up to FLT_MAX reaches
// every agent along the ray, and the window's centre and radius stay finite
// (an infinite pair would give inf - inf = NaN cells). Clamping the centre
// only widens the window over the float range.
static inline float clamp_float(double v) { return (float)(v > FLT_MAX ? FLT_MAX : (v < -FLT_MAX ? -FLT_MAX : v)); }

static void cast_agents(steer_world *w, cast_state *c, int ignore)
{
    steer__grid_update(w);
    const neighbour_grid *g = &w->grid;
    if (g->count == 0) return;
    double half = 0.5 * (double)c->clip;
    steer_vec2 mid = steer_v2(clamp_float(c->ray.origin.x + c->ray.dir.x * half),
                              clamp_float(c->ray.origin.y + c->ray.dir.y * half));
    grid_cursor cur;
    uint32_t begin, end;
    steer__grid_cursor_init(g, &cur, mid, clamp_float(half + max_agent_radius(w)));
    while (steer__grid_cursor_next(&cur, &begin, &end)) {
        for (uint32_t k = begin; k < end; ++k) {
            int a = (int)g->agent[k];
            float r = w->limits[a].radius;
            if (a == ignore || r <= 0.0f) continue;
            const agent_filter *af = &w->filter[a];
            if ((af->layer & c->filter.mask) == 0 ||
                !steer__extents_meet(c->filter.z, c->filter.top, af->z, af->z + af->height))
                continue;
            float s;
            steer_vec2 n;
            if (steer__ray_circle(c->ray.origin, c->ray.dir, limit_of(c), steer_v2(g->x[k], g->y[k]), r, &s, &n)) {
                offer(c, s, KEY_AGENT | w->slot_of[a], n);
            }
        }
    }
}

/* ---- queries ---------------------------------------------------------------------------- */

// The closest hit as a result: a shape's id from the geometry, an agent's
// from the world's slots (NULL when no agent was cast against).
static bool finish(const steer_world *w, const struct steer_geometry *g, const cast_state *c, steer_ray_hit *hit)
{
    if (c->best_key == KEY_NONE) return false;
    hit->distance = c->best_s;
    hit->normal = c->best_n;
    if (c->best_box != NULL) {
        // the closest box of the grid walk: its entry again, for the side
        const steer_vec2 u = c->ray.dir;
#if defined(__SSE2__)
        if ((u.x != 0.0f) & (u.y != 0.0f)) {
            hit->normal = box_normal_oblique(c->ray.origin, u, c->best_box->d);
        } else
#endif
        {
            float s;
            int side;
            box_entry(c->ray.origin, u, c->best_box->d, &s, &side);
            hit->normal = box_normal(u, side);
        }
    }
    hit->point = steer_mul_add(c->ray.origin, c->ray.dir, c->best_s);
    hit->shape = steer_null_shape;
    hit->agent = steer_null_agent;
    if (c->best_key & KEY_AGENT) {
        uint32_t slot = (uint32_t)(c->best_key & 0xFFFFFFFFu);
        hit->agent = (steer_agent_id){slot + 1, w->slots[slot].generation};
    } else {
        uint32_t slot = (uint32_t)(c->best_key >> 24);
        hit->shape = (steer_shape_id){slot + 1, g->slots[slot].generation};
        // a swept circle touches the shape one radius short of its centre
        if (c->ray.radius > 0.0f) hit->point = steer_mul_add(hit->point, hit->normal, -c->ray.radius);
    }
    return true;
}

// The shapes of a ready geometry (or NULL).
static void cast_shapes(const struct steer_geometry *g, cast_state *c)
{
    if (g == NULL || g->tree.leaf_count == 0) return;
    if (g->use_grid && c->ray.radius == 0.0f) {
        cast_grid(g, c);
        cast_tree(g, &g->large, c);
    } else {
        cast_tree(g, &g->tree, c);
    }
}

static void run_query(steer_world *w, cast_state *c, const steer_ray_filter *f)
{
    cast_shapes(steer__geometry_ready(w), c);
    if (f != NULL && f->include_agents) cast_agents(w, c, steer__store_dense(w, f->ignore));
}

// The shapes' side of a ray filter (the band checked by check_ray).
static geo_filter shape_filter(const steer_ray_filter *f) { return (geo_filter){f->mask, f->z_min, f->z_max}; }

static bool check_ray(const steer_world *w, steer_vec2 origin, steer_vec2 direction, float max_distance,
                      const steer_ray_filter *filter)
{
    if (!STEER_CHECK(w != NULL)) return false;
    if (!STEER_CHECK(filter == NULL || filter->z_min <= filter->z_max)) return false;
    if (!STEER_CHECK(steer_vec2_is_finite(origin) && steer_vec2_is_finite(direction))) return false;
    return STEER_CHECK(isfinite(max_distance) && max_distance >= 0.0f);
}

bool steer_world_raycast(steer_world *w, steer_vec2 origin, steer_vec2 direction, float max_distance,
                         const steer_ray_filter *filter, steer_ray_hit *hit)
{
    if (!STEER_CHECK(hit != NULL)) return false;
    memset(hit, 0, sizeof *hit);
    if (!check_ray(w, origin, direction, max_distance, filter)) return false;
    unit_dir u;
    if (!unit_of(direction, &u)) return false; // zero direction: no ray
    steer_ray_filter f = filter != NULL ? *filter : steer_default_ray_filter();
    const geo_filter shapes = shape_filter(&f);
    cast_state c;
    init_state(&c, origin, &u, 0.0f, max_distance, &shapes);
    run_query(w, &c, &f);
    return finish(w, w->geometry, &c, hit);
}

void steer_world_raycast_all(steer_world *w, steer_vec2 origin, steer_vec2 direction, float max_distance,
                             const steer_ray_filter *filter, steer_ray_fn *fn, void *context)
{
    if (!STEER_CHECK(fn != NULL)) return;
    if (!check_ray(w, origin, direction, max_distance, filter)) return;
    unit_dir u;
    if (!unit_of(direction, &u)) return;
    steer_ray_filter f = filter != NULL ? *filter : steer_default_ray_filter();
    const geo_filter shapes = shape_filter(&f);
    float clip = max_distance, low_s = -INFINITY;
    uint64_t low_key = 0;
    steer_shape_id last_shape = steer_null_shape;
    float last_distance = -1.0f;
    for (;;) {
        // the next hit in (distance, key) order: a closest-hit query above
        // the last one, so no buffer and no allocation
        cast_state c;
        init_state(&c, origin, &u, 0.0f, clip, &shapes);
        c.low_s = low_s, c.low_key = low_key;
        run_query(w, &c, &f);
        steer_ray_hit hit;
        if (!finish(w, w->geometry, &c, &hit)) return;
        low_s = c.best_s, low_key = c.best_key;
        // a polyline's joint is one hit of the shape, not one per link
        bool repeat = !steer_shape_id_is_null(hit.shape) && steer_shape_id_equal(hit.shape, last_shape) &&
                      hit.distance == last_distance;
        last_shape = hit.shape, last_distance = hit.distance;
        if (repeat) continue;
        float r = fn(&hit, context);
        if (!STEER_CHECK(!isnan(r)) || r == 0.0f) return;
        if (r > 0.0f) clip = steer_minf(clip, r);
    }
}

bool steer__raycast_shapes(const struct steer_geometry *g, steer_vec2 origin, steer_vec2 direction, float radius,
                           float max_distance, const geo_filter *filter, steer_ray_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    unit_dir u;
    if (!unit_of(direction, &u)) return false;
    cast_state c;
    init_state(&c, origin, &u, radius, max_distance, filter);
    cast_shapes(g, &c);
    return finish(NULL, g, &c, hit);
}

bool steer__raycast_brute(steer_world *w, steer_vec2 origin, steer_vec2 direction, float max_distance,
                          const geo_filter *filter, steer_ray_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    unit_dir u;
    const struct steer_geometry *g = w->geometry;
    if (g == NULL || !unit_of(direction, &u)) return false;
    cast_state c;
    init_state(&c, origin, &u, 0.0f, max_distance, filter);
    for (int i = 0; i < g->src_count; ++i) {
        const geo_prim *p = &g->src[i];
        if (p->dead || !geo_prim_passes(p, filter)) continue;
        float s;
        steer_vec2 n;
        if (steer__raycast_prim(g, p, &c.ray, limit_of(&c), &s, &n)) offer(&c, s, prim_key(p), n);
    }
    return finish(w, w->geometry, &c, hit);
}
