// steer-run: a script through the script host (steer/host.h), without SDL.
//
//   steer-run SCRIPT [--steps N] [--dt S] [--seed K] [--workers N] [--watch] [--poll]
//                    [--trusted] [--record FILE [--hash-every N]] [--snapshot-every N DIR]
//                    [--from-snapshot FILE]
//   steer-run --replay FILE [--workers N] [--trusted]
//
// Prints log lines (script print, reload status, errors) as they happen and,
// at the end, one summary line with the world hash: same seed, same script,
// same hash. --watch runs in real time and reloads on change until SIGINT or
// SIGTERM (or N steps when --steps is given), and a script that failed to
// load is loaded at its next good save. --record writes the run to
// FILE (docs/embedding.md, "Record and replay"); --replay runs a recording
// again, checks its hashes and names the first frame that differs (exit
// status 1). --snapshot-every N DIR saves the world and the script's state
// every N steps to DIR/frame-<step>.snap (steer.world_from_snapshot reads
// them); --from-snapshot FILE starts from one instead of setup (the
// script's roles re-bind its Lua behaviours by name).
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
// The host running, for the signal handler (NULL: none).
static steer_host *volatile running = NULL;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    // a script in a long loop stops now, budget or not
    steer_host *h = running;
    if (h != NULL) steer_host_interrupt(h);
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
    fprintf(stderr, "usage: steer-run SCRIPT [--steps N] [--dt S] [--seed K] [--workers N] [--watch] [--poll]\n"
                    "                        [--trusted] [--record FILE [--hash-every N]] [--snapshot-every N DIR]\n"
                    "                        [--from-snapshot FILE]\n"
                    "       steer-run --replay FILE [--workers N] [--trusted]\n");
    return 2;
}

// Replay a recording: one summary line, status 0 when every check matched.
static int replay(const char *path, int workers, bool trusted)
{
    steer_replay_options opt = steer_replay_default_options();
    opt.trusted = trusted;
    opt.log = log_line;
    opt.worker_count = workers;
    char error[1024];
    steer_replay *r = steer_replay_open(path, &opt, error, sizeof error);
    if (r == NULL) {
        fprintf(stderr, "steer-run: %s\n", error);
        return 1;
    }
    int status;
    while ((status = steer_replay_step(r)) == 1 && !stop_requested) {
    }
    steer_world *w = steer_host_world(steer_replay_host(r));
    int rc = 0;
    if (status < 0) {
        fprintf(stdout, "steer-run: %s diverges at frame %ld: %s\n", path, steer_replay_divergent_frame(r),
                steer_replay_error(r));
        rc = 1;
    } else if (status == 1) {
        fprintf(stdout, "steer-run: stopped at frame %ld of %ld\n", steer_replay_frame(r),
                steer_replay_frame_count(r));
        rc = 1;
    }
    fprintf(stdout, "replay agents=%d frames=%ld of %ld %s hash=%016" PRIx64 "\n", steer_world_agent_count(w),
            steer_replay_frame(r), steer_replay_frame_count(r), rc == 0 ? "identical" : "differs",
            steer_world_hash(w));
    fflush(stdout);
    steer_replay_close(r);
    return rc;
}

int main(int argc, char **argv)
{
    const char *script = NULL, *record = NULL, *replay_path = NULL;
    long hash_every = 1, workers = 0, snapshot_every = 0;
    const char *snapshot_dir = NULL, *from_snapshot = NULL;
    long steps = 600;
    bool steps_given = false, watch = false, poll = false, trusted = false;
    double dt = 1.0 / 60.0;
    uint64_t seed = 0;
    bool script_only = false; // an option of a script's run, which a replay takes from its recording
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        char *end = NULL;
        if (strcmp(a, "--workers") != 0 && strcmp(a, "--trusted") != 0 && strcmp(a, "--replay") != 0 && a[0] == '-')
            script_only = true;
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
        } else if (strcmp(a, "--workers") == 0 && i + 1 < argc) {
            workers = strtol(argv[++i], &end, 10);
            if (*end != '\0' || workers < 1 || workers > STEER_MAX_WORKERS) return usage();
        } else if (strcmp(a, "--record") == 0 && i + 1 < argc) {
            record = argv[++i];
        } else if (strcmp(a, "--snapshot-every") == 0 && i + 2 < argc) {
            snapshot_every = strtol(argv[++i], &end, 10);
            if (*end != '\0' || snapshot_every < 1 || snapshot_every > 1000000000) return usage();
            snapshot_dir = argv[++i];
        } else if (strcmp(a, "--from-snapshot") == 0 && i + 1 < argc) {
            from_snapshot = argv[++i];
        } else if (strcmp(a, "--hash-every") == 0 && i + 1 < argc) {
            hash_every = strtol(argv[++i], &end, 10);
            if (*end != '\0' || hash_every < 1 || hash_every > 1000000000) return usage();
        } else if (strcmp(a, "--replay") == 0 && i + 1 < argc) {
            replay_path = argv[++i];
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
    if (replay_path != NULL) {
        // --seed, --steps, --dt, ...: the recording's (they were ignored)
        if (script != NULL || script_only) return usage();
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        return replay(replay_path, (int)workers, trusted);
    }
    if (script == NULL) return usage();

    steer_host_def def = steer_host_default_def();
    def.trusted = trusted;
    def.world.seed = seed;
    if (workers > 0) def.world.worker_count = (int)workers;
    def.log = log_line;
    if (watch) def.watch = poll ? STEER_HOST_WATCH_POLL : STEER_HOST_WATCH_AUTO;
    steer_host *host = steer_host_create(&def);
    if (host == NULL) {
        fprintf(stderr, "steer-run: cannot create the host\n");
        return 1;
    }
    if (record != NULL && steer_host_record(host, record, (int)hash_every) != 0) {
        fprintf(stderr, "steer-run: %s\n", steer_host_last_error(host));
        steer_host_destroy(host);
        return 1;
    }
    running = host;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    // a load failure goes to stderr once, with the exit status
    quiet_errors = 1;
    int loaded = from_snapshot != NULL ? steer_host_load_snapshot(host, script, from_snapshot)
                                       : steer_host_load(host, script);
    quiet_errors = 0;
    if (loaded != 0) {
        fprintf(stderr, "steer-run: %s\n", steer_host_last_error(host));
        fflush(stderr);
        // --watch keeps going: the next good save loads the script (or, when
        // only setup failed, reloads it)
        if (!watch) {
            running = NULL;
            steer_host_destroy(host);
            return 1;
        }
    }
    bool tty = isatty(STDERR_FILENO) && !watch;
    double start = now_s(), last_bar = 0;
    bool bar_shown = false;
    long done = 0;
    if (watch) {
        fprintf(stdout, "steer-run: watching %s (%s)%s, Ctrl-C to stop\n", script,
                steer_host_watch_backend(host) == STEER_HOST_WATCH_INOTIFY ? "inotify" : "polling",
                steer_host_version(host) == 0 ? ": it did not load, the next good save loads it" : "");
        fflush(stdout);
    }
    double next = now_s();
    bool snapshot_failed = false;
    while (!stop_requested && (!watch || steps_given ? done < steps : true)) {
        steer_host_update(host, (float)dt, NULL);
        ++done;
        if (snapshot_every > 0 && done % snapshot_every == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/frame-%ld.snap", snapshot_dir, done);
            if (steer_host_snapshot(host, path) != 0) {
                fprintf(stdout, "error: snapshot at step %ld: %s\n", done, steer_host_last_error(host));
                fflush(stdout);
                snapshot_failed = true;
                break;
            }
        }
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
    int rc = snapshot_failed ? 1 : 0;
    if (record != NULL && steer_host_record_end(host) != 0) {
        fprintf(stderr, "steer-run: %s\n", steer_host_last_error(host));
        rc = 1;
    }
    running = NULL;
    steer_host_destroy(host);
    return rc;
}
