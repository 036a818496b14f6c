// bench.h: shared helpers of steer-bench subcommands.
#ifndef STEER_BENCH_H
#define STEER_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif

#include <stdint.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/// Integer option "--name value" from argv, or fallback.
long bench_arg_long(int argc, char **argv, const char *name, long fallback);
/// True if the flag "--name" is present.
int bench_has_flag(int argc, char **argv, const char *name);

int bench_flock(int argc, char **argv);
int bench_rays(int argc, char **argv);

#endif
