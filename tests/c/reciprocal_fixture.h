// Helpers shared by the tests of reciprocal avoidance (test_reciprocal.c,
// test_traffic.c): arrive-under-avoidance trees, walkers, distances.
#ifndef STEER_TEST_RECIPROCAL_FIXTURE_H
#define STEER_TEST_RECIPROCAL_FIXTURE_H
#include <stdlib.h>
#include "fixture.h"
// The four runs of a same-bits check (test_settle.c, test_traffic.c):
// runs 0 and 1 step on one worker, 2 and 3 on three (same_bits_workers);
// odd runs spawn the agents in reverse order, with the same keys
// (same_bits_spawn: the index of the k-th of n agents spawned); all four
// must end with the same world hash (same_bits).
static inline int same_bits_workers(int run) { return run < 2 ? 1 : 3; }
static inline int same_bits_spawn(int run, int k, int n) { return run % 2 == 0 ? k : n - 1 - k; }
static inline bool same_bits(const uint64_t h[4]) { return h[0] == h[1] && h[0] == h[2] && h[0] == h[3]; }

// `child` under reciprocal avoidance, looking `radius` m round for
// neighbours, with a time horizon of `horizon` s (0: the default, 2 s).
static inline steer_behaviour *avoiding(steer_behaviour_def child, float radius, float horizon)
{
    steer_child c = {make(child), 1.0f};
    steer_behaviour_def r = def_of(STEER_RECIPROCAL_AVOIDANCE);
    r.children = &c;
    r.child_count = 1;
    r.radius = radius;
    if (horizon > 0.0f) r.time_horizon = horizon;
    steer_behaviour *b = make(r);
    steer_behaviour_release(c.behaviour);
    return b;
}

// An arrive at (gx, gy) under reciprocal avoidance, looking `radius` m
// round for neighbours (avoid_to: 6 m).
static inline steer_behaviour *avoid_to_within(float gx, float gy, float horizon, float radius)
{
    steer_behaviour_def a = def_at(STEER_ARRIVE, gx, gy);
    a.target_radius = 0.1f;
    a.slow_radius = 2.0f;
    a.time_to_target = 0.5f;
    return avoiding(a, radius, horizon);
}

static inline steer_behaviour *avoid_to(float gx, float gy, float horizon)
{
    return avoid_to_within(gx, gy, horizon, 6.0f);
}

static inline steer_agent_id walker(steer_world *w, float x, float y, steer_behaviour *b, uint64_t key)
{
    steer_agent_def d = steer_default_agent_def();
    d.state.position = steer_v2(x, y);
    d.limits.max_speed = 1.5f;
    d.behaviour = b;
    d.key = key;
    return steer_agent_create(w, &d);
}

// An agent of radius r at `at` (max speed 1.5 m/s, max acceleration 15
// m/s^2, the matrix's settings) running b, with the given key.
static inline steer_agent_id avoider(steer_world *w, steer_vec2 at, float r, steer_behaviour *b, uint64_t key)
{
    steer_agent_def d = steer_default_agent_def();
    d.state.position = at;
    d.limits.radius = r;
    d.limits.max_speed = 1.5f;
    d.limits.max_acceleration = 15.0f;
    d.behaviour = b;
    d.key = key;
    return steer_agent_create(w, &d);
}

static inline float distance(steer_world *w, steer_agent_id a, steer_agent_id b)
{
    return steer_length(steer_sub(steer_agent_get_position(w, a), steer_agent_get_position(w, b)));
}

// A copy of w through a snapshot (NULL if either way fails).
static inline steer_world *restored_copy(const steer_world *w)
{
    size_t size = 0;
    steer_world_snapshot(w, NULL, NULL, 0, &size, NULL);
    unsigned char *bytes = malloc(size);
    if (bytes == NULL || !steer_world_snapshot(w, NULL, bytes, size, &size, NULL)) {
        free(bytes);
        return NULL;
    }
    steer_world *r = steer_world_restore(bytes, size, NULL, NULL);
    free(bytes);
    return r;
}

// Steps the world `steps` times by 0.1 s: the closest a and b came.
static inline float closest_over(steer_world *w, steer_agent_id a, steer_agent_id b, int steps)
{
    float closest = 100.0f;
    for (int i = 0; i < steps; ++i) {
        steer_world_step(w, 0.1f);
        closest = steer_minf(closest, distance(w, a, b));
    }
    return closest;
}

#endif
