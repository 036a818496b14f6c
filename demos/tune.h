// tune.h: live tuning of behaviour parameters, without the UI (tune.c):
// set a reflected parameter the way Lua would (same refusal message), and
// write a node's constructor call with its current values ("copy as Lua").
#ifndef STEER_VIEWER_TUNE_H
#define STEER_VIEWER_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "steer/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Set a parameter of a live behaviour (every agent sharing it sees the new
/// value at the next step). False when refused: why holds the message Lua
/// gives for the same value ("bad argument #1 to 'arrive' (field
/// 'slow_radius' must be a positive number, got -3)").
bool tune_set(steer_behaviour *b, const steer_param_info *param, double value, char *why, size_t size);

/// The behaviour's constructor call with its current parameters
/// (`steer.arrive{ target_radius = 0.5, ... }`), targets, paths and children
/// named in a comment. Returns the length written (truncated to size - 1).
size_t tune_as_lua(const steer_behaviour *b, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
