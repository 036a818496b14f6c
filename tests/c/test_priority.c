// Avoidance priority (agent priority, reciprocal.c priority_share): of two
// avoiders the lower takes more of the avoidance, all of it against one at
// least ORCA_PRIORITY_SPAN (1) higher; a standing crowd opens for a
// high-priority agent and closes behind it.
#include "fixture.h"
#include "test.h"

static const float DT = 1.0f / 60.0f;

static bool same_steering(steer_steering a, steer_steering b)
{
    return a.linear.x == b.linear.x && a.linear.y == b.linear.y && a.angular == b.angular;
}

/* ---- two avoiders -------------------------------------------------------------------- */

// Two avoiders nearly head-on with priorities pa and pb: a's and b's steering.
static void head_on(float pa, float pb, bool b_avoids, steer_steering *sa, steer_steering *sb)
{
    steer_behaviour *east = orca_around(make(def_at(STEER_SEEK, 20.0f, 0.0f)), 5.0f);
    steer_behaviour *west = orca_around(make(def_at(STEER_SEEK, -20.0f, 0.0f)), 5.0f);
    steer_world *w = make_world(9);
    // (acceleration unbounded in effect: the steering is the chosen velocity's change, not clamped)
    steer_limits lim = test_limits();
    lim.max_acceleration = 1e4f;
    steer_agent_id a = spawn_full(w, kin(0, 0, 3, 0, 0, 0), lim, east, 1);
    steer_agent_id b = spawn_full(w, kin(3, 0.2f, -3, 0, 0, 0), lim, b_avoids ? west : NULL, 2);
    steer_agent_set_priority(w, a, pa);
    steer_agent_set_priority(w, b, pb);
    steer_world_step(w, 0.0f); // who avoids
    bool has;
    *sa = steering_of(east, w, a, &has);
    CHECK(has);
    *sb = steering_of(west, w, b, &has);
    steer_world_destroy(w);
    steer_behaviour_release(east);
    steer_behaviour_release(west);
}

static void the_lower_priority_takes_more(void)
{
    steer_steering equal_a, equal_b, low_a, high_b, alone_a, unused, half_a, half_b;
    head_on(0.0f, 0.0f, true, &equal_a, &equal_b);
    head_on(0.0f, 5.0f, true, &low_a, &high_b);
    head_on(0.0f, 0.0f, false, &alone_a, &unused); // b does not avoid: a takes all of it
    head_on(-0.25f, 0.25f, true, &half_a, &half_b);
    // against a much higher one, all of it: as against one that does not avoid
    CHECK(same_steering(low_a, alone_a));
    CHECK(!same_steering(low_a, equal_a));
    // sideways (y) steering: the lower dodges harder, the higher less, in between between
    printf("  sideways steering: equal %.3f / %.3f; half a span apart %.3f / %.3f; 5 apart %.3f / %.3f\n",
           equal_a.linear.y, equal_b.linear.y, half_a.linear.y, half_b.linear.y, low_a.linear.y, high_b.linear.y);
    CHECK(fabsf(low_a.linear.y) > fabsf(half_a.linear.y) && fabsf(half_a.linear.y) > fabsf(equal_a.linear.y));
    CHECK(fabsf(high_b.linear.y) < fabsf(half_b.linear.y) && fabsf(half_b.linear.y) < fabsf(equal_b.linear.y));
    // only the difference counts
    steer_steering shifted_a, shifted_b;
    head_on(100.0f, 105.0f, true, &shifted_a, &shifted_b);
    CHECK(same_steering(shifted_a, low_a) && same_steering(shifted_b, high_b));
    // extreme priorities are fine (the difference overflows to infinity, not NaN)
    steer_steering far_a, far_b;
    head_on(-3e38f, 3e38f, true, &far_a, &far_b);
    CHECK(same_steering(far_a, alone_a));
    CHECK(steer_vec2_is_finite(far_b.linear));
}

static void priority_reads_back_and_bad_ones_are_refused(void)
{
    steer_world *w = make_world(1);
    steer_agent_def d = steer_default_agent_def();
    CHECK(d.priority == 0.0f);
    d.priority = 2.5f;
    steer_agent_id a = steer_agent_create(w, &d);
    CHECK(steer_agent_get_priority(w, a) == 2.5f && w->prioritised == 1);
    steer_agent_set_priority(w, a, 0.0f);
    CHECK(w->prioritised == 0);
    assert_counter counter = {0, ""};
    steer_set_assert_fn(counting_assert, &counter);
    steer_agent_set_priority(w, a, NAN);
    steer_agent_set_priority(w, a, INFINITY);
    d.priority = NAN;
    CHECK(steer_agent_id_is_null(steer_agent_create(w, &d)));
    CHECK(counter.count == 3);
    steer_set_assert_fn(NULL, NULL);
    CHECK(steer_agent_get_priority(w, a) == 0.0f);
    steer_agent_set_priority(w, a, -7.0f);
    steer_agent_destroy(w, a);
    CHECK(w->prioritised == 0);
    steer_world_destroy(w);
}

/* ---- scenario: through a standing crowd ----------------------------------------------- */

enum { SIDE = 10, CROWD = SIDE * SIDE };

typedef struct crossing {
    float max_overlap;   ///< deepest overlap of any pair, m
    float max_vip_overlap;
    int through_step;    ///< the step the priority agent left the crowd behind (-1: never)
    int rest_step;       ///< the first step after it from which the crowd stays at rest (-1: never)
    float max_displaced; ///< furthest a crowd member was from its spot, m
    float max_swerve;    ///< furthest the priority agent was from its lane, m
} crossing;

// A 10 x 10 crowd standing on spots 1.6 m apart, each arriving at its own
// spot; an agent of priority `priority` walks through it along y = lane,
// through the middle row.
static crossing cross_crowd(uint64_t seed, float priority, int workers)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = seed;
    wd.worker_count = workers;
    steer_world *w = steer_world_create(&wd);
    test_rng rng = {seed * 104729u + 3u};
    steer_limits lim = test_limits();
    lim.radius = 0.4f;
    lim.max_speed = 1.5f;
    lim.max_acceleration = 6.0f;
    steer_agent_id crowd[CROWD];
    steer_vec2 spot[CROWD];
    for (int i = 0; i < CROWD; ++i) {
        spot[i] = steer_v2(-7.2f + 1.6f * (float)(i % SIDE) + rng_range(&rng, -0.1f, 0.1f),
                           -7.2f + 1.6f * (float)(i / SIDE) + rng_range(&rng, -0.1f, 0.1f));
        steer_behaviour_def arrive = def_at(STEER_ARRIVE, spot[i].x, spot[i].y);
        arrive.target_radius = 0.05f;
        arrive.slow_radius = 1.5f;
        arrive.time_to_target = 0.25f;
        steer_behaviour *b = orca_around(make(arrive), 5.0f);
        crowd[i] = spawn_full(w, kin(spot[i].x, spot[i].y, 0, 0, 0, 0), lim, b, (uint64_t)(i + 1));
        steer_behaviour_release(b);
    }
    // through a row of the crowd (the row at y = 0.8), not between two
    float lane = 0.8f + rng_range(&rng, -0.3f, 0.3f);
    steer_behaviour_def goal = def_at(STEER_ARRIVE, 30.0f, lane);
    steer_behaviour *vb = orca_around(make(goal), 5.0f);
    steer_limits vip_lim = lim;
    vip_lim.max_speed = 1.2f;
    steer_agent_id vip = spawn_full(w, kin(-16.0f, lane, 0, 0, 0, 0), vip_lim, vb, 1000);
    steer_behaviour_release(vb);
    steer_agent_set_priority(w, vip, priority);

    crossing c = {0.0f, 0.0f, -1, -1, 0.0f, 0.0f};
    const int steps = 60 * 60;
    for (int step = 0; step < steps; ++step) {
        steer_world_step(w, DT);
        steer_vec2 pv = steer_agent_get_position(w, vip);
        if (pv.x < 8.0f) c.max_swerve = steer_maxf(c.max_swerve, steer_absf(pv.y - lane));
        bool rest = true;
        for (int i = 0; i < CROWD; ++i) {
            steer_kinematic s = steer_agent_get_state(w, crowd[i]);
            c.max_displaced = steer_maxf(c.max_displaced, steer_distance(s.position, spot[i]));
            rest = rest && steer_length(s.velocity) < 0.05f && steer_distance(s.position, spot[i]) < 0.25f;
            float vo = 0.8f - steer_distance(s.position, pv);
            c.max_vip_overlap = steer_maxf(c.max_vip_overlap, vo);
            for (int j = i + 1; j < CROWD; ++j) {
                float o = 0.8f - steer_distance(s.position, steer_agent_get_position(w, crowd[j]));
                c.max_overlap = steer_maxf(c.max_overlap, o);
            }
        }
        c.max_overlap = steer_maxf(c.max_overlap, c.max_vip_overlap);
        if (c.through_step < 0 && pv.x > 7.2f + 0.8f) c.through_step = step;
        if (c.through_step >= 0) {
            if (!rest) c.rest_step = -1;
            else if (c.rest_step < 0) c.rest_step = step;
        }
    }
    steer_world_destroy(w);
    return c;
}

static void a_standing_crowd_opens_for_a_high_priority_agent(void)
{
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        crossing c = cross_crowd(seed, 10.0f, 1);
        float rest_after = c.rest_step >= 0 ? (float)(c.rest_step - c.through_step) * DT : INFINITY;
        printf("  seed %d: through at %.1f s, crowd at rest %.1f s after, deepest overlap %.1f cm (with it %.1f cm), "
               "crowd moved up to %.2f m, it swerved up to %.2f m\n",
               (int)seed, (float)c.through_step * DT, rest_after, 100.0f * c.max_overlap, 100.0f * c.max_vip_overlap,
               c.max_displaced, c.max_swerve);
        CHECK(c.through_step >= 0);
        CHECK(c.max_overlap <= 0.05f);
        CHECK(c.rest_step >= 0 && rest_after <= 10.0f);
        CHECK(c.max_displaced > 0.4f); // it did open
        CHECK(c.max_swerve < 0.05f);   // for the agent to keep its lane
    }
}

// The same agent without priority: for the comparison (printed), and the
// crossing with priority is the same bits on two workers.
static void without_priority_and_on_two_workers(void)
{
    crossing plain = cross_crowd(1, 0.0f, 1);
    printf("  no priority: through at %.1f s (-1: never in 60 s), deepest overlap %.1f cm, swerved up to %.2f m\n",
           plain.through_step >= 0 ? (float)plain.through_step * DT : -1.0f, 100.0f * plain.max_overlap,
           plain.max_swerve);
    crossing one = cross_crowd(2, 10.0f, 1), two = cross_crowd(2, 10.0f, 2);
    CHECK(memcmp(&one, &two, sizeof one) == 0);
}

int main(void)
{
    RUN(the_lower_priority_takes_more);
    RUN(priority_reads_back_and_bad_ones_are_refused);
    RUN(a_standing_crowd_opens_for_a_high_priority_agent);
    RUN(without_priority_and_on_two_workers);
    return TEST_RESULT();
}
