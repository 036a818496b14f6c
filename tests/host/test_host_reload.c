// The script host: loading, roles, frames, and reload as a transaction.
#include "host_test.h"

#include "steer/steer.h"

static const float DT = 1.0f / 60.0f;

// A version whose "mover" role seeks (tx, 0) and whose update prints `tag`.
static void mover_script(char *buf, size_t n, double tx, const char *tag)
{
    snprintf(buf, n,
             "local steer = require 'steer'\n"
             "return {\n"
             "  roles = { mover = steer.seek{ target = { %g, 0 } } },\n"
             "  setup = function(world)\n"
             "    for i = 1, 20 do world:spawn{ x = i, y = 0, role = 'mover' } end\n"
             "  end,\n"
             "  update = function(world, dt, input) print('%s') end,\n"
             "}\n",
             tx, tag);
}

static steer_agent_id first_agent(steer_host *h) { return steer_world_agent_at(steer_host_world(h), 0); }

static void test_load_roles_and_frames(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("load");
    char text[2048];
    mover_script(text, sizeof text, 100, "v1");
    write_in_place(test_path(dir, "main.lua"), text);
    CHECK(steer_host_load(h, test_path(dir, "main.lua")) == 0);
    CHECK(steer_host_last_error(h) == NULL);
    CHECK(steer_host_version(h) == 1);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    CHECK(strcmp(log.last_print, "v1") == 0);
    CHECK(steer_world_step_count(steer_host_world(h)) == 1);
    // the role's behaviour was given at spawn: the agents head for +x
    CHECK(steer_agent_get_last_steering(steer_host_world(h), first_agent(h)).linear.x > 0);
    // reset: a fresh world, setup again
    CHECK(steer_host_reset(h) == 0);
    CHECK(steer_world_step_count(steer_host_world(h)) == 0);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
    steer_host_destroy(h);
}

static void test_parameter_change_next_frame(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("param");
    const char *path = test_path(dir, "main.lua");
    char text[2048];
    mover_script(text, sizeof text, 100, "v1");
    write_in_place(path, text);
    CHECK(steer_host_load(h, path) == 0);
    for (int i = 0; i < 10; ++i) steer_host_update(h, DT, NULL);
    steer_agent_id a = first_agent(h);
    steer_vec2 before = steer_agent_get_position(steer_host_world(h), a);
    mover_script(text, sizeof text, -100, "v2");
    write_in_place(path, text);
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_host_version(h) == 2);
    // reloading moved nobody
    steer_vec2 after = steer_agent_get_position(steer_host_world(h), a);
    CHECK(before.x == after.x && before.y == after.y);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    CHECK(strcmp(log.last_print, "v2") == 0);
    CHECK(steer_agent_get_last_steering(steer_host_world(h), a).linear.x < 0);
    steer_host_destroy(h);
}

// Wander (memory: the wander angle) and path following (memory: progress):
// a host that reloads the same text mid-run ends with the same hash as one
// that never reloads, so position, velocity, orientation and memory survive.
static void test_reload_keeps_state_and_memory(void)
{
    static const char *script =
        "local steer = require 'steer'\n"
        "return {\n"
        "  roles = {\n"
        "    wanderer = steer.wander{ wander_offset = 3, wander_radius = 2, wander_rate = 0.6 },\n"
        "    walker = function(agent)\n"
        "      return steer.follow_path{ path = steer.path{ {0,0}, {10,0}, {10,10}, loop = true }, path_offset = 1 }\n"
        "    end,\n"
        "  },\n"
        "  setup = function(world)\n"
        "    for i = 1, 10 do world:spawn{ x = i, role = 'wanderer' } end\n"
        "    for i = 1, 5 do world:spawn{ y = i, role = 'walker' } end\n"
        "  end,\n"
        "}\n";
    test_log la, lb;
    steer_host *a = test_host(&la, STEER_HOST_WATCH_NONE);
    steer_host *b = test_host(&lb, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("memory");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, script);
    CHECK(steer_host_load(a, path) == 0);
    CHECK(steer_host_load(b, path) == 0);
    for (int i = 0; i < 90; ++i) {
        steer_host_update(a, DT, NULL);
        steer_host_update(b, DT, NULL);
    }
    CHECK(steer_world_hash(steer_host_world(a)) == steer_world_hash(steer_host_world(b)));
    CHECK(steer_host_reload(a) == 0);
    CHECK(steer_host_version(a) == 2);
    CHECK(steer_world_hash(steer_host_world(a)) == steer_world_hash(steer_host_world(b)));
    for (int i = 0; i < 90; ++i) {
        steer_host_update(a, DT, NULL);
        steer_host_update(b, DT, NULL);
    }
    CHECK(steer_world_hash(steer_host_world(a)) == steer_world_hash(steer_host_world(b)));
    steer_host_destroy(a);
    steer_host_destroy(b);
}

static void test_roles_added_and_removed(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("roles");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { a = steer.seek{ target = {100, 0} }, b = steer.seek{ target = {0, 100} } },\n"
                         "  setup = function(world) world:spawn{ role = 'a' } world:spawn{ x = 5, role = 'b' } end }\n");
    CHECK(steer_host_load(h, path) == 0);
    steer_host_update(h, DT, NULL);
    // version 2: 'b' removed, 'c' added (and spawned from update)
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { a = steer.seek{ target = {-100, 0} }, c = steer.seek{ target = {0, -100} } },\n"
                         "  update = function(world) if world:count() < 3 then world:spawn{ x = 9, role = 'c' } end end }\n");
    CHECK(steer_host_reload(h) == 0);
    CHECK(log_has(&log, "role 'b' is not in the new version: its 1 agent(s) keep their old behaviour"));
    CHECK(steer_host_update(h, DT, NULL) == 0);
    steer_world *w = steer_host_world(h);
    CHECK(steer_world_agent_count(w) == 3);
    int seen_a = 0, seen_b = 0, seen_c = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_agent_id id = steer_world_agent_at(w, i);
        steer_vec2 l = steer_agent_get_last_steering(w, id).linear;
        float x = steer_agent_get_position(w, id).x;
        if (x < 2) seen_a += l.x < 0;        // a: the new target
        else if (x < 7) seen_b += l.y > 0;   // b: kept the old behaviour
        else seen_c += l.y < 0;              // c: spawned with the new role
    }
    CHECK(seen_a == 1 && seen_b == 1 && seen_c == 1);
    steer_host_destroy(h);
}

// While a role function gives a spawned agent its behaviour the world is
// frozen, as during a reload's prepare: removing, spawning, moving,
// retuning or recolouring agents (the new one or another) and closing a
// world are refused with a clear error; a role function that catches the
// errors still gives its behaviour, and the role's colour is set after it
// returned. (Before: the removal went through and the engine asserted,
// agent.c i >= 0, or a spawn raised "role 'c' removed the agent".)
static int role_asserts;
static void count_role_assert(const char *condition, const char *file, int line, void *context)
{
    (void)condition, (void)file, (void)line, (void)context;
    ++role_asserts;
}

// Load the script at path and run a frame: the engine assertions meanwhile.
static int load_and_step_counting_asserts(steer_host *h, const char *path)
{
    role_asserts = 0;
    steer_set_assert_fn(count_role_assert, NULL);
    CHECK(steer_host_load(h, path) == 0);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    steer_set_assert_fn(NULL, NULL);
    return role_asserts;
}

static void test_role_function_cannot_change_the_world(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *path = test_path(test_dir("role_frozen"), "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "local stash, first, own = nil, nil, nil\n"
                         "local function try(what, f, ...)\n"
                         "  local ok, err = pcall(f, ...)\n"
                         "  print(what .. ': ' .. (ok and 'allowed' or tostring(err):gsub('^main.lua:%d+: ', '')))\n"
                         "end\n"
                         "return { colors = { c = '#ff0000' },\n"
                         "  roles = { c = function(agent)\n"
                         "    if stash ~= nil then\n"
                         "      try('remove', agent.remove, agent)\n"
                         "      try('remove other', first.remove, first)\n"
                         "      try('spawn', stash.spawn, stash, { x = 9 })\n"
                         "      try('move', agent.set_position, agent, 50, 50)\n"
                         "      try('move other', first.set_position, first, 40, 0)\n"
                         "      try('retune', function() agent.max_speed = 0.25 end)\n"
                         "      try('colour', function() agent.color = '#00ff00' end)\n"
                         "    end\n"
                         "    return steer.seek{ target = { -100, 0 } } end,\n"
                         "    o = function(agent) try('close', own.close, own) return steer.wander{} end },\n"
                         "  setup = function(world)\n"
                         "    own = steer.world{}\n"
                         "    first = world:spawn{ x = 1, role = 'c' }\n"
                         "    stash = world\n"
                         "    world:spawn{ x = 2, role = 'c' }\n"
                         "    own:spawn{ x = 3, role = 'o' }\n"
                         "  end }\n");
    CHECK(load_and_step_counting_asserts(h, path) == 0);
    static const char *const refused[] = {"remove", "remove other", "spawn", "move", "move other", "retune", "colour"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        char line[256];
        snprintf(line, sizeof line, "%s: attempt to modify a world while a role function gives a spawned agent its behaviour",
                 refused[i]);
        CHECK(log_has(&log, line));
    }
    CHECK(log_has(&log, "close: attempt to close a world while a role function gives a spawned agent its behaviour"));
    CHECK(!log_has(&log, "allowed"));
    steer_world *w = steer_host_world(h);
    CHECK(steer_world_agent_count(w) == 2);
    for (int i = 0; i < 2; ++i) {
        steer_agent_id id = steer_world_agent_at(w, i);
        CHECK(steer_agent_get_position(w, id).x < 3); // nobody moved
        CHECK(steer_agent_get_limits(w, id).max_speed != 0.25f);
        CHECK(steer_agent_get_color(w, id) == 0xff0000ffu); // the role's colour, set after the hook
        CHECK(steer_agent_get_last_steering(w, id).linear.x < 0); // the role's behaviour
    }
    steer_host_destroy(h);
}

// A formation changed while it still lists a member removed from the world
// (it leaves at the next step): no engine assertion (the cost roles and a
// costs function were given to every listed member: formation.c,
// set_member_cost_role and set_member_costs asserted; fuzz_lua seed
// 640005474), and the change takes effect.
static void test_formation_change_after_a_member_left(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *path = test_path(test_dir("member_left"), "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { setup = function(world)\n"
                         "  for variant = 1, 4 do\n"
                         "    local a, b, c = world:spawn{}, world:spawn{ x = 2 }, world:spawn{ x = 4 }\n"
                         "    local f = steer.formation{ members = { a, b, c }, costs = variant == 4 and { x = { y = 1 } } or nil }\n"
                         "    b:remove()\n"
                         "    if variant >= 2 then world:spawn{ x = 5 } end\n" // b's index taken again
                         "    if variant == 3 then f.costs = function(m, s) return s end\n"
                         "    elseif variant == 4 then f.slot_roles = { 'y', 'y', 'y' }\n"
                         "    else f:remove(a) end\n"
                         "    print(variant, f:slot_of(c) ~= nil)\n"
                         "  end end }\n");
    CHECK(load_and_step_counting_asserts(h, path) == 0);
    CHECK(log_has(&log, "3\ttrue") && log_has(&log, "4\ttrue"));
    steer_host_destroy(h);
}

// A role function that raises at spawn: the spawn raises with its message
// (the world thawed again: the next spawn works).
static void test_role_function_raising_at_spawn(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *path = test_path(test_dir("role_raises"), "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { c = function(agent)\n"
                         "    if agent.x > 2 then agent:remove() end\n"
                         "    return steer.seek{ target = { 0, 0 } } end },\n"
                         "  setup = function(world) for i = 1, 3 do\n"
                         "    local ok, err = pcall(world.spawn, world, { x = i, role = 'c' })\n"
                         "    if not ok then print(err) end end\n"
                         "    world:spawn{ x = 0 } end }\n");
    CHECK(steer_host_load(h, path) == 0);
    CHECK(log_has(&log, "attempt to modify a world while a role function gives a spawned agent its behaviour"));
    CHECK(steer_world_agent_count(steer_host_world(h)) == 4);
    steer_host_destroy(h);
}

// Each broken version keeps the old one running, with file:line.
static void test_broken_versions_keep_the_old_one(void)
{
    static const struct {
        const char *text;
        const char *expect;
    } broken[] = {
        {"return { roles = { mover = }", "main.lua:1:"},
        {"local x = nil\nreturn x.field", "main.lua:2: attempt to index a nil value"},
        {"error('boom')", "main.lua:1: boom"},
        {"return { roles = { mover = 42 } }", "main.lua: role 'mover' must be a behaviour or a function returning one, got number"},
        {"return { roles = { mover = function() return 7 end } }", "role 'mover' must return a behaviour, got number"},
        {"return {}", "main.lua: a script must return a table with roles, setup or update"},
        {"return 3", "main.lua: a script must return a table with roles, setup or update, got number"},
        {"while true do end", "instruction budget exceeded in loading"},
        {"return { roles = { mover = function() while true do end end } }", "instruction budget exceeded in role 'mover'"},
        {"", "main.lua: a script must return a table with roles, setup or update, got nil"
             " (a plain Lua program runs under lua5.4 or steer-lua)"},
    };
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("broken");
    const char *path = test_path(dir, "main.lua");
    char text[2048];
    mover_script(text, sizeof text, 100, "good");
    write_in_place(path, text);
    CHECK(steer_host_load(h, path) == 0);
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; ++i) {
        write_in_place(path, broken[i].text);
        CHECK(steer_host_reload(h) == -1);
        const char *e = steer_host_last_error(h);
        CHECK(e != NULL && strstr(e, broken[i].expect) != NULL);
        if (e == NULL || strstr(e, broken[i].expect) == NULL) fprintf(stderr, "  got: %s\n", e ? e : "(null)");
        CHECK(steer_host_version(h) == 1);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(strcmp(log.last_print, "good") == 0);
        CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
        CHECK(steer_agent_get_last_steering(steer_host_world(h), first_agent(h)).linear.x > 0);
    }
    // a failed first load leaves no script and says why
    steer_host *fresh = test_host(&log, STEER_HOST_WATCH_NONE);
    write_in_place(path, "return { roles = { mover = }");
    CHECK(steer_host_load(fresh, path) == -1);
    CHECK(steer_host_version(fresh) == 0);
    CHECK(strstr(steer_host_last_error(fresh), "main.lua:1:") != NULL);
    CHECK(steer_host_load(fresh, test_path(dir, "missing.lua")) == -1);
    CHECK(strstr(steer_host_last_error(fresh), "missing.lua") != NULL);
    steer_host_destroy(fresh);
    steer_host_destroy(h);
}

// A failed first load is not a dead end: reload and reset load the script
// once it is fixed; with nothing ever loaded they say so, without C names.
static void test_failed_first_load_recovers(void)
{
    test_log log;
    const char *dir = test_dir("first");
    const char *path = test_path(dir, "main.lua");
    char good[2048];
    mover_script(good, sizeof good, 100, "fixed");
    static const char *const how[] = {"reload", "reset"};
    for (int i = 0; i < 2; ++i) {
        steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
        write_in_place(path, "return { roles = { mover = }");
        CHECK(steer_host_load(h, path) == -1);
        CHECK(steer_host_version(h) == 0);
        // still broken: the script's own error, not "no script loaded"
        CHECK((i == 0 ? steer_host_reload(h) : steer_host_reset(h)) == -1);
        const char *e = steer_host_last_error(h);
        CHECK(e != NULL && strstr(e, "main.lua:1:") != NULL && strstr(e, "steer_host") == NULL);
        write_in_place(path, good);
        if ((i == 0 ? steer_host_reload(h) : steer_host_reset(h)) != 0) fprintf(stderr, "  %s failed\n", how[i]);
        CHECK(steer_host_version(h) == 1);
        CHECK(steer_host_last_error(h) == NULL);
        CHECK(steer_world_agent_count(steer_host_world(h)) == 20); // setup ran
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(strcmp(log.last_print, "fixed") == 0);
        steer_host_destroy(h);
    }
    // nothing was ever loaded
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    CHECK(steer_host_reload(h) == -1);
    CHECK(strcmp(steer_host_last_error(h), "nothing to reload: no script was loaded") == 0);
    CHECK(steer_host_reset(h) == -1);
    CHECK(strcmp(steer_host_last_error(h), "nothing to reset: no script was loaded") == 0);
    CHECK(steer_host_load(h, NULL) == -1);
    CHECK(strstr(steer_host_last_error(h), "steer_host") == NULL);
    CHECK(steer_host_update(h, -1.0f, NULL) == -1);
    CHECK(strstr(steer_host_last_error(h), "steer_host") == NULL);
    // a failed load of another script keeps the running one (and reload
    // reloads the running one, not the one that failed)
    write_in_place(path, good);
    CHECK(steer_host_load(h, path) == 0);
    CHECK(steer_host_load(h, test_path(dir, "missing.lua")) == -1);
    CHECK(strstr(steer_host_last_error(h), test_path(dir, "missing.lua")) != NULL); // the directory too
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_host_version(h) == 2);
    steer_host_destroy(h);
}

// setup raised: no "loaded" line before the error; a reload says that setup
// has not run and how to run it; a reset runs it and the warning stops.
static void test_reload_after_failed_setup(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("setup");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "return { setup = function(world) error('no level') end }\n");
    CHECK(steer_host_load(h, path) == -1);
    CHECK(log_has(&log, "main.lua:1: no level"));
    CHECK(!log_has(&log, "loaded"));
    CHECK(steer_host_version(h) == 1);
    char good[2048];
    mover_script(good, sizeof good, 100, "v2");
    write_in_place(path, good);
    CHECK(steer_host_reload(h) == 0);
    CHECK(log_has(&log, "main.lua: setup failed earlier and a reload does not run it: reset (R in steer-viewer)"));
    CHECK(steer_world_agent_count(steer_host_world(h)) == 0);
    CHECK(steer_host_reset(h) == 0);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
    int warnings = log.lines[STEER_HOST_LOG_WARNING];
    CHECK(steer_host_reload(h) == 0);
    CHECK(log.lines[STEER_HOST_LOG_WARNING] == warnings);
    steer_host_destroy(h);
}

// State across reload and reset (docs/embedding.md): world.data and
// agent.data survive a reload, lookups find agents and formations again
// from a new chunk; a reset starts the data over; a chunk's cached agent
// checked with alive() is found again in the reset's new world.
static const char *const squad_roles =
    "local steer = require 'steer'\n"
    "local roles = { soldier = steer.seek{ target = { 10, 0 } }, captain = steer.wander{} }\n";

static void test_state_across_reload_and_reset(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("state");
    const char *path = test_path(dir, "main.lua");
    char text[4096];
    snprintf(text, sizeof text,
             "%sreturn {\n"
             "  roles = roles,\n"
             "  setup = function(world)\n"
             "    world.data.wave = 1\n"
             "    local captain = world:spawn{ role = 'captain', key = 100 }\n"
             "    local members = {}\n"
             "    for i = 1, 4 do\n"
             "      members[i] = world:spawn{ x = -i, role = 'soldier' }\n"
             "      members[i].data.hp = 10 * i\n"
             "    end\n"
             "    steer.formation{ leader = captain, members = members }\n"
             "  end,\n"
             "  update = function(world) world.data.frames = (world.data.frames or 0) + 1 end,\n"
             "}\n",
             squad_roles);
    write_in_place(path, text);
    CHECK(steer_host_load(h, path) == 0);
    for (int i = 0; i < 10; ++i) CHECK(steer_host_update(h, DT, NULL) == 0);
    // v2: no handle of v1 survives in its chunk; everything is found again
    snprintf(text, sizeof text,
             "%slocal captain -- cached, checked with alive()\n"
             "return {\n"
             "  roles = roles,\n"
             "  setup = function(world) world:spawn{ role = 'captain', key = 100 } end,\n"
             "  update = function(world)\n"
             "    world.data.frames = (world.data.frames or 0) + 1\n"
             "    if not (captain and captain:alive()) then captain = world:find{ key = 100 } end\n"
             "    local squad, hp, in_squad = world:formations()[1], 0, 0\n"
             "    for s in world:agents{ role = 'soldier' } do\n"
             "      hp = hp + s.data.hp\n"
             "      if s.formation == squad then in_squad = in_squad + 1 end\n"
             "    end\n"
             "    print(('wave=%%s frames=%%d hp=%%d in_squad=%%d leads=%%s'):format(tostring(world.data.wave),\n"
             "      world.data.frames, hp, in_squad, tostring(squad ~= nil and squad.leader == captain)))\n"
             "  end,\n"
             "}\n",
             squad_roles);
    write_in_place(path, text);
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    if (strcmp(log.last_print, "wave=1 frames=11 hp=100 in_squad=4 leads=true") != 0)
        fprintf(stderr, "  got: %s\n", log.last_print);
    CHECK(strcmp(log.last_print, "wave=1 frames=11 hp=100 in_squad=4 leads=true") == 0);
    // a reset: a new world and its data start over; the cached captain is
    // of the closed world (alive() is false), found again, no error
    CHECK(steer_host_reset(h) == 0);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    if (strcmp(log.last_print, "wave=nil frames=1 hp=0 in_squad=0 leads=false") != 0)
        fprintf(stderr, "  got: %s\n", log.last_print);
    CHECK(strcmp(log.last_print, "wave=nil frames=1 hp=0 in_squad=0 leads=false") == 0);
    CHECK(log.lines[STEER_HOST_LOG_ERROR] == 0);
    steer_host_destroy(h);
}

// A failed reload leaves the world as it was: the new version's chunk and
// role functions may read it but not move, retune, remove or spawn agents
// (directly, or through a world a version stashed in the steer or string
// table, which each version sees through its own read-only view).
static void test_failed_reload_changes_nothing(void)
{
    static const char *v1 =
        "local steer = require 'steer'\n"
        "return {\n"
        "  roles = { mover = steer.seek{ target = { 100, 0 } } },\n"
        "  setup = function(world)\n"
        "    for i = 1, 3 do world:spawn{ x = i, y = 0, role = 'mover' } end\n"
        "    print(pcall(function() steer.stash = world end))\n"
        "    rawset(steer, 'stash', world)\n"
        "    rawset(string, 'stash', world)\n"
        "  end,\n"
        "}\n";
    static const struct {
        const char *change; // what each role call tries, before the last one raises
        const char *expect;
    } tries[] = {
        {"agent:set_position(50, 50)", "attempt to modify a world while a new version of the script is prepared"},
        {"agent.max_speed = 0.5", "attempt to modify a world while a new version of the script is prepared"},
        {"agent:remove()", "attempt to modify a world while a new version of the script is prepared"},
        {"agent.steering = nil", "attempt to modify a world while a new version of the script is prepared"},
        {"local w = steer.stash or string.stash or agent\n w:spawn{ role = 'mover' }", "steer.Agent has no property 'spawn'"},
        {"string.stash = 1", "attempt to set field 'stash' of the read-only string table"},
    };
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("failed_reload");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, v1);
    CHECK(steer_host_load(h, path) == 0);
    CHECK(strstr(log.last_print, "attempt to set field 'stash' of the read-only steer table") != NULL);
    for (int k = 0; k < 3; ++k) CHECK(steer_host_update(h, DT, NULL) == 0);
    steer_world *w = steer_host_world(h);
    uint64_t hash = steer_world_hash(w);
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; ++i) {
        char v2[1024];
        snprintf(v2, sizeof v2,
                 "local steer = require 'steer'\n"
                 "local calls = 0\n"
                 "return {\n"
                 "  roles = { mover = function(agent)\n"
                 "    calls = calls + 1\n"
                 "    if calls == 3 then error('boom') end\n"
                 "    %s\n"
                 "    return steer.flee{ target = { 0, 0 } }\n"
                 "  end },\n"
                 "}\n",
                 tries[i].change);
        write_in_place(path, v2);
        CHECK(steer_host_reload(h) == -1);
        const char *e = steer_host_last_error(h);
        CHECK(e != NULL && strstr(e, tries[i].expect) != NULL);
        if (e == NULL || strstr(e, tries[i].expect) == NULL) fprintf(stderr, "  %zu got: %s\n", i, e ? e : "(null)");
        CHECK(steer_host_version(h) == 1);
        CHECK(steer_world_agent_count(w) == 3);
        CHECK(steer_world_hash(w) == hash);
    }
    // the world is open again for the running version
    CHECK(steer_host_update(h, DT, NULL) == 0);
    CHECK(steer_world_hash(w) != hash);
    steer_host_destroy(h);
}

// Errors in update and in Lua behaviours: file:line, reported once per
// distinct message per simulated second, the next frame runs normally.
static void test_frame_errors(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("frame");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "local n = 0\n"
                         "return {\n"
                         "  roles = { odd = steer.behaviour(function(agent, dt)\n"
                         "    if n % 2 == 1 then error('behaviour failed') end\n"
                         "    return 1, 0\n"
                         "  end) },\n"
                         "  setup = function(world) world:spawn{ role = 'odd' } end,\n"
                         "  update = function(world, dt, input)\n"
                         "    n = n + 1\n"
                         "    if n % 2 == 0 then error('update failed') end\n"
                         "  end,\n"
                         "}\n");
    CHECK(steer_host_load(h, path) == 0);
    int failed = 0;
    for (int i = 0; i < 120; ++i) failed += steer_host_update(h, DT, NULL) != 0;
    CHECK(failed == 120);
    CHECK(log_has(&log, "main.lua:11: update failed"));
    CHECK(log_has(&log, "main.lua:5: behaviour failed"));
    // 2 simulated seconds, two messages: at most 2 reports each
    CHECK(log.lines[STEER_HOST_LOG_ERROR] >= 2 && log.lines[STEER_HOST_LOG_ERROR] <= 4);
    CHECK(steer_world_step_count(steer_host_world(h)) == 120);
    steer_host_destroy(h);
}

// 100 random sequences of good and broken versions: no agent lost, the last
// good version always runs.
static void test_random_sequences(void)
{
    static const char *broken[] = {
        "return { roles = { mover = }",
        "error('at load')",
        "return { roles = { mover = 'seek' } }",
        "while true do end",
        "",
    };
    const char *dir = test_dir("random");
    const char *path = test_path(dir, "main.lua");
    uint64_t rng = 12345;
    for (int seq = 0; seq < 100; ++seq) {
        test_log log;
        steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
        char text[2048], tag[32];
        mover_script(text, sizeof text, 100, "g0");
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == 0);
        int good = 0, sign = 1;
        for (int k = 0; k < 6; ++k) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            int r = (int)(rng >> 33) % 10;
            if (r < 5) {
                sign = (r & 1) ? -1 : 1;
                snprintf(tag, sizeof tag, "g%d", ++good);
                mover_script(text, sizeof text, 100.0 * sign, tag);
                write_in_place(path, text);
                CHECK(steer_host_reload(h) == 0);
            } else {
                write_in_place(path, broken[r - 5]);
                CHECK(steer_host_reload(h) == -1);
            }
            steer_host_update(h, DT, NULL);
            snprintf(tag, sizeof tag, "g%d", good);
            CHECK(strcmp(log.last_print, tag) == 0);
            CHECK(steer_world_agent_count(steer_host_world(h)) == 20);
            CHECK(steer_agent_get_last_steering(steer_host_world(h), first_agent(h)).linear.x * sign > 0);
        }
        steer_host_destroy(h);
    }
}

// Modules under the root are part of the version; input reaches update as a table.
static void test_require_and_input(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("require");
    mkdir(test_path(dir, "lib"), 0755);
    write_in_place(test_path(dir, "lib/params.lua"), "return { target = 50 }\n");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "local params = require 'lib.params'\n"
                         "return { roles = { m = steer.seek{ target = { params.target, 0 } } },\n"
                         "  setup = function(world) world:spawn{ role = 'm' } end,\n"
                         "  update = function(world, dt, input)\n"
                         "    print(string.format('%g %g %d %s %s', input.x, input.y, input.buttons,\n"
                         "      tostring(input.keys.space), tostring(input.keys.a)))\n"
                         "  end }\n");
    CHECK(steer_host_load(h, path) == 0);
    steer_host_input in = {.mouse_x = 2.5f, .mouse_y = -1.0f, .buttons = 1u, .keys = 1ull << STEER_HOST_KEY_SPACE};
    CHECK(steer_host_update(h, DT, &in) == 0);
    CHECK(strcmp(log.last_print, "2.5 -1 1 true false") == 0);
    CHECK(steer_agent_get_last_steering(steer_host_world(h), first_agent(h)).linear.x > 0);
    // the module changes: the reload picks it up
    write_in_place(test_path(dir, "lib/params.lua"), "return { target = -50 }\n");
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    CHECK(strcmp(log.last_print, "0 0 0 false false") == 0);
    CHECK(steer_agent_get_last_steering(steer_host_world(h), first_agent(h)).linear.x < 0);
    steer_host_destroy(h);
}

// A script cannot close or reconfigure its host's world (the bindings
// refuse world:close() and settings on a borrowed world); the host's world
// keeps stepping.
static void test_script_cannot_close_host_world(void)
{
    static const struct {
        const char *code;
        const char *expect;
    } attempts[] = {
        {"world:close()", "close"},
        {"world.cell_size = 1", "cell_size"},
        {"world.integrator = 'newton'", "integrator"},
        {"getmetatable(world).__gc(world)", ""},
    };
    const char *dir = test_dir("close");
    const char *path = test_path(dir, "main.lua");
    char text[1024];
    for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; ++i) {
        test_log log;
        steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
        snprintf(text, sizeof text,
                 "local steer = require 'steer'\n"
                 "return { roles = { m = steer.seek{ target = { 9, 0 } } },\n"
                 "  setup = function(world) world:spawn{ role = 'm' } end,\n"
                 "  update = function(world) %s end }\n",
                 attempts[i].code);
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == 0);
        CHECK(steer_host_update(h, DT, NULL) == -1);
        const char *e = steer_host_last_error(h);
        CHECK(e != NULL && strstr(e, attempts[i].expect) != NULL);
        if (e != NULL) printf("  %s -> %s\n", attempts[i].code, e);
        CHECK(steer_host_update(h, DT, NULL) == -1);
        steer_world *w = steer_host_world(h);
        CHECK(steer_world_step_count(w) == 2);
        CHECK(steer_world_get_cell_size(w) == steer_default_world_def().cell_size);
        CHECK(steer_agent_get_position(w, first_agent(h)).x > 0);
        steer_host_destroy(h);
    }
}

// Same seed, same script, same hash.
static void test_same_seed_same_hash(void)
{
    const char *dir = test_dir("seed");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { w = steer.wander{} },\n"
                         "  setup = function(world) for i = 1, 30 do world:spawn{ x = i, role = 'w' } end end }\n");
    uint64_t hashes[3];
    for (int run = 0; run < 3; ++run) {
        steer_host_def def = steer_host_default_def();
        def.world.seed = run == 2 ? 8 : 7;
        steer_host *h = steer_host_create(&def);
        CHECK(steer_host_load(h, path) == 0);
        for (int i = 0; i < 60; ++i) steer_host_update(h, DT, NULL);
        hashes[run] = steer_world_hash(steer_host_world(h));
        steer_host_destroy(h);
    }
    CHECK(hashes[0] == hashes[1]);
    CHECK(hashes[0] != hashes[2]);
}

static bool count_allocation(void *context, size_t size)
{
    (void)size;
    ++*(long *)context;
    return false;
}

// A frame allocates nothing in the Lua state beyond what the script does:
// the input table is reused, the step goes through the bindings' protocol.
static void test_no_garbage_per_frame(void)
{
    long allocations = 0;
    steer_host_def def = steer_host_default_def();
    def.alloc_fail = count_allocation;
    def.alloc_fail_context = &allocations;
    steer_host *h = steer_host_create(&def);
    const char *dir = test_dir("garbage");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { a = steer.wander{}, b = steer.behaviour(function(agent, dt) return 1, 0 end) },\n"
                         "  setup = function(world) for i = 1, 10 do world:spawn{ x = i, role = i % 2 == 0 and 'a' or 'b' } end end,\n"
                         "  update = function(world, dt, input) local x = input.x + (input.keys.space and 1 or 0) end }\n");
    CHECK(steer_host_load(h, path) == 0);
    steer_host_input in = {.mouse_x = 1, .mouse_y = 2, .buttons = 1, .keys = 1ull << STEER_HOST_KEY_SPACE};
    for (int i = 0; i < 10; ++i) CHECK(steer_host_update(h, DT, &in) == 0);
    allocations = 0;
    for (int i = 0; i < 100; ++i) CHECK(steer_host_update(h, DT, &in) == 0);
    CHECK(allocations == 0);
    steer_host_destroy(h);
}

// Role colours (the script's colors table): given at spawn unless spawn
// gives one; a reload recolours the agents that still have their role's old
// colour, and keeps a colour the script chose; a bad colour names the file.
static void test_role_colors(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("colors");
    const char *path = test_path(dir, "main.lua");
    static const char *const version[] = {
        "local steer = require 'steer'\n"
        "return { roles = { hare = steer.wander{}, hound = steer.wander{} },\n"
        "  colors = { hare = '#e03030' },\n"
        "  setup = function(world)\n"
        "    world:spawn{ role = 'hare' }\n"
        "    world:spawn{ role = 'hare', color = '#00ff00' }\n"
        "    world:spawn{ role = 'hound' }\n"
        "  end }\n",
        "local steer = require 'steer'\n"
        "return { roles = { hare = steer.wander{}, hound = steer.wander{} },\n"
        "  colors = { hare = '#ff8000', hound = '#2040ff' } }\n",
        ("local steer = require 'steer'\n"
         "return { roles = { hare = steer.wander{} }, colors = { hare = 'red' } }\n"),
    };
    write_in_place(path, version[0]);
    CHECK(steer_host_load(h, path) == 0);
    steer_world *w = steer_host_world(h);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 0)) == 0xe03030ffu);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 1)) == 0x00ff00ffu);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 2)) == 0);
    write_in_place(path, version[1]);
    CHECK(steer_host_reload(h) == 0);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 0)) == 0xff8000ffu);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 1)) == 0x00ff00ffu);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 2)) == 0x2040ffffu);
    write_in_place(path, version[2]);
    CHECK(steer_host_reload(h) == -1);
    CHECK(strstr(steer_host_last_error(h), "main.lua: colors.hare must be a colour '#rrggbb', got red") != NULL);
    CHECK(steer_agent_get_color(w, steer_world_agent_at(w, 0)) == 0xff8000ffu);
    steer_host_destroy(h);
}

// Edges reach update as input.pressed and input.released, shaped like
// input (buttons, keys): a click shorter than a frame is seen though
// buttons is 0; the next frame without edges has none.
static void test_input_edges(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("edges");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "return { update = function(world, dt, input)\n"
                         "  print(string.format('%d %d %d %s %s %s %s', input.buttons, input.pressed.buttons,\n"
                         "    input.released.buttons, tostring(input.keys.a), tostring(input.pressed.keys.a),\n"
                         "    tostring(input.released.keys.a), tostring(input.pressed.keys.space)))\n"
                         "  input.pressed = 'replaced by the script'\n"
                         "end }\n");
    CHECK(steer_host_load(h, path) == 0);
    steer_host_input click = {0};
    click.buttons_pressed = click.buttons_released = 1u;
    click.keys_pressed = 1ull << STEER_HOST_KEY_A;
    CHECK(steer_host_update(h, DT, &click) == 0);
    CHECK(strcmp(log.last_print, "0 1 1 false true false false") == 0);
    steer_host_input held = {0};
    held.keys = 1ull << STEER_HOST_KEY_A;
    CHECK(steer_host_update(h, DT, &held) == 0);
    CHECK(strcmp(log.last_print, "0 0 0 true false false false") == 0);
    steer_host_input up = {0};
    up.keys_released = 1ull << STEER_HOST_KEY_A;
    up.keys_pressed = 1ull << STEER_HOST_KEY_SPACE;
    CHECK(steer_host_update(h, DT, &up) == 0);
    CHECK(strcmp(log.last_print, "0 0 0 false false true true") == 0);
    CHECK(steer_host_update(h, DT, NULL) == 0);
    CHECK(strcmp(log.last_print, "0 0 0 false false false false") == 0);
    steer_host_destroy(h);
}

// host_demo.lua: N held for 30 frames adds one follower (it added one a
// frame while input had only levels).
static void test_demo_adds_one_follower_per_press(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    CHECK(steer_host_load(h, HOST_SCRIPTS_DIR "/host_demo.lua") == 0);
    int before = steer_world_agent_count(steer_host_world(h));
    for (int f = 0; f < 30; ++f) {
        steer_host_input in = {.keys = 1ull << (STEER_HOST_KEY_A + ('n' - 'a'))};
        if (f == 0) in.keys_pressed = in.keys;
        CHECK(steer_host_update(h, DT, &in) == 0);
    }
    CHECK(steer_world_agent_count(steer_host_world(h)) == before + 1);
    steer_host_destroy(h);
}

int main(void)
{
    RUN(test_no_garbage_per_frame);
    RUN(test_load_roles_and_frames);
    RUN(test_role_function_cannot_change_the_world);
    RUN(test_role_function_raising_at_spawn);
    RUN(test_formation_change_after_a_member_left);
    RUN(test_parameter_change_next_frame);
    RUN(test_reload_keeps_state_and_memory);
    RUN(test_roles_added_and_removed);
    RUN(test_broken_versions_keep_the_old_one);
    RUN(test_failed_first_load_recovers);
    RUN(test_reload_after_failed_setup);
    RUN(test_state_across_reload_and_reset);
    RUN(test_frame_errors);
    RUN(test_failed_reload_changes_nothing);
    RUN(test_random_sequences);
    RUN(test_require_and_input);
    RUN(test_script_cannot_close_host_world);
    RUN(test_same_seed_same_hash);
    RUN(test_role_colors);
    RUN(test_input_edges);
    RUN(test_demo_adds_one_follower_per_press);
    return TEST_RESULT();
}
