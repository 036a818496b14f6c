// Paths (the notes' getParam / getPosition) and follow_path, checked against
// hand computations: open and looped polylines, the end of an open path,
// predictive following, and the coherent search on a self-crossing path.
#include "fixture.h"
#include "test.h"

#define TOL 1e-4

static steer_path *make_path(const steer_vec2 *pts, int n, bool loop)
{
    steer_path_def d = steer_default_path_def();
    d.points = pts;
    d.count = n;
    d.loop = loop;
    return steer_path_create(&d);
}

// the L-shaped open path (0,0) -> (10,0) -> (10,10): length 20
static const steer_vec2 L_PATH[] = {{0, 0}, {10, 0}, {10, 10}};
// the square (0,0) (10,0) (10,10) (0,10), looped: length 40
static const steer_vec2 SQUARE[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};

static void open_path_geometry(void)
{
    steer_path *p = make_path(L_PATH, 3, false);
    CHECK(p != NULL);
    CHECK(!steer_path_is_loop(p));
    CHECK_NEAR(steer_path_length(p), 20.0, 1e-6);
    CHECK(steer_path_point_count(p) == 3);
    // getPosition: along the polyline, clamped to [0, length] when open
    CHECK_VEC(steer_path_position(p, 5), 5, 0, TOL);
    CHECK_VEC(steer_path_position(p, 10), 10, 0, TOL);
    CHECK_VEC(steer_path_position(p, 15), 10, 5, TOL);
    CHECK_VEC(steer_path_position(p, -3), 0, 0, TOL);
    CHECK_VEC(steer_path_position(p, 25), 10, 10, TOL);
    // getParam: distance along the path of the nearest point
    CHECK_NEAR(steer_path_param(p, steer_v2(5, 3), -1, 0), 5, TOL);
    CHECK_NEAR(steer_path_param(p, steer_v2(12, 7), -1, 0), 17, TOL); // nearest (10,7): 10 + 7
    CHECK_NEAR(steer_path_param(p, steer_v2(-2, -2), -1, 0), 0, TOL); // before the start
    CHECK_NEAR(steer_path_param(p, steer_v2(11, 12), -1, 0), 20, TOL); // past the end
    CHECK_NEAR(steer_path_param(p, steer_v2(10, 0), -1, 0), 10, TOL); // on the corner
    steer_path_release(p);
}

static void looped_path_geometry(void)
{
    steer_path *p = make_path(SQUARE, 4, true);
    CHECK(p != NULL && steer_path_is_loop(p));
    CHECK_NEAR(steer_path_length(p), 40, 1e-6); // the closing segment included
    // wrapped parameters: 45 -> 5, -5 -> 35, 40 -> 0
    CHECK_VEC(steer_path_position(p, 45), 5, 0, TOL);
    CHECK_VEC(steer_path_position(p, -5), 0, 5, TOL);
    CHECK_VEC(steer_path_position(p, 40), 0, 0, TOL);
    CHECK_VEC(steer_path_position(p, 35), 0, 5, TOL);
    // on the closing segment (0,10) -> (0,0): 30 + 5
    CHECK_NEAR(steer_path_param(p, steer_v2(-1, 5), -1, 0), 35, TOL);
    steer_path_release(p);

    // a loop whose last point repeats the first closes on its own: still 40
    const steer_vec2 closed[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}};
    p = make_path(closed, 5, true);
    CHECK(p != NULL);
    CHECK_NEAR(steer_path_length(p), 40, 1e-6);
    CHECK_VEC(steer_path_position(p, 35), 0, 5, TOL);
    steer_path_release(p);
    // the same points, open: 40 as well (a closed shape walked once)
    p = make_path(closed, 5, false);
    CHECK_NEAR(steer_path_length(p), 40, 1e-6);
    CHECK_VEC(steer_path_position(p, 41), 0, 0, TOL);
    steer_path_release(p);
}

static void self_crossing_search(void)
{
    // X: (0,0) -> (10,10) -> (10,0) -> (0,10). Segments of 14.1421, 10, 14.1421.
    // The crossing (5,5) is at 7.0711 on the first and 24.1421 + 7.0711 = 31.2132 on the last.
    const steer_vec2 x[] = {{0, 0}, {10, 10}, {10, 0}, {0, 10}};
    steer_path *p = make_path(x, 4, false);
    CHECK_NEAR(steer_path_length(p), 38.2842712, 1e-4);
    // the search prefers the stretch near the last parameter
    CHECK_NEAR(steer_path_param(p, steer_v2(5, 5), 7.0f, 2.0f), 7.0710678, 1e-3);
    CHECK_NEAR(steer_path_param(p, steer_v2(5, 5), 31.0f, 2.0f), 31.2132034, 1e-3);
    // a little off the crossing: (5.1,5) on the last segment projects at t = 0.495:
    // 24.1421 + 0.495 * 14.1421 = 31.1426
    CHECK_NEAR(steer_path_param(p, steer_v2(5.1f, 5), 31.0f, 2.0f), 31.1425626, 1e-3);
    // global search (last < 0): both are at distance 0, the first wins
    CHECK_NEAR(steer_path_param(p, steer_v2(5, 5), -1, 2.0f), 7.0710678, 1e-3);
    // pushed far off its stretch, the agent rejoins where it is: (10,5) lies on
    // the middle segment (14.1421 + 5), while the stretch [5, 9] is 3.9 m away
    CHECK_NEAR(steer_path_param(p, steer_v2(10, 5), 7.0f, 2.0f), 19.1421356, 1e-3);
    steer_path_release(p);
}

static void follow_path_numbers(void)
{
    steer_world *w = make_world(1);
    steer_path *p = make_path(L_PATH, 3, false);
    steer_behaviour_def d = def_of(STEER_FOLLOW_PATH);
    d.path = p;
    d.path_offset = 2.0f;
    steer_behaviour *b = make(d);
    steer_agent_id a = spawn(w, 3, 1, 0, 0);
    bool has;
    // currentParam = getParam((3,1)) = 3; target = getPosition(3 + 2) = (5,0);
    // seek: (2,-1)/sqrt(5) * 10 = (8.94427, -4.47214)
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 8.9442719, -4.4721360, TOL);
    CHECK_NEAR(s.angular, 0, 0);
    // predictive: futurePos = (3,1) + (2,0)*0.5 = (4,1): param 4, target (6,0):
    // (3,-1)/sqrt(10) * 10 = (9.48683, -3.16228)
    d.predict_time = 0.5f;
    steer_behaviour *pred = make(d);
    steer_agent_set_velocity(w, a, steer_v2(2, 0));
    s = steering_of(pred, w, a, NULL);
    CHECK_VEC(s.linear, 9.4868330, -3.1622777, TOL);
    // predict_time 0 ignores the velocity: still (8.94427, -4.47214)
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 8.9442719, -4.4721360, TOL);
    steer_agent_set_velocity(w, a, steer_v2(0, 0));

    // end of the open path: (10,9.5), offset 1: param 19.5, target param 20.5 is
    // past the end: arrive at (10,10): distance 0.5 (not < targetRadius 0.5):
    // targetSpeed = 5*0.5/3 = 0.8333 -> linear = (0, 0.8333)/0.1 = (0, 8.3333)
    d.predict_time = 0.0f;
    d.path_offset = 1.0f;
    steer_behaviour *one = make(d);
    steer_agent_set_position(w, a, steer_v2(10, 9.5f));
    s = steering_of(one, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0, 8.3333333, 1e-3);
    // inside the end's targetRadius at rest: None; still moving: brake,
    // -(0,0.5)/0.1 = (0, -5)
    steer_agent_set_position(w, a, steer_v2(10, 9.8f));
    CHECK(!steer_behaviour_get_steering(one, w, a, 0.1f, &s));
    steer_agent_set_velocity(w, a, steer_v2(0, 0.5f));
    s = steering_of(one, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0, -5, 1e-3);
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    // short of the end it seeks: (10,5) -> target (10,6): (0, 10)
    steer_agent_set_position(w, a, steer_v2(10, 5));
    s = steering_of(one, w, a, NULL);
    CHECK_VEC(s.linear, 0, 10, TOL);
    // walking the path backwards (offset -1) arrives at its start: from (0.5,0):
    // target param -0.5 -> (0,0), distance 0.5: (-8.3333, 0)
    d.path_offset = -1.0f;
    steer_behaviour *back = make(d);
    steer_agent_set_position(w, a, steer_v2(0.5f, 0));
    s = steering_of(back, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -8.3333333, 0, 1e-3);

    // looped: no end. Square, agent at (0,1): param 39, target 41 -> 1 -> (1,0):
    // seek (1,-1)/sqrt(2)*10
    steer_path *sq = make_path(SQUARE, 4, true);
    d.path = sq;
    d.path_offset = 2.0f;
    steer_behaviour *loop = make(d);
    steer_agent_set_position(w, a, steer_v2(0, 1));
    s = steering_of(loop, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 7.0710678, -7.0710678, TOL);

    // no path: None
    d.path = NULL;
    steer_behaviour *none = make(d);
    CHECK(!steer_behaviour_get_steering(none, w, a, 0.1f, &s));

    // the progress is the agent's memory: after a step it holds param + 1
    steer_agent_set_behaviour(w, a, b, false);
    steer_agent_set_position(w, a, steer_v2(3, 1));
    steer_world_step(w, 1.0f / 60.0f);
    CHECK_NEAR(memory_of(w, a, 0), 4.0, TOL);

    steer_behaviour *all[] = {b, pred, one, back, loop, none};
    for (int i = 0; i < 6; ++i) steer_behaviour_release(all[i]);
    steer_path_release(p);
    steer_path_release(sq);
    steer_world_destroy(w);
}

static void path_outlives_its_creator(void)
{
    // the behaviour retains its path: releasing ours first is fine
    steer_world *w = make_world(1);
    steer_path *p = make_path(SQUARE, 4, true);
    steer_behaviour_def d = def_of(STEER_FOLLOW_PATH);
    d.path = p;
    steer_behaviour *b = make(d);
    steer_path_release(p);
    steer_agent_id a = spawn_full(w, kin(5, -1, 0, 0, 0, 0), test_limits(), b, 0);
    for (int i = 0; i < 10; ++i) steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_vec2_is_finite(steer_agent_get_position(w, a)));
    // replacing the path drops the old one
    steer_path *q = make_path(L_PATH, 3, false);
    steer_behaviour_set_path(b, q);
    steer_path_release(q);
    CHECK(steer_behaviour_get_def(b)->path == q);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(open_path_geometry);
    RUN(looped_path_geometry);
    RUN(self_crossing_search);
    RUN(follow_path_numbers);
    RUN(path_outlives_its_creator);
    return TEST_RESULT();
}
