// integrate.c: the notes' Newton-Euler update, applied to every agent, and
// the update of a body that is not an agent (a formation's anchor).
#include "world.h"

// Speed clamp: nothing to do in the common case; else the length clamp in
// double (velocities here are finite: outputs were clamped to 1e30 first).
static inline steer_vec2 clamp_speed(steer_vec2 v, float max_speed)
{
    double len2 = (double)v.x * v.x + (double)v.y * v.y;
    if (len2 <= (double)max_speed * max_speed) return v;
    return steer_clamp_length_d(v.x, v.y, max_speed);
}

static float clamp_huge(float v) { return steer_clampf(v, -1e30f, 1e30f); }

// The notes' update of one body (an agent or a formation's anchor) by its
// steering a, with its limits: every body moves by the same arithmetic.
static inline void integrate_one(steer_kinematic *s, const steer_limits *l, steer_steering a, uint32_t flags,
                                 bool newton, float dt, float half_t2)
{
    // a behaviour output is finite for finite input; never let one that
    // is not into the state
    if (!steer_vec2_is_finite(a.linear) || !isfinite(a.angular)) a = (steer_steering){{0, 0}, 0};
    a.linear = steer_v2(clamp_huge(a.linear.x), clamp_huge(a.linear.y));
    a.angular = clamp_huge(a.angular);

    if (flags & AGENT_KINEMATIC) {
        // kinematic movement: the output is the velocity and rotation
        s->velocity = clamp_speed(a.linear, l->max_speed);
        s->rotation = steer_clampf(a.angular, -l->max_rotation, l->max_rotation);
        s->position = steer_mul_add(s->position, s->velocity, dt);
        s->orientation += s->rotation * dt;
    } else {
        // the notes' update, in the notes' order
        s->position = steer_mul_add(s->position, s->velocity, dt);
        s->orientation += s->rotation * dt;
        if (newton) {
            s->position = steer_mul_add(s->position, a.linear, half_t2);
            s->orientation += a.angular * half_t2;
        }
        s->velocity = steer_mul_add(s->velocity, a.linear, dt);
        s->rotation += a.angular * dt;
        if (l->drag > 0.0f) s->velocity = steer_scale(s->velocity, 1.0f / (1.0f + l->drag * dt));
        s->velocity = clamp_speed(s->velocity, l->max_speed);
        s->rotation = steer_clampf(s->rotation, -l->max_rotation, l->max_rotation);
    }
    // positions stay finite even for absurd speeds and steps
    s->position = steer_v2(clamp_huge(s->position.x), clamp_huge(s->position.y));
    s->rotation = clamp_huge(s->rotation);
    s->orientation = clamp_huge(s->orientation);
    if (flags & AGENT_FACE_VELOCITY) s->orientation = steer_new_orientation(s->orientation, s->velocity);
    s->orientation = steer_wrap_angle(s->orientation);
}

void steer__integrate(steer_world *w, float dt, int begin, int end)
{
    const bool newton = w->def.integrator == STEER_INTEGRATOR_NEWTON;
    const float half_t2 = 0.5f * dt * dt;
    for (int i = begin; i < end; ++i)
        integrate_one(&w->state[i], &w->limits[i], w->out[i], w->flags[i], newton, dt, half_t2);
}

void steer__integrate_body(const steer_world *w, steer_kinematic *state, const steer_limits *limits,
                           steer_steering steering, float dt)
{
    integrate_one(state, limits, steering, 0, w->def.integrator == STEER_INTEGRATOR_NEWTON, dt, 0.5f * dt * dt);
}
