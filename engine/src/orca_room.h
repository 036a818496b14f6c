// orca_room.h: parked agents making room for a held-up neighbour
// (orca_room.c), for reciprocal avoidance (reciprocal.c).
#ifndef STEER_ORCA_ROOM_H
#define STEER_ORCA_ROOM_H

#include "eval.h"
#include "orca_lines.h"

/// Only agents slower than this fraction of their max speed yield, or are
/// yielded to, or are made room for (reciprocal.c, orca_room.c)
#define ORCA_YIELD_SLOW 0.2f

/// An idle agent that has not yielded: the preferred velocity that steps
/// aside for held-up neighbours that want past it or need its space (its
/// destination dest_me; near, k: its closest neighbours), or `preferred`
/// unchanged. Reads only the grid's copy and the courses of the step before.
steer_vec2 steer__orca_make_room(const eval_ctx *ctx, steer_vec2 dest_me,
                                 const orca_neighbour *near, int k, steer_vec2 preferred);

#endif
