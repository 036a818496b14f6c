/// steer/constants.h: the public limits, in one place (as Box2D's
/// constants.h). Every message that states a limit is built from these
/// (steer_format_limit), so a cap is written once.
#ifndef STEER_CONSTANTS_H
#define STEER_CONSTANTS_H

#include <float.h>

/* ---- numbers crossing into the engine --------------------------------------- */

/// Largest magnitude of any number a host hands the engine: the float range
/// (a larger double would become an infinity).
#define STEER_MAX_FLOAT FLT_MAX
/// Largest magnitude of a float parameter of a behaviour (a margin below
/// FLT_MAX, so the sum of two parameters stays a finite float).
#define STEER_MAX_PARAM 3e38
/// Largest agent limit (radius, max_speed, ..., drag), as a double: the
/// engine keeps every limit within it (steer_limits).
#define STEER_MAX_LIMIT 1e30
/// Static geometry lives within +-STEER_MAX_COORDINATE metres on both axes.
#define STEER_MAX_COORDINATE 1.0e15f
/// Path points lie within +-STEER_MAX_PATH_COORDINATE metres on both axes
/// (the bound the step keeps positions in): every length and param along a
/// path stays a finite float.
#define STEER_MAX_PATH_COORDINATE 1.0e30f
/// Longest step, seconds (steer_world_step: 0 <= dt <= STEER_MAX_STEP).
#define STEER_MAX_STEP 1e4

/* ---- worlds ---------------------------------------------------------------------- */

/// Neighbour-grid cell sides accepted, metres: 1 mm to 1e9 m. The reciprocal
/// stays finite and nonzero, so every cell coordinate is a finite float
/// (clamped to +-1e9 cells before it becomes an int); a smaller cell would
/// make every query window wider than the bucket table (all agents
/// candidates), a larger one would put a whole world in one cell.
#define STEER_MIN_CELL_SIZE 1.0e-3f
#define STEER_MAX_CELL_SIZE 1.0e9f
/// Most workers a world steps with (steer_world_def.worker_count).
#define STEER_MAX_WORKERS 64
/// Largest agent capacity a definition may reserve (steer_world_def.agent_capacity).
#define STEER_MAX_AGENT_CAPACITY (1 << 28)
/// Most points of a convex polygon (steer_world_add_polygon).
#define STEER_MAX_POLYGON_VERTICES 16

/// Every layer bit: the default mask of an agent and of a ray filter.
#define STEER_ALL_LAYERS 0xFFFFFFFFu

/* ---- formations ------------------------------------------------------------------- */

/// Most cost roles of a formation (steer_formation_def.cost_role_count): in
/// Lua, the distinct role names of its slot roles, costs and members' roles,
/// plus "none". Spacing and slot offsets lie within STEER_MAX_COORDINATE.
#define STEER_MAX_FORMATION_ROLES 4096

/* ---- behaviours -------------------------------------------------------------------- */

/// Limits on the tree a behaviour unfolds to (a behaviour shared by several
/// combinators, or used twice, counts once per use): levels of nesting,
/// nodes (a bound on evaluation work), floats of per-agent memory (each
/// wander, follow_path and obstacle_avoidance takes one). A change that
/// would break one is refused, however the tree is built.
#define STEER_MAX_TREE_DEPTH 200
#define STEER_MAX_TREE_NODES 1024
#define STEER_MAX_TREE_MEMORY 8
/// reciprocal_avoidance: largest max_neighbours (its half-planes live on the stack).
#define STEER_MAX_AVOID_NEIGHBOURS 64
/// Longest behaviour name, bytes (steer_behaviour_set_name).
#define STEER_MAX_BEHAVIOUR_NAME 255
/// Nodes kept per traced agent; deeper trees are cut (steer_agent_trace_truncated).
#define STEER_TRACE_MAX_NODES 32

#endif
