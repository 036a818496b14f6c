// steer-bench snapshot --agents N [--reps R]: size and time of world
// snapshots (issue 26), for a flock sharing one behaviour tree and a crowd
// whose agents each have their own (reciprocal avoidance around an arrive:
// two behaviours an agent in the snapshot's behaviour graph).
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

static steer_world *flock_world(long n)
{
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = (int)n;
    steer_world *w = steer_world_create(&wd);
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEPARATION);
    sd.radius = 2.0f;
    steer_behaviour *sep = steer_behaviour_create(&sd);
    steer_behaviour_def wdf = steer_default_behaviour_def(STEER_WANDER);
    steer_behaviour *wander = steer_behaviour_create(&wdf);
    steer_child kids[] = {{sep, 2.0f}, {wander, 1.0f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids, bd.child_count = 2;
    steer_behaviour *b = steer_behaviour_create(&bd);
    bench_flock_spawn(w, n, b);
    steer_behaviour_release(sep), steer_behaviour_release(wander), steer_behaviour_release(b);
    return w;
}

static steer_world *crowd_world(long n)
{
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = (int)n;
    steer_world *w = steer_world_create(&wd);
    float side = bench_flock_side(n);
    for (long i = 0; i < n; ++i) {
        steer_behaviour_def ad = steer_default_behaviour_def(STEER_ARRIVE);
        ad.target.kind = STEER_TARGET_POINT;
        ad.target.point = steer_v2(side - (float)(i % 100) * side / 100.0f, (float)(i / 100) * side / 100.0f);
        steer_behaviour *goal = steer_behaviour_create(&ad);
        steer_child c = {goal, 1.0f};
        steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
        rd.children = &c, rd.child_count = 1;
        steer_agent_def d = steer_default_agent_def();
        d.behaviour = steer_behaviour_create(&rd);
        d.state.position = steer_v2((float)(i % 100) * side / 100.0f, (float)(i / 100) * side / 100.0f);
        steer_agent_create(w, &d);
        steer_behaviour_release(goal), steer_behaviour_release(d.behaviour);
    }
    return w;
}

static int measure(steer_world *w, long n, long reps, const char *label)
{
    steer_world_step(w, 1.0f / 60.0f);
    size_t size = 0;
    steer_world_snapshot(w, NULL, NULL, 0, &size, NULL);
    unsigned char *bytes = malloc(size);
    double t0 = bench_now();
    for (long r = 0; r < reps; ++r) steer_world_snapshot(w, NULL, bytes, size, &size, NULL);
    double t1 = bench_now();
    steer_snapshot_error e;
    uint64_t hash = 0;
    double restore = 0.0;
    for (long r = 0; r < reps; ++r) {
        double a = bench_now();
        steer_world *copy = steer_world_restore(bytes, size, NULL, &e);
        restore += bench_now() - a;
        if (copy == NULL) {
            fprintf(stderr, "restore failed: %s\n", e.message);
            free(bytes);
            return 1;
        }
        hash = steer_world_hash(copy);
        steer_world_destroy(copy);
    }
    free(bytes);
    const double per10k = 10000.0 / (double)n;
    printf("snapshot %-6s agents %ld: %zu bytes (%.1f per agent, %.2f MB per 10k); save %.3f ms, restore %.3f ms "
           "(per 10k agents: %.3f ms, %.3f ms); same hash %s\n",
           label, n, size, (double)size / (double)n, (double)size / (double)n * 10000.0 / 1e6, (t1 - t0) / (double)reps * 1e3,
           restore / (double)reps * 1e3, (t1 - t0) / (double)reps * 1e3 * per10k, restore / (double)reps * 1e3 * per10k,
           hash == steer_world_hash(w) ? "yes" : "NO");
    return hash == steer_world_hash(w) ? 0 : 1;
}

int bench_snapshot(int argc, char **argv)
{
    long n = bench_arg_long(argc, argv, "--agents", 10000);
    long reps = bench_arg_long(argc, argv, "--reps", 10);
    if (n < 1 || reps < 1) return fprintf(stderr, "steer-bench snapshot: --agents and --reps must be positive\n"), 2;
    steer_world *w = flock_world(n);
    int rc = measure(w, n, reps, "flock");
    steer_world_destroy(w);
    w = crowd_world(n);
    rc |= measure(w, n, reps, "crowd");
    steer_world_destroy(w);
    return rc;
}
