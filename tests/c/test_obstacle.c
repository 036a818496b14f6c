// obstacle_avoidance: the notes' behaviour by hand computation, the three
// ray layouts, and the scenarios of issue 3 with contact resolution off
// (steering quality alone): a field of circles, a corridor with two bends,
// the corner trap, thin obstacles, lookahead and speed, 100 agents crossing
// a room with pillars. Then contact resolution on its own.
#include "raycast.h"
#include "world.h"
#include "test.h"

static const float DT = 1.0f / 60.0f;

static steer_world *new_world(void)
{
    steer_world_def def = steer_default_world_def();
    return steer_world_create(&def);
}

static steer_agent_id spawn(steer_world *w, float x, float y, float vx, float vy, steer_behaviour *b)
{
    steer_agent_def a = steer_default_agent_def();
    a.state.position = steer_v2(x, y);
    a.state.velocity = steer_v2(vx, vy);
    a.limits.radius = 0.5f;
    a.limits.max_speed = 5.0f;
    a.limits.max_acceleration = 10.0f;
    a.face_velocity = true;
    a.behaviour = b;
    return steer_agent_create(w, &a);
}

static steer_behaviour *avoidance(steer_ray_layout rays, float lookahead, float avoid, bool scale)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE);
    d.rays = rays;
    d.lookahead = lookahead;
    d.avoid_distance = avoid;
    d.scale_lookahead = scale;
    return steer_behaviour_create(&d);
}

static steer_behaviour *to_point(steer_behaviour_type type, float x, float y)
{
    steer_behaviour_def d = steer_default_behaviour_def(type);
    d.target.kind = STEER_TARGET_POINT;
    d.target.point = steer_v2(x, y);
    if (type == STEER_ARRIVE) d.target_radius = 0.2f, d.slow_radius = 3.0f;
    return steer_behaviour_create(&d);
}

// priority{ first, then } (both released: the priority holds them)
static steer_behaviour *first_then(steer_behaviour *first, steer_behaviour *then)
{
    steer_child ch[2] = {{first, 1.0f}, {then, 1.0f}};
    steer_behaviour_def d = steer_default_behaviour_def(STEER_PRIORITY);
    d.children = ch;
    d.child_count = 2;
    steer_behaviour *b = steer_behaviour_create(&d);
    steer_behaviour_release(first);
    steer_behaviour_release(then);
    return b;
}

// Deepest penetration of a disc into any shape (brute force), metres.
static float penetration(steer_world *w, steer_vec2 p, float radius)
{
    const struct steer_geometry *g = w->geometry;
    float worst = 0.0f;
    for (int i = 0; i < g->src_count; ++i) {
        if (g->src[i].dead) continue;
        steer_vec2 q, n;
        float d = steer__geometry_closest(g, &g->src[i], p, &q, &n);
        worst = steer_maxf(worst, radius - d);
    }
    return worst;
}

// Step until the agent is within `tolerance` of the goal (60 s at most):
// it must get there without ever entering geometry deeper than 5 cm.
static void walk_to(steer_world *w, steer_agent_id a, steer_vec2 goal, float tolerance)
{
    float worst = 0.0f, t = 0.0f;
    bool reached = false;
    for (; t < 60.0f && !reached; t += DT) {
        steer_world_step(w, DT);
        steer_vec2 p = steer_agent_get_position(w, a);
        worst = steer_maxf(worst, penetration(w, p, 0.5f));
        reached = steer_distance(p, goal) < tolerance;
    }
    CHECK(reached);
    CHECK(worst <= 0.05f);
    printf("  reached in %.2f s, deepest penetration %.4f m\n", t, worst);
}


/* ---- the behaviour by hand ------------------------------------------------------ */

static void notes_single_ray(void)
{
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-5, 3), steer_v2(5, 3));
    steer_behaviour *b = avoidance(STEER_RAYS_SINGLE, 4, 2, false);
    steer_agent_id a = spawn(w, 1, 0, 0, 2, NULL);
    steer_steering s;
    // ray (1,0) -> (1,4) hits (1,3), normal (0,-1): the notes' target (1,1)
    // is straight back. Head-on, so the agent commits to the side with more
    // room (the wall ends 4 m to the right, 6 m to the left): a point back
    // and to the right, (1,-1)/sqrt2 * max_acceleration
    CHECK(steer_behaviour_get_steering(b, w, a, DT, &s));
    CHECK_VEC(s.linear, 10.0 / sqrt(2.0), -10.0 / sqrt(2.0), 1e-4);
    // a slanted wall: the notes' target hit + normal * avoid_distance
    steer_world_destroy(w);
    w = new_world();
    steer_world_add_segment(w, steer_v2(-5, -2), steer_v2(5, 8)); // y = x + 3
    a = spawn(w, 0, 0, 0, 2, NULL);
    CHECK(steer_behaviour_get_steering(b, w, a, DT, &s));
    // hit (0,3), normal (1,-1)/sqrt2, target (sqrt2, 3 - sqrt2)
    steer_vec2 t = steer_v2(sqrtf(2.0f), 3.0f - sqrtf(2.0f));
    steer_vec2 e = steer_scale(steer_normalize(t), 10.0f);
    CHECK_VEC(s.linear, e.x, e.y, 1e-4);
    CHECK_NEAR(s.angular, 0.0, 0);
    // nothing ahead, too far, or not moving: no steering
    steer_agent_set_velocity(w, a, steer_v2(0, -2));
    CHECK(!steer_behaviour_get_steering(b, w, a, DT, &s));
    steer_agent_set_position(w, a, steer_v2(0, -5));
    steer_agent_set_velocity(w, a, steer_v2(0, 2));
    CHECK(!steer_behaviour_get_steering(b, w, a, DT, &s)); // wall 8 m ahead
    steer_agent_set_position(w, a, steer_v2(0, 0));
    steer_agent_set_velocity(w, a, steer_v2(0, 0));
    CHECK(!steer_behaviour_get_steering(b, w, a, DT, &s));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void layouts(void)
{
    // a wall to the front-left: only the left whisker sees it
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-1.6f, 0.84f), steer_v2(-0.7f, 1.33f));
    steer_agent_id a = spawn(w, 0, 0, 0, 3, NULL);
    steer_steering s;
    steer_behaviour *single = avoidance(STEER_RAYS_SINGLE, 4, 2, false);
    steer_behaviour *whiskers = avoidance(STEER_RAYS_WHISKERS, 4, 2, false);
    steer_behaviour *parallel = avoidance(STEER_RAYS_PARALLEL, 4, 2, false);
    CHECK(!steer_behaviour_get_steering(single, w, a, DT, &s));
    CHECK(steer_behaviour_get_steering(whiskers, w, a, DT, &s));
    CHECK(s.linear.x > 0.0f); // turns right, away from it
    CHECK(!steer_behaviour_get_steering(parallel, w, a, DT, &s));
    steer_world_destroy(w);
    // a post 0.4 m to the right of the path: the single ray misses it, the
    // parallel ray at +radius (0.5) sees it
    w = new_world();
    steer_world_add_circle(w, steer_v2(0.6f, 3), 0.15f);
    a = spawn(w, 0, 0, 0, 3, NULL);
    CHECK(!steer_behaviour_get_steering(single, w, a, DT, &s));
    CHECK(steer_behaviour_get_steering(parallel, w, a, DT, &s));
    CHECK(s.linear.x < 0.0f); // turns left
    steer_behaviour_release(single);
    steer_behaviour_release(whiskers);
    steer_behaviour_release(parallel);
    steer_world_destroy(w);
}

/* ---- scenarios ---------------------------------------------------------------------- */

static void field_of_circles(void)
{
    steer_world *w = new_world();
    uint64_t rng = 11;
    int placed = 0;
    while (placed < 50) {
        steer_vec2 c = steer_v2(4.0f + 32.0f * steer__rng_float(&rng), 4.0f + 32.0f * steer__rng_float(&rng));
        float r = 0.4f + 1.0f * steer__rng_float(&rng);
        // keep start and goal clear
        if (steer_length(c) < 4.0f || steer_distance(c, steer_v2(40, 40)) < 4.0f) continue;
        steer_world_add_circle(w, c, r);
        ++placed;
    }
    steer_behaviour *b = first_then(avoidance(STEER_RAYS_WHISKERS, 4, 2, false), to_point(STEER_ARRIVE, 40, 40));
    walk_to(w, spawn(w, 0, 0, 0, 0, b), steer_v2(40, 40), 0.5f);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void corridor_with_two_bends(void)
{
    // centre line (0,0) -> (0,20) -> (20,20) -> (20,40), 3 m wide
    steer_world *w = new_world();
    steer_vec2 left[4] = {{-1.5f, -2}, {-1.5f, 21.5f}, {18.5f, 21.5f}, {18.5f, 42}};
    steer_vec2 right[4] = {{1.5f, -2}, {1.5f, 18.5f}, {21.5f, 18.5f}, {21.5f, 42}};
    steer_world_add_polyline(w, left, 4, false);
    steer_world_add_polyline(w, right, 4, false);
    steer_vec2 centre[4] = {{0, 0}, {0, 20}, {20, 20}, {20, 40}};
    steer_path_def pd = steer_default_path_def();
    pd.points = centre;
    pd.count = 4;
    steer_path *path = steer_path_create(&pd);
    steer_behaviour_def fd = steer_default_behaviour_def(STEER_FOLLOW_PATH);
    fd.path = path;
    fd.path_offset = 2.0f;
    steer_behaviour *b = first_then(avoidance(STEER_RAYS_WHISKERS, 4, 3, true), steer_behaviour_create(&fd));
    walk_to(w, spawn(w, 0, 0, 0, 0, b), steer_v2(20, 40), 1.0f);
    steer_behaviour_release(b);
    steer_path_release(path);
    steer_world_destroy(w);
}

static void corner_trap(void)
{
    // a V opening towards the agent, the goal behind its apex: each whisker
    // meets one wall. Work-around: commit to one side and turn away.
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-6, 4), steer_v2(0, 10));
    steer_world_add_segment(w, steer_v2(6, 4), steer_v2(0, 10));
    steer_behaviour *b = first_then(avoidance(STEER_RAYS_WHISKERS, 4, 2, false), to_point(STEER_SEEK, 0, 20));
    steer_agent_id a = spawn(w, 0, 0, 0, 5, b);
    float turned_at = -1.0f, worst = 0.0f;
    float last_heading = 0.0f;
    int flips = 0, last_sign = 0;
    for (float t = 0.0f; t < 3.0f && turned_at < 0.0f; t += DT) {
        steer_world_step(w, DT);
        steer_vec2 v = steer_agent_get_velocity(w, a);
        steer_vec2 p = steer_agent_get_position(w, a);
        worst = steer_maxf(worst, penetration(w, p, 0.5f));
        float heading = steer_orientation_of(v);
        // turning direction changes: an oscillating agent flips every few steps
        float turn = steer_wrap_angle(heading - last_heading);
        int sign = turn > 1e-3f ? 1 : (turn < -1e-3f ? -1 : 0);
        if (sign != 0 && last_sign != 0 && sign != last_sign) ++flips;
        if (sign != 0) last_sign = sign;
        last_heading = heading;
        // away: moving back out of the V
        if (v.y < 0.0f && steer_length(v) > 0.5f) turned_at = t;
    }
    CHECK(turned_at >= 0.0f && turned_at <= 3.0f);
    CHECK(flips <= 2);
    CHECK(worst <= 0.05f);
    printf("  turned away at %.2f s, %d turn reversals, deepest penetration %.4f m\n", turned_at, flips, worst);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void thin_obstacles(void)
{
    // a pole thinner than the gap between rays, where the body would touch
    // it: the swept central ray sees it (whiskers and parallel layouts)
    const steer_ray_layout layouts[2] = {STEER_RAYS_WHISKERS, STEER_RAYS_PARALLEL};
    const float offsets[3] = {0.0f, 0.3f, -0.25f};
    for (int l = 0; l < 2; ++l) {
        for (int o = 0; o < 3; ++o) {
            steer_world *w = new_world();
            steer_world_add_circle(w, steer_v2(offsets[o], 10), 0.05f);
            steer_behaviour *b = first_then(avoidance(layouts[l], 4, 1.5f, false), to_point(STEER_SEEK, 0, 20));
            steer_agent_id a = spawn(w, 0, 0, 0, 5, b);
            float worst = 0.0f;
            for (float t = 0.0f; t < 4.0f; t += DT) {
                steer_world_step(w, DT);
                worst = steer_maxf(worst, penetration(w, steer_agent_get_position(w, a), 0.5f));
            }
            CHECK(worst <= 0.05f);
            CHECK(steer_agent_get_position(w, a).y > 11.0f); // went past it
            steer_behaviour_release(b);
            steer_world_destroy(w);
        }
    }
}

// Time to settle at a goal 1.5 m in front of a wall (within 0.3 m, below
// 0.2 m/s) from 1.5 m away, and the path length. Arrive keeps the agent
// slow: rays long enough for full speed see the wall all the way and push
// the agent about; rays scaled by speed stay short.
static float settle_in_front_of_wall(bool scale, float *path_length)
{
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-5, 10), steer_v2(5, 10));
    steer_behaviour *b = first_then(avoidance(STEER_RAYS_SINGLE, 6, 2, scale), to_point(STEER_ARRIVE, 0, 8.5f));
    steer_agent_id a = spawn(w, 0, 7, 0, 0, b);
    float settled = -1.0f;
    *path_length = 0.0f;
    for (float t = 0.0f; t < 20.0f && settled < 0.0f; t += DT) {
        steer_vec2 before = steer_agent_get_position(w, a);
        steer_world_step(w, DT);
        steer_vec2 p = steer_agent_get_position(w, a);
        *path_length += steer_distance(before, p);
        if (steer_distance(p, steer_v2(0, 8.5f)) < 0.3f && steer_length(steer_agent_get_velocity(w, a)) < 0.2f)
            settled = t;
    }
    steer_behaviour_release(b);
    steer_world_destroy(w);
    return settled;
}

static void lookahead_scales_with_speed(void)
{
    float len_scaled, len_fixed;
    float t_scaled = settle_in_front_of_wall(true, &len_scaled);
    float t_fixed = settle_in_front_of_wall(false, &len_fixed);
    printf("  scaled: settled at %.2f s after %.2f m; fixed: %.2f s after %.2f m\n", t_scaled, len_scaled, t_fixed,
           len_fixed);
    CHECK(t_scaled > 0.0f);
    CHECK(t_fixed < 0.0f || t_scaled < t_fixed);
    CHECK(len_scaled < len_fixed);

    // the ray length itself: lookahead at max speed, shorter when slower,
    // never under the radius
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-5, 3), steer_v2(5, 3));
    steer_behaviour *b = avoidance(STEER_RAYS_SINGLE, 4, 2, true);
    steer_agent_id a = spawn(w, 0, 0, 0, 5, NULL); // full speed: 4 m, sees the wall at 3
    steer_steering s;
    CHECK(steer_behaviour_get_steering(b, w, a, DT, &s));
    steer_agent_set_velocity(w, a, steer_v2(0, 3)); // 2.4 m: does not
    CHECK(!steer_behaviour_get_steering(b, w, a, DT, &s));
    steer_agent_set_position(w, a, steer_v2(0, 2.6f));
    steer_agent_set_velocity(w, a, steer_v2(0, 0.01f)); // 0.008 m, but at least the radius
    CHECK(steer_behaviour_get_steering(b, w, a, DT, &s));
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

static void crowd_crosses_a_room_with_pillars(void)
{
    steer_world *w = new_world();
    steer_vec2 room[4] = {{0, 0}, {40, 0}, {40, 30}, {0, 30}};
    steer_world_add_polyline(w, room, 4, true);
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 3; ++j) {
            steer_vec2 c = steer_v2(12.0f + 5.0f * (float)i, 7.5f + 7.5f * (float)j);
            if ((i + j) % 2 == 0) steer_world_add_circle(w, c, 1.2f);
            else steer_world_add_box(w, steer_sub(c, steer_v2(1, 1)), steer_add(c, steer_v2(1, 1)));
        }
    }
    steer_agent_id agents[100];
    steer_vec2 goals[100];
    for (int k = 0; k < 100; ++k) {
        float y = 2.0f + 26.0f * (float)(k % 25) / 24.0f;
        float x = 2.0f + 1.5f * (float)(k / 25);
        goals[k] = steer_v2(40.0f - x, 30.0f - y);
        steer_behaviour *b = first_then(avoidance(STEER_RAYS_WHISKERS, 4, 2, true),
                                        to_point(STEER_ARRIVE, goals[k].x, goals[k].y));
        agents[k] = spawn(w, x, y, 0, 0, b);
        steer_behaviour_release(b);
    }
    float worst = 0.0f;
    int arrived = 0;
    for (float t = 0.0f; t < 40.0f; t += DT) {
        steer_world_step(w, DT);
        for (int k = 0; k < 100; ++k) {
            worst = steer_maxf(worst, penetration(w, steer_agent_get_position(w, agents[k]), 0.5f));
        }
    }
    for (int k = 0; k < 100; ++k) arrived += steer_distance(steer_agent_get_position(w, agents[k]), goals[k]) < 1.0f;
    CHECK(worst <= 0.05f);
    CHECK(arrived >= 95);
    printf("  %d of 100 arrived, deepest penetration %.4f m\n", arrived, worst);
    steer_world_destroy(w);
}

/* ---- inside a solid ---------------------------------------------------------------- */

// Signed distance of p to the world's solids (negative: the centre is
// inside one); walls have no inside.
static float inside_depth(steer_world *w, steer_vec2 p)
{
    const struct steer_geometry *g = w->geometry;
    float worst = 0.0f;
    for (int i = 0; i < g->src_count; ++i) {
        if (g->src[i].dead || g->src[i].type == PRIM_SEGMENT) continue;
        steer_vec2 q, n;
        worst = steer_maxf(worst, -steer__geometry_closest(g, &g->src[i], p, &q, &n));
    }
    return worst;
}

// An agent whose centre starts inside a circle, a box or a polygon (at the
// centre, off centre, near an edge), at rest or moving in any direction,
// gets out by obstacle avoidance alone with every ray layout, contact
// resolution off: alone, and ahead of a seek that pulls it back to the
// shape's middle (the rays from inside hit at distance 0, and avoidance
// used to hover there).
static void escapes_from_inside(void)
{
    static const steer_ray_layout layouts_[3] = {STEER_RAYS_SINGLE, STEER_RAYS_WHISKERS, STEER_RAYS_PARALLEL};
    static const float starts[4][2] = {{0.0f, 0.0f}, {0.7f, -0.4f}, {1.7f, 0.2f}, {-0.3f, 1.1f}};
    static const float velocities[5][2] = {{0, 0}, {3, 0}, {-3, 0}, {0, 4}, {-2, -2}};
    const steer_vec2 pentagon[5] = {{2.5f, 0}, {0.8f, 2.4f}, {-2.0f, 1.5f}, {-2.0f, -1.5f}, {0.8f, -2.4f}};
    int runs = 0, stuck = 0;
    float slowest = 0.0f, deepest = 0.0f;
    for (int shape = 0; shape < 3; ++shape) {
        for (int l = 0; l < 3; ++l) {
            for (int follow = 0; follow < 2; ++follow) {
                for (int s = 0; s < 4; ++s) {
                    for (int v = 0; v < 5; ++v) {
                        steer_world *w = new_world();
                        if (shape == 0) steer_world_add_circle(w, steer_v2(0, 0), 2.5f);
                        if (shape == 1) steer_world_add_box(w, steer_v2(-2.5f, -1.5f), steer_v2(2.5f, 1.5f));
                        if (shape == 2) steer_world_add_polygon(w, pentagon, 5);
                        steer_behaviour *b = avoidance(layouts_[l], 3, 1.5f, false);
                        if (follow) b = first_then(b, to_point(STEER_SEEK, 0, 0));
                        steer_vec2 p0 = steer_v2(starts[s][0], starts[s][1]);
                        if (shape == 1) p0.y *= 0.8f;
                        steer_agent_id a = spawn(w, p0.x, p0.y, velocities[v][0], velocities[v][1], b);
                        steer_behaviour_release(b);
                        CHECK(inside_depth(w, p0) > 0.0f);
                        float t = 0.0f;
                        while (t < 5.0f && inside_depth(w, steer_agent_get_position(w, a)) > 0.0f) {
                            steer_world_step(w, DT);
                            t += DT;
                        }
                        CHECK(t < 5.0f);
                        if (t >= 5.0f && stuck++ < 5) {
                            printf("  stuck: shape %d layout %d follow %d start %d velocity %d\n", shape, l, follow,
                                   s, v);
                        }
                        if (t < 5.0f) slowest = steer_maxf(slowest, t);
                        // once out, avoidance keeps the centre out while the seek
                        // pulls it in (the single ray lets it graze the boundary:
                        // dips of 2 mm, out again at once)
                        for (int i = 0; i < 120; ++i) {
                            steer_world_step(w, DT);
                            deepest = steer_maxf(deepest, inside_depth(w, steer_agent_get_position(w, a)));
                        }
                        ++runs;
                        steer_world_destroy(w);
                    }
                }
            }
        }
    }
    CHECK(deepest <= 0.01f);
    printf("  %d runs, %d stuck inside for 5 s, the others out within %.2f s; back in by %.4f m at most\n", runs,
           stuck, slowest, deepest);
}

/* ---- contact resolution ------------------------------------------------------------ */

static void contact_resolution(void)
{
    steer_world *w = new_world();
    CHECK(!steer_world_get_resolve_contacts(w)); // off by default
    steer_world_set_resolve_contacts(w, true);
    steer_world_add_segment(w, steer_v2(-5, 3), steer_v2(5, 3));
    steer_world_add_box(w, steer_v2(10, -1), steer_v2(12, 1));
    // driven straight into the wall: stops against it, velocity along it kept
    steer_agent_id a = spawn(w, 0, 0, 1, 5, to_point(STEER_SEEK, 1, 10));
    steer_behaviour_release(steer_agent_get_behaviour(w, a)); // the agent holds it
    for (int i = 0; i < 120; ++i) steer_world_step(w, DT);
    steer_vec2 p = steer_agent_get_position(w, a), v = steer_agent_get_velocity(w, a);
    CHECK_NEAR(p.y, 2.5, 1e-4);
    CHECK(v.y <= 1e-6f);
    CHECK(penetration(w, p, 0.5f) <= 1e-4f);
    // placed inside a box: pushed out through the nearest face
    steer_agent_id b = spawn(w, 11.8f, 0, 0, 0, NULL);
    steer_world_step(w, DT);
    CHECK_VEC(steer_agent_get_position(w, b), 12.5, 0.0, 1e-4);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(notes_single_ray);
    RUN(layouts);
    RUN(field_of_circles);
    RUN(corridor_with_two_bends);
    RUN(corner_trap);
    RUN(thin_obstacles);
    RUN(lookahead_scales_with_speed);
    RUN(crowd_crosses_a_room_with_pillars);
    RUN(escapes_from_inside);
    RUN(contact_resolution);
    return TEST_RESULT();
}
