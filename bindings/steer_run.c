// steer-run: a script through the script host (steer/host.h), without SDL.
//
//   steer-run SCRIPT [--steps N] [--dt S] [--seed K] [--watch] [--poll] [--trusted]
//
// Prints log lines (script print, reload status, errors) as they happen and,
// at the end, one summary line with the world hash: same seed, same script,
// same hash. --watch runs in real time and reloads on change until SIGINT or
// SIGTERM (or N steps when --steps is given).
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "steer/host.h"

static volatile sig_atomic_t stop_requested = 0;
static int quiet_errors = 0;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

// One whole line per write, flushed, so `tail -f` of a redirected run shows
// each line as it happens.
static void log_line(void *context, steer_host_log_level level, const char *line)
{
    (void)context;
    if (quiet_errors && level == STEER_HOST_LOG_ERROR) return;
    static const char *const prefix[] = {"", "steer-run: ", "warning: ", "error: "};
    size_t n = strlen(line);
    char buf[2048];
    int len = snprintf(buf, sizeof buf, "%s%.*s\n", prefix[level], (int)(n < 1900 ? n : 1900), line);
    fwrite(buf, 1, (size_t)len, stdout);
    fflush(stdout);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(long step, long steps, bool done)
{
    int width = 40;
    int filled = steps > 0 ? (int)((double)step / (double)steps * width) : width;
    char bar[64];
    for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld", bar, step, steps);
    if (done) fprintf(stderr, "\r%*s\r", width + 30, "");
    fflush(stderr);
}

static int usage(void)
{
    fprintf(stderr, "usage: steer-run SCRIPT [--steps N] [--dt S] [--seed K] [--watch] [--poll] [--trusted]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *script = NULL;
    long steps = 600;
    bool steps_given = false, watch = false, poll = false, trusted = false;
    double dt = 1.0 / 60.0;
    uint64_t seed = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        char *end = NULL;
        if (strcmp(a, "--steps") == 0 && i + 1 < argc) {
            steps = strtol(argv[++i], &end, 10);
            steps_given = true;
            if (*end != '\0' || steps < 0) return usage();
        } else if (strcmp(a, "--dt") == 0 && i + 1 < argc) {
            dt = strtod(argv[++i], &end);
            if (*end != '\0' || !(dt >= 0 && dt <= 1e4)) return usage();
        } else if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
            errno = 0;
            seed = strtoull(argv[++i], &end, 0);
            if (*end != '\0' || errno != 0) return usage();
        } else if (strcmp(a, "--watch") == 0) {
            watch = true;
        } else if (strcmp(a, "--poll") == 0) {
            poll = true;
        } else if (strcmp(a, "--trusted") == 0) {
            trusted = true;
        } else if (a[0] == '-' || script != NULL) {
            return usage();
        } else {
            script = a;
        }
    }
    if (script == NULL) return usage();

    steer_host_def def = steer_host_default_def();
    def.trusted = trusted;
    def.world.seed = seed;
    def.log = log_line;
    if (watch) def.watch = poll ? STEER_HOST_WATCH_POLL : STEER_HOST_WATCH_AUTO;
    steer_host *host = steer_host_create(&def);
    if (host == NULL) {
        fprintf(stderr, "steer-run: cannot create the host\n");
        return 1;
    }
    // a load failure goes to stderr once, with the exit status
    quiet_errors = 1;
    int loaded = steer_host_load(host, script);
    quiet_errors = 0;
    if (loaded != 0) {
        fprintf(stderr, "steer-run: %s\n", steer_host_last_error(host));
        steer_host_destroy(host);
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    bool tty = isatty(STDERR_FILENO) && !watch;
    double start = now_s(), last_bar = 0;
    bool bar_shown = false;
    long done = 0;
    if (watch) {
        fprintf(stdout, "steer-run: watching %s (%s), Ctrl-C to stop\n", script,
                steer_host_watch_backend(host) == STEER_HOST_WATCH_INOTIFY ? "inotify" : "polling");
        fflush(stdout);
    }
    double next = now_s();
    while (!stop_requested && (!watch || steps_given ? done < steps : true)) {
        steer_host_update(host, (float)dt, NULL);
        ++done;
        if (watch) {
            // real time: sleep to the next frame (no catching up after a stall)
            next += dt;
            double wait = next - now_s();
            if (wait < -0.25) next = now_s();
            if (wait > 0) {
                struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
                nanosleep(&ts, NULL);
            }
        } else if (tty) {
            double t = now_s();
            // only runs longer than about a second get a bar, at most 10 Hz
            if (t - start > 1.0 && t - last_bar > 0.1) {
                progress(done, steps, false);
                last_bar = t;
                bar_shown = true;
            }
        }
    }
    if (bar_shown) progress(done, steps, true);
    steer_world *w = steer_host_world(host);
    fprintf(stdout, "agents=%d steps=%ld time=%.3fs hash=%016" PRIx64 "\n", steer_world_agent_count(w), done,
            (double)done * dt, steer_world_hash(w));
    fflush(stdout);
    steer_host_destroy(host);
    return 0;
}
