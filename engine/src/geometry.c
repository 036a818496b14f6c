// geometry.c: static shapes, their generation-checked handles, and the
// broadphase (a bounding-volume hierarchy over the shapes' parts).
//
// Broadphase choice (measured with `steer-bench rays`, see docs/geometry.md):
// a static BVH built with binned SAH (perimeter cost, the 2D surface area
// heuristic), 2 to 4 parts a leaf, traversed front to back. It needs no world
// bounds, keeps long walls as one part per link, and a rebuild is O(P log P);
// shapes change between steps, rarely, so the tree is rebuilt lazily on the
// first query after a change.
#include "geometry.h"
#include "world.h"

/// Coordinates and radii are bounded so that squares stay finite.
#define GEO_MAX_COORD STEER_MAX_COORDINATE
/// Parts of one shape (a polyline's links), so a part index fits 24 bits.
#define GEO_MAX_PARTS (1 << 24)

enum { BINS = 16, LEAF_MAX = 4, LEAF_FORCED_MAX = 8 };
/// Grid: at most this many cells a side; worlds of fewer parts use the BVH.
enum { GRID_MAX_SIDE = 4096, GRID_MIN_PARTS = 32 };

/* ---- storage ------------------------------------------------------------------ */

static struct steer_geometry *geometry_of(steer_world *w)
{
    if (w->geometry != NULL) return w->geometry;
    struct steer_geometry *g = steer__alloc(sizeof *g);
    if (g == NULL) return NULL;
    memset(g, 0, sizeof *g);
    w->geometry = g;
    return g;
}

void steer__geometry_destroy(struct steer_geometry *g)
{
    if (g == NULL) return;
    steer__free(g->slots);
    steer__free(g->src);
    steer__free(g->verts);
    steer__free(g->normals);
    steer__free(g->tree.leaf);
    steer__free(g->tree.nodes);
    steer__free(g->large.leaf);
    steer__free(g->large.nodes);
    steer__free(g->order);
    steer__free(g->bounds);
    steer__free(g->cell_start);
    steer__free(g->items);
    steer__free(g->item_box);
    steer__free(g);
}

static bool grow(void **p, size_t item, int *capacity, int need)
{
    if (need <= *capacity) return true;
    int cap = *capacity > 0 ? *capacity : 16;
    while (cap < need) cap *= 2;
    if (!steer__grow(p, item, (size_t)cap)) return false;
    *capacity = cap;
    return true;
}

static bool bvh_reserve(geo_bvh *b, int cap)
{
    void *leaf = steer__realloc(b->leaf, sizeof *b->leaf * (size_t)cap);
    if (leaf == NULL) return false;
    b->leaf = leaf;
    void *nodes = steer__realloc(b->nodes, sizeof *b->nodes * (size_t)(2 * cap));
    if (nodes == NULL) return false;
    b->nodes = nodes;
    return true;
}

static bool grid_reserve(struct steer_geometry *g, int cells, int items)
{
    if (cells > g->cell_capacity) {
        void *p = steer__realloc(g->cell_start, sizeof *g->cell_start * (size_t)(cells + 1));
        if (p == NULL) return false;
        g->cell_start = p;
        g->cell_capacity = cells;
    }
    if (items > g->item_capacity) {
        void *p = steer__realloc(g->items, sizeof *g->items * (size_t)items);
        if (p == NULL) return false;
        g->items = p;
        if ((p = steer__realloc(g->item_box, sizeof *g->item_box * 4 * (size_t)items)) == NULL) return false;
        g->item_box = p;
        g->item_capacity = items;
    }
    return true;
}

// Reserve everything a shape of `parts` parts and `verts` vertices needs,
// the rebuild's arrays included, so that no query ever allocates.
static bool reserve(struct steer_geometry *g, int parts, int verts)
{
    if (!STEER_CHECK(parts <= INT32_MAX / 4 - g->src_count)) return false;
    int need = g->src_count + parts;
    if (!grow((void **)&g->src, sizeof *g->src, &g->src_capacity, need)) return false;
    if (need > g->build_capacity) {
        int cap = g->src_capacity;
        if (!bvh_reserve(&g->tree, cap) || !bvh_reserve(&g->large, cap)) return false;
        void *order = steer__realloc(g->order, sizeof *g->order * (size_t)cap);
        if (order == NULL) return false;
        g->order = order;
        void *bounds = steer__realloc(g->bounds, sizeof *g->bounds * 4 * (size_t)cap);
        if (bounds == NULL) return false;
        g->bounds = bounds;
        g->build_capacity = cap;
        // the grid's usual needs (about 2 cells and 2 to 4 cell entries a
        // part); a rebuild during a step never allocates, it does without
        if (!grid_reserve(g, 2 * cap + 2 * GRID_MAX_SIDE + 1, 4 * cap)) return false;
    }
    if (verts > 0) {
        int vcap = g->vert_capacity;
        if (!grow((void **)&g->verts, sizeof *g->verts, &vcap, g->vert_count + verts)) return false;
        int ncap = g->vert_capacity;
        if (!grow((void **)&g->normals, sizeof *g->normals, &ncap, g->vert_count + verts)) return false;
        g->vert_capacity = vcap < ncap ? vcap : ncap;
    }
    if (g->free_slot == 0 && g->slot_count == g->slot_capacity) {
        if (!grow((void **)&g->slots, sizeof *g->slots, &g->slot_capacity, g->slot_count + 1)) return false;
    }
    return true;
}

// Take a slot for a new shape whose parts start at src_count.
static steer_shape_id new_shape(struct steer_geometry *g, steer_shape_type type, int parts)
{
    uint32_t s;
    if (g->free_slot != 0) {
        s = g->free_slot - 1;
        g->free_slot = g->slots[s].next_free;
    } else {
        s = (uint32_t)g->slot_count++;
        g->slots[s].generation = 1;
    }
    geo_slot *slot = &g->slots[s];
    slot->first = (uint32_t)g->src_count;
    slot->count = (uint32_t)parts;
    slot->next_free = 0;
    slot->category = 1;
    slot->z = slot->height = 0.0f;
    slot->type = (uint8_t)type;
    slot->alive = true;
    ++g->shape_count;
    g->dirty = true;
    return (steer_shape_id){s + 1, slot->generation};
}

static geo_prim *new_part(struct steer_geometry *g, uint32_t shape, uint32_t part, int type)
{
    geo_prim *p = &g->src[g->src_count++];
    memset(p, 0, sizeof *p);
    p->type = (uint8_t)type;
    p->category = 1;
    p->shape = shape;
    p->part = part;
    return p;
}

static void set_segment(geo_prim *p, steer_vec2 a, steer_vec2 b)
{
    steer_vec2 n = steer_normalize(steer_perp(steer_sub(b, a)));
    p->d[0] = a.x, p->d[1] = a.y, p->d[2] = b.x, p->d[3] = b.y, p->d[4] = n.x, p->d[5] = n.y;
}

/* ---- validation --------------------------------------------------------------- */

static bool point_ok(steer_vec2 p)
{
    return steer_vec2_is_finite(p) && steer_absf(p.x) <= GEO_MAX_COORD && steer_absf(p.y) <= GEO_MAX_COORD;
}

static bool can_edit(const steer_world *w)
{
    return STEER_CHECK(w != NULL) && STEER_CHECK(!w->stepping);
}

// Convex with a consistent winding and no three collinear points: every
// vertex strictly on the inner side of every edge (also rejects stars).
static bool polygon_is_convex(const steer_vec2 *v, int n, float *winding)
{
    float sign = 0.0f;
    for (int i = 0; i < n; ++i) {
        steer_vec2 a = v[i], e = steer_sub(v[(i + 1) % n], a);
        for (int j = 0; j < n; ++j) {
            if (j == i || j == (i + 1) % n) continue;
            float c = steer_cross(e, steer_sub(v[j], a));
            if (c == 0.0f) return false;
            if (sign == 0.0f) sign = c > 0.0f ? 1.0f : -1.0f;
            if (c * sign < 0.0f) return false;
        }
    }
    *winding = sign;
    return true;
}

bool steer_polygon_is_valid(const steer_vec2 *points, int count)
{
    if (points == NULL || count < 3 || count > STEER_MAX_POLYGON_VERTICES) return false;
    for (int i = 0; i < count; ++i) {
        if (!point_ok(points[i])) return false;
    }
    float winding;
    return polygon_is_convex(points, count, &winding);
}

/* ---- shapes ------------------------------------------------------------------- */

steer_shape_id steer_world_add_segment(steer_world *w, steer_vec2 a, steer_vec2 b)
{
    if (!can_edit(w)) return steer_null_shape;
    if (!STEER_CHECK(point_ok(a) && point_ok(b))) return steer_null_shape;
    if (!STEER_CHECK(a.x != b.x || a.y != b.y)) return steer_null_shape;
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, 1, 0)) return steer_null_shape;
    steer_shape_id id = new_shape(g, STEER_SHAPE_SEGMENT, 1);
    set_segment(new_part(g, id.index - 1, 0, PRIM_SEGMENT), a, b);
    return id;
}

steer_shape_id steer_world_add_polyline(steer_world *w, const steer_vec2 *points, int count, bool loop)
{
    if (!can_edit(w)) return steer_null_shape;
    if (!STEER_CHECK(points != NULL && count >= 2 && count < GEO_MAX_PARTS)) return steer_null_shape;
    for (int i = 0; i < count; ++i) {
        if (!STEER_CHECK(point_ok(points[i]))) return steer_null_shape;
        if (i > 0 && !STEER_CHECK(points[i].x != points[i - 1].x || points[i].y != points[i - 1].y))
            return steer_null_shape;
    }
    int links = steer_polyline_link_count(points, count, loop);
    if (!STEER_CHECK(!loop || links >= 3)) return steer_null_shape;
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, links, 0)) return steer_null_shape;
    steer_shape_id id = new_shape(g, STEER_SHAPE_POLYLINE, links);
    for (int i = 0; i < links; ++i) {
        geo_prim *p = new_part(g, id.index - 1, (uint32_t)i, PRIM_SEGMENT);
        set_segment(p, points[i], points[(i + 1) % count]);
    }
    return id;
}

steer_shape_id steer_world_add_circle(steer_world *w, steer_vec2 center, float radius)
{
    if (!can_edit(w)) return steer_null_shape;
    if (!STEER_CHECK(point_ok(center))) return steer_null_shape;
    if (!STEER_CHECK(isfinite(radius) && radius > 0.0f && radius <= GEO_MAX_COORD)) return steer_null_shape;
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, 1, 0)) return steer_null_shape;
    steer_shape_id id = new_shape(g, STEER_SHAPE_CIRCLE, 1);
    geo_prim *p = new_part(g, id.index - 1, 0, PRIM_CIRCLE);
    p->d[0] = center.x, p->d[1] = center.y, p->d[2] = radius;
    return id;
}

steer_shape_id steer_world_add_box(steer_world *w, steer_vec2 lower, steer_vec2 upper)
{
    if (!can_edit(w)) return steer_null_shape;
    if (!STEER_CHECK(point_ok(lower) && point_ok(upper))) return steer_null_shape;
    if (!STEER_CHECK(lower.x < upper.x && lower.y < upper.y)) return steer_null_shape;
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, 1, 0)) return steer_null_shape;
    steer_shape_id id = new_shape(g, STEER_SHAPE_BOX, 1);
    geo_prim *p = new_part(g, id.index - 1, 0, PRIM_BOX);
    p->d[0] = lower.x, p->d[1] = lower.y, p->d[2] = upper.x, p->d[3] = upper.y;
    return id;
}

steer_shape_id steer_world_add_polygon(steer_world *w, const steer_vec2 *points, int count)
{
    if (!can_edit(w)) return steer_null_shape;
    if (!STEER_CHECK(steer_polygon_is_valid(points, count))) return steer_null_shape;
    float winding;
    polygon_is_convex(points, count, &winding);
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, 1, count)) return steer_null_shape;
    steer_shape_id id = new_shape(g, STEER_SHAPE_POLYGON, 1);
    geo_prim *p = new_part(g, id.index - 1, 0, PRIM_POLYGON);
    p->first = (uint32_t)g->vert_count;
    p->count = (uint16_t)count;
    // stored counter-clockwise; the outward normal of edge v[i] -> v[i+1] is
    // its right perpendicular
    steer_vec2 *v = &g->verts[g->vert_count];
    for (int i = 0; i < count; ++i) v[i] = winding > 0.0f ? points[i] : points[count - 1 - i];
    for (int i = 0; i < count; ++i) {
        steer_vec2 e = steer_sub(v[(i + 1) % count], v[i]);
        g->normals[g->vert_count + i] = steer_normalize(steer_v2(e.y, -e.x));
    }
    g->vert_count += count;
    return id;
}

struct steer_geometry *steer__geometry_make(steer_world *w, int parts, int verts, int slots)
{
    if (!STEER_CHECK(w->geometry == NULL && parts >= 0 && verts >= 0 && slots >= 0)) return NULL;
    struct steer_geometry *g = geometry_of(w);
    if (g == NULL || !reserve(g, parts > 0 ? parts : 1, verts)) return NULL;
    if (!grow((void **)&g->slots, sizeof *g->slots, &g->slot_capacity, slots > 0 ? slots : 1)) return NULL;
    return g;
}

static geo_slot *slot_of(const steer_world *w, steer_shape_id id)
{
    const struct steer_geometry *g = w != NULL ? w->geometry : NULL;
    if (g == NULL || id.index == 0 || id.index > (uint32_t)g->slot_count) return NULL;
    geo_slot *s = &g->slots[id.index - 1];
    if (!s->alive || s->generation != id.generation) return NULL;
    return s;
}

void steer_shape_destroy(steer_world *w, steer_shape_id id)
{
    geo_slot *s = slot_of(w, id);
    if (s == NULL) return; // stale or null: ignored
    if (!can_edit(w)) return;
    struct steer_geometry *g = w->geometry;
    for (uint32_t k = 0; k < s->count; ++k) g->src[s->first + k].dead = 1;
    g->dead_count += (int)s->count;
    s->alive = false;
    if (++s->generation == 0) s->generation = 1;
    s->next_free = g->free_slot;
    g->free_slot = id.index;
    --g->shape_count;
    g->dirty = true;
}

bool steer_shape_is_valid(const steer_world *w, steer_shape_id id) { return slot_of(w, id) != NULL; }

steer_shape_type steer_shape_get_type(const steer_world *w, steer_shape_id id)
{
    const geo_slot *s = slot_of(w, id);
    if (!STEER_CHECK(s != NULL)) return STEER_SHAPE_SEGMENT;
    return (steer_shape_type)s->type;
}

uint32_t steer_shape_get_category(const steer_world *w, steer_shape_id id)
{
    const geo_slot *s = slot_of(w, id);
    if (!STEER_CHECK(s != NULL)) return 0;
    return s->category;
}

void steer_shape_set_category(steer_world *w, steer_shape_id id, uint32_t category)
{
    geo_slot *s = slot_of(w, id);
    if (!STEER_CHECK(s != NULL)) return;
    if (!can_edit(w)) return;
    struct steer_geometry *g = w->geometry;
    s->category = category;
    for (uint32_t k = 0; k < s->count; ++k) g->src[s->first + k].category = category;
    g->dirty = true;
}

void steer_shape_set_extent(steer_world *w, steer_shape_id id, float z, float height)
{
    geo_slot *s = slot_of(w, id);
    if (!STEER_CHECK(s != NULL)) return;
    if (!can_edit(w)) return;
    if (!STEER_CHECK(isfinite(z) && isfinite(height) && height >= 0.0f)) return;
    struct steer_geometry *g = w->geometry;
    s->z = z;
    s->height = height;
    for (uint32_t k = 0; k < s->count; ++k) {
        g->src[s->first + k].z = z;
        g->src[s->first + k].top = z + height;
    }
    g->dirty = true;
}

void steer_shape_get_extent(const steer_world *w, steer_shape_id id, float *z, float *height)
{
    const geo_slot *s = slot_of(w, id);
    bool live = STEER_CHECK(s != NULL);
    if (z != NULL) *z = live ? s->z : 0.0f;
    if (height != NULL) *height = live ? s->height : 0.0f;
}

int steer_world_shape_count(const steer_world *w)
{
    if (!STEER_CHECK(w != NULL)) return 0;
    return w->geometry != NULL ? w->geometry->shape_count : 0;
}

/* ---- the hierarchy ------------------------------------------------------------- */

// Drop the parts and polygon vertices of removed shapes. Parts stay in
// insertion order and polygons' vertices were appended in the same order, so
// moving both down in one pass is safe.
static void compact(struct steer_geometry *g)
{
    int write = 0, vwrite = 0;
    for (int i = 0; i < g->src_count; ++i) {
        geo_prim p = g->src[i];
        if (p.dead) continue;
        if (p.part == 0) g->slots[p.shape].first = (uint32_t)write;
        if (p.type == PRIM_POLYGON) {
            memmove(&g->verts[vwrite], &g->verts[p.first], sizeof *g->verts * p.count);
            memmove(&g->normals[vwrite], &g->normals[p.first], sizeof *g->normals * p.count);
            p.first = (uint32_t)vwrite;
            vwrite += p.count;
        }
        g->src[write++] = p;
    }
    g->src_count = write;
    g->vert_count = vwrite;
    g->dead_count = 0;
}

// Bounds of a part, fattened by a small relative margin so that the node
// tests stay conservative under rounding (grazing rays, axis-aligned walls).
static void prim_bounds(const struct steer_geometry *g, const geo_prim *p, float *b)
{
    float lx, ly, ux, uy;
    switch (p->type) {
    case PRIM_SEGMENT:
        lx = steer_minf(p->d[0], p->d[2]), ux = steer_maxf(p->d[0], p->d[2]);
        ly = steer_minf(p->d[1], p->d[3]), uy = steer_maxf(p->d[1], p->d[3]);
        break;
    case PRIM_CIRCLE:
        lx = p->d[0] - p->d[2], ux = p->d[0] + p->d[2];
        ly = p->d[1] - p->d[2], uy = p->d[1] + p->d[2];
        break;
    case PRIM_BOX: lx = p->d[0], ly = p->d[1], ux = p->d[2], uy = p->d[3]; break;
    default: {
        const steer_vec2 *v = &g->verts[p->first];
        lx = ux = v[0].x, ly = uy = v[0].y;
        for (int i = 1; i < p->count; ++i) {
            lx = steer_minf(lx, v[i].x), ux = steer_maxf(ux, v[i].x);
            ly = steer_minf(ly, v[i].y), uy = steer_maxf(uy, v[i].y);
        }
    }
    }
    float big = steer_maxf(steer_maxf(steer_absf(lx), steer_absf(ux)), steer_maxf(steer_absf(ly), steer_absf(uy)));
    float m = 4.0e-6f * (1.0f + big);
    b[0] = lx - m, b[1] = ly - m, b[2] = ux + m, b[3] = uy + m;
}

static inline float centroid(const float *b, int axis) { return 0.5f * (b[axis] + b[axis + 2]); }
static inline float perimeter(float lx, float ly, float ux, float uy) { return (ux - lx) + (uy - ly); }

// Split [begin, end) of g->order; returns the split point, or begin when a
// leaf is best.
static int split(struct steer_geometry *g, int begin, int end, int depth, float node_cost)
{
    const float *bounds = g->bounds;
    uint32_t *order = g->order;
    int n = end - begin;
    if (n <= 2) return begin;
    float cl[2] = {INFINITY, INFINITY}, cu[2] = {-INFINITY, -INFINITY};
    for (int i = begin; i < end; ++i) {
        const float *b = &bounds[4 * order[i]];
        for (int a = 0; a < 2; ++a) {
            float c = centroid(b, a);
            cl[a] = steer_minf(cl[a], c), cu[a] = steer_maxf(cu[a], c);
        }
    }
    int axis = (cu[0] - cl[0]) >= (cu[1] - cl[1]) ? 0 : 1;
    float extent = cu[axis] - cl[axis];
    if (extent <= 0.0f || depth >= GEO_MAX_DEPTH - 40) {
        // degenerate or too deep: halve by count, which bounds the depth
        if (n <= LEAF_FORCED_MAX && extent <= 0.0f) return begin;
        return begin + n / 2;
    }
    // binned SAH with the perimeter as cost (2D)
    int count[BINS] = {0};
    float bl[BINS][4];
    for (int k = 0; k < BINS; ++k) bl[k][0] = bl[k][1] = INFINITY, bl[k][2] = bl[k][3] = -INFINITY;
    float scale = (float)BINS / extent;
    for (int i = begin; i < end; ++i) {
        const float *b = &bounds[4 * order[i]];
        int k = (int)((centroid(b, axis) - cl[axis]) * scale);
        if (k >= BINS) k = BINS - 1;
        ++count[k];
        bl[k][0] = steer_minf(bl[k][0], b[0]), bl[k][1] = steer_minf(bl[k][1], b[1]);
        bl[k][2] = steer_maxf(bl[k][2], b[2]), bl[k][3] = steer_maxf(bl[k][3], b[3]);
    }
    float right_cost[BINS];
    float r[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    int rn = 0;
    for (int k = BINS - 1; k > 0; --k) {
        rn += count[k];
        r[0] = steer_minf(r[0], bl[k][0]), r[1] = steer_minf(r[1], bl[k][1]);
        r[2] = steer_maxf(r[2], bl[k][2]), r[3] = steer_maxf(r[3], bl[k][3]);
        right_cost[k] = rn > 0 ? (float)rn * perimeter(r[0], r[1], r[2], r[3]) : 0.0f;
    }
    float l[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    int ln = 0, best = -1;
    float best_cost = INFINITY;
    for (int k = 0; k < BINS - 1; ++k) {
        ln += count[k];
        l[0] = steer_minf(l[0], bl[k][0]), l[1] = steer_minf(l[1], bl[k][1]);
        l[2] = steer_maxf(l[2], bl[k][2]), l[3] = steer_maxf(l[3], bl[k][3]);
        if (ln == 0 || ln == n) continue;
        float c = (float)ln * perimeter(l[0], l[1], l[2], l[3]) + right_cost[k + 1];
        if (c < best_cost) best_cost = c, best = k;
    }
    // a leaf when small and no split pays for the extra traversal step
    if (best < 0) return n <= LEAF_FORCED_MAX ? begin : begin + n / 2;
    if (n <= LEAF_MAX && best_cost >= (float)n * node_cost - node_cost) return begin;
    // partition in place by bin
    int i = begin, j = end - 1;
    while (i <= j) {
        int k = (int)((centroid(&bounds[4 * order[i]], axis) - cl[axis]) * scale);
        if (k >= BINS) k = BINS - 1;
        if (k <= best) {
            ++i;
        } else {
            uint32_t t = order[i];
            order[i] = order[j];
            order[j--] = t;
        }
    }
    if (i == begin || i == end) return begin + n / 2;
    return i;
}

static void build_node(struct steer_geometry *g, geo_bvh *t, int ni, int begin, int end, int depth)
{
    geo_node *node = &t->nodes[ni];
    float lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
    for (int i = begin; i < end; ++i) {
        const float *b = &g->bounds[4 * g->order[i]];
        lx = steer_minf(lx, b[0]), ly = steer_minf(ly, b[1]);
        ux = steer_maxf(ux, b[2]), uy = steer_maxf(uy, b[3]);
    }
    node->lx = lx, node->ly = ly, node->ux = ux, node->uy = uy;
    int mid = split(g, begin, end, depth, perimeter(lx, ly, ux, uy));
    if (mid == begin) {
        node->child = begin;
        node->count = end - begin;
        return;
    }
    int left = t->node_count;
    t->node_count += 2;
    node->child = left;
    node->count = 0;
    build_node(g, t, left, begin, mid, depth + 1);
    build_node(g, t, left + 1, mid, end, depth + 1);
}

// A hierarchy over the parts g->order[0 .. n) (src indices, bounds ready).
static void build_bvh(struct steer_geometry *g, geo_bvh *t, int n)
{
    t->node_count = 0;
    t->leaf_count = n;
    if (n > 0) {
        t->node_count = 1;
        build_node(g, t, 0, 0, n, 0);
    }
    // parts in leaf order, for locality during traversal
    for (int i = 0; i < n; ++i) t->leaf[i] = g->src[g->order[i]];
}

// Clamped in float before the conversion, so no bound ever casts an
// out-of-range float to int.
static inline int grid_coord(float v, float origin, float inv_cell, int size)
{
    float c = (v - origin) * inv_cell;
    if (!(c > 0.0f)) return 0;
    return c < (float)(size - 1) ? (int)c : size - 1;
}

// Item k of the grid: part i and its box (geometry.h: item_box).
static void grid_put(struct steer_geometry *g, uint32_t k, int i)
{
    const geo_prim *p = &g->src[i];
    g->items[k] = *p;
    memcpy(&g->item_box[4 * k], p->type == PRIM_BOX ? p->d : &g->bounds[4 * i], 4 * sizeof *g->item_box);
}

// The uniform grid for rays, over the root box with about two cells a part.
// Used only when it pays: enough parts, at most GEO_GRID_LARGE parts wider
// than GEO_GRID_SPAN cells, and cells that hold few parts each (a far
// outlier stretches the box and fills a few cells: then the BVH serves).
static void build_grid(struct steer_geometry *g, bool may_allocate)
{
    g->use_grid = false;
    g->grid_pending = false;
    int n = g->src_count;
    if (n < GRID_MIN_PARTS || g->grid_off) return;
    const geo_node *root = &g->tree.nodes[0];
    float width = root->ux - root->lx, height = root->uy - root->ly;
    float cell = sqrtf(width * height / (2.0f * (float)n));
    cell = steer_maxf(cell, steer_maxf(width, height) / (float)(GRID_MAX_SIDE - 1));
    if (!(cell > 0.0f) || !isfinite(cell)) return;
    g->gx = root->lx, g->gy = root->ly, g->cell = cell, g->inv_cell = 1.0f / cell;
    g->gw = (int)(width * g->inv_cell) + 1, g->gh = (int)(height * g->inv_cell) + 1;
    if (g->gw > GRID_MAX_SIDE) g->gw = GRID_MAX_SIDE;
    if (g->gh > GRID_MAX_SIDE) g->gh = GRID_MAX_SIDE;
    g->gx1 = g->gx + (float)g->gw * g->cell, g->gy1 = g->gy + (float)g->gh * g->cell;
    int cells = g->gw * g->gh;
    // count the entries; the large parts go to their own BVH
    int64_t entries = 0;
    int large = 0;
    for (int i = 0; i < n; ++i) {
        const float *b = &g->bounds[4 * i];
        int x0 = grid_coord(b[0], g->gx, g->inv_cell, g->gw), x1 = grid_coord(b[2], g->gx, g->inv_cell, g->gw);
        int y0 = grid_coord(b[1], g->gy, g->inv_cell, g->gh), y1 = grid_coord(b[3], g->gy, g->inv_cell, g->gh);
        int span = (x1 - x0 + 1) * (y1 - y0 + 1);
        if (span > GEO_GRID_SPAN) g->order[large++] = (uint32_t)i;
        else entries += span;
    }
    if (large > n / 4) return; // mostly large parts: the BVH alone serves
    if (cells > g->cell_capacity || entries > g->item_capacity) {
        if (!may_allocate) {
            g->grid_pending = true;
            return;
        }
        if (entries > INT32_MAX / 2 || !grid_reserve(g, cells, (int)entries)) return;
    }
    uint32_t *start = g->cell_start;
    memset(start, 0, sizeof *start * (size_t)(cells + 1));
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            const float *b = &g->bounds[4 * i];
            int x0 = grid_coord(b[0], g->gx, g->inv_cell, g->gw), x1 = grid_coord(b[2], g->gx, g->inv_cell, g->gw);
            int y0 = grid_coord(b[1], g->gy, g->inv_cell, g->gh), y1 = grid_coord(b[3], g->gy, g->inv_cell, g->gh);
            if ((x1 - x0 + 1) * (y1 - y0 + 1) > GEO_GRID_SPAN) continue;
            for (int y = y0; y <= y1; ++y) {
                for (int x = x0; x <= x1; ++x) {
                    int c = y * g->gw + x;
                    if (pass == 0) ++start[c + 1];
                    else grid_put(g, start[c]++, i);
                }
            }
        }
        // pass 0: prefix sums (start[c] = first entry of cell c); pass 1
        // moved each start to the next cell's: shift back
        if (pass == 0) {
            int busiest = 0, used = 0;
            for (int c = 0; c < cells; ++c) {
                int k = (int)start[c + 1];
                busiest = k > busiest ? k : busiest;
                used += k > 0;
                start[c + 1] += start[c];
            }
            if (busiest > 64 || (int64_t)used * 6 < entries) return; // crowded cells
        } else {
            memmove(start + 1, start, sizeof *start * (size_t)cells);
            start[0] = 0;
        }
    }
    build_bvh(g, &g->large, large);
    g->use_grid = true;
}

static void rebuild(struct steer_geometry *g, bool may_allocate)
{
    if (g->dead_count > 0) compact(g);
    int n = g->src_count;
    for (int i = 0; i < n; ++i) {
        prim_bounds(g, &g->src[i], &g->bounds[4 * i]);
        g->order[i] = (uint32_t)i;
    }
    build_bvh(g, &g->tree, n);
    build_grid(g, may_allocate);
    g->dirty = false;
}

// The rebuild, out of line: every ray cast asks for a ready geometry, and
// with the rebuild inlined its register saves were a dozen instructions of
// each cast.
STEER_NOINLINE static void make_ready(struct steer_geometry *g, bool stepping)
{
    if (g->dirty) {
        rebuild(g, !stepping);
    } else if (g->grid_pending && !stepping) {
        build_grid(g, true);
    }
}

struct steer_geometry *steer__geometry_ready(steer_world *w)
{
    struct steer_geometry *g = w->geometry;
    if (g == NULL) return NULL;
    if (g->dirty | (g->grid_pending & !w->stepping)) make_ready(g, w->stepping);
    return g->tree.leaf_count > 0 ? g : NULL;
}
