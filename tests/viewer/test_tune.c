// test_tune.c: the viewer's live tuning (demos/tune.c) refuses a value with
// the message Lua gives for it, applies a good one to the shared live
// behaviour, and "copy as Lua" writes a constructor call that Lua reads back
// into the same parameters.
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
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

// A value a field accepts (not its default, where that is easy).
static double good_value(const steer_field_info *f)
{
    switch (f->kind) {
    case STEER_FIELD_BOOL: return 1.0;
    case STEER_FIELD_ENUM: return 1.0;
    case STEER_FIELD_INT: return f->min + 1.0;
    case STEER_FIELD_UINT64: return 7.0;
    case STEER_FIELD_BITS: return 6.0;
    default: return f->min < f->max && f->min > 0.0 ? f->min * 2.0 : 2.5;
    }
}

// The Lua chunk that gives the option `name = value` to its constructor.
static void lua_call_for(steer_def_type t, const char *name, double value, char *out, size_t size)
{
    const char *chunk = t == STEER_DEF_WORLD ? "return steer.world{ %s = %.17g }"
                        : t == STEER_DEF_AGENT ? "local w = steer.world{}; return w:spawn{ %s = %.17g }"
                                               : "local w = steer.world{}; return steer.formation{ world = w, %s = %.17g }";
    snprintf(out, size, chunk, name, value);
}

// Walk every field of the world, agent and formation definitions: the
// tuner sets each live one on a live object (read back through the same
// table), refuses the others, and refuses a bad number with Lua's message.
static void test_every_field_from_the_tuner(void)
{
    lua_State *L = new_lua();
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_agent_def ad = steer_default_agent_def();
    steer_agent_id a = steer_agent_create(w, &ad);
    steer_formation_def fd = steer_default_formation_def();
    steer_formation_id form = steer_formation_create(w, &fd);
    int set = 0;
    for (int t = 0; t < STEER_DEF_TYPE_COUNT; ++t) {
        for (int i = 0; i < steer_def_field_count((steer_def_type)t); ++i) {
            const steer_field_info *f = steer_def_field((steer_def_type)t, i);
            char why[512];
            double v = good_value(f);
            bool ok = t == STEER_DEF_WORLD ? tune_set_world(w, f, v, why, sizeof why)
                      : t == STEER_DEF_AGENT ? tune_set_agent(w, a, f, v, why, sizeof why)
                                             : tune_set_formation(w, form, f, v, why, sizeof why);
            CHECK(ok == f->live);
            if (!f->live) continue;
            // read back through the same table
            double back;
            if (t == STEER_DEF_WORLD) {
                steer_world_def d;
                steer_world_get_def(w, &d);
                back = steer_def_get_field(&d, f);
            } else if (t == STEER_DEF_AGENT) {
                steer_agent_def d;
                steer_agent_get_def(w, a, &d);
                back = steer_def_get_field(&d, f);
            } else {
                back = steer_def_get_field(steer_formation_get_def(w, form), f);
            }
            CHECK_NEAR(back, v, 1e-6 * (v > 1.0 ? v : 1.0));
            ++set;
            if (f->kind != STEER_FIELD_FLOAT) continue;
            // a refusal, worded as Lua words it for the same option (any
            // finite number is a good z or priority: refuse one past the float range)
            double bad = f->rule == STEER_RULE_FINITE && !(f->min < f->max) ? 1e39 : -1.0;
            ok = t == STEER_DEF_WORLD ? tune_set_world(w, f, bad, why, sizeof why)
                 : t == STEER_DEF_AGENT ? tune_set_agent(w, a, f, bad, why, sizeof why)
                                        : tune_set_formation(w, form, f, bad, why, sizeof why);
            CHECK(!ok);
            char chunk[256];
            lua_call_for((steer_def_type)t, f->name, bad, chunk, sizeof chunk);
            CHECK(luaL_dostring(L, chunk) != LUA_OK);
            const char *lua_msg = lua_tostring(L, -1);
            printf("viewer: %s\nlua:    %s\n", why, lua_msg);
            CHECK(lua_msg != NULL && strstr(lua_msg, why) != NULL);
            lua_pop(L, 1);
        }
    }
    CHECK(set >= 15);
    steer_world_destroy(w);
    lua_close(L);
}

// A blend child's weight from the inspector: applied to the live blend, a
// NaN refused as Lua refuses it.
static void test_blend_weight(void)
{
    lua_State *L = new_lua();
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEEK), wd = steer_default_behaviour_def(STEER_WANDER);
    steer_child kids[2] = {{steer_behaviour_create(&sd), 1.0f}, {steer_behaviour_create(&wd), 0.5f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids;
    bd.child_count = 2;
    steer_behaviour *b = steer_behaviour_create(&bd);
    char why[512];
    CHECK(tune_set_weight(b, 1, 2.5, why, sizeof why));
    CHECK(steer_behaviour_get_child(b, 1).weight == 2.5f && steer_behaviour_get_child(b, 0).weight == 1.0f);
    CHECK(!tune_set_weight(b, 0, (double)NAN, why, sizeof why));
    CHECK(luaL_dostring(L, "return steer.blend{ { steer.seek{ target = { 1, 0 } }, weight = 0/0 } }") != LUA_OK);
    printf("viewer: %s\nlua:    %s\n", why, lua_tostring(L, -1));
    CHECK(strstr(lua_tostring(L, -1), why) != NULL);
    CHECK(steer_behaviour_get_child(b, 0).weight == 1.0f);
    steer_behaviour_release(b);
    steer_behaviour_release(kids[0].behaviour);
    steer_behaviour_release(kids[1].behaviour);
    lua_close(L);
}

int main(void)
{
    RUN(test_refusal_matches_lua);
    RUN(test_copy_as_lua_round_trips);
    RUN(test_every_field_from_the_tuner);
    RUN(test_blend_weight);
    return TEST_RESULT();
}
