// formation_slot.c: the formation member's behaviour (formation_slot): arrive
// at and align to the agent's slot target, which the formations computed
// before the evaluation pass (read through the evaluation view).
#include "eval.h"

bool steer__formation_slot_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    // a formation's anchor is no agent, and so no member
    if (ctx->self < 0) return false;
    const eval_view *v = ctx->view;
    const uint32_t slot = v->slot_of[ctx->self];
    if ((int)slot >= v->slot_target_count) return false;
    const slot_target *t = &v->slot_targets[slot];
    // a member of the formation this behaviour names, with a target
    if (t->formation.index == 0 || t->formation.index != d->formation.index ||
        t->formation.generation != d->formation.generation || !t->has_target)
        return false;
    // arrive at a moving slot: the slot's own velocity plus an approach
    // that slows inside slow_radius (arrive, from the movement notes), so a
    // member holds its place while the formation moves instead of lagging
    steer_vec2 to = steer_sub(t->position, ctx->me.position);
    float dist = steer_length(to);
    steer_vec2 want = t->velocity;
    if (dist >= d->target_radius && dist > 0.0f) {
        float speed = dist > d->slow_radius ? ctx->lim.max_speed : ctx->lim.max_speed * dist / d->slow_radius;
        want = steer_add(want, steer_scale(to, speed / dist));
    }
    want = steer_clamp_length(want, ctx->lim.max_speed);
    out->linear = steer__over_time(want, ctx->me.velocity, d->time_to_target, ctx->lim.max_acceleration);
    // align to the slot's orientation (align's defaults: 0.01 and 0.5 rad)
    steer_steering turn;
    out->angular = steer__steering_align(ctx, t->orientation, 0.01f, 0.5f, d->time_to_target, &turn)
                       ? turn.angular
                       : 0.0f;
    return true;
}
