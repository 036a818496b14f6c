// Allocation failure: the n-th allocation (of the Lua allocator or of the
// engine, through steer_set_allocator) fails, for
// every n of creating a host, loading a script, a frame, reloading and
// resetting. Nothing crashes, nothing leaks (ASan), and the host either
// reports the failure or carries on; afterwards it still works.
#include "host_test.h"

#include "steer/steer.h"

typedef struct failer {
    long countdown; ///< fail when it reaches 0; < 0: never
    bool sticky;    ///< once failed, fail every allocation until disarmed
    bool failed;
} failer;

// Lua retries a failed allocation after an emergency collection, so a
// single failure often heals; the sticky mode makes every path see it.
static bool fail_nth(void *context, size_t size)
{
    (void)size;
    failer *f = context;
    if (f->failed && f->sticky && f->countdown < 0 && f->countdown != -2) return true;
    if (f->countdown < 0) return false;
    if (f->countdown-- == 0) {
        f->failed = true;
        return true;
    }
    return false;
}

// The engine's allocations (worlds, agents, behaviours) count too: the
// hook is installed for the whole test and follows the failer armed now.
static failer *engine_failer;

static void *engine_alloc(size_t size, void *context)
{
    (void)context;
    if (engine_failer != NULL && fail_nth(engine_failer, size)) return NULL;
    return malloc(size);
}

static void engine_free(void *memory, size_t size, void *context)
{
    (void)size;
    (void)context;
    free(memory);
}

// A refused allocation is not misuse: the engine fails the call without
// going through its assert hook (which aborts Debug builds by default).
static int other_asserts;

static void on_assert(const char *condition, const char *file, int line, void *context)
{
    (void)context;
    ++other_asserts;
    fprintf(stderr, "%s:%d: engine assertion: %s\n", file, line, condition);
}

static const char *SCRIPT_A =
    "local steer = require 'steer'\n"
    "local lib = require 'lib'\n"
    "return { roles = { a = steer.wander{}, b = function(agent) return steer.seek{ target = { lib.x, 0 } } end,\n"
    "                   c = steer.behaviour(function(agent, dt) return 1, 0 end) },\n"
    "  setup = function(world) for i = 1, 8 do world:spawn{ x = i, role = ({'a', 'b', 'c'})[i % 3 + 1] } end end,\n"
    "  update = function(world, dt, input) local t = { input.x, input.keys.a } end,\n"
    "  on_reload = function(world) print('reloaded', world:count()) end }\n";
static const char *SCRIPT_B =
    "local steer = require 'steer'\n"
    "local lib = require 'lib'\n"
    "return { roles = { a = steer.wander{ wander_rate = 0.3 }, b = function(agent)\n"
    "    return steer.blend{ { steer.seek{ target = { -lib.x, 0 } }, weight = 1 }, { steer.separation{}, weight = 1 } } end,\n"
    "                   d = steer.arrive{ target = { 0, 0 } } },\n"
    "  setup = function(world) for i = 1, 4 do world:spawn{ y = i, role = 'd' } end end,\n"
    "  update = function(world, dt, input) end }\n";

static steer_host *armed_host(failer *f, test_log *log)
{
    steer_host_def def = steer_host_default_def();
    def.alloc_fail = fail_nth;
    def.alloc_fail_context = f;
    def.log = test_log_fn;
    def.log_context = log;
    def.instruction_budget = 1000000;
    return steer_host_create(&def);
}

// Write a script only when the file holds the other one (writes are the
// slow part of the sweep).
static void put(const char *path, const char *text)
{
    static const char *current = NULL;
    if (current == text) return;
    write_in_place(path, text);
    current = text;
}

// The sweep's run: the failure armed at n during one call (phase) only.
static bool run_once(long n, int phase, bool sticky, const char *path)
{
    static test_log log;
    log_clear(&log);
    failer f = {-2, sticky, false};
    engine_failer = &f;
    put(path, SCRIPT_A);
    if (phase == 0) f.countdown = n;
    steer_host *h = armed_host(&f, &log);
    f.countdown = -2;
    if (h == NULL) {
        CHECK(f.failed);
        engine_failer = NULL;
        return f.failed;
    }
    steer_host_input in = {.mouse_x = 1, .mouse_y = 2, .keys = 1};
    if (phase == 1) f.countdown = n;
    int loaded = steer_host_load(h, path);
    f.countdown = -2;
    if (loaded != 0) CHECK(steer_host_last_error(h) != NULL);
    if (phase == 2) f.countdown = n;
    steer_host_update(h, 1.0f / 60.0f, &in);
    f.countdown = -2;
    put(path, SCRIPT_B);
    if (phase == 3) f.countdown = n;
    int reloaded = loaded == 0 ? steer_host_reload(h) : -1;
    f.countdown = -2;
    if (loaded == 0 && reloaded != 0) {
        CHECK(steer_host_last_error(h) != NULL);
        // the last good version runs, its agents kept
        CHECK(steer_world_agent_count(steer_host_world(h)) == 8);
    }
    steer_host_update(h, 1.0f / 60.0f, &in);
    if (phase == 4) f.countdown = n;
    steer_host_reset(h);
    f.countdown = -2;
    steer_host_update(h, 1.0f / 60.0f, &in);
    bool failed = f.failed;
    // afterwards: a working host
    put(path, SCRIPT_A);
    CHECK(steer_host_load(h, path) == 0);
    CHECK(steer_host_update(h, 1.0f / 60.0f, &in) == 0);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 8);
    steer_host_destroy(h);
    engine_failer = NULL;
    return failed;
}

static void test_sweep(void)
{
    const char *dir = test_dir("sweep");
    const char *path = test_path(dir, "main.lua");
    write_in_place(test_path(dir, "lib.lua"), "return { x = 7 }\n");
    static const char *const phases[] = {"create", "load", "update", "reload", "reset"};
    for (int sticky = 0; sticky < 2; ++sticky) {
        for (int phase = 0; phase < 5; ++phase) {
            long n = 0;
            while (run_once(n, phase, sticky, path) && n < 100000) ++n;
            printf("  %s%s: swept %ld allocations\n", phases[phase], sticky ? " (sticky)" : "", n);
            CHECK(n > 0);
        }
    }
}

int main(void)
{
    steer_set_allocator(engine_alloc, engine_free, NULL);
    steer_set_assert_fn(on_assert, NULL);
    RUN(test_sweep);
    CHECK(other_asserts == 0);
    steer_set_assert_fn(NULL, NULL);
    steer_set_allocator(NULL, NULL, NULL);
    return TEST_RESULT();
}
