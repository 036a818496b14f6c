// nav_path.h: a path set against the exact shapes (nav_path.c). The mesh's
// corners lie within a voxel of the radius, either side; these push them
// out, pull them in and check the result, in plain C over the shapes of
// nav_shapes.c. steer_nav_find_path (nav_path.c) uses them on the corners
// nav_mesh_corners (nav_mesh.cpp) gives. Tests may include this header.
#ifndef STEER_NAV_PATH_H
#define STEER_NAV_PATH_H

#include "nav_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Pull a path (p[0] and p[n-1] fixed) taut against the exact shapes: a
/// corner whose neighbours see each other with clearance r is dropped, the
/// others slide towards the chord between their neighbours as far as both
/// sides keep r (bisection); a few passes. Returns the new count. Only
/// shapes whose layer meets mask count, here and in the two below.
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

#ifdef __cplusplus
}
#endif

#endif
