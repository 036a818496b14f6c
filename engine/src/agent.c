// agent.c: reading and writing one agent through its id.
#include "core.h"

// Look up a live agent or report the stale id and refuse.
#define AGENT_OR(w, id, fallback)                                              \
    int i = steer__agent_dense(w, id);                                         \
    if (!STEER_CHECK(i >= 0)) return fallback

// Writes that would change what other agents read mid-step are refused then.
#define NOT_STEPPING(w) \
    if (!STEER_CHECK(!(w)->stepping)) return

static steer_kinematic zero_kinematic(void)
{
    steer_kinematic k;
    memset(&k, 0, sizeof k);
    return k;
}

static steer_steering zero_steering(void)
{
    steer_steering s;
    memset(&s, 0, sizeof s);
    return s;
}

bool steer_agent_is_valid(const steer_world *w, steer_agent_id id) { return steer__agent_dense(w, id) >= 0; }

steer_kinematic steer_agent_get_state(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, zero_kinematic());
    return w->state[i];
}

void steer_agent_set_state(steer_world *w, steer_agent_id id, const steer_kinematic *k)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(k != NULL && steer_vec2_is_finite(k->position) && steer_vec2_is_finite(k->velocity) &&
                     isfinite(k->orientation) && isfinite(k->rotation)))
        return;
    w->state[i] = *k;
    w->state[i].orientation = steer_wrap_angle(k->orientation);
    w->grid.dirty = true;
}

steer_vec2 steer_agent_get_position(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_v2(0, 0));
    return w->state[i].position;
}

void steer_agent_set_position(steer_world *w, steer_agent_id id, steer_vec2 p)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(steer_vec2_is_finite(p))) return;
    w->state[i].position = p;
    w->grid.dirty = true;
}

steer_vec2 steer_agent_get_velocity(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_v2(0, 0));
    return w->state[i].velocity;
}

void steer_agent_set_velocity(steer_world *w, steer_agent_id id, steer_vec2 v)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(steer_vec2_is_finite(v))) return;
    w->state[i].velocity = v;
    w->grid.dirty = true;
}

float steer_agent_get_orientation(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0.0f);
    return w->state[i].orientation;
}

steer_limits steer_agent_get_limits(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_default_limits());
    return w->limits[i];
}

void steer_agent_set_limits(steer_world *w, steer_agent_id id, const steer_limits *l)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(l != NULL)) return;
    const float v[] = {l->radius, l->max_speed, l->max_acceleration, l->max_rotation, l->max_angular_acceleration, l->drag};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; ++k) {
        if (!STEER_CHECK(isfinite(v[k]) && v[k] >= 0.0f && v[k] <= 1e30f)) return;
    }
    w->limits[i] = *l;
}

bool steer_agent_get_kinematic(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, false);
    return (w->flags[i] & AGENT_KINEMATIC) != 0;
}

void steer_agent_set_kinematic(steer_world *w, steer_agent_id id, bool on)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    w->flags[i] = (uint8_t)(on ? (w->flags[i] | AGENT_KINEMATIC) : (w->flags[i] & ~AGENT_KINEMATIC));
}

bool steer_agent_get_face_velocity(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, false);
    return (w->flags[i] & AGENT_FACE_VELOCITY) != 0;
}

void steer_agent_set_face_velocity(steer_world *w, steer_agent_id id, bool on)
{
    AGENT_OR(w, id, );
    w->flags[i] = (uint8_t)(on ? (w->flags[i] | AGENT_FACE_VELOCITY) : (w->flags[i] & ~AGENT_FACE_VELOCITY));
}

steer_behaviour *steer_agent_get_behaviour(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, NULL);
    return w->behaviour[i];
}

void steer_agent_set_behaviour(steer_world *w, steer_agent_id id, steer_behaviour *b, bool keep_memory)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    steer_behaviour_retain(b);
    steer_behaviour_release(w->behaviour[i]);
    w->behaviour[i] = b;
    if (!keep_memory) memset(&w->memory[i], 0, sizeof w->memory[i]);
}

uint64_t steer_agent_get_key(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0);
    return w->key[i];
}

void *steer_agent_get_user_data(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, NULL);
    return w->user_data[i];
}

void steer_agent_set_user_data(steer_world *w, steer_agent_id id, void *user_data)
{
    AGENT_OR(w, id, );
    w->user_data[i] = user_data;
}

steer_steering steer_agent_get_last_steering(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, zero_steering());
    return w->out[i];
}
