// geometry.h: static geometry: shapes made of parts, and the broadphase over
// them, with box queries and closest points. Ray and circle casts over it
// are raycast.h's.
//
// A shape is made of primitives ("parts"): a segment, circle and box are one
// part each, a polyline is one segment per link, a polygon one part. The
// broadphase is a static bounding-volume hierarchy over the parts, rebuilt
// (binned SAH, O(P log P)) on the first query after shapes changed; every
// array it needs is reserved when shapes are added, so a rebuild inside a
// step never allocates.
#ifndef STEER_GEOMETRY_H
#define STEER_GEOMETRY_H

#include <float.h>

#include "core.h"

enum { PRIM_SEGMENT, PRIM_CIRCLE, PRIM_BOX, PRIM_POLYGON };

/// One primitive. Data by type:
/// segment: a = (d0, d1), b = (d2, d3), unit normal (d4, d5) (left of a->b);
/// circle: centre (d0, d1), radius d2; box: lower (d0, d1), upper (d2, d3);
/// polygon: vertices and outward normals at verts[first .. first + count).
typedef struct geo_prim {
    uint8_t type;
    uint8_t dead;      ///< its shape was removed (compacted on rebuild)
    uint16_t count;    ///< polygon: vertex count
    uint32_t category; ///< the shape's layer ("category") bits
    uint32_t shape;    ///< shape slot index
    uint32_t part;     ///< index of the part inside its shape
    uint32_t first;    ///< polygon: first vertex in the pool
    float z, top;      ///< the shape's vertical extent [z, z + height]
    float d[6];
} geo_prim;

/// What a query of the shapes takes: parts whose layer meets mask and whose
/// vertical extent meets [z, top] (an agent's own extent, or a ray
/// filter's band).
typedef struct geo_filter {
    uint32_t mask;
    float z, top;
} geo_filter;

/// Every part (a mask of every layer, a band of every height).
static inline geo_filter geo_filter_all(void) { return (geo_filter){STEER_ALL_LAYERS, -INFINITY, INFINITY}; }

/// The filter of an agent's own view: its mask and its extent.
static inline geo_filter geo_filter_of(const agent_filter *f)
{
    return (geo_filter){f->mask, f->z, f->z + f->height};
}

/// True when the filter takes the part.
static inline bool geo_prim_passes(const geo_prim *p, const geo_filter *f)
{
    return (p->category & f->mask) != 0 && steer__extents_meet(f->z, f->top, p->z, p->top);
}

/// BVH node: a leaf when count > 0 (parts leaf[child .. child + count)),
/// else an inner node whose children are child and child + 1.
typedef struct geo_node {
    float lx, ly, ux, uy;
    int32_t child;
    int32_t count;
} geo_node;

typedef struct geo_slot {
    uint32_t generation;
    uint32_t first, count; ///< parts src[first .. first + count) while alive
    uint32_t next_free;    ///< free list (slot index + 1) while dead
    uint32_t category;
    float z, height; ///< vertical extent (steer_shape_set_extent)
    uint8_t type; ///< steer_shape_type
    bool alive;
} geo_slot;

/// Parts covering more grid cells than this go to the grid's own BVH of
/// large parts.
#define GEO_GRID_SPAN 16

/// A hierarchy and its parts in leaf order.
typedef struct geo_bvh {
    geo_prim *leaf;
    geo_node *nodes;
    int leaf_count, node_count;
} geo_bvh;

struct steer_geometry {
    geo_slot *slots;
    int slot_count, slot_capacity;
    uint32_t free_slot;
    int shape_count;

    geo_prim *src; ///< parts by shape, in insertion order (holes marked dead)
    int src_count, src_capacity, dead_count;
    steer_vec2 *verts, *normals; ///< polygon pool
    int vert_count, vert_capacity;

    geo_bvh tree; ///< every part, valid when !dirty
    // build scratch, reserved with src
    uint32_t *order;
    float *bounds; ///< 4 floats per part
    int build_capacity;
    bool dirty;

    // Uniform grid over the small parts, used by rays when it pays (see
    // build_grid in geometry.c): parts copied in cell order; the large parts
    // in a BVH of their own.
    bool use_grid;
    bool grid_pending; ///< the grid needed memory during a step: retry outside
    bool grid_off;     ///< tests and benchmarks: BVH only
    float gx, gy, cell, inv_cell;
    float gx1, gy1; ///< the far corner: gx + gw * cell, gy + gh * cell (rays clip to it)
    int gw, gh;
    uint32_t *cell_start; ///< gw * gh + 1 entries
    geo_prim *items;
    /// items' boxes, 4 floats each (lx, ly, ux, uy), for the rays' first
    /// test: a box's own d[0..3], any other part's fattened bounds (a ray
    /// that meets the part meets them no later)
    float *item_box;
    int cell_capacity, item_capacity;
    geo_bvh large;

    // largest agent radius, cached for one step (agent casts)
    uint64_t radius_step;
    float max_radius;
    bool radius_valid;
};

/// Depth bound of the hierarchy (forced median splits past it) and of the
/// traversal stacks.
#define GEO_MAX_DEPTH 96

/// Unit vector along (x, y) for any nonzero finite vector of doubles:
/// scaled by its larger component first, so the square neither underflows
/// nor overflows. False (and *u untouched) for zero or non-finite input.
static inline bool geo_unit_d(double x, double y, steer_vec2 *u)
{
    double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    if (!(m > 0.0) || !isfinite(m)) return false;
    double s = 1.0 / m; // finite: m is at least the smallest float denormal
    x *= s, y *= s;
    s = 1.0 / sqrt(x * x + y * y); // the root is in [1, sqrt 2]
    *u = (steer_vec2){(float)(x * s), (float)(y * s)};
    return true;
}

/// Unit vector along v for any nonzero finite float vector, denormal or near
/// FLT_MAX (in float, 1/|v| of a denormal overflows and |v|^2 underflows).
/// In double no scaling is needed for float input: the square of any float
/// component lies in [2e-90, 1.2e77], inside the double range, so the
/// length is exact to double rounding. This is the ray's per-cast
/// normalisation: a square root and two independent divisions, no longer
/// chain than the float code it replaced.
static inline bool geo_unit(steer_vec2 v, steer_vec2 *u)
{
    double x = v.x, y = v.y, len = sqrt(x * x + y * y);
    if (!(len > 0.0) || !(len <= DBL_MAX)) return false; // zero or non-finite
    *u = (steer_vec2){(float)(x / len), (float)(y / len)};
    return true;
}

/// The world's geometry with its hierarchy up to date (NULL when no shapes).
/// The step makes it ready before evaluating; evaluation only reads it.
struct steer_geometry *steer__geometry_ready(steer_world *w);
/// A new, empty geometry for a world that has none, with room for parts,
/// polygon vertices and shape slots (a snapshot's; NULL when memory ran out).
struct steer_geometry *steer__geometry_make(steer_world *w, int parts, int verts, int slots);
/// Free the world's static geometry.
void steer__geometry_destroy(struct steer_geometry *g);

/// Visit the parts of a ready geometry (or NULL) whose (fattened) box
/// overlaps [lower, upper] and that the filter takes.
typedef void geo_overlap_fn(const geo_prim *p, void *context);
void steer__geometry_overlap(const struct steer_geometry *g, steer_vec2 lower, steer_vec2 upper,
                             const geo_filter *filter, geo_overlap_fn *fn, void *context);

/// Signed distance from p to a part (negative inside a solid part), the
/// closest point of its boundary and the unit outward normal there (from the
/// part towards p when outside). On a wall, the normal is the wall's left
/// normal; callers choose the side.
float steer__geometry_closest(const struct steer_geometry *g, const geo_prim *prim, steer_vec2 p,
                              steer_vec2 *point, steer_vec2 *normal);

/// The two tangents ("legs") from p to a part grown by radius, as unit
/// directions: *left the counter-clockwise-most as seen from p, *right the
/// clockwise-most. The grown part of a segment, box or polygon is the hull
/// of discs of that radius round its vertices (a circle's, one disc of its
/// radius plus radius), so the legs are the outermost tangents to those
/// discs. p must lie outside the grown part: seen from p the part then
/// spans less than half a turn, and comparing two tangents by the sign of
/// their cross product orders them. False when p is within a disc.
bool steer__geometry_legs(const struct steer_geometry *g, const geo_prim *prim, steer_vec2 p, float radius,
                          steer_vec2 *left, steer_vec2 *right);

#endif
