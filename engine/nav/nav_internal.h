// nav_internal.h: what the navigation library's files share. The shapes are
// plain data (nav_shapes.c), the meshes live in nav_mesh.cpp (Recast/Detour),
// the flow fields in nav_field.c. Tests may include this header.
#ifndef STEER_NAV_INTERNAL_H
#define STEER_NAV_INTERNAL_H

#include "steer/nav.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { NAV_SEGMENT = 1, NAV_CIRCLE, NAV_BOX, NAV_POLYGON };

/// Most points an inflated shape has: 16 corners, each arc split into at
/// most NAV_ARC_STEPS pieces, plus a circle's NAV_ARC_STEPS.
#define NAV_ARC_STEPS 32
#define NAV_MAX_INFLATED (16 + NAV_ARC_STEPS + 8)

/// One shape: a convex chain of points (a circle: its centre, a segment: its
/// two ends, a box or polygon: its corners counter-clockwise) and a radius
/// (the circle's; 0 otherwise). Its solid is the chain's hull grown by radius.
typedef struct nav_shape {
    int type;              ///< 0 for a free slot
    int count;             ///< points used
    steer_vec2 points[16]; ///< counter-clockwise
    float radius;
    uint32_t layer;          ///< layer bits (default 1): seen by a query whose mask meets them
    steer_vec2 lower, upper; ///< bounding box
    uint16_t generation;
    int next_free;         ///< free list (slot index), when free
} nav_shape;

struct nav_mesh; // nav_mesh.cpp

struct steer_nav {
    steer_nav_def def;
    nav_shape *shapes; ///< slots 1..capacity-1 (slot 0 is the null handle)
    int capacity;
    int used;          ///< slots handed out so far
    int live;
    int free_head;     ///< 0: none
    struct nav_mesh *mesh;
};

/// Distance from p to the shape's solid (0 on or inside it).
float nav_shape_distance(const nav_shape *s, steer_vec2 p);
/// Distance from segment a-b to the shape's solid (0 when they meet).
float nav_shape_segment_distance(const nav_shape *s, steer_vec2 a, steer_vec2 b);
/// A convex polygon (counter-clockwise) containing the shape grown by r: its
/// arcs are circumscribed by pieces of at most 2 pi / NAV_ARC_STEPS, so every
/// point of it keeps at least r from the shape and at most r / cos(pi /
/// NAV_ARC_STEPS) (r + 0.5%). Returns the number of points written.
int nav_shape_inflate(const nav_shape *s, float r, steer_vec2 *out);
/// True if segment a-b keeps at least r from every shape (brute force over the shapes).
/// Only shapes whose layer meets mask count, here and in the two below.
bool nav_segment_is_clear(const steer_nav *nav, steer_vec2 a, steer_vec2 b, float r, uint32_t mask);
/// Pull a path (p[0] and p[n-1] fixed) taut against the exact shapes: a
/// corner whose neighbours see each other with clearance r is dropped, the
/// others slide towards the chord between their neighbours as far as both
/// sides keep r (bisection); a few passes. Returns the new count.
int nav_path_tighten(const steer_nav *nav, steer_vec2 *p, int n, float r, uint32_t mask);
/// Push a path's corners (p[0] and p[n-1] fixed) out of every shape's reach
/// keep (where a gap is narrower than 2 keep, r), each away from its nearest
/// shape, and split the segments that come closer than keep - slack or
/// their ends' own clearance (their middle pushed out becomes a corner; at
/// most 64, within capacity). For paths from a mesh whose walls may lie a
/// little inside the radius. Returns the new count.
int nav_path_clear_out(const steer_nav *nav, steer_vec2 *p, int n, int capacity, float r, float keep, float slack,
                       uint32_t mask);
/// Smallest distance from the polyline to the shapes, counting only those
/// within r of it (FLT_MAX when none).
float nav_path_clearance(const steer_nav *nav, const steer_vec2 *p, int n, float r, uint32_t mask);
/// Box of the live shapes; false when there are none.
bool nav_shapes_box(const steer_nav *nav, steer_vec2 *lower, steer_vec2 *upper);
/// printf into result->message and set result->status; returns status.
steer_nav_status nav_fail(steer_nav_result *result, steer_nav_status status, const char *format, ...);
/// True for a finite coordinate pair within STEER_NAV_MAX_COORDINATE.
bool nav_point_ok(steer_vec2 p);

/* nav_mesh.cpp */
struct nav_mesh *nav_mesh_create(const steer_nav_def *def);
void nav_mesh_destroy(struct nav_mesh *mesh);
/// Shapes changed inside lower..upper: every tile that box touches (grown by
/// each radius) is rebuilt before the next query.
void nav_mesh_dirty(struct nav_mesh *mesh, steer_vec2 lower, steer_vec2 upper);
/// How a query searches the mesh (for steer-bench nav's comparisons; the
/// library never changes it): flags, 0 by default: NAV_SEARCH_LOOSE no nav_path_tighten, NAV_BUILD_ONE_THREAD tiles made on
/// the calling thread only, NAV_BUILD_WATERSHED Recast's watershed regions
/// instead of monotone ones, NAV_BUILD_RASTER the ground rasterised as Recast
/// does (rcRasterizeTriangles, rcBuildCompactHeightfield) instead of written
/// directly (the same mesh, twice the time), NAV_SEARCH_FALLBACK every path
/// from the fallback mesh (margin 0.15 m), NAV_SEARCH_AT_R corners pushed out
/// and pulled in to the radius exactly instead of the radius + 5 cm. Every navigation of the process reads it.
extern int nav_search_mode;
extern int nav_fallbacks;
enum {
    NAV_SEARCH_LOOSE = 2,
    NAV_SEARCH_FALLBACK = 32,
    NAV_SEARCH_AT_R = 64,
    NAV_BUILD_ONE_THREAD = 4,
    NAV_BUILD_WATERSHED = 8,
    NAV_BUILD_RASTER = 16
};

#ifdef __cplusplus
}
#endif

#endif
