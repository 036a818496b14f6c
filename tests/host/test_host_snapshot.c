// test_host_snapshot.c: snapshots and hot reload through the host's public
// API, as an embedder (the viewer's F6/F9, steer-run) uses them (issue 26):
// a snapshot survives a hot reload that keeps the behaviour kinds. Every
// check compares the world hash with a run that was never interrupted.
#include "host_test.h"

#include <stdint.h>
#include <stdlib.h>

#define DT (1.0f / 60.0f)

// Two versions of one script: the same tree shapes in every role (a blend
// of separation, wander and a named Lua behaviour; a role function making
// one blend per agent; a path follower; an arrive), other parameters,
// weights and another function behind the named behaviour (the host finds
// the named behaviours among the roles' behaviours, not inside role
// functions). Wander's angles, the path's progress and the random
// streams are behaviour memory a reload keeps.
static const char *const version_1 =
    "local steer = require 'steer'\n"
    "local drift = steer.behaviour{ name = 'drift', fn = function(agent)\n"
    "  return agent.data.dx, 0.1\n"
    "end }\n"
    "local route = steer.path{ {0, 0}, {12, 0}, {12, 12}, {0, 12}, loop = true }\n"
    "return {\n"
    "  roles = {\n"
    "    walker = steer.blend{\n"
    "      { steer.separation{ radius = 2 }, weight = 2 },\n"
    "      { steer.wander{ wander_rate = 0.3 }, weight = 0.5 },\n"
    "      { drift, weight = 1 },\n"
    "    },\n"
    "    scout = function(agent)\n"
    "      return steer.blend{\n"
    "        { steer.separation{ radius = 2 }, weight = 2 },\n"
    "        { steer.wander{ wander_rate = agent.key % 2 == 0 and 0.4 or 0.2 }, weight = 1 },\n"
    "      }\n"
    "    end,\n"
    "    patrol = steer.follow_path{ path = route, path_offset = 1 },\n"
    "    homer = steer.arrive{ target = { 4, 4 }, slow_radius = 3 },\n"
    "  },\n"
    "  setup = function(world)\n"
    "    for i = 1, 24 do\n"
    "      local a = world:spawn{ x = (i % 6) * 1.5, y = (i // 6) * 1.5, role = 'walker' }\n"
    "      a.data.dx = (i % 3 - 1) * 0.5\n"
    "    end\n"
    "    for i = 1, 4 do world:spawn{ x = i * 3, y = -2, role = 'patrol', max_speed = 2 } end\n"
    "    for i = 1, 6 do world:spawn{ x = i * 2, y = 14, role = 'scout' } end\n"
    "    world:spawn{ x = -5, y = 9, role = 'homer' }\n"
    "  end,\n"
    "}\n";

static const char *const version_2 =
    "local steer = require 'steer'\n"
    "local drift = steer.behaviour{ name = 'drift', fn = function(agent)\n"
    "  return -2 * agent.data.dx, 0.3\n"
    "end }\n"
    "local route = steer.path{ {0, 0}, {12, 0}, {12, 12}, {0, 12}, loop = true }\n"
    "return {\n"
    "  roles = {\n"
    "    walker = steer.blend{\n"
    "      { steer.separation{ radius = 3 }, weight = 1.5 },\n"
    "      { steer.wander{ wander_rate = 0.3 }, weight = 0.8 },\n"
    "      { drift, weight = 2 },\n"
    "    },\n"
    "    scout = function(agent)\n"
    "      return steer.blend{\n"
    "        { steer.separation{ radius = 3 }, weight = 1.5 },\n"
    "        { steer.wander{ wander_rate = agent.key % 2 == 0 and 0.7 or 0.1 }, weight = 1 },\n"
    "      }\n"
    "    end,\n"
    "    patrol = steer.follow_path{ path = route, path_offset = 2.5 },\n"
    "    homer = steer.arrive{ target = { -3, 6 }, slow_radius = 1 },\n"
    "  },\n"
    "  setup = function(world)\n"
    "    error('setup of version 2 must not run: the world comes from version 1')\n"
    "  end,\n"
    "}\n";

static test_log logs[2];

static steer_host *host_with(int workers, int which)
{
    steer_host_def def = logged_def(&logs[which]);
    def.world.seed = 11;
    def.world.worker_count = workers;
    steer_host *h = steer_host_create(&def);
    CHECK(h != NULL);
    return h;
}

static void frames(steer_host *h, int n)
{
    for (int i = 0; i < n; ++i) CHECK(steer_host_update(h, DT, NULL) == 0);
}

// Load the script with its world from the snapshot; say why when it fails.
static void restore(steer_host *h, const char *script, const char *snap)
{
    int rc = steer_host_load_snapshot(h, script, snap);
    if (rc != 0) fprintf(stderr, "load_snapshot: %s\n", steer_host_last_error(h));
    CHECK(rc == 0);
}

static uint64_t hash_of(const steer_host *h) { return steer_world_hash(steer_host_world(h)); }

// Load version 1 at script, run `before` frames, then write version 2 over
// it and reload.
static void load_then_reload(steer_host *h, const char *script, int before)
{
    write_in_place(script, version_1);
    CHECK(steer_host_load(h, script) == 0);
    frames(h, before);
    write_in_place(script, version_2);
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_host_version(h) == 2);
}

// A snapshot taken after a reload restores with the new version and steps
// on as the world it was taken from.
static void snapshot_after_reload(int workers)
{
    const char *dir = test_dir("after_reload");
    const char *script = test_path(dir, "script.lua");
    const char *snap = test_path(dir, "after.snap");
    steer_host *a = host_with(workers, 0);
    load_then_reload(a, script, 40);
    frames(a, 20);
    CHECK(steer_host_snapshot(a, snap) == 0);
    frames(a, 60);
    uint64_t whole = hash_of(a);

    steer_host *b = host_with(workers, 1);
    restore(b, script, snap);
    CHECK(steer_world_agent_count(steer_host_world(b)) == 35);
    frames(b, 60);
    CHECK(hash_of(b) == whole);
    CHECK(!log_has(&logs[1], "must not run"));
    steer_host_destroy(a);
    steer_host_destroy(b);
}

// A snapshot of version 1 at frame 40; the uninterrupted world reloads to
// version 2 `gap` frames later and runs to frame 120. The restored world
// (loaded while the file holds version 1, or already version 2) reloads
// to version 2 after the same gap and must end with the same hash.
static void restore_then_reload(int workers, int gap, bool file_at_version_2)
{
    const char *dir = test_dir(file_at_version_2 ? "changed_script" : "reload_after_restore");
    const char *script = test_path(dir, "script.lua");
    const char *snap = test_path(dir, "v1.snap");
    steer_host *a = host_with(workers, 0);
    write_in_place(script, version_1);
    CHECK(steer_host_load(a, script) == 0);
    frames(a, 40);
    CHECK(steer_host_snapshot(a, snap) == 0);
    frames(a, gap);
    write_in_place(script, version_2);
    CHECK(steer_host_reload(a) == 0);
    frames(a, 80 - gap);
    uint64_t whole = hash_of(a);

    write_in_place(script, file_at_version_2 ? version_2 : version_1);
    steer_host *b = host_with(workers, 1);
    restore(b, script, snap);
    frames(b, gap);
    write_in_place(script, version_2);
    CHECK(steer_host_reload(b) == 0);
    frames(b, 80 - gap);
    CHECK(hash_of(b) == whole);
    steer_host_destroy(a);
    steer_host_destroy(b);
}

// A world restored from a snapshot of version 1 hot-reloads to version 2
// as the uninterrupted world does at the same frame.
static void reload_after_restore(int workers) { restore_then_reload(workers, 20, false); }

// The viewer's "rewind and try a change of script from there": a snapshot
// of version 1 loaded while the file holds version 2 (F9 after an edit)
// keeps the saved trees, their parameters included (only the named Lua
// behaviours take version 2's functions); a reload then (F5) gives the
// agents version 2's roles keeping their memory, and the world steps as
// version 1's world hot-reloaded to version 2 at the snapshot's frame.
static void restore_into_changed_script(int workers) { restore_then_reload(workers, 0, true); }

static void test_snapshot_after_reload(void)
{
    snapshot_after_reload(1);
    snapshot_after_reload(2);
}

static void test_reload_after_restore(void)
{
    reload_after_restore(1);
    reload_after_restore(2);
}

static void test_restore_into_changed_script(void)
{
    restore_into_changed_script(1);
    restore_into_changed_script(2);
}

int main(void)
{
    RUN(test_snapshot_after_reload);
    RUN(test_reload_after_restore);
    RUN(test_restore_into_changed_script);
    return TEST_RESULT();
}
