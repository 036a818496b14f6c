// steer-bench formation --members N [--reps R]: the time of one exact
// (Hungarian) assignment of N members with random positions and role costs
// to the slots of a circle, and of a step of the formation's world.
#include "bench.h"

#include <math.h>
#include <stdio.h>

int bench_formation(int argc, char **argv)
{
    long n = bench_arg_long(argc, argv, "--members", 64);
    long reps = bench_arg_long(argc, argv, "--reps", 200);
    if (n < 1 || n > 4096 || reps < 1) {
        fprintf(stderr, "steer-bench formation: --members in 1..4096, --reps >= 1\n");
        return 2;
    }
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = (int)n + 1;
    steer_world *w = steer_world_create(&wd);
    steer_agent_def ad = steer_default_agent_def();
    steer_agent_id leader = steer_agent_create(w, &ad);
    // three roles with a forbidden pair, so the role table takes part
    float roles[9] = {0, 1, 2, 1, 0, INFINITY, 2, 1, 0};
    steer_formation_def fd = steer_default_formation_def();
    fd.pattern = STEER_PATTERN_CIRCLE;
    fd.leader = leader;
    fd.cost_role_costs = roles;
    fd.cost_role_count = 3;
    fd.member_capacity = (int)n;
    steer_formation_id f = steer_formation_create(w, &fd);
    uint64_t seed = 99;
    for (long i = 0; i < n; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        ad.state.position = steer_v2((float)(seed >> 40 & 0xFFF) * 0.01f - 20.0f, (float)(seed >> 20 & 0xFFF) * 0.01f - 20.0f);
        steer_formation_add(w, f, steer_agent_create(w, &ad), (int)(i % 3));
    }
    // each reassignment solves the full problem (the current assignment is
    // kept only afterwards, when the optimum is no better)
    double t0 = bench_now();
    for (long r = 0; r < reps; ++r) steer_formation_reassign(w, f);
    double per = (bench_now() - t0) / (double)reps;
    double t1 = bench_now();
    for (long r = 0; r < reps; ++r) steer_world_step(w, 1.0f / 60.0f);
    double step = (bench_now() - t1) / (double)reps;
    printf("formation: %ld members, assignment %.3f ms (Hungarian, O(n^3)), step %.3f ms, total cost %.3f\n", n,
           per * 1e3, step * 1e3, (double)steer_formation_total_cost(w, f));
    steer_world_destroy(w);
    return 0;
}
