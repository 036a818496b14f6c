// raycast.h: ray and swept-circle casts over the static geometry (and, for
// the public queries, over agents through the neighbour grid), with one
// clip protocol and edge-case rules (docs/geometry.md).
#ifndef STEER_RAYCAST_H
#define STEER_RAYCAST_H

#include "geometry.h"

/// A ray prepared for casting: unit direction and its safe inverse.
typedef struct geo_ray {
    steer_vec2 origin, dir;
    float inv_x, inv_y;
    float radius; ///< swept circle radius (0: a ray)
} geo_ray;

/// Ray (radius 0) or swept circle against one part: the first contact
/// distance in [0, max] and the normal; false if none. The ray's edge-case
/// rules are in docs/geometry.md. A swept circle that starts touching or
/// inside a part reports a contact at 0 with the part's outward normal when
/// it moves into the part, and nothing when it moves away or along it.
bool steer__raycast_prim(const struct steer_geometry *g, const geo_prim *p, const geo_ray *r, float max,
                         float *distance, steer_vec2 *normal);

/// Closest-hit cast of a ray (radius 0) or a swept circle over the shapes
/// of a ready geometry (or NULL: no hit) that the filter takes; agents
/// excluded. Used by obstacle_avoidance through the evaluation view.
/// Normalises direction.
bool steer__raycast_shapes(const struct steer_geometry *g, steer_vec2 origin, steer_vec2 direction, float radius,
                           float max_distance, const geo_filter *filter, steer_ray_hit *hit);

/// Brute-force closest hit over every live part (tests and checks).
bool steer__raycast_brute(steer_world *w, steer_vec2 origin, steer_vec2 direction, float max_distance,
                          const geo_filter *filter, steer_ray_hit *hit);

/// Bring the static geometry's broadphase (and the largest agent radius used
/// by agent ray casts) up to date, so that the evaluation pass only reads
/// it. Optional: queries do it lazily otherwise.
void steer__raycast_prepare(steer_world *w);

#endif
