// steer-bench: speed of the engine, measured (never asserted in tests).
//
//   steer-bench flock --agents N --steps S [--workers W] [--lua] [--trace]
//   steer-bench rays [--scene mixed|boxes] [--shapes N] [--rays R] [--length L] [--outside] [--dump FILE]
//   steer-bench formation [--members N] [--reps R]
//   steer-bench crowd [--scene steer|disc] --agents N [--steps S] [--skip K] [--workers W] [--threads]
//   steer-bench snapshot [--agents N] [--reps R]
//   steer-bench nav [--shapes N] [--side M] [--queries Q] [--cell-mm C] [--compare SEEDS]
//
// Each prints one line of figures. Build with CMAKE_BUILD_TYPE=Release.
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <dirent.h>
#endif

#include "steer/steer.h"

// The value of option `name` (a whole number >= 0), or `fallback` when the
// option is absent. Anything else ("abc", "3x", "-3", the option given last
// with no value) ends the program with status 2 and a message naming it:
// a benchmark that silently ran on 0 agents would print a figure of nothing.
long bench_arg_long(int argc, char **argv, const char *name, long fallback)
{
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], name) != 0) continue;
        const char *text = i + 1 < argc ? argv[i + 1] : "";
        char *end = NULL;
        errno = 0;
        long value = strtol(text, &end, 10);
        if (end == text || *end != '\0' || errno == ERANGE || value < 0) {
            fprintf(stderr, "steer-bench %s: %s takes a whole number >= 0, got '%s'\n", argv[1], name, text);
            exit(2);
        }
        return value;
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

#if defined(__linux__)
static FILE *open_task_file(long tid, const char *name)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/self/task/%ld/%s", tid, name);
    return fopen(path, "r");
}
#endif

void bench_threads_sample(bench_threads *t)
{
    memset(t, 0, sizeof *t);
#if defined(__linux__)
    DIR *dir = opendir("/proc/self/task");
    if (dir == NULL) return;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && t->count < BENCH_MAX_THREADS) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        long tid = strtol(e->d_name, NULL, 10);
        FILE *f = open_task_file(tid, "schedstat"); // on-CPU ns, runnable-waiting ns, timeslices
        if (f == NULL) continue;
        unsigned long long run = 0, wait = 0;
        int got = fscanf(f, "%llu %llu", &run, &wait);
        fclose(f);
        if (got != 2) continue;
        int k = t->count++;
        t->tid[k] = tid;
        t->cpu[k] = (double)run * 1e-9;
        t->queued[k] = (double)wait * 1e-9;
        if ((f = open_task_file(tid, "status")) == NULL) continue;
        char line[256];
        while (fgets(line, sizeof line, f) != NULL) {
            if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0) t->slept[k] = strtol(line + 24, NULL, 10);
            if (strncmp(line, "nonvoluntary_ctxt_switches:", 27) == 0) t->preempted[k] = strtol(line + 27, NULL, 10);
        }
        fclose(f);
    }
    closedir(dir);
#endif
}

void bench_threads_print(const char *label, const bench_threads *a, const bench_threads *b, double per)
{
    double most = 0.0, sum = 0.0;
    int shown = 0;
    for (int j = 0; j < b->count; ++j) {
        int i = 0;
        while (i < a->count && a->tid[i] != b->tid[j]) ++i;
        if (i == a->count) continue;
        double cpu = (b->cpu[j] - a->cpu[i]) * 1e9 / per;
        printf("%s thread %d cpu_ns=%.1f queued_ns=%.1f slept=%ld preempted=%ld\n", label, shown++, cpu,
               (b->queued[j] - a->queued[i]) * 1e9 / per, b->slept[j] - a->slept[i],
               b->preempted[j] - a->preempted[i]);
        if (cpu > most) most = cpu;
        sum += cpu;
    }
    if (shown > 0) printf("%s threads=%d most_cpu_ns=%.1f sum_cpu_ns=%.1f\n", label, shown, most, sum);
}

static int usage(void)
{
    fprintf(stderr, "usage: steer-bench flock --agents N --steps S [--workers W] [--lua] [--trace]\n"
                    "       steer-bench rays [--scene mixed|boxes] [--shapes N] [--rays R] [--length L]\n"
                    "                        [--outside] [--dump FILE]\n"
                    "       steer-bench formation [--members N] [--reps R]\n"
                    "       steer-bench crowd [--scene steer|disc] --agents N [--steps S] [--skip K] [--workers W] [--threads]\n"
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
