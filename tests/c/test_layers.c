// Layers, masks and floors (docs/engine.md, layers and floors): every
// consumer of other agents and of shapes takes only what the agent sees.
// Each test runs its consumer three ways: the other agent or shape in
// view, hidden by the mask (its layer outside the observer's mask), and
// hidden by the floor (its vertical extent apart from the observer's).
// Hidden must give what the consumer gives with nothing there; in view
// must not (so each test fails where the filter is ignored).
#include "fixture.h"
#include "test.h"

#include "geometry.h"
#include "raycast.h"

static const float DT = 1.0f / 60.0f;

enum { IN_VIEW, BY_MASK, BY_FLOOR, HOW_COUNT };
static const char *const how_names[] = {"in view", "by mask", "by floor"};

// Hide `other` from `observer` (agents) the given way.
static void hide_agent(steer_world *w, steer_agent_id observer, steer_agent_id other, int how)
{
    if (how == BY_MASK) {
        steer_agent_set_layer(w, other, 4u);
        steer_agent_set_mask(w, observer, 1u | 2u);
    } else if (how == BY_FLOOR) {
        steer_agent_set_extent(w, observer, 0.0f, 2.0f);
        steer_agent_set_extent(w, other, 3.0f, 2.0f);
    }
}

// Hide a shape from an observer the given way.
static void hide_shape(steer_world *w, steer_agent_id observer, steer_shape_id shape, int how)
{
    if (how == BY_MASK) {
        steer_shape_set_category(w, shape, 8u);
        steer_agent_set_mask(w, observer, 1u);
    } else if (how == BY_FLOOR) {
        steer_agent_set_extent(w, observer, 0.0f, 2.0f);
        steer_shape_set_extent(w, shape, 2.5f, 3.0f);
    }
}

static bool same_steering(steer_steering a, steer_steering b)
{
    return a.linear.x == b.linear.x && a.linear.y == b.linear.y && a.angular == b.angular;
}

/* ---- neighbours: separation, cohesion, alignment, collision avoidance --------------- */

// The agent's steering from b with a neighbour in view or hidden, against
// the same with the neighbour moved far away.
static void check_neighbour_consumer(steer_behaviour_type type)
{
    steer_behaviour_def d = def_of(type);
    d.radius = 4.0f;
    steer_behaviour *b = make(d);
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world *w = make_world(3);
        steer_agent_id a = spawn_full(w, kin(0, 0, 2, 0, 0, 0), test_limits(), b, 1);
        // ahead, coming at it: every one of the four reacts
        steer_agent_id n = spawn_full(w, kin(1.5f, 0.2f, -2, 0.5f, 0, 0), test_limits(), NULL, 2);
        hide_agent(w, a, n, how);
        bool has, alone_has;
        steer_steering s = steering_of(b, w, a, &has);
        steer_agent_set_position(w, n, steer_v2(500.0f, 500.0f));
        steer_steering alone = steering_of(b, w, a, &alone_has);
        if (how == IN_VIEW) {
            CHECK(has);
            CHECK(!alone_has || !same_steering(s, alone));
        } else {
            if (has != alone_has || (has && !same_steering(s, alone)))
                printf("  %s, hidden %s: the neighbour was seen\n", steer_behaviour_type_name(type), how_names[how]);
            CHECK(has == alone_has);
            CHECK(!has || same_steering(s, alone));
        }
        steer_world_destroy(w);
    }
    steer_behaviour_release(b);
}

static void separation_sees_only_its_layers_and_floor(void) { check_neighbour_consumer(STEER_SEPARATION); }
static void cohesion_sees_only_its_layers_and_floor(void) { check_neighbour_consumer(STEER_COHESION); }
static void alignment_sees_only_its_layers_and_floor(void) { check_neighbour_consumer(STEER_ALIGNMENT); }
static void collision_avoidance_sees_only_its_layers_and_floor(void)
{
    check_neighbour_consumer(STEER_COLLISION_AVOIDANCE);
}

// A coincident neighbour (separation's tie-break pass) is filtered too.
static void separation_ignores_a_hidden_coincident_neighbour(void)
{
    steer_behaviour_def d = def_of(STEER_SEPARATION);
    d.radius = 2.0f;
    steer_behaviour *b = make(d);
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world *w = make_world(3);
        steer_agent_id a = spawn_full(w, kin(1, 1, 0, 0, 0, 0), test_limits(), b, 1);
        steer_agent_id n = spawn_full(w, kin(1, 1, 0, 0, 0, 0), test_limits(), NULL, 2);
        hide_agent(w, a, n, how);
        bool has;
        steering_of(b, w, a, &has);
        CHECK(has == (how == IN_VIEW));
        steer_world_destroy(w);
    }
    steer_behaviour_release(b);
}

/* ---- reciprocal avoidance ------------------------------------------------------------ */

static steer_behaviour *make_orca_seek(float x, float y) { return orca_around(make(def_at(STEER_SEEK, x, y)), 6.0f); }

static void reciprocal_avoidance_sees_only_its_layers_and_floor(void)
{
    steer_behaviour *b = make_orca_seek(20.0f, 0.0f);
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world *w = make_world(5);
        steer_agent_id a = spawn_full(w, kin(0, 0, 3, 0, 0, 0), test_limits(), b, 1);
        steer_agent_id n = spawn_full(w, kin(2.5f, 0.1f, 0, 0, 0, 0), test_limits(), NULL, 2);
        hide_agent(w, a, n, how);
        bool has, alone_has;
        steer_steering s = steering_of(b, w, a, &has);
        steer_agent_set_position(w, n, steer_v2(500.0f, 500.0f));
        steer_steering alone = steering_of(b, w, a, &alone_has);
        CHECK(has && alone_has);
        CHECK(same_steering(s, alone) == (how != IN_VIEW));
        steer_world_destroy(w);
    }
    steer_behaviour_release(b);
}

// Seeing is one-way: an avoider whose neighbour does not see it (the
// neighbour's mask misses its layer) takes all of the avoidance, as against
// an agent that does not avoid; one it sees back shares it.
static void reciprocal_avoidance_takes_all_from_one_that_does_not_see_it(void)
{
    steer_behaviour *b = make_orca_seek(20.0f, 0.0f);
    steer_behaviour *other = make_orca_seek(-20.0f, 0.0f);
    steer_steering out[3];
    for (int k = 0; k < 3; ++k) {
        steer_world *w = make_world(5);
        steer_agent_id a = spawn_full(w, kin(0, 0, 3, 0, 0, 0), test_limits(), b, 1);
        // head-on: k 0 avoids and sees a, k 1 avoids but does not see a, k 2 does not avoid
        steer_agent_id n = spawn_full(w, kin(3.0f, 0.1f, -3, 0, 0, 0), test_limits(), k < 2 ? other : NULL, 2);
        if (k == 1) steer_agent_set_mask(w, n, 2u);
        steer_world_step(w, 0.0f); // the flags of who avoids
        bool has;
        out[k] = steering_of(b, w, a, &has);
        CHECK(has);
        steer_world_destroy(w);
    }
    CHECK(!same_steering(out[0], out[1]));
    CHECK(same_steering(out[1], out[2]));
    steer_behaviour_release(b);
    steer_behaviour_release(other);
}

// Its half-planes of static geometry too.
static void reciprocal_avoidance_sees_only_its_shapes(void)
{
    steer_behaviour *b = make_orca_seek(20.0f, 0.0f);
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world *w = make_world(5);
        steer_agent_id a = spawn_full(w, kin(0, 0, 3, 0, 0, 0), test_limits(), b, 1);
        steer_shape_id box = steer_world_add_box(w, steer_v2(2.0f, -1.0f), steer_v2(3.0f, 1.0f));
        hide_shape(w, a, box, how);
        bool has, alone_has;
        steer_steering s = steering_of(b, w, a, &has);
        steer_shape_destroy(w, box);
        steer_steering alone = steering_of(b, w, a, &alone_has);
        CHECK(has && alone_has);
        CHECK(same_steering(s, alone) == (how != IN_VIEW));
        steer_world_destroy(w);
    }
    steer_behaviour_release(b);
}

/* ---- contacts -------------------------------------------------------------------------- */

// resolve_agent_contacts: an overlapping pair is pushed apart only where
// each sees the other; one-way, only the one that sees moves.
static void agent_contacts_push_only_what_is_seen(void)
{
    for (int how = 0; how <= HOW_COUNT; ++how) {
        steer_world_def wd = steer_default_world_def();
        wd.resolve_agent_contacts = true;
        steer_world *w = steer_world_create(&wd);
        steer_agent_id a = spawn(w, 0.0f, 0.0f, 0, 0);
        steer_agent_id n = spawn(w, 0.5f, 0.0f, 0, 0);
        if (how < HOW_COUNT) {
            hide_agent(w, a, n, how);
            hide_agent(w, n, a, how);
        } else {
            steer_agent_set_mask(w, n, 2u); // one-way: a sees n, n does not see a
        }
        steer_world_step(w, DT);
        steer_vec2 pa = steer_agent_get_position(w, a), pn = steer_agent_get_position(w, n);
        if (how == IN_VIEW) {
            CHECK(steer_distance(pa, pn) > 0.99f);
        } else if (how < HOW_COUNT) {
            CHECK(pa.x == 0.0f && pn.x == 0.5f);
        } else {
            CHECK(pa.x < 0.0f && pn.x == 0.5f);
        }
        steer_world_destroy(w);
    }
}

// resolve_contacts: an agent inside a shape is pushed out only if it sees it.
static void shape_contacts_push_only_out_of_what_is_seen(void)
{
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world_def wd = steer_default_world_def();
        wd.resolve_contacts = true;
        steer_world *w = steer_world_create(&wd);
        steer_agent_id a = spawn(w, 0.0f, 0.0f, 0, 0);
        steer_shape_id box = steer_world_add_box(w, steer_v2(0.2f, -1.0f), steer_v2(2.0f, 1.0f));
        hide_shape(w, a, box, how);
        steer_world_step(w, DT);
        float x = steer_agent_get_position(w, a).x;
        CHECK(how == IN_VIEW ? x < -0.29f : x == 0.0f);
        steer_world_destroy(w);
    }
}

/* ---- rays ------------------------------------------------------------------------------ */

// obstacle_avoidance against one shape, in view or hidden the three ways:
// it steers only when it sees the shape. inside: the agent stands still
// inside a box (no ray goes anywhere: only escape, which seeks out through
// the nearest boundary, x = 2); else it walks at a wall (the rays and the
// probes for a side).
static void check_obstacle_consumer(bool inside)
{
    steer_behaviour_def d = def_of(STEER_OBSTACLE_AVOIDANCE);
    d.lookahead = 5.0f;
    d.rays = STEER_RAYS_WHISKERS;
    steer_behaviour *b = make(d);
    for (int how = 0; how < HOW_COUNT; ++how) {
        steer_world *w = make_world(1);
        steer_agent_id a = spawn(w, inside ? 0.5f : 0.0f, 0.0f, inside ? 0.0f : 3.0f, 0.0f);
        steer_shape_id shape = inside ? steer_world_add_box(w, steer_v2(-2.0f, -2.0f), steer_v2(2.0f, 2.0f))
                                      : steer_world_add_segment(w, steer_v2(3.0f, -4.0f), steer_v2(3.0f, 4.0f));
        hide_shape(w, a, shape, how);
        bool has;
        steer_steering s = steering_of(b, w, a, &has);
        CHECK(has == (how == IN_VIEW));
        if (inside && how == IN_VIEW) CHECK(s.linear.x > 0.0f);
        steer_world_destroy(w);
    }
    steer_behaviour_release(b);
}

static void obstacle_avoidance_rays_hit_only_what_is_seen(void) { check_obstacle_consumer(false); }
static void obstacle_avoidance_escapes_only_what_is_seen(void) { check_obstacle_consumer(true); }

// What steer_world_raycast_all reports to its callback: the hits, counted
// per shape and agent of world_raycast_takes_a_mask_and_a_band.
typedef struct all_hits {
    steer_shape_id near, far;
    steer_agent_id agent;
    int near_hits, far_hits, agent_hits, others;
} all_hits;

static float collect_hit(const steer_ray_hit *hit, void *context)
{
    all_hits *all = context;
    if (steer_shape_id_equal(hit->shape, all->near)) ++all->near_hits;
    else if (steer_shape_id_equal(hit->shape, all->far)) ++all->far_hits;
    else if (steer_agent_id_equal(hit->agent, all->agent)) ++all->agent_hits;
    else ++all->others;
    return 10.0f; // the cast's max_distance: keep every hit
}

static all_hits cast_all(steer_world *w, steer_shape_id near, steer_shape_id far, steer_agent_id agent,
                         const steer_ray_filter *f)
{
    all_hits all = {near, far, agent, 0, 0, 0, 0};
    steer_world_raycast_all(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, f, collect_hit, &all);
    return all;
}

// steer_world_raycast and raycast_all: the filter's mask takes shapes and
// agents by layer, its band by vertical extent.
static void world_raycast_takes_a_mask_and_a_band(void)
{
    steer_world *w = make_world(1);
    steer_shape_id near = steer_world_add_segment(w, steer_v2(2.0f, -1.0f), steer_v2(2.0f, 1.0f));
    steer_shape_id far = steer_world_add_segment(w, steer_v2(6.0f, -1.0f), steer_v2(6.0f, 1.0f));
    steer_agent_id agent = spawn(w, 4.0f, 0.0f, 0, 0);
    steer_shape_set_category(w, near, 2u);
    steer_shape_set_extent(w, far, 1.0f, 1.0f);
    steer_agent_set_layer(w, agent, 4u);
    steer_agent_set_extent(w, agent, 5.0f, 1.0f);
    steer_ray_filter f = steer_default_ray_filter();
    f.include_agents = true;
    steer_ray_hit h;
    // everything
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h) && steer_shape_id_equal(h.shape, near));
    // mask: not layer 2
    f.mask = ~2u;
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h) && steer_agent_id_equal(h.agent, agent));
    f.mask = 1u;
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h) && steer_shape_id_equal(h.shape, far));
    // band [0, 0.5]: the far wall ([1, 2]) and the agent ([5, 6]) are above it
    f = steer_default_ray_filter();
    f.include_agents = true;
    f.mask = ~2u;
    f.z_min = 0.0f, f.z_max = 0.5f;
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h));
    f.z_max = 1.0f; // touching the far wall's extent counts
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h) && steer_shape_id_equal(h.shape, far));
    // raycast_all: the same filters, every hit they pass (segments are hit
    // on both faces: once or twice each)
    f = steer_default_ray_filter();
    f.include_agents = true;
    all_hits all = cast_all(w, near, far, agent, &f);
    CHECK(all.near_hits > 0 && all.far_hits > 0 && all.agent_hits == 1 && all.others == 0);
    f.mask = ~2u;
    all = cast_all(w, near, far, agent, &f);
    CHECK(all.near_hits == 0 && all.far_hits > 0 && all.agent_hits == 1 && all.others == 0);
    f.z_min = 0.0f, f.z_max = 1.0f; // the agent ([5, 6]) is above the band
    all = cast_all(w, near, far, agent, &f);
    CHECK(all.near_hits == 0 && all.far_hits > 0 && all.agent_hits == 0 && all.others == 0);
    // a band upside down is refused
    assert_counter counter = {0, ""};
    steer_set_assert_fn(counting_assert, &counter);
    f.z_min = 2.0f;
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), 10.0f, &f, &h));
    CHECK(counter.count == 1);
    steer_set_assert_fn(NULL, NULL);
    steer_world_destroy(w);
}

/* ---- queries ----------------------------------------------------------------------------- */

static void world_query_takes_a_mask_and_a_band(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0.0f, 0.0f, 0, 0);
    steer_agent_id b = spawn(w, 1.0f, 0.0f, 0, 0);
    steer_agent_id c = spawn(w, 0.0f, 1.0f, 0, 0);
    steer_agent_set_layer(w, b, 2u);
    steer_agent_set_extent(w, c, 3.0f, 1.0f);
    steer_agent_id out[8];
    CHECK(steer_world_query(w, steer_v2(0, 0), 5.0f, out, 8) == 3);
    CHECK(steer_world_query_filtered(w, steer_v2(0, 0), 5.0f, NULL, out, 8) == 3);
    steer_ray_filter f = steer_default_ray_filter();
    f.mask = 1u;
    CHECK(steer_world_query_filtered(w, steer_v2(0, 0), 5.0f, &f, out, 8) == 2);
    f.z_min = 0.0f, f.z_max = 1.0f;
    CHECK(steer_world_query_filtered(w, steer_v2(0, 0), 5.0f, &f, out, 8) == 1 && steer_agent_id_equal(out[0], a));
    f = steer_default_ray_filter();
    f.ignore = a;
    f.z_min = 2.0f, f.z_max = 3.0f;
    CHECK(steer_world_query_filtered(w, steer_v2(0, 0), 5.0f, &f, out, 8) == 1 && steer_agent_id_equal(out[0], c));
    steer_world_destroy(w);
}

/* ---- the settings themselves ----------------------------------------------------------- */

// steer_world_hash covers layer, mask, extent and priority where they are
// not the defaults: each changes the hash, and setting the default back
// gives the hash of before (a world of defaults hashes as it always did).
static void the_hash_covers_layers_floors_and_priority(void)
{
    steer_world *w = make_world(1);
    steer_agent_id a = spawn(w, 0.0f, 0.0f, 0, 0);
    spawn(w, 3.0f, 0.0f, 0, 0);
    const uint64_t plain = steer_world_hash(w);
    steer_agent_set_layer(w, a, 2u);
    const uint64_t layered = steer_world_hash(w);
    CHECK(layered != plain);
    steer_agent_set_extent(w, a, -0.0f, 0.0f); // -0 is 0
    CHECK(steer_world_hash(w) == layered);
    steer_agent_set_layer(w, a, 4u);
    CHECK(steer_world_hash(w) != layered && steer_world_hash(w) != plain);
    steer_agent_set_layer(w, a, 1u);
    CHECK(steer_world_hash(w) == plain);
    steer_agent_set_mask(w, a, 1u);
    CHECK(steer_world_hash(w) != plain);
    steer_agent_set_mask(w, a, STEER_ALL_LAYERS);
    steer_agent_set_extent(w, a, 3.0f, 0.0f);
    const uint64_t raised = steer_world_hash(w);
    CHECK(raised != plain);
    steer_agent_set_extent(w, a, 3.0f, 2.0f);
    CHECK(steer_world_hash(w) != raised && steer_world_hash(w) != plain);
    steer_agent_set_extent(w, a, 0.0f, 0.0f);
    CHECK(steer_world_hash(w) == plain);
    steer_agent_set_priority(w, a, 5.0f);
    const uint64_t first = steer_world_hash(w);
    CHECK(first != plain);
    steer_agent_set_priority(w, a, 6.0f);
    CHECK(steer_world_hash(w) != first && steer_world_hash(w) != plain);
    steer_agent_set_priority(w, a, 0.0f);
    CHECK(steer_world_hash(w) == plain);
    steer_world_destroy(w);
}

static void settings_read_back_and_bad_ones_are_refused(void)
{
    steer_world *w = make_world(1);
    steer_agent_def d = steer_default_agent_def();
    CHECK(d.layer == 1u && d.mask == STEER_ALL_LAYERS && d.z == 0.0f && d.height == 0.0f);
    d.layer = 6u, d.mask = 0x80000001u, d.z = -2.5f, d.height = 1.75f;
    steer_agent_id a = steer_agent_create(w, &d);
    CHECK(steer_agent_get_layer(w, a) == 6u && steer_agent_get_mask(w, a) == 0x80000001u);
    CHECK(steer_agent_get_z(w, a) == -2.5f && steer_agent_get_height(w, a) == 1.75f);
    steer_agent_def back;
    steer_agent_get_def(w, a, &back);
    CHECK(back.layer == 6u && back.mask == 0x80000001u && back.z == -2.5f && back.height == 1.75f);
    CHECK(w->filtered == 1);
    back.layer = 1u, back.mask = STEER_ALL_LAYERS, back.z = 0.0f, back.height = 0.0f;
    steer_agent_apply_def(w, a, &back);
    CHECK(w->filtered == 0); // the default again: the fast path again
    assert_counter counter = {0, ""};
    steer_set_assert_fn(counting_assert, &counter);
    steer_agent_set_extent(w, a, NAN, 1.0f);
    steer_agent_set_extent(w, a, 0.0f, -1.0f);
    steer_agent_set_extent(w, a, 0.0f, INFINITY);
    d.height = -1.0f;
    CHECK(steer_agent_id_is_null(steer_agent_create(w, &d)));
    steer_shape_id s = steer_world_add_circle(w, steer_v2(0, 0), 1.0f);
    steer_shape_set_extent(w, s, 0.0f, NAN);
    CHECK(counter.count == 5);
    steer_set_assert_fn(NULL, NULL);
    CHECK(steer_agent_get_z(w, a) == 0.0f && steer_agent_get_height(w, a) == 0.0f);
    float z, h;
    steer_shape_set_extent(w, s, 4.0f, 2.0f);
    steer_shape_get_extent(w, s, &z, &h);
    CHECK(z == 4.0f && h == 2.0f);
    steer_world_destroy(w);
}

// Removing a filtered agent keeps the count right (the swap-remove moves
// another agent into its place).
static void removal_keeps_the_filtered_count(void)
{
    steer_world *w = make_world(1);
    steer_agent_id ids[6];
    for (int i = 0; i < 6; ++i) ids[i] = spawn(w, (float)i, 0.0f, 0, 0);
    steer_agent_set_layer(w, ids[1], 2u);
    steer_agent_set_extent(w, ids[4], 1.0f, 0.0f);
    CHECK(w->filtered == 2);
    steer_agent_destroy(w, ids[0]);
    CHECK(w->filtered == 2);
    steer_agent_destroy(w, ids[4]);
    CHECK(w->filtered == 1);
    CHECK(steer_agent_get_layer(w, ids[1]) == 2u);
    steer_agent_destroy(w, ids[1]);
    CHECK(w->filtered == 0);
    steer_world_destroy(w);
}

/* ---- scenario: two crowds on overlapping floors -------------------------------------------- */

// Two crowds cross the same square on two floors (reciprocal avoidance,
// agent contacts, a wall on the lower floor only): the lower crowd moves
// bit for bit as it does alone, so nothing of the upper floor ever touched
// it, while the crowds do pass through each other in x and y.
static steer_world *floor_world(uint64_t seed, bool upper, steer_agent_id *lower_ids, int per_crowd,
                                steer_behaviour *east, steer_behaviour *west)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = seed;
    wd.resolve_agent_contacts = true;
    steer_world *w = steer_world_create(&wd);
    test_rng rng = {seed * 7919u + 1u};
    steer_shape_id wall = steer_world_add_box(w, steer_v2(-1.0f, -9.0f), steer_v2(1.0f, -7.0f));
    steer_shape_set_extent(w, wall, 0.0f, 2.5f);
    for (int i = 0; i < per_crowd; ++i) {
        steer_agent_def d = steer_default_agent_def();
        d.limits = test_limits();
        d.limits.max_speed = 2.0f;
        d.state.position = steer_v2(rng_range(&rng, -14.0f, -8.0f), rng_range(&rng, -6.0f, 6.0f));
        d.behaviour = east;
        d.key = (uint64_t)(i + 1);
        d.z = 0.0f, d.height = 2.0f;
        lower_ids[i] = steer_agent_create(w, &d);
        // the upper crowd: its own random draws, whether it is there or not
        steer_vec2 p = steer_v2(rng_range(&rng, 8.0f, 14.0f), rng_range(&rng, -6.0f, 6.0f));
        if (!upper) continue;
        d.state.position = p;
        d.behaviour = west;
        d.key = (uint64_t)(1000 + i);
        d.z = 3.0f; // a storey of 3 m
        steer_agent_create(w, &d);
    }
    return w;
}

static void two_crowds_on_two_floors_never_meet(void)
{
    enum { PER_CROWD = 60, STEPS = 900 };
    steer_behaviour *east = make_orca_seek(30.0f, 0.0f), *west = make_orca_seek(-30.0f, 0.0f);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        steer_agent_id both_ids[PER_CROWD], alone_ids[PER_CROWD];
        steer_world *both = floor_world(seed, true, both_ids, PER_CROWD, east, west);
        steer_world *alone = floor_world(seed, false, alone_ids, PER_CROWD, east, west);
        int differ = 0, crossings = 0;
        for (int step = 0; step < STEPS; ++step) {
            steer_world_step(both, DT);
            steer_world_step(alone, DT);
            for (int i = 0; i < PER_CROWD; ++i) {
                steer_kinematic a = steer_agent_get_state(both, both_ids[i]);
                steer_kinematic b = steer_agent_get_state(alone, alone_ids[i]);
                differ += memcmp(&a, &b, sizeof a) != 0;
            }
            // overlaps across floors in x and y (agents of the other floor)
            if (step % 30 == 0) {
                for (int i = 0; i < PER_CROWD; ++i) {
                    steer_agent_id near[16];
                    steer_ray_filter f = steer_default_ray_filter();
                    f.z_min = 3.0f, f.z_max = 5.0f;
                    crossings += steer_world_query_filtered(both, steer_agent_get_position(both, both_ids[i]), 1.0f,
                                                            &f, near, 16);
                }
            }
        }
        printf("  seed %d: %d lower-floor states differ from the lower floor alone; %d overlaps in x, y across floors\n",
               (int)seed, differ, crossings);
        CHECK(differ == 0);
        CHECK(crossings > 0);
        steer_world_destroy(both);
        steer_world_destroy(alone);
    }
    steer_behaviour_release(east);
    steer_behaviour_release(west);
}

int main(void)
{
    RUN(separation_sees_only_its_layers_and_floor);
    RUN(cohesion_sees_only_its_layers_and_floor);
    RUN(alignment_sees_only_its_layers_and_floor);
    RUN(collision_avoidance_sees_only_its_layers_and_floor);
    RUN(separation_ignores_a_hidden_coincident_neighbour);
    RUN(reciprocal_avoidance_sees_only_its_layers_and_floor);
    RUN(reciprocal_avoidance_takes_all_from_one_that_does_not_see_it);
    RUN(reciprocal_avoidance_sees_only_its_shapes);
    RUN(agent_contacts_push_only_what_is_seen);
    RUN(shape_contacts_push_only_out_of_what_is_seen);
    RUN(obstacle_avoidance_rays_hit_only_what_is_seen);
    RUN(obstacle_avoidance_escapes_only_what_is_seen);
    RUN(world_raycast_takes_a_mask_and_a_band);
    RUN(world_query_takes_a_mask_and_a_band);
    RUN(settings_read_back_and_bad_ones_are_refused);
    RUN(the_hash_covers_layers_floors_and_priority);
    RUN(removal_keeps_the_filtered_count);
    RUN(two_crowds_on_two_floors_never_meet);
    return TEST_RESULT();
}
