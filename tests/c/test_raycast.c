// Ray casts: exact answers per shape, the edge cases of docs/geometry.md,
// filters, raycast_all's clip protocol, and the broadphase (grid and BVH)
// against a brute-force scan over random worlds.
#include <string.h>

#include "raycast.h"
#include "world.h"
#include "test.h"

static steer_world *new_world(void)
{
    steer_world_def def = steer_default_world_def();
    return steer_world_create(&def);
}

static bool cast(steer_world *w, float ox, float oy, float dx, float dy, float max, steer_ray_hit *hit)
{
    return steer_world_raycast(w, steer_v2(ox, oy), steer_v2(dx, dy), max, NULL, hit);
}

/* ---- exact answers per shape ---------------------------------------------------- */

static void segment_exact(void)
{
    steer_world *w = new_world();
    steer_shape_id s = steer_world_add_segment(w, steer_v2(-1, 5), steer_v2(1, 5));
    steer_ray_hit h;
    CHECK(cast(w, 0, 0, 0, 2, 10, &h)); // direction need not be unit
    CHECK_NEAR(h.distance, 5.0, 0);
    CHECK_VEC(h.point, 0.0, 5.0, 0);
    CHECK_VEC(h.normal, 0.0, -1.0, 0);
    CHECK(steer_shape_id_equal(h.shape, s));
    CHECK(steer_agent_id_is_null(h.agent));
    // from the other side the normal flips: it always points back at the ray
    CHECK(cast(w, 0.5f, 8, 0, -1, 10, &h));
    CHECK_NEAR(h.distance, 3.0, 0);
    CHECK_VEC(h.normal, 0.0, 1.0, 0);
    // slanted: 3-4-5
    CHECK(cast(w, -3, 1, 3, 4, 10, &h));
    CHECK_NEAR(h.distance, 5.0, 1e-6);
    CHECK_VEC(h.point, 0.0, 5.0, 1e-6);
    CHECK(!cast(w, 2, 0, 0, 1, 10, &h)); // passes beside it
    CHECK(!cast(w, 0, 0, 0, -1, 10, &h)); // behind the origin
    steer_world_destroy(w);
}

static void circle_exact(void)
{
    steer_world *w = new_world();
    steer_shape_id s = steer_world_add_circle(w, steer_v2(6, 8), 5);
    steer_ray_hit h;
    CHECK(cast(w, 0, 0, 3, 4, 20, &h));
    CHECK_NEAR(h.distance, 5.0, 1e-6);
    CHECK_VEC(h.point, 3.0, 4.0, 1e-6);
    CHECK_VEC(h.normal, -0.6, -0.8, 1e-6);
    CHECK(steer_shape_id_equal(h.shape, s));
    CHECK(cast(w, 6, 0, 0, 1, 20, &h));
    CHECK_NEAR(h.distance, 3.0, 0);
    CHECK_VEC(h.normal, 0.0, -1.0, 0);
    CHECK(!cast(w, 12, 0, 0, 1, 20, &h)); // misses by a metre
    steer_world_destroy(w);
}

static void box_exact(void)
{
    steer_world *w = new_world();
    steer_world_add_box(w, steer_v2(2, -1), steer_v2(4, 1));
    steer_ray_hit h;
    CHECK(cast(w, 0, 0, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 2.0, 0.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    CHECK(cast(w, 6, 0.5f, -1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.normal, 1.0, 0.0, 0);
    CHECK(cast(w, 3, -5, 0, 1, 10, &h));
    CHECK_NEAR(h.distance, 4.0, 0);
    CHECK_VEC(h.normal, 0.0, -1.0, 0);
    CHECK(cast(w, 3.5f, 4, 0, -1, 10, &h));
    CHECK_NEAR(h.distance, 3.0, 0);
    CHECK_VEC(h.normal, 0.0, 1.0, 0);
    CHECK(!cast(w, 0, 2, 1, 0, 10, &h));
    steer_world_destroy(w);
}

static void polygon_exact(void)
{
    steer_world *w = new_world();
    // clockwise on purpose: stored counter-clockwise
    steer_vec2 tri[3] = {{0, 4}, {1, 2}, {-1, 2}};
    steer_shape_id s = steer_world_add_polygon(w, tri, 3);
    CHECK(steer_shape_get_type(w, s) == STEER_SHAPE_POLYGON);
    steer_ray_hit h;
    CHECK(cast(w, 0, 0, 0, 1, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 0.0, 2.0, 0);
    CHECK_VEC(h.normal, 0.0, -1.0, 0);
    // the right edge (1,2)-(0,4): outward normal (2,1)/sqrt5
    CHECK(cast(w, 3, 3, -1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.5, 1e-6);
    CHECK_VEC(h.normal, 2.0 / sqrt(5.0), 1.0 / sqrt(5.0), 1e-6);
    CHECK(!cast(w, 2, 0, 0, 1, 10, &h));
    steer_world_destroy(w);
}

static void polyline_exact(void)
{
    steer_world *w = new_world();
    steer_vec2 pts[4] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    steer_shape_id room = steer_world_add_polyline(w, pts, 4, true);
    CHECK(steer_shape_get_type(w, room) == STEER_SHAPE_POLYLINE);
    steer_ray_hit h;
    // from inside the closed room, each wall answers with its inner side
    CHECK(cast(w, 2, 2, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    CHECK(cast(w, 2, 1, -1, 0, 10, &h)); // the closing link (0,4)-(0,0)
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.normal, 1.0, 0.0, 0);
    CHECK(steer_shape_id_equal(h.shape, room));
    steer_world_destroy(w);
}

/* ---- edge cases --------------------------------------------------------------------- */

static void origin_inside_a_solid(void)
{
    // a ray starting strictly inside a solid hits it at 0: the origin, with
    // the normal against the ray
    steer_world *w = new_world();
    steer_world_add_circle(w, steer_v2(0, 0), 2);
    steer_world_add_box(w, steer_v2(10, 0), steer_v2(12, 2));
    steer_vec2 tri[3] = {{20, 0}, {24, 0}, {22, 4}};
    steer_world_add_polygon(w, tri, 3);
    const float origins[3][2] = {{0.5f, 0.5f}, {11, 1}, {22, 1}};
    for (int i = 0; i < 3; ++i) {
        steer_ray_hit h;
        CHECK(cast(w, origins[i][0], origins[i][1], 0, 3, 10, &h));
        CHECK_NEAR(h.distance, 0.0, 0);
        CHECK_VEC(h.point, origins[i][0], origins[i][1], 0);
        CHECK_VEC(h.normal, 0.0, -1.0, 0);
    }
    steer_world_destroy(w);
}

static void origin_on_the_boundary(void)
{
    steer_world *w = new_world();
    steer_world_add_box(w, steer_v2(0, 0), steer_v2(1, 1));
    steer_world_add_circle(w, steer_v2(5, -3), 1);
    steer_ray_hit h;
    // entering: a hit at 0 with the face normal
    CHECK(cast(w, 0, 0.5f, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 0.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    CHECK(cast(w, 4, -3, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 0.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    // leaving: nothing
    CHECK(!cast(w, 1, 0.5f, 1, 0, 10, &h));
    CHECK(!cast(w, 6, -3, 1, 0, 10, &h));
    steer_world_destroy(w);
}

static void grazing(void)
{
    steer_world *w = new_world();
    steer_world_add_box(w, steer_v2(0, 0), steer_v2(1, 1));
    steer_ray_hit h;
    // touches the corner (0,0) only: a hit there, x face wins the tie
    CHECK(cast(w, -1, 1, 1, -1, 10, &h));
    CHECK_NEAR(h.distance, sqrt(2.0), 1e-6);
    CHECK_VEC(h.point, 0.0, 0.0, 1e-6);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    // sliding along the bottom face from outside: meets the corner
    CHECK(cast(w, -2, 0, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    steer_world_destroy(w);

    w = new_world();
    steer_world_add_segment(w, steer_v2(0, 0), steer_v2(2, 0));
    CHECK(cast(w, 2, -1, 0, 1, 10, &h)); // through the end point exactly
    CHECK_NEAR(h.distance, 1.0, 0);
    CHECK_VEC(h.point, 2.0, 0.0, 0);
    CHECK_VEC(h.normal, 0.0, -1.0, 0);
    CHECK(!cast(w, 2.0001f, -1, 0, 1, 10, &h));
    steer_world_destroy(w);

    w = new_world();
    steer_world_add_circle(w, steer_v2(0, 5), 1);
    CHECK(cast(w, 1, 0, 0, 1, 10, &h)); // tangent
    CHECK_NEAR(h.distance, 5.0, 0);
    CHECK_VEC(h.normal, 1.0, 0.0, 0);
    steer_world_destroy(w);

    w = new_world();
    steer_vec2 diamond[4] = {{0, 2}, {1, 3}, {0, 4}, {-1, 3}};
    steer_world_add_polygon(w, diamond, 4);
    CHECK(cast(w, 0, 0, 0, 1, 10, &h)); // into the bottom vertex
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 0.0, 2.0, 0);
    CHECK(cast(w, -2, 2, 1, 0, 10, &h)); // along y = 2: touches (0,2) only
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 0.0, 2.0, 0);
    steer_world_destroy(w);
}

static void collinear_with_a_segment(void)
{
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(2, 0), steer_v2(4, 0));
    steer_ray_hit h;
    // along the wall: its nearer end, normal against the ray
    CHECK(cast(w, 0, 0, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 2.0, 0.0, 0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0);
    CHECK(cast(w, 6, 0, -1, 0, 10, &h));
    CHECK_NEAR(h.distance, 2.0, 0);
    CHECK_VEC(h.point, 4.0, 0.0, 0);
    // starting on it: at the origin
    CHECK(cast(w, 3, 0, 1, 0, 10, &h));
    CHECK_NEAR(h.distance, 0.0, 0);
    CHECK_VEC(h.point, 3.0, 0.0, 0);
    // parallel beside it, or pointing away from it: nothing
    CHECK(!cast(w, 0, 0.001f, 1, 0, 10, &h));
    CHECK(!cast(w, 5, 0, 1, 0, 10, &h));
    CHECK(!cast(w, 0, 0, 1, 0, 1.5f, &h));
    steer_world_destroy(w);
}

static void zero_length_and_zero_direction(void)
{
    steer_world *w = new_world();
    steer_world_add_circle(w, steer_v2(0, 0), 1);
    steer_world_add_segment(w, steer_v2(5, -1), steer_v2(5, 1));
    steer_ray_hit h;
    // max_distance 0: only what the origin is in (or enters right there)
    CHECK(cast(w, 0.5f, 0, 1, 0, 0, &h));
    CHECK_NEAR(h.distance, 0.0, 0);
    CHECK(!cast(w, 3, 0, 1, 0, 0, &h));
    CHECK(cast(w, 5, 0, 1, 0, 0, &h)); // on the wall
    CHECK_NEAR(h.distance, 0.0, 0);
    // a zero direction is no ray: nothing, whatever the origin
    CHECK(!cast(w, 0.5f, 0, 0, 0, 10, &h));
    CHECK(!cast(w, 3, 0, 0, 0, 10, &h));
    steer_world_destroy(w);
}

static void hit_exactly_at_max_distance(void)
{
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-1, 5), steer_v2(1, 5));
    steer_world_add_box(w, steer_v2(2, -1), steer_v2(3, 1));
    steer_world_add_circle(w, steer_v2(0, -4), 1);
    steer_ray_hit h;
    CHECK(cast(w, 0, 0, 0, 1, 5, &h)); // inclusive
    CHECK_NEAR(h.distance, 5.0, 0);
    CHECK(!cast(w, 0, 0, 0, 1, nextafterf(5.0f, 0.0f), &h));
    CHECK(cast(w, 0, 0, 1, 0, 2, &h));
    CHECK(!cast(w, 0, 0, 1, 0, nextafterf(2.0f, 0.0f), &h));
    CHECK(cast(w, 0, 0, 0, -1, 3, &h));
    CHECK(!cast(w, 0, 0, 0, -1, nextafterf(3.0f, 0.0f), &h));
    steer_world_destroy(w);
}

/* ---- filters and agents ------------------------------------------------------------ */

static void filters_and_agents(void)
{
    steer_world *w = new_world();
    steer_shape_id near = steer_world_add_segment(w, steer_v2(-1, 2), steer_v2(1, 2));
    steer_shape_id far = steer_world_add_segment(w, steer_v2(-1, 6), steer_v2(1, 6));
    steer_shape_set_category(w, near, 2);
    CHECK(steer_shape_get_category(w, near) == 2);
    steer_ray_filter f = steer_default_ray_filter();
    steer_ray_hit h;
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(0, 1), 10, &f, &h));
    CHECK(steer_shape_id_equal(h.shape, near));
    f.mask = 1;
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(0, 1), 10, &f, &h));
    CHECK(steer_shape_id_equal(h.shape, far));
    f.mask = 4;
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(0, 1), 10, &f, &h));

    // agents as discs, the caster ignored
    steer_agent_def a = steer_default_agent_def();
    a.limits.radius = 0.5f;
    a.state.position = steer_v2(0, 0);
    steer_agent_id self = steer_agent_create(w, &a);
    a.state.position = steer_v2(0, 1);
    steer_agent_id other = steer_agent_create(w, &a);
    f = steer_default_ray_filter();
    f.include_agents = true;
    f.ignore = self;
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(0, 1), 10, &f, &h));
    CHECK(steer_agent_id_equal(h.agent, other));
    CHECK(steer_shape_id_is_null(h.shape));
    CHECK_NEAR(h.distance, 0.5, 1e-6);
    CHECK_VEC(h.normal, 0.0, -1.0, 1e-6);
    // a big agent far to the side still reaches the ray
    a.limits.radius = 30.0f;
    a.state.position = steer_v2(40, 4);
    steer_agent_id big = steer_agent_create(w, &a);
    CHECK(steer_world_raycast(w, steer_v2(0, 3), steer_v2(1, 0), 20, &f, &h));
    CHECK(steer_agent_id_equal(h.agent, big));
    CHECK_NEAR(h.distance, 40.0f - sqrtf(900.0f - 1.0f), 1e-4);
    f.include_agents = false;
    CHECK(!steer_world_raycast(w, steer_v2(0, 3), steer_v2(1, 0), 20, &f, &h));
    steer_world_destroy(w);
}

/* ---- raycast_all ----------------------------------------------------------------------- */

typedef struct visits {
    int count;
    float distance[16];
    steer_shape_id shape[16];
    float answer; ///< what the callback returns (< -1: return hit->distance)
    int stop_after;
} visits;

static float visit(const steer_ray_hit *hit, void *context)
{
    visits *v = context;
    if (v->count < 16) v->distance[v->count] = hit->distance, v->shape[v->count] = hit->shape;
    ++v->count;
    if (v->stop_after > 0 && v->count == v->stop_after) return 0.0f;
    return v->answer < -1.0f ? hit->distance : v->answer;
}

static void raycast_all_protocol(void)
{
    steer_world *w = new_world();
    steer_world_add_segment(w, steer_v2(-1, 3), steer_v2(1, 3));
    steer_world_add_circle(w, steer_v2(0, 6), 1); // 5
    steer_world_add_segment(w, steer_v2(-1, 1), steer_v2(1, 1));
    steer_world_add_segment(w, steer_v2(-2, 3), steer_v2(2, 3)); // ties with the first
    steer_vec2 zig[3] = {{-1, 8}, {0, 9}, {1, 8}}; // the joint at 9 is one hit
    steer_world_add_polyline(w, zig, 3, false);
    steer_vec2 o = {0, 0}, d = {0, 1};

    visits v = {0};
    v.answer = 100.0f; // all
    steer_world_raycast_all(w, o, d, 20, NULL, visit, &v);
    CHECK(v.count == 5);
    const float expect[5] = {1, 3, 3, 5, 9};
    for (int i = 0; i < 5 && i < v.count; ++i) CHECK_NEAR(v.distance[i], expect[i], 1e-6);
    CHECK(v.shape[1].index < v.shape[2].index); // ties in shape order

    memset(&v, 0, sizeof v);
    v.answer = -1.0f; // ignore each and go on: the same visits
    steer_world_raycast_all(w, o, d, 20, NULL, visit, &v);
    CHECK(v.count == 5);

    memset(&v, 0, sizeof v);
    v.answer = 0.0f; // stop at the first
    steer_world_raycast_all(w, o, d, 20, NULL, visit, &v);
    CHECK(v.count == 1);

    memset(&v, 0, sizeof v);
    v.answer = 4.0f; // clip at 4: the hits at 1, 3, 3
    steer_world_raycast_all(w, o, d, 20, NULL, visit, &v);
    CHECK(v.count == 3);

    memset(&v, 0, sizeof v);
    v.answer = -2.0f; // hit->distance: the first and its ties only
    steer_world_raycast_all(w, o, d, 20, NULL, visit, &v);
    CHECK(v.count == 1);
    memset(&v, 0, sizeof v);
    v.answer = -2.0f;
    steer_world_raycast_all(w, steer_v2(0, 2), d, 20, NULL, visit, &v);
    CHECK(v.count == 2); // the two walls at 3

    memset(&v, 0, sizeof v);
    v.answer = 100.0f;
    steer_world_raycast_all(w, o, d, 4.5f, NULL, visit, &v); // max_distance bounds all
    CHECK(v.count == 3);
    steer_world_destroy(w);
}

/* ---- the broadphase against brute force ------------------------------------------ */

static uint64_t rng_state;
static float rnd(float lo, float hi) { return lo + (hi - lo) * steer__rng_float(&rng_state); }

static void random_world(steer_world *w, int shapes, float size)
{
    for (int i = 0; i < shapes; ++i) {
        steer_vec2 c = steer_v2(rnd(0, size), rnd(0, size));
        int kind = (int)(steer__rng_next(&rng_state) % 10);
        float r = rnd(0.1f, 1.5f);
        if (kind == 9) r *= 10.0f; // a few large shapes
        switch (kind % 5) {
        case 0: steer_world_add_circle(w, c, r); break;
        case 1: steer_world_add_box(w, steer_sub(c, steer_v2(r, r * 0.5f)), steer_add(c, steer_v2(r, r * 0.5f))); break;
        case 2: {
            steer_vec2 d = steer_scale(steer_heading(rnd(-3.14f, 3.14f)), r);
            steer_world_add_segment(w, steer_sub(c, d), steer_add(c, d));
            break;
        }
        case 3: {
            steer_vec2 p[5];
            for (int k = 0; k < 5; ++k) p[k] = steer_add(c, steer_v2(rnd(-r, r), rnd(-r, r)));
            steer_world_add_polyline(w, p, 5, steer__rng_next(&rng_state) % 2 == 0);
            break;
        }
        default: {
            steer_vec2 p[6];
            float a0 = rnd(0, 1);
            for (int k = 0; k < 6; ++k) p[k] = steer_add(c, steer_scale(steer_heading(a0 + (float)k * 1.0471976f), r));
            steer_world_add_polygon(w, p, 6);
        }
        }
    }
}

// One ray through steer_world_raycast (a, returned) and the brute force
// (b, *hb), counted.
static bool cast_twice(steer_world *w, steer_vec2 o, steer_vec2 d, float max, steer_ray_hit *a, steer_ray_hit *b,
                       bool *hb, int *rays, int *hits)
{
    const geo_filter every = geo_filter_all();
    bool ha = steer_world_raycast(w, o, d, max, NULL, a);
    *hb = steer__raycast_brute(w, o, d, max, &every, b);
    ++*rays;
    *hits += ha;
    return ha;
}

static void broadphase_equals_brute_force(void)
{
    const uint64_t seeds[4] = {1, 2, 3, 4};
    const int sizes[4] = {40, 200, 1000, 3000};
    int rays = 0, hits = 0, mismatches = 0;
    for (int world = 0; world < 4; ++world) {
        rng_state = seeds[world];
        steer_world *w = new_world();
        float size = sqrtf((float)sizes[world]) * 4.0f;
        random_world(w, sizes[world], size);
        // remove a few, so compaction is exercised too
        for (int k = 0; k < sizes[world] / 10; ++k) {
            uint32_t i = 1 + (uint32_t)(steer__rng_next(&rng_state) % (uint64_t)sizes[world]);
            steer_shape_destroy(w, (steer_shape_id){i, 1});
        }
        for (int pass = 0; pass < 2; ++pass) {
            // pass 0: the grid where it pays; pass 1: the BVH only
            steer__geometry_ready(w);
            w->geometry->grid_off = pass == 1;
            w->geometry->dirty = true;
            for (int i = 0; i < 2500; ++i) {
                steer_vec2 o = steer_v2(rnd(-5, size + 5), rnd(-5, size + 5));
                steer_vec2 d = steer_heading(rnd(-3.2f, 3.2f));
                if (i % 7 == 0) d = steer_v2(i % 2 ? 1.0f : 0.0f, i % 2 ? 0.0f : -1.0f); // axis-aligned
                float max = i % 3 == 0 ? rnd(0, 5) : rnd(0, size);
                steer_ray_hit a, b;
                bool hb, ha = cast_twice(w, o, d, max, &a, &b, &hb, &rays, &hits);
                bool same = ha == hb && (!ha || (steer_shape_id_equal(a.shape, b.shape) &&
                                                 fabsf(a.distance - b.distance) <= 1e-5f));
                if (!same && mismatches++ < 5) {
                    fprintf(stderr, "world %d pass %d ray %d: (%g,%g) d (%g,%g) max %g: %d %g vs %d %g\n", world,
                            pass, i, o.x, o.y, d.x, d.y, max, ha, a.distance, hb, b.distance);
                }
            }
            if (world == 2 && pass == 0) CHECK(w->geometry->use_grid); // the grid was exercised
        }
        steer_world_destroy(w);
    }
    CHECK(mismatches == 0);
    CHECK(hits > rays / 5 && hits < rays);
    printf("  %d rays, %d hits, %d mismatches\n", rays, hits, mismatches);
}

// The grid walk tests boxes four sides at once and finds the normal of the
// closest one only at the end: the same bits as the box test of the brute
// force (distance, normal, point), for origins inside boxes, on their sides
// and corners, and rays along the axes and not.
static void grid_boxes_equal_brute_force_bits(void)
{
    steer_world *w = new_world();
    rng_state = 7;
    // boxes on a 2 m lattice with corners on quarter metres
    for (int y = 0; y < 24; ++y) {
        for (int x = 0; x < 24; ++x) {
            if ((x * 7 + y * 3) % 4 == 0) continue;
            float lx = (float)(2 * x) + 0.25f * (float)(steer__rng_next(&rng_state) % 3);
            float ly = (float)(2 * y) + 0.25f * (float)(steer__rng_next(&rng_state) % 3);
            steer_world_add_box(w, steer_v2(lx, ly), steer_v2(lx + 1.0f, ly + 1.25f));
        }
    }
    steer__geometry_ready(w);
    CHECK(w->geometry->use_grid);
    const steer_vec2 dirs[8] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 2}, {3, -1}, {-2, -5}};
    int rays = 0, hits = 0, mismatches = 0;
    for (int i = 0; i < 6000; ++i) {
        // origins on the quarter-metre lattice (sides, corners, inside) or anywhere
        steer_vec2 o = i % 2 == 0 ? steer_v2(0.25f * (float)(steer__rng_next(&rng_state) % 200) - 1.0f,
                                             0.25f * (float)(steer__rng_next(&rng_state) % 200) - 1.0f)
                                  : steer_v2(rnd(-2, 50), rnd(-2, 50));
        steer_vec2 d = i % 3 == 0 ? steer_heading(rnd(-3.2f, 3.2f)) : dirs[i % 8];
        float max = i % 5 == 0 ? 40.0f : rnd(0, 8);
        steer_ray_hit a, b;
        bool hb, ha = cast_twice(w, o, d, max, &a, &b, &hb, &rays, &hits);
        bool same = ha == hb && (!ha || (steer_shape_id_equal(a.shape, b.shape) &&
                                         memcmp(&a.distance, &b.distance, sizeof a.distance) == 0 &&
                                         memcmp(&a.normal, &b.normal, sizeof a.normal) == 0 &&
                                         memcmp(&a.point, &b.point, sizeof a.point) == 0));
        if (!same && mismatches++ < 5) {
            fprintf(stderr, "ray %d: (%g,%g) d (%g,%g) max %g: %d %g (%g,%g) vs %d %g (%g,%g)\n", i, o.x, o.y, d.x,
                    d.y, max, ha, a.distance, a.normal.x, a.normal.y, hb, b.distance, b.normal.x, b.normal.y);
        }
    }
    CHECK(mismatches == 0);
    CHECK(hits > rays / 4 && hits < rays);
    printf("  %d rays, %d hits, %d mismatches\n", rays, hits, mismatches);
    steer_world_destroy(w);
}

/* ---- handles and validation ---------------------------------------------------------- */

static int asserts;
static void count_assert(const char *c, const char *f, int l, void *ctx)
{
    (void)c, (void)f, (void)l, (void)ctx;
    ++asserts;
}

static void handles_and_validation(void)
{
    steer_world *w = new_world();
    steer_shape_id a = steer_world_add_circle(w, steer_v2(0, 0), 1);
    steer_shape_id b = steer_world_add_box(w, steer_v2(3, -1), steer_v2(5, 1));
    CHECK(steer_world_shape_count(w) == 2);
    CHECK(steer_shape_is_valid(w, a) && steer_shape_is_valid(w, b));
    steer_shape_destroy(w, a);
    CHECK(!steer_shape_is_valid(w, a));
    CHECK(steer_world_shape_count(w) == 1);
    steer_shape_destroy(w, a); // stale: ignored, no assert
    steer_ray_hit h;
    CHECK(cast(w, -5, 0, 1, 0, 20, &h));
    CHECK(steer_shape_id_equal(h.shape, b));
    steer_shape_id c = steer_world_add_segment(w, steer_v2(-1, -1), steer_v2(-1, 1));
    CHECK(c.index == a.index && c.generation != a.generation); // slot reused
    CHECK(!steer_shape_is_valid(w, a));
    CHECK(cast(w, -5, 0, 1, 0, 20, &h));
    CHECK(steer_shape_id_equal(h.shape, c));
    CHECK(!steer_shape_is_valid(w, steer_null_shape));

    steer_set_assert_fn(count_assert, NULL);
    asserts = 0;
    float nan = nanf(""), inf = INFINITY;
    CHECK(steer_shape_id_is_null(steer_world_add_segment(w, steer_v2(1, 1), steer_v2(1, 1))));
    CHECK(steer_shape_id_is_null(steer_world_add_segment(w, steer_v2(nan, 1), steer_v2(1, 2))));
    CHECK(steer_shape_id_is_null(steer_world_add_circle(w, steer_v2(0, 0), 0)));
    CHECK(steer_shape_id_is_null(steer_world_add_circle(w, steer_v2(0, 0), -1)));
    CHECK(steer_shape_id_is_null(steer_world_add_circle(w, steer_v2(inf, 0), 1)));
    CHECK(steer_shape_id_is_null(steer_world_add_box(w, steer_v2(0, 0), steer_v2(0, 1))));
    CHECK(steer_shape_id_is_null(steer_world_add_box(w, steer_v2(1, 0), steer_v2(0, 1))));
    steer_vec2 concave[4] = {{0, 0}, {2, 0}, {1, 0.5f}, {1, 2}};
    CHECK(steer_shape_id_is_null(steer_world_add_polygon(w, concave, 4)));
    steer_vec2 star[5] = {{0, 2}, {1.2f, -1.6f}, {-1.9f, 0.6f}, {1.9f, 0.6f}, {-1.2f, -1.6f}};
    CHECK(steer_shape_id_is_null(steer_world_add_polygon(w, star, 5)));
    steer_vec2 collinear[3] = {{0, 0}, {1, 0}, {2, 0}};
    CHECK(steer_shape_id_is_null(steer_world_add_polygon(w, collinear, 3)));
    steer_vec2 line[2] = {{0, 0}, {0, 0}};
    CHECK(steer_shape_id_is_null(steer_world_add_polyline(w, line, 2, false)));
    CHECK(steer_shape_id_is_null(steer_world_add_polyline(w, line, 1, false)));
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), -1, NULL, &h));
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(nan, 0), 1, NULL, &h));
    CHECK(!steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), inf, NULL, &h));
    CHECK(asserts == 15);
    CHECK(steer_world_shape_count(w) == 2);
    asserts = 0;
    CHECK(!cast(w, 0, 0, 0, 0, 1, &h)); // zero direction is not misuse
    CHECK(asserts == 0);
    steer_set_assert_fn(NULL, NULL);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(segment_exact);
    RUN(circle_exact);
    RUN(box_exact);
    RUN(polygon_exact);
    RUN(polyline_exact);
    RUN(origin_inside_a_solid);
    RUN(origin_on_the_boundary);
    RUN(grazing);
    RUN(collinear_with_a_segment);
    RUN(zero_length_and_zero_direction);
    RUN(hit_exactly_at_max_distance);
    RUN(filters_and_agents);
    RUN(raycast_all_protocol);
    RUN(broadphase_equals_brute_force);
    RUN(grid_boxes_equal_brute_force_bits);
    RUN(handles_and_validation);
    return TEST_RESULT();
}
