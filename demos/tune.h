// tune.h: live tuning without the UI (tune.c): set a reflected behaviour
// parameter, or a reflected world, agent or formation field, the way Lua
// would (same refusal message), and write a node's constructor call with its
// current values ("copy as Lua").
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

/// Set the weight of child `index` of a blend; false when refused (not a
/// finite number), why as Lua words it for steer.blend{...}.
bool tune_set_weight(steer_behaviour *blend, int index, double weight, char *why, size_t size);

/// Set a live field (steer_def_field(STEER_DEF_WORLD, i), `live`) of a
/// world; false when refused, why as Lua words it for steer.world{...}.
bool tune_set_world(steer_world *world, const steer_field_info *field, double value, char *why, size_t size);
/// The same for an agent (as world:spawn{...} words it) and a formation.
bool tune_set_agent(steer_world *world, steer_agent_id agent, const steer_field_info *field, double value, char *why,
                    size_t size);
bool tune_set_formation(steer_world *world, steer_formation_id formation, const steer_field_info *field, double value,
                        char *why, size_t size);

/// The behaviour's constructor call with its current parameters
/// (`steer.arrive{ target_radius = 0.5, ... }`), targets, paths and children
/// named in a comment. Returns the length written (truncated to size - 1).
size_t tune_as_lua(const steer_behaviour *b, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
