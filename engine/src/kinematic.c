// kinematic.c: the notes' kinematic movement algorithms. Their output is a
// velocity (linear) and a rotation (angular), for kinematic agents.
#include "eval.h"

bool steer__kinematic_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const steer_kinematic *me = &ctx->me;
    if (d->type == STEER_KINEMATIC_WANDER) {
        // kinematic wander: full speed along the orientation, rotation
        // changed by randomBinomial() * maxRotation
        out->linear = steer_scale(steer_heading(me->orientation), ctx->lim.max_speed);
        out->angular = steer__rng_binomial(ctx->rng) * ctx->lim.max_rotation;
        return true;
    }
    target_state t;
    if (!steer__context_target(ctx, &d->target, &t)) return false;
    steer_vec2 v = steer_sub(t.position, me->position);
    switch (d->type) {
    case STEER_KINEMATIC_SEEK:
        // kinematic seek: along the direction at full speed (zero when there)
        out->linear = steer_scale(steer_normalize(v), ctx->lim.max_speed);
        break;
    case STEER_KINEMATIC_FLEE:
        out->linear = steer_scale(steer_normalize(steer_neg(v)), ctx->lim.max_speed);
        break;
    default: // STEER_KINEMATIC_ARRIVE
        // kinematic arrive: none inside the radius, else cover the distance
        // in time_to_target, capped at max speed
        if (steer_length(v) < d->radius) return false;
        out->linear = steer__over_time(t.position, me->position, d->time_to_target, ctx->lim.max_speed);
        break;
    }
    out->angular = 0.0f;
    return true;
}
