// steer-bench flock: separation + cohesion + alignment blended, one radius
// chosen so an agent has about 10 neighbours, agents uniform in a square.
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "steer/steer.h"

enum { TARGET_NEIGHBOURS = 10 };
static const float RADIUS = 2.0f;
/// Grid cells as wide as the radius: a query covers 3 rows of ~10 candidates.
static const float CELL_SIZE = RADIUS;

/// Side of the square holding n agents at ~10 neighbours within RADIUS.
float bench_flock_side(long n) { return sqrtf((float)n * STEER_PI * RADIUS * RADIUS / TARGET_NEIGHBOURS); }

/// The flock's behaviour, built in C.
static steer_behaviour *flock_behaviour(void)
{
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEPARATION);
    sd.radius = RADIUS;
    steer_behaviour_def cd = steer_default_behaviour_def(STEER_COHESION);
    cd.radius = RADIUS;
    steer_behaviour_def ad = steer_default_behaviour_def(STEER_ALIGNMENT);
    ad.radius = RADIUS;
    steer_child children[3] = {
        {steer_behaviour_create(&sd), 2.0f},
        {steer_behaviour_create(&cd), 1.0f},
        {steer_behaviour_create(&ad), 1.0f},
    };
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = children;
    bd.child_count = 3;
    steer_behaviour *blend = steer_behaviour_create(&bd);
    for (int i = 0; i < 3; ++i) steer_behaviour_release(children[i].behaviour);
    return blend;
}

/// Spawn n agents with random positions and velocities (seeded), driven by b.
void bench_flock_spawn(steer_world *w, long n, steer_behaviour *b)
{
    float side = bench_flock_side(n);
    uint64_t s = 12345;
    steer_agent_def d = steer_default_agent_def();
    d.behaviour = b;
    for (long i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float u = (float)(s >> 40) / 16777216.0f;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float v = (float)(s >> 40) / 16777216.0f;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float a = (float)(s >> 40) / 16777216.0f * 2.0f * STEER_PI;
        d.state.position = steer_v2(u * side, v * side);
        d.state.velocity = steer_scale(steer_heading(a), 2.0f);
        steer_agent_create(w, &d);
    }
}

/// Step and print the figures line.
int bench_flock_run(steer_world *w, long n, long steps, const char *label)
{
    steer_world_step(w, 1.0f / 60.0f); // warm-up: grid and caches sized
    double t0 = bench_now(), c0 = bench_cpu_now();
    for (long s = 0; s < steps; ++s) steer_world_step(w, 1.0f / 60.0f);
    double t1 = bench_now(), c1 = bench_cpu_now();
    // mean neighbours within RADIUS at the end of the run
    long total = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_vec2 p = steer_agent_get_position(w, steer_world_agent_at(w, i));
        total += steer_world_query(w, p, RADIUS, NULL, 0) - 1;
    }
    // the world hash last: the same for every worker count (and build)
    printf("%s agents=%ld steps=%ld workers=%d ns_per_agent_step=%.1f cpu_ns=%.1f neighbours=%.1f hash=%016llx\n",
           label, n, steps, steer_world_get_worker_count(w), (t1 - t0) * 1e9 / ((double)n * (double)steps),
           (c1 - c0) * 1e9 / ((double)n * (double)steps), (double)total / (double)n,
           (unsigned long long)steer_world_hash(w));
    return 0;
}

int bench_flock(int argc, char **argv)
{
    long n = bench_arg_long(argc, argv, "--agents", 100000);
    long steps = bench_arg_long(argc, argv, "--steps", 20);
    long workers = bench_arg_long(argc, argv, "--workers", 1);
    if (n < 1 || steps < 1) {
        fprintf(stderr, "steer-bench flock: --agents and --steps must be positive\n");
        return 2;
    }
    if (workers < 1 || workers > STEER_MAX_WORKERS) {
        fprintf(stderr, "steer-bench flock: --workers must be in [1, %d]\n", STEER_MAX_WORKERS);
        return 2;
    }
#ifdef STEER_BENCH_LUA
    if (bench_has_flag(argc, argv, "--lua")) return bench_flock_lua(n, steps);
#else
    if (bench_has_flag(argc, argv, "--lua")) {
        fprintf(stderr, "steer-bench: built without the Lua bindings\n");
        return 2;
    }
#endif
    steer_world_def wd = steer_default_world_def();
    wd.cell_size = CELL_SIZE;
    wd.agent_capacity = (int)n;
    wd.worker_count = (int)workers;
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *b = flock_behaviour();
    bench_flock_spawn(w, n, b);
    steer_behaviour_release(b);
    // --trace: every agent records its evaluation (the debug draw's cost)
    bool trace = bench_has_flag(argc, argv, "--trace");
    for (int i = 0; trace && i < steer_world_agent_count(w); ++i) steer_agent_set_trace(w, steer_world_agent_at(w, i), true);
    int rc = bench_flock_run(w, n, steps, trace ? "flock-traced" : "flock");
    steer_world_destroy(w);
    return rc;
}
