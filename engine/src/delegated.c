// delegated.c: the notes' delegated behaviours: pursue and evade, face,
// look where you are going, wander, path following. Each computes a target
// and delegates to seek, flee, arrive or align.
#include "eval.h"

static bool pursue_or_evade(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    target_state t;
    if (!steer__context_target(ctx, &d->target, &t)) return false;
    // evade with a panic radius: only while the target (where it is now) is near
    if (d->type == STEER_EVADE && steer__beyond_panic(ctx, d, t.position)) return false;
    // pursue: predict where the target will be, assuming it keeps its
    // velocity, no further ahead than max_prediction
    steer_vec2 direction = steer_sub(t.position, ctx->me.position);
    float distance = steer_length(direction);
    float speed = steer_length(ctx->me.velocity);
    float prediction = speed <= distance / d->max_prediction ? d->max_prediction : distance / speed;
    steer_vec2 predicted = steer_mul_add(t.position, t.velocity, prediction);
    if (d->type == STEER_EVADE) {
        steer__steering_seek(ctx, predicted, true, out);
        return true;
    }
    // the notes: when the pursuer would overshoot, arrive instead of seek
    if (d->arrive_on_overshoot && steer_distance(predicted, ctx->me.position) <= d->slow_radius) {
        return steer__steering_arrive(ctx, predicted, d->target_radius, d->slow_radius, d->time_to_target, out);
    }
    steer__steering_seek(ctx, predicted, false, out);
    return true;
}

// face: turn towards a point; none when standing on it
static bool face_point(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 point, steer_steering *out)
{
    steer_vec2 direction = steer_sub(point, ctx->me.position);
    if (direction.x == 0.0f && direction.y == 0.0f) return false;
    return steer__steering_align(ctx, steer_orientation_of(direction), d->target_radius, d->slow_radius,
                                    d->time_to_target, out);
}

static bool wander(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    float *wander_orientation = steer__node_memory(ctx);
    // move the target on the wander circle by a small random amount
    *wander_orientation = steer_wrap_angle(*wander_orientation + steer__rng_binomial(ctx->rng) * d->wander_rate);
    float target_orientation = *wander_orientation + ctx->me.orientation;
    steer_vec2 heading = steer_heading(ctx->me.orientation);
    // centre of the wander circle, then the target on it
    steer_vec2 target = steer_mul_add(ctx->me.position, heading, d->wander_offset);
    target = steer_mul_add(target, steer_heading(target_orientation), d->wander_radius);
    steer_steering face;
    out->angular = face_point(ctx, d, target, &face) ? face.angular : 0.0f;
    // full acceleration in the direction of the orientation
    out->linear = steer_scale(heading, ctx->lim.max_acceleration);
    return true;
}

static bool follow_path(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const steer_path *p = d->path;
    float *memory = steer__node_memory(ctx); // last parameter + 1; 0: none yet
    if (p == NULL) return false;
    // predictive path following looks from where the agent will be
    steer_vec2 from = steer_mul_add(ctx->me.position, ctx->me.velocity, d->predict_time);
    // (a huge velocity times a long prediction stays inside the world's bounds)
    from = steer_v2(steer_clampf(from.x, -1e30f, 1e30f), steer_clampf(from.y, -1e30f, 1e30f));
    float last = *memory > 0.0f ? *memory - 1.0f : -1.0f;
    // the stretch searched first: twice the offset ahead, in double (an offset
    // near the float limit must not overflow), never past the path's length
    const float length = steer_path_length(p);
    double window = 2.0 * fabs((double)d->path_offset);
    window = window > length ? length : window;
    float param = steer_path_param(p, from, last, steer_maxf((float)window, steer_maxf(4.0f * ctx->lim.radius, 1.0f)));
    *memory = param + 1.0f;
    // the target a path_offset further on; past the ends of an open path it
    // is the end (steer_path_position clamps), so clamp in double first
    double target_param = (double)param + d->path_offset;
    if (!steer_path_is_loop(p)) target_param = target_param < -1.0 ? -1.0 : (target_param > length + 1.0 ? length + 1.0 : target_param);
    steer_vec2 target = steer_path_position(p, (float)target_param);
    // the end of an open path: arrive there instead of orbiting it
    bool at_end = d->path_offset >= 0.0f ? target_param >= length : target_param <= 0.0;
    if (!steer_path_is_loop(p) && at_end) {
        return steer__steering_arrive(ctx, target, d->target_radius, d->slow_radius, d->time_to_target, out);
    }
    steer__steering_seek(ctx, target, false, out);
    return true;
}

bool steer__delegated_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    switch (d->type) {
    case STEER_PURSUE:
    case STEER_EVADE: return pursue_or_evade(ctx, d, out);
    case STEER_FACE: {
        target_state t;
        if (!steer__context_target(ctx, &d->target, &t)) return false;
        return face_point(ctx, d, t.position, out);
    }
    case STEER_LOOK_WHERE_YOU_ARE_GOING: {
        steer_vec2 v = ctx->me.velocity;
        if (v.x == 0.0f && v.y == 0.0f) return false;
        return steer__steering_align(ctx, steer_orientation_of(v), d->target_radius, d->slow_radius,
                                        d->time_to_target, out);
    }
    case STEER_FOLLOW_PATH: return follow_path(ctx, d, out);
    default: return wander(ctx, d, out);
    }
}
