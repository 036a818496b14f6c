// nav_sync.h: a world's shapes mirrored into its navigation (steer/nav.h),
// for world:find_path and world:flow_field. The engine has no public
// accessor for a shape's geometry, so the module copies each shape it adds
// (world:add_*) and removes the copy with the shape; shapes a host adds from
// C are not seen (docs/navigation.md).
#ifndef STEER_NAV_SYNC_H
#define STEER_NAV_SYNC_H

#include "runtime.h"
#include "steer/nav.h"

/// Kinds of shapes mirrored.
enum { LNAV_SEGMENT, LNAV_CIRCLE, LNAV_BOX, LNAV_POLYGON, LNAV_POLYLINE };

/// Copy a shape the world just added (points as given to steer_world_add_*:
/// a box is lower, upper; a circle its centre, with radius). False when
/// memory ran out (the caller removes the world's shape and raises).
bool steer_lua__nav_shape_added(lcore *core, steer_shape_id id, int kind, const steer_vec2 *points, int count,
                                float radius, bool loop);
/// Drop the copy of a shape being removed.
void steer_lua__nav_shape_removed(lcore *core, steer_shape_id id);
/// The world's navigation (made on first use); NULL when memory ran out.
steer_nav *steer_lua__nav_of(lcore *core);
/// Free it (the world is closing).
void steer_lua__nav_free(lcore *core);

#endif
