// steering.c: the notes' basic steering behaviours: seek, flee, arrive,
// align, velocity matching; and the building blocks delegates reuse.
#include "eval.h"

bool steer__beyond_panic(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 point)
{
    // the notes' flee with a radius: no steering once the target is at
    // panic_radius or farther (unset: flee at any range)
    return d->use_panic_radius && steer_distance(point, ctx->me.position) >= d->panic_radius;
}

void steer__steering_seek(const eval_ctx *ctx, steer_vec2 point, bool away, steer_steering *out)
{
    // seek: full acceleration towards the target (flee: away from it)
    steer_vec2 dir = away ? steer_sub(ctx->me.position, point) : steer_sub(point, ctx->me.position);
    out->linear = steer_scale(steer_normalize(dir), ctx->lim.max_acceleration);
    out->angular = 0.0f;
}

// steer_normalize(a), given a's length in double as steer_length takes it
// (infinite when a component is: then steer_normalize's own rule).
static steer_vec2 unit_of(steer_vec2 a, double len)
{
    if (isinf(len)) return steer_normalize(a);
    if (len > 0.0) return steer_v2((float)(a.x / len), (float)(a.y / len));
    return steer_v2(0.0f, 0.0f);
}

bool steer__steering_arrive(const eval_ctx *ctx, steer_vec2 point, float target_radius, float slow_radius,
                         float time_to_target, steer_steering *out)
{
    steer_vec2 direction = steer_sub(point, ctx->me.position);
    // the length in double once: steer_length's distance, and below the
    // direction steer_normalize gives (the same square root)
    const double len = sqrt((double)direction.x * direction.x + (double)direction.y * direction.y);
    float distance = (float)len;
    if (distance < target_radius) {
        // arrive: inside the target radius the notes return no steering. A
        // character that is still moving there would coast through and out
        // again for ever (nothing brakes it), so it brakes to a stop first:
        // the notes' formula with targetSpeed 0. At rest: no steering.
        steer_vec2 v = ctx->me.velocity;
        if (v.x == 0.0f && v.y == 0.0f) return false;
        // That formula only ever halves the speed geometrically: once the
        // last of it can go within one step, take it all, so the character
        // really comes to rest (and arrive then asks for nothing).
        float t = time_to_target;
        if (ctx->dt > 0.0f && steer_length(v) <= ctx->lim.max_acceleration * ctx->dt) t = ctx->dt;
        out->linear = steer__over_time(steer_v2(0.0f, 0.0f), v, t, ctx->lim.max_acceleration);
        out->angular = 0.0f;
        return true;
    }
    float max_speed = ctx->lim.max_speed;
    // outside the slow radius full speed, inside it scaled by distance
    float target_speed = distance > slow_radius ? max_speed : max_speed * (distance / slow_radius);
    steer_vec2 target_velocity = steer_scale(unit_of(direction, len), target_speed);
    // accelerate to the target velocity over time_to_target, capped
    out->linear = steer__over_time(target_velocity, ctx->me.velocity, time_to_target, ctx->lim.max_acceleration);
    out->angular = 0.0f;
    return true;
}

bool steer__steering_align(const eval_ctx *ctx, float orientation, float target_radius, float slow_radius,
                              float time_to_target, steer_steering *out)
{
    // align: the angular version of arrive; the difference is mapped into
    // (-pi, pi] so the character turns the short way
    float rotation = steer_wrap_angle(orientation - ctx->me.orientation);
    float size = steer_absf(rotation);
    // size == 0 also covers target_radius == 0 (no direction to divide by)
    if (size < target_radius || size == 0.0f) return false;
    float max_rotation = ctx->lim.max_rotation;
    float target_rotation = size > slow_radius ? max_rotation : max_rotation * (size / slow_radius);
    target_rotation *= rotation / size;
    float angular = (target_rotation - ctx->me.rotation) / time_to_target;
    float limit = ctx->lim.max_angular_acceleration;
    // (by sign: an angular that overflowed to infinity must not become NaN)
    if (steer_absf(angular) > limit) angular = angular > 0.0f ? limit : -limit;
    out->linear = steer_v2(0.0f, 0.0f);
    out->angular = angular;
    return true;
}

bool steer__steering_basic(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    target_state t;
    if (d->type == STEER_ALIGN) {
        // align to an agent's orientation, or to the fixed `orientation`
        float target = d->orientation;
        if (d->target.kind == STEER_TARGET_AGENT) {
            if (!steer__context_target(ctx, &d->target, &t)) return false;
            target = t.orientation;
        }
        return steer__steering_align(ctx, target, d->target_radius, d->slow_radius, d->time_to_target, out);
    }
    if (!steer__context_target(ctx, &d->target, &t)) return false;
    switch (d->type) {
    case STEER_SEEK: steer__steering_seek(ctx, t.position, false, out); return true;
    case STEER_FLEE:
        if (steer__beyond_panic(ctx, d, t.position)) return false;
        steer__steering_seek(ctx, t.position, true, out);
        return true;
    case STEER_ARRIVE:
        return steer__steering_arrive(ctx, t.position, d->target_radius, d->slow_radius, d->time_to_target, out);
    default: { // STEER_VELOCITY_MATCH
        out->linear = steer__over_time(t.velocity, ctx->me.velocity, d->time_to_target, ctx->lim.max_acceleration);
        out->angular = 0.0f;
        return true;
    }
    }
}
