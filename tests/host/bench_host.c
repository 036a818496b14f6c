// steer-bench-host: what the script host costs.
//   latency  from a script file's close to the first step that uses the new
//            version, through inotify, at 60 Hz real time (debounce 100 ms
//            and 0 ms)
//   hook     the instruction budget on a script-heavy update: the same
//            update unsandboxed (no budget), in the sandbox's default
//            watchdog mode and in its exact mode, interleaved
//   steer-bench-host [DIR] [--quick] [--hook-only]
// Prints figures; asserts nothing about speed (the smoke test runs it tiny).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "steer/host.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_until(double t)
{
    double wait = t - now_s();
    if (wait <= 0) return;
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
}

static void write_script(const char *path, int version)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    fprintf(f, "local steer = require 'steer'\n"
               "return { roles = { m = steer.seek{ target = { %d, 0 } } },\n"
               "  setup = function(world) for i = 1, 100 do world:spawn{ x = i, role = 'm' } end end }\n",
            version);
    fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void latency(const char *dir, int debounce_ms, int trials)
{
    char path[600];
    snprintf(path, sizeof path, "%s/latency.lua", dir);
    write_script(path, 0);
    steer_host_def def = steer_host_default_def();
    def.watch = STEER_HOST_WATCH_INOTIFY;
    def.debounce_ms = debounce_ms;
    steer_host *h = steer_host_create(&def);
    if (h == NULL || steer_host_load(h, path) != 0) {
        fprintf(stderr, "latency: cannot start the host\n");
        exit(1);
    }
    const double frame = 1.0 / 60.0;
    double ms[64], frames[64];
    for (int t = 0; t < trials && t < 64; ++t) {
        int want = steer_host_version(h) + 1;
        // the write lands mid-frame, as an editor's would
        double next = now_s() + frame;
        sleep_until(next - frame * 0.5);
        write_script(path, want);
        double closed = now_s();
        int n = 0;
        for (;;) {
            sleep_until(next);
            next += frame;
            steer_host_update(h, (float)frame, NULL);
            ++n;
            if (steer_host_version(h) >= want || n > 600) break;
        }
        ms[t] = (now_s() - closed) * 1e3;
        frames[t] = n;
    }
    qsort(ms, (size_t)trials, sizeof ms[0], cmp_double);
    qsort(frames, (size_t)trials, sizeof frames[0], cmp_double);
    printf("latency (inotify, debounce %3d ms, 60 Hz): median %.1f ms, max %.1f ms; frames after the close: median %.0f, max %.0f (%d trials)\n",
           debounce_ms, ms[trials / 2], ms[trials - 1], frames[trials / 2], frames[trials - 1], trials);
    steer_host_destroy(h);
}

// Two script-heavy updates: pure Lua (~2 million instructions of arithmetic
// and table access), and one that reads and steers 500 agents through the
// steer API (C calls: the engine's share of the time).
static const char *const heavy_scripts[] = {
    "local t = {} for i = 1, 64 do t[i] = 0 end\n"
    "return { update = function(world, dt)\n"
    "  local s = 0\n"
    "  for i = 1, 200000 do t[i % 64 + 1] = i * dt; s = s + t[(i * 7) % 64 + 1] end\n"
    "  return s end }\n",
    "local steer = require 'steer'\n"
    "return { roles = { w = steer.wander{} },\n"
    "  setup = function(world) for i = 1, 500 do world:spawn{ x = i % 25, y = i // 25, role = 'w' } end end,\n"
    "  update = function(world, dt)\n"
    "    for _ = 1, 4 do for agent in world:agents() do\n"
    "      local x, y = agent:position()\n"
    "      if x * x + y * y > 400 then agent.max_speed = 2 else agent.max_speed = 5 end\n"
    "    end end end }\n",
};

// The host definitions compared: unsandboxed (trusted, no budget: no count
// hook ever), the sandbox in its default mode (the watchdog: no hook within
// the 50 ms slice) and the sandbox counting every instruction (exact).
enum { UNSANDBOXED, WATCHDOG, EXACT, CONFIGS };
static const char *const config_names[CONFIGS] = {"unsandboxed", "sandbox (watchdog, default)", "sandbox (exact)"};

static steer_host_def config_def(int config)
{
    steer_host_def def = steer_host_default_def();
    if (config == UNSANDBOXED) {
        def.trusted = true;
        def.instruction_budget = 0;
    } else {
        def.instruction_budget = 1000000000;
        def.budget_mode = config == EXACT ? STEER_HOST_BUDGET_EXACT : STEER_HOST_BUDGET_WATCHDOG;
    }
    return def;
}

// The median time of a frame (update and step) over `frames` frames.
static double update_cost(const char *dir, int config, int frames, int which)
{
    char path[600];
    snprintf(path, sizeof path, "%s/heavy.lua", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) exit(1);
    fputs(heavy_scripts[which], f);
    fclose(f);
    steer_host_def def = config_def(config);
    steer_host *h = steer_host_create(&def);
    if (h == NULL || steer_host_load(h, path) != 0) exit(1);
    double t[256];
    for (int i = 0; i < frames && i < 256; ++i) {
        double t0 = now_s();
        if (steer_host_update(h, 1.0f / 60.0f, NULL) != 0) {
            fprintf(stderr, "hook: %s\n", steer_host_last_error(h));
            exit(1);
        }
        t[i] = now_s() - t0;
    }
    qsort(t, (size_t)frames, sizeof t[0], cmp_double);
    steer_host_destroy(h);
    return t[frames / 2];
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    bool quick = false, hook_only = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--hook-only") == 0)
            hook_only = true;
        else
            dir = argv[i];
    }
    mkdir(dir, 0755);
    int trials = quick ? 1 : 9;
    if (!hook_only) {
        latency(dir, 100, trials);
        latency(dir, 0, trials);
    }
    int frames = quick ? 3 : 41;
    static const char *const names[] = {"pure-Lua update", "steer-API update"};
    for (int which = 0; which < 2; ++which) {
        // rounds interleave the three definitions (sharing the machine's
        // noise); the figure of each is the median of its rounds' medians
        enum { MAX_ROUNDS = 15 };
        int rounds = quick ? 1 : 9;
        double ms[CONFIGS][MAX_ROUNDS], ratio[CONFIGS][MAX_ROUNDS];
        for (int r = 0; r < rounds; ++r) {
            for (int c = 0; c < CONFIGS; ++c) ms[c][r] = update_cost(dir, (c + r) % CONFIGS, frames, which) * 1e3;
            // (rotated so no definition always runs first)
            double by[CONFIGS];
            for (int c = 0; c < CONFIGS; ++c) by[(c + r) % CONFIGS] = ms[c][r];
            for (int c = 0; c < CONFIGS; ++c) {
                ms[c][r] = by[c];
                ratio[c][r] = by[c] / by[UNSANDBOXED];
            }
        }
        for (int c = 0; c < CONFIGS; ++c) {
            qsort(ms[c], (size_t)rounds, sizeof ms[c][0], cmp_double);
            qsort(ratio[c], (size_t)rounds, sizeof ratio[c][0], cmp_double);
            printf("hook: %s (frame with step), %-28s %7.3f ms, %.3fx unsandboxed (medians of %d interleaved rounds)\n",
                   names[which], config_names[c], ms[c][rounds / 2], ratio[c][rounds / 2], rounds);
        }
    }
    return 0;
}
