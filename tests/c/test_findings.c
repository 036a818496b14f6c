// Findings of the adversarial fuzz campaign (issue 9) in the behaviour
// machinery, each pinned by a test that failed before its fix: blend weights
// of any finite size, limits near 1e30, set_param refusing NaN, equal arrive
// radii, path_offset near the float limit.
#include <float.h>
#include <string.h>

#include "fixture.h"
#include "test.h"

static assert_counter asserts;

static bool finite_steering(steer_steering s) { return steer_vec2_is_finite(s.linear) && isfinite(s.angular); }

// Finding 7: weights 1e19 and 1e38 stopped the agent or gave NaN.
static void test_blend_weights_of_any_size(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    const float weights[] = {1e19f, 1e38f, FLT_MAX, 3e-38f};
    for (int i = 0; i < 4; ++i) {
        steer_behaviour *b = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(def_at(STEER_SEEK, 10, 0))}, &weights[i], 1);
        bool has;
        steer_steering s = steering_of(b, w, a, &has);
        CHECK(has && finite_steering(s));
        // seek at full acceleration, whatever the weight: clamped to 10 (or scaled down)
        if (weights[i] >= 1.0f) CHECK_NEAR(s.linear.x, 10.0, 1e-4);
        CHECK(s.linear.y == 0.0f);
        steer_behaviour_release(b);
    }
    // opposite huge weights cancel exactly instead of inf - inf
    const float both[] = {FLT_MAX, -FLT_MAX};
    steer_behaviour *b = make_combinator(STEER_BLEND,
                                         (steer_behaviour *[]){make(def_at(STEER_SEEK, 10, 0)), make(def_at(STEER_SEEK, 10, 0))},
                                         both, 2);
    bool has;
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has && s.linear.x == 0.0f && s.linear.y == 0.0f);
    steer_behaviour_release(b);
    steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_vec2_is_finite(steer_agent_get_velocity(w, a)));
    steer_world_destroy(w);
}

// Finding 7: max_acceleration 1e30 and blend{seek, seek} gave 2e30.
static void test_blend_clamps_near_the_limit_range(void)
{
    steer_world *w = make_world(1);
    steer_limits l = test_limits();
    l.max_acceleration = 1e30f;
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, 0, 0), l, NULL, 0);
    steer_behaviour *b = make_combinator(STEER_BLEND,
                                         (steer_behaviour *[]){make(def_at(STEER_SEEK, 10, 0)), make(def_at(STEER_SEEK, 10, 0))},
                                         NULL, 2);
    bool has;
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has && s.linear.x <= 1e30f && s.linear.x > 0.99e30f);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

// Finding 9: set_param stored NaN through the C API (limits: "negative
// inherits", and NaN is not negative).
static void test_set_param_refuses_what_the_check_refuses(void)
{
    steer_behaviour *b = make(def_at(STEER_ARRIVE, 1, 0));
    const steer_param_info *limit = steer_behaviour_find_param(STEER_ARRIVE, "max_speed");
    const steer_param_info *slow = steer_behaviour_find_param(STEER_ARRIVE, "slow_radius");
    asserts.count = 0;
    CHECK(!steer_behaviour_set_param(b, limit, NAN));
    CHECK(!steer_behaviour_set_param(b, slow, NAN));
    CHECK(!steer_behaviour_set_param(b, slow, INFINITY));
    CHECK(!steer_behaviour_set_param(b, slow, 3.3e38));
    CHECK(asserts.count == 4);
    CHECK(steer_behaviour_get_param(b, limit) < 0.0); // still inherited
    CHECK(steer_behaviour_get_param(b, slow) == 3.0);
    // every value the checker accepts, set_param accepts
    char buf[128];
    CHECK(steer_param_check(steer_behaviour_get_def(b), slow, 3e38, buf, sizeof buf) == NULL);
    CHECK(steer_behaviour_set_param(b, slow, 3e38));
    steer_behaviour_release(b);
}

// Finding 11: numbers past the bound said "must be a finite number".
static void test_out_of_range_message(void)
{
    char buf[128];
    const steer_param_info *p = steer_behaviour_find_param(STEER_SEEK, "max_speed");
    steer_behaviour_def d = def_of(STEER_SEEK);
    CHECK(strcmp(steer_param_check(&d, p, 3.4e38, buf, sizeof buf), "must be at most 3e38 in magnitude") == 0);
    CHECK(strcmp(steer_param_check(&d, p, NAN, buf, sizeof buf), "must be a finite number") == 0);
}

// Finding 12: equal radii were refused when set one after the other.
static void test_equal_radii_in_stored_precision(void)
{
    steer_behaviour *b = make(def_at(STEER_ARRIVE, 1, 0));
    asserts.count = 0;
    CHECK(steer_behaviour_set_param(b, steer_behaviour_find_param(STEER_ARRIVE, "target_radius"), 0.1));
    CHECK(steer_behaviour_set_param(b, steer_behaviour_find_param(STEER_ARRIVE, "slow_radius"), 0.1));
    CHECK(asserts.count == 0);
    steer_behaviour_release(b);
}

// Finding 6: path_offset 2e38 aborted a Debug build (the window overflowed)
// and steered wrongly in Release: it steers to the end of the path.
static void test_huge_path_offset(void)
{
    steer_world *w = make_world(1);
    steer_vec2 pts[] = {{0, 0}, {10, 0}, {10, 10}};
    for (int loop = 0; loop < 2; ++loop) {
        steer_path_def pd = steer_default_path_def();
        pd.points = pts;
        pd.count = 3;
        pd.loop = loop == 1;
        steer_path *path = steer_path_create(&pd);
        const float offsets[] = {2e38f, -2e38f, 3e38f};
        for (int k = 0; k < 3; ++k) {
            steer_behaviour_def fd = def_of(STEER_FOLLOW_PATH);
            fd.path = path;
            fd.path_offset = offsets[k];
            steer_behaviour *b = make(fd);
            CHECK(b != NULL);
            steer_agent_def ad = steer_default_agent_def();
            ad.state.position = steer_v2(2, 1);
            ad.behaviour = b;
            steer_agent_id a = steer_agent_create(w, &ad);
            asserts.count = 0;
            for (int s = 0; s < 30; ++s) steer_world_step(w, 1.0f / 30.0f);
            CHECK(asserts.count == 0);
            steer_vec2 p = steer_agent_get_position(w, a);
            CHECK(steer_vec2_is_finite(p));
            // open path: a huge positive offset heads for the far end
            if (!pd.loop && offsets[k] > 0.0f) CHECK(p.x > 2.5f);
            steer_agent_destroy(w, a);
            steer_behaviour_release(b);
        }
        steer_path_release(path);
    }
    steer_world_destroy(w);
}

// Found by the fuzz campaign on the merged main: neighbour velocities whose
// sum passes the float range (set_velocity takes any finite value) made
// alignment's mean infinite and its output NaN.
static void test_alignment_with_huge_neighbour_velocities(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_agent_id b = spawn(w, 1, 0, 0, 0), c = spawn(w, 0, 1, 0, 0);
    steer_agent_set_velocity(w, b, steer_v2(3e38f, 0));
    steer_agent_set_velocity(w, c, steer_v2(3e38f, 0));
    steer_behaviour *al = make(def_of(STEER_ALIGNMENT));
    bool has;
    steer_steering s = steering_of(al, w, a, &has);
    CHECK(has && finite_steering(s));
    CHECK_NEAR(s.linear.x, 10.0, 1e-4); // full acceleration towards +x
    steer_behaviour_release(al);
    steer_world_destroy(w);
}

int main(void)
{
    steer_set_assert_fn(counting_assert, &asserts);
    RUN(test_blend_weights_of_any_size);
    RUN(test_blend_clamps_near_the_limit_range);
    RUN(test_set_param_refuses_what_the_check_refuses);
    RUN(test_out_of_range_message);
    RUN(test_equal_radii_in_stored_precision);
    RUN(test_huge_path_offset);
    RUN(test_alignment_with_huge_neighbour_velocities);
    return TEST_RESULT();
}
