// bench.h: shared helpers of steer-bench subcommands.
#ifndef STEER_BENCH_H
#define STEER_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "steer/steer.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/// CPU time of the process (all its threads), seconds: on a machine shared
/// with other work, a one-worker run's CPU time per step is steadier than
/// its wall time (it leaves out the time other processes held the core).
static inline double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/// The timed window under callgrind: bench_window_begin() zeroes the counts
/// and starts collecting, bench_window_end() dumps them (a file ending in
/// .1) and stops, so that `valgrind --tool=callgrind --instr-atstart=no`
/// runs the setup and the untimed steps uninstrumented and counts the
/// window only (tests/tools/callgrind_window.sh, which sets
/// STEER_BENCH_WINDOW). No-ops without that variable (so that
/// callgrind_per_step.sh still counts whole runs), outside valgrind, and
/// without valgrind's headers.
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAS_CALLGRIND 1
#endif
#endif
static inline void bench_window_begin(void)
{
#if defined(BENCH_HAS_CALLGRIND)
    if (getenv("STEER_BENCH_WINDOW") == NULL) return;
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
}
static inline void bench_window_end(void)
{
#if defined(BENCH_HAS_CALLGRIND)
    if (getenv("STEER_BENCH_WINDOW") == NULL) return;
    CALLGRIND_DUMP_STATS;
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
}

/// Every thread of the process at one moment (Linux: /proc/self/task): its
/// CPU time, its time waiting for a core (runnable, not running) and its
/// context switches, voluntary (it slept) and not (preempted). Elsewhere
/// count stays 0.
enum { BENCH_MAX_THREADS = 70 };
typedef struct bench_threads {
    int count;
    long tid[BENCH_MAX_THREADS];
    double cpu[BENCH_MAX_THREADS], queued[BENCH_MAX_THREADS]; ///< seconds
    long slept[BENCH_MAX_THREADS], preempted[BENCH_MAX_THREADS];
} bench_threads;
void bench_threads_sample(bench_threads *t);
/// One line per thread alive at both samples, per agent-step
/// (`per` = agents * steps): "thread T cpu_ns=.. queued_ns=.. slept=..
/// preempted=..", then the largest thread CPU time (the critical path when
/// the threads share the work) and their sum.
void bench_threads_print(const char *label, const bench_threads *a, const bench_threads *b, double per);

/// Integer option "--name value" from argv, or fallback.
long bench_arg_long(int argc, char **argv, const char *name, long fallback);
/// True if the flag "--name" is present.
int bench_has_flag(int argc, char **argv, const char *name);

int bench_flock(int argc, char **argv);
/// The flock's pieces (bench_flock.c), shared with bench_lua.c.
float bench_flock_side(long n);
void bench_flock_spawn(steer_world *w, long n, steer_behaviour *b);
int bench_flock_run(steer_world *w, long n, long steps, const char *label);
/// steer-bench flock --lua (bench_lua.c): the same flock built through the
/// Lua API, stepped in C; then the cost of one call of a Lua behaviour.
int bench_flock_lua(long n, long steps);
int bench_rays(int argc, char **argv);
/// steer-bench formation --members N (bench_formation.c): assignment time.
int bench_formation(int argc, char **argv);
/// steer-bench crowd --agents N [--steps S]: reciprocal avoidance (bench_crowd.c).
int bench_crowd(int argc, char **argv);
/// steer-bench snapshot --agents N [--reps R] (bench_snapshot.c): snapshot size and time.
int bench_snapshot(int argc, char **argv);
/// steer-bench nav (bench_nav.c, when steer::nav is built): navigation figures.
int bench_nav(int argc, char **argv);

#endif
