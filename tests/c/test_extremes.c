// Extreme inputs found by the fuzz campaign (issue 9): denormal and huge ray
// directions, max_distance = FLT_MAX, origins far from small shapes, agents
// a denormal distance from a surface, and tiny cell sizes. Every case must
// terminate, stay finite, and give unit normals facing the ray. A property
// test throws random rays of magnitudes 1e-40 to 1e30 at worlds of every
// shape kind and agents. A hang fails through the ctest TIMEOUT.
#include <float.h>

#include "fixture.h"
#include "raycast.h"
#include "test.h"

static bool vec_finite(steer_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static bool cast(steer_world *w, float ox, float oy, float dx, float dy, float max, steer_ray_hit *hit)
{
    return steer_world_raycast(w, steer_v2(ox, oy), steer_v2(dx, dy), max, NULL, hit);
}

// The properties every hit must have (dir as the caller passed it).
static bool hit_ok(const steer_ray_hit *h, steer_vec2 dir, float max)
{
    if (!vec_finite(h->point) || !vec_finite(h->normal) || !isfinite(h->distance)) return false;
    double len = sqrt((double)h->normal.x * h->normal.x + (double)h->normal.y * h->normal.y);
    if (!(fabs(len - 1.0) <= 1e-5)) return false;
    // exactly against the engine's unit direction, and within rounding of
    // the caller's (a grazing hit has its normal perpendicular to the ray)
    steer_vec2 u;
    if (!geo_unit(dir, &u) || steer_dot(h->normal, u) > 0.0f) return false;
    double m = fmax(fabs((double)dir.x), fabs((double)dir.y));
    double d = (double)h->normal.x * (dir.x / m) + (double)h->normal.y * (dir.y / m);
    if (d > 1e-6) return false;
    return h->distance >= 0.0f && h->distance <= max;
}

static steer_agent_id spawn_at(steer_world *w, float x, float y, float radius)
{
    steer_agent_def a = steer_default_agent_def();
    a.state.position = steer_v2(x, y);
    a.limits.radius = radius;
    return steer_agent_create(w, &a);
}

/* ---- 3: the grid walk ends -------------------------------------------------------- */

static void grid_walk_ends_with_denormal_direction_and_flt_max(void)
{
    steer_world *w = make_world(0);
    for (int i = 0; i < 40; ++i) steer_world_add_circle(w, steer_v2((float)(i % 8) * 4, (float)(i / 8) * 4), 1);
    steer_ray_filter f = steer_default_ray_filter();
    f.mask = 2;
    steer_ray_hit h;
    CHECK(!steer_world_raycast(w, steer_v2(2, 2), steer_v2(1e-45f, 0), FLT_MAX, &f, &h));
    CHECK(!steer_world_raycast(w, steer_v2(2, 2), steer_v2(0, -1e-45f), FLT_MAX, &f, &h));
    CHECK(!steer_world_raycast(w, steer_v2(2, 2), steer_v2(-3e38f, 1e-45f), FLT_MAX, &f, &h));
    // and with every category: the first circle along the ray, from afar
    CHECK(steer_world_raycast(w, steer_v2(-1e30f, 0), steer_v2(1e-45f, 0), FLT_MAX, NULL, &h));
    CHECK(hit_ok(&h, steer_v2(1e-45f, 0), FLT_MAX));
    CHECK(steer_world_raycast(w, steer_v2(2, 0), steer_v2(1e-45f, 0), FLT_MAX, NULL, &h));
    CHECK_NEAR(h.distance, 1.0, 1e-6);
    CHECK_VEC(h.normal, -1.0, 0.0, 0.0);
    steer_world_destroy(w);
}

/* ---- 4: denormal and huge directions ---------------------------------------------- */

static void denormal_directions_hit_like_unit_ones(void)
{
    steer_world *w = make_world(0);
    steer_world_add_box(w, steer_v2(-1, -1), steer_v2(1, 1));
    steer_ray_hit h;
    // from inside: distance 0, normal -u, never NaN
    CHECK(cast(w, 0, 0, 1e-45f, 0, 100, &h));
    CHECK(hit_ok(&h, steer_v2(1e-45f, 0), 100));
    CHECK_VEC(h.point, 0.0, 0.0, 0.0);
    CHECK_VEC(h.normal, -1.0, 0.0, 0.0);
    CHECK(cast(w, 0, 0, -1e-45f, 1e-45f, 100, &h));
    CHECK_VEC(h.normal, 0.70710678, -0.70710678, 1e-6);
    steer_world_destroy(w);

    // shapes in front of the ray: the same hit as the unit direction gives
    const steer_vec2 dirs[] = {{1e-45f, 0}, {3e-39f, 0}, {1e-20f, 1e-45f}, {3.4e38f, 0}, {FLT_MAX, 1e-45f}};
    for (int kind = 0; kind < 5; ++kind) {
        w = make_world(0);
        steer_vec2 tri[3] = {{5, -1}, {6, 0}, {5, 1}}, line[3] = {{5, -1}, {5, 0}, {5, 1}};
        switch (kind) {
        case 0: steer_world_add_segment(w, steer_v2(5, -1), steer_v2(5, 1)); break;
        case 1: steer_world_add_polyline(w, line, 3, false); break;
        case 2: steer_world_add_circle(w, steer_v2(6, 0), 1); break;
        case 3: steer_world_add_box(w, steer_v2(5, -1), steer_v2(6, 1)); break;
        default: steer_world_add_polygon(w, tri, 3); break;
        }
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
            CHECK(cast(w, 0, 0.25f, dirs[i].x, dirs[i].y, 100, &h));
            CHECK(hit_ok(&h, dirs[i], 100));
            CHECK_NEAR(h.distance, kind == 2 ? 6.0 - sqrt(1.0 - 0.0625) : 5.0, 1e-5);
            CHECK(h.normal.x < -0.9f);
        }
        steer_world_destroy(w);
    }
}

/* ---- 8: unit normals facing the ray ----------------------------------------------------- */

static void normals_are_unit_from_afar_and_inside_huge_agents(void)
{
    steer_world *w = make_world(0);
    steer_world_add_circle(w, steer_v2(0, 0), 1);
    steer_ray_hit h;
    // o + u s - c cancels to (0, 0) at 1e20 m; the closest approach does not
    CHECK(cast(w, -1e20f, 0, 1, 0, 1e21f, &h));
    CHECK(hit_ok(&h, steer_v2(1, 0), 1e21f));
    CHECK_VEC(h.normal, -1.0, 0.0, 0.0);
    CHECK(cast(w, 0, -1e25f, 0, 3e-39f, FLT_MAX, &h));
    CHECK(hit_ok(&h, steer_v2(0, 3e-39f), FLT_MAX));
    CHECK_VEC(h.normal, 0.0, -1.0, 0.0);
    steer_world_destroy(w);

    // huge agents, from inside and from outside
    w = make_world(0);
    spawn_at(w, 0, 0, 1e30f);
    spawn_at(w, 1e25f, 0, 1e20f);
    steer_ray_filter f = steer_default_ray_filter();
    f.include_agents = true;
    const steer_vec2 origins[] = {{0, 0}, {1e29f, -1e29f}, {-3e30f, 0}, {1e25f, 1e19f}, {1e25f, -5e20f}};
    const steer_vec2 dirs[] = {{1, 0}, {1e-45f, -1e-45f}, {1, 1e-10f}, {0, 1}, {0, 3e38f}};
    for (size_t i = 0; i < sizeof origins / sizeof origins[0]; ++i) {
        CHECK(steer_world_raycast(w, origins[i], dirs[i], FLT_MAX, &f, &h));
        CHECK(hit_ok(&h, dirs[i], FLT_MAX));
    }
    steer_world_destroy(w);

    // a small agent far along a ray of FLT_MAX (once cut off at 1e18 m)
    w = make_world(0);
    steer_agent_id far = spawn_at(w, 1e25f, 0, 1);
    CHECK(steer_world_raycast(w, steer_v2(0, 0), steer_v2(1, 0), FLT_MAX, &f, &h));
    CHECK(steer_agent_id_equal(h.agent, far));
    CHECK(hit_ok(&h, steer_v2(1, 0), FLT_MAX));
    CHECK_NEAR(h.distance, 1e25, 1e19);
    CHECK(steer_world_raycast(w, steer_v2(-1e38f, 0), steer_v2(1, 0), FLT_MAX, &f, &h));
    CHECK(steer_agent_id_equal(h.agent, far));
    steer_world_destroy(w);
}

// A deterministic generator (SplitMix64) for the property test.
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(void) { return (double)(next_u64() >> 11) * 0x1.0p-53; }

// Magnitudes 10^[lo, hi] with a random sign; sometimes exactly 0 or a
// fixed extreme, which random draws would hardly ever hit.
static float extreme(double lo, double hi)
{
    double r = uniform();
    if (r < 0.05) return 0.0f;
    if (r < 0.10) return uniform() < 0.5 ? 1e-45f : -1e-45f;
    double m = pow(10.0, lo + (hi - lo) * uniform());
    return (float)(uniform() < 0.5 ? -m : m);
}

static float visit_last;
static steer_vec2 visit_dir;
static float visit_max;
static int visit_bad, visit_count;
static float visit(const steer_ray_hit *h, void *context)
{
    (void)context;
    ++visit_count;
    if (!hit_ok(h, visit_dir, visit_max) || h->distance < visit_last) ++visit_bad;
    visit_last = h->distance;
    return -1.0f; // go on: every hit
}

// Worlds of every shape kind at one random scale (so both the grid and the
// BVH serve some of them), agents of radii up to 1e30; rays with origins,
// directions and distances of magnitudes 1e-40 to 1e30.
static void random_extreme_rays(void)
{
    assert_counter counter = {0};
    steer_set_assert_fn(counting_assert, &counter); // invalid tiny polygons are refused
    int hits = 0, bad = 0, agent_hits = 0, missed = 0;
    for (int world = 0; world < 40; ++world) {
        steer_world *w = make_world((uint64_t)world);
        double scale_exp = -40.0 + 54.0 * uniform();
        int parts = world % 2 == 0 ? 48 : 6;
        for (int i = 0; i < parts; ++i) {
            float s = (float)pow(10.0, scale_exp + 2.0 * uniform());
            steer_vec2 c = steer_v2(extreme(scale_exp - 1.0, scale_exp + 1.0), extreme(scale_exp - 1.0, scale_exp + 1.0));
            if (!(s > 0.0f) || fabsf(c.x) + 2 * s > 1e15f || fabsf(c.y) + 2 * s > 1e15f) continue;
            steer_vec2 pts[3] = {{c.x - s, c.y - s}, {c.x + s, c.y - s}, {c.x, c.y + s}};
            switch (i % 5) {
            case 0: steer_world_add_segment(w, pts[0], pts[2]); break;
            case 1: steer_world_add_polyline(w, pts, 3, i % 2 == 0); break;
            case 2: steer_world_add_circle(w, c, s); break;
            case 3: steer_world_add_box(w, pts[0], steer_v2(c.x + s, c.y + s)); break;
            default: steer_world_add_polygon(w, pts, 3); break;
            }
        }
        for (int i = 0; i < 6; ++i) spawn_at(w, extreme(-40, 30), extreme(-40, 30), (float)pow(10.0, -40.0 + 70.0 * uniform()));
        int refused = counter.count; // shapes too small to be valid; no ray may assert
        const geo_filter every = geo_filter_all();
        for (int k = 0; k < 250; ++k) {
            steer_vec2 o = steer_v2(extreme(-40, 30), extreme(-40, 30));
            if (k % 3 == 0) o = steer_v2(extreme(scale_exp - 1, scale_exp + 1), extreme(scale_exp - 1, scale_exp + 1));
            steer_vec2 d = steer_v2(extreme(-40, 30), extreme(-40, 30));
            if (d.x == 0.0f && d.y == 0.0f) d.x = 1e-45f;
            float max = k % 10 == 0 ? FLT_MAX : fabsf(extreme(-40, 30));
            steer_ray_filter f = steer_default_ray_filter();
            f.include_agents = k % 2 == 0;
            steer_ray_hit h;
            if (steer_world_raycast(w, o, d, max, &f, &h)) {
                ++hits;
                agent_hits += !steer_agent_id_is_null(h.agent);
                bad += !hit_ok(&h, d, max);
            }
            // shapes only, origins at the shapes' scale: the broadphase finds
            // what a brute-force scan finds, for any direction and distance.
            // (From 1e27 m off, whether a ray meets a 1e-6 m polygon is below
            // float resolution: both answers are then rounding.)
            if (k % 3 == 0) {
                steer_ray_hit hb;
                bool a = steer_world_raycast(w, o, d, max, NULL, &h);
                bool b = steer__raycast_brute(w, o, d, max, &every, &hb);
                missed += a != b || (a && (!steer_shape_id_equal(h.shape, hb.shape) || h.distance != hb.distance));
            }
            // every hit in order, a bounded number of them
            visit_last = 0.0f, visit_dir = d, visit_max = max, visit_bad = 0, visit_count = 0;
            steer_world_raycast_all(w, o, d, max, &f, visit, NULL);
            bad += visit_bad + (visit_count > 3 * parts + 6);
            // the swept circle of obstacle avoidance
            float radius = fabsf(extreme(-40, 30));
            if (steer__raycast_shapes(steer__geometry_ready(w), o, d, radius, max, &every, &h)) bad += !hit_ok(&h, d, max);
        }
        bad += counter.count != refused;
        steer_world_destroy(w);
    }
    steer_set_assert_fn(NULL, NULL);
    CHECK(bad == 0);
    CHECK(missed == 0);
    CHECK(hits > 500); // the test reaches shapes and agents, not only misses
    CHECK(agent_hits > 50);
    printf("    %d hits (%d agents), %d bad, %d differ from brute force\n", hits, agent_hits, bad, missed);
}

/* ---- 5: contact resolution stays finite ------------------------------------------------- */

static bool agent_finite(steer_world *w, steer_agent_id a)
{
    steer_kinematic k = steer_agent_get_state(w, a);
    return vec_finite(k.position) && vec_finite(k.velocity) && isfinite(k.orientation) && isfinite(k.rotation);
}

static void contacts_at_denormal_distances_and_centres(void)
{
    const float offsets[] = {0.0f, 1e-45f, -1e-45f, 1e-40f, -1e-40f, 3e-39f, 1.2e-38f, -3e-39f};
    for (int kind = 0; kind < 7; ++kind) {
        for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
            steer_world_def def = steer_default_world_def();
            def.resolve_contacts = true;
            steer_world *w = steer_world_create(&def);
            float e = offsets[i];
            steer_vec2 tri[3] = {{-1, -1}, {1, -1}, {0, 1}}, line[3] = {{-10, 0}, {0, 0}, {10, 0}};
            steer_vec2 square[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            steer_vec2 at = steer_v2(0, e); // a denormal distance from the surface or centre
            switch (kind) {
            case 0: steer_world_add_segment(w, steer_v2(-10, 0), steer_v2(10, 0)); break;
            case 1: steer_world_add_polyline(w, line, 3, false); break;
            case 2: steer_world_add_circle(w, steer_v2(0, 0), 1); break; // at the centre
            case 3: steer_world_add_box(w, steer_v2(-1, -1), steer_v2(1, 1)); at = steer_v2(e, 0); break;
            case 4: steer_world_add_polygon(w, tri, 3); at = steer_v2(e, 0); break;
            case 5: steer_world_add_polygon(w, square, 4); at = steer_v2(e, 0); break; // the centre
            default: // denormal shape coordinates, the agent at the origin
                steer_world_add_circle(w, steer_v2(e, e), 1);
                steer_world_add_segment(w, steer_v2(e, -e), steer_v2(-e == e ? 1e-45f : -e, e));
                at = steer_v2(0, 0);
                break;
            }
            steer_agent_id a = spawn_at(w, at.x, at.y, 0.5f);
            steer_agent_id b = spawn_at(w, at.y, at.x, 0.0f); // radius 0: only the skin
            for (int step = 0; step < 3; ++step) steer_world_step(w, 1.0f / 60.0f);
            CHECK(agent_finite(w, a));
            CHECK(agent_finite(w, b));
            steer_world_destroy(w);
        }
    }
    // the fuzz report: 1e-40 m above a wall ends on the wall's side, pushed out
    steer_world_def def = steer_default_world_def();
    def.resolve_contacts = true;
    steer_world *w = steer_world_create(&def);
    steer_world_add_segment(w, steer_v2(-10, 0), steer_v2(10, 0));
    steer_agent_id a = spawn_at(w, 0, 1e-40f, 0.5f);
    steer_world_step(w, 1.0f / 60.0f);
    CHECK_VEC(steer_agent_get_position(w, a), 0.0, 0.5, 1e-6);
    steer_world_destroy(w);
}

// The closest-point query itself at denormal offsets: unit normals.
static void closest_points_have_unit_normals(void)
{
    steer_world *w = make_world(0);
    steer_world_add_segment(w, steer_v2(0, 0), steer_v2(1e-40f, 0)); // a denormal wall
    steer_world_add_circle(w, steer_v2(1e-45f, 0), 1);
    struct steer_geometry *g = steer__geometry_ready(w);
    const steer_vec2 ps[] = {{0, 0}, {1e-45f, 0}, {0, 1e-45f}, {3e-39f, -3e-39f}, {5e-41f, 1e-44f}};
    for (int k = 0; k < g->src_count; ++k) {
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; ++i) {
            steer_vec2 point, n;
            float d = steer__geometry_closest(g, &g->src[k], ps[i], &point, &n);
            CHECK(isfinite(d) && vec_finite(point));
            CHECK_NEAR(steer_length(n), 1.0, 1e-6);
        }
    }
    steer_world_destroy(w);
}

/* ---- 10: cell size ----------------------------------------------------------------------- */

static void cell_size_is_bounded(void)
{
    CHECK(steer_cell_size_is_valid(1e-3f) && steer_cell_size_is_valid(4.0f) && steer_cell_size_is_valid(1e9f));
    CHECK(!steer_cell_size_is_valid(1e-45f) && !steer_cell_size_is_valid(9.99e-4f));
    CHECK(!steer_cell_size_is_valid(1.0001e9f) && !steer_cell_size_is_valid(0.0f));
    CHECK(!steer_cell_size_is_valid(NAN) && !steer_cell_size_is_valid(INFINITY) && !steer_cell_size_is_valid(-4.0f));

    assert_counter counter = {0};
    steer_set_assert_fn(counting_assert, &counter);
    steer_world_def def = steer_default_world_def();
    def.cell_size = 1e-45f;
    CHECK(steer_world_create(&def) == NULL);
    CHECK(counter.count == 1);
    def.cell_size = 2e9f;
    CHECK(steer_world_create(&def) == NULL);
    steer_world *w = make_world(0);
    steer_world_set_cell_size(w, 1e-45f);
    CHECK(counter.count == 3);
    CHECK(steer_world_get_cell_size(w) == 4.0f);
    steer_set_assert_fn(NULL, NULL);
    steer_world_destroy(w);
}

// The extreme cell sizes with extreme positions: every grid coordinate is
// defined (clang -fsanitize=float-cast-overflow) and queries stay exact.
static void grid_at_extreme_cell_sizes(void)
{
    const float sizes[] = {1e-3f, 1e9f};
    const float xs[] = {0.0f, 1e-45f, -1e-45f, 1e6f, -1e7f, 1e30f, -3e38f, FLT_MAX};
    for (int s = 0; s < 2; ++s) {
        steer_world_def def = steer_default_world_def();
        def.cell_size = sizes[s];
        steer_world *w = steer_world_create(&def);
        steer_agent_id ids[8];
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i) ids[i] = spawn_at(w, xs[i], -xs[i], 0.5f);
        steer_world_step(w, 1.0f / 60.0f);
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
            steer_agent_id out[16];
            // each agent finds itself (the step bounds positions to +-1e30)
            int n = steer_world_query(w, steer_agent_get_position(w, ids[i]), 1e-3f, out, 16);
            CHECK(n >= 1);
        }
        steer_world_set_cell_size(w, sizes[1 - s]);
        steer_world_step(w, 1.0f / 60.0f);
        steer_agent_id out[16];
        CHECK(steer_world_query(w, steer_v2(0, 0), 1.0f, out, 16) == 3); // 0 and +-1e-45
        steer_world_destroy(w);
    }
}

int main(void)
{
    RUN(grid_walk_ends_with_denormal_direction_and_flt_max);
    RUN(denormal_directions_hit_like_unit_ones);
    RUN(normals_are_unit_from_afar_and_inside_huge_agents);
    RUN(random_extreme_rays);
    RUN(contacts_at_denormal_distances_and_centres);
    RUN(closest_points_have_unit_normals);
    RUN(cell_size_is_bounded);
    RUN(grid_at_extreme_cell_sizes);
    return TEST_RESULT();
}
