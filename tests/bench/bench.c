// steer-bench: speed of the engine, measured (never asserted in tests).
//
//   steer-bench flock --agents N --steps S [--workers W] [--lua] [--trace]
//   steer-bench rays --shapes N [--rays R]
//   steer-bench formation [--members N] [--reps R]
//   steer-bench crowd [--scene steer|disc] --agents N [--steps S] [--skip K] [--workers W]
//   steer-bench snapshot [--agents N] [--reps R]
//   steer-bench nav [--shapes N] [--side M] [--queries Q] [--cell-mm C] [--compare SEEDS]
//
// Each prints one line of figures. Build with CMAKE_BUILD_TYPE=Release.
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer/steer.h"

long bench_arg_long(int argc, char **argv, const char *name, long fallback)
{
    for (int i = 2; i + 1 < argc; ++i) {
        if (strcmp(argv[i], name) == 0) return strtol(argv[i + 1], NULL, 10);
    }
    return fallback;
}

int bench_has_flag(int argc, char **argv, const char *name)
{
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], name) == 0) return 1;
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: steer-bench flock --agents N --steps S [--workers W] [--lua] [--trace]\n"
                    "       steer-bench rays --shapes N [--rays R]\n"
                    "       steer-bench formation [--members N] [--reps R]\n"
                    "       steer-bench crowd [--scene steer|disc] --agents N [--steps S] [--skip K] [--workers W]\n"
                    "       steer-bench snapshot [--agents N] [--reps R]\n"
                    "       steer-bench nav [--shapes N] [--side M] [--queries Q] [--cell-mm C] [--compare SEEDS]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    if (strcmp(argv[1], "flock") == 0) return bench_flock(argc, argv);
    if (strcmp(argv[1], "rays") == 0) return bench_rays(argc, argv);
    if (strcmp(argv[1], "formation") == 0) return bench_formation(argc, argv);
    if (strcmp(argv[1], "crowd") == 0) return bench_crowd(argc, argv);
    if (strcmp(argv[1], "snapshot") == 0) return bench_snapshot(argc, argv);
#ifdef STEER_BENCH_NAV
    if (strcmp(argv[1], "nav") == 0) return bench_nav(argc, argv);
#endif
    return usage();
}
