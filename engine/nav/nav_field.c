// nav_field.c: flow fields (Emerson, "Crowd Pathfinding and Steering Using
// Flow Field Tiles", Game AI Pro ch. 23: one distance field per goal that
// any number of agents read). The distances come from the fast marching
// method (Sethian): first-order upwind updates of |grad d| = 1 over the
// cells whose centre keeps the radius from every shape (exact distances,
// nav_shape_distance), so the field is close to Euclidean in every direction
// instead of the 8-direction bias of Dijkstra over a grid. One thread, a
// heap with ties broken by cell index: the same bits on every run.
#include "nav_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "steer/steer.h"

struct steer_flow_field {
    steer_flow_field_def def;
    int columns, rows;
    float *distance; ///< per cell; FLT_MAX: blocked or unreachable
};

// An indexed binary heap of cells keyed by their tentative distance: each
// cell is in it at most once (decrease-key), which halves the work of a
// heap of copies. Ties go to the lower cell index, so the order, and the
// bits, never depend on anything but the input.
typedef struct heap_entry {
    float key; ///< the cell's distance when it entered or last moved up
    int cell;
} heap_entry;

typedef struct cell_heap {
    heap_entry *entries; ///< heap order
    int *position;       ///< cell -> place in entries, -1 when absent
    int count;
} cell_heap;

static bool entry_less(heap_entry a, heap_entry b)
{
    return a.key < b.key || (a.key == b.key && a.cell < b.cell);
}

static void sift_up(cell_heap *h, int i, heap_entry e)
{
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!entry_less(e, h->entries[parent])) break;
        h->entries[i] = h->entries[parent];
        h->position[h->entries[i].cell] = i;
        i = parent;
    }
    h->entries[i] = e;
    h->position[e.cell] = i;
}

// Insert a cell, or move it up after its key decreased.
static void heap_update(cell_heap *h, int cell, float key)
{
    int i = h->position[cell];
    if (i < 0) i = h->count++;
    sift_up(h, i, (heap_entry){key, cell});
}

static int heap_pop(cell_heap *h)
{
    int top = h->entries[0].cell;
    heap_entry last = h->entries[--h->count];
    h->position[top] = -1;
    if (h->count == 0) return top;
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= h->count) break;
        if (child + 1 < h->count && entry_less(h->entries[child + 1], h->entries[child])) ++child;
        if (!entry_less(h->entries[child], last)) break;
        h->entries[i] = h->entries[child];
        h->position[h->entries[i].cell] = i;
        i = child;
    }
    h->entries[i] = last;
    h->position[last.cell] = i;
    return top;
}

// The upwind solution at a cell from its accepted neighbours' smallest
// values along x (a) and y (b): (d - a)^2 + (d - b)^2 = h^2, or d = min + h.
static float solve(float a, float b, float h)
{
    if (a > b) {
        float t = a;
        a = b;
        b = t;
    }
    if (a == FLT_MAX) return FLT_MAX;
    if (b == FLT_MAX || b - a >= h) return a + h;
    double s = (double)a + b, d = (double)a - b;
    return (float)(0.5 * (s + sqrt(2.0 * (double)h * h - d * d)));
}

steer_flow_field *steer_nav_flow_field(const steer_nav *nav, const steer_flow_field_def *def,
                                       steer_nav_result *result)
{
    return steer_nav_flow_field_masked(nav, def, STEER_ALL_LAYERS, result);
}

steer_flow_field *steer_nav_flow_field_masked(const steer_nav *nav, const steer_flow_field_def *def, uint32_t mask,
                                              steer_nav_result *result)
{
    steer_nav_result scratch;
    if (!result) result = &scratch;
    if (!nav || !def) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "no navigation or no definition");
        return NULL;
    }
    steer_flow_field_def d = *def;
    if (!nav_point_ok(d.goal) || !nav_point_ok(d.lower) || !nav_point_ok(d.upper)) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "goal and bounds must be finite, within %g m of the origin",
                 (double)STEER_NAV_MAX_COORDINATE);
        return NULL;
    }
    if (!(d.radius > 0.0f && d.radius <= STEER_NAV_MAX_RADIUS)) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "radius must be in (0, %g], got %g", (double)STEER_NAV_MAX_RADIUS,
                 (double)d.radius);
        return NULL;
    }
    if (!(d.cell > 0.0f && d.cell <= 1000.0f)) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "cell must be in (0, 1000], got %g", (double)d.cell);
        return NULL;
    }
    if (!(d.lower.x < d.upper.x && d.lower.y < d.upper.y)) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "bounds need x1 < x2 and y1 < y2");
        return NULL;
    }
    if (d.goal.x < d.lower.x || d.goal.x > d.upper.x || d.goal.y < d.lower.y || d.goal.y > d.upper.y) {
        nav_fail(result, STEER_NAV_OUTSIDE, "goal (%g, %g) is outside the field's bounds", (double)d.goal.x,
                 (double)d.goal.y);
        return NULL;
    }
    // a box within a float's rounding (1e-6 relative) of a whole number of cells is that number
    double cols = ((double)d.upper.x - d.lower.x) / d.cell, rows = ((double)d.upper.y - d.lower.y) / d.cell;
    cols = ceil(cols - cols * 1e-6 - 1e-9);
    rows = ceil(rows - rows * 1e-6 - 1e-9);
    if (cols < 1.0) cols = 1.0;
    if (rows < 1.0) rows = 1.0;
    if (cols * rows > (double)STEER_FLOW_FIELD_MAX_CELLS) {
        nav_fail(result, STEER_NAV_TOO_LARGE, "a field of %.0f x %.0f cells is more than the %d cells allowed",
                 cols, rows, STEER_FLOW_FIELD_MAX_CELLS);
        return NULL;
    }
    if (steer_nav_clearance_masked(nav, d.goal, mask) < d.radius) {
        nav_fail(result, STEER_NAV_BLOCKED, "goal (%g, %g) is inside a shape or closer than %g to one",
                 (double)d.goal.x, (double)d.goal.y, (double)d.radius);
        return NULL;
    }
    int nc = (int)cols, nr = (int)rows, n = nc * nr;
    steer_flow_field *f = (steer_flow_field *)steer_alloc(sizeof *f);
    float *dist = (float *)steer_alloc((size_t)n * sizeof *dist);
    unsigned char *state = (unsigned char *)steer_alloc((size_t)n); // 0 free, 1 blocked, 2 accepted
    heap_entry *heap_cells = (heap_entry *)steer_alloc((size_t)n * sizeof *heap_cells);
    int *heap_position = (int *)steer_alloc((size_t)n * sizeof *heap_position);
    if (!f || !dist || !state || !heap_cells || !heap_position) {
        steer_free(f), steer_free(dist), steer_free(state), steer_free(heap_cells), steer_free(heap_position);
        nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory for %d cells", n);
        return NULL;
    }
    f->def = d, f->columns = nc, f->rows = nr, f->distance = dist;
    for (int i = 0; i < n; ++i) dist[i] = FLT_MAX, heap_position[i] = -1;
    memset(state, 0, (size_t)n);
    cell_heap heap = {heap_cells, heap_position, 0};

    // blocked cells: centre closer than radius to a shape (only the cells
    // under each shape's grown box are tested)
    for (int s = 1; s < nav->used; ++s) {
        const nav_shape *shape = &nav->shapes[s];
        if (!shape->type || !(shape->layer & mask)) continue;
        double x0 = floor(((double)shape->lower.x - d.radius - d.lower.x) / d.cell - 0.5);
        double x1 = ceil(((double)shape->upper.x + d.radius - d.lower.x) / d.cell - 0.5);
        double y0 = floor(((double)shape->lower.y - d.radius - d.lower.y) / d.cell - 0.5);
        double y1 = ceil(((double)shape->upper.y + d.radius - d.lower.y) / d.cell - 0.5);
        int i0 = x0 < 0 ? 0 : (int)x0, i1 = x1 >= nc ? nc - 1 : (int)x1;
        int j0 = y0 < 0 ? 0 : (int)y0, j1 = y1 >= nr ? nr - 1 : (int)y1;
        if (x1 < 0 || y1 < 0 || x0 >= nc || y0 >= nr) continue;
        for (int j = j0; j <= j1; ++j) {
            for (int i = i0; i <= i1; ++i) {
                if (state[j * nc + i]) continue;
                steer_vec2 c = steer_v2(d.lower.x + ((float)i + 0.5f) * d.cell, d.lower.y + ((float)j + 0.5f) * d.cell);
                if (nav_shape_distance(shape, c) < d.radius) state[j * nc + i] = 1;
            }
        }
    }

    // seeds: the goal's cell and its free neighbours, at their straight distance
    int gi = (int)(((double)d.goal.x - d.lower.x) / d.cell), gj = (int)(((double)d.goal.y - d.lower.y) / d.cell);
    gi = gi >= nc ? nc - 1 : gi, gj = gj >= nr ? nr - 1 : gj;
    for (int j = gj - 1; j <= gj + 1; ++j) {
        for (int i = gi - 1; i <= gi + 1; ++i) {
            if (i < 0 || j < 0 || i >= nc || j >= nr) continue;
            int c = j * nc + i;
            steer_vec2 p = steer_v2(d.lower.x + ((float)i + 0.5f) * d.cell, d.lower.y + ((float)j + 0.5f) * d.cell);
            if (state[c] == 1 && c != gj * nc + gi) continue;
            if (!nav_segment_is_clear(nav, d.goal, p, d.radius, mask) && c != gj * nc + gi) continue;
            state[c] = 0;
            dist[c] = (float)hypot((double)p.x - d.goal.x, (double)p.y - d.goal.y);
            heap_update(&heap, c, dist[c]);
        }
    }
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    while (heap.count > 0) {
        int top = heap_pop(&heap);
        state[top] = 2;
        int ci = top % nc, cj = top / nc;
        for (int k = 0; k < 4; ++k) {
            int i = ci + dx[k], j = cj + dy[k];
            if (i < 0 || j < 0 || i >= nc || j >= nr) continue;
            int c = j * nc + i;
            if (state[c] != 0) continue;
            // smallest accepted neighbour along each axis
            float a = FLT_MAX, b = FLT_MAX;
            if (i > 0 && state[c - 1] == 2) a = dist[c - 1];
            if (i + 1 < nc && state[c + 1] == 2 && dist[c + 1] < a) a = dist[c + 1];
            if (j > 0 && state[c - nc] == 2) b = dist[c - nc];
            if (j + 1 < nr && state[c + nc] == 2 && dist[c + nc] < b) b = dist[c + nc];
            float v = solve(a, b, d.cell);
            if (v < dist[c]) {
                dist[c] = v;
                heap_update(&heap, c, dist[c]);
            }
        }
    }
    for (int i = 0; i < n; ++i)
        if (state[i] != 2) dist[i] = FLT_MAX;
    steer_free(state);
    steer_free(heap_cells);
    steer_free(heap_position);
    memset(result, 0, sizeof *result);
    result->status = STEER_NAV_OK;
    result->count = n;
    return f;
}

void steer_flow_field_destroy(steer_flow_field *f)
{
    if (!f) return;
    steer_free(f->distance);
    steer_free(f);
}

// The four cell centres round p, with p's place between them. False when p
// is outside the grid.
static bool corners(const steer_flow_field *f, steer_vec2 p, int *i, int *j, float *fx, float *fy, float v[4])
{
    if (!isfinite(p.x) || !isfinite(p.y)) return false;
    double x = ((double)p.x - f->def.lower.x) / f->def.cell - 0.5;
    double y = ((double)p.y - f->def.lower.y) / f->def.cell - 0.5;
    if (x < -0.5 || y < -0.5 || x > f->columns - 0.5 || y > f->rows - 0.5) return false;
    double x0 = floor(x), y0 = floor(y);
    *fx = (float)(x - x0), *fy = (float)(y - y0);
    *i = (int)x0, *j = (int)y0;
    int nc = f->columns, nr = f->rows;
    for (int k = 0; k < 4; ++k) {
        int ci = *i + (k & 1), cj = *j + (k >> 1);
        ci = ci < 0 ? 0 : (ci >= nc ? nc - 1 : ci);
        cj = cj < 0 ? 0 : (cj >= nr ? nr - 1 : cj);
        v[k] = f->distance[cj * nc + ci];
    }
    // a blocked corner counts as one cell further than the worst free one,
    // so the slope leads away from walls
    float worst = -1.0f;
    for (int k = 0; k < 4; ++k)
        if (v[k] != FLT_MAX && v[k] > worst) worst = v[k];
    if (worst < 0.0f) return false;
    for (int k = 0; k < 4; ++k)
        if (v[k] == FLT_MAX) v[k] = worst + f->def.cell;
    return true;
}

float steer_flow_field_distance(const steer_flow_field *f, steer_vec2 p)
{
    int i, j;
    float fx, fy, v[4];
    if (!f || !corners(f, p, &i, &j, &fx, &fy, v)) return FLT_MAX;
    return (1.0f - fy) * ((1.0f - fx) * v[0] + fx * v[1]) + fy * ((1.0f - fx) * v[2] + fx * v[3]);
}

steer_vec2 steer_flow_field_direction(const steer_flow_field *f, steer_vec2 p)
{
    int i, j;
    float fx, fy, v[4];
    if (!f || !corners(f, p, &i, &j, &fx, &fy, v)) return steer_v2(0.0f, 0.0f);
    // near the goal: straight at it
    steer_vec2 to_goal = steer_sub(f->def.goal, p);
    float near = 1.5f * f->def.cell;
    if (to_goal.x * to_goal.x + to_goal.y * to_goal.y <= near * near) {
        float len = sqrtf(to_goal.x * to_goal.x + to_goal.y * to_goal.y);
        return len > 0.0f ? steer_v2(to_goal.x / len, to_goal.y / len) : steer_v2(0.0f, 0.0f);
    }
    float gx = (1.0f - fy) * (v[1] - v[0]) + fy * (v[3] - v[2]);
    float gy = (1.0f - fx) * (v[2] - v[0]) + fx * (v[3] - v[1]);
    float len = sqrtf(gx * gx + gy * gy);
    return len > 0.0f ? steer_v2(-gx / len, -gy / len) : steer_v2(0.0f, 0.0f);
}

void steer_flow_field_grid(const steer_flow_field *f, int *columns, int *rows, float *cell, steer_vec2 *lower)
{
    if (columns) *columns = f ? f->columns : 0;
    if (rows) *rows = f ? f->rows : 0;
    if (cell) *cell = f ? f->def.cell : 0.0f;
    if (lower) *lower = f ? f->def.lower : steer_v2(0.0f, 0.0f);
}

steer_flow_field_def steer_flow_field_get_def(const steer_flow_field *f)
{
    steer_flow_field_def d;
    memset(&d, 0, sizeof d);
    return f ? f->def : d;
}

uint64_t steer_flow_field_hash(const steer_flow_field *f)
{
    // FNV-1a over the distance bits
    uint64_t h = 1469598103934665603ull;
    if (!f) return h;
    int n = f->columns * f->rows;
    for (int i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &f->distance[i], sizeof bits);
        for (int k = 0; k < 4; ++k) {
            h ^= (bits >> (8 * k)) & 0xffu;
            h *= 1099511628211ull;
        }
    }
    return h;
}
