// test_tune.c: the viewer's live tuning (demos/tune.c) refuses a value with
// the message Lua gives for it, applies a good one to the shared live
// behaviour, and "copy as Lua" writes a constructor call that Lua reads back
// into the same parameters.
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "steer/steer_lua.h"
#include "test.h"
#include "tune.h"

static lua_State *new_lua(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "steer", luaopen_steer, 1); // also the global `steer`, as the host gives scripts
    lua_pop(L, 1);
    return L;
}

static void test_refusal_matches_lua(void)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_ARRIVE);
    steer_behaviour *b = steer_behaviour_create(&d);
    const steer_param_info *slow = steer_behaviour_find_param(STEER_ARRIVE, "slow_radius");
    char why[512];
    CHECK(!tune_set(b, slow, -3.0, why, sizeof why));
    lua_State *L = new_lua();
    CHECK(luaL_dostring(L, "return steer.arrive{ slow_radius = -3 }") != LUA_OK);
    const char *lua_msg = lua_tostring(L, -1);
    printf("viewer: %s\nlua:    %s\n", why, lua_msg);
    CHECK(lua_msg != NULL && strstr(lua_msg, why) != NULL);
    CHECK(steer_behaviour_get_param(b, slow) == 3.0); // unchanged
    CHECK(tune_set(b, slow, 12.0, why, sizeof why));
    CHECK(steer_behaviour_get_param(b, slow) == 12.0);
    lua_close(L);
    steer_behaviour_release(b);
}

static void test_copy_as_lua_round_trips(void)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE);
    d.lookahead = 6.5f;
    d.avoid_distance = 1.25f;
    d.rays = STEER_RAYS_WHISKERS;
    d.scale_lookahead = true;
    d.max_speed = 3.0f; // a limit override
    steer_behaviour *b = steer_behaviour_create(&d);
    char lua[2048];
    tune_as_lua(b, lua, sizeof lua);
    printf("%s\n", lua);
    lua_State *L = new_lua();
    char chunk[2300];
    snprintf(chunk, sizeof chunk, "local b = %s\nreturn b.lookahead, b.avoid_distance, b.rays, b.scale_lookahead, b.max_speed", lua);
    CHECK(luaL_dostring(L, chunk) == LUA_OK);
    CHECK_NEAR(lua_tonumber(L, -5), 6.5, 1e-6);
    CHECK_NEAR(lua_tonumber(L, -4), 1.25, 1e-6);
    CHECK(lua_tostring(L, -3) != NULL && strcmp(lua_tostring(L, -3), "whiskers") == 0);
    CHECK(lua_toboolean(L, -2));
    CHECK_NEAR(lua_tonumber(L, -1), 3.0, 1e-6);
    lua_close(L);
    steer_behaviour_release(b);
}

int main(void)
{
    RUN(test_refusal_matches_lua);
    RUN(test_copy_as_lua_round_trips);
    return TEST_RESULT();
}
