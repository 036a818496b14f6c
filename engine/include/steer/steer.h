/// steer/steer.h: the steering engine, one line per function.
///
/// A world owns agents, static geometry and random streams. Behaviours are
/// reference-counted objects, independent of any world: one behaviour can
/// drive many agents (in several worlds); whatever belongs to one agent (wander
/// angle, path progress) lives with the agent. See docs/engine.md.
///
/// Misuse (bad definitions, stale ids, NaN) goes to the assert hook and the
/// call is refused harmlessly; there are no error codes.
#ifndef STEER_STEER_H
#define STEER_STEER_H

#include "constants.h"
#include "id.h"
#include "math.h"
#include "types.h"
#include "reflect.h"
#include "steer/version.h" // generated (version.h.in)

STEER_EXTERN_C_BEGIN

/* ---- version ---------------------------------------------------------------- */

/// The library's version, "major.minor.patch" (STEER_VERSION_STRING of the
/// build that compiled it; compare with the header's to detect a mismatch).
STEER_API const char *steer_version(void);

/* ---- assert hook ---------------------------------------------------------- */

/// Install the assert hook (NULL restores the default). Process-wide.
STEER_API void steer_set_assert_fn(steer_assert_fn *fn, void *context);

/* ---- allocator hook --------------------------------------------------------- */

/// Allocate size bytes (suitably aligned for any type); NULL when refused.
typedef void *steer_alloc_fn(size_t size, void *context);
/// Free a block from the alloc function; size is the size asked for.
typedef void steer_free_fn(void *memory, size_t size, void *context);
/// Route every allocation of the engine and the Lua bindings through alloc
/// and free (NULL, NULL restores malloc and free). Process-wide; set it
/// before creating any object, and keep it until every object is destroyed.
/// An allocation refused by the hook makes the call that needed it fail
/// cleanly (a null id, NULL, false, or a Lua "not enough memory" error).
STEER_API void steer_set_allocator(steer_alloc_fn *alloc, steer_free_fn *free, void *context);
/// A count of engine memory with a cap: a host charges what its scripts
/// make the engine allocate (worlds, agents, behaviours, paths, formations)
/// to one, so a script cannot take memory without bound.
typedef struct steer_memory_account {
    size_t bytes;  ///< bytes charged and not freed yet (block headers included); the owner may add its own
    size_t cap;    ///< an allocation that would take bytes past cap is refused (0: no cap)
    bool refused;  ///< set when an allocation was refused for the cap (the owner clears it)
    /// Called once (on the allocating thread) when an allocation of `needed`
    /// bytes would take bytes past cap, before it is refused: the owner may
    /// free what it holds and no longer needs (a script host collects its
    /// Lua garbage, which the cap counts too); the allocation is then tried
    /// again. Not called again from inside itself. NULL: none.
    void (*reclaim)(struct steer_memory_account *account, size_t needed, void *context);
    void *reclaim_context; ///< passed to reclaim
} steer_memory_account;
/// Charge the engine allocations of the calling thread to account (NULL:
/// none) until the next call; returns the account it replaces. A block goes
/// back to the account it was charged to when it is freed (whatever the
/// thread or the account in force then), so an account must outlive every
/// block charged to it. A refused allocation fails as any other (a null id,
/// NULL, false, or a Lua "not enough memory" error).
STEER_API steer_memory_account *steer_set_memory_account(steer_memory_account *account);
/// Allocate and free through the hook, as the engine does (for the bindings
/// and hosts); NULL when refused.
STEER_API void *steer_alloc(size_t size);
STEER_API void steer_free(void *memory);

/* ---- defaults --------------------------------------------------------------- */

/// World defaults: seed 0, euler, cell_size 4 m, capacity 64, no contact resolution.
STEER_API steer_world_def steer_default_world_def(void);
/// Agent defaults: at the origin, at rest, steer_default_limits(), no behaviour.
STEER_API steer_agent_def steer_default_agent_def(void);
/// Limits: radius 0.5 m, 5 m/s, 10 m/s^2, pi rad/s, 2 pi rad/s^2, no drag.
STEER_API steer_limits steer_default_limits(void);
/// The notes' defaults for a behaviour type (time_to_target = 0.1, ...).
STEER_API steer_behaviour_def steer_default_behaviour_def(steer_behaviour_type type);
/// An empty open path definition (fill points and count).
STEER_API steer_path_def steer_default_path_def(void);
/// Every shape category, no agents, nothing ignored.
STEER_API steer_ray_filter steer_default_ray_filter(void);

/* ---- world ------------------------------------------------------------------ */

/// Create a world; NULL if def is invalid (assert) or memory ran out.
STEER_API steer_world *steer_world_create(const steer_world_def *def);
/// Destroy a world, its agents and shapes; releases the behaviours they held.
STEER_API void steer_world_destroy(steer_world *world);
/// One tick: rebuild the neighbour grid, evaluate every agent against the
/// state at the start of the tick, integrate. dt in seconds, 0 <= dt <= 1e4.
STEER_API void steer_world_step(steer_world *world, float dt);
/// True while steer_world_step or steer_behaviour_get_steering runs on the
/// world (callback behaviours are called then): creating or removing agents,
/// changing their state, the world's settings, its shapes, or any behaviour
/// or path, is refused meanwhile (docs/engine.md, mid-step rules).
STEER_API bool steer_world_is_stepping(const steer_world *world);
/// Number of live agents.
STEER_API int steer_world_agent_count(const steer_world *world);
/// The i-th live agent, 0 <= i < count. The order is storage order: it changes
/// when agents are removed and when a step re-sorts agents into grid order.
STEER_API steer_agent_id steer_world_agent_at(const steer_world *world, int i);
/// Agents whose position is within radius of center (distance < radius),
/// in a deterministic order. Writes up to capacity ids, returns the total.
STEER_API int steer_world_query(steer_world *world, steer_vec2 center, float radius, steer_agent_id *out,
                      int capacity);
/// steer_world_query of the agents a filter passes: layer & mask != 0,
/// extent meeting [z_min, z_max], not filter->ignore (include_agents is
/// ignored). filter may be NULL (every agent).
STEER_API int steer_world_query_filtered(steer_world *world, steer_vec2 center, float radius,
                                         const steer_ray_filter *filter, steer_agent_id *out, int capacity);
/// Order-independent digest of every agent's key, state, memory and random
/// stream, and of its layer, mask, vertical extent and priority where they
/// are not the defaults (a world of defaults hashes as before they existed).
/// Not covered: limits, flags, behaviour trees, shapes, paths, formations,
/// the step count (docs/engine.md, "Determinism").
STEER_API uint64_t steer_world_hash(const steer_world *world);
/// Steps taken so far.
STEER_API uint64_t steer_world_step_count(const steer_world *world);
/// The integrator used from the next step on.
STEER_API steer_integrator steer_world_get_integrator(const steer_world *world);
STEER_API void steer_world_set_integrator(steer_world *world, steer_integrator integrator);
/// Side of a neighbour-grid cell, metres.
STEER_API float steer_world_get_cell_size(const steer_world *world);
/// True for a cell size the world accepts: STEER_MIN_CELL_SIZE <= cell_size
/// <= STEER_MAX_CELL_SIZE (NaN and infinities are not).
STEER_API bool steer_cell_size_is_valid(float cell_size);
/// cell_size as steer_cell_size_is_valid accepts (else an assert, no change).
STEER_API void steer_world_set_cell_size(steer_world *world, float cell_size);
/// Contact resolution after each step (docs/geometry.md).
STEER_API bool steer_world_get_resolve_contacts(const steer_world *world);
STEER_API void steer_world_set_resolve_contacts(steer_world *world, bool enabled);
/// Whether agent-agent contacts are separated after integration (docs/crowds.md).
STEER_API bool steer_world_get_resolve_agent_contacts(const steer_world *world);
/// Turn agent contact resolution on or off (not while stepping).
STEER_API void steer_world_set_resolve_agent_contacts(steer_world *world, bool enabled);
/// Agents whose callback behaviour failed (STEER_CALLBACK_ERROR or a
/// non-finite output) in the last step; their output was zero. The error
/// itself is the host's to keep (the Lua bindings raise it from world:step).
STEER_API int steer_world_callback_errors(const steer_world *world);
/// Threads the world steps with (steer_world_def.worker_count).
STEER_API int steer_world_get_worker_count(const steer_world *world);

/* ---- snapshots ---------------------------------------------------------------- */

/// Snapshot defaults: no host data.
STEER_API steer_snapshot_def steer_default_snapshot_def(void);
/// Restore defaults: one worker, the built-in pool, no resolver.
STEER_API steer_restore_def steer_default_restore_def(void);
/// Write everything the next step depends on (docs/engine.md, Snapshots)
/// into buffer, capacity bytes (buffer may be NULL when capacity is 0).
/// *size gets the snapshot's size. True when written; false when capacity
/// is too small (*size > capacity: call again with *size bytes) or the
/// world cannot be saved (*size == 0: during a step, or a callback
/// behaviour without a name; error, which may be NULL, says why).
/// def may be NULL (no host data). The world is not changed.
STEER_API bool steer_world_snapshot(const steer_world *world, const steer_snapshot_def *def, void *buffer,
                                    size_t capacity, size_t *size, steer_snapshot_error *error);
/// A new world from a snapshot: stepping it gives the bits the saved world
/// would have given. NULL when the bytes are not a snapshot this engine
/// reads (another format or engine version, truncated, damaged,
/// inconsistent), when the resolver lacks a named callback behaviour, or
/// when memory ran out; error (may be NULL) says which. def may be NULL
/// (steer_default_restore_def). Agent user data starts NULL.
STEER_API steer_world *steer_world_restore(const void *bytes, size_t size, const steer_restore_def *def,
                                           steer_snapshot_error *error);
/// The host data of a snapshot (pointing into bytes), after the checks of
/// its header (format, engine version, size, checksum); false with error.
STEER_API bool steer_snapshot_host_data(const void *bytes, size_t size, const void **host, size_t *host_size,
                                        steer_snapshot_error *error);

/* ---- agents ----------------------------------------------------------------- */

/// Create an agent; null id if def is invalid (assert).
STEER_API steer_agent_id steer_agent_create(steer_world *world, const steer_agent_def *def);
/// Remove an agent; its id becomes stale. Stale ids are ignored (assert-free).
STEER_API void steer_agent_destroy(steer_world *world, steer_agent_id id);
/// True while the agent exists.
STEER_API bool steer_agent_is_valid(const steer_world *world, steer_agent_id id);
/// Position (m), orientation (rad), velocity (m/s), rotation (rad/s).
STEER_API steer_kinematic steer_agent_get_state(const steer_world *world, steer_agent_id id);
/// Replace position, orientation (wrapped), velocity and rotation (finite;
/// velocity and rotation clamped to the agent's limits, as at spawn).
STEER_API void steer_agent_set_state(steer_world *world, steer_agent_id id, const steer_kinematic *state);
/// Parts of the state: position (m, finite), velocity (m/s, finite; clamped
/// to the agent's max_speed, as at spawn), orientation (rad, in (-pi, pi]).
STEER_API steer_vec2 steer_agent_get_position(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_position(steer_world *world, steer_agent_id id, steer_vec2 position);
STEER_API steer_vec2 steer_agent_get_velocity(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_velocity(steer_world *world, steer_agent_id id, steer_vec2 velocity);
STEER_API float steer_agent_get_orientation(const steer_world *world, steer_agent_id id);
/// The agent's limits (steer_limits).
STEER_API steer_limits steer_agent_get_limits(const steer_world *world, steer_agent_id id);
/// Replace the limits (all finite, >= 0).
STEER_API void steer_agent_set_limits(steer_world *world, steer_agent_id id, const steer_limits *limits);
/// Kinematic agent: its behaviour's output is a velocity and a rotation.
STEER_API bool steer_agent_get_kinematic(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_kinematic(steer_world *world, steer_agent_id id, bool kinematic);
/// Orientation follows the velocity after each step (kept when stopped).
STEER_API bool steer_agent_get_face_velocity(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_face_velocity(steer_world *world, steer_agent_id id, bool face_velocity);
/// The agent's behaviour (borrowed), or NULL.
STEER_API steer_behaviour *steer_agent_get_behaviour(const steer_world *world, steer_agent_id id);
/// Set the behaviour (retained; the old one released). The agent's behaviour
/// memory (wander angle, path progress) is reset unless keep_memory.
STEER_API void steer_agent_set_behaviour(steer_world *world, steer_agent_id id, steer_behaviour *behaviour,
                               bool keep_memory);
/// Layers (docs/engine.md, layers and floors): the layers the agent is on,
/// and those it sees (its neighbour behaviours, avoidance, contacts and
/// rays take only agents and shapes whose layer & mask != 0).
STEER_API uint32_t steer_agent_get_layer(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_layer(steer_world *world, steer_agent_id id, uint32_t layer);
STEER_API uint32_t steer_agent_get_mask(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_mask(steer_world *world, steer_agent_id id, uint32_t mask);
/// Floors: the vertical extent [z, z + height] (z finite, height finite and
/// >= 0). Agents and shapes meet only where their extents overlap.
STEER_API float steer_agent_get_z(const steer_world *world, steer_agent_id id);
STEER_API float steer_agent_get_height(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_extent(steer_world *world, steer_agent_id id, float z, float height);
/// Reciprocal avoidance's right of way (finite): the lower takes more of
/// the avoidance (docs/crowds.md, priority).
STEER_API float steer_agent_get_priority(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_priority(steer_world *world, steer_agent_id id, float priority);
/// The agent's key (its random stream and tie-break identity).
STEER_API uint64_t steer_agent_get_key(const steer_world *world, steer_agent_id id);
/// The host's pointer, untouched by the engine.
STEER_API void *steer_agent_get_user_data(const steer_world *world, steer_agent_id id);
STEER_API void steer_agent_set_user_data(steer_world *world, steer_agent_id id, void *user_data);
/// The agent's presentation colour, 0xRRGGBBAA, for viewers and the debug
/// draw (STEER_DRAW_AGENTS); 0: none (the default: a viewer picks one). The
/// engine never reads it in a step. Setting it may allocate (the first
/// colour of a world) and is refused during a step: false when memory ran
/// out or the id is stale.
STEER_API bool steer_agent_set_color(steer_world *world, steer_agent_id id, steer_color color);
STEER_API steer_color steer_agent_get_color(const steer_world *world, steer_agent_id id);
/// The steering the last step applied to the agent (zero before any step).
/// During a step (a callback behaviour asking) it is still the step
/// before's, whatever the worker count and evaluation order.
STEER_API steer_steering steer_agent_get_last_steering(const steer_world *world, steer_agent_id id);

/* ---- behaviours ------------------------------------------------------------- */

/// Create a behaviour (reference count 1); NULL if def is invalid (assert).
STEER_API steer_behaviour *steer_behaviour_create(const steer_behaviour_def *def);
/// Add a reference.
STEER_API steer_behaviour *steer_behaviour_retain(steer_behaviour *behaviour);
/// Drop a reference; the last one destroys it and releases its children.
STEER_API void steer_behaviour_release(steer_behaviour *behaviour);
/// The behaviour's type.
STEER_API steer_behaviour_type steer_behaviour_get_type(const steer_behaviour *behaviour);
/// A name for the behaviour (copied; at most STEER_MAX_BEHAVIOUR_NAME
/// bytes, NULL or "" clears it). Snapshots keep names; a callback
/// behaviour needs one to be saved (steer_snapshot_resolve_fn). False when
/// too long or out of memory.
STEER_API bool steer_behaviour_set_name(steer_behaviour *behaviour, const char *name);
/// Its name, or NULL.
STEER_API const char *steer_behaviour_get_name(const steer_behaviour *behaviour);

/// snake_case name of a type ("arrive", "look_where_you_are_going", ...).
STEER_API const char *steer_behaviour_type_name(steer_behaviour_type type);
/// The current parameters (children, callback and path included, borrowed).
STEER_API const steer_behaviour_def *steer_behaviour_get_def(const steer_behaviour *behaviour);
/// Evaluate for one agent without stepping (the notes' getSteering). Uses a
/// copy of the agent's memory and random stream, so it changes nothing.
/// Returns false for "no steering". Callback behaviours are called.
STEER_API bool steer_behaviour_get_steering(const steer_behaviour *behaviour, steer_world *world,
                                  steer_agent_id agent, float dt, steer_steering *out);

/// Record a traced agent's trace from an evaluation of its behaviour now, as
/// steer_behaviour_get_steering evaluates it (copies of its memory and
/// random stream: nothing else changes), for an inspector of a paused world
/// that has not stepped since the agent was traced. False when the agent is
/// not traced or has no behaviour (and during a step).
STEER_API bool steer_agent_trace_preview(steer_world *world, steer_agent_id agent, float dt);

/// Reflected parameters of a type, for hosts (bindings) that set them by name.
STEER_API int steer_behaviour_param_count(steer_behaviour_type type);
STEER_API const steer_param_info *steer_behaviour_param(steer_behaviour_type type, int i);
/// The parameter of a type by name, or NULL.
STEER_API const steer_param_info *steer_behaviour_find_param(steer_behaviour_type type, const char *name);
/// Check a value for a parameter against def (cross-field rules included).
/// NULL when fine, else a phrase such as "must be a positive number".
STEER_API const char *steer_param_check(const steer_behaviour_def *def, const steer_param_info *param,
                              double value, char *buffer, size_t size);
/// Read a parameter as a number (bools 0/1, enums their index).
STEER_API double steer_behaviour_get_param(const steer_behaviour *behaviour, const steer_param_info *param);
/// Write a parameter; asserts and returns false when steer_param_check fails.
STEER_API bool steer_behaviour_set_param(steer_behaviour *behaviour, const steer_param_info *param,
                               double value);
/// Replace the target (agent targets are looked up in the evaluating world).
STEER_API void steer_behaviour_set_target(steer_behaviour *behaviour, steer_target target);
/// Replace follow_path's path (retained; NULL clears).
STEER_API void steer_behaviour_set_path(steer_behaviour *behaviour, steer_path *path);
/// (Tree limits: STEER_MAX_TREE_DEPTH, _NODES, _MEMORY in steer/constants.h.)
/// Combinators: number of children.
STEER_API int steer_behaviour_child_count(const steer_behaviour *behaviour);
/// Child i (borrowed), 0 <= i < steer_behaviour_child_count.
STEER_API steer_child steer_behaviour_get_child(const steer_behaviour *behaviour, int i);
/// Whether steer_behaviour_set_children(behaviour, ...) would be accepted:
/// NULL when it would, else a phrase ("would contain itself", "would nest
/// more than 200 levels deep", ...). behaviour NULL checks a new combinator.
/// Linear in the size of the graph, shared nodes visited once.
STEER_API const char *steer_behaviour_check_children(const steer_behaviour *behaviour, const steer_child *children,
                                                     int count, char *buffer, size_t size);
/// Replace the children (retained; the old ones released). Refused (assert,
/// false) when steer_behaviour_check_children refuses, or during a step.
STEER_API bool steer_behaviour_set_children(steer_behaviour *behaviour, const steer_child *children,
                                            int count);
/// True if `inner` is `outer` or nested anywhere inside it (linear time).
STEER_API bool steer_behaviour_contains(const steer_behaviour *outer, const steer_behaviour *inner);
/// Shape of the unfolded tree under a behaviour (itself included): levels
/// (1 for a leaf), nodes, floats of per-agent memory.
STEER_API int steer_behaviour_tree_depth(const steer_behaviour *behaviour);
STEER_API int steer_behaviour_tree_nodes(const steer_behaviour *behaviour);
STEER_API int steer_behaviour_tree_memory(const steer_behaviour *behaviour);

/* ---- paths ------------------------------------------------------------------ */

/// Links of a polyline through count points (paths, walls): count - 1 when
/// open; count when looped, unless the last point repeats the first (then it
/// closes on its own); 0 when count < 2.
STEER_API int steer_polyline_link_count(const steer_vec2 *points, int count, bool loop);
/// True if steer_path_create accepts def: at least 2 finite points,
/// consecutive points distinct, a positive finite length.
STEER_API bool steer_path_def_is_valid(const steer_path_def *def);
/// Create a path (reference count 1); NULL if def is invalid (assert).
STEER_API steer_path *steer_path_create(const steer_path_def *def);
/// Add a reference; drop one (the last destroys the path).
STEER_API steer_path *steer_path_retain(steer_path *path);
STEER_API void steer_path_release(steer_path *path);
/// The points as given, 0 <= i < count; whether the path is closed.
STEER_API int steer_path_point_count(const steer_path *path);
STEER_API steer_vec2 steer_path_point(const steer_path *path, int i);
STEER_API bool steer_path_is_loop(const steer_path *path);
/// Total length in metres (the closing segment included when looped).
STEER_API float steer_path_length(const steer_path *path);
/// Point at a distance along the path: clamped to [0, length] when open,
/// wrapped when looped.
STEER_API steer_vec2 steer_path_position(const steer_path *path, float param);
/// Distance along the path of the point nearest to `position` (the notes'
/// getParam). With a last_param >= 0 the search prefers the stretch near
/// it, so self-crossing paths are followed in order; pass -1 for a global search.
STEER_API float steer_path_param(const steer_path *path, steer_vec2 position, float last_param,
                       float window);

/* ---- static geometry and rays ----------------------------------------------- */

/// Add a wall segment a-b (a != b).
STEER_API steer_shape_id steer_world_add_segment(steer_world *world, steer_vec2 a, steer_vec2 b);
/// Add a chain of walls through count >= 2 points; loop closes it.
STEER_API steer_shape_id steer_world_add_polyline(steer_world *world, const steer_vec2 *points, int count,
                                        bool loop);
/// Add a solid circle (radius > 0).
STEER_API steer_shape_id steer_world_add_circle(steer_world *world, steer_vec2 center, float radius);
/// Add a solid axis-aligned box with corners lower < upper.
STEER_API steer_shape_id steer_world_add_box(steer_world *world, steer_vec2 lower, steer_vec2 upper);
/// Add a solid convex polygon (3 to STEER_MAX_POLYGON_VERTICES points, any winding).
STEER_API steer_shape_id steer_world_add_polygon(steer_world *world, const steer_vec2 *points, int count);
/// True if steer_world_add_polygon accepts the points: 3 to
/// STEER_MAX_POLYGON_VERTICES finite points within STEER_MAX_COORDINATE,
/// strictly convex (no three in line), either winding.
STEER_API bool steer_polygon_is_valid(const steer_vec2 *points, int count);
/// Remove a shape; stale ids are ignored.
STEER_API void steer_shape_destroy(steer_world *world, steer_shape_id id);
/// True while the shape exists.
STEER_API bool steer_shape_is_valid(const steer_world *world, steer_shape_id id);
/// Its kind (segment, polyline, circle, box, polygon).
STEER_API steer_shape_type steer_shape_get_type(const steer_world *world, steer_shape_id id);
/// The shape's layer ("category") bits, tested against a ray filter's mask
/// and an agent's (default 1).
STEER_API void steer_shape_set_category(steer_world *world, steer_shape_id id, uint32_t category);
/// The shape's layer bits (0 for a stale id, with an assert).
STEER_API uint32_t steer_shape_get_category(const steer_world *world, steer_shape_id id);
/// Floors: the shape's vertical extent [z, z + height] (z finite, height
/// finite and >= 0; default 0, 0): it meets agents and rays whose extent
/// overlaps it.
STEER_API void steer_shape_set_extent(steer_world *world, steer_shape_id id, float z, float height);
/// Its z and height (0, 0 for a stale id, with an assert).
STEER_API void steer_shape_get_extent(const steer_world *world, steer_shape_id id, float *z, float *height);
/// Number of live shapes.
STEER_API int steer_world_shape_count(const steer_world *world);

/// Closest hit of the ray origin + direction * s, 0 <= s <= max_distance
/// metres along the unit direction (direction need not be unit: any nonzero
/// finite one works, denormal or near FLT_MAX; only a zero direction hits
/// nothing). False if none. filter may be NULL (default). The hit's normal
/// is unit and never points along the ray (dot(normal, direction) <= 0).
/// A ray starting inside a solid hits it at distance 0 (point = origin,
/// normal = -direction); hits at max_distance count; the other edge cases
/// are listed in docs/geometry.md.
STEER_API bool steer_world_raycast(steer_world *world, steer_vec2 origin, steer_vec2 direction,
                         float max_distance, const steer_ray_filter *filter, steer_ray_hit *hit);
/// Visits hits in order of distance. The callback returns the clip: a value
/// < 0 ignores this hit and goes on; 0 stops; d > 0 goes on with hits up to
/// distance d (return hit->distance to keep only ties; max_distance for all).
typedef float steer_ray_fn(const steer_ray_hit *hit, void *context);
STEER_API void steer_world_raycast_all(steer_world *world, steer_vec2 origin, steer_vec2 direction,
                             float max_distance, const steer_ray_filter *filter, steer_ray_fn *fn,
                             void *context);


/* ---- debug draw and tracing ------------------------------------------------- */

/// An empty draw struct: no callbacks, every flag, scales 0.25 s^2 and 0.5 s.
STEER_API steer_debug_draw steer_default_debug_draw(void);
/// Report the world to draw's callbacks (static shapes, agents, paths, and the
/// last step's trace of traced agents, per draw->flags). Not while stepping.
STEER_API void steer_world_draw(steer_world *world, const steer_debug_draw *draw);
/// The colour steer_world_draw gives a blend child by its index among the
/// parent's children (STEER_DRAW_TREE): 8 colours, repeating, so an
/// inspector can match the drawing.
STEER_API steer_color steer_debug_child_color(int index);
/// The colour steer_world_draw uses for an entry of its palette, and what
/// it draws in it ("velocity", "avoidance ray hit", ...), for legends.
STEER_API steer_color steer_debug_palette(steer_debug_palette_entry entry);
STEER_API const char *steer_debug_palette_name(steer_debug_palette_entry entry);
/// Record what the agent's evaluation does from the next step on (off by
/// default; a trace buffer is allocated when turned on). False when memory ran out.
STEER_API bool steer_agent_set_trace(steer_world *world, steer_agent_id id, bool trace);
/// Whether the agent is traced.
STEER_API bool steer_agent_get_trace(const steer_world *world, steer_agent_id id);
/// Nodes recorded by the agent's last traced evaluation (0 when untraced).
STEER_API int steer_agent_trace_node_count(const steer_world *world, steer_agent_id id);
/// Node i of the last traced evaluation; false when out of range.
STEER_API bool steer_agent_trace_node(const steer_world *world, steer_agent_id id, int i, steer_trace_node *out);
/// True when the last traced evaluation had more nodes than STEER_TRACE_MAX_NODES.
STEER_API bool steer_agent_trace_truncated(const steer_world *world, steer_agent_id id);
/* ---- navigation (docs/navigation.md) --------------------------------------- */

/// The planner navigate and steer_world_move_group use (copied; NULL: none,
/// then navigate steers straight at its goal). Not while stepping.
STEER_API void steer_world_set_planner(steer_world *world, const steer_planner *planner);
/// The world's planner; false when it has none.
STEER_API bool steer_world_get_planner(const steer_world *world, steer_planner *out);
/// The agent's own goal, for a navigate without a target (NULL clears it;
/// finite). Its plan is made again at the next step. Not while stepping.
STEER_API void steer_agent_set_goal(steer_world *world, steer_agent_id id, const steer_vec2 *goal);
/// The agent's own goal; false when it has none.
STEER_API bool steer_agent_get_goal(const steer_world *world, steer_agent_id id, steer_vec2 *goal);
/// True when the agent's navigate has made no progress towards its goal for
/// its stuck_time (its route's remaining length has not fallen by 0.25 m),
/// and it is further than its slow_radius from the goal.
STEER_API bool steer_agent_get_stuck(const steer_world *world, steer_agent_id id);
/// The agent's navigate plan: writes up to capacity route points and fills
/// info (may be NULL); returns the number of points (0: no plan).
STEER_API int steer_agent_get_plan(const steer_world *world, steer_agent_id id, steer_vec2 *points, int capacity,
                                   steer_plan_info *info);
/// The navigate node an agent with this behaviour plans for: the first
/// navigate in its tree, in evaluation order; NULL when there is none.
STEER_API const steer_behaviour *steer_behaviour_navigate_node(const steer_behaviour *behaviour);
/// Send a group to one point: each agent gets its own stop point near `to`
/// (a hexagonal lattice `spacing` apart, 0: 4.4 x the largest radius, so that
/// an agent passes between two settled ones; points
/// closest to `to` first, each clear of the shapes and in sight of `to`),
/// by the optimal assignment, the agents with the shortest way to go taking
/// the points furthest in; each stop point becomes the agent's goal
/// (steer_agent_set_goal). Writes the stop points (by agent) to stops when
/// given. Returns count, or 0 when refused: `to` not clear of the shapes by
/// the largest radius, a stale or repeated agent, no room (fewer free
/// points than agents within 4 x the group's own size), or during a step.
STEER_API int steer_world_move_group(steer_world *world, const steer_agent_id *agents, int count, steer_vec2 to,
                                     float spacing, steer_vec2 *stops);

/* ---- formations ------------------------------------------------------------- */

/// Formation defaults: a line, spacing 2 m, no leader, anchor at the origin
/// (3 m/s, pi rad/s, moderation 1.5 m), steered members, optimal
/// assignment, distance weight 1, no roles, 16 members reserved.
STEER_API steer_formation_def steer_default_formation_def(void);
/// Create a formation in a world (the world owns it; destroyed with it);
/// null id if def is invalid (assert), during a step, or out of memory.
STEER_API steer_formation_id steer_formation_create(steer_world *world, const steer_formation_def *def);
/// Destroy a formation; stale ids are ignored. Members keep their behaviours
/// (a formation_slot behaviour of a destroyed formation gives no steering).
STEER_API void steer_formation_destroy(steer_world *world, steer_formation_id id);
/// True while the formation exists.
STEER_API bool steer_formation_is_valid(const steer_world *world, steer_formation_id id);
/// The current definition (arrays borrowed until the next change).
STEER_API const steer_formation_def *steer_formation_get_def(const steer_world *world, steer_formation_id id);
/// Replace the definition (pattern, spacing, leader, anchor, motion,
/// assignment, costs; member_capacity is ignored) and reassign. Refused
/// (assert, false) for an invalid def, a leader that is a member, a
/// leader that would make formations lead each other in a cycle, or during a step.
STEER_API bool steer_formation_set_def(steer_world *world, steer_formation_id id, const steer_formation_def *def);
/// Add a live agent with a cost role (0: none; the index of its row in the
/// definition's cost_role_costs, not a script's role) and reassign. Refused (false) if
/// the agent is the leader, already in a formation, or would close a cycle
/// of formations (it leads a formation above this one).
STEER_API bool steer_formation_add(steer_world *world, steer_formation_id id, steer_agent_id agent, int cost_role);
/// Whether steer_formation_add would accept the agent: NULL when it would,
/// else a phrase ("must be a live agent", "must not be the formation's
/// leader", "is already a member of a formation", "would make formations
/// lead each other in a cycle").
STEER_API const char *steer_formation_check_add(const steer_world *world, steer_formation_id id, steer_agent_id agent);
/// Whether agent (null: none) may lead the formation: NULL, or a phrase
/// ("must be a live agent", "must not be a member of the formation", "would
/// make formations lead each other in a cycle").
STEER_API const char *steer_formation_check_leader(const steer_world *world, steer_formation_id id,
                                                   steer_agent_id agent);
/// Change a member's cost role (index into the cost role table); the next
/// reassignment uses it (steer_formation_set_def and the others reassign).
STEER_API bool steer_formation_set_member_cost_role(steer_world *world, steer_formation_id id, steer_agent_id agent,
                                                    int cost_role);
/// Slots a member is allowed in (cost role and extra costs not forbidden).
STEER_API int steer_formation_allowed_slots(const steer_world *world, steer_formation_id id, steer_agent_id agent);
/// True if b may steer an anchor: no callback or formation_slot behaviour
/// anywhere in its tree.
STEER_API bool steer_formation_can_steer_anchor(const steer_behaviour *b);
/// Remove a member and reassign; false if it was not one.
STEER_API bool steer_formation_remove(steer_world *world, steer_formation_id id, steer_agent_id agent);
/// Members (in order of joining); member i, 0 <= i < count.
STEER_API int steer_formation_member_count(const steer_world *world, steer_formation_id id);
STEER_API steer_agent_id steer_formation_member_at(const steer_world *world, steer_formation_id id, int i);
/// The formation an agent is a member of (null if none).
STEER_API steer_formation_id steer_agent_get_formation(const steer_world *world, steer_agent_id agent);
/// Per-slot extra costs of a member (count entries, slot 0 first; missing
/// slots cost 0; INFINITY forbids). Reassigns.
STEER_API bool steer_formation_set_member_costs(steer_world *world, steer_formation_id id, steer_agent_id agent,
                                                const float *costs, int count);
/// Assign again now (optimal: exact minimum; the current assignment is kept
/// when it costs no more than the minimum, so ties never swap members).
STEER_API void steer_formation_reassign(steer_world *world, steer_formation_id id);
/// Number of slots (built-in patterns: one per member).
STEER_API int steer_formation_slot_count(const steer_world *world, steer_formation_id id);
/// The slot a member holds, or -1.
STEER_API int steer_formation_slot_of(const steer_world *world, steer_formation_id id, steer_agent_id agent);
/// The member holding a slot, or null.
STEER_API steer_agent_id steer_formation_slot_holder(const steer_world *world, steer_formation_id id, int slot);
/// A slot's offset, orientation and cost role in the reference's frame.
STEER_API steer_formation_slot steer_formation_get_slot(const steer_world *world, steer_formation_id id, int slot);
/// A slot's target now, in world coordinates (m, rad); false when the
/// formation has no reference (a removed leader) or slot is out of range.
STEER_API bool steer_formation_slot_target(const steer_world *world, steer_formation_id id, int slot,
                                           steer_vec2 *position, float *orientation);
/// Emergent motion: the agent a member follows (its parent slot's holder,
/// or the leader; null for the anchor). Other motions: the leader.
STEER_API steer_agent_id steer_formation_followed(const steer_world *world, steer_formation_id id,
                                                  steer_agent_id agent);
/// Total cost of the current assignment, with positions now (INFINITY if
/// a member holds a forbidden slot).
STEER_API float steer_formation_total_cost(const steer_world *world, steer_formation_id id);
/// Anchor state now: position, orientation; the factor (0, 1] by which
/// motion moderation scaled its speed in the last step.
STEER_API steer_vec2 steer_formation_anchor_position(const steer_world *world, steer_formation_id id);
STEER_API float steer_formation_anchor_orientation(const steer_world *world, steer_formation_id id);
STEER_API float steer_formation_anchor_moderation(const steer_world *world, steer_formation_id id);
/// The work of the assignment a formation's next read or step will run, 0
/// when it is up to date: about members x columns^2 steps for an optimal
/// assignment (columns: the larger of members and slots; it is O(n^3)),
/// members x slots for an ordered one. Hosts charge it to a script's budget
/// before the call that runs it (steer_lua_set_work_hook).
STEER_API double steer_formation_pending_work(const steer_world *world, steer_formation_id id);
/// The same summed over the world's formations: what the next step or
/// preview (steer_behaviour_get_steering) assigns first.
STEER_API double steer_world_pending_formation_work(const steer_world *world);
/// Number of live formations.
STEER_API int steer_world_formation_count(const steer_world *world);

/// Exact minimum-cost assignment of rows to distinct columns
/// (rows <= cols): cost[r * cols + c], INFINITY forbidden. Writes the column
/// of each row to row_to_col (-1 when only forbidden columns remained);
/// returns the total cost of the allowed pairs. Ties go to the lowest
/// indices. scratch: steer_assignment_scratch_size(rows, cols) bytes, or
/// NULL to allocate (the step passes reserved scratch).
STEER_API double steer_assign_optimal(const float *cost, int rows, int cols, int *row_to_col, void *scratch);
/// Bytes of scratch steer_assign_optimal needs.
STEER_API size_t steer_assignment_scratch_size(int rows, int cols);

STEER_EXTERN_C_END

#endif
