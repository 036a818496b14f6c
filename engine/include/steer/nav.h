/// steer/nav.h: navigation round static shapes, one line per function.
///
/// A library of its own (CMake target steer::nav, libsteer_nav) beside the
/// core: the core engine never links it. It keeps its own copy of the shapes
/// as plain data (the engine has no public accessor for a shape's geometry
/// yet, only its type), and answers two questions:
///
/// - a path from a point to a point for a disc of radius r that keeps r from
///   every shape, smoothed to corners (Recast/Detour: a tiled navigation mesh
///   per radius and mask, rebuilt tile by tile when shapes change; docs/navigation.md);
/// - a flow field: the distance to a goal over a grid of the free space for a
///   radius, sampled smoothly (fast marching, exact clearance per cell).
///
/// Coordinates are the engine's ground plane (x, y), metres. Misuse (NaN,
/// bad shapes, stale ids) is refused with a status and a message; nothing
/// asserts on input, so a binding may pass what a user typed.
///
/// One steer_nav answers one query at a time: its queries share scratch (the
/// corridor search's nodes, the path's points), sized once and kept, so a
/// query allocates nothing after the first. A world's planner calls it from
/// the step's serial part; two threads querying one steer_nav need a lock.
#ifndef STEER_NAV_H
#define STEER_NAV_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "constants.h"
#include "math.h"

STEER_EXTERN_C_BEGIN

/// A navigation: shapes, and the meshes built from them per radius.
typedef struct steer_nav steer_nav;
/// A flow field: distances to one goal over a grid; owns its data.
typedef struct steer_flow_field steer_flow_field;

/// Handle of a shape inside one steer_nav; {0, 0} is null.
typedef struct steer_nav_shape {
    int32_t index;       ///< 1-based slot, 0 for null
    uint16_t generation; ///< detects a removed shape's stale handle
} steer_nav_shape;

/// What a query answered.
typedef enum steer_nav_status {
    STEER_NAV_OK = 0,         ///< a path or field was made
    STEER_NAV_NO_PATH,        ///< the goal cannot be reached with this radius
    STEER_NAV_BAD_INPUT,      ///< NaN, infinity, radius or cell out of range
    STEER_NAV_OUTSIDE,        ///< a point outside the bounds (or too far from every shape)
    STEER_NAV_BLOCKED,        ///< the start or the goal lies inside a shape or closer than the radius
    STEER_NAV_TOO_LARGE,      ///< a flow field over STEER_FLOW_FIELD_MAX_CELLS cells
    STEER_NAV_OUT_OF_MEMORY,  ///< an allocation failed; nothing changed
} steer_nav_status;

/// The answer of a query besides its points: status, a message for people
/// ("no path from (0, 0) to (10, 0) for radius 0.5"), and figures.
typedef struct steer_nav_result {
    steer_nav_status status;
    int count;          ///< points in the path (also when more than the capacity given)
    float length;       ///< path length, metres
    char message[160];  ///< empty when status is STEER_NAV_OK
} steer_nav_result;

/// Navigation settings. Defaults: steer_default_nav_def().
typedef struct steer_nav_def {
    /// Side of a Recast voxel, metres (default 0.2). Smaller: closer to the
    /// exact shortest path, slower to build.
    float cell_size;
    /// Side of a navigation tile, metres (default 25.6: 128 cells). A shape
    /// change rebuilds the tiles its inflated box touches.
    float tile_size;
    /// Extra growth of the shapes in the mesh beyond the radius, metres
    /// (default 0: the paths' corners are set against the exact shapes, at
    /// the radius + 5 cm; a larger margin closes more narrow gaps).
    float margin;
    /// nav_bounds: when set, points outside lower..upper are refused and the
    /// mesh covers exactly that box. When not set, the mesh covers the shapes'
    /// box grown by one tile, and a straight segment clear of every shape is
    /// answered without the mesh however far away it lies.
    bool has_bounds;
    steer_vec2 lower, upper;
    /// Radii kept at once (one mesh each, default 4); the least recently used
    /// mesh is dropped past that.
    int max_radii;
    /// Detour's any-angle search (raycast shortcuts while it searches, 50 m
    /// at most): paths about 1% shorter on average, queries about twice as
    /// slow (default false; docs/navigation.md).
    bool any_angle;
    /// Detour's own findPath for the corridor (A* between polygon edge
    /// midpoints) instead of the library's A*, whose points follow the path
    /// (default false: Detour's paths are more often over 2% longer than the
    /// shortest, docs/navigation.md).
    bool detour_find_path;
    /// Tiles one mesh may hold (default 4096: a 1.6 km square of 25.6 m tiles).
    int max_tiles;
} steer_nav_def;

/// Largest flow field, in cells (4 Mi: 2048 x 2048); a larger one is refused
/// with STEER_NAV_TOO_LARGE and the figure.
#define STEER_FLOW_FIELD_MAX_CELLS (4 * 1024 * 1024)
/// Largest radius a query accepts, metres.
#define STEER_NAV_MAX_RADIUS 100.0f
/// Coordinates accepted by navigation: |x|, |y| <= 1e6 m.
#define STEER_NAV_MAX_COORDINATE 1.0e6f

/// Defaults: cell 0.2 m, tile 25.6 m, margin 0 m, no bounds, 4 radii, 4096 tiles.
STEER_API steer_nav_def steer_default_nav_def(void);
/// Create a navigation; NULL if def is invalid or memory ran out.
STEER_API steer_nav *steer_nav_create(const steer_nav_def *def);
/// Destroy it (flow fields made from it stay valid: they own their data).
STEER_API void steer_nav_destroy(steer_nav *nav);

/* ---- shapes (plain data, as steer_world_add_* takes them) ------------------- */

/// A wall segment a-b (a != b); null if refused.
STEER_API steer_nav_shape steer_nav_add_segment(steer_nav *nav, steer_vec2 a, steer_vec2 b);
/// A solid circle (radius > 0).
STEER_API steer_nav_shape steer_nav_add_circle(steer_nav *nav, steer_vec2 center, float radius);
/// A solid axis-aligned box, lower < upper.
STEER_API steer_nav_shape steer_nav_add_box(steer_nav *nav, steer_vec2 lower, steer_vec2 upper);
/// A solid convex polygon, 3 to 16 points, any winding (steer_polygon_is_valid's rules).
STEER_API steer_nav_shape steer_nav_add_polygon(steer_nav *nav, const steer_vec2 *points, int count);
/// Remove a shape; a stale handle is ignored (false).
STEER_API bool steer_nav_remove(steer_nav *nav, steer_nav_shape shape);
/// Number of live shapes.
STEER_API int steer_nav_shape_count(const steer_nav *nav);
/// Distance from p to the nearest shape's surface (0 inside), metres; FLT_MAX with no shapes.
STEER_API float steer_nav_clearance(const steer_nav *nav, steer_vec2 p);
/// Put a shape on the layers of `layer` (bits; a new shape is on layer 1). A
/// query with a mask sees only the shapes whose layer meets it (layer & mask
/// != 0), as an agent sees shapes (docs/engine.md, layers and floors). False
/// for a stale handle.
STEER_API bool steer_nav_set_layer(steer_nav *nav, steer_nav_shape shape, uint32_t layer);
/// A shape's layer bits; 0 for a stale handle.
STEER_API uint32_t steer_nav_get_layer(const steer_nav *nav, steer_nav_shape shape);
/// steer_nav_clearance over the shapes whose layer meets mask only.
STEER_API float steer_nav_clearance_masked(const steer_nav *nav, steer_vec2 p, uint32_t mask);

/* ---- paths ------------------------------------------------------------------ */

/// The shortest path from `from` to `to` for a disc of `radius` (0 < radius <=
/// STEER_NAV_MAX_RADIUS), smoothed to corners: writes up to capacity points
/// (from first, to last) and fills result (count is the full number of points).
/// Builds the tiles the radius has not built yet, and rebuilds those that shape
/// changes touched, first. Returns result->status.
STEER_API steer_nav_status steer_nav_find_path(steer_nav *nav, steer_vec2 from, steer_vec2 to, float radius,
                                               steer_vec2 *points, int capacity, steer_nav_result *result);
/// steer_nav_find_path round the shapes whose layer meets mask only (the
/// others are not there); steer_nav_find_path is this with STEER_ALL_LAYERS.
/// A mesh is kept per (radius, mask), max_radii of them at once.
STEER_API steer_nav_status steer_nav_find_path_masked(steer_nav *nav, steer_vec2 from, steer_vec2 to, float radius,
                                                      uint32_t mask, steer_vec2 *points, int capacity,
                                                      steer_nav_result *result);
/// Build (or bring up to date) every tile the radius needs now; the cost a
/// first query would pay. Returns the number of tiles built.
STEER_API int steer_nav_prepare(steer_nav *nav, float radius, steer_nav_result *result);
/// Tiles built for a radius so far (including rebuilds), for tests and benchmarks.
STEER_API int steer_nav_tiles_built(const steer_nav *nav, float radius);

/// Debug draw of a radius's mesh: each polygon of each built tile, as a
/// closed outline of count points. Returns the number of polygons.
typedef void steer_nav_polygon_fn(const steer_vec2 *points, int count, void *context);
STEER_API int steer_nav_draw_mesh(const steer_nav *nav, float radius, steer_nav_polygon_fn *fn, void *context);

/* ---- flow fields ------------------------------------------------------------ */

/// What a flow field covers.
typedef struct steer_flow_field_def {
    steer_vec2 goal;    ///< where every direction leads
    float radius;       ///< clearance kept from shapes, metres (> 0)
    float cell;         ///< grid cell side, metres (> 0)
    steer_vec2 lower;   ///< the grid's box (lower < upper; the goal inside)
    steer_vec2 upper;
} steer_flow_field_def;

/// Compute a flow field: the travel distance to the goal over the cells whose
/// centre keeps `radius` from every shape (fast marching, 8-connected
/// upwind), computed on the calling thread only, so the same bits whatever
/// threads a program runs. NULL with result->status and message on refusal.
STEER_API steer_flow_field *steer_nav_flow_field(const steer_nav *nav, const steer_flow_field_def *def,
                                                 steer_nav_result *result);
/// steer_nav_flow_field round the shapes whose layer meets mask only.
STEER_API steer_flow_field *steer_nav_flow_field_masked(const steer_nav *nav, const steer_flow_field_def *def,
                                                        uint32_t mask, steer_nav_result *result);
/// Free a field.
STEER_API void steer_flow_field_destroy(steer_flow_field *field);
/// Distance to the goal from p (bilinear over the cells' values), metres;
/// FLT_MAX where no free cell near p reaches the goal or p is outside the grid.
STEER_API float steer_flow_field_distance(const steer_flow_field *field, steer_vec2 p);
/// Unit direction of steepest descent of the distance at p (smooth: the
/// gradient of the bilinear interpolant); zero at the goal's cell or where
/// the goal is unreachable.
STEER_API steer_vec2 steer_flow_field_direction(const steer_flow_field *field, steer_vec2 p);
/// The grid: columns, rows, cell side, lower corner.
STEER_API void steer_flow_field_grid(const steer_flow_field *field, int *columns, int *rows, float *cell,
                                     steer_vec2 *lower);
/// The definition it was made from.
STEER_API steer_flow_field_def steer_flow_field_get_def(const steer_flow_field *field);
/// Order-dependent digest of every cell's distance bits (determinism tests).
STEER_API uint64_t steer_flow_field_hash(const steer_flow_field *field);

STEER_EXTERN_C_END

#endif
