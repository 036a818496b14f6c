// The C API for programs that drive scripts (steer/steer_lua.h): the step
// call, behaviour test, agents by id, roles, steering with memory kept, and
// the spawn hook.
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "../c/test.h"
#include "lua_state.h"


static void run(lua_State *L, const char *chunk)
{
    int rc = luaL_dostring(L, chunk);
    if (rc != LUA_OK) fprintf(stderr, "%s\n", lua_tostring(L, -1));
    CHECK(rc == LUA_OK);
}

// steer_lua_step runs Lua behaviours as world:step does, and raises their errors.
static int step_protected(lua_State *L)
{
    lua_getglobal(L, "world");
    steer_lua_step(L, -1, (float)lua_tonumber(L, 1));
    return 0;
}

static void step_and_behaviours(void)
{
    steer_world_def d = steer_default_world_def();
    steer_world *w = steer_world_create(&d);
    lua_State *L = new_state(w);
    run(L, "a = world:spawn{ steering = steer.behaviour(function(agent, dt) return 1, 0 end) }");
    lua_pushcfunction(L, step_protected);
    lua_pushnumber(L, 0.5);
    CHECK(lua_pcall(L, 1, 0, 0) == LUA_OK);
    CHECK(steer_world_step_count(w) == 1);
    run(L, "local x = a:velocity(); assert(x > 0)");
    run(L, "a.steering = steer.behaviour(function() error('boom') end)");
    lua_pushcfunction(L, step_protected);
    lua_pushnumber(L, 0.5);
    CHECK(lua_pcall(L, 1, 0, 0) != LUA_OK);
    CHECK(strstr(lua_tostring(L, -1), "boom") != NULL);
    lua_pop(L, 1);

    run(L, "b = steer.seek{ target = { 1, 0 } }");
    lua_getglobal(L, "b");
    CHECK(steer_lua_isbehaviour(L, -1));
    lua_getglobal(L, "world");
    CHECK(!steer_lua_isbehaviour(L, -1));
    lua_pop(L, 2);
    lua_close(L);
    steer_world_destroy(w);
}

// steer_lua_set_steering(a, 3): refused before anything changes.
static int set_bad_steering(lua_State *L)
{
    lua_getglobal(L, "a");
    lua_pushinteger(L, 3);
    steer_lua_set_steering(L, -2, -1);
    return 0;
}

static void agents_roles_steering(void)
{
    steer_world_def d = steer_default_world_def();
    steer_world *w = steer_world_create(&d);
    lua_State *L = new_state(w);
    run(L, "a = world:spawn{ role = 'guard', steering = steer.wander{} }; n = world:spawn{}");
    steer_agent_id a = steer_world_agent_at(w, 0), n = steer_world_agent_at(w, 1);
    lua_getglobal(L, "world");
    steer_lua_pushagent(L, -1, a);
    lua_getglobal(L, "a");
    CHECK(lua_rawequal(L, -1, -2)); // the one proxy
    lua_pop(L, 2);
    CHECK(steer_lua_pushrole(L, -1, a) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "guard") == 0);
    lua_pop(L, 1);
    CHECK(steer_lua_pushrole(L, -1, n) == LUA_TNIL && lua_isnil(L, -1));
    lua_pop(L, 1);
    // memory kept: the same tree again leaves the wander memory as it was
    for (int i = 0; i < 10; ++i) steer_world_step(w, 0.1f);
    uint64_t before = steer_world_hash(w);
    steer_lua_pushagent(L, -1, a);
    run(L, "w2 = a.steering");
    lua_getglobal(L, "w2");
    steer_lua_set_steering(L, -2, -1);
    CHECK(steer_world_hash(w) == before);
    lua_pop(L, 2);
    run(L, "assert(a.steering == w2)");
    lua_pushcfunction(L, set_bad_steering);
    CHECK(lua_pcall(L, 0, 0, 0) != LUA_OK);
    CHECK(strstr(lua_tostring(L, -1), "expected a behaviour or nil, got number") != NULL);
    lua_pop(L, 1);
    run(L, "assert(a.steering == w2)");
    lua_pop(L, 1);
    lua_close(L);
    steer_world_destroy(w);
}

// The hook: (agent, role) -> behaviour or nil.
static int hook(lua_State *L)
{
    if (strcmp(luaL_checkstring(L, 2), "seeker") != 0) return 0;
    lua_getglobal(L, "seeker");
    return 1;
}

static void spawn_hook(void)
{
    steer_world_def d = steer_default_world_def();
    steer_world *w = steer_world_create(&d);
    lua_State *L = new_state(w);
    lua_pushcfunction(L, hook);
    steer_lua_set_spawn_hook(L, -1);
    lua_pop(L, 1);
    run(L, "seeker = steer.seek{ target = { 5, 0 } }");
    run(L, "local a = world:spawn{ role = 'seeker' }; assert(a.steering == seeker)");
    run(L, "local a = world:spawn{ role = 'other' }; assert(a.steering == nil)");
    run(L, "local b = steer.wander{}; local a = world:spawn{ role = 'seeker', steering = b }; assert(a.steering == b)");
    lua_pushnil(L);
    steer_lua_set_spawn_hook(L, -1);
    lua_pop(L, 1);
    run(L, "local a = world:spawn{ role = 'seeker' }; assert(a.steering == nil)");
    // (agent, role) -> behaviour, colour: the colour fills one the spawn did
    // not give; while the hook runs the world is frozen
    run(L, "hook2 = function(agent, role)\n"
           "  if role == 'painted' then return seeker, '#ff0000' end\n"
           "  if role == 'bad' then return seeker, 'red' end\n"
           "  local ok, err = pcall(world.spawn, world, {}) frozen = err\n"
           "  ok, err = pcall(agent.remove, agent) frozen_remove = err\n"
           "  return seeker end");
    lua_getglobal(L, "hook2");
    steer_lua_set_spawn_hook(L, -1);
    lua_pop(L, 1);
    run(L, "local a = world:spawn{ role = 'painted' }; assert(a.color == '#ff0000' and a.steering == seeker)");
    run(L, "local a = world:spawn{ role = 'painted', color = '#00ff00' }; assert(a.color == '#00ff00')");
    run(L, "local ok, err = pcall(world.spawn, world, { role = 'bad' })\n"
           "assert(err:find(\"the colour of role 'bad' must be a colour '#rrggbb', got red\", 1, true), err)");
    run(L, "local n = world:count(); local a = world:spawn{ role = 'x' }\n"
           "assert(world:count() == n + 1 and a:alive() and a.steering == seeker)\n"
           "local m = 'attempt to modify a world while a role function gives a spawned agent its behaviour'\n"
           "assert(frozen:find(m, 1, true) and frozen_remove:find(m, 1, true), frozen)");
    lua_close(L);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(step_and_behaviours);
    RUN(agents_roles_steering);
    RUN(spawn_hook);
    return TEST_RESULT();
}
