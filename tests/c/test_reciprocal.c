// reciprocal_avoidance (ORCA): the linear programs against hand
// computations (and the give of a jam), pairs that pass without touching,
// full responsibility against agents that do not avoid, static geometry
// (sliding past a corner), order independence, no allocation in the step;
// agent contact resolution (against a wall). Traffic (contention, yielding,
// keeping right, jams): test_traffic.c.
#include <stdlib.h>
#include "orca_lines.h"
#include "orca_lp.h"
#include "behaviour.h"
#include "store.h"
#include "world.h"
#include "reciprocal_fixture.h"
#include "test.h"

/* ---- the linear programs ------------------------------------------------------------ */

static orca_line line(float px, float py, float dx, float dy)
{
    orca_line l = {{px, py}, {dx, dy}};
    return l;
}

static void lp_projects_onto_one_line(void)
{
    // y >= 1 (left of +x through (0, 1)): from (0, 0) the nearest is (0, 1)
    orca_line l[1] = {line(0, 1, 1, 0)};
    CHECK_VEC(steer__orca_lp_solve(l, 1, 0, 5.0f, steer_v2(0, 0), 0.0f, 0), 0.0f, 1.0f, 1e-6);
    // a preferred velocity already permitted is kept
    CHECK_VEC(steer__orca_lp_solve(l, 1, 0, 5.0f, steer_v2(2, 3), 0.0f, 0), 2.0f, 3.0f, 1e-6);
    // beyond max speed: onto the disc first (3-4-5), then the line holds
    CHECK_VEC(steer__orca_lp_solve(l, 1, 0, 5.0f, steer_v2(6, 8), 0.0f, 0), 3.0f, 4.0f, 1e-5);
}

static void lp_corner_of_two_lines(void)
{
    // y >= 1 and x >= 1 (left of -y through (1, 0)): the corner (1, 1)
    orca_line l[2] = {line(0, 1, 1, 0), line(1, 0, 0, -1)};
    CHECK_VEC(steer__orca_lp_solve(l, 2, 0, 5.0f, steer_v2(0, 0), 0.0f, 0), 1.0f, 1.0f, 1e-6);
    // with the disc: x >= 1 and y >= 1 on a disc of radius 1.2; from (2, 0)
    // the line y = 1 meets the disc at x = sqrt(1.44 - 1) = 0.663 < 1: no
    // permitted velocity, the least violation is on the bisector x = y
    steer_vec2 r = steer__orca_lp_solve(l, 2, 0, 1.2f, steer_v2(2, 0), 0.0f, 0);
    CHECK_NEAR(r.x, r.y, 1e-5);
    CHECK_NEAR(steer_length(r), 1.2f, 1e-5);
}

static void lp_least_violation_of_opposite_lines(void)
{
    // y >= 1 and y <= -1: nothing permitted; y = 0 violates both by 1
    orca_line l[2] = {line(0, 1, 1, 0), line(0, -1, -1, 0)};
    steer_vec2 r = steer__orca_lp_solve(l, 2, 0, 5.0f, steer_v2(0, 0), 0.0f, 0);
    CHECK_NEAR(r.y, 0.0f, 1e-6);
    // a hard line stays met: y >= 1 hard, y <= -1 soft
    r = steer__orca_lp_solve(l, 2, 1, 5.0f, steer_v2(0, 0), 0.0f, 0);
    CHECK(r.y >= 1.0f - 1e-6f);
}

static void lp_jam_gives_towards_preferred(void)
{
    // y >= 1 and y <= -1 from (3, 2): the least violation is y = 0 (1 each);
    // a give of 0.5 allows 1.5 each, the band |y| <= 0.5, whose point
    // nearest the preferred velocity is (3, 0.5)
    orca_line l[2] = {line(0, 1, 1, 0), line(0, -1, -1, 0)};
    CHECK_NEAR(steer__orca_lp_solve(l, 2, 0, 5.0f, steer_v2(3, 2), 0.0f, 0).y, 0.0f, 1e-6);
    CHECK_VEC(steer__orca_lp_solve(l, 2, 0, 5.0f, steer_v2(3, 2), 0.5f, 0), 3.0f, 0.5f, 1e-5);
    // a hard line gives nothing: y >= 1 hard, y <= -1 soft (violated by 2,
    // then by up to 2.5): from (3, -2) the nearest is (3, 1)
    CHECK_VEC(steer__orca_lp_solve(l, 2, 1, 5.0f, steer_v2(3, -2), 0.5f, 0), 3.0f, 1.0f, 1e-5);
    // a feasible program ignores the give
    CHECK_VEC(steer__orca_lp_solve(l, 1, 0, 5.0f, steer_v2(3, 2), 0.5f, 0), 3.0f, 2.0f, 1e-6);
}

static void lp_least_violation_of_nearly_opposite_lines(void)
{
    // an agent in a file along a wall (y >= -0.001, hard), its follower's
    // line x >= 0.061 and its leader's x <= -0.030, 0.0009 rad from opposite
    // (goal_line_16 with world seed 4, seek, docs/crowds/g21.md; the values
    // to the bit): the least violation is x = 0.016, 0.046 into each. The
    // two lines cross 11.5 km away; a bisector through that crossing lost
    // its place in float, and the program kept the preferred velocity, 1.5
    // m/s into the leader
    orca_line l[3] = {{{-0x0p+0f, -0x1.0f0cp-10f}, {0x1p+0f, -0x0p+0f}},
                      {{0x1.f5e7acp-5f, -0x1.2d77dp-10f}, {-0x1.d71988p-12f, -0x1.fffffcp-1f}},
                      {{-0x1.ecd348p-6f, -0x1.22865ep-10f}, {0x1.df6af6p-12f, 0x1.fffffep-1f}}};
    const steer_vec2 preferred = steer_v2(0x1.76cdd4p+0f, -0x1.4e22ecp-2f); // (1.464, -0.326)
    steer_vec2 r = steer__orca_lp_solve(l, 3, 1, 1.5f, preferred, 0.0f, 0);
    CHECK_NEAR(r.x, 0.016f, 0.002f);
    // with the jam's give (orca_lp.c): up to 0.048 more into either (x from
    // -0.033 to 0.064), not 1.5
    r = steer__orca_lp_solve(l, 3, 1, 1.5f, preferred, 0.048f, 0);
    CHECK(r.x > -0.035f && r.x < 0.066f);
}

/* ---- agents ----------------------------------------------------------------------------- */

// (the shared helpers: reciprocal_fixture.h)


static void head_on_pair_passes_keeping_right(void)
{
    steer_world *w = make_world(1);
    steer_behaviour *ba = avoid_to(10, 0, 2), *bb = avoid_to(-10, 0, 2);
    steer_agent_id a = walker(w, -10, 0, ba, 1), b = walker(w, 10, 0, bb, 2);
    float closest = 100.0f, a_side = 0.0f;
    for (int i = 0; i < 200; ++i) {
        steer_world_step(w, 0.1f);
        float d = distance(w, a, b);
        if (d < closest) closest = d, a_side = steer_agent_get_position(w, a).y;
    }
    CHECK(closest >= 1.0f); // never touching (radii 0.5)
    CHECK(a_side < 0.0f);   // a walks +x: its right is -y
    CHECK(steer_length(steer_sub(steer_agent_get_position(w, a), steer_v2(10, 0))) < 0.5f);
    CHECK(steer_length(steer_sub(steer_agent_get_position(w, b), steer_v2(-10, 0))) < 0.5f);
    steer_behaviour_release(ba);
    steer_behaviour_release(bb);
    steer_world_destroy(w);
}

static void non_avoider_is_avoided_fully(void)
{
    // b walks straight at a (constant velocity, no behaviour): a alone
    // avoids, taking the whole responsibility
    steer_world *w = make_world(2);
    steer_behaviour *ba = avoid_to(10, 0, 3);
    steer_agent_id a = walker(w, -10, 0, ba, 1);
    steer_agent_def d = steer_default_agent_def();
    d.state.position = steer_v2(10, 0);
    d.state.velocity = steer_v2(-1.5f, 0);
    d.key = 2;
    steer_agent_id b = steer_agent_create(w, &d);
    CHECK(closest_over(w, a, b, 200) >= 1.0f);
    CHECK(!(w->flags[steer__store_dense(w, b)] & AGENT_AVOIDS));
    CHECK((w->flags[steer__store_dense(w, a)] & AGENT_AVOIDS) != 0);
    steer_behaviour_release(ba);
    steer_world_destroy(w);
}

// The most neighbours an avoider may take (STEER_MAX_AVOID_NEIGHBOURS) with
// more of them within its radius than that: the sorted list of the k
// closest holds all k (the shortlist's buffer held 40: a stack overflow
// under AddressSanitizer with k = 64, found by fuzz.c), and the k kept are
// the k nearest.
static void most_neighbours_kept(void)
{
    steer_world *w = make_world(200);
    steer_child c = {make(def_at(STEER_ARRIVE, 0.0f, 0.0f)), 1.0f};
    steer_behaviour_def r = def_of(STEER_RECIPROCAL_AVOIDANCE);
    r.children = &c;
    r.child_count = 1;
    r.radius = 20.0f;
    r.max_neighbours = (float)STEER_MAX_AVOID_NEIGHBOURS;
    steer_behaviour *b = make(r);
    steer_behaviour_release(c.behaviour);
    for (int i = 0; i < 144; ++i) walker(w, (float)(i % 12) * 1.2f - 6.6f, (float)(i / 12) * 1.2f - 6.6f, b, (uint64_t)i + 1);
    for (int i = 0; i < 5; ++i) steer_world_step(w, 0.1f);
    int finite = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_vec2 v = steer_agent_get_velocity(w, steer_world_agent_at(w, i));
        finite += steer_vec2_is_finite(v);
    }
    CHECK(finite == 144);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void kinematic_avoiders_share(void)
{
    // two kinematic agents that both run reciprocal avoidance (velocity set
    // directly, RVO2's way) share it: both are avoiders, they pass without
    // touching, and each moves aside by a comparable amount (before, each
    // counted the other as a non-avoider and took all of it)
    steer_world *w = make_world(4);
    steer_agent_id id[2];
    steer_behaviour *b[2];
    float aside[2] = {0.0f, 0.0f};
    for (int i = 0; i < 2; ++i) {
        float x = i == 0 ? -10.0f : 10.0f;
        b[i] = avoiding(def_at(STEER_KINEMATIC_SEEK, -x, 0.0f), 6.0f, 0.0f);
        steer_agent_def d = steer_default_agent_def();
        d.state.position = steer_v2(x, 0.0f);
        d.limits.max_speed = 1.5f;
        d.kinematic = true;
        d.behaviour = b[i];
        d.key = (uint64_t)i + 1;
        id[i] = steer_agent_create(w, &d);
    }
    float closest = 100.0f;
    for (int s = 0; s < 150; ++s) {
        steer_world_step(w, 0.1f);
        closest = steer_minf(closest, distance(w, id[0], id[1]));
        for (int i = 0; i < 2; ++i) aside[i] = steer_maxf(aside[i], steer_absf(steer_agent_get_position(w, id[i]).y));
    }
    for (int i = 0; i < 2; ++i) CHECK((w->flags[steer__store_dense(w, id[i])] & AGENT_AVOIDS) != 0);
    CHECK(closest >= 1.0f - 1e-3f);
    CHECK(aside[0] > 0.2f && aside[1] > 0.2f);
    CHECK(aside[0] < 2.0f * aside[1] && aside[1] < 2.0f * aside[0]);
    for (int i = 0; i < 2; ++i) steer_behaviour_release(b[i]);
    steer_world_destroy(w);
}

static void circle_resolves_and_ignores_spawn_order(void)
{
    // 16 agents on a circle swapping to the antipodes, spawned in two orders
    // with the same keys: every agent arrives, nobody touches, same hash
    uint64_t hashes[2];
    for (int order = 0; order < 2; ++order) {
        steer_world *w = make_world(3);
        steer_agent_id ids[16];
        steer_behaviour *bs[16];
        for (int k = 0; k < 16; ++k) {
            int i = order == 0 ? k : 15 - k;
            steer_vec2 p = steer_scale(steer_heading(2.0f * STEER_PI * (float)i / 16.0f), 8.0f);
            bs[i] = avoid_to(-p.x, -p.y, 2);
            ids[i] = walker(w, p.x, p.y, bs[i], (uint64_t)i + 1);
        }
        float closest = 100.0f;
        for (int s = 0; s < 400; ++s) {
            steer_world_step(w, 0.1f);
            for (int i = 0; i < 16; ++i)
                for (int j = i + 1; j < 16; ++j) closest = steer_minf(closest, distance(w, ids[i], ids[j]));
        }
        CHECK(closest >= 1.0f - 1e-3f);
        int arrived = 0;
        for (int i = 0; i < 16; ++i) {
            steer_vec2 p = steer_scale(steer_heading(2.0f * STEER_PI * (float)i / 16.0f), -8.0f);
            arrived += steer_length(steer_sub(steer_agent_get_position(w, ids[i]), p)) < 0.5f;
            steer_behaviour_release(bs[i]);
        }
        CHECK(arrived == 16);
        hashes[order] = steer_world_hash(w);
        steer_world_destroy(w);
    }
    CHECK(hashes[0] == hashes[1]);
}

static void static_geometry_is_not_entered(void)
{
    // square on to a circle in the way, then a box corner that the straight
    // line would clip: around them, never into them. (A wall square across
    // the way is a local minimum no local method leaves: docs/crowds.md.)
    steer_world *w = make_world(4);
    steer_world_add_circle(w, steer_v2(0, 0), 2.0f);
    steer_world_add_box(w, steer_v2(6, 0.3f), steer_v2(7, 3));
    steer_behaviour *b = avoid_to(12, 0, 2);
    steer_agent_id a = walker(w, -8, 0, b, 1);
    float nearest = 100.0f;
    for (int i = 0; i < 600; ++i) {
        steer_world_step(w, 0.1f);
        steer_vec2 p = steer_agent_get_position(w, a);
        nearest = steer_minf(nearest, steer_length(p) - 2.0f);
        if (p.x > 6.0f && p.x < 7.0f) CHECK(p.y <= 0.3f - 0.5f + 1e-3f);
    }
    CHECK(nearest >= 0.5f - 1e-3f);
    CHECK(steer_length(steer_sub(steer_agent_get_position(w, a), steer_v2(12, 0))) < 0.5f);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void alone_at_a_block_slides_past_its_corner(void)
{
    // on top of a block, the goal almost straight behind it, just past the
    // block's corner: projected on the wall, the goal's pull was a crawl
    // the deadlock turn balanced, and the agent stopped for good 0.24 m
    // short of the corner (scripts/scenarios/blocks)
    steer_world *w = make_world(1);
    steer_world_add_box(w, steer_v2(-14, 4), steer_v2(-4, 14));
    steer_behaviour *b = avoid_to(-2.8f, -31.6f, 2);
    steer_agent_def d = steer_default_agent_def();
    d.state.position = steer_v2(-6, 14.6f);
    d.limits.max_speed = 1.5f;
    d.limits.max_acceleration = 10.0f;
    d.behaviour = b;
    steer_agent_id a = steer_agent_create(w, &d);
    for (int i = 0; i < 1000; ++i) steer_world_step(w, 0.1f);
    CHECK(steer_length(steer_sub(steer_agent_get_position(w, a), steer_v2(-2.8f, -31.6f))) < 0.5f);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

// An agent of radius 0.5 at (x, y), walking at full speed (1.5) along
// heading (ux, uy) to a goal 20 m ahead, beside the end (0, 0) of the wall
// (0, 0)-(0, -20), obstacle horizon 5 s; after one step, its velocity.
static steer_vec2 at_a_wall_end(float x, float y, float ux, float uy)
{
    steer_world *w = make_world(1);
    steer_world_add_segment(w, steer_v2(0, 0), steer_v2(0, -20));
    steer_child c = {make(def_at(STEER_ARRIVE, x + 20.0f * ux, y + 20.0f * uy)), 1.0f};
    steer_behaviour_def r = def_of(STEER_RECIPROCAL_AVOIDANCE);
    r.children = &c;
    r.child_count = 1;
    r.radius = 6.0f;
    r.time_horizon = 2.0f;
    r.obstacle_time_horizon = 5.0f;
    steer_behaviour *b = make(r);
    steer_behaviour_release(c.behaviour);
    steer_agent_def d = steer_default_agent_def();
    d.state.position = steer_v2(x, y);
    d.state.velocity = steer_v2(1.5f * ux, 1.5f * uy);
    d.limits.max_speed = 1.5f;
    d.limits.max_acceleration = 100.0f;
    d.behaviour = b;
    steer_agent_id a = steer_agent_create(w, &d);
    steer_world_step(w, 0.1f);
    steer_vec2 v = steer_agent_get_velocity(w, a);
    steer_behaviour_release(b);
    steer_world_destroy(w);
    return v;
}

// The least distance from the end (0, 0) of the straight path from p at v
// for the obstacle horizon (5 s).
static float path_clearance(steer_vec2 p, steer_vec2 v)
{
    float vv = steer_dot(v, v), t = vv > 0.0f ? -steer_dot(p, v) / vv : 0.0f;
    t = steer_clampf(t, 0.0f, 5.0f);
    return steer_length(steer_mul_add(p, v, t));
}

static void a_wall_end_ahead_brakes_only_a_path_into_it(void)
{
    // 3 m before the end, on a line that passes it 0.5 m clear of the body
    // (1.0 from its centre), straight or at 20 degrees towards the wall's
    // side: the path misses the end, so nothing brakes it. The closest
    // point's line alone held its approach to the end to gap / 5 = 0.49
    // m/s, and the slide along it turned it aside (v.y 1.17 m/s before
    // this change; docs/crowds/wallend21.md)
    const float c = 0.9396926f, s = 0.3420201f; // 20 degrees
    steer_vec2 v = at_a_wall_end(-3.0f, 1.0f, 1.0f, 0.0f);
    CHECK(v.x >= 1.49f);
    CHECK_NEAR(v.y, 0.0f, 0.06f); // the side bias turns it 0.03 rad (+- jitter)
    v = at_a_wall_end(-3.0f * c, 1.0f + 3.0f * s, c, -s);
    CHECK(steer_length(v) >= 1.49f);
    // a path into the end (its centre line 0.2 m off it) is braked or
    // turned: the new velocity's path keeps the body (grown by the
    // clearance, 0.55) off the end over the horizon
    steer_vec2 p = steer_v2(-3.0f + 0.15f, 0.2f); // where the step leaves it
    v = at_a_wall_end(-3.0f, 0.2f, 1.0f, 0.0f);
    CHECK(path_clearance(p, v) >= 0.55f - 0.02f);
    CHECK(steer_length(v) < 1.49f || fabsf(v.y) > 0.05f);
}

static void an_agent_at_rest_makes_room(void)
{
    // b stands on its goal, a walks at it from behind. By the right of way
    // alone a takes all of the avoidance (b is straight ahead); b, idle,
    // still takes half, as in the paper: it steps aside
    steer_world *w = make_world(3);
    steer_behaviour *ba = avoid_to(10, 0, 2), *bb = avoid_to(0, 0, 2);
    steer_agent_id a = walker(w, -4, 0, ba, 1), b = walker(w, 0, 0, bb, 2);
    float moved = 0.0f, closest = 100.0f;
    for (int i = 0; i < 60; ++i) {
        steer_world_step(w, 0.1f);
        moved = steer_maxf(moved, steer_length(steer_agent_get_position(w, b)));
        closest = steer_minf(closest, distance(w, a, b));
    }
    CHECK(moved > 0.05f);
    CHECK(closest >= 1.0f);
    steer_behaviour_release(ba);
    steer_behaviour_release(bb);
    steer_world_destroy(w);
}

// An agent of radius `r` walking from (x, y) to (gx, y), with `escort`
// agents of radius 0.5 round it (2.8 m from its centre, behind and at its
// sides, its front free) walking to the same offsets from its goal.
static steer_agent_id escorted(steer_world *w, float x, float y, float gx, float r, int escort, uint64_t key,
                               steer_behaviour **made)
{
    float dir = gx > x ? 1.0f : -1.0f;
    steer_agent_id big = {0, 0};
    for (int i = 0; i <= escort; ++i) {
        float ox = 0.0f, oy = 0.0f;
        if (i > 0) {
            float a = (75.0f + 23.3f * (float)(i - 1)) * 3.14159265f / 180.0f; // 75 to 285 degrees off the front
            ox = 2.8f * cosf(a) * dir;
            oy = 2.8f * sinf(a);
        }
        made[i] = avoid_to(gx + ox, y + oy, 2);
        steer_agent_def d = steer_default_agent_def();
        d.state.position = steer_v2(x + ox, y + oy);
        d.limits.radius = i == 0 ? r : 0.5f;
        d.limits.max_speed = 1.5f;
        d.limits.max_acceleration = 15.0f;
        d.behaviour = made[i];
        d.key = key + (uint64_t)i;
        steer_agent_id id = steer_agent_create(w, &d);
        if (i == 0) big = id;
    }
    return big;
}

// Two agents of radius 2 meet head-on, each with ten of radius 0.5 round
// it. By the distance between centres the ten are all nearer than the other
// large agent (2.8 m against 4.4 at the clearance), so neither large agent
// saw the other until their bodies overlapped by 1.2 m (issue 21, the
// matrix's `junction`); by the distance to the bodies they pass.
static void large_agents_see_each_other_among_small_ones(void)
{
    steer_world *w = make_world(5);
    steer_behaviour *made[22];
    steer_agent_id a = escorted(w, -12, 0.2f, 14, 2.0f, 10, 1, made);
    steer_agent_id b = escorted(w, 12, -0.2f, -14, 2.0f, 10, 100, made + 11);
    CHECK(closest_over(w, a, b, 400) >= 4.0f - 0.01f);
    CHECK(steer_agent_get_position(w, a).x > 8.0f && steer_agent_get_position(w, b).x < -8.0f);
    for (int i = 0; i < 22; ++i) steer_behaviour_release(made[i]);
    steer_world_destroy(w);
}

// The same meeting when the two are made large after they started
// (steer_agent_set_limits: the grid looks at the radii again only when some
// agent's limits were written), and in a world restored from a snapshot of
// it, which steps to the same bits as the world saved.
static void large_agents_seen_after_limits_change_and_restore(void)
{
    steer_world *w = make_world(5);
    steer_behaviour *made[22];
    steer_agent_id a = escorted(w, -12, 0.2f, 14, 0.5f, 10, 1, made);
    steer_agent_id b = escorted(w, 12, -0.2f, -14, 0.5f, 10, 100, made + 11);
    steer_world_step(w, 0.1f); // the grid built with one size
    for (int k = 0; k < 2; ++k) {
        steer_agent_id id = k ? b : a;
        steer_limits l = steer_agent_get_limits(w, id);
        l.radius = 2.0f;
        steer_agent_set_limits(w, id, &l);
    }
    CHECK(closest_over(w, a, b, 60) >= 4.0f - 0.01f);
    steer_world *r = restored_copy(w);
    CHECK(r != NULL);
    if (r != NULL) {
        steer_agent_id ra = {0, 0}, rb = {0, 0};
        for (int i = 0; i < steer_world_agent_count(r); ++i) {
            steer_agent_id id = steer_world_agent_at(r, i);
            if (steer_agent_get_key(r, id) == 1) ra = id;
            if (steer_agent_get_key(r, id) == 100) rb = id;
        }
        CHECK(steer_agent_get_limits(r, ra).radius == 2.0f && steer_agent_get_limits(r, rb).radius == 2.0f);
        float closest = closest_over(r, ra, rb, 340);
        CHECK(closest >= 4.0f - 0.01f);
        CHECK(closest_over(w, a, b, 340) >= 4.0f - 0.01f);
        CHECK(steer_world_hash(r) == steer_world_hash(w));
        steer_world_destroy(r);
    }
    for (int i = 0; i < 22; ++i) steer_behaviour_release(made[i]);
    steer_world_destroy(w);
}

static bool same_steering(steer_steering x, steer_steering y)
{
    return memcmp(&x.linear, &y.linear, sizeof x.linear) == 0 && memcmp(&x.angular, &y.angular, sizeof x.angular) == 0;
}

// The grid keeps each neighbour's radius, max speed and whether it avoids in
// its records (grid.h, grid_body, read by steer__orca_pairs): a preview
// after steer_agent_set_limits or steer_agent_set_behaviour, with the grid
// built before, sees the new values, as a grid built anew does, and as a
// grid without the records does (reciprocal.c, pairs_from_columns).
static void grid_records_follow_limits_and_behaviour(void)
{
    steer_world *w = make_world(1);
    steer_behaviour *ba = avoid_to(10, 0, 2), *bb = avoid_to(-10, 0, 2);
    steer_agent_id a = walker(w, -1.2f, 0.1f, ba, 1), b = walker(w, 1.2f, 0, bb, 2);
    steer_world_step(w, 0.1f);
    steer_steering before, after, fresh;
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &before)); // the grid built
    CHECK(!w->grid.dirty && w->grid.has_bodies);
    steer_limits l = steer_agent_get_limits(w, b);
    l.radius = 1.5f;
    l.max_speed = 0.5f;
    steer_agent_set_limits(w, b, &l);
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &after));
    w->grid.dirty = true;
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &fresh));
    CHECK(same_steering(after, fresh));
    CHECK(!same_steering(after, before));
    // b no longer avoids (the grid is not rebuilt for it): a takes all of it
    steer_behaviour *seek = make(def_at(STEER_ARRIVE, -10, 0));
    steer_agent_set_behaviour(w, b, seek, false);
    CHECK(!w->grid.dirty);
    before = fresh;
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &after));
    w->grid.dirty = true;
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &fresh));
    CHECK(same_steering(after, fresh));
    CHECK(!same_steering(after, before));
    // a grid without the records (none avoided in the step before): the same
    w->grid.want_bodies = false;
    w->grid.dirty = true;
    CHECK(steer_behaviour_get_steering(ba, w, a, 0.1f, &after));
    CHECK(!w->grid.has_bodies);
    CHECK(same_steering(after, fresh));
    steer_behaviour_release(ba);
    steer_behaviour_release(bb);
    steer_behaviour_release(seek);
    steer_world_destroy(w);
}

// Two agents of radius 2 sent to one point come to rest side by side with
// the clearance between them, ORCA_CLEARANCE_MAX (0.1 m) and a little, as two
// of radius 0.5 do (a tenth of the two radii, 0.4 m, before: issue 21).
static void large_agents_rest_as_close_as_small_ones(void)
{
    for (int big = 0; big < 2; ++big) {
        float r = big ? 2.0f : 0.5f;
        steer_world *w = make_world(6);
        steer_behaviour *ba = avoid_to(0, 0, 2), *bb = avoid_to(0, 0, 2);
        steer_agent_def d = steer_default_agent_def();
        d.limits.radius = r;
        d.limits.max_speed = 1.5f;
        d.state.position = steer_v2(-4.0f * r, 0.3f);
        d.behaviour = ba;
        d.key = 1;
        steer_agent_id a = steer_agent_create(w, &d);
        d.state.position = steer_v2(4.0f * r, -0.3f);
        d.behaviour = bb;
        d.key = 2;
        steer_agent_id b = steer_agent_create(w, &d);
        float closest = closest_over(w, a, b, 600);
        float gap = distance(w, a, b) - 2.0f * r;
        CHECK(closest >= 2.0f * r - 0.01f); // never touching
        // settled at one point (orca_settle.h): 7.3 cm at radius 0.5, 4.7 cm
        // at 2 (0.12 m at either with the clearance alone, 0.45 m at radius
        // 2 before its cap; 6.0 cm at radius 0.5 while two agents could
        // both be on the point); issue 21 asks for 5 cm: the yield's push
        // (ORCA_YIELD_PUSH) still parts two contenders a little more
        CHECK(gap >= 0.0f && gap <= 0.075f);
        CHECK(steer_length(steer_agent_get_velocity(w, a)) < 0.02f && steer_length(steer_agent_get_velocity(w, b)) < 0.02f);
        steer_behaviour_release(ba);
        steer_behaviour_release(bb);
        steer_world_destroy(w);
    }
}

static void extreme_settings_stay_finite(void)
{
    // horizons and steps at the edges of the float range: finite output
    // (1e-40 s: 1/dt overflows; a fuzzer found 0 * inf there, a NaN output)
    const float horizons[3] = {1e-30f, 1e-3f, 1e30f}, steps[5] = {1e-40f, 1e-30f, 1e-3f, 1e3f, 0.0f};
    for (int h = 0; h < 3; ++h) {
        for (int s = 0; s < 5; ++s) {
            steer_world *w = make_world(5);
            steer_behaviour *ba = avoid_to(10, 0, horizons[h]), *bb = avoid_to(-10, 0, horizons[h]);
            steer_agent_id a = walker(w, -0.2f, 0, ba, 1);
            walker(w, 0.2f, 0.1f, bb, 2); // overlapping from the start
            steer_steering out;
            CHECK(steer_behaviour_get_steering(ba, w, a, steps[s], &out));
            CHECK(steer_vec2_is_finite(out.linear));
            steer_world_step(w, steps[s]);
            CHECK(steer_vec2_is_finite(steer_agent_get_position(w, a)));
            steer_steering last = steer_agent_get_last_steering(w, a);
            CHECK(steer_vec2_is_finite(last.linear) && isfinite(last.angular));
            steer_behaviour_release(ba);
            steer_behaviour_release(bb);
            steer_world_destroy(w);
        }
    }
}

// A blend of one child, weight 1.
static steer_behaviour *blend_of(steer_behaviour *child)
{
    steer_child one = {child, 1.0f};
    steer_behaviour_def bd = def_of(STEER_BLEND);
    bd.children = &one;
    bd.child_count = 1;
    return make(bd);
}

static void tree_shape_knows_it_avoids(void)
{
    steer_behaviour *r = avoid_to(1, 1, 2);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 1, 1));
    steer_behaviour *blend = blend_of(seek);
    CHECK(r->avoids && !seek->avoids && !blend->avoids);
    steer_child c[2] = {{seek, 1.0f}, {r, 1.0f}};
    CHECK(steer_behaviour_set_children(blend, c, 2));
    CHECK(blend->avoids);
    CHECK(steer_behaviour_set_children(blend, c, 1));
    CHECK(!blend->avoids);
    // one preferred child, never none or two
    assert_counter count = {0, ""};
    steer_set_assert_fn(counting_assert, &count);
    CHECK(!steer_behaviour_set_children(r, c, 2));
    CHECK(!steer_behaviour_set_children(r, c, 0));
    steer_set_assert_fn(NULL, NULL);
    CHECK(count.count == 2);
    CHECK(steer_behaviour_set_children(r, c, 1)); // preferred: the seek
    CHECK(steer_behaviour_get_child(r, 0).behaviour == seek);
    steer_behaviour_release(blend);
    steer_behaviour_release(seek);
    steer_behaviour_release(r);
}

// The step reads each agent's AGENT_AVOIDS and AGENT_NAVIGATES from its tree
// only when they can have changed (step.c, flag_avoiders): a tree's children
// changed (anywhere), an agent given a behaviour or spawned. Each change
// between steps shows in the flags of the next step, and in whether the grid
// keeps the records reciprocal avoidance reads (want_bodies).
static bool flagged(steer_world *w, steer_agent_id a, uint8_t flag)
{
    return (w->flags[steer__store_dense(w, a)] & flag) != 0;
}

static void flags_follow_trees_between_steps(void)
{
    steer_world *w = make_world(1);
    steer_behaviour *r = avoid_to(10, 0, 2);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 10, 0));
    steer_behaviour *blend = blend_of(seek);
    steer_agent_id a = walker(w, 0, 0, blend, 1), b = walker(w, 20, 0, seek, 2);
    for (int i = 0; i < 3; ++i) steer_world_step(w, 0.1f);
    CHECK(!flagged(w, a, AGENT_AVOIDS) && !w->grid.want_bodies);
    // the tree a runs gains reciprocal avoidance: a avoids from the next step
    steer_child two[2] = {{seek, 1.0f}, {r, 1.0f}};
    CHECK(steer_behaviour_set_children(blend, two, 2));
    steer_world_step(w, 0.1f);
    CHECK(flagged(w, a, AGENT_AVOIDS) && !flagged(w, b, AGENT_AVOIDS) && w->grid.want_bodies);
    steer_world_step(w, 0.1f);
    CHECK(flagged(w, a, AGENT_AVOIDS) && w->grid.want_bodies && w->grid.has_bodies);
    // ...and loses it
    CHECK(steer_behaviour_set_children(blend, two, 1));
    steer_world_step(w, 0.1f);
    CHECK(!flagged(w, a, AGENT_AVOIDS) && !w->grid.want_bodies);
    // b given a tree that avoids, then a spawned avoider, then b's removal
    steer_agent_set_behaviour(w, b, r, false);
    steer_world_step(w, 0.1f);
    CHECK(flagged(w, b, AGENT_AVOIDS) && !flagged(w, a, AGENT_AVOIDS) && w->grid.want_bodies);
    steer_agent_set_behaviour(w, b, seek, false);
    steer_world_step(w, 0.1f);
    CHECK(!flagged(w, b, AGENT_AVOIDS) && !w->grid.want_bodies);
    steer_agent_id c = walker(w, -20, 0, r, 3);
    steer_world_step(w, 0.1f);
    CHECK(flagged(w, c, AGENT_AVOIDS) && !flagged(w, b, AGENT_AVOIDS) && w->grid.want_bodies);
    steer_agent_destroy(w, c);
    steer_world_step(w, 0.1f);
    CHECK(!w->grid.want_bodies);
    // a navigate node put into a's tree between steps: a navigates
    steer_behaviour *nav = make(def_at(STEER_NAVIGATE, 10, 0));
    steer_child with_nav[2] = {{seek, 1.0f}, {nav, 1.0f}};
    CHECK(steer_behaviour_set_children(blend, with_nav, 2));
    steer_world_step(w, 0.1f);
    CHECK(flagged(w, a, AGENT_NAVIGATES) && !flagged(w, b, AGENT_NAVIGATES));
    steer_behaviour_release(nav);
    steer_behaviour_release(blend);
    steer_behaviour_release(seek);
    steer_behaviour_release(r);
    steer_world_destroy(w);
}

static void steps_do_not_allocate(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.resolve_agent_contacts = true;
    steer_world *w = steer_world_create(&wd);
    steer_world_add_circle(w, steer_v2(0, 0), 1.0f);
    steer_world_add_segment(w, steer_v2(-20, 12), steer_v2(20, 12));
    steer_behaviour *b = avoid_to(0, 0, 2);
    for (int i = 0; i < 300; ++i) walker(w, (float)(i % 20) * 1.2f - 12.0f, (float)(i / 20) * 1.2f - 9.0f, b, 0);
    steer_world_step(w, 0.1f);
    unsigned long before = steer__allocations;
    for (int i = 0; i < 30; ++i) steer_world_step(w, 0.1f);
    CHECK(steer__allocations == before);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

/* ---- agent contact resolution ---------------------------------------------------------- */

static void contacts_separate_a_pair(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.resolve_agent_contacts = true;
    steer_world *w = steer_world_create(&wd);
    steer_agent_id a = spawn(w, 0, 0, 0, 0), b = spawn(w, 0.6f, 0, 0, 0);
    steer_world_step(w, 0.1f);
    // overlap 0.4, half each way
    CHECK_VEC(steer_agent_get_position(w, a), -0.2f, 0.0f, 1e-6);
    CHECK_VEC(steer_agent_get_position(w, b), 0.8f, 0.0f, 1e-6);
    steer_world_set_resolve_agent_contacts(w, false);
    CHECK(!steer_world_get_resolve_agent_contacts(w));
    steer_world_destroy(w);
}

static void contacts_ignore_order(void)
{
    // a cluster of five overlapping agents, spawned in two orders
    const float xs[5] = {0, 0.5f, 0.2f, -0.4f, 0.1f}, ys[5] = {0, 0.1f, 0.6f, 0.3f, -0.5f};
    uint64_t h[2];
    float worst = 0.0f;
    for (int order = 0; order < 2; ++order) {
        steer_world_def wd = steer_default_world_def();
        wd.resolve_agent_contacts = true;
        steer_world *w = steer_world_create(&wd);
        steer_agent_id ids[5];
        for (int k = 0; k < 5; ++k) {
            int i = order == 0 ? k : 4 - k;
            steer_agent_def d = steer_default_agent_def();
            d.state.position = steer_v2(xs[i], ys[i]);
            d.key = (uint64_t)i + 1;
            ids[i] = steer_agent_create(w, &d);
        }
        for (int s = 0; s < 10; ++s) steer_world_step(w, 0.1f);
        for (int i = 0; i < 5; ++i)
            for (int j = i + 1; j < 5; ++j) worst = steer_maxf(worst, 1.0f - distance(w, ids[i], ids[j]));
        h[order] = steer_world_hash(w);
        steer_world_destroy(w);
    }
    CHECK(h[0] == h[1]);
    CHECK(worst < 0.01f); // ten steps of four passes: the cluster has spread
}

static void contacts_against_a_wall_settle(void)
{
    // three agents in a row pressed into a wall, overlapping by 0.25: the
    // wall is pushed out of in every pass, so it does not push the first
    // back into the second after the agents are separated (4 passes and the
    // wall after them left 0.3)
    steer_world_def wd = steer_default_world_def();
    wd.resolve_agent_contacts = true;
    steer_world *w = steer_world_create(&wd);
    steer_world_add_segment(w, steer_v2(0, -10), steer_v2(0, 10));
    steer_agent_id ids[3];
    for (int i = 0; i < 3; ++i) ids[i] = spawn(w, 0.45f + 0.75f * (float)i, 0, 0, 0);
    steer_world_step(w, 0.1f);
    float worst = 0.0f;
    for (int i = 0; i < 3; ++i) {
        CHECK(steer_agent_get_position(w, ids[i]).x >= 0.5f - 1e-3f);
        for (int j = i + 1; j < 3; ++j) worst = steer_maxf(worst, 1.0f - distance(w, ids[i], ids[j]));
    }
    CHECK(worst < 0.02f);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(lp_projects_onto_one_line);
    RUN(lp_corner_of_two_lines);
    RUN(lp_least_violation_of_opposite_lines);
    RUN(lp_jam_gives_towards_preferred);
    RUN(lp_least_violation_of_nearly_opposite_lines);
    RUN(head_on_pair_passes_keeping_right);
    RUN(non_avoider_is_avoided_fully);
    RUN(kinematic_avoiders_share);
    RUN(most_neighbours_kept);
    RUN(circle_resolves_and_ignores_spawn_order);
    RUN(static_geometry_is_not_entered);
    RUN(alone_at_a_block_slides_past_its_corner);
    RUN(a_wall_end_ahead_brakes_only_a_path_into_it);
    RUN(an_agent_at_rest_makes_room);
    RUN(large_agents_see_each_other_among_small_ones);
    RUN(large_agents_seen_after_limits_change_and_restore);
    RUN(large_agents_rest_as_close_as_small_ones);
    RUN(grid_records_follow_limits_and_behaviour);
    RUN(extreme_settings_stay_finite);
    RUN(tree_shape_knows_it_avoids);
    RUN(flags_follow_trees_between_steps);
    RUN(steps_do_not_allocate);
    RUN(contacts_separate_a_pair);
    RUN(contacts_ignore_order);
    RUN(contacts_against_a_wall_settle);
    return TEST_RESULT();
}
