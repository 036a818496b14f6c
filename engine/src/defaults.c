// defaults.c: every default of the engine, in one place.
#include "core.h"

// How far ahead pursue and evade predict by default (seconds). A build may
// set another value; the replay test links an engine built with one, to
// show that a replay names the first frame that differs.
#ifndef STEER_DEFAULT_MAX_PREDICTION
#define STEER_DEFAULT_MAX_PREDICTION 1.0f
#endif

steer_world_def steer_default_world_def(void)
{
    steer_world_def d;
    memset(&d, 0, sizeof d);
    d.seed = 0;
    d.integrator = STEER_INTEGRATOR_EULER;
    d.cell_size = 4.0f;
    d.agent_capacity = 0;
    d.resolve_contacts = false;
    d.resolve_agent_contacts = false;
    d.worker_count = 1;
    d.enqueue_task = NULL;
    d.finish_task = NULL;
    d.user_task_context = NULL;
    d.cookie = STEER_COOKIE;
    return d;
}

steer_limits steer_default_limits(void)
{
    return (steer_limits){
        .radius = 0.5f,
        .max_speed = 5.0f,
        .max_acceleration = 10.0f,
        .max_rotation = STEER_PI,
        .max_angular_acceleration = 2.0f * STEER_PI,
        .drag = 0.0f,
    };
}

steer_agent_def steer_default_agent_def(void)
{
    steer_agent_def d;
    memset(&d, 0, sizeof d);
    d.limits = steer_default_limits();
    d.layer = 1u;
    d.mask = STEER_ALL_LAYERS;
    d.cookie = STEER_COOKIE;
    return d;
}

steer_path_def steer_default_path_def(void)
{
    steer_path_def d;
    memset(&d, 0, sizeof d);
    d.cookie = STEER_COOKIE;
    return d;
}

steer_snapshot_def steer_default_snapshot_def(void)
{
    steer_snapshot_def d;
    memset(&d, 0, sizeof d);
    d.cookie = STEER_COOKIE;
    return d;
}

steer_restore_def steer_default_restore_def(void)
{
    steer_restore_def d;
    memset(&d, 0, sizeof d);
    d.worker_count = 1;
    d.cookie = STEER_COOKIE;
    return d;
}

steer_ray_filter steer_default_ray_filter(void)
{
    return (steer_ray_filter){
        .mask = STEER_ALL_LAYERS, .include_agents = false, .ignore = {0, 0}, .z_min = -INFINITY, .z_max = INFINITY};
}

steer_behaviour_def steer_default_behaviour_def(steer_behaviour_type type)
{
    steer_behaviour_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.max_speed = -1.0f;
    d.max_acceleration = -1.0f;
    d.max_rotation = -1.0f;
    d.max_angular_acceleration = -1.0f;
    // the notes: timeToTarget = 0.25 for kinematic arrive, 0.1 for the rest
    d.time_to_target = type == STEER_KINEMATIC_ARRIVE ? 0.25f : 0.1f;
    d.radius = 1.0f;
    switch (type) {
    case STEER_ARRIVE:
    case STEER_FOLLOW_PATH:
        d.target_radius = 0.5f;
        d.slow_radius = 3.0f;
        break;
    case STEER_NAVIGATE: // metres: stop points of a group are 1 m apart and more
        d.target_radius = 0.25f;
        d.slow_radius = 2.0f;
        break;
    case STEER_FORMATION_SLOT: // metres: a slot is reached closer than a leader is
        d.target_radius = 0.1f;
        d.slow_radius = 2.0f;
        break;
    case STEER_PURSUE:
        d.target_radius = 0.5f;
        d.slow_radius = 3.0f;
        break;
    case STEER_ALIGN:
    case STEER_FACE:
    case STEER_LOOK_WHERE_YOU_ARE_GOING:
    case STEER_WANDER:
        d.target_radius = 0.01f; // radians
        d.slow_radius = 0.5f;
        break;
    case STEER_SEPARATION:
        d.radius = 2.0f;
        break;
    case STEER_COHESION:
    case STEER_ALIGNMENT:
        d.radius = 8.0f;
        break;
    case STEER_COLLISION_AVOIDANCE:
        d.radius = 8.0f;
        break;
    case STEER_RECIPROCAL_AVOIDANCE:
        d.radius = 10.0f;
        break;
    default:
        break;
    }
    d.max_prediction = STEER_DEFAULT_MAX_PREDICTION;
    d.wander_offset = 2.0f;
    d.wander_radius = 1.0f;
    d.wander_rate = 0.5f;
    d.path_offset = 1.0f;
    d.predict_time = 0.0f;
    d.decay_coefficient = 10.0f;
    d.law = STEER_LAW_INVERSE_SQUARE;
    d.cone_threshold = 0.5f; // cos 60 degrees: a 120-degree cone
    d.use_cone = false;
    d.panic_radius = 10.0f; // the value while unset: flee at any range
    d.use_panic_radius = false;
    d.lookahead = 4.0f;
    d.avoid_distance = 2.0f;
    d.rays = STEER_RAYS_SINGLE;
    d.whisker_angle = 0.5f;
    d.whisker_scale = 0.5f;
    d.scale_lookahead = false;
    d.epsilon = 1e-3f;
    d.time_horizon = 2.0f;
    d.obstacle_time_horizon = 1.0f;
    d.max_neighbours = 10.0f;
    d.use_radius = false;
    d.replan_distance = 2.0f;
    d.stuck_time = 3.0f;
    d.cookie = STEER_COOKIE;
    return d;
}

steer_formation_def steer_default_formation_def(void)
{
    steer_formation_def d;
    memset(&d, 0, sizeof d);
    d.pattern = STEER_PATTERN_LINE;
    d.spacing = 2.0f;
    d.anchor_max_speed = 3.0f;
    d.anchor_max_rotation = STEER_PI;
    d.moderation_distance = 1.5f;
    d.anchor_max_acceleration = 10.0f;
    d.motion = STEER_MOTION_STEER;
    d.assignment = STEER_ASSIGN_OPTIMAL;
    d.distance_weight = 1.0f;
    d.cookie = STEER_COOKIE;
    return d;
}

steer_debug_draw steer_default_debug_draw(void)
{
    steer_debug_draw d;
    memset(&d, 0, sizeof d);
    d.flags = STEER_DRAW_ALL;
    d.steering_scale = 0.25f;
    d.velocity_scale = 0.5f;
    return d;
}
