// steer-bench flock --lua: the flock of bench_flock.c built through the Lua
// API (the Lua only composes; the step runs in C), checked to be the same
// flock, timed like the C one; then the cost of one call of a behaviour
// written in Lua.
#include "bench.h"

#ifdef STEER_BENCH_LUA

#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "steer/steer.h"
#include "steer/steer_lua.h"

// Arguments: n, side, pi (the float the C code uses). Returns the world.
static const char flock_script[] =
    "local steer = require 'steer'\n"
    "local n, side, pi = ...\n"
    "local world = steer.world{ cell_size = 2, capacity = n }\n"
    "local flock = steer.blend{\n"
    "  { steer.separation{ radius = 2 }, weight = 2 },\n"
    "  { steer.cohesion{ radius = 2 }, weight = 1 },\n"
    "  { steer.alignment{ radius = 2 }, weight = 1 },\n"
    "}\n"
    "-- bench_flock_spawn's generator, in Lua's wrapping 64-bit integers\n"
    "local s, A, C = 12345, 6364136223846793005, 1442695040888963407\n"
    "for _ = 1, n do\n"
    "  s = s * A + C; local u = (s >> 40) / 16777216\n"
    "  s = s * A + C; local v = (s >> 40) / 16777216\n"
    "  s = s * A + C; local a = (s >> 40) / 16777216 * 2 * pi\n"
    "  local hx, hy = steer.heading(a)\n"
    "  world:spawn{ x = u * side, y = v * side, vx = hx * 2, vy = hy * 2, steering = flock }\n"
    "end\n"
    "return world\n";

// Arguments: n, steps, lua (bool). Every agent steered by one Lua behaviour
// (or none); steps through world:step. Returns the seconds taken.
static const char call_script[] =
    "local steer = require 'steer'\n"
    "local n, steps, lua = ...\n"
    "local world = steer.world{ capacity = n }\n"
    "local b = lua and steer.behaviour(function(agent, dt) return 1, 0, 0 end) or nil\n"
    "for i = 1, n do world:spawn{ x = i * 10, y = 0, steering = b } end\n"
    "world:step(1 / 60) -- warm-up: proxies made, grid sized\n"
    "local t0 = os.clock()\n"
    "for _ = 1, steps do world:step(1 / 60) end\n"
    "return os.clock() - t0\n";

static lua_State *new_state(void)
{
    lua_State *L = luaL_newstate();
    if (L == NULL) return NULL;
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 0);
    lua_pop(L, 1);
    return L;
}

static bool run(lua_State *L, const char *script, const char *name, int nargs, int nresults)
{
    if (luaL_loadbuffer(L, script, strlen(script), name) != LUA_OK) {
        fprintf(stderr, "steer-bench: %s\n", lua_tostring(L, -1));
        return false;
    }
    lua_insert(L, -nargs - 1);
    if (lua_pcall(L, nargs, nresults, 0) != LUA_OK) {
        fprintf(stderr, "steer-bench: %s\n", lua_tostring(L, -1));
        return false;
    }
    return true;
}

static steer_world *lua_flock(lua_State *L, long n)
{
    lua_pushinteger(L, n);
    lua_pushnumber(L, bench_flock_side(n));
    lua_pushnumber(L, STEER_PI);
    if (!run(L, flock_script, "=flock", 3, 1)) return NULL;
    return steer_lua_toworld(L, -1);
}

// The C flock of bench_flock.c (its builder is private there).
static steer_world *c_flock(long n)
{
    steer_behaviour_def d[3] = {steer_default_behaviour_def(STEER_SEPARATION),
                                steer_default_behaviour_def(STEER_COHESION),
                                steer_default_behaviour_def(STEER_ALIGNMENT)};
    steer_child children[3];
    const float weights[3] = {2.0f, 1.0f, 1.0f};
    for (int i = 0; i < 3; ++i) {
        d[i].radius = 2.0f;
        children[i] = (steer_child){steer_behaviour_create(&d[i]), weights[i]};
    }
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = children;
    bd.child_count = 3;
    steer_behaviour *blend = steer_behaviour_create(&bd);
    for (int i = 0; i < 3; ++i) steer_behaviour_release(children[i].behaviour);
    steer_world_def wd = steer_default_world_def();
    wd.cell_size = 2.0f;
    wd.agent_capacity = (int)n;
    steer_world *w = steer_world_create(&wd);
    bench_flock_spawn(w, n, blend);
    steer_behaviour_release(blend);
    return w;
}

// The Lua-built flock must be the C flock: same state, same steps.
static bool same_as_c(void)
{
    const long n = 2000;
    lua_State *L = new_state();
    steer_world *lw = L != NULL ? lua_flock(L, n) : NULL;
    steer_world *cw = c_flock(n);
    bool same = lw != NULL && steer_world_hash(lw) == steer_world_hash(cw);
    for (int s = 0; s < 5 && same; ++s) {
        steer_world_step(lw, 1.0f / 60.0f);
        steer_world_step(cw, 1.0f / 60.0f);
        same = steer_world_hash(lw) == steer_world_hash(cw);
    }
    steer_world_destroy(cw);
    if (L != NULL) lua_close(L);
    return same;
}

static double lua_call_seconds(long n, long steps, bool lua)
{
    lua_State *L = new_state();
    if (L == NULL) return -1.0;
    lua_pushinteger(L, n);
    lua_pushinteger(L, steps);
    lua_pushboolean(L, lua);
    double t = run(L, call_script, "=calls", 3, 1) ? lua_tonumber(L, -1) : -1.0;
    lua_close(L);
    return t;
}

int bench_flock_lua(long n, long steps)
{
    if (!same_as_c()) {
        fprintf(stderr, "steer-bench: the Lua-built flock differs from the C-built one\n");
        return 1;
    }
    lua_State *L = new_state();
    if (L == NULL) return 1;
    steer_world *w = lua_flock(L, n);
    if (w == NULL) {
        lua_close(L);
        return 1;
    }
    // the Lua only composed: the step runs in C, as in bench_flock
    int rc = bench_flock_run(w, n, steps, "flock_lua");
    lua_close(L);
    if (rc != 0) return rc;

    // one call of a Lua behaviour: a step where every agent calls one,
    // minus the same step with no behaviour at all
    const long calls_n = 20000, calls_steps = 20;
    double with = lua_call_seconds(calls_n, calls_steps, true);
    double without = lua_call_seconds(calls_n, calls_steps, false);
    if (with < 0.0 || without < 0.0) return 1;
    double per = 1e9 / ((double)calls_n * (double)calls_steps);
    printf("lua_behaviour agents=%ld steps=%ld ns_per_call=%.1f (step with it %.1f, without %.1f ns per agent)\n",
           calls_n, calls_steps, (with - without) * per, with * per, without * per);
    return 0;
}

#else
typedef int bench_lua_unused; // built without the Lua bindings
#endif
