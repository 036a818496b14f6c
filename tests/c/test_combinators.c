// Combinators and limit overrides: weighted blend (clamped to the limits),
// priority (per channel, epsilon, the fallback, nesting), overrides that hold
// for a node and everything under it, and callbacks.
// The agent has test_limits(): max_speed 5, max_acceleration 10,
// max_rotation pi, max_angular_acceleration 100.
#include "fixture.h"
#include "test.h"

#define TOL 1e-4
static const double PI = 3.14159265358979323846;

static steer_behaviour *seek_to(float x, float y) { return make(def_at(STEER_SEEK, x, y)); }

static steer_behaviour *seek_with_acc(float x, float y, float max_acc)
{
    steer_behaviour_def d = def_at(STEER_SEEK, x, y);
    d.max_acceleration = max_acc;
    return make(d);
}

// arrive at the agent's own position: None
static steer_behaviour *arrive_none(void) { return make(def_at(STEER_ARRIVE, 0, 0)); }

// face (1,1) from the origin at orientation 0: angular pi/0.1 = 31.4159, linear 0
static steer_behaviour *face_11(void) { return make(def_at(STEER_FACE, 1, 1)); }

static steer_behaviour *priority_of(steer_behaviour **c, int n, float epsilon)
{
    steer_child ch[8];
    for (int i = 0; i < n; ++i) ch[i] = (steer_child){c[i], 1.0f};
    steer_behaviour_def d = def_of(STEER_PRIORITY);
    d.children = ch;
    d.child_count = n;
    d.epsilon = epsilon;
    steer_behaviour *b = make(d);
    for (int i = 0; i < n; ++i) steer_behaviour_release(c[i]);
    return b;
}

static void blend(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    bool has;
    // 0.5 * (10,0) + 0.25 * (0,10) = (5, 2.5): under maxAcceleration, as is
    steer_behaviour *b = make_combinator(STEER_BLEND, (steer_behaviour *[]){seek_to(10, 0), seek_to(0, 10)},
                                         (float[]){0.5f, 0.25f}, 2);
    steer_steering s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 5, 2.5, TOL);
    CHECK_NEAR(s.angular, 0, 0);
    steer_behaviour_release(b);
    // 1 * (10,0) + 1 * (0,10) = (10,10): clamped to 10: (7.07107, 7.07107)
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){seek_to(10, 0), seek_to(0, 10)}, NULL, 2);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 7.0710678, 7.0710678, TOL);
    steer_behaviour_release(b);
    // angular: face (1,1) and align to 1 both give pi/0.1: sum 62.83 (under 100);
    // with weights 2 and 2: 125.66, clamped to maxAngularAcceleration 100
    steer_behaviour_def al = def_of(STEER_ALIGN);
    al.orientation = 1.0f;
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){face_11(), make(al)}, NULL, 2);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 20 * PI, 1e-3);
    CHECK_VEC(s.linear, 0, 0, 0);
    steer_behaviour_release(b);
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){face_11(), make(al)}, (float[]){2, 2}, 2);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 100, 1e-3);
    steer_behaviour_release(b);
    // a child with no steering adds nothing: 0.5 * (10, 0)
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){arrive_none(), seek_to(10, 0)}, (float[]){3, 0.5f}, 2);
    s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 5, 0, TOL);
    steer_behaviour_release(b);
    // only children with no steering: None; and an empty blend: None
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){arrive_none(), arrive_none()}, NULL, 2);
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    steer_behaviour_release(b);
    b = make_combinator(STEER_BLEND, NULL, NULL, 0);
    CHECK(b != NULL);
    CHECK(!steer_behaviour_get_steering(b, w, a, 0.1f, &s));
    steer_behaviour_release(b);
    // a negative weight: -1 * seek = flee
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){seek_to(10, 0)}, (float[]){-1}, 1);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, -10, 0, TOL);
    steer_behaviour_release(b);
    // a kinematic agent: the blend clamps to max_speed (5): (5,0)+(0,5) -> (3.5355, 3.5355)
    steer_agent_def kd = steer_default_agent_def();
    kd.limits = test_limits();
    kd.kinematic = true;
    steer_agent_id k = steer_agent_create(w, &kd);
    b = make_combinator(STEER_BLEND,
                        (steer_behaviour *[]){make(def_at(STEER_KINEMATIC_SEEK, 10, 0)),
                                              make(def_at(STEER_KINEMATIC_SEEK, 0, 10))},
                        NULL, 2);
    s = steering_of(b, w, k, NULL);
    CHECK_VEC(s.linear, 3.5355339, 3.5355339, TOL);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void priority(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    bool has;
    steer_steering s;
    // the first group gives None: the second one's output
    steer_behaviour *p = priority_of((steer_behaviour *[]){arrive_none(), seek_to(10, 0)}, 2, 1e-3f);
    s = steering_of(p, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 10, 0, TOL);
    steer_behaviour_release(p);
    // epsilon: |(0.5,0)| = 0.5 does not exceed 1: the second group wins ...
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 0.5f), seek_to(0, 10)}, 2, 1.0f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 0, 10, TOL);
    steer_behaviour_release(p);
    // ... nor does it exceed exactly 0.5 ...
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 0.5f), seek_to(0, 10)}, 2, 0.5f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 0, 10, TOL);
    steer_behaviour_release(p);
    // ... but it exceeds 0.1: the first group wins
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 0.5f), seek_to(0, 10)}, 2, 0.1f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 0.5, 0, TOL);
    steer_behaviour_release(p);
    // per channel: face gives only angular, seek only linear: both are used,
    // in either order
    p = priority_of((steer_behaviour *[]){face_11(), seek_to(10, 0)}, 2, 1e-3f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 10, 0, TOL);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    steer_behaviour_release(p);
    p = priority_of((steer_behaviour *[]){seek_to(10, 0), face_11()}, 2, 1e-3f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 10, 0, TOL);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    steer_behaviour_release(p);
    // nothing exceeds epsilon: the last group that gave steering
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 0.5f), seek_with_acc(0, 10, 0.25f)}, 2, 1.0f);
    s = steering_of(p, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0, 0.25, TOL);
    steer_behaviour_release(p);
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 0.5f), arrive_none()}, 2, 1.0f);
    s = steering_of(p, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0.5, 0, TOL);
    steer_behaviour_release(p);
    // every group gives None: None
    p = priority_of((steer_behaviour *[]){arrive_none(), arrive_none()}, 2, 1e-3f);
    CHECK(!steer_behaviour_get_steering(p, w, a, 0.1f, &s));
    steer_behaviour_release(p);
    // epsilon 0: any non-zero output wins
    p = priority_of((steer_behaviour *[]){seek_with_acc(10, 0, 1e-6f), seek_to(0, 10)}, 2, 0.0f);
    s = steering_of(p, w, a, NULL);
    CHECK_VEC(s.linear, 1e-6, 0, 1e-9);
    steer_behaviour_release(p);
    steer_world_destroy(w);
}

static void nesting(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_behaviour_def al = def_of(STEER_ALIGN);
    al.orientation = 1.0f; // pi/0.1 = 31.4159
    // priority(eps 1) of
    //   blend(arrive_none, seek (0,10) at max_acc 0.5)    -> (0, 0.5): below epsilon
    //   blend(0.5 * priority(face, seek (10,0)), 0.5 * align)
    //       = 0.5 * ((10,0), 31.4159) + 0.5 * ((0,0), 31.4159) = ((5,0), 31.4159)
    steer_behaviour *g1 = make_combinator(STEER_BLEND, (steer_behaviour *[]){arrive_none(), seek_with_acc(0, 10, 0.5f)}, NULL, 2);
    steer_behaviour *inner = priority_of((steer_behaviour *[]){face_11(), seek_to(10, 0)}, 2, 1e-3f);
    steer_behaviour *g2 = make_combinator(STEER_BLEND, (steer_behaviour *[]){inner, make(al)}, (float[]){0.5f, 0.5f}, 2);
    steer_behaviour *top = priority_of((steer_behaviour *[]){g1, g2}, 2, 1.0f);
    bool has;
    steer_steering s = steering_of(top, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 5, 0, TOL);
    CHECK_NEAR(s.angular, 10 * PI, 1e-3);
    CHECK(steer_behaviour_child_count(top) == 2);
    steer_behaviour_release(top);

    // deep nesting: 40 blends of weight 1 around a seek
    steer_behaviour *b = seek_to(0, -10);
    for (int i = 0; i < 40; ++i) b = make_combinator(i % 2 ? STEER_BLEND : STEER_PRIORITY, (steer_behaviour *[]){b}, NULL, 1);
    s = steering_of(b, w, a, &has);
    CHECK(has);
    CHECK_VEC(s.linear, 0, -10, TOL);
    // a combinator can never contain itself
    assert_counter count = {0, ""};
    steer_set_assert_fn(counting_assert, &count);
    steer_behaviour *leaf = steer_behaviour_get_child(b, 0).behaviour;
    CHECK(!steer_behaviour_set_children(leaf, (steer_child[]){{b, 1}}, 1));
    CHECK(count.count == 1);
    steer_set_assert_fn(NULL, NULL);
    CHECK(steer_behaviour_contains(b, leaf) && !steer_behaviour_contains(leaf, b));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void limit_overrides(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    steer_steering s;
    // seek with max_acceleration 3: (3, 0)
    steer_behaviour *b = seek_with_acc(10, 0, 3);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 3, 0, TOL);
    steer_behaviour_release(b);
    // a blend's override holds for its children: seek gives (2,0) under max_acc 2
    steer_behaviour_def bd = def_of(STEER_BLEND);
    steer_child ch[2] = {{seek_to(10, 0), 1.0f}, {seek_with_acc(10, 0, 6), 1.0f}};
    bd.children = ch;
    bd.child_count = 1;
    bd.max_acceleration = 2;
    b = make(bd);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 2, 0, TOL);
    steer_behaviour_release(b);
    // a child's own override is used by the child (6), then the blend clamps to its 2
    bd.children = &ch[1];
    b = make(bd);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 2, 0, TOL);
    steer_behaviour_release(b);
    steer_behaviour_release(ch[0].behaviour);
    steer_behaviour_release(ch[1].behaviour);
    // a child's override does not leak to its siblings: (3,0) + (0,10) = (3,10),
    // clamped by the agent's 10: (2.87348, 9.57826)
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){seek_with_acc(10, 0, 3), seek_to(0, 10)}, NULL, 2);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 2.8734789, 9.5782629, TOL);
    steer_behaviour_release(b);
    // weight 5 on a seek limited to 3: 15, clamped to the agent's 10
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){seek_with_acc(10, 0, 3)}, (float[]){5}, 1);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 10, 0, TOL);
    steer_behaviour_release(b);
    // arrive with max_speed 1 and max_acceleration 100: targetSpeed 1: (1,0)/0.1 = (10, 0);
    // with the agent's max_speed 5: (50, 0)
    steer_behaviour_def ad = def_at(STEER_ARRIVE, 10, 0);
    ad.max_acceleration = 100;
    b = make(ad);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 50, 0, 1e-3);
    steer_behaviour_release(b);
    ad.max_speed = 1;
    b = make(ad);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 10, 0, 1e-3);
    steer_behaviour_release(b);
    // align with max_rotation 1: targetRotation 1 -> 1/0.1 = 10; and with
    // max_angular_acceleration 2 on top: 2
    steer_behaviour_def al = def_of(STEER_ALIGN);
    al.orientation = 1.0f;
    al.max_rotation = 1.0f;
    b = make(al);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 10, 1e-4);
    steer_behaviour_release(b);
    al.max_angular_acceleration = 2.0f;
    b = make(al);
    s = steering_of(b, w, a, NULL);
    CHECK_NEAR(s.angular, 2, 1e-5);
    steer_behaviour_release(b);
    // overrides are live parameters; a negative value inherits again
    b = seek_to(10, 0);
    const steer_param_info *p = steer_behaviour_find_param(STEER_SEEK, "max_acceleration");
    CHECK(p != NULL);
    CHECK(steer_behaviour_set_param(b, p, 4.0));
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 4, 0, TOL);
    CHECK(steer_behaviour_set_param(b, p, -1.0));
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 10, 0, TOL);
    // the override changes what the behaviour asks for, not the agent's own
    // limits: a step clamps the speed by the agent's max_speed
    steer_agent_set_behaviour(w, a, b, false);
    for (int i = 0; i < 120; ++i) steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_length(steer_agent_get_velocity(w, a)) <= 5.0f * (1 + 1e-6f));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

/* ---- callbacks ----------------------------------------------------------------------------- */

static void callbacks(void)
{
    steer_world *w = make_world(1);
    fixed_output f = {{{1, 2}, 0.5f}, STEER_CALLBACK_STEERING, 0};
    steer_behaviour *cb = make_fixed(&f);
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, 0, 0), test_limits(), cb, 0);
    bool has;
    steer_steering s = steering_of(cb, w, a, &has);
    CHECK(has && f.calls == 1);
    CHECK_VEC(s.linear, 1, 2, 0);
    CHECK_NEAR(s.angular, 0.5, 0);
    steer_world_step(w, 0.5f);
    steer_steering last = steer_agent_get_last_steering(w, a);
    CHECK_VEC(last.linear, 1, 2, 0);
    CHECK(steer_world_callback_errors(w) == 0);
    // an error: the agent's whole output is zero this step, and it is counted
    f.result = STEER_CALLBACK_ERROR;
    steer_world_step(w, 0.5f);
    last = steer_agent_get_last_steering(w, a);
    CHECK_VEC(last.linear, 0, 0, 0);
    CHECK(steer_world_callback_errors(w) == 1);
    // a NaN from the host never enters the state
    f.result = STEER_CALLBACK_STEERING;
    f.steering.linear.x = NAN;
    steer_kinematic before = steer_agent_get_state(w, a);
    steer_world_step(w, 0.5f);
    steer_kinematic after = steer_agent_get_state(w, a);
    CHECK(steer_vec2_is_finite(after.velocity) && steer_vec2_is_finite(after.position));
    CHECK_VEC(after.velocity, before.velocity.x, before.velocity.y, 0);
    CHECK(steer_world_callback_errors(w) == 1);
    steer_behaviour_release(cb);
    steer_world_destroy(w);
}

// A host behaviour that asks another behaviour for its steering while it is
// evaluated (a Lua behaviour calling sep:get_steering(agent) is the natural
// use): it must not disturb the behaviours evaluated around it.
typedef struct nested_call {
    steer_behaviour *inner;
} nested_call;

static steer_callback_result nested_callback(steer_world *w, steer_agent_id a, float dt, steer_steering *out,
                                             void *context)
{
    nested_call *n = context;
    return steer_behaviour_get_steering(n->inner, w, a, dt, out) ? STEER_CALLBACK_STEERING : STEER_CALLBACK_NONE;
}

static void callback_calling_get_steering(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0, 0, 0, 0);
    spawn(w, 1, 0, 2, 0);
    spawn(w, 0, 3, 0, 2);
    spawn(w, 5, 0, 3, 4);
    spawn(w, -6, 2, 0, -2);
    // alignment (radius 8, time 1): mean velocity of the four = (5,4)/4: (1.25, 1)
    steer_behaviour_def ad = def_of(STEER_ALIGNMENT);
    ad.time_to_target = 1.0f;
    // separation (radius 2, k 1): only (1,0): min(1/1, 10) along (-1,0) = (-1, 0)
    steer_behaviour_def sd = def_of(STEER_SEPARATION);
    sd.decay_coefficient = 1.0f;
    nested_call n = {make(sd)};
    steer_behaviour_def cd = def_of(STEER_CALLBACK);
    cd.callback = nested_callback;
    cd.context = &n;
    steer_behaviour *ali = make(ad);
    steer_steering s = steering_of(ali, w, a, NULL);
    CHECK_VEC(s.linear, 1.25, 1, TOL);
    s = steering_of(n.inner, w, a, NULL);
    CHECK_VEC(s.linear, -1, 0, TOL);
    // blend(alignment, callback(separation), alignment) = 2*(1.25,1) + (-1,0) = (1.5, 2)
    steer_behaviour *b = make_combinator(STEER_BLEND, (steer_behaviour *[]){ali, make(cd), make(ad)}, NULL, 3);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, 1.5, 2, TOL);
    // the same inside a step
    steer_agent_set_behaviour(w, a, b, false);
    steer_world_step(w, 1.0f / 60.0f);
    s = steer_agent_get_last_steering(w, a);
    CHECK_VEC(s.linear, 1.5, 2, TOL);
    steer_behaviour_release(b);
    steer_behaviour_release(n.inner);
    steer_world_destroy(w);

    // the same with collision avoidance, which reads the neighbour list itself.
    // B ahead coming down: r = (0.5,5), v = (0,-2): t = 2.5, separation 0.5:
    // away -(0.5,0) -> (-10, 0). C at (1.5,0.5) passes wide (separation 1.5).
    // blend(avoid r 8, callback(avoid r 2), avoid r 8) = (-10,0) + None + (-10,0)
    // = (-20, 0), clamped to (-10, 0)
    w = make_world(1);
    a = spawn(w, 0, 0, 0, 1);
    spawn(w, 0.5f, 5, 0, -1);
    spawn(w, 1.5f, 0.5f, 0, 0);
    steer_behaviour_def ca = def_of(STEER_COLLISION_AVOIDANCE);
    ca.radius = 2.0f;
    n.inner = make(ca);
    ca.radius = 8.0f;
    steer_behaviour *far = make(ca);
    s = steering_of(far, w, a, NULL);
    CHECK_VEC(s.linear, -10, 0, TOL);
    bool has;
    steering_of(n.inner, w, a, &has);
    CHECK(!has);
    b = make_combinator(STEER_BLEND, (steer_behaviour *[]){far, make(cd), make(ca)}, NULL, 3);
    s = steering_of(b, w, a, NULL);
    CHECK_VEC(s.linear, -10, 0, TOL);
    steer_agent_set_behaviour(w, a, b, false);
    steer_world_step(w, 1.0f / 60.0f);
    s = steer_agent_get_last_steering(w, a);
    CHECK_VEC(s.linear, -10, 0, TOL);
    steer_behaviour_release(b);
    steer_behaviour_release(n.inner);
    steer_world_destroy(w);

    // crowds: the nested call must give the blend exactly what evaluating
    // the same three parts separately gives
    test_rng r = {99};
    int differ = 0;
    for (int trial = 0; trial < 40; ++trial) {
        w = make_world(1);
        a = spawn(w, 0, 0, rng_range(&r, -2, 2), rng_range(&r, -2, 2));
        for (int i = 0; i < 40; ++i)
            spawn(w, rng_range(&r, -9, 9), rng_range(&r, -9, 9), rng_range(&r, -3, 3), rng_range(&r, -3, 3));
        ca.radius = 1.5f + rng_range(&r, 0, 1);
        n.inner = make(ca);
        ca.radius = 8.0f;
        steer_behaviour *outer = make(ca);
        steer_behaviour_def cad = def_of(STEER_ALIGNMENT);
        steer_behaviour *ali2 = make(cad);
        steer_steering p1, p2, p3;
        bool h1 = steer_behaviour_get_steering(outer, w, a, 0.1f, &p1);
        bool h2 = steer_behaviour_get_steering(n.inner, w, a, 0.1f, &p2);
        bool h3 = steer_behaviour_get_steering(ali2, w, a, 0.1f, &p3);
        steer_vec2 expect = {0, 0};
        if (h1) expect = steer_add(expect, p1.linear);
        if (h2) expect = steer_add(expect, p2.linear);
        if (h3) expect = steer_add(expect, p3.linear);
        if (h1) expect = steer_add(expect, p1.linear);
        expect = steer_clamp_length(expect, 10.0f);
        steer_behaviour_retain(outer); // it goes in twice
        b = make_combinator(STEER_BLEND, (steer_behaviour *[]){outer, ali2, make(cd), outer}, NULL, 4);
        s = steering_of(b, w, a, NULL);
        if (fabsf(s.linear.x - expect.x) > 1e-4f || fabsf(s.linear.y - expect.y) > 1e-4f) ++differ;
        steer_behaviour_release(b);
        steer_behaviour_release(n.inner);
        steer_world_destroy(w);
    }
    CHECK(differ == 0);
    if (differ) fprintf(stderr, "  %d of 40 crowds: a nested get_steering changed the blend\n", differ);
}

// A blend of separation, cohesion and alignment only runs as one kernel
// (steer__group_blend); a child with a limit override (here one equal to
// the agent's own limit, which changes nothing) sends it through the loop
// of eval_blend. Both give the same bits, and traced agents the same
// records (neighbour_blend_traced), for every agent of random crowds, for children in any order, radii, weights (negative and zero
// too) and separation's laws; whole worlds stepped both ways keep the
// same hash. The kernel's flag follows set_children and a child's
// set_param.
static steer_behaviour *neighbour_node(steer_behaviour_type type, float radius, int law, float max_acc)
{
    steer_behaviour_def d = def_of(type);
    d.radius = radius;
    if (type == STEER_SEPARATION) d.law = law;
    d.max_acceleration = max_acc;
    return make(d);
}

static void neighbour_blend_is_the_loop(void)
{
    uint64_t rng = 99;
    const steer_behaviour_type types[3] = {STEER_SEPARATION, STEER_COHESION, STEER_ALIGNMENT};
    int compared = 0, differ = 0, hashes_differ = 0, flags_wrong = 0, traced = 0, traces_differ = 0;
    for (int round = 0; round < 24; ++round) {
        steer_world_def wd = steer_default_world_def();
        wd.seed = (uint64_t)round;
        wd.cell_size = 1.0f + (float)(round % 4);
        steer_world *w[2] = {steer_world_create(&wd), steer_world_create(&wd)};
        // the children: 1 to 4 of the three types, in any order
        const int n = 1 + round % 4;
        steer_behaviour *kids[2][4];
        float weights[4];
        for (int i = 0; i < n; ++i) {
            const steer_behaviour_type t = types[(round + i * (1 + round / 8)) % 3];
            const float radius = i == 3 ? 1.5f : 2.0f + (float)(round % 3);
            const int law = (round / 3) % 2 ? STEER_LAW_LINEAR : STEER_LAW_INVERSE_SQUARE;
            weights[i] = i == 2 && round % 5 == 0 ? 0.0f : (round % 7 == 1 && i == 0 ? -0.5f : 0.5f + (float)i);
            kids[0][i] = neighbour_node(t, radius, law, -1.0f);
            // the same node, but for an override equal to the agents' own limit
            kids[1][i] = neighbour_node(t, radius, law, i == 0 ? test_limits().max_acceleration : -1.0f);
        }
        steer_behaviour *b[2] = {make_combinator(STEER_BLEND, kids[0], weights, n),
                                 make_combinator(STEER_BLEND, kids[1], weights, n)};
        flags_wrong += !b[0]->neighbour_blend + b[1]->neighbour_blend;
        const int agents = 150 + 20 * round;
        const float side = 6.0f + (float)(round % 5) * 4.0f;
        for (int k = 0; k < agents; ++k) {
            float x = side * steer__rng_float(&rng), y = side * steer__rng_float(&rng);
            if (k % 23 == 5) x = y = 3.0f; // some at the very same point
            const steer_kinematic st = kin(x, y, 4.0f * steer__rng_float(&rng) - 2.0f,
                                           4.0f * steer__rng_float(&rng) - 2.0f, 0.0f, 0.0f);
            for (int v = 0; v < 2; ++v) {
                steer_agent_id id = spawn_full(w[v], st, test_limits(), b[v], (uint64_t)k + 1);
                // some traced: the kernel records each child as the loop does
                if (k % 7 == 3) steer_agent_set_trace(w[v], id, true);
            }
        }
        for (int step = 0; step < 3; ++step) {
            for (int k = 0; k < agents; ++k) {
                steer_steering s[2];
                bool has[2];
                for (int v = 0; v < 2; ++v) has[v] = steer_behaviour_get_steering(b[v], w[v], steer_world_agent_at(w[v], k), 1.0f / 60.0f, &s[v]);
                ++compared;
                differ += has[0] != has[1] || memcmp(&s[0], &s[1], sizeof s[0]) != 0;
            }
            for (int v = 0; v < 2; ++v) steer_world_step(w[v], 1.0f / 60.0f);
            for (int k = 3; k < agents; k += 7) {
                steer_agent_id id[2] = {steer_world_agent_at(w[0], k), steer_world_agent_at(w[1], k)};
                const int nodes = steer_agent_trace_node_count(w[0], id[0]);
                traces_differ += nodes != 1 + n || nodes != steer_agent_trace_node_count(w[1], id[1]);
                for (int i = 0; i < nodes; ++i) {
                    steer_trace_node t[2];
                    for (int v = 0; v < 2; ++v) steer_agent_trace_node(w[v], id[v], i, &t[v]);
                    ++traced;
                    traces_differ += t[0].type != t[1].type || t[0].depth != t[1].depth ||
                                     t[0].parent != t[1].parent || t[0].child_index != t[1].child_index ||
                                     memcmp(&t[0].weight, &t[1].weight, sizeof t[0].weight) != 0 ||
                                     t[0].has_output != t[1].has_output ||
                                     memcmp(&t[0].output, &t[1].output, sizeof t[0].output) != 0;
                }
            }
        }
        hashes_differ += steer_world_hash(w[0]) != steer_world_hash(w[1]);
        // the flag follows the override: cleared on the child, the parent's kernel again
        const steer_param_info *acc = steer_behaviour_find_param(steer_behaviour_get_type(kids[1][0]), "max_acceleration");
        steer_behaviour_set_param(kids[1][0], acc, -1.0);
        flags_wrong += !b[1]->neighbour_blend;
        steer_behaviour_set_param(kids[1][0], acc, 3.0);
        flags_wrong += b[1]->neighbour_blend;
        // and set_children: a seek among the children is no neighbour blend
        steer_child plain[2] = {{kids[0][0], 1.0f}, {make(def_at(STEER_SEEK, 1, 1)), 1.0f}};
        steer_behaviour_set_children(b[1], plain, 2);
        flags_wrong += b[1]->neighbour_blend;
        steer_behaviour_release(plain[1].behaviour);
        steer_behaviour_set_children(b[1], plain, 1);
        flags_wrong += !b[1]->neighbour_blend;
        for (int v = 0; v < 2; ++v) {
            steer_behaviour_release(b[v]);
            steer_world_destroy(w[v]);
        }
    }
    CHECK(compared > 10000);
    CHECK(differ == 0);
    CHECK(hashes_differ == 0);
    CHECK(flags_wrong == 0);
    CHECK(traced > 3000);
    CHECK(traces_differ == 0);
    if (differ) fprintf(stderr, "  %d of %d steerings differ between the kernel and the loop\n", differ, compared);
    if (traces_differ) fprintf(stderr, "  %d of %d traced nodes differ between the kernel and the loop\n", traces_differ, traced);
}

int main(void)
{
    RUN(blend);
    RUN(priority);
    RUN(nesting);
    RUN(limit_overrides);
    RUN(callbacks);
    RUN(callback_calling_get_steering);
    RUN(neighbour_blend_is_the_loop);
    return TEST_RESULT();
}
