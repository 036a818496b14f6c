// delegated.c: the notes' delegated behaviours: pursue and evade, face,
// look where you are going, wander. Each computes a target and delegates to
// seek, flee, arrive or align (steering.c).
#include "core.h"

static bool pursue_or_evade(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    target_state t;
    if (!steer__resolve_target(ctx, &d->target, &t)) return false;
    // pursue: predict where the target will be, assuming it keeps its
    // velocity, no further ahead than max_prediction
    steer_vec2 direction = steer_sub(t.position, ctx->me.position);
    float distance = steer_length(direction);
    float speed = steer_length(ctx->me.velocity);
    float prediction = speed <= distance / d->max_prediction ? d->max_prediction : distance / speed;
    steer_vec2 predicted = steer_mul_add(t.position, t.velocity, prediction);
    if (d->type == STEER_EVADE) {
        steer__seek_point(ctx, predicted, true, out);
        return true;
    }
    // the notes: when the pursuer would overshoot, arrive instead of seek
    if (d->arrive_on_overshoot && steer_distance(predicted, ctx->me.position) <= d->slow_radius) {
        return steer__arrive_point(ctx, predicted, d->target_radius, d->slow_radius, d->time_to_target, out);
    }
    steer__seek_point(ctx, predicted, false, out);
    return true;
}

// face: turn towards a point; none when standing on it
static bool face_point(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 point, steer_steering *out)
{
    steer_vec2 direction = steer_sub(point, ctx->me.position);
    if (direction.x == 0.0f && direction.y == 0.0f) return false;
    return steer__align_orientation(ctx, steer_orientation_of(direction), d->target_radius, d->slow_radius,
                                    d->time_to_target, out);
}

static bool wander(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    float *wander_orientation = steer__memory_claim(ctx, 1);
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

bool steer__eval_delegated(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    switch (d->type) {
    case STEER_PURSUE:
    case STEER_EVADE: return pursue_or_evade(ctx, d, out);
    case STEER_FACE: {
        target_state t;
        if (!steer__resolve_target(ctx, &d->target, &t)) return false;
        return face_point(ctx, d, t.position, out);
    }
    case STEER_LOOK_WHERE_YOU_ARE_GOING: {
        steer_vec2 v = ctx->me.velocity;
        if (v.x == 0.0f && v.y == 0.0f) return false;
        return steer__align_orientation(ctx, steer_orientation_of(v), d->target_radius, d->slow_radius,
                                        d->time_to_target, out);
    }
    default: return wander(ctx, d, out);
    }
}
