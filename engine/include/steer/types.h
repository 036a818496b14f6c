/// steer/types.h: definition structs, state structs and enums.
///
/// Every creatable object has a `steer_<x>_def` and a `steer_default_<x>_def()`
/// that fills it with the defaults (all defaults live in engine/src/defaults.c).
/// Units: metres, seconds, radians.
#ifndef STEER_TYPES_H
#define STEER_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "constants.h"
#include "id.h"
#include "math.h"

STEER_EXTERN_C_BEGIN

typedef struct steer_world steer_world;
typedef struct steer_behaviour steer_behaviour;
typedef struct steer_path steer_path;

/// Assert hook: called when a precondition fails (bad definition, stale id,
/// NaN input...). The engine then refuses the call harmlessly (returns a null
/// id, false, or leaves state unchanged). The default hook prints to stderr
/// and aborts in debug builds (NDEBUG undefined); in release builds it prints.
typedef void steer_assert_fn(const char *condition, const char *file, int line, void *context);

/// How a world integrates accelerations (the notes' update functions).
typedef enum steer_integrator {
    /// position += velocity*t; orientation += rotation*t;
    /// velocity += linear*t; rotation += angular*t (the notes' order).
    STEER_INTEGRATOR_EULER = 0,
    /// As euler plus the 0.5*a*t^2 terms on position and orientation.
    STEER_INTEGRATOR_NEWTON = 1,
} steer_integrator;


/// One piece of a parallel task: items [start, end), run by worker `worker`
/// (0 <= worker < worker_count; no two pieces run at once on one worker).
typedef void steer_task_fn(int start, int end, int worker, void *task_context);
/// An embedder's task system (as Box2D v3's b2EnqueueTaskCallback): run
/// task over [0, item_count) in pieces of at least min_range items (except
/// the last), each piece on some worker index below worker_count, possibly
/// in parallel. Return a handle for finish_task, or NULL after running every
/// piece before returning. Pieces may be split any way: results are the same.
typedef void *steer_enqueue_task_fn(steer_task_fn *task, int item_count, int min_range, void *task_context,
                                    void *user_context);
/// Wait until every piece of an enqueued task has run (handle from enqueue_task).
typedef void steer_finish_task_fn(void *user_task, void *user_context);

/// Parameters of a world.
typedef struct steer_world_def {
    uint64_t seed;               ///< root of every random stream (default 0)
    steer_integrator integrator; ///< default STEER_INTEGRATOR_EULER
    /// Side of a neighbour-grid cell in metres (in [STEER_MIN_CELL_SIZE,
    /// STEER_MAX_CELL_SIZE] = [1e-3, 1e9], default 4). Best near the
    /// largest neighbour radius in use. It changes speed, not behaviour: the
    /// same neighbours are found, but their sums are added in grid order, so
    /// the last bits can differ between cell sizes (never between runs).
    float cell_size;
    int agent_capacity; ///< agents allocated up front (0: default 64)
    /// After integration, push agents out of static geometry and remove their
    /// velocity into it (default false).
    bool resolve_contacts;
    /// After integration, separate overlapping agents (a few relaxation
    /// passes from start-of-pass positions, order-independent) and keep
    /// them out of static geometry (default false; docs/crowds.md).
    bool resolve_agent_contacts;
    /// Threads a step may use, the calling thread included, 1 to
    /// STEER_MAX_WORKERS (default 1). Every worker count gives the same bits
    /// (docs/engine.md, threads). Behaviours whose tree holds a callback
    /// always run on the thread calling steer_world_step.
    int worker_count;
    /// The embedder's task system; both NULL (default): with worker_count > 1
    /// the world starts worker_count - 1 threads of its own (pthreads).
    steer_enqueue_task_fn *enqueue_task;
    steer_finish_task_fn *finish_task;
    void *user_task_context; ///< the user_context passed to both
    int cookie; ///< set by steer_default_world_def, checked on create
} steer_world_def;

/// Position, orientation and their rates: the notes' Kinematic.
typedef struct steer_kinematic {
    steer_vec2 position; ///< metres
    float orientation;   ///< radians in (-pi, pi], heading (sin a, cos a)
    steer_vec2 velocity; ///< metres/second
    float rotation;      ///< radians/second
} steer_kinematic;

/// An agent's physical limits.
typedef struct steer_limits {
    float radius;                   ///< metres, >= 0 (default 0.5)
    float max_speed;                ///< metres/second, >= 0, finite (default 5)
    float max_acceleration;         ///< metres/second^2, >= 0 (default 10)
    float max_rotation;             ///< radians/second, >= 0 (default pi)
    float max_angular_acceleration; ///< radians/second^2, >= 0 (default 2 pi)
    /// Linear drag per second, >= 0 (default 0): velocity /= 1 + drag*t each step.
    float drag;
} steer_limits;

/// Parameters of a new agent.
typedef struct steer_agent_def {
    steer_kinematic state;
    steer_limits limits;
    /// Kinematic agent: the behaviour's output is a velocity and a rotation,
    /// taken directly (the notes' kinematic movement). Default false.
    bool kinematic;
    /// Orientation follows the velocity after each step (the notes'
    /// getNewOrientation; kept when stopped). Default false.
    bool face_velocity;
    /// Layers (docs/engine.md, layers and floors): the layers the agent is
    /// on (default 1)...
    uint32_t layer;
    /// ...and those it sees (default STEER_ALL_LAYERS): its neighbour
    /// behaviours, avoidance, contacts and rays take only agents and shapes
    /// whose layer & mask != 0.
    uint32_t mask;
    /// Floors: the agent's vertical extent is [z, z + height] metres (z
    /// finite, height finite and >= 0; default 0 and 0). It meets only the
    /// agents and shapes whose extent overlaps it (touching counts). Ramps
    /// are the game's: it sets z.
    float z, height;
    /// Reciprocal avoidance: of two avoiders the one with the lower priority
    /// takes more of the avoidance, all of it against a much higher one
    /// (finite, default 0; docs/crowds.md).
    float priority;
    steer_behaviour *behaviour; ///< retained by the agent; may be NULL
    /// Identity of the agent's random stream (wander, kinematic wander) and
    /// the last tie-break between agents in the very same state (0: the
    /// world assigns 1, 2, 3... in spawn order). Neighbours are visited in an
    /// order of their states, not keys, so without keys a change of spawn
    /// order only moves agents that use randomness (or sit on the very same
    /// point as another); give unique keys to make those independent of it.
    uint64_t key;
    void *user_data;
    int cookie;
} steer_agent_def;

/// A steering output: the notes' SteeringOutput. For kinematic behaviours
/// `linear` is a velocity and `angular` a rotation.
typedef struct steer_steering {
    steer_vec2 linear; ///< metres/second^2 (or metres/second when kinematic)
    float angular;     ///< radians/second^2 (or radians/second when kinematic)
} steer_steering;

/// Every behaviour type.
typedef enum steer_behaviour_type {
    STEER_KINEMATIC_SEEK,
    STEER_KINEMATIC_FLEE,
    STEER_KINEMATIC_ARRIVE,
    STEER_KINEMATIC_WANDER,
    STEER_SEEK,
    STEER_FLEE,
    STEER_ARRIVE,
    STEER_ALIGN,
    STEER_VELOCITY_MATCH,
    STEER_PURSUE,
    STEER_EVADE,
    STEER_FACE,
    STEER_LOOK_WHERE_YOU_ARE_GOING,
    STEER_WANDER,
    STEER_FOLLOW_PATH,
    STEER_SEPARATION,
    STEER_COHESION,
    STEER_ALIGNMENT,
    STEER_COLLISION_AVOIDANCE,
    STEER_OBSTACLE_AVOIDANCE,
    STEER_BLEND,
    STEER_PRIORITY,
    STEER_CALLBACK,
    /// Arrive at and align to the agent's slot of a formation (formation.c).
    STEER_FORMATION_SLOT,
    /// ORCA (van den Berg et al. 2011) around one child, the preferred
    /// velocity (docs/crowds.md).
    STEER_RECIPROCAL_AVOIDANCE,
    /// Plan round the static shapes to the target (or the agent's own goal,
    /// steer_agent_set_goal) through the world's planner, follow the plan,
    /// replan when needed (docs/navigation.md).
    STEER_NAVIGATE,
    STEER_BEHAVIOUR_TYPE_COUNT
} steer_behaviour_type;

/// What a behaviour aims at.
typedef enum steer_target_kind {
    STEER_TARGET_NONE = 0,
    STEER_TARGET_POINT,
    STEER_TARGET_AGENT,
} steer_target_kind;

typedef struct steer_target {
    steer_target_kind kind;
    steer_vec2 point;     ///< when kind == STEER_TARGET_POINT
    steer_agent_id agent; ///< when kind == STEER_TARGET_AGENT (looked up in the evaluating world)
} steer_target;

/// Separation strength law (the notes give both).
typedef enum steer_separation_law {
    /// strength = min(decay_coefficient / distance^2, max_acceleration)
    STEER_LAW_INVERSE_SQUARE = 0,
    /// strength = max_acceleration * (radius - distance) / radius
    STEER_LAW_LINEAR = 1,
} steer_separation_law;

/// Ray layout of obstacle_avoidance.
typedef enum steer_ray_layout {
    STEER_RAYS_SINGLE = 0,   ///< one ray along the velocity
    STEER_RAYS_WHISKERS = 1, ///< a central ray plus two shorter side rays at an angle
    STEER_RAYS_PARALLEL = 2, ///< two rays offset sideways by the agent's radius
} steer_ray_layout;

/// What a callback behaviour returns.
typedef enum steer_callback_result {
    STEER_CALLBACK_NONE = 0,     ///< no steering
    STEER_CALLBACK_STEERING = 1, ///< *out holds the steering
    STEER_CALLBACK_ERROR = -1,   ///< failed: the agent's whole output is zero this step
} steer_callback_result;

/// A behaviour written by the host (for example in Lua). Called from the
/// serial evaluation pass only.
typedef steer_callback_result steer_callback_fn(steer_world *world, steer_agent_id agent, float dt,
                                                steer_steering *out, void *context);
/// Releases a callback behaviour's context when the behaviour is destroyed.
typedef void steer_release_fn(void *context);

/// A child of a combinator: for a blend its weight, for a priority a group.
typedef struct steer_child {
    steer_behaviour *behaviour;
    float weight; ///< blend weight, finite (priority ignores it)
} steer_child;

/// Parameters of a behaviour. One struct for every type: each type reads the
/// fields its notes name (see steer_behaviour_param_info); the rest are
/// ignored. `steer_default_behaviour_def(type)` gives the notes' defaults.
typedef struct steer_behaviour_def {
    steer_behaviour_type type;
    steer_target target;
    steer_path *path; ///< follow_path's path (retained)

    /// Overrides of the character's limits for this behaviour and everything
    /// under it; negative (the default, -1) inherits the agent's value.
    float max_speed, max_acceleration, max_rotation, max_angular_acceleration;

    /// kinematic_arrive: satisfaction radius. separation, cohesion,
    /// alignment, collision_avoidance: how far to look for neighbours.
    float radius;
    float time_to_target; ///< seconds > 0 (0.25 kinematic_arrive, else 0.1)
    float target_radius;  ///< arrive: metres; align family: radians
    float slow_radius;    ///< arrive: metres; align family: radians (>= target_radius)
    float orientation;    ///< align's target orientation when target is not an agent
    float max_prediction; ///< pursue, evade: seconds > 0
    /// flee, evade: steer only while the target is closer than panic_radius
    /// metres (> 0); use_panic_radius enables it (off: at any range, the
    /// notes' flee).
    float panic_radius;
    bool use_panic_radius;
    /// pursue: arrive at the predicted point instead of seeking it when the
    /// pursuer would overshoot (uses target_radius, slow_radius).
    bool arrive_on_overshoot;
    float wander_offset, wander_radius; ///< metres
    float wander_rate;                  ///< radians, max change of the wander orientation a step
    float path_offset;                  ///< metres along the path ahead of the agent
    float predict_time;                 ///< seconds; 0: not predictive
    float decay_coefficient;            ///< separation inverse-square constant k
    steer_separation_law law;
    /// collision_avoidance: engage only neighbours inside the cone
    /// heading . direction > cone_threshold (a cosine); use_cone enables it.
    float cone_threshold;
    bool use_cone;
    float lookahead;      ///< obstacle_avoidance: ray length in metres
    float avoid_distance; ///< obstacle_avoidance: metres off the wall to seek
    steer_ray_layout rays;
    float whisker_angle; ///< radians between the central and a side whisker
    float whisker_scale; ///< side whisker length / lookahead, in (0, 1]
    /// obstacle_avoidance: lookahead scales with speed / max_speed
    /// (never shorter than the agent's radius).
    bool scale_lookahead;
    float epsilon; ///< priority: a group's output must exceed this
    /// reciprocal_avoidance: seconds ahead within which collisions with
    /// agents are avoided (> 0, default 2).
    float time_horizon;
    /// reciprocal_avoidance: seconds ahead for static geometry (> 0, default 1).
    float obstacle_time_horizon;
    /// reciprocal_avoidance: the closest neighbours considered, a whole
    /// number in [1, 64] (default 10); `radius` is how far to look.
    float max_neighbours;
    /// navigate: clearance the plan keeps from shapes, metres, when
    /// use_radius (default: unset, the agent's radius); the other types'
    /// `radius` is the field above.
    bool use_radius;
    /// navigate: replan when the target has moved, or the agent has strayed
    /// from its route, by more than this (metres > 0, default 2).
    float replan_distance;
    /// navigate: the agent is stuck when its remaining route has not
    /// shortened by 0.25 m for this many seconds (> 0, default 3).
    float stuck_time;

    /// blend, priority (copied and retained); reciprocal_avoidance: exactly
    /// one, the behaviour giving the preferred velocity
    const steer_child *children;
    int child_count;

    steer_callback_fn *callback; ///< STEER_CALLBACK
    void *context;
    steer_release_fn *release;

    /// STEER_FORMATION_SLOT: the formation whose slot the agent steers to
    /// (looked up in the evaluating world; a stale id gives no steering).
    steer_formation_id formation;
    int cookie;
} steer_behaviour_def;

/// Kind of a reflected behaviour parameter.
typedef enum steer_param_kind {
    STEER_PARAM_FLOAT,       ///< float field
    STEER_PARAM_LIMIT,       ///< float override: negative means "inherit"
    STEER_PARAM_BOOL,        ///< bool field
    STEER_PARAM_ENUM,        ///< int-sized enum field; `choices` names its values
    /// float that may be unset: a bool at flag_offset says whether it is set
    STEER_PARAM_OPTIONAL,
} steer_param_kind;

/// Range rule of a float parameter.
typedef enum steer_param_rule {
    STEER_RULE_FINITE,      ///< any finite number
    STEER_RULE_NONNEGATIVE, ///< finite, >= 0
    STEER_RULE_POSITIVE,    ///< finite, > 0
    STEER_RULE_COSINE,      ///< finite, in [-1, 1]
    STEER_RULE_UNIT,        ///< finite, in (0, 1]
} steer_param_rule;

/// A parameter of a behaviour type, for hosts that expose parameters by name
/// (the Lua bindings read and write every option through this table).
typedef struct steer_param_info {
    const char *name;           ///< snake_case, as in the Lua API
    steer_param_kind kind;
    steer_param_rule rule;
    size_t offset;              ///< offset of the field in steer_behaviour_def
    const char *const *choices; ///< ENUM: names, NULL-terminated, in enum order
    const char *unit;           ///< documentation: "m", "s", "rad", ...
    size_t flag_offset;         ///< OPTIONAL: offset of its bool "is set"
} steer_param_info;

/// Parameters of a path: a polyline through `points`.
typedef struct steer_path_def {
    const steer_vec2 *points; ///< copied; at least 2, consecutive points distinct
    int count;
    bool loop; ///< closed: the last point joins the first
    int cookie;
} steer_path_def;

/// Kind of a static shape.
typedef enum steer_shape_type {
    STEER_SHAPE_SEGMENT,
    STEER_SHAPE_POLYLINE,
    STEER_SHAPE_CIRCLE,
    STEER_SHAPE_BOX,
    STEER_SHAPE_POLYGON,
} steer_shape_type;

/// Result of a ray cast.
typedef struct steer_ray_hit {
    steer_vec2 point;     ///< where the ray meets the surface
    steer_vec2 normal;    ///< unit surface normal, pointing back against the ray
    float distance;       ///< metres from the origin along the unit direction
    steer_shape_id shape; ///< the shape hit (null when an agent was hit)
    steer_agent_id agent; ///< the agent hit (null when a shape was hit)
} steer_ray_hit;

/// What a ray cast (or a filtered query) considers.
typedef struct steer_ray_filter {
    uint32_t mask;          ///< shapes and agents whose layer & mask != 0 (default all bits)
    bool include_agents;    ///< also test agents as circles (default false; queries: ignored)
    steer_agent_id ignore;  ///< an agent to skip (the caster), may be null
    /// Vertical band: only shapes and agents whose extent [z, z + height]
    /// meets [z_min, z_max] (default -inf, +inf: every one).
    float z_min, z_max;
} steer_ray_filter;


/* ---- debug draw and tracing -------------------------------------------------- */

/// What steer_world_draw reports (steer_debug_draw.flags).
typedef enum steer_draw_flags {
    STEER_DRAW_SHAPES = 1u << 0,     ///< static geometry
    STEER_DRAW_AGENTS = 1u << 1,     ///< every agent: a solid circle with its orientation, and its transform
    STEER_DRAW_PATHS = 1u << 2,      ///< paths followed by the agents' behaviours
    STEER_DRAW_VELOCITY = 1u << 3,   ///< traced agents: velocity arrow
    STEER_DRAW_STEERING = 1u << 4,   ///< traced agents: the final steering (linear)
    STEER_DRAW_TREE = 1u << 5,       ///< traced agents: blend children (output x weight), priority winner
    STEER_DRAW_RAYS = 1u << 6,       ///< traced agents: obstacle-avoidance rays and their hits
    STEER_DRAW_MARKS = 1u << 7,      ///< traced agents: wander circle and target, path target, neighbour radius
    STEER_DRAW_NAV_MESH = 1u << 8,   ///< the planner's navigation mesh (steer_planner.draw)
    STEER_DRAW_ROUTES = 1u << 9,     ///< traced agents: the route their navigate planned
    STEER_DRAW_FLOW = 1u << 10,      ///< the planner's flow field arrows (steer_planner.draw)
    STEER_DRAW_STUCK = 1u << 11,     ///< every stuck agent (steer_agent_get_stuck): a ring
    STEER_DRAW_ALL = 0xfffu
} steer_draw_flags;

/// Colours are 0xRRGGBBAA.
typedef uint32_t steer_color;

/// The debug draw's palette (steer_debug_palette): what each colour means,
/// for legends.
typedef enum steer_debug_palette_entry {
    STEER_DEBUG_SHAPE, STEER_DEBUG_PATH, STEER_DEBUG_AGENT, STEER_DEBUG_VELOCITY, STEER_DEBUG_STEERING,
    STEER_DEBUG_WINNER, STEER_DEBUG_LOSER, STEER_DEBUG_RAY, STEER_DEBUG_HIT, STEER_DEBUG_WANDER,
    STEER_DEBUG_TARGET, STEER_DEBUG_NEIGHBOURS,
    STEER_DEBUG_PALETTE_COUNT
} steer_debug_palette_entry;

/// Callbacks receiving what steer_world_draw reports, in world units (in the
/// style of Box2D v3's b2DebugDraw). Any callback may be NULL (that kind is
/// skipped). The engine draws nothing itself.
typedef struct steer_debug_draw {
    /// A segment p-q.
    void (*draw_segment)(steer_vec2 p, steer_vec2 q, steer_color color, void *context);
    /// A closed polygon outline (count points).
    void (*draw_polygon)(const steer_vec2 *points, int count, steer_color color, void *context);
    /// A filled convex polygon.
    void (*draw_solid_polygon)(const steer_vec2 *points, int count, steer_color color, void *context);
    /// A circle outline.
    void (*draw_circle)(steer_vec2 center, float radius, steer_color color, void *context);
    /// A filled circle; orientation (rad) gives an axis to show.
    void (*draw_solid_circle)(steer_vec2 center, float radius, float orientation, steer_color color,
                              void *context);
    /// A point of `size` pixels.
    void (*draw_point)(steer_vec2 p, float size, steer_color color, void *context);
    /// An arrow from origin along vector (world units).
    void (*draw_arrow)(steer_vec2 origin, steer_vec2 vector, steer_color color, void *context);
    /// A frame: position and orientation (rad).
    void (*draw_transform)(steer_vec2 position, float orientation, void *context);
    uint32_t flags;        ///< steer_draw_flags
    float steering_scale;  ///< seconds^2: a linear acceleration a is drawn as a * steering_scale metres
    float velocity_scale;  ///< seconds: a velocity v is drawn as v * velocity_scale metres
    void *context;         ///< passed to every callback
} steer_debug_draw;

/// One node of a traced agent's last evaluation, in evaluation order (a
/// node's children follow it).
typedef struct steer_trace_node {
    const steer_behaviour *behaviour; ///< compare only: it may have been released since the step
    steer_behaviour_type type;
    int depth;            ///< 0 for the agent's behaviour
    int parent;           ///< index of the parent node, -1 for the root
    int child_index;      ///< position among its parent's children
    float weight;         ///< the blend weight applied to it (1 outside a blend)
    bool has_output;      ///< false: "no steering"
    steer_steering output;///< its output before weighting
    /// priority nodes: the group (child index) that gave the linear and the
    /// angular channel: the first above epsilon, or the last that steered
    /// (fallback true); -1 when none did
    int winner_linear, winner_angular;
    bool fallback_linear, fallback_angular;
} steer_trace_node;

/* ---- navigation -------------------------------------------------------------- */

/// What a world plans with (set by a navigation layer, e.g. the Lua module's
/// steer::nav, through steer_world_set_planner; the engine itself links no
/// planner). Called on the thread stepping the world, in the step's serial
/// prepare stage and in steer_world_move_group, never from the workers.
typedef struct steer_planner {
    /// A path for a disc of `radius` from `from` to `to`, round the static
    /// shapes: writes up to capacity points (from first, to last) and its
    /// length, returns how many points it has (more than capacity: the
    /// first capacity were written); 0 when there is none, with a sentence
    /// for people in message (message_size bytes).
    int (*find_path)(void *context, steer_vec2 from, steer_vec2 to, float radius, steer_vec2 *points, int capacity,
                     float *length, char *message, int message_size);
    /// A number that changes whenever plans made before may have become
    /// wrong (shapes added or removed); NULL: never.
    uint64_t (*version)(void *context);
    /// Debug draw of what the planner holds (STEER_DRAW_NAV_MESH: the mesh
    /// for `radius`; STEER_DRAW_FLOW: flow field arrows), through draw's
    /// callbacks; NULL: nothing.
    void (*draw)(void *context, const struct steer_debug_draw *draw, float radius);
    void *context;
    /// find_path round only the shapes whose layer meets mask (navigate and
    /// steer_world_move_group pass the agent's own mask); NULL: find_path is
    /// used, round every shape.
    int (*find_path_masked)(void *context, steer_vec2 from, steer_vec2 to, float radius, uint32_t mask,
                            steer_vec2 *points, int capacity, float *length, char *message, int message_size);
} steer_planner;

/// Where an agent's navigate plan stands (steer_agent_get_plan).
typedef enum steer_plan_status {
    STEER_PLAN_NONE = 0,  ///< no plan: the agent does not navigate, or has not stepped since
    STEER_PLAN_FOLLOWING, ///< following its route
    STEER_PLAN_ARRIVED,   ///< within target_radius of the goal
    STEER_PLAN_FAILED,    ///< the planner found no route (message says why); tried again every second
    STEER_PLAN_NO_GOAL,   ///< navigate has no target and the agent no goal (steer_agent_set_goal)
} steer_plan_status;

/// An agent's plan, as steer_agent_get_plan reports it.
typedef struct steer_plan_info {
    steer_plan_status status;
    int count;           ///< points of the route (from where it was planned to the goal)
    int next;            ///< index of the point the agent steers to
    steer_vec2 goal;     ///< where the route leads
    float radius;        ///< clearance it was planned with, metres
    float remaining;     ///< route length left, metres (at the last step)
    float stalled;       ///< seconds without progress
    bool stuck;          ///< stalled for at least the navigate's stuck_time
    int replans;         ///< plans made for it so far
    char message[128];   ///< why the last plan failed (empty otherwise)
} steer_plan_info;

/// Built-in formation patterns (docs/engine.md, Formations). Offsets are in
/// the reference's frame (leader or anchor): +y forward, +x right.
typedef enum steer_formation_pattern {
    STEER_PATTERN_LINE,             ///< abreast, one rank `spacing` behind the reference
    STEER_PATTERN_COLUMN,           ///< one behind another, `spacing` apart
    STEER_PATTERN_V,                ///< wedge: ranks behind, alternating left and right
    STEER_PATTERN_CIRCLE,           ///< around the reference, facing forward; grows with members
    STEER_PATTERN_DEFENSIVE_CIRCLE, ///< the same circle, members facing out
    STEER_PATTERN_GRID,             ///< ceil(sqrt(n)) columns, rows behind the reference
    STEER_PATTERN_OFFSETS,          ///< the definition's `slots`, as given
} steer_formation_pattern;

/// How members move.
typedef enum steer_formation_motion {
    /// Members steer to their slots (their STEER_FORMATION_SLOT behaviour).
    STEER_MOTION_STEER,
    /// Members are placed on their slots after each step (no steering of
    /// their own); the leader's speed is limited so the shape can follow.
    STEER_MOTION_RIGID,
    /// Emergent: each member steers to an offset from another member (its
    /// parent slot's holder, or the reference); the follow graph is a tree.
    STEER_MOTION_EMERGENT,
} steer_formation_motion;

/// How members are given slots.
typedef enum steer_formation_assignment {
    STEER_ASSIGN_OPTIMAL, ///< minimum total cost, exact (Hungarian method, O(n^3))
    STEER_ASSIGN_ORDERED, ///< member i (in order of joining) takes slot i
} steer_formation_assignment;

/// One slot of a formation: offset (m) and orientation (rad) in the
/// reference's frame, and a cost role (index into the cost role table, 0 =
/// none; a member's cost role is its own, see steer_formation_add).
typedef struct steer_formation_slot {
    steer_vec2 offset;
    float orientation;
    int cost_role;
} steer_formation_slot;

/// Parameters of a formation. The arrays are copied.
typedef struct steer_formation_def {
    steer_formation_pattern pattern; ///< default STEER_PATTERN_LINE
    float spacing;                   ///< metres > 0 between members of built-in patterns (default 2)
    /// STEER_PATTERN_OFFSETS: the slots (count >= 1). Other patterns: slot
    /// cost roles only (slot i takes slots[i].cost_role; missing: 0).
    const steer_formation_slot *slots;
    int slot_count;
    /// The reference: a leader agent, or (when null) the anchor below.
    steer_agent_id leader;
    /// Anchor (two-level formation, used when leader is null): its start
    /// position and orientation; it arrives at anchor_target (a point or an
    /// agent) or follows anchor_path, at up to anchor_max_speed (m/s),
    /// slowed when members fall behind their slots by more than
    /// moderation_distance (m): speed * moderation_distance / largest lag.
    steer_vec2 anchor_position;
    float anchor_orientation;
    steer_target anchor_target;
    steer_path *anchor_path; ///< retained; NULL: none
    /// Or a behaviour steering the anchor (retained; NULL: none), evaluated
    /// for the anchor as for an agent at its place (its neighbours are the
    /// agents around it) before the members' evaluation; it may not contain
    /// callback or formation_slot behaviours (steer_formation_can_steer_anchor;
    /// a callback put into its tree later gives no steering, uncalled).
    steer_behaviour *anchor_behaviour;
    float anchor_max_acceleration; ///< m/s^2, with anchor_behaviour (default 10)
    float anchor_max_speed;  ///< default 3
    float anchor_max_rotation; ///< rad/s, how fast the anchor turns (default pi)
    float moderation_distance; ///< default 1.5
    steer_formation_motion motion;         ///< default STEER_MOTION_STEER
    steer_formation_assignment assignment; ///< default STEER_ASSIGN_OPTIMAL
    /// Cost of a member in a slot: distance_weight (>= 0, default 1) times
    /// the distance to the slot's target, plus cost_role_costs[member_cost_role *
    /// cost_role_count + slot_cost_role] (INFINITY: forbidden), plus the member's own
    /// extra costs (steer_formation_set_member_costs).
    float distance_weight;
    const float *cost_role_costs; ///< cost_role_count^2 entries, or NULL
    int cost_role_count;
    int member_capacity; ///< members reserved up front (0: default 16)
    int cookie;
} steer_formation_def;

/* ---- snapshots ------------------------------------------------------------------ */

/// Why a snapshot could not be written or read (steer_world_snapshot,
/// steer_world_restore): one sentence, naming the part of the snapshot.
typedef struct steer_snapshot_error {
    char message[256];
} steer_snapshot_error;

/// Options of steer_world_snapshot.
typedef struct steer_snapshot_def {
    /// Bytes the host keeps inside the snapshot (its own state: a script's
    /// tables, names), returned by steer_snapshot_host_data; may be NULL.
    const void *host_data;
    size_t host_size;
    int cookie;
} steer_snapshot_def;

/// Gives a callback behaviour (STEER_CALLBACK) of a snapshot being restored
/// its function: called with the name the behaviour had
/// (steer_behaviour_set_name); set def->callback, def->context and
/// def->release and return true, or return false when the host has no
/// behaviour of that name (the restore is refused naming it). A context
/// given with a release is released if the restore fails.
typedef bool steer_snapshot_resolve_fn(const char *name, steer_behaviour_def *def, void *context);

/// Options of steer_world_restore: what the restoring side chooses.
typedef struct steer_restore_def {
    /// Threads and task system of the new world (as steer_world_def): not
    /// part of a snapshot; every choice gives the same bits.
    int worker_count;
    steer_enqueue_task_fn *enqueue_task;
    steer_finish_task_fn *finish_task;
    void *user_task_context;
    steer_snapshot_resolve_fn *resolve; ///< callback behaviours by name (NULL: none provided)
    void *resolve_context;
    int cookie;
} steer_restore_def;

STEER_EXTERN_C_END

#endif
