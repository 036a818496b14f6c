// nav_sync.h: a world's shapes mirrored into its navigation (steer/nav.h),
// for world:find_path and world:flow_field, and the world's planner over it
// (steer_planner: navigate and move_group plan through it), nav_bounds and
// the flow field world:draw shows. The engine has no public
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
/// The world's shape id is now on the layers of `layer` (its navigation copy too).
void steer_lua__nav_shape_layer(lcore *core, steer_shape_id id, uint32_t layer);
/// The world's navigation (made on first use); NULL when memory ran out.
steer_nav *steer_lua__nav_of(lcore *core);
/// Free it (the world is closing).
void steer_lua__nav_free(lcore *core);
/// Declare the world's nav_bounds (before its navigation is made: the
/// world's options). False when memory ran out.
bool steer_lua__nav_set_bounds(lcore *core, steer_vec2 lower, steer_vec2 upper);
/// The bounds declared; false when none.
bool steer_lua__nav_bounds(const lcore *core, steer_vec2 *lower, steer_vec2 *upper);
/// Check the value at vidx as nav_bounds {x1, y1, x2, y2} (raises naming w).
void steer_lua__nav_check_bounds(lua_State *L, steer_laux_where w, int vidx, steer_vec2 *lower, steer_vec2 *upper);
/// Push world.nav_bounds: a new {x1, y1, x2, y2}, or nil.
void steer_lua__nav_push_bounds(lua_State *L, const lcore *core);
/// Whether p lies where navigation plans: NULL, or a phrase ("must lie
/// within nav_bounds {-50, -50, 50, 50}") in buf.
const char *steer_lua__nav_check_point(const lcore *core, steer_vec2 p, char *buf, size_t size);
/// Give the world its planner (steer_world_set_planner) over this
/// navigation: navigate and world:move_group plan through it.
void steer_lua__nav_attach(lcore *core);
/// The flow field world:draw shows (STEER_DRAW_FLOW): the latest made. The
/// caller hands over one reference, dropped with release(owner) when
/// another is shown or the world closes.
void steer_lua__nav_show_field(lcore *core, const steer_flow_field *field, void *owner, void (*release)(void *));
/// Push the navigation's state for a snapshot's script bytes (nil when the
/// world has none): {version =, bounds =, shapes = {[slot + 1] = {generation,
/// kind, radius, loop, x1, y1, ...}}}, plain values.
void steer_lua__nav_push_state(lua_State *L, const lcore *core);
/// Make the navigation again from such a state (the table at idx, or nil)
/// for a restored world whose shapes it names; the planner's version as
/// saved, so the restored plans stand. Raises on a damaged state.
void steer_lua__nav_load_state(lua_State *L, lcore *core, int idx);

#endif
