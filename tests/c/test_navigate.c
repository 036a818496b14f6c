// The navigate behaviour through the world's planner interface, with the
// box planner of fixture.h (no steer::nav: the core engine links none): plans
// made once per agent and again on a version change, followed round a box,
// the same bits for any worker count, no allocation in steady steps, plans
// freed with their agents, hot reload, goals, stuck, move_group, snapshots.
#include "world.h"
#include "fixture.h"
#include "navigate.h"
#include "test.h"

#include <string.h>

static steer_world *box_world(int workers, box_planner *s)
{
    steer_world_def wd = steer_default_world_def();
    wd.worker_count = workers;
    steer_world *w = steer_world_create(&wd);
    steer_world_add_box(w, steer_v2(-15, -5), steer_v2(15, 5));
    steer_planner p = box_planner_of(s);
    steer_world_set_planner(w, &p);
    return w;
}

static steer_behaviour *navigate_to(float x, float y)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_NAVIGATE);
    if (!isnan(x)) {
        d.target.kind = STEER_TARGET_POINT;
        d.target.point = steer_v2(x, y);
    }
    return steer_behaviour_create(&d);
}

static steer_behaviour *avoiding(steer_behaviour *preferred)
{
    steer_child c = {preferred, 1.0f};
    steer_behaviour_def d = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    d.children = &c;
    d.child_count = 1;
    steer_behaviour *b = steer_behaviour_create(&d);
    steer_behaviour_release(preferred);
    return b;
}

static steer_agent_id spawn_at(steer_world *w, float x, float y, steer_behaviour *b)
{
    steer_agent_def ad = steer_default_agent_def();
    ad.state.position = steer_v2(x, y);
    ad.behaviour = b;
    return steer_agent_create(w, &ad);
}

static void plans_round_the_box(void)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(1, &s);
    steer_behaviour *nav = navigate_to(0.0f, 20.0f);
    steer_agent_id a = spawn_at(w, 0.0f, -20.0f, nav);
    steer_plan_info info;
    CHECK(steer_agent_get_plan(w, a, NULL, 0, &info) == 0 && info.status == STEER_PLAN_NONE);
    int steps = 0;
    for (; steps < 1800; ++steps) {
        steer_world_step(w, 1.0f / 30.0f);
        steer_agent_get_plan(w, a, NULL, 0, &info);
        if (info.status == STEER_PLAN_ARRIVED) break;
    }
    CHECK(info.status == STEER_PLAN_ARRIVED);
    CHECK(s.calls == 1); // nothing moved: planned once
    CHECK(info.replans == 1);
    steer_vec2 p = steer_agent_get_position(w, a);
    CHECK(steer_length(steer_sub(p, steer_v2(0, 20))) <= 0.25f);
    // the route's length over max_speed, within 1.3x (5 m/s)
    CHECK(steps / 30.0f < 1.3f * (20.6f + 11.2f + 20.6f) / 5.0f);
    // a version change (shapes changed) plans again
    s.version = 2;
    steer_world_step(w, 1.0f / 30.0f);
    CHECK(s.calls == 2);
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

static void no_planner_goes_straight(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *nav = navigate_to(10.0f, 0.0f);
    steer_agent_id a = spawn_at(w, 0.0f, 0.0f, nav);
    for (int i = 0; i < 150; ++i) steer_world_step(w, 1.0f / 30.0f);
    steer_vec2 pts[4];
    steer_plan_info info;
    CHECK(steer_agent_get_plan(w, a, pts, 4, &info) == 2);
    CHECK(info.status == STEER_PLAN_ARRIVED);
    CHECK_VEC(pts[1], 10.0f, 0.0f, 0.0f);
    steer_planner none;
    CHECK(!steer_world_get_planner(w, &none));
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

static uint64_t crowd_hash(int workers)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(workers, &s);
    for (int i = 0; i < 40; ++i) {
        steer_behaviour *b = avoiding(navigate_to((float)(i % 10) * 2.0f - 9.0f, (i & 1) ? 20.0f : -20.0f));
        spawn_at(w, (float)(i % 10) * 2.0f - 9.0f + 0.3f, (i & 1) ? -20.0f - (float)(i / 10) : 20.0f + (float)(i / 10), b);
        steer_behaviour_release(b);
    }
    for (int i = 0; i < 300; ++i) steer_world_step(w, 1.0f / 30.0f);
    CHECK(s.calls >= 40);
    uint64_t h = steer_world_hash(w);
    steer_world_destroy(w);
    return h;
}

static void same_bits_for_any_worker_count(void)
{
    uint64_t h1 = crowd_hash(1);
    CHECK(crowd_hash(2) == h1);
    CHECK(crowd_hash(4) == h1);
}

static void steady_steps_do_not_allocate(void)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(2, &s);
    steer_behaviour *b = avoiding(navigate_to(0.0f, 20.0f));
    for (int i = 0; i < 10; ++i) spawn_at(w, (float)i - 5.0f, -20.0f, b);
    steer_world_step(w, 1.0f / 30.0f); // the grid's first build
    unsigned long before = steer__allocations;
    for (int i = 0; i < 100; ++i) steer_world_step(w, 1.0f / 30.0f);
    s.version = 2; // replanning allocates nothing either
    for (int i = 0; i < 10; ++i) steer_world_step(w, 1.0f / 30.0f);
    CHECK(steer__allocations == before);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

// Live bytes through the allocator hook.
static long live_blocks;
static void *count_alloc(size_t size, void *context)
{
    (void)context;
    ++live_blocks;
    return malloc(size);
}
static void count_free(void *p, size_t size, void *context)
{
    (void)size, (void)context;
    if (p != NULL) --live_blocks;
    free(p);
}

static void plans_are_freed_with_agents(void)
{
    steer_set_allocator(count_alloc, count_free, NULL);
    live_blocks = 0;
    box_planner s = {0, 1};
    steer_world *w = box_world(1, &s);
    steer_behaviour *nav = navigate_to(0.0f, 20.0f);
    steer_agent_id a = spawn_at(w, 0.0f, -20.0f, nav);
    steer_world_step(w, 0.1f);
    const long with_plan = live_blocks;
    steer_agent_destroy(w, a);
    CHECK(live_blocks == with_plan - 1);
    // a goal set on an agent without a plan makes one; the world frees it
    steer_agent_id b = spawn_at(w, 0.0f, -20.0f, NULL);
    steer_vec2 g = {3, 3};
    steer_agent_set_goal(w, b, &g);
    steer_vec2 back;
    CHECK(steer_agent_get_goal(w, b, &back) && back.x == 3.0f);
    steer_world_destroy(w);
    steer_behaviour_release(nav);
    CHECK(live_blocks == 0);
    steer_set_allocator(NULL, NULL, NULL);
}

static void hot_reload_keeps_the_plan(void)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(1, &s);
    steer_behaviour *old = avoiding(navigate_to(0.0f, 20.0f));
    steer_agent_id a = spawn_at(w, 0.0f, -20.0f, old);
    for (int i = 0; i < 60; ++i) steer_world_step(w, 1.0f / 30.0f);
    steer_plan_info before, after;
    steer_agent_get_plan(w, a, NULL, 0, &before);
    steer_behaviour *reloaded = avoiding(navigate_to(0.0f, 20.0f));
    steer_agent_set_behaviour(w, a, reloaded, true);
    steer_behaviour_release(old);
    steer_world_step(w, 1.0f / 30.0f);
    steer_agent_get_plan(w, a, NULL, 0, &after);
    CHECK(s.calls == 1 && after.replans == before.replans && after.next >= before.next);
    steer_agent_set_behaviour(w, a, reloaded, false);
    steer_world_step(w, 1.0f / 30.0f);
    CHECK(s.calls == 2);
    steer_behaviour_release(reloaded);
    steer_world_destroy(w);
}

static void failed_plans_and_stuck(void)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(1, &s);
    steer_behaviour *nav = navigate_to(0.0f, 0.0f); // inside the box
    steer_agent_id a = spawn_at(w, 0.0f, -20.0f, nav);
    steer_plan_info info;
    steer_world_step(w, 0.1f);
    steer_agent_get_plan(w, a, NULL, 0, &info);
    CHECK(info.status == STEER_PLAN_FAILED);
    CHECK(strcmp(info.message, "goal (0, 0) is inside a shape") == 0);
    CHECK(!steer_agent_get_stuck(w, a));
    for (int i = 0; i < 30; ++i) steer_world_step(w, 0.1f);
    CHECK(steer_agent_get_stuck(w, a));
    CHECK(s.calls == 4); // tried again every second
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

static void move_group_spreads_and_assigns(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_world_add_box(w, steer_v2(2, -10), steer_v2(3, 10)); // a wall east of the goal
    steer_behaviour *nav = avoiding(navigate_to(NAN, 0.0f));
    steer_agent_id ids[12];
    for (int i = 0; i < 12; ++i) ids[i] = spawn_at(w, -20.0f - (float)i * 2.0f, 0.0f, nav);
    steer_vec2 stops[12];
    CHECK(steer_world_move_group(w, ids, 12, steer_v2(0, 0), 0.0f, stops) == 12);
    for (int i = 0; i < 12; ++i) {
        CHECK(stops[i].x < 2.0f - 0.5f); // in sight of the goal: west of the wall
        for (int j = 0; j < i; ++j) CHECK(steer_length(steer_sub(stops[i], stops[j])) >= 2.2f - 1e-4f);
        steer_vec2 g;
        CHECK(steer_agent_get_goal(w, ids[i], &g) && g.x == stops[i].x && g.y == stops[i].y);
    }
    // the nearest unit takes the point furthest in: furthest along the way
    // in (east, from the units in the west)
    for (int i = 1; i < 12; ++i) CHECK(stops[0].x >= stops[i].x);
    // refused: the goal inside a shape, a repeated agent
    CHECK(steer_world_move_group(w, ids, 12, steer_v2(2.5f, 0), 0.0f, stops) == 0);
    for (int i = 0; i < 1800; ++i) steer_world_step(w, 1.0f / 30.0f);
    for (int i = 0; i < 12; ++i) {
        steer_plan_info info;
        steer_agent_get_plan(w, ids[i], NULL, 0, &info);
        CHECK(info.status == STEER_PLAN_ARRIVED);
        if (info.status != STEER_PLAN_ARRIVED) fprintf(stderr, "  unit %d: %g m left\n", i, (double)info.remaining);
    }
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

// The move_group order id in the agent's plan (0: none).
static uint32_t group_of(const steer_world *w, steer_agent_id id)
{
    const int i = steer__store_dense(w, id);
    return i >= 0 && w->plan[i] != NULL ? w->plan[i]->group : 0;
}

// A world made from a snapshot of w (NULL, a failed check, when it could not be).
static steer_world *saved_and_restored(steer_world *w)
{
    size_t need = 0, size = 0;
    steer_snapshot_error e = {{0}};
    steer_world_snapshot(w, NULL, NULL, 0, &need, &e);
    unsigned char *bytes = malloc(need);
    CHECK(bytes != NULL && steer_world_snapshot(w, NULL, bytes, need, &size, &e));
    steer_restore_def rd = steer_default_restore_def();
    steer_world *back = bytes != NULL ? steer_world_restore(bytes, size, &rd, &e) : NULL;
    free(bytes);
    CHECK(back != NULL);
    return back;
}

// Units of one move_group order exchange stop points when each stands nearer
// the other's (a unit carried past its point in the pack takes the one it is
// at; the one behind takes the point it passed): the goals are swapped at the
// next step, whatever order the agents were created in; a goal given by hand
// is the agent's own and is not exchanged; the group survives a snapshot.
static steer_vec2 exchanged_goal(bool reversed, bool by_hand, bool restored)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *nav = navigate_to(NAN, 0.0f);
    steer_agent_id ids[3];
    for (int k = 0; k < 3; ++k) {
        const int i = reversed ? 2 - k : k;
        ids[i] = spawn_at(w, -20.0f - (float)i * 2.0f, 0.0f, nav);
    }
    steer_vec2 stops[3];
    CHECK(steer_world_move_group(w, ids, 3, steer_v2(0, 0), 2.0f, stops) == 3);
    if (by_hand) {
        steer_agent_set_goal(w, ids[0], &stops[0]);
        steer_agent_set_goal(w, ids[1], &stops[1]);
    }
    if (restored) {
        steer_world *back = saved_and_restored(w);
        if (back != NULL) {
            steer_world_destroy(w);
            w = back;
        }
    }
    // the first two each stand at the other's point, the third at its own
    steer_agent_set_position(w, ids[0], stops[1]);
    steer_agent_set_position(w, ids[1], stops[0]);
    steer_agent_set_position(w, ids[2], stops[2]);
    steer_world_step(w, 1.0f / 30.0f);
    steer_vec2 g0, g1, g2;
    CHECK(steer_agent_get_goal(w, ids[0], &g0) && steer_agent_get_goal(w, ids[1], &g1) &&
          steer_agent_get_goal(w, ids[2], &g2));
    CHECK(g2.x == stops[2].x && g2.y == stops[2].y);
    const steer_vec2 other = by_hand ? stops[0] : stops[1];
    CHECK(g0.x == other.x && g0.y == other.y);
    CHECK(g1.x == (by_hand ? stops[1] : stops[0]).x && g1.y == (by_hand ? stops[1] : stops[0]).y);
    steer_behaviour_release(nav);
    steer_world_destroy(w);
    return g0;
}

static void group_units_exchange_stop_points(void)
{
    steer_vec2 a = exchanged_goal(false, false, false), b = exchanged_goal(true, false, false);
    CHECK(a.x == b.x && a.y == b.y);
    exchanged_goal(false, true, false);
    b = exchanged_goal(false, false, true);
    CHECK(a.x == b.x && a.y == b.y);
}

// Two move_group orders are two groups, even with the same goal, first unit
// and size (the group was once a digest of those three: a unit of the first
// order and one of the second then exchanged their stop points). The ids
// count 1, 2, 3, ... per world, and a restored world continues the count.
static void orders_never_share_a_group(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *nav = navigate_to(NAN, 0.0f);
    steer_agent_id a0 = spawn_at(w, -20.0f, 0.0f, nav), a1 = spawn_at(w, -22.0f, 0.0f, nav),
                   b1 = spawn_at(w, -24.0f, 0.0f, nav), c = spawn_at(w, 20.0f, 0.0f, nav);
    steer_agent_id first[2] = {a0, a1}, second[2] = {a0, b1};
    steer_vec2 s1[2], s2[2];
    CHECK(steer_world_move_group(w, first, 2, steer_v2(0, 0), 2.0f, s1) == 2);
    CHECK(steer_world_move_group(w, second, 2, steer_v2(0, 0), 4.0f, s2) == 2);
    CHECK(group_of(w, a1) == 1 && group_of(w, a0) == 2 && group_of(w, b1) == 2);
    // a1 stands at b1's point and b1 at a1's (a0 at its own): were they of
    // one group, they would exchange their points at the next step
    CHECK(steer_length(steer_sub(s1[1], s2[1])) > 1.0f);
    steer_agent_set_position(w, a0, s2[0]);
    steer_agent_set_position(w, a1, s2[1]);
    steer_agent_set_position(w, b1, s1[1]);
    steer_world_step(w, 1.0f / 30.0f);
    steer_vec2 g1, g2;
    CHECK(steer_agent_get_goal(w, a1, &g1) && steer_agent_get_goal(w, b1, &g2));
    CHECK(g1.x == s1[1].x && g1.y == s1[1].y && g2.x == s2[1].x && g2.y == s2[1].y);
    // the next order is group 3, in the world and in its restored copy
    steer_world *back = saved_and_restored(w);
    CHECK(steer_world_move_group(w, &c, 1, steer_v2(25, 0), 0.0f, NULL) == 1);
    CHECK(group_of(w, c) == 3);
    if (back != NULL) {
        CHECK(steer_world_move_group(back, &c, 1, steer_v2(25, 0), 0.0f, NULL) == 1);
        CHECK(group_of(back, c) == 3 && group_of(back, a1) == 1 && group_of(back, b1) == 2);
        steer_world_destroy(back);
    }
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

// Inside slow_radius navigate brakes at a constant deceleration that stops at
// target_radius: 1.25 m from the goal (slow_radius 2, target_radius 0.25) a
// kinematic agent asks max_speed x sqrt(1 / 1.75), not the linear 1.25 / 2.
static void arrival_brakes_at_a_constant_deceleration(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *nav = navigate_to(1.25f, 0.0f);
    steer_agent_def ad = steer_default_agent_def();
    ad.kinematic = true;
    ad.behaviour = nav;
    steer_agent_id a = steer_agent_create(w, &ad);
    steer_steering out;
    CHECK(steer_behaviour_get_steering(nav, w, a, 1.0f / 30.0f, &out));
    const float max_speed = steer_agent_get_limits(w, a).max_speed;
    CHECK_NEAR(out.linear.x, max_speed * sqrtf(1.0f / 1.75f), 1e-4f);
    CHECK_NEAR(out.linear.y, 0.0f, 1e-6f);
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

// A snapshot keeps the plans: the restored agents follow the saved routes
// (same status, corner, replans, remaining length) and, given a planner of
// the same version, do not plan again at their next step; a goal comes back.
static void snapshots_keep_plans(void)
{
    box_planner s = {0, 1};
    steer_world *w = box_world(1, &s);
    steer_behaviour *nav = navigate_to(0.0f, 20.0f);
    for (int i = 0; i < 3; ++i) spawn_at(w, (float)i * 2.0f, -20.0f, nav);
    steer_behaviour_def od = steer_default_behaviour_def(STEER_NAVIGATE);
    steer_behaviour *own = steer_behaviour_create(&od); // no target: the agent's own goal
    steer_agent_id walker = spawn_at(w, -20.0f, -20.0f, own);
    const steer_vec2 goal = {-20.0f, 20.0f};
    steer_agent_set_goal(w, walker, &goal);
    for (int i = 0; i < 30; ++i) steer_world_step(w, 1.0f / 30.0f);
    steer_world *back = saved_and_restored(w);
    if (back != NULL) {
        for (int k = 0; k < steer_world_agent_count(w); ++k) {
            steer_agent_id a = steer_world_agent_at(w, k);
            steer_plan_info was, now;
            steer_vec2 was_points[8], now_points[8];
            CHECK(steer_agent_get_plan(w, a, was_points, 8, &was) == steer_agent_get_plan(back, a, now_points, 8, &now));
            CHECK(was.status == STEER_PLAN_FOLLOWING && now.status == was.status && now.next == was.next &&
                  now.count == was.count && now.replans == was.replans && now.remaining == was.remaining);
            CHECK(memcmp(was_points, now_points, sizeof was_points[0] * (size_t)was.count) == 0);
        }
        steer_vec2 g;
        CHECK(steer_agent_get_goal(back, walker, &g) && g.x == goal.x && g.y == goal.y);
        steer_planner p = box_planner_of(&s);
        steer_world_set_planner(back, &p);
        const int calls = s.calls;
        steer_world_step(back, 1.0f / 30.0f);
        CHECK(s.calls == calls);
        steer_world_destroy(back);
    }
    steer_behaviour_release(own);
    steer_behaviour_release(nav);
    steer_world_destroy(w);
}

static int asserts;
static void count_assert(const char *c, const char *f, int l, void *ctx)
{
    (void)c, (void)f, (void)l, (void)ctx;
    ++asserts;
}

static void misuse_is_refused(void)
{
    steer_set_assert_fn(count_assert, NULL);
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_agent_id a = spawn_at(w, 0, 0, NULL);
    steer_vec2 bad = {NAN, 0};
    steer_agent_set_goal(w, a, &bad);
    CHECK(asserts == 1);
    steer_agent_id twice[2] = {a, a};
    CHECK(steer_world_move_group(w, twice, 2, steer_v2(5, 5), 0.0f, NULL) == 0);
    CHECK(steer_world_move_group(w, &a, 1, steer_v2(NAN, 5), 0.0f, NULL) == 0);
    CHECK(asserts == 3);
    steer_planner p = {NULL, NULL, NULL, NULL, NULL};
    steer_world_set_planner(w, &p);
    CHECK(asserts == 4);
    steer_world_destroy(w);
    steer_set_assert_fn(NULL, NULL);
}

static char last_assert[256];
static void keep_assert(const char *c, const char *f, int l, void *ctx)
{
    (void)f, (void)l, (void)ctx;
    ++asserts;
    snprintf(last_assert, sizeof last_assert, "%s", c);
}

// An agent holds one plan: a tree with a second navigate (a blend of two,
// or one added under a tree that has one) is refused when it is built,
// naming the problem; it used to plan for the first and steer the second
// straight at its target through the block.
static void two_navigates_are_refused(void)
{
    steer_set_assert_fn(keep_assert, NULL);
    asserts = 0;
    steer_behaviour *a = navigate_to(10.0f, 0.0f), *b = navigate_to(-10.0f, 0.0f);
    steer_child both[2] = {{a, 1.0f}, {b, 1.0f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = both;
    bd.child_count = 2;
    char buf[160];
    const char *why = steer_behaviour_check_children(NULL, both, 2, buf, sizeof buf);
    CHECK(why != NULL && strstr(why, "more than one navigate") != NULL);
    CHECK(steer_behaviour_create(&bd) == NULL);
    CHECK(asserts == 1 && strstr(last_assert, "more than one navigate") != NULL);
    // the same node twice is two uses
    both[1].behaviour = a;
    CHECK(steer_behaviour_check_children(NULL, both, 2, buf, sizeof buf) != NULL);
    // one navigate under a blend is fine; a second added deeper is refused
    // and the tree keeps its one navigate
    bd.children = both;
    bd.child_count = 1;
    steer_behaviour *top = steer_behaviour_create(&bd);
    steer_behaviour_def inner = steer_default_behaviour_def(STEER_PRIORITY);
    steer_behaviour *pri = steer_behaviour_create(&inner);
    steer_child two[2] = {{a, 1.0f}, {pri, 1.0f}};
    CHECK(top != NULL && pri != NULL && steer_behaviour_set_children(top, two, 2));
    CHECK(steer_behaviour_navigate_node(top) == a);
    steer_child other = {b, 1.0f};
    asserts = 0;
    CHECK(!steer_behaviour_set_children(pri, &other, 1));
    CHECK(asserts == 1 && strstr(last_assert, "more than one navigate") != NULL);
    CHECK(steer_behaviour_navigate_node(top) == a && steer_behaviour_navigate_node(pri) == NULL);
    steer_behaviour_release(top);
    steer_behaviour_release(pri);
    steer_behaviour_release(a);
    steer_behaviour_release(b);
    steer_set_assert_fn(NULL, NULL);
}

int main(void)
{
    RUN(plans_round_the_box);
    RUN(no_planner_goes_straight);
    RUN(same_bits_for_any_worker_count);
    RUN(steady_steps_do_not_allocate);
    RUN(plans_are_freed_with_agents);
    RUN(hot_reload_keeps_the_plan);
    RUN(failed_plans_and_stuck);
    RUN(move_group_spreads_and_assigns);
    RUN(group_units_exchange_stop_points);
    RUN(orders_never_share_a_group);
    RUN(arrival_brakes_at_a_constant_deceleration);
    RUN(snapshots_keep_plans);
    RUN(misuse_is_refused);
    RUN(two_navigates_are_refused);
    return TEST_RESULT();
}
