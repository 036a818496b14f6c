// nav_internal.h: what the navigation library's files share. The shapes are
// plain data (nav_shapes.c), the meshes live in nav_mesh.cpp (Recast/Detour),
// a path query and its repair against the shapes in nav_path.c (nav_path.h),
// the flow fields in nav_field.c. Tests may include this header.
#ifndef STEER_NAV_INTERNAL_H
#define STEER_NAV_INTERNAL_H

#include <math.h>

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
    steer_vec2 *path;  ///< a query's path (nav_path.c; kept: no allocation per query once grown)
    int path_capacity;
    nav_shape *shapes; ///< slots 1..capacity-1 (slot 0 is the null handle)
    int capacity;
    int used;          ///< slots handed out so far
    int live;
    int free_head;     ///< 0: none
    struct nav_mesh *mesh;
};

/// Distance from p to segment a-b, in double (far from the origin nothing
/// cancels). Inline: the shapes' distances and the path's repair call it in
/// their inner loops (out of line it cost a query 11% more instructions).
static inline double nav_point_segment_distance(double px, double py, steer_vec2 a, steer_vec2 b)
{
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    double ex = px - a.x, ey = py - a.y;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? (ex * dx + ey * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    double fx = ex - t * dx, fy = ey - t * dy;
    return sqrt(fx * fx + fy * fy);
}

/// Distance from p to the shape's solid (0 on or inside it).
float nav_shape_distance(const nav_shape *s, steer_vec2 p);
/// Distance from segment a-b to the shape's solid (0 when they meet).
float nav_shape_segment_distance(const nav_shape *s, steer_vec2 a, steer_vec2 b);
/// A convex polygon (counter-clockwise) containing the shape grown by r: its
/// arcs are circumscribed by pieces of at most 2 pi / NAV_ARC_STEPS, so every
/// point of it keeps at least r from the shape and at most r / cos(pi /
/// NAV_ARC_STEPS) (r + 0.5%). Returns the number of points written.
int nav_shape_inflate(const nav_shape *s, float r, steer_vec2 *out);
/// True if segment a-b keeps at least r from every shape whose layer meets
/// mask (brute force over the shapes).
bool nav_segment_is_clear(const steer_nav *nav, steer_vec2 a, steer_vec2 b, float r, uint32_t mask);
/// Box of the live shapes; false when there are none.
bool nav_shapes_box(const steer_nav *nav, steer_vec2 *lower, steer_vec2 *upper);
/// The tiles (of side tile) a query needs, range = {x0, y0, x1, y1}:
/// nav_bounds when declared, else the box of the shapes and the count
/// points grown by grow (the shortest path stays within the hull of the
/// grown shapes and its ends). False when that is more than max_tiles.
bool nav_tile_range(const steer_nav *nav, float tile, float grow, const steer_vec2 *points, int count, int range[4]);
/// printf into result->message and set result->status; returns status.
steer_nav_status nav_fail(steer_nav_result *result, steer_nav_status status, const char *format, ...);
/// True for a finite coordinate pair within STEER_NAV_MAX_COORDINATE.
bool nav_point_ok(steer_vec2 p);

/// A fallback mesh's margin: its walls keep outside radius - 5 cm by
/// themselves (a voxel's half diagonal and the contours' half voxel at
/// 0.2 m voxels).
#define NAV_SAFE_MARGIN 0.15f

/* nav_mesh.cpp */
struct nav_mesh *nav_mesh_create(const steer_nav_def *def);
/// The mesh's string-pulled corners from `from` to `to` for a radius (its
/// shapes grown by radius + margin; only those whose layer meets mask): the
/// mesh's own array of *count (x, 0, y) triples, Detour's, valid until the
/// next query; the ends are the points of the mesh nearest from and to.
/// STEER_NAV_OK, or the failure (no path, too many tiles, no memory) in result.
steer_nav_status nav_mesh_corners(steer_nav *nav, float margin, steer_vec2 from, steer_vec2 to, float radius,
                                  uint32_t mask, const float **corners, int *count, steer_nav_result *result);
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
/// Both defined in nav_path.c; nav_fallbacks counts the paths made again over
/// the fallback mesh.
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
