// orca_lp.h: the linear programs of reciprocal avoidance (orca_lp.c), after
// van den Berg, Guy, Lin and Manocha, "Reciprocal n-body collision
// avoidance" (2011), section 5.2: the permitted velocities are the
// intersection of half-planes and a disc of radius max_speed; the chosen
// velocity is the permitted one closest to the preferred velocity, found by
// an incremental randomised-order-free 2-D linear program; when the
// half-planes leave nothing, a 3-D program finds the velocity that violates
// the worst of them least.
#ifndef STEER_ORCA_LP_H
#define STEER_ORCA_LP_H

#include "core.h"

/// A half-plane of velocity space: the velocities v with
/// cross(dir, v - point) >= 0 (to the left of the directed line), dir a
/// unit vector.
typedef struct orca_line {
    steer_vec2 point, dir;
} orca_line;

/// Most half-planes of one agent: its neighbours and the static parts in range.
#define ORCA_MAX_OBSTACLE_LINES 32
#define ORCA_MAX_LINES (STEER_MAX_AVOID_NEIGHBOURS + ORCA_MAX_OBSTACLE_LINES)

/// The velocity closest to `preferred` inside the disc of radius max_speed
/// that satisfies every line; the first `hard` lines (static geometry) are
/// kept strictly, and when the rest cannot all be met, the velocity that
/// minimises the largest violation among them. With `give` > 0 (m/s), that
/// last case then takes the velocity nearest `preferred` among those that
/// violate no soft line by more than `give` beyond its violation at the
/// least-violating velocity (a jam still moves towards its goals); the soft
/// lines whose bit is set in `stiff` (bit i: line hard + i) give nothing
/// (settled pairs: orca_settle.h). Deterministic: the lines are taken in
/// the order given.
steer_vec2 steer__orca_lp_solve(const orca_line *lines, int count, int hard, float max_speed, steer_vec2 preferred,
                             float give, uint64_t stiff);

#endif
