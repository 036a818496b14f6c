// The notes' kinematic, basic and delegated behaviours: every output checked
// against a hand computation of the notes' pseudo-code (shared/seeds/).
// Conventions: heading(a) = (sin a, cos a), orientation_of(v) = atan2(v.x, v.y);
// test_limits(): max_speed 5, max_acceleration 10, max_rotation pi,
// max_angular_acceleration 100 (so the align family is rarely clamped).
#include "fixture.h"
#include "test.h"

#define TOL 1e-4
static const double PI = 3.14159265358979323846;

/* ---- kinematic --------------------------------------------------------------------- */

static void kinematic_seek_and_flee(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 1, 2, 0, 0);
    steer_behaviour *seek = make(def_at(STEER_KINEMATIC_SEEK, 4, 6));
    steer_behaviour *flee = make(def_at(STEER_KINEMATIC_FLEE, 4, 6));
    bool has;
    // velocity = normalize((4,6) - (1,2)) * maxSpeed = (3,4)/5 * 5 = (3, 4); rotation 0
    steer_steering s = steering_of(seek, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 3.0, 4.0, TOL);
    CHECK_NEAR(s.angular, 0.0, 0);
    // flee: (1,2) - (4,6) = (-3,-4) -> (-3, -4)
    s = steering_of(flee, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -3.0, -4.0, TOL);
    // target at the agent's position: normalize leaves the zero vector unchanged
    steer_agent_set_position(w, a, steer_v2(4, 6));
    s = steering_of(seek, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    s = steering_of(flee, w, a, &has);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    steer_behaviour_release(seek);
    steer_behaviour_release(flee);
    steer_world_destroy(w);
}

static void kinematic_arrive(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_behaviour_def d = def_at(STEER_KINEMATIC_ARRIVE, 1, 0);
    CHECK_NEAR(d.time_to_target, 0.25, 0); // the notes' default for kinematic arrive
    d.radius = 0.5f;
    steer_behaviour *b = make(d);
    bool has;
    // velocity = (1,0) / 0.25 = (4, 0), under max speed 5
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 4.0, 0.0, TOL);
    // (3,4) / 0.25 = (12,16), longer than 5 -> (3, 4)
    steer_behaviour_set_target(b, point_target(3, 4));
    s = steering_of(b, w, a, &has);
    CHECK_VEC(s.linear, 3.0, 4.0, TOL);
    // distance exactly the radius is not "< radius": (0.3,0.4)/0.25 = (1.2, 1.6)
    steer_behaviour_set_target(b, point_target(0.3f, 0.4f));
    s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 1.2, 1.6, TOL);
    // inside the radius: None
    steer_behaviour_set_target(b, point_target(0.3f, 0.3f));
    s = steering_of(b, w, a, &has);
    CHECK(!has);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    // target at the agent's position: None
    steer_behaviour_set_target(b, point_target(0, 0));
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void kinematic_wander(void)
{
    const uint64_t seed = 77, key = 42;
    steer_world *w = make_world(seed);
    steer_behaviour *b = make(def_of(STEER_KINEMATIC_WANDER));
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, (float)(PI / 2), 0), test_limits(), b, key);
    bool has;
    // velocity = maxSpeed * orientation.asVector() = 5 * (sin pi/2, cos pi/2) = (5, 0)
    // rotation = randomBinomial() * maxRotation, from the agent's own stream
    uint64_t stream = steer__stream_seed(seed, key);
    float binomial = steer__rng_binomial(&stream);
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 5.0, 0.0, TOL);
    CHECK_NEAR(s.angular, binomial * STEER_PI, 1e-6);
    CHECK(s.angular > -STEER_PI && s.angular < STEER_PI);
    // asking again gives the same answer: get_steering uses a copy of the stream
    steer_steering again = steering_of(b, w, a, NULL);
    CHECK_NEAR(again.angular, s.angular, 0);
    // a max_rotation override scales the rotation: binomial * 0.5
    steer_behaviour_def d = def_of(STEER_KINEMATIC_WANDER);
    d.max_rotation = 0.5f;
    steer_behaviour *slow = make(d);
    s = steering_of(slow, w, a, NULL);
    CHECK_NEAR(s.angular, binomial * 0.5f, 1e-6);
    // binomial: in (-1, 1), more often near 0 than near the ends
    int near0 = 0, ends = 0;
    for (uint64_t k = 1; k <= 2000; ++k) {
        uint64_t st = steer__stream_seed(seed, k);
        float r = steer__rng_binomial(&st);
        CHECK(r > -1.0f && r < 1.0f);
        near0 += fabsf(r) < 0.25f;
        ends += fabsf(r) > 0.75f;
    }
    CHECK(near0 > 3 * ends);
    steer_behaviour_release(slow);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

/* ---- seek, flee, arrive, align, velocity match ------------------------------------------- */

static void seek_and_flee(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 1, 1);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 3, 4));
    steer_behaviour *flee = make(def_at(STEER_FLEE, 3, 4));
    bool has;
    // linear = normalize((3,4)) * maxAcceleration = (0.6,0.8)*10 = (6, 8), whatever the velocity
    steer_steering s = steering_of(seek, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 6.0, 8.0, TOL);
    CHECK_NEAR(s.angular, 0.0, 0);
    s = steering_of(flee, w, a, &has);
    CHECK_VEC(s.linear, -6.0, -8.0, TOL);
    // target at the agent's position: the zero direction stays zero
    steer_behaviour_set_target(seek, point_target(0, 0));
    s = steering_of(seek, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    // target an agent: its position
    steer_agent_id t = spawn(w, 0, -2, 0, 0);
    steer_behaviour_set_target(seek, agent_target(t));
    s = steering_of(seek, w, a, &has);
    CHECK_VEC(s.linear, 0.0, -10.0, TOL);
    // a removed target agent: no steering
    steer_agent_destroy(w, t);
    CHECK(!steer_behaviour_get_steering(seek, w, a, 0.1f, &s));
    steer_behaviour_release(seek);
    steer_behaviour_release(flee);
    steer_world_destroy(w);
}

// arrive's output taken as before its one square root (steer_length's
// distance, then steer_normalize's direction, which took the root again).
static steer_vec2 arrive_as_before(steer_vec2 position, steer_vec2 velocity, steer_vec2 point, float slow_radius,
                                   float time_to_target, float max_speed, float max_acceleration)
{
    const steer_vec2 direction = steer_sub(point, position);
    const float distance = steer_length(direction);
    const float target_speed = distance > slow_radius ? max_speed : max_speed * (distance / slow_radius);
    const steer_vec2 target_velocity = steer_scale(steer_normalize(direction), target_speed);
    return steer__over_time(target_velocity, velocity, time_to_target, max_acceleration);
}

// arrive takes the direction from the distance's square root: the same bits
// as steer_normalize's, for targets near and far, off the axes, tiny and
// huge offsets.
static void arrive_direction_as_normalize(void)
{
    steer_world *w = make_world(1);
    const steer_vec2 at = steer_v2(0.3f, -0.7f), v = steer_v2(0.2f, 0.1f);
    steer_agent_id a = spawn(w, at.x, at.y, v.x, v.y);
    steer_behaviour_def d = def_at(STEER_ARRIVE, 0, 0);
    d.target_radius = 0.0f;
    d.slow_radius = 3.0f;
    d.max_speed = 5.0f;
    d.max_acceleration = 1e30f; // (unclamped: the direction's bits show)
    steer_behaviour *b = make(d);
    uint64_t rng = 5;
    int compared = 0, differ = 0;
    for (int i = 0; i < 4000; ++i) {
        const float scale = i % 4 == 0 ? 1e-6f : i % 4 == 1 ? 1.0f : i % 4 == 2 ? 40.0f : 1e30f;
        steer_vec2 point = steer_v2(at.x + scale * (2.0f * steer__rng_float(&rng) - 1.0f),
                                    at.y + scale * (2.0f * steer__rng_float(&rng) - 1.0f));
        if (i % 97 == 0) point.x = i % 2 ? FLT_MAX : -FLT_MAX; // (a target point is finite)
        if (i % 89 == 0) point.y = i % 2 ? FLT_MAX : -FLT_MAX;
        steer_behaviour_set_target(b, point_target(point.x, point.y));
        bool has;
        const steer_steering s = steering_of(b, w, a, &has);
        const steer_vec2 want = arrive_as_before(at, v, point, d.slow_radius, d.time_to_target, d.max_speed,
                                                 d.max_acceleration);
        ++compared;
        differ += !has || memcmp(&s.linear, &want, sizeof want) != 0;
    }
    CHECK(compared == 4000);
    CHECK(differ == 0);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void arrive(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_behaviour_def d = def_at(STEER_ARRIVE, 10, 0);
    d.target_radius = 0.5f;
    d.slow_radius = 3.0f;
    CHECK_NEAR(d.time_to_target, 0.1, 1e-7); // the notes' default
    steer_behaviour *b = make(d);
    bool has;
    // outside slowRadius: targetSpeed = maxSpeed = 5, targetVelocity (5,0);
    // linear = ((5,0) - 0)/0.1 = (50,0) -> clamped to maxAcceleration: (10, 0)
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);
    CHECK_NEAR(s.angular, 0.0, 0);
    // moving at the target velocity already: no acceleration
    steer_agent_set_velocity(w, a, steer_v2(5, 0));
    s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.0, 0.0, TOL);
    // velocity (4,3): ((5,0)-(4,3))/0.1 = (10,-30), |.| = 31.6 -> 10*(1,-3)/sqrt(10)
    steer_agent_set_velocity(w, a, steer_v2(4, 3));
    s = steering_of(b, w, a, &has);
    CHECK_VEC(s.linear, 3.16227766, -9.48683298, TOL);

    // with a large max_acceleration override the unclamped numbers show
    d.max_acceleration = 100.0f;
    steer_behaviour *big = make(d);
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    // distance exactly slowRadius (3): targetSpeed = 5 * 3/3 = 5 -> (5,0)/0.1 = (50, 0)
    steer_behaviour_set_target(big, point_target(3, 0));
    s = steering_of(big, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 50.0, 0.0, 1e-3);
    // inside: distance 1.5: targetSpeed = 5 * 1.5/3 = 2.5 -> (25, 0)
    steer_behaviour_set_target(big, point_target(1.5f, 0));
    s = steering_of(big, w, a, &has);
    CHECK_VEC(s.linear, 25.0, 0.0, 1e-3);
    // ... with velocity (1,1): ((2.5,0) - (1,1))/0.1 = (15, -10)
    steer_agent_set_velocity(w, a, steer_v2(1, 1));
    s = steering_of(big, w, a, &has);
    CHECK_VEC(s.linear, 15.0, -10.0, 1e-3);
    // distance exactly targetRadius is not "< targetRadius":
    // targetSpeed = 5 * 0.5/3 = 0.8333 -> ((0.8333,0) - (1,1))/0.1 = (-1.6667, -10)
    steer_behaviour_set_target(big, point_target(0.5f, 0));
    s = steering_of(big, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -1.6666667, -10.0, 1e-3);
    // inside targetRadius while still moving: brake to rest (the notes'
    // formula with targetSpeed 0): -(1,1)/0.1 = (-10, -10); clamped by the
    // agent's maxAcceleration 10 in `b`: (-7.07107, -7.07107). When the
    // whole speed can go within the step (|v| = 1.414 <= 100 * dt), it
    // does: -(1,1)/dt = (-60, -60) with dt = 1/60
    steer_behaviour_set_target(big, point_target(0.3f, 0.3f));
    s = steering_of(big, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -60.0, -60.0, 1e-3);
    CHECK(steer_behaviour_get_steering(big, w, a, 0.0f, &s)); // no step length: the notes' formula
    CHECK_VEC(s.linear, -10.0, -10.0, 1e-3);
    steer_behaviour_set_target(b, point_target(0.3f, 0.3f));
    s = steering_of(b, w, a, &has);
    CHECK_VEC(s.linear, -7.0710678, -7.0710678, 1e-3);
    // target at the agent's position, still moving: the same braking
    steer_behaviour_set_target(big, point_target(0, 0));
    s = steering_of(big, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -60.0, -60.0, 1e-3);
    // inside targetRadius at rest (and at the target itself): None
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    CHECK(!steer_behaviour_get_steering(big, w, a, 0.1f, &s));
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    steer_behaviour_set_target(big, point_target(0.3f, 0.3f));
    CHECK(!steer_behaviour_get_steering(big, w, a, 0.1f, &s));
    steer_agent_set_velocity(w, a, steer_v2(1, 1));

    // target_radius 0 and the target at the agent's position: distance 0 is
    // not < 0, targetSpeed = 0, targetVelocity = 0: linear = -(1,1)/0.1
    d.target_radius = 0.0f;
    d.target = point_target(0, 0);
    steer_behaviour *zero = make(d);
    s = steering_of(zero, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -10.0, -10.0, 1e-3);
    steer_behaviour_release(zero);
    steer_behaviour_release(big);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void align(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_behaviour_def d = def_of(STEER_ALIGN);
    d.target_radius = 0.01f;
    d.slow_radius = 0.5f;
    d.orientation = 1.0f;
    steer_behaviour *b = make(d);
    bool has;
    // rotation = 1 - 0 = 1 > slowRadius: targetRotation = maxRotation = pi;
    // angular = (pi - 0)/0.1 = 31.4159
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    // with the character's rotation 2: (pi - 2)/0.1 = 11.4159
    steer_kinematic k = kin(0, 0, 0, 0, 0, 2.0f);
    steer_agent_set_state(w, a, &k);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 10 * (PI - 2), 1e-3);
    // the other way: orientation -1: -pi/0.1 - 2/0.1 = -51.4159 -> clamped to -100? no, |.| < 100
    steer_behaviour_def dn = d;
    dn.orientation = -1.0f;
    steer_behaviour *neg = make(dn);
    s = steering_of(neg, w, a, NULL);
    CHECK_NEAR(s.angular, 10 * (-PI - 2), 1e-3);

    // across +-pi: target 3, character -3: 3 - (-3) = 6 -> mapToRange: 6 - 2pi = -0.28319;
    // |.| < slowRadius: targetRotation = -pi * 0.28319/0.5 = -1.77931; angular = -17.7931
    k = kin(0, 0, 0, 0, -3.0f, 0);
    steer_agent_set_state(w, a, &k);
    steer_behaviour_def dx = d;
    dx.orientation = 3.0f;
    steer_behaviour *across = make(dx);
    s = steering_of(across, w, a, NULL);
    CHECK_NEAR(s.angular, -17.7930576, 1e-3);
    // and mirrored: target -3, character 3 -> +17.7931
    k.orientation = 3.0f;
    steer_agent_set_state(w, a, &k);
    dx.orientation = -3.0f;
    steer_behaviour *across2 = make(dx);
    s = steering_of(across2, w, a, NULL);
    CHECK_NEAR(s.angular, 17.7930576, 1e-3);

    // rotation size exactly slowRadius: maxRotation * 0.5/0.5 = pi -> 31.4159
    k = kin(0, 0, 0, 0, 0, 0);
    steer_agent_set_state(w, a, &k);
    steer_behaviour_def ds = d;
    ds.orientation = 0.5f;
    steer_behaviour *at_slow = make(ds);
    s = steering_of(at_slow, w, a, NULL);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    // 0.25: pi * 0.25/0.5 = pi/2 -> 15.708
    ds.orientation = 0.25f;
    steer_behaviour *half = make(ds);
    s = steering_of(half, w, a, NULL);
    CHECK_NEAR(s.angular, 5 * PI, 1e-3);
    // inside targetRadius (0.005 < 0.01), and exactly aligned: None
    ds.orientation = 0.005f;
    steer_behaviour *inside = make(ds);
    CHECK(!steer_behaviour_get_steering(inside, w, a, 0.1f, &s));
    ds.orientation = 0.0f;
    ds.target_radius = 0.0f;
    steer_behaviour *exact = make(ds);
    CHECK(!steer_behaviour_get_steering(exact, w, a, 0.1f, &s));
    CHECK(isfinite(s.angular));

    // clamped by maxAngularAcceleration: the default 2pi
    steer_limits l = test_limits();
    l.max_angular_acceleration = 2.0f * STEER_PI;
    steer_agent_set_limits(w, a, &l);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 2 * PI, 1e-4);
    s = steering_of(neg, w, a, NULL);
    CHECK_NEAR(s.angular, -2 * PI, 1e-4);

    // align to another agent's orientation
    steer_agent_set_limits(w, a, &(steer_limits){0.5f, 5, 10, STEER_PI, 100, 0});
    steer_agent_id t = spawn_full(w, kin(5, 5, 0, 0, 0.25f, 0), test_limits(), NULL, 0);
    steer_behaviour_def da = def_of(STEER_ALIGN);
    da.target = agent_target(t);
    da.orientation = 2.0f; // ignored when the target is an agent
    steer_behaviour *to_agent = make(da);
    s = steering_of(to_agent, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 5 * PI, 1e-3);

    steer_behaviour *all[] = {b, neg, across, across2, at_slow, half, inside, exact, to_agent};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) steer_behaviour_release(all[i]);
    steer_world_destroy(w);
}

static void velocity_match(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 1, 1);
    steer_agent_id t = spawn(w, 10, 10, 2, 1);
    steer_behaviour_def d = def_of(STEER_VELOCITY_MATCH);
    d.target = agent_target(t);
    steer_behaviour *b = make(d);
    bool has;
    // linear = ((2,1) - (1,1))/0.1 = (10, 0): exactly maxAcceleration, unclamped
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);
    CHECK_NEAR(s.angular, 0.0, 0);
    // zero velocity, target (3,4): (30,40) -> clamped (6, 8)
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    steer_agent_set_velocity(w, t, steer_v2(3, 4));
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 6.0, 8.0, TOL);
    // time_to_target 1: (3, 4)
    d.time_to_target = 1.0f;
    steer_behaviour *slow = make(d);
    s = steering_of(slow, w, a, NULL);
    CHECK_VEC(s.linear, 3.0, 4.0, TOL);
    // a point target stands still: (0 - (0.5,0))/0.1 = (-5, 0)
    steer_agent_set_velocity(w, a, steer_v2(0.5f, 0));
    steer_behaviour_set_target(b, point_target(1, 1));
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, -5.0, 0.0, TOL);
    steer_behaviour_release(slow);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

/* ---- delegated: pursue, evade, face, look where you are going, wander ------------------ */

static void pursue_and_evade(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 5, 0);
    steer_agent_id t = spawn(w, 10, 0, 0, 3);
    steer_behaviour_def d = def_of(STEER_PURSUE);
    d.target = agent_target(t);
    d.max_prediction = 4.0f;
    steer_behaviour *p4 = make(d);
    bool has;
    // distance 10, speed 5 > 10/4: prediction = 10/5 = 2; predicted (10,0)+(0,3)*2 = (10,6)
    // seek: (10,6)/|(10,6)| * 10 = (8.5749, 5.1450)
    steer_steering s = steering_of(p4, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 8.5749293, 5.1449576, TOL);
    // max_prediction 1.5: speed 5 <= 10/1.5: prediction capped at 1.5 -> (10,4.5)
    // seek: (9.1192, 4.1036)
    d.max_prediction = 1.5f;
    steer_behaviour *p15 = make(d);
    s = steering_of(p15, w, a, NULL);
    CHECK_VEC(s.linear, 9.1192151, 4.1036468, TOL);
    // zero velocity: speed 0 <= anything: prediction = max_prediction (1) -> (10,3)
    d.max_prediction = 1.0f;
    steer_behaviour *p1 = make(d);
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    s = steering_of(p1, w, a, NULL);
    CHECK_VEC(s.linear, 9.5782629, 2.8734789, TOL);
    // evade: flee the same predicted point
    steer_behaviour_def de = d;
    de.type = STEER_EVADE;
    steer_behaviour *e1 = make(de);
    s = steering_of(e1, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -9.5782629, -2.8734789, TOL);
    // target at the agent's position, agent still: distance 0, speed 0 <= 0:
    // prediction 1; predicted (0,3): seek (0,10), evade (0,-10)
    steer_agent_set_position(w, t, steer_v2(0, 0));
    s = steering_of(p1, w, a, NULL);
    CHECK_VEC(s.linear, 0.0, 10.0, TOL);
    s = steering_of(e1, w, a, NULL);
    CHECK_VEC(s.linear, 0.0, -10.0, TOL);
    // ... agent moving: speed 1 > 0/1: prediction 0/1 = 0: predicted = the
    // agent's own position: seek of the zero vector is zero
    steer_agent_set_velocity(w, a, steer_v2(1, 0));
    s = steering_of(p1, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    // a removed target: None
    steer_agent_destroy(w, t);
    CHECK(!steer_behaviour_get_steering(p1, w, a, 0.1f, &s));
    CHECK(!steer_behaviour_get_steering(e1, w, a, 0.1f, &s));

    steer_behaviour *all[] = {p4, p15, p1, e1};
    for (int i = 0; i < 4; ++i) steer_behaviour_release(all[i]);
    steer_world_destroy(w);
}

// flee and evade with a panic radius (the notes' flee with a radius): the
// same output while the target is nearer than panic_radius, none from
// panic_radius on; unset (the default), at any range as before.
static void panic_radius(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_agent_id t = spawn(w, 3, 4, 2, 0); // 5 m away, moving +x
    CHECK(!def_of(STEER_FLEE).use_panic_radius);
    CHECK(!def_of(STEER_EVADE).use_panic_radius);
    steer_behaviour_def df = def_of(STEER_FLEE), de = def_of(STEER_EVADE);
    df.target = de.target = agent_target(t);
    steer_behaviour *flee_any = make(df), *evade_any = make(de);
    df.use_panic_radius = de.use_panic_radius = true;
    df.panic_radius = de.panic_radius = 6.0f;
    steer_behaviour *flee6 = make(df), *evade6 = make(de);
    bool has;
    // inside the radius: the plain output (flee (-6, -8); evade flees the
    // prediction (3, 4) + (2, 0) * 1 = (5, 4): -(5, 4)/|(5, 4)| * 10)
    steer_steering s = steering_of(flee6, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -6.0, -8.0, TOL);
    s = steering_of(evade6, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, -7.8086881, -6.2469505, TOL);
    // 7 m away: none with the radius, the same as ever without it
    steer_agent_set_position(w, t, steer_v2(0, 7));
    CHECK(!steer_behaviour_get_steering(flee6, w, a, 0.1f, &s));
    CHECK(!steer_behaviour_get_steering(evade6, w, a, 0.1f, &s));
    s = steering_of(flee_any, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.0, -10.0, TOL);
    CHECK(steer_behaviour_get_steering(evade_any, w, a, 0.1f, &s));
    // exactly at the radius: none (flee while closer than panic_radius)
    steer_agent_set_position(w, t, steer_v2(6, 0));
    CHECK(!steer_behaviour_get_steering(flee6, w, a, 0.1f, &s));
    CHECK(!steer_behaviour_get_steering(evade6, w, a, 0.1f, &s));
    // reflected like every option: by name, with its rule
    const steer_param_info *p = steer_behaviour_find_param(STEER_FLEE, "panic_radius");
    CHECK(p != NULL && p->kind == STEER_PARAM_OPTIONAL && p->rule == STEER_RULE_POSITIVE);
    CHECK(steer_behaviour_find_param(STEER_EVADE, "panic_radius") != NULL);
    CHECK(steer_behaviour_find_param(STEER_SEEK, "panic_radius") == NULL);
    steer_behaviour *all[] = {flee_any, evade_any, flee6, evade6};
    for (int i = 0; i < 4; ++i) steer_behaviour_release(all[i]);
    steer_world_destroy(w);
}

static void pursue_arrives_on_overshoot(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 4, 0);
    steer_agent_id t = spawn(w, 2, 0, 0, 0);
    steer_behaviour_def d = def_of(STEER_PURSUE);
    d.target = agent_target(t);
    d.max_prediction = 1.0f;
    d.target_radius = 0.5f;
    d.slow_radius = 3.0f;
    steer_behaviour *seek_like = make(d);
    d.arrive_on_overshoot = true;
    steer_behaviour *arrive_like = make(d);
    // speed 4 > 2/1: prediction 2/4 = 0.5; predicted (2,0) (the target stands)
    // seek: (10, 0)
    steer_steering s = steering_of(seek_like, w, a, NULL);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);
    // arrive (predicted point within slowRadius): targetSpeed = 5*2/3 = 3.3333;
    // ((3.3333,0) - (4,0))/0.1 = (-6.6667, 0)
    s = steering_of(arrive_like, w, a, NULL);
    CHECK_VEC(s.linear, -6.6666667, 0.0, 1e-3);
    // far away it still seeks
    steer_agent_set_position(w, t, steer_v2(20, 0));
    s = steering_of(arrive_like, w, a, NULL);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);
    steer_behaviour_release(seek_like);
    steer_behaviour_release(arrive_like);
    steer_world_destroy(w);
}

static void face(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_behaviour_def d = def_at(STEER_FACE, 1, 1);
    CHECK_NEAR(d.target_radius, 0.01, 1e-7);
    CHECK_NEAR(d.slow_radius, 0.5, 1e-7);
    steer_behaviour *b = make(d);
    bool has;
    // orientation of (1,1) = atan2(1,1) = pi/4 > slowRadius: angular = pi/0.1
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    CHECK_VEC(s.linear, 0.0, 0.0, 0);
    // (0.1, 1): atan2(0.1, 1) = 0.0996687 -> pi*0.0996687/0.5/0.1 = 6.26237
    steer_behaviour_set_target(b, point_target(0.1f, 1));
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 6.2623661, 1e-3);
    // (-1, 0) faces -pi/2: -pi/0.1
    steer_behaviour_set_target(b, point_target(-1, 0));
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, -10 * PI, 1e-3);
    // target at the agent's position: None
    steer_behaviour_set_target(b, point_target(0, 0));
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    // across +-pi: character at -3, target straight behind (0,-1): orientation pi;
    // pi - (-3) = 6.14159 -> -0.14159; angular = -pi*0.14159/0.5/0.1 = -8.89653
    steer_kinematic k = kin(0, 0, 0, 0, -3.0f, 0);
    steer_agent_set_state(w, a, &k);
    steer_behaviour_set_target(b, point_target(0, -1));
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, -8.8965288, 1e-3);
    // facing an agent
    steer_agent_id t = spawn(w, 0, -5, 0, 0);
    steer_behaviour_set_target(b, agent_target(t));
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, -8.8965288, 1e-3);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void look_where_you_are_going(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 1, 0);
    steer_behaviour *b = make(def_of(STEER_LOOK_WHERE_YOU_ARE_GOING));
    bool has;
    // velocity (1,0): orientation pi/2 > slowRadius: angular = pi/0.1
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    // zero velocity: None
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    CHECK_NEAR(s.angular, 0.0, 0);
    // across +-pi: velocity (-0.1,-1) has orientation -3.04192; the character at 3:
    // -3.04192 - 3 = -6.04192 -> +0.24126; pi*0.24126/0.5/0.1 = 15.1589
    steer_kinematic k = kin(0, 0, -0.1f, -1, 3.0f, 0);
    steer_agent_set_state(w, a, &k);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 15.1588949, 1e-3);
    // already looking that way (within targetRadius): None
    k.orientation = steer_orientation_of(k.velocity);
    steer_agent_set_state(w, a, &k);
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void wander(void)
{
    const uint64_t seed = 5, key = 9;
    steer_world *w = make_world(seed);
    steer_behaviour_def d = def_of(STEER_WANDER);
    d.wander_offset = 2.0f;
    d.wander_radius = 1.0f;
    d.wander_rate = 0.0f; // the wander orientation stays where the memory has it
    steer_behaviour *fixed = make(d);
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, 0, 0), test_limits(), NULL, key);
    w->memory[dense_of(w, a)].value[0] = 0.5f; // wanderOrientation
    bool has;
    // target = position + 2*heading(0) + 1*heading(0.5 + 0) = (0,2) + (0.47943, 0.87758)
    //        = (0.47943, 2.87758); face: atan2(0.47943, 2.87758) = 0.16509 < slowRadius:
    // angular = pi*0.16509/0.5/0.1 = 10.37295; linear = 10 * heading(0) = (0, 10)
    steer_steering s = steering_of(fixed, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 10.3729527, 1e-3);
    CHECK_VEC(s.linear, 0.0, 10.0, TOL);
    // the character at pi/2: everything turns with it: linear (10, 0), same angular
    steer_kinematic k = kin(0, 0, 0, 0, (float)(PI / 2), 0);
    steer_agent_set_state(w, a, &k);
    s = steering_of(fixed, w, a, NULL);
    CHECK_NEAR(s.angular, 10.3729527, 1e-3);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);
    // wander orientation 0: the target is straight ahead, face gives None,
    // wander still accelerates forwards with no rotation
    w->memory[dense_of(w, a)].value[0] = 0.0f;
    s = steering_of(fixed, w, a, &has);
    CHECK(has);
    CHECK_NEAR(s.angular, 0.0, 0);
    CHECK_VEC(s.linear, 10.0, 0.0, TOL);

    // the rate: each step wanderOrientation += randomBinomial() * wanderRate,
    // drawn from the agent's own stream (world seed, key)
    d.wander_rate = 0.5f;
    steer_behaviour *b = make(d);
    steer_agent_set_behaviour(w, a, b, false);
    CHECK_NEAR(memory_of(w, a, 0), 0.0, 0); // memory reset with a new behaviour
    uint64_t stream = steer__stream_seed(seed, key);
    float w1 = steer__rng_binomial(&stream) * 0.5f;
    float w2 = steer_wrap_angle(w1 + steer__rng_binomial(&stream) * 0.5f);
    steer_world_step(w, 1.0f / 60.0f);
    CHECK_NEAR(memory_of(w, a, 0), w1, 1e-7);
    steer_world_step(w, 1.0f / 60.0f);
    CHECK_NEAR(memory_of(w, a, 0), w2, 1e-7);
    CHECK(fabsf(w1) < 0.5f && fabsf(w2 - w1) < 0.5f);
    steer_behaviour_release(b);
    steer_behaviour_release(fixed);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(kinematic_seek_and_flee);
    RUN(kinematic_arrive);
    RUN(kinematic_wander);
    RUN(seek_and_flee);
    RUN(arrive);
    RUN(arrive_direction_as_normalize);
    RUN(align);
    RUN(velocity_match);
    RUN(pursue_and_evade);
    RUN(panic_radius);
    RUN(pursue_arrives_on_overshoot);
    RUN(face);
    RUN(look_where_you_are_going);
    RUN(wander);
    return TEST_RESULT();
}
