// steer-bench crowd: reciprocal avoidance on a lattice disc. Agents sit on a
// square lattice filling a disc (spacing 5 m, radius 1.5 m, max speed 2 m/s),
// each heading through the centre to the opposite point, dt 0.25 s, time
// horizon 10 s, at most 10 neighbours. Two scenes:
//
//   --scene steer (default, the issue-14 scene): looking 11 m (12 lattice
//     neighbours, so an inner agent is at its cap); the preferred velocity
//     is an arrive at full speed (2 m/s, slowing inside 4 m); agents start
//     moving at full speed.
//   --scene disc: RVO2's examples' settings exactly, so that the figure can
//     be set beside any ORCA implementation's: neighbour distance 15 m, the
//     preferred velocity the goal vector clipped to length 1 (an arrive with
//     max speed 1, slow radius 1, reached in one step), agents at rest at
//     the start.
//
// --threads adds a line per thread of the process (the pool's and the
// calling one) with its CPU time per agent-step, its time waiting for a core
// and its context switches over the window, then the largest thread's CPU
// time (with the work shared, the step's critical path in CPU time) and the
// sum (Linux only: /proc/self/task); then per worker of the built-in pool,
// per step: the tasks (parallel loops) it looked at, the pieces and items
// it ran, the pauses it spun waiting and the times it slept.
//
// --skip K steps untimed first (the jam at the centre comes after about 60
// steps of the disc scene at 10k). Prints time per agent-step, the
// neighbours each agent takes into account and the mean speed at the end.
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steer/steer.h"
#include "tasks.h"
#include "world.h"

static const float SPACING = 5.0f, RADIUS = 1.5f, SPEED = 2.0f, DT = 0.25f;
enum { MAX_NEIGHBOURS = 10 };

typedef struct crowd_scene {
    const char *name;
    float look;            ///< neighbour distance, metres
    float preferred_speed; ///< the arrive's max speed
    float slow_radius;     ///< the arrive's slow radius
    float time_to_target;  ///< the arrive's time to target
    bool moving;           ///< agents start at full speed towards their goal
} crowd_scene;

static const crowd_scene SCENES[] = {
    {"steer", 11.0f, 2.0f, 4.0f, 0.1f, true},
    {"disc", 15.0f, 1.0f, 1.0f, 0.25f, false},
};

// reciprocal_avoidance around an arrive at the opposite point
static steer_behaviour *crowd_brain(const crowd_scene *sc, steer_vec2 goal)
{
    steer_behaviour_def ad = steer_default_behaviour_def(STEER_ARRIVE);
    ad.target.kind = STEER_TARGET_POINT;
    ad.target.point = goal;
    ad.target_radius = sc->moving ? 0.5f : 0.0f;
    ad.slow_radius = sc->slow_radius;
    ad.time_to_target = sc->time_to_target;
    ad.max_speed = sc->preferred_speed;
    steer_child preferred = {steer_behaviour_create(&ad), 1.0f};
    steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    rd.children = &preferred;
    rd.child_count = 1;
    rd.radius = sc->look;
    rd.time_horizon = 10.0f;
    rd.max_neighbours = MAX_NEIGHBOURS;
    steer_behaviour *b = steer_behaviour_create(&rd);
    steer_behaviour_release(preferred.behaviour);
    return b;
}

static const crowd_scene *find_scene(int argc, char **argv)
{
    const char *name = "steer";
    for (int i = 2; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--scene") == 0) name = argv[i + 1];
    }
    for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; ++i) {
        if (strcmp(SCENES[i].name, name) == 0) return &SCENES[i];
    }
    fprintf(stderr, "steer-bench crowd: --scene must be steer or disc, got '%s'\n", name);
    return NULL;
}

int bench_crowd(int argc, char **argv)
{
    long n = bench_arg_long(argc, argv, "--agents", 10000);
    long steps = bench_arg_long(argc, argv, "--steps", 20);
    long skip = bench_arg_long(argc, argv, "--skip", 0);
    long workers = bench_arg_long(argc, argv, "--workers", 1);
    const crowd_scene *sc = find_scene(argc, argv);
    if (sc == NULL) return 2;
    if (n < 1 || steps < 1 || skip < 0 || workers < 1 || workers > STEER_MAX_WORKERS) {
        fprintf(stderr, "steer-bench crowd: --agents and --steps must be positive, --skip not negative, --workers in [1, %d]\n", STEER_MAX_WORKERS);
        return 2;
    }
    steer_world_def wd = steer_default_world_def();
    wd.cell_size = sc->look;
    wd.agent_capacity = (int)n;
    wd.worker_count = (int)workers;
    steer_world *w = steer_world_create(&wd);
    if (w == NULL) return 1;
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
                steer_behaviour *b = crowd_brain(sc, goal);
                d.behaviour = b;
                d.state.position = p;
                d.state.velocity = sc->moving && len > 0.0f ? steer_scale(p, -SPEED / len) : steer_v2(0.0f, 0.0f);
                steer_agent_create(w, &d);
                steer_behaviour_release(b);
                ++made;
            }
        }
    }
    steer_world_step(w, DT); // warm-up: grid and caches sized
    for (long s = 0; s < skip; ++s) steer_world_step(w, DT);
    const bool threads = bench_has_flag(argc, argv, "--threads");
    bench_threads before, after;
    task_counts pool_before[STEER_MAX_WORKERS];
    if (threads) {
        bench_threads_sample(&before);
        for (int k = 0; k < (int)workers; ++k) steer__tasks_pool_counts(w->pool, k, &pool_before[k]);
    }
    bench_window_begin();
    double t0 = bench_now(), c0 = bench_cpu_now();
    for (long s = 0; s < steps; ++s) steer_world_step(w, DT);
    double t1 = bench_now(), c1 = bench_cpu_now();
    bench_window_end();
    if (threads) bench_threads_sample(&after);
    // neighbours each agent took into account (within the look distance, at
    // most the cap), and the mean speed
    long total = 0;
    double speed = 0.0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_agent_id id = steer_world_agent_at(w, i);
        steer_vec2 p = steer_agent_get_position(w, id);
        int k = steer_world_query(w, p, sc->look, NULL, 0) - 1;
        total += k < MAX_NEIGHBOURS ? k : MAX_NEIGHBOURS;
        speed += steer_length(steer_agent_get_velocity(w, id));
    }
    printf("crowd scene=%s agents=%ld workers=%ld skip=%ld steps=%ld ns_per_agent_step=%.1f cpu_ns=%.1f "
           "neighbours=%.1f mean_speed=%.3f hash=%016llx\n",
           sc->name, made, workers, skip, steps, (t1 - t0) * 1e9 / ((double)made * (double)steps),
           (c1 - c0) * 1e9 / ((double)made * (double)steps),
           (double)total / (double)made, speed / (double)made, (unsigned long long)steer_world_hash(w));
    if (threads) {
        bench_threads_print("crowd", &before, &after, (double)made * (double)steps);
        // the built-in pool's own counts over the window, per step
        for (int k = 0; k < (int)workers && w->pool != NULL; ++k) {
            task_counts c;
            steer__tasks_pool_counts(w->pool, k, &c);
            const double st = (double)steps;
            printf("crowd worker %d tasks=%.1f pieces=%.1f items=%.1f spins=%.0f sleeps=%.2f (per step)\n", k,
                   (double)(c.tasks - pool_before[k].tasks) / st, (double)(c.pieces - pool_before[k].pieces) / st,
                   (double)(c.items - pool_before[k].items) / st, (double)(c.spins - pool_before[k].spins) / st,
                   (double)(c.sleeps - pool_before[k].sleeps) / st);
        }
    }
    steer_world_destroy(w);
    return 0;
}
