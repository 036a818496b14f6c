// Behaviours whose target is the agent's neighbours: separation, cohesion,
// alignment, collision avoidance. Numbers against hand computations of the
// notes; edges: a neighbour exactly at the radius (distance < radius only),
// two agents at the same point (they part along -x / +x by key).
#include "fixture.h"
#include "test.h"

#define TOL 1e-4

static steer_agent_id spawn_key(steer_world *w, float x, float y, float vx, float vy, uint64_t key)
{
    return spawn_full(w, kin(x, y, vx, vy, 0, 0), test_limits(), NULL, key);
}

static void separation_inverse_square(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    spawn(w, 1, 0, 0, 0);
    spawn(w, 0, -2, 0, 0);
    spawn(w, 10, 10, 0, 0); // far: not a neighbour
    steer_behaviour_def d = def_of(STEER_SEPARATION);
    d.radius = 3.0f;
    d.decay_coefficient = 2.0f;
    steer_behaviour *b = make(d);
    bool has;
    // B (1,0): direction (-1,0), distance 1: strength min(2/1, 10) = 2 -> (-2, 0)
    // C (0,-2): direction (0,1), distance 2: strength min(2/4, 10) = 0.5 -> (0, 0.5)
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -2.0, 0.5, TOL);
    CHECK_NEAR(s.angular, 0, 0);
    // k = 10: B min(10, 10) = 10, C min(2.5, 10) = 2.5: (-10, 2.5), |.| = 10.31:
    // the sum is clamped to maxAcceleration: (-9.70143, 2.42536)
    d.decay_coefficient = 10.0f;
    steer_behaviour *strong = make(d);
    s = steering_of(strong, w, a, NULL);
    CHECK_VEC(s.linear, -9.7014250, 2.4253563, TOL);
    steer_behaviour_release(strong);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void separation_linear(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    spawn(w, 1, 0, 0, 0);
    spawn(w, 0, -2, 0, 0);
    steer_behaviour_def d = def_of(STEER_SEPARATION);
    d.radius = 4.0f;
    d.law = STEER_LAW_LINEAR;
    steer_behaviour *b = make(d);
    // strength = maxAcceleration * (threshold - distance) / threshold
    // B: 10 * 3/4 = 7.5 -> (-7.5, 0); C: 10 * 2/4 = 5 -> (0, 5)
    steer_steering s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, -7.5, 5.0, TOL);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void separation_threshold_is_exclusive(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_agent_id at_edge = spawn(w, 2, 0, 0, 0);
    steer_behaviour_def d = def_of(STEER_SEPARATION);
    d.radius = 2.0f;
    d.decay_coefficient = 2.0f;
    steer_behaviour *b = make(d);
    steer_steering s;
    // distance exactly the threshold: not "< threshold": no neighbour, None
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    steer_agent_set_position(w, at_edge, steer_v2(0, -2));
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    // (0,1.5) is in: 2/2.25 = 0.8889 along (0,-1); the one at the edge adds nothing
    spawn(w, 0, 1.5f, 0, 0);
    CHECK(steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    CHECK_VEC(s.linear, 0, -0.8888889, TOL);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void separation_same_point(void)
{
    steer_world *w = make_world(1);
    steer_behaviour *b = make(def_of(STEER_SEPARATION));
    steer_agent_id lo = spawn_key(w, 3, 4, 0, 0, 7);
    steer_agent_id hi = spawn_key(w, 3, 4, 0, 0, 8);
    // distance 0: strength min(k/0, 10) = 10; the direction is a fixed axis by
    // key: the lower key goes -x, the higher +x
    steer_steering s = steering_of(b, w, lo, NULL);
    CHECK_VEC(s.linear, -10, 0, 0);
    s = steering_of(b, w, hi, NULL);
    CHECK_VEC(s.linear, 10, 0, 0);
    // linear law: 10 * (2 - 0)/2 = 10 as well
    steer_behaviour_def d = def_of(STEER_SEPARATION);
    d.law = STEER_LAW_LINEAR;
    steer_behaviour *lin = make(d);
    s = steering_of(lin, w, lo, NULL);
    CHECK_VEC(s.linear, -10, 0, 0);
    // stepping: the pair moves apart along x and stays on y = 4
    steer_agent_set_behaviour(w, lo, b, false);
    steer_agent_set_behaviour(w, hi, b, false);
    for (int i = 0; i < 3; ++i) steer_world_step(w, 1.0f / 60.0f);
    steer_vec2 pl = steer_agent_get_position(w, lo), ph = steer_agent_get_position(w, hi);
    CHECK(pl.x < 3.0f && ph.x > 3.0f);
    CHECK_NEAR(pl.y, 4, 0);
    CHECK_NEAR(ph.y, 4, 0);
    CHECK_NEAR(pl.x - 3.0f, 3.0f - ph.x, 1e-6); // symmetric
    steer_behaviour_release(lin);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void cohesion(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    spawn(w, 2, 0, 0, 0);
    spawn(w, 0, 2, 0, 0);
    steer_agent_id edge = spawn(w, 8, 0, 0, 0); // exactly at the radius: not a neighbour
    steer_behaviour *b = make(def_of(STEER_COHESION));
    CHECK_NEAR(steer_behaviour_get_def(b)->radius, 8, 0);
    bool has;
    // centre of mass of (2,0) and (0,2): (1,1); strength maxAcceleration *
    // distance / radius: (1,1) * 10/8 = (1.25, 1.25)
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 1.25, 1.25, TOL);
    // the one at (0,-7.9) is in: centre (2/3, -5.9/3) -> (0.83333, -2.45833)
    steer_agent_set_position(w, edge, steer_v2(0, -7.9f));
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 0.8333333, -2.4583333, TOL);
    // alone: None
    steer_agent_id lone = spawn(w, 100, 100, 0, 0);
    CHECK(!steer_behaviour_get_steering(b, w, lone, 0.1f, &s));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void alignment(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 1, 0);
    spawn(w, 2, 0, 3, 0);
    spawn(w, 0, 2, 1, 2);
    spawn(w, 8, 0, 5, 5); // exactly at the radius: ignored
    steer_behaviour_def d = def_of(STEER_ALIGNMENT);
    steer_behaviour *b = make(d);
    bool has;
    // mean velocity (2,1); velocity match: ((2,1) - (1,0))/0.1 = (10,10) -> clamped (7.07107, 7.07107)
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 7.0710678, 7.0710678, TOL);
    d.time_to_target = 1.0f;
    steer_behaviour *slow = make(d);
    s = steering_of(slow, w, a, NULL);
    CHECK_VEC(s.linear, 1, 1, TOL);
    steer_behaviour_release(slow);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static steer_steering avoid(steer_world *w, steer_agent_id a, const steer_behaviour_def *d, bool *has)
{
    steer_behaviour *b = steer_behaviour_create(d);
    steer_steering s = steering_of(b, w, a, has);
    steer_behaviour_release(b);
    return s;
}

static void collision_avoidance(void)
{
    // radii 0.5 each: a collision is a closest approach under 1
    steer_behaviour_def d = def_of(STEER_COLLISION_AVOIDANCE);
    bool has;
    {
        // B ahead, coming down: r = (0.5,5), v = (0,-2): t = -(r.v)/|v|^2 = 10/4 = 2.5;
        // separation then |(0.5,5) + (0,-5)| = 0.5 < 1. Steer away from where
        // B will be relative to us: -(0.5, 0) -> (-10, 0)
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, 0, 0, 0, 1);
        steer_agent_id b = spawn(w, 0.5f, 5, 0, -1);
        steer_steering s = avoid(w, a, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, -10, 0, TOL);
        CHECK_NEAR(s.angular, 0, 0);
        // C closer in time: r = (-0.3,3), t = 6/4 = 1.5, separation 0.3: it comes
        // first, so react to C only: -(-0.3, 0) -> (10, 0)
        steer_agent_id c = spawn(w, -0.3f, 3, 0, -1);
        s = avoid(w, a, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, 10, 0, TOL);
        // B moving away instead (t < 0) and C removed: None
        steer_agent_destroy(w, c);
        steer_agent_set_velocity(w, b, steer_v2(0, 3));
        s = avoid(w, a, &d, &has);
        CHECK(!has);
        // passing wide: B at (3,5) coming down: separation 3 >= 1: None
        steer_agent_set_velocity(w, b, steer_v2(0, -1));
        steer_agent_set_position(w, b, steer_v2(3, 5));
        s = avoid(w, a, &d, &has);
        CHECK(!has);
        steer_world_destroy(w);
    }
    {
        // already overlapping, both still: move away from where it is now: (-10, 0)
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, 0, 0, 0, 0);
        spawn(w, 0.5f, 0, 0, 0);
        steer_steering s = avoid(w, a, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, -10, 0, TOL);
        steer_world_destroy(w);
    }
    {
        // several overlapping at once (all t = 0): the nearest, whatever the
        // spawn order or cell size: C at 0.3 -> away from it: (0, 10)
        for (int variant = 0; variant < 4; ++variant) {
            steer_world_def wd = steer_default_world_def();
            wd.cell_size = variant < 2 ? 4.0f : 0.25f;
            steer_world *w = steer_world_create(&wd);
            steer_agent_id a = spawn(w, 0, 0, 0, 0);
            if (variant % 2) spawn(w, 0, -0.3f, 0, 0);
            spawn(w, 0.6f, 0, 0, 0);
            spawn(w, -0.5f, 0.5f, 0, 0);
            if (!(variant % 2)) spawn(w, 0, -0.3f, 0, 0);
            steer_steering s = avoid(w, a, &d, &has);
            CHECK(has);
            CHECK_VEC(s.linear, 0, 10, TOL);
            steer_world_destroy(w);
        }
    }
    {
        // exactly head-on: r = (0,5), v = (0,-2): t = 2.5 and the separation is
        // exactly 0, so "away from where it will be" has no direction: keep
        // right of the velocity (0,1), i.e. +x: (10, 0). The other keeps to its
        // own right, -x.
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, 0, 0, 0, 1);
        steer_agent_id b = spawn(w, 0, 5, 0, -1);
        steer_steering s = avoid(w, a, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, 10, 0, TOL);
        s = avoid(w, b, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, -10, 0, TOL);
        steer_world_destroy(w);
    }
    {
        // the cone: B catches up from behind; without the cone we react
        // (r = (0.5,-5), v = (0,2), t = 2.5, separation 0.5: -(0.5,0) -> (-10,0)),
        // with it (heading (0,1) . direction < 0.5) we do not
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, 0, 0, 0, 1);
        spawn(w, 0.5f, -5, 0, 3);
        steer_steering s = avoid(w, a, &d, &has);
        CHECK(has);
        CHECK_VEC(s.linear, -10, 0, TOL);
        steer_behaviour_def dc = d;
        dc.use_cone = true;
        dc.cone_threshold = 0.5f;
        s = avoid(w, a, &dc, &has);
        CHECK(!has);
        steer_world_destroy(w);
    }
    {
        // a neighbour exactly at the look-out radius is not a neighbour
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, 0, 0, 0, 0);
        spawn(w, 3, 4, -0.6f, -0.8f); // distance 5, heading straight at a
        steer_behaviour_def dr = d;
        dr.radius = 5.0f;
        avoid(w, a, &dr, &has);
        CHECK(!has);
        dr.radius = 5.5f;
        avoid(w, a, &dr, &has);
        CHECK(has);
        steer_world_destroy(w);
    }
}

int main(void)
{
    RUN(separation_inverse_square);
    RUN(separation_linear);
    RUN(separation_threshold_is_exclusive);
    RUN(separation_same_point);
    RUN(cohesion);
    RUN(alignment);
    RUN(collision_avoidance);
    return TEST_RESULT();
}
