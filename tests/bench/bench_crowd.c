// steer-bench crowd: the issue-14 scene. Agents on a square lattice filling a
// disc (spacing 5 m, radius 1.5 m, max speed 2 m/s), each heading through
// the centre to the opposite point, dt 0.25 s, reciprocal avoidance with a
// time horizon of 10 s and at most 10 neighbours (looking 11 m: 12 lattice
// neighbours, so an inner agent is at its cap).
#include "bench.h"

#include <math.h>
#include <stdio.h>

#include "steer/steer.h"

static const float SPACING = 5.0f, RADIUS = 1.5f, SPEED = 2.0f, DT = 0.25f, LOOK = 11.0f;
enum { MAX_NEIGHBOURS = 10 };

// reciprocal_avoidance around an arrive at the opposite point
static steer_behaviour *crowd_brain(steer_vec2 goal)
{
    steer_behaviour_def ad = steer_default_behaviour_def(STEER_ARRIVE);
    ad.target.kind = STEER_TARGET_POINT;
    ad.target.point = goal;
    ad.target_radius = 0.5f;
    ad.slow_radius = 4.0f;
    steer_child preferred = {steer_behaviour_create(&ad), 1.0f};
    steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    rd.children = &preferred;
    rd.child_count = 1;
    rd.radius = LOOK;
    rd.time_horizon = 10.0f;
    rd.max_neighbours = MAX_NEIGHBOURS;
    steer_behaviour *b = steer_behaviour_create(&rd);
    steer_behaviour_release(preferred.behaviour);
    return b;
}

int bench_crowd(int argc, char **argv)
{
    long n = bench_arg_long(argc, argv, "--agents", 10000);
    long steps = bench_arg_long(argc, argv, "--steps", 20);
    if (n < 1 || steps < 1) {
        fprintf(stderr, "steer-bench crowd: --agents and --steps must be positive\n");
        return 2;
    }
    steer_world_def wd = steer_default_world_def();
    wd.cell_size = LOOK;
    wd.agent_capacity = (int)n;
    steer_world *w = steer_world_create(&wd);
    // the lattice points of the smallest disc holding n of them, nearest first
    // by ring: scan a square and keep those inside the disc radius
    float disc = SPACING * sqrtf((float)n / STEER_PI) + SPACING;
    int half = (int)(disc / SPACING) + 1;
    long made = 0;
    steer_agent_def d = steer_default_agent_def();
    d.limits.radius = RADIUS;
    d.limits.max_speed = SPEED;
    // any velocity of the speed disc reachable within one step
    d.limits.max_acceleration = 2.0f * SPEED / DT;
    for (float r = 0.0f; made < n && r <= disc; r += SPACING) {
        for (int iy = -half; iy <= half && made < n; ++iy) {
            for (int ix = -half; ix <= half && made < n; ++ix) {
                steer_vec2 p = steer_v2((float)ix * SPACING, (float)iy * SPACING);
                float len = steer_length(p);
                if (len < r || len >= r + SPACING) continue; // rings outward: the disc fills evenly
                steer_vec2 goal = steer_neg(p);
                steer_behaviour *b = crowd_brain(goal);
                d.behaviour = b;
                d.state.position = p;
                d.state.velocity = len > 0.0f ? steer_scale(p, -SPEED / len) : steer_v2(0.0f, 0.0f);
                steer_agent_create(w, &d);
                steer_behaviour_release(b);
                ++made;
            }
        }
    }
    steer_world_step(w, DT); // warm-up: grid and caches sized
    double t0 = bench_now();
    for (long s = 0; s < steps; ++s) steer_world_step(w, DT);
    double t1 = bench_now();
    // neighbours each agent took into account (within LOOK, at most the cap)
    long total = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_vec2 p = steer_agent_get_position(w, steer_world_agent_at(w, i));
        int k = steer_world_query(w, p, LOOK, NULL, 0) - 1;
        total += k < MAX_NEIGHBOURS ? k : MAX_NEIGHBOURS;
    }
    printf("crowd agents=%ld steps=%ld ns_per_agent_step=%.1f neighbours=%.1f\n", made, steps,
           (t1 - t0) * 1e9 / ((double)made * (double)steps), (double)total / (double)made);
    steer_world_destroy(w);
    return 0;
}
