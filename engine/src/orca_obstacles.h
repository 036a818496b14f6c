// orca_obstacles.h: the half-planes of static geometry for reciprocal
// avoidance (orca_obstacles.c).
#ifndef STEER_ORCA_OBSTACLES_H
#define STEER_ORCA_OBSTACLES_H

#include "eval.h"
#include "orca_lp.h"

/// The hard half-planes of the static parts within reach of the agent at
/// p (where its new velocity starts to act) in the obstacle time horizon
/// of d, written to lines: one per part, nearest first, at most
/// ORCA_MAX_OBSTACLE_LINES. Returns their count. Every line admits the
/// zero velocity.
int steer__orca_obstacle_lines(eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 p, orca_line *lines);

/// An agent alone at a shape: the preferred velocity, or, if it breaks one
/// of the first `hard` lines, its speed kept along the first such line on
/// the side it leans to.
steer_vec2 steer__orca_slide_along_shapes(const orca_line *lines, int hard, steer_vec2 preferred);

#endif
