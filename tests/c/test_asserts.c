// Bad input goes to the assert hook and is harmless: a counting hook is
// installed, and every invalid definition or call (NaN, infinity, negative
// radius, slow_radius < target_radius, max_speed = inf, bad cookie, stale
// ids) is counted, refused (NULL / null id / false), and leaves the state
// exactly as it was.
#include "fixture.h"
#include "test.h"

static assert_counter counter;

// Run `stmt`; it must assert exactly once.
#define EXPECT_ASSERT(stmt)                                                              \
    do {                                                                                 \
        int before_ = counter.count;                                                     \
        stmt;                                                                            \
        CHECK(counter.count == before_ + 1);                                             \
        if (counter.count != before_ + 1)                                                \
            fprintf(stderr, "  %s: %d asserts\n", #stmt, counter.count - before_);       \
    } while (0)

#define EXPECT_NO_ASSERT(stmt)                                                           \
    do {                                                                                 \
        int before_ = counter.count;                                                     \
        stmt;                                                                            \
        CHECK(counter.count == before_);                                                 \
    } while (0)

static void world_definitions(void)
{
    steer_world_def d = steer_default_world_def();
    steer_world *w;
    d.cookie = 0;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    d = steer_default_world_def();
    d.cell_size = NAN;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    d.cell_size = INFINITY;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    d.cell_size = -1.0f;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    d = steer_default_world_def();
    d.agent_capacity = -5;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    d = steer_default_world_def();
    d.integrator = (steer_integrator)7;
    EXPECT_ASSERT(w = steer_world_create(&d));
    CHECK(w == NULL);
    EXPECT_ASSERT(w = steer_world_create(NULL));
    CHECK(w == NULL);
    // a valid one, then bad settings on it
    EXPECT_NO_ASSERT(w = make_world(1));
    CHECK(w != NULL);
    EXPECT_ASSERT(steer_world_set_cell_size(w, NAN));
    EXPECT_ASSERT(steer_world_set_cell_size(w, 0.0f));
    CHECK_NEAR(steer_world_get_cell_size(w), 4.0, 0);
    EXPECT_ASSERT(steer_world_set_integrator(w, (steer_integrator)-1));
    CHECK(steer_world_get_integrator(w) == STEER_INTEGRATOR_EULER);
    steer_world_destroy(w);
}

static void agent_definitions(void)
{
    steer_world *w = make_world(1);
    steer_agent_id ok = spawn(w, 1, 2, 0, 0);
    uint64_t h = steer_world_hash(w);
    steer_agent_def good = steer_default_agent_def();
    steer_agent_def d;
    steer_agent_id id;
#define BAD_AGENT(change)                                                                \
    do {                                                                                 \
        d = good;                                                                        \
        change;                                                                          \
        EXPECT_ASSERT(id = steer_agent_create(w, &d));                                   \
        CHECK(steer_agent_id_is_null(id));                                               \
    } while (0)
    BAD_AGENT(d.cookie = 0);
    BAD_AGENT(d.state.position.x = NAN);
    BAD_AGENT(d.state.position.y = INFINITY);
    BAD_AGENT(d.state.velocity.x = -INFINITY);
    BAD_AGENT(d.state.orientation = NAN);
    BAD_AGENT(d.state.rotation = INFINITY);
    BAD_AGENT(d.limits.max_speed = INFINITY);
    BAD_AGENT(d.limits.max_speed = NAN);
    BAD_AGENT(d.limits.max_speed = -1.0f);
    BAD_AGENT(d.limits.radius = -0.5f);
    BAD_AGENT(d.limits.max_acceleration = NAN);
    BAD_AGENT(d.limits.max_rotation = -INFINITY);
    BAD_AGENT(d.limits.max_angular_acceleration = -1.0f);
    BAD_AGENT(d.limits.drag = -0.1f);
    BAD_AGENT(d.limits.drag = NAN);
#undef BAD_AGENT
    EXPECT_ASSERT(id = steer_agent_create(w, NULL));
    CHECK(steer_agent_id_is_null(id));
    // nothing was added or changed
    CHECK(steer_world_agent_count(w) == 1);
    CHECK(steer_world_hash(w) == h);

    // bad writes to a live agent are refused, the agent unchanged
    steer_kinematic k = steer_agent_get_state(w, ok);
    steer_kinematic bad = k;
    bad.velocity.y = NAN;
    EXPECT_ASSERT(steer_agent_set_state(w, ok, &bad));
    EXPECT_ASSERT(steer_agent_set_position(w, ok, steer_v2(INFINITY, 0)));
    EXPECT_ASSERT(steer_agent_set_velocity(w, ok, steer_v2(0, NAN)));
    steer_limits l = steer_agent_get_limits(w, ok);
    steer_limits badl = l;
    badl.max_speed = INFINITY;
    EXPECT_ASSERT(steer_agent_set_limits(w, ok, &badl));
    badl = l;
    badl.radius = -1.0f;
    EXPECT_ASSERT(steer_agent_set_limits(w, ok, &badl));
    steer_kinematic now = steer_agent_get_state(w, ok);
    CHECK(memcmp(&k, &now, sizeof k) == 0);
    steer_limits after = steer_agent_get_limits(w, ok);
    CHECK(memcmp(&l, &after, sizeof l) == 0);
    CHECK(steer_world_hash(w) == h);
    // bad steps are refused
    EXPECT_ASSERT(steer_world_step(w, NAN));
    EXPECT_ASSERT(steer_world_step(w, -1.0f));
    EXPECT_ASSERT(steer_world_step(w, INFINITY));
    CHECK(steer_world_step_count(w) == 0);
    CHECK(steer_world_hash(w) == h);
    steer_world_destroy(w);
}

static void stale_agent_ids(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 1, 2, 3, 0);
    steer_agent_id b = spawn(w, 5, 5, 0, 0);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 0, 0));
    steer_agent_destroy(w, a);
    CHECK(!steer_agent_is_valid(w, a));
    // the slot is reused: the old id stays stale, the new one is different
    steer_agent_id c = spawn(w, 9, 9, 0, 0);
    CHECK(!steer_agent_id_equal(a, c));
    CHECK(!steer_agent_is_valid(w, a));
    uint64_t h = steer_world_hash(w);
    // every use of the stale id asserts once and does nothing
    steer_kinematic k = kin(0, 0, 0, 0, 0, 0);
    steer_limits l = test_limits();
    steer_steering s = {{1, 1}, 1};
    steer_vec2 p = {1, 1};
    EXPECT_ASSERT(p = steer_agent_get_position(w, a));
    CHECK_VEC(p, 0, 0, 0);
    EXPECT_ASSERT(steer_agent_get_state(w, a));
    EXPECT_ASSERT(steer_agent_set_state(w, a, &k));
    EXPECT_ASSERT(steer_agent_set_position(w, a, steer_v2(1, 1)));
    EXPECT_ASSERT(steer_agent_set_velocity(w, a, steer_v2(1, 1)));
    EXPECT_ASSERT(steer_agent_set_limits(w, a, &l));
    EXPECT_ASSERT(steer_agent_set_behaviour(w, a, seek, false));
    EXPECT_ASSERT(steer_agent_set_kinematic(w, a, true));
    EXPECT_ASSERT(steer_agent_get_behaviour(w, a));
    bool has;
    EXPECT_ASSERT(has = steer_behaviour_get_steering(seek, w, a, 0.1f, &s));
    CHECK(!has);
    // removing it again is ignored quietly
    EXPECT_NO_ASSERT(steer_agent_destroy(w, a));
    CHECK(steer_world_agent_count(w) == 2);
    CHECK(steer_world_hash(w) == h);
    // an id from nowhere
    steer_agent_id bogus = {9999, 1};
    EXPECT_ASSERT(steer_agent_get_velocity(w, bogus));
    EXPECT_ASSERT(steer_agent_get_velocity(w, steer_null_agent));
    // the seek behaviour was never retained by the stale id: one reference
    // (ours) plus none; a live agent's target that is removed gives None
    steer_behaviour_set_target(seek, agent_target(a));
    EXPECT_NO_ASSERT(has = steer_behaviour_get_steering(seek, w, b, 0.1f, &s));
    CHECK(!has);
    steer_behaviour_release(seek);
    steer_world_destroy(w);
}

static void behaviour_definitions(void)
{
    steer_behaviour *b;
    steer_behaviour_def d;
#define BAD_BEHAVIOUR(type, change)                                                      \
    do {                                                                                 \
        d = steer_default_behaviour_def(type);                                           \
        change;                                                                          \
        EXPECT_ASSERT(b = steer_behaviour_create(&d));                                   \
        CHECK(b == NULL);                                                                \
    } while (0)
    BAD_BEHAVIOUR(STEER_SEEK, d.cookie = 0);
    BAD_BEHAVIOUR(STEER_SEEK, d.type = STEER_BEHAVIOUR_TYPE_COUNT);
    BAD_BEHAVIOUR(STEER_SEEK, d.target = point_target(NAN, 0));
    BAD_BEHAVIOUR(STEER_SEEK, d.target = point_target(0, INFINITY));
    BAD_BEHAVIOUR(STEER_SEEK, d.max_speed = INFINITY);
    BAD_BEHAVIOUR(STEER_SEEK, d.max_acceleration = NAN);
    BAD_BEHAVIOUR(STEER_ARRIVE, d.target_radius = NAN);
    BAD_BEHAVIOUR(STEER_ARRIVE, d.slow_radius = INFINITY);
    BAD_BEHAVIOUR(STEER_ARRIVE, d.target_radius = -1.0f);
    BAD_BEHAVIOUR(STEER_ARRIVE, d.slow_radius = -3.0f);
    BAD_BEHAVIOUR(STEER_ARRIVE, (d.target_radius = 2.0f, d.slow_radius = 1.0f)); // slow < target
    BAD_BEHAVIOUR(STEER_ARRIVE, d.time_to_target = 0.0f);
    BAD_BEHAVIOUR(STEER_ARRIVE, d.time_to_target = -0.1f);
    BAD_BEHAVIOUR(STEER_ALIGN, d.orientation = NAN);
    BAD_BEHAVIOUR(STEER_ALIGN, (d.target_radius = 0.6f, d.slow_radius = 0.5f));
    BAD_BEHAVIOUR(STEER_FACE, d.slow_radius = 0.0f);
    BAD_BEHAVIOUR(STEER_KINEMATIC_ARRIVE, d.radius = -1.0f);
    BAD_BEHAVIOUR(STEER_KINEMATIC_ARRIVE, d.time_to_target = INFINITY);
    BAD_BEHAVIOUR(STEER_SEPARATION, d.radius = -2.0f);
    BAD_BEHAVIOUR(STEER_SEPARATION, d.radius = 0.0f);
    BAD_BEHAVIOUR(STEER_SEPARATION, d.decay_coefficient = NAN);
    BAD_BEHAVIOUR(STEER_SEPARATION, d.law = (steer_separation_law)5);
    BAD_BEHAVIOUR(STEER_COHESION, d.radius = INFINITY);
    BAD_BEHAVIOUR(STEER_COLLISION_AVOIDANCE, (d.use_cone = true, d.cone_threshold = 1.5f));
    BAD_BEHAVIOUR(STEER_FLEE, (d.use_panic_radius = true, d.panic_radius = 0.0f));
    BAD_BEHAVIOUR(STEER_EVADE, (d.use_panic_radius = true, d.panic_radius = NAN));
    BAD_BEHAVIOUR(STEER_PURSUE, d.max_prediction = 0.0f);
    BAD_BEHAVIOUR(STEER_EVADE, d.max_prediction = NAN);
    BAD_BEHAVIOUR(STEER_WANDER, d.wander_radius = -1.0f);
    BAD_BEHAVIOUR(STEER_WANDER, d.wander_rate = INFINITY);
    BAD_BEHAVIOUR(STEER_WANDER, d.wander_offset = NAN);
    BAD_BEHAVIOUR(STEER_FOLLOW_PATH, d.path_offset = INFINITY);
    BAD_BEHAVIOUR(STEER_FOLLOW_PATH, d.predict_time = -1.0f);
    BAD_BEHAVIOUR(STEER_PRIORITY, d.epsilon = NAN);
    BAD_BEHAVIOUR(STEER_PRIORITY, d.epsilon = -1.0f);
    BAD_BEHAVIOUR(STEER_CALLBACK, d.callback = NULL);
    BAD_BEHAVIOUR(STEER_BLEND, (d.child_count = 2, d.children = NULL));
    BAD_BEHAVIOUR(STEER_BLEND, d.child_count = -1);
    steer_behaviour *seek = make(def_of(STEER_SEEK));
    BAD_BEHAVIOUR(STEER_BLEND, (d.children = (steer_child[]){{seek, NAN}}, d.child_count = 1));
    BAD_BEHAVIOUR(STEER_BLEND, (d.children = (steer_child[]){{NULL, 1}}, d.child_count = 1));
#undef BAD_BEHAVIOUR
    EXPECT_ASSERT(b = steer_behaviour_create(NULL));
    CHECK(b == NULL);
    // the valid edge: slow_radius == target_radius, a negative override (inherit)
    d = steer_default_behaviour_def(STEER_ARRIVE);
    d.target_radius = d.slow_radius = 1.0f;
    d.max_speed = -7.0f;
    EXPECT_NO_ASSERT(b = steer_behaviour_create(&d));
    CHECK(b != NULL);

    // live parameters: a bad value is refused and the old one kept
    const steer_param_info *sr = steer_behaviour_find_param(STEER_ARRIVE, "slow_radius");
    const steer_param_info *tr = steer_behaviour_find_param(STEER_ARRIVE, "target_radius");
    const steer_param_info *ms = steer_behaviour_find_param(STEER_ARRIVE, "max_speed");
    CHECK(sr != NULL && tr != NULL && ms != NULL);
    bool ok;
    EXPECT_ASSERT(ok = steer_behaviour_set_param(b, sr, NAN));
    CHECK(!ok);
    EXPECT_ASSERT(ok = steer_behaviour_set_param(b, sr, 0.5)); // below target_radius 1
    CHECK(!ok);
    EXPECT_ASSERT(ok = steer_behaviour_set_param(b, tr, 2.0)); // above slow_radius 1
    CHECK(!ok);
    EXPECT_ASSERT(ok = steer_behaviour_set_param(b, ms, INFINITY));
    CHECK(!ok);
    EXPECT_ASSERT(ok = steer_behaviour_set_param(b, sr, 1e39)); // not a float
    CHECK(!ok);
    CHECK_NEAR(steer_behaviour_get_param(b, sr), 1.0, 0);
    CHECK_NEAR(steer_behaviour_get_param(b, tr), 1.0, 0);
    CHECK_NEAR(steer_behaviour_get_param(b, ms), -7.0, 0); // unchanged (any negative inherits)
    char buf[128];
    CHECK(steer_param_check(steer_behaviour_get_def(b), sr, 0.5, buf, sizeof buf) != NULL);
    CHECK(steer_param_check(steer_behaviour_get_def(b), sr, 4.0, buf, sizeof buf) == NULL);
    // a bad target
    EXPECT_ASSERT(steer_behaviour_set_target(b, point_target(NAN, 1)));
    CHECK(steer_behaviour_get_def(b)->target.kind == STEER_TARGET_NONE);
    steer_behaviour_release(b);
    steer_behaviour_release(seek);
}

static void path_definitions(void)
{
    steer_path_def d = steer_default_path_def();
    const steer_vec2 good[] = {{0, 0}, {1, 0}, {1, 1}};
    const steer_vec2 nan_pt[] = {{0, 0}, {NAN, 0}};
    const steer_vec2 inf_pt[] = {{0, 0}, {0, -INFINITY}};
    const steer_vec2 repeat[] = {{0, 0}, {1, 0}, {1, 0}};
    steer_path *p;
    d.points = good;
    d.count = 3;
    d.cookie = 0;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    d = steer_default_path_def();
    d.points = good;
    d.count = 1;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    d.count = 2;
    d.points = nan_pt;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    d.points = inf_pt;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    d.points = repeat;
    d.count = 3;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    d.points = NULL;
    EXPECT_ASSERT(p = steer_path_create(&d));
    CHECK(p == NULL);
    // queries with bad numbers
    d.points = good;
    EXPECT_NO_ASSERT(p = steer_path_create(&d));
    steer_vec2 at;
    EXPECT_ASSERT(at = steer_path_position(p, NAN));
    CHECK(steer_vec2_is_finite(at));
    float param;
    EXPECT_ASSERT(param = steer_path_param(p, steer_v2(NAN, 0), -1, 0));
    CHECK(isfinite(param));
    steer_path_release(p);
}

static void harmless_in_a_running_world(void)
{
    // after all the refusals a world still runs normally
    steer_world *w = make_world(1);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 10, 0));
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, 0, 0), test_limits(), seek, 0);
    steer_agent_def bad = steer_default_agent_def();
    bad.limits.max_speed = INFINITY;
    bad.behaviour = seek;
    EXPECT_ASSERT(steer_agent_create(w, &bad));
    for (int i = 0; i < 30; ++i) steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_agent_get_position(w, a).x > 0.0f);
    CHECK(steer_world_agent_count(w) == 1);
    steer_behaviour_release(seek);
    steer_world_destroy(w); // the refused agent never retained `seek`: no leak, no double free
}

int main(void)
{
    steer_set_assert_fn(counting_assert, &counter);
    RUN(world_definitions);
    RUN(agent_definitions);
    RUN(stale_agent_ids);
    RUN(behaviour_definitions);
    RUN(path_definitions);
    RUN(harmless_in_a_running_world);
    return TEST_RESULT();
}
