// fuzz_common.h: what fuzz_c and fuzz_host share: the seeded random numbers
// and the --seconds driver (fresh seeds, each in a child process, so that
// crashes, hangs and sanitizer reports are caught too).
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t rng_state;
static uint64_t rnd64(void)
{
    // splitmix64: small, good enough, the same everywhere
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline int rnd(int n) { return n <= 1 ? 0 : (int)(rnd64() % (uint64_t)n); } // [0, n)
static inline double unit(void) { return (double)(rnd64() >> 11) * (1.0 / 9007199254740992.0); }
static inline int chance(double p) { return unit() < p; }

typedef struct fuzz_driver {
    const char *name;        // in the summary line
    double seconds, timeout; // how long in all; how long one seed may run
    int ops;                 // per seed, for the summary line
    int (*run_seed)(unsigned long long seed); // 1 when every invariant held
    void (*replay_command)(char *buf, size_t size, unsigned long long seed);
    void (*child_setup)(void);                  // NULL: none
    void (*passed)(unsigned long long seed);    // NULL: none (in the parent)
} fuzz_driver;

// Fresh seeds until the time is up; 0 when none failed.
static int fuzz_run_for_seconds(const fuzz_driver *d)
{
    time_t deadline = time(NULL) + (time_t)d->seconds;
    unsigned long long seed = ((unsigned long long)time(NULL) * 1000ull + (unsigned long long)getpid()) % 1000000007ull;
    long runs = 0, failures = 0;
    const unsigned long long first = seed + 1;
    while (time(NULL) < deadline) {
        ++seed;
        ++runs;
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            alarm((unsigned)d->timeout); // a hang ends as SIGALRM
            if (d->child_setup != NULL) d->child_setup();
            _exit(d->run_seed(seed) ? 0 : 1);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            if (d->passed != NULL) d->passed(seed);
            continue;
        }
        ++failures;
        char cmd[2048];
        d->replay_command(cmd, sizeof cmd, seed);
        if (WIFSIGNALED(status))
            printf("FAIL seed %llu: signal %d%s\nreplay: %s\n", seed, WTERMSIG(status),
                   WTERMSIG(status) == SIGALRM ? " (timed out)" : "", cmd);
        else // 1: a broken invariant (the child said which) or a sanitizer report
            printf("FAIL seed %llu: exit status %d\nreplay: %s\n", seed, WEXITSTATUS(status), cmd);
    }
    printf("%s: %ld seeds (%llu..%llu) x %d ops, %ld failing\n", d->name, runs, first, seed, d->ops, failures);
    return failures == 0 ? 0 : 1;
}

// The options both take: --seed N, --count K, --ops N, --seconds S,
// --timeout T, --verbose. Returns how many arguments
// argv[i] (and its value) took: 0 when it is none of these.
typedef struct fuzz_options {
    unsigned long long seed;
    int have_seed, count, ops, verbose;
    double seconds, timeout;
} fuzz_options;

static int fuzz_common_option(fuzz_options *o, int argc, char **argv, int i)
{
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--seed") == 0 && v) o->seed = strtoull(v, NULL, 10), o->have_seed = 1;
    else if (strcmp(a, "--count") == 0 && v) o->count = atoi(v);
    else if (strcmp(a, "--ops") == 0 && v) o->ops = atoi(v);
    else if (strcmp(a, "--seconds") == 0 && v) o->seconds = atof(v);
    else if (strcmp(a, "--timeout") == 0 && v) o->timeout = atof(v);
    else if (strcmp(a, "--verbose") == 0) return o->verbose = 1;
    else return 0;
    return 2;
}

// After the options: the seeds o->seed.. (or --seconds), then the summary
// line (note: what was avoided). The exit status.
static int fuzz_main(const fuzz_options *o, const fuzz_driver *d, const char *argv0, const char *note)
{
    if (o->ops <= 0 || o->count <= 0 || (!o->have_seed && o->seconds <= 0)) {
        fprintf(stderr, "%s: give --seed N or --seconds S\n", argv0);
        return 2;
    }
    if (o->seconds > 0) return fuzz_run_for_seconds(d);
    int failed = 0;
    for (int i = 0; i < o->count; ++i) failed += !d->run_seed(o->seed + (unsigned long long)i);
    printf("%s: seeds %llu..%llu x %d ops, %d failing%s\n", d->name, o->seed, o->seed + (unsigned long long)o->count - 1,
           o->ops, failed, note);
    return failed == 0 ? 0 : 1;
}

#endif
