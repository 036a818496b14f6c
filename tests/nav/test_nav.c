// test_nav.c: the navigation library (steer/nav.h): paths against the exact
// shortest path (a brute-force visibility graph, visgraph.h) on small random
// maps, clearance, shape changes rebuilding only the tiles they touch, no
// path, bad input, flow fields (determinism across threads, sharing,
// following a field to its goal, the size limit).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steer/nav.h"
#include "test.h"
#include "visgraph.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// Queries on `maps` random 40 x 40 m maps against the exact shortest path:
// each answer agrees on whether a path exists, keeps radius - 1 cm, ends at
// the points, and is 0.99 to 1.20 times the exact length. Writes the ratios;
// returns their number, and in *via_mesh how many were not the straight segment.
static int paths_against_exact(unsigned maps, double *ratios, int *via_mesh)
{
    int n = 0;
    *via_mesh = 0;
    for (unsigned seed = 1; seed <= maps; ++seed) {
        steer_nav *nav = steer_nav_create(NULL);
        vg_layout(nav, seed, 40.0f, 10, 6, 6.0f);
        unsigned st = seed * 7919u;
        for (int q = 0; q < 12; ++q) {
            float r = q % 2 ? 0.5f : 0.3f + 0.05f * (float)(q % 7);
            steer_vec2 a = vg_free_point(nav, &st, 40.0f, r), b = vg_free_point(nav, &st, 40.0f, r);
            steer_vec2 pts[512];
            steer_nav_result res;
            steer_nav_find_path(nav, a, b, r, pts, 512, &res);
            double exact = vg_shortest(nav, a, b, r);
            CHECK((res.status == STEER_NAV_OK) == (exact >= 0.0));
            if (res.status != STEER_NAV_OK || exact < 0.0) continue;
            CHECK(res.count >= 2 && res.count <= 512);
            CHECK(pts[0].x == a.x && pts[0].y == a.y);
            CHECK(pts[res.count - 1].x == b.x && pts[res.count - 1].y == b.y);
            CHECK(vg_clearance(nav, pts, res.count) >= r - 0.01f);
            double ratio = res.length / exact;
            CHECK(ratio >= 0.99);
            CHECK(ratio <= 1.20);
            *via_mesh += res.count > 2;
            ratios[n++] = ratio;
        }
        steer_nav_destroy(nav);
    }
    return n;
}

// The mesh's paths against the exact shortest path (paths_against_exact);
// lengths: the median within 1%, 23 in 24 within 2%, the worst within 5%
// (it was 20% before the second corridor: the corridor's A* is not exact, and its choices shift with the
// compiler's rounding: with the 0.15 m margin the same 72 queries gave a
// worst of +2.1% with gcc and +10.6% with clang; with the mesh at the radius
// and the corners pushed out, gcc gives 0 over 2%, worst +1.6%, clang 1
// over, worst +5.6%; with the second corridor both 0 over, worst +1.6%
// (gcc) and +1.8% (clang);
// docs/navigation.md). The repair never falls back here.
static void paths_match_the_exact_shortest_path(void)
{
    double ratios[200];
    int fallbacks = nav_fallbacks, via_mesh;
    int n = paths_against_exact(6, ratios, &via_mesh);
    qsort(ratios, (size_t)n, sizeof *ratios, cmp_double);
    int over = 0;
    for (int i = 0; i < n; ++i) over += ratios[i] > 1.02;
    printf("  %d paths: length / exact median %.4f, max %.4f, %d over 2%%\n", n, ratios[n / 2], ratios[n - 1], over);
    CHECK(n >= 60);
    CHECK(ratios[n / 2] <= 1.01);
    CHECK(over * 24 <= n);
    CHECK(ratios[n - 1] <= 1.05);
    CHECK(nav_fallbacks == fallbacks);
}

// Queries of `steer-bench nav --compare` where the corridor's A* alone took
// the longer way round a shape (+12.9%, +5.5% and +3.4% over the exact
// shortest path): the second corridor, searched with the first one's
// polygons made dearer, is the shorter one, and it is kept.
static void the_shorter_of_two_corridors_is_kept(void)
{
    static const struct {
        unsigned seed;
        int query;
    } cases[] = {{15u, 7}, {28u, 6}, {29u, 5}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        steer_nav *nav = steer_nav_create(NULL);
        vg_layout(nav, cases[c].seed, 40.0f, 10, 6, 6.0f);
        unsigned st = cases[c].seed * 7919u; // the bench's stream of query points
        steer_vec2 a = {0, 0}, b = {0, 0};
        float r = 0.0f;
        for (int q = 0; q <= cases[c].query; ++q) {
            r = q % 2 ? 0.5f : 0.3f + 0.05f * (float)(q % 7);
            a = vg_free_point(nav, &st, 40.0f, r), b = vg_free_point(nav, &st, 40.0f, r);
        }
        steer_vec2 pts[512];
        steer_nav_result res;
        CHECK(steer_nav_find_path(nav, a, b, r, pts, 512, &res) == STEER_NAV_OK);
        double exact = vg_shortest(nav, a, b, r);
        CHECK(exact > 0.0);
        printf("  seed %u query %d: length / exact %.4f\n", cases[c].seed, cases[c].query, res.length / exact);
        CHECK(res.length / exact <= 1.02);
        CHECK(vg_clearance(nav, pts, res.count) >= r - 0.01f);
        steer_nav_destroy(nav);
    }
}

// Order-dependent digest of a mesh's polygons (draw callback).
static void hash_polygon(const steer_vec2 *points, int count, void *context)
{
    uint64_t *h = (uint64_t *)context;
    for (int i = 0; i < count; ++i) {
        uint32_t bits[2];
        memcpy(bits, &points[i], sizeof bits);
        *h = (*h ^ bits[0]) * 1099511628211ull;
        *h = (*h ^ bits[1]) * 1099511628211ull;
    }
    *h = (*h ^ (uint64_t)count) * 1099511628211ull;
}

// Tiles are made on two threads when there are many: the mesh and the paths
// are the same bits as when one thread makes them all.
static void tiles_made_on_threads_are_the_same(void)
{
    uint64_t mesh_hash[2] = {14695981039346656037ull, 14695981039346656037ull};
    float lengths[2][20];
    int saved = nav_search_mode;
    for (int k = 0; k < 2; ++k) {
        nav_search_mode = k ? NAV_BUILD_ONE_THREAD : 0;
        steer_nav *nav = steer_nav_create(NULL);
        vg_layout(nav, 11u, 120.0f, 60, 40, 6.0f);
        steer_nav_result res;
        CHECK(steer_nav_prepare(nav, 0.5f, &res) >= 16);
        CHECK(steer_nav_draw_mesh(nav, 0.5f, hash_polygon, &mesh_hash[k]) > 0);
        unsigned st = 5u;
        for (int q = 0; q < 20; ++q) {
            steer_vec2 a = vg_free_point(nav, &st, 120.0f, 0.5f),
                       b = vg_free_point(nav, &st, 120.0f, 0.5f);
            steer_vec2 pts[512];
            steer_nav_find_path(nav, a, b, 0.5f, pts, 512, &res);
            lengths[k][q] = res.status == STEER_NAV_OK ? res.length : -1.0f;
        }
        steer_nav_destroy(nav);
    }
    nav_search_mode = saved;
    CHECK(mesh_hash[0] == mesh_hash[1]);
    CHECK(memcmp(lengths[0], lengths[1], sizeof lengths[0]) == 0);
}

// The ground's compact heightfield is written directly (flat_ground in
// nav_mesh.cpp) instead of rasterising the ground quad: the same mesh, bit for
// bit, and the same paths, with and without nav_bounds that cut cells.
static void flat_ground_is_the_rasterised_ground(void)
{
    int saved = nav_search_mode;
    for (int bounded = 0; bounded < 2; ++bounded) {
        uint64_t mesh_hash[2] = {14695981039346656037ull, 14695981039346656037ull};
        float lengths[2][20];
        int polygons[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            nav_search_mode = k ? NAV_BUILD_RASTER : 0;
            steer_nav_def def = steer_default_nav_def();
            if (bounded) {
                def.has_bounds = true;
                def.lower = steer_v2(3.13f, 2.07f);
                def.upper = steer_v2(71.31f, 66.93f);
            }
            steer_nav *nav = steer_nav_create(&def);
            vg_layout(nav, 23u, 75.0f, 30, 20, 6.0f);
            steer_nav_result res;
            CHECK(steer_nav_prepare(nav, 0.4f, &res) >= 9);
            polygons[k] = steer_nav_draw_mesh(nav, 0.4f, hash_polygon, &mesh_hash[k]);
            unsigned st = 7u;
            for (int q = 0; q < 20; ++q) {
                steer_vec2 a = vg_free_point(nav, &st, 75.0f, 0.4f), b = vg_free_point(nav, &st, 75.0f, 0.4f);
                steer_vec2 pts[512];
                steer_nav_find_path(nav, a, b, 0.4f, pts, 512, &res);
                lengths[k][q] = res.status == STEER_NAV_OK ? res.length : -1.0f;
            }
            steer_nav_destroy(nav);
        }
        CHECK(polygons[0] > 100);
        CHECK(polygons[0] == polygons[1]);
        CHECK(mesh_hash[0] == mesh_hash[1]);
        CHECK(memcmp(lengths[0], lengths[1], sizeof lengths[0]) == 0);
    }
    nav_search_mode = saved;
}

// The mesh is built with the shapes grown by the radius alone (margin 0):
// its walls may lie a voxel inside the radius, and every path's corners are
// pushed out to the radius + 5 cm against the exact shapes, then pulled in.
// When that repair leaves the path closer than the radius (not seen in
// random queries), the path of a mesh grown by a 0.15 m margin is used:
// forced here, its paths keep the clearance and stay near the exact length.
static void the_fallback_mesh_keeps_the_clearance(void)
{
    int saved = nav_search_mode;
    nav_search_mode = NAV_SEARCH_FALLBACK;
    int before = nav_fallbacks, via_mesh;
    double ratios[200];
    int n = paths_against_exact(3, ratios, &via_mesh);
    nav_search_mode = saved;
    CHECK(n >= 30);
    CHECK(via_mesh >= 10);
    CHECK(nav_fallbacks - before == via_mesh);
}

static void straight_segment_when_nothing_is_between(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    steer_nav_add_box(nav, steer_v2(10, 10), steer_v2(20, 20));
    steer_vec2 pts[8];
    steer_nav_result res;
    CHECK(steer_nav_find_path(nav, steer_v2(0, 0), steer_v2(30, 0), 0.5f, pts, 8, &res) == STEER_NAV_OK);
    CHECK(res.count == 2);
    CHECK_NEAR(res.length, 30.0, 1e-4);
    // open ground however far from the shapes (no bounds declared), no mesh built
    CHECK(steer_nav_find_path(nav, steer_v2(-5e5f, 3e5f), steer_v2(5e5f, 3e5f), 0.5f, pts, 8, &res) ==
          STEER_NAV_OK);
    CHECK(res.count == 2);
    CHECK(steer_nav_tiles_built(nav, 0.5f) == 0);
    // capacity smaller than the path: count says how many there are
    CHECK(steer_nav_find_path(nav, steer_v2(15, 0), steer_v2(15, 30), 0.5f, pts, 1, &res) == STEER_NAV_OK);
    CHECK(res.count >= 4);
    steer_nav_destroy(nav);
}

// A goal behind a 30 x 10 m block: round a corner, length within 2% of exact.
static void round_a_block(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    steer_nav_add_box(nav, steer_v2(-15, -5), steer_v2(15, 5));
    for (int k = 0; k <= 4; ++k) {
        steer_vec2 a = steer_v2(-2.0f + 5.0f * (float)k, -12), b = steer_v2(0, 12);
        steer_vec2 pts[64];
        steer_nav_result res;
        CHECK(steer_nav_find_path(nav, a, b, 0.5f, pts, 64, &res) == STEER_NAV_OK);
        double exact = vg_shortest(nav, a, b, 0.5f);
        CHECK(res.length <= exact * 1.02);
        CHECK(vg_clearance(nav, pts, res.count) >= 0.45f);
    }
    steer_nav_destroy(nav);
}

static void shape_changes_rebuild_only_their_tiles(void)
{
    steer_nav_def def = steer_default_nav_def();
    steer_nav *nav = steer_nav_create(&def);
    vg_layout(nav, 9u, 200.0f, 60, 40, 6.0f);
    steer_nav_result res;
    int built = steer_nav_prepare(nav, 0.5f, &res);
    CHECK(res.status == STEER_NAV_OK);
    CHECK(built >= 64);
    CHECK(steer_nav_tiles_built(nav, 0.5f) == built);
    // free ground through a gap we make and close again
    unsigned st = 5u;
    steer_vec2 a = vg_free_point(nav, &st, 200.0f, 0.5f);
    steer_vec2 b = steer_v2(a.x + 1.0f, a.y);
    steer_vec2 pts[256];
    if (!nav_segment_is_clear(nav, a, b, 0.5f, STEER_ALL_LAYERS)) b = a;
    // a wall across the straight route: the path bends round it
    steer_nav_shape wall = steer_nav_add_box(nav, steer_v2(a.x + 0.4f, a.y - 3.0f), steer_v2(a.x + 0.6f, a.y + 3.0f));
    steer_vec2 c = steer_v2(a.x + 1.0f + 0.5f, a.y);
    CHECK(steer_nav_find_path(nav, a, c, 0.4f, pts, 256, &res) != STEER_NAV_OK || res.count > 2);
    int before = steer_nav_tiles_built(nav, 0.5f);
    steer_nav_prepare(nav, 0.5f, &res);
    int rebuilt = steer_nav_tiles_built(nav, 0.5f) - before;
    CHECK(rebuilt >= 1 && rebuilt <= 4);
    CHECK(steer_nav_remove(nav, wall));
    CHECK(!steer_nav_remove(nav, wall)); // stale
    before = steer_nav_tiles_built(nav, 0.5f);
    steer_nav_prepare(nav, 0.5f, &res);
    rebuilt = steer_nav_tiles_built(nav, 0.5f) - before;
    CHECK(rebuilt >= 1 && rebuilt <= 4);
    steer_nav_destroy(nav);

    // a corridor closed by a new box, opened by removing it
    nav = steer_nav_create(NULL);
    steer_nav_add_box(nav, steer_v2(-20, 1), steer_v2(20, 3));   // north wall of a corridor
    steer_nav_add_box(nav, steer_v2(-20, -3), steer_v2(20, -1)); // south wall
    steer_nav_add_box(nav, steer_v2(-22, -3), steer_v2(-20, 3)); // closed west end
    steer_vec2 in = steer_v2(-18, 0), out = steer_v2(-18, 10);
    CHECK(steer_nav_find_path(nav, in, out, 0.5f, pts, 256, &res) == STEER_NAV_OK);
    float open_length = res.length;
    steer_nav_shape plug = steer_nav_add_box(nav, steer_v2(18, -1), steer_v2(20, 1));
    CHECK(steer_nav_find_path(nav, in, out, 0.5f, pts, 256, &res) == STEER_NAV_NO_PATH);
    CHECK(strstr(res.message, "no path from (-18, 0) to (-18, 10) for radius 0.5") != NULL);
    CHECK(steer_nav_remove(nav, plug));
    CHECK(steer_nav_find_path(nav, in, out, 0.5f, pts, 256, &res) == STEER_NAV_OK);
    CHECK_NEAR(res.length, open_length, 1e-3);
    // a radius wider than the corridor's gap: none
    CHECK(steer_nav_find_path(nav, steer_v2(-18, 0), out, 0.95f, pts, 256, &res) == STEER_NAV_NO_PATH);
    steer_nav_destroy(nav);
}

static void bad_input_is_refused_with_a_message(void)
{
    steer_nav_def def = steer_default_nav_def();
    def.has_bounds = true;
    def.lower = steer_v2(-50, -50);
    def.upper = steer_v2(50, 50);
    steer_nav *nav = steer_nav_create(&def);
    steer_nav_add_circle(nav, steer_v2(0, 0), 2.0f);
    steer_vec2 pts[16];
    steer_nav_result res;
    CHECK(steer_nav_find_path(nav, steer_v2(NAN, 0), steer_v2(5, 5), 0.5f, pts, 16, &res) == STEER_NAV_BAD_INPUT);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(INFINITY, 5), 0.5f, pts, 16, &res) ==
          STEER_NAV_BAD_INPUT);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(5, 0), 0.0f, pts, 16, &res) == STEER_NAV_BAD_INPUT);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(5, 0), NAN, pts, 16, &res) == STEER_NAV_BAD_INPUT);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(5, 0), 1000.0f, pts, 16, &res) ==
          STEER_NAV_BAD_INPUT);
    CHECK(strstr(res.message, "radius must be in (0, 100], got 1000") != NULL);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(1, 0), 0.5f, pts, 16, &res) == STEER_NAV_BLOCKED);
    CHECK(strcmp(res.message, "goal (1, 0) is inside a shape or closer than 0.5 to one") == 0);
    CHECK(steer_nav_find_path(nav, steer_v2(-2.3f, 0), steer_v2(5, 0), 0.5f, pts, 16, &res) == STEER_NAV_BLOCKED);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(60, 0), 0.5f, pts, 16, &res) == STEER_NAV_OUTSIDE);
    CHECK(strcmp(res.message, "goal (60, 0) is outside the navigation bounds") == 0);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(5, 0), 0.5f, pts, 16, &res) == STEER_NAV_OK);
    CHECK(steer_nav_find_path(nav, steer_v2(-5, 0), steer_v2(5, 0), 0.5f, NULL, 16, &res) == STEER_NAV_BAD_INPUT);
    // shapes refused: null handles
    CHECK(steer_nav_add_circle(nav, steer_v2(0, 0), -1.0f).index == 0);
    CHECK(steer_nav_add_box(nav, steer_v2(1, 1), steer_v2(0, 2)).index == 0);
    CHECK(steer_nav_add_segment(nav, steer_v2(1, 1), steer_v2(1, 1)).index == 0);
    steer_vec2 star[4] = {{0, 0}, {2, 0}, {0, 2}, {2, 2}};
    CHECK(steer_nav_add_polygon(nav, star, 4).index == 0);
    CHECK(steer_nav_add_circle(nav, steer_v2(NAN, 0), 1.0f).index == 0);
    CHECK(!steer_nav_remove(nav, (steer_nav_shape){99, 1}));
    CHECK(steer_nav_shape_count(nav) == 1);
    steer_nav_destroy(nav);
    // definitions refused
    def = steer_default_nav_def();
    def.cell_size = 0.0f;
    CHECK(steer_nav_create(&def) == NULL);
    def = steer_default_nav_def();
    def.has_bounds = true;
    def.lower = steer_v2(1, 1);
    def.upper = steer_v2(0, 5);
    CHECK(steer_nav_create(&def) == NULL);
}

// Walls, polygons, circles and boxes all count; many radii share one nav.
static void every_shape_kind_and_many_radii(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    steer_nav_add_segment(nav, steer_v2(-10, 0), steer_v2(10, 0));
    steer_vec2 tri[3] = {{-3, 4}, {3, 4}, {0, 8}};
    steer_nav_add_polygon(nav, tri, 3);
    steer_nav_add_circle(nav, steer_v2(0, -5), 2.0f);
    steer_vec2 pts[64];
    steer_nav_result res;
    for (int k = 0; k < 6; ++k) {
        float r = 0.25f + 0.2f * (float)k;
        steer_vec2 a = steer_v2(0, -9), b = steer_v2(0, 11);
        CHECK(steer_nav_find_path(nav, a, b, r, pts, 64, &res) == STEER_NAV_OK);
        CHECK(vg_clearance(nav, pts, res.count) >= r - 0.05f);
        double exact = vg_shortest(nav, a, b, r);
        CHECK(res.length <= exact * 1.02 && res.length >= exact * 0.99);
    }
    steer_nav_destroy(nav);
}

/* ---- flow fields ------------------------------------------------------------ */

static steer_nav *field_map(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    vg_layout(nav, 3u, 60.0f, 14, 8, 7.0f);
    return nav;
}

typedef struct field_job {
    const steer_nav *nav;
    steer_flow_field_def def;
    uint64_t hash;
} field_job;

static void *field_thread(void *arg)
{
    field_job *job = (field_job *)arg;
    steer_flow_field *f = steer_nav_flow_field(job->nav, &job->def, NULL);
    job->hash = steer_flow_field_hash(f);
    steer_flow_field_destroy(f);
    return NULL;
}

static void flow_fields_are_deterministic(void)
{
    steer_nav *nav = field_map();
    unsigned st = 4u;
    steer_flow_field_def d = {vg_free_point(nav, &st, 60.0f, 0.5f), 0.5f, 0.25f, {0, 0}, {60, 60}};
    steer_nav_result res;
    steer_flow_field *f = steer_nav_flow_field(nav, &d, &res);
    CHECK(f != NULL && res.status == STEER_NAV_OK);
    uint64_t h = steer_flow_field_hash(f);
    // the same bits from two threads at once
    field_job jobs[2] = {{nav, d, 0}, {nav, d, 0}};
    pthread_t threads[2];
    for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, field_thread, &jobs[i]);
    for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
    CHECK(jobs[0].hash == h && jobs[1].hash == h);
    steer_flow_field_destroy(f);
    steer_nav_destroy(nav);
}

// Many walkers share one field: each follows direction() to the goal, never
// comes within radius - 5 cm of a shape, and the distance at its start is
// within 8% of the exact shortest path's length.
static void following_a_field_reaches_the_goal(void)
{
    steer_nav *nav = field_map();
    unsigned st = 11u;
    steer_flow_field_def d = {vg_free_point(nav, &st, 60.0f, 0.5f), 0.5f, 0.25f, {0, 0}, {60, 60}};
    steer_flow_field *f = steer_nav_flow_field(nav, &d, NULL);
    CHECK(f != NULL);
    CHECK(steer_flow_field_distance(f, d.goal) < 0.2f);
    int arrived = 0, walkers = 0;
    for (int w = 0; w < 12; ++w) {
        steer_vec2 p = vg_free_point(nav, &st, 60.0f, 0.8f);
        double exact = vg_shortest(nav, p, d.goal, 0.5f);
        float fd = steer_flow_field_distance(f, p);
        if (exact < 0.0) {
            CHECK(fd == FLT_MAX);
            continue;
        }
        ++walkers;
        CHECK(fd <= exact * 1.08 + 0.5 && fd >= exact * 0.95 - 0.5);
        double walked = 0.0;
        float closest = FLT_MAX;
        for (int k = 0; k < 4000; ++k) {
            steer_vec2 dir = steer_flow_field_direction(f, p);
            float to_goal = hypotf(d.goal.x - p.x, d.goal.y - p.y);
            if (to_goal < 0.1f) break;
            float step = to_goal < 0.1f ? to_goal : 0.1f;
            p = steer_v2(p.x + dir.x * step, p.y + dir.y * step);
            walked += step;
            float c = steer_nav_clearance(nav, p);
            if (c < closest) closest = c;
        }
        arrived += hypotf(d.goal.x - p.x, d.goal.y - p.y) < 0.2f;
        CHECK(closest >= 0.5f - 0.25f); // within a cell's half-diagonal of the radius
        CHECK(walked <= exact * 1.15 + 1.0);
    }
    CHECK(walkers >= 6);
    CHECK(arrived == walkers);
    steer_flow_field_destroy(f);
    steer_nav_destroy(nav);
}

static void flow_field_refusals(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    steer_nav_add_box(nav, steer_v2(0, 0), steer_v2(4, 4));
    steer_nav_result res;
    steer_flow_field_def d = {{10, 10}, 0.5f, 0.01f, {0, 0}, {100, 100}};
    CHECK(steer_nav_flow_field(nav, &d, &res) == NULL && res.status == STEER_NAV_TOO_LARGE);
    CHECK(strcmp(res.message, "a field of 10000 x 10000 cells is more than the 4194304 cells allowed") == 0);
    d.cell = 1.0f;
    d.goal = steer_v2(2, 2);
    CHECK(steer_nav_flow_field(nav, &d, &res) == NULL && res.status == STEER_NAV_BLOCKED);
    d.goal = steer_v2(200, 2);
    CHECK(steer_nav_flow_field(nav, &d, &res) == NULL && res.status == STEER_NAV_OUTSIDE);
    d.goal = steer_v2(20, 20);
    d.radius = -1.0f;
    CHECK(steer_nav_flow_field(nav, &d, &res) == NULL && res.status == STEER_NAV_BAD_INPUT);
    d.radius = 0.5f;
    d.cell = NAN;
    CHECK(steer_nav_flow_field(nav, &d, &res) == NULL && res.status == STEER_NAV_BAD_INPUT);
    d.cell = 1.0f;
    steer_flow_field *f = steer_nav_flow_field(nav, &d, &res);
    CHECK(f != NULL);
    // outside the grid, NaN: no direction, no distance
    CHECK(steer_flow_field_distance(f, steer_v2(-50, 0)) == FLT_MAX);
    steer_vec2 dir = steer_flow_field_direction(f, steer_v2(NAN, 0));
    CHECK(dir.x == 0.0f && dir.y == 0.0f);
    dir = steer_flow_field_direction(f, steer_v2(50, 20));
    CHECK_NEAR(dir.x, -1.0, 0.05);
    steer_flow_field_destroy(f);
    steer_nav_destroy(nav);
}

// A wall on layer 2 (issue 26): a query whose mask leaves out layer 2 goes
// straight through it, one that sees layer 2 goes round; both meshes kept at
// once (per radius and mask), and the flow field the same way.
static void masks_choose_the_shapes_a_query_sees(void)
{
    steer_nav *nav = steer_nav_create(NULL);
    steer_nav_shape wall = steer_nav_add_box(nav, steer_v2(-0.5f, -8), steer_v2(0.5f, 8));
    CHECK(steer_nav_get_layer(nav, wall) == 1u);
    CHECK(steer_nav_set_layer(nav, wall, 2u));
    CHECK(steer_nav_get_layer(nav, wall) == 2u);
    CHECK(!steer_nav_set_layer(nav, (steer_nav_shape){0, 0}, 2u));
    steer_vec2 pts[256], a = steer_v2(-10, 0), b = steer_v2(10, 0);
    steer_nav_result res;
    for (int round = 0; round < 2; ++round) {
        CHECK(steer_nav_find_path_masked(nav, a, b, 0.5f, 1u, pts, 256, &res) == STEER_NAV_OK);
        CHECK(res.count == 2);
        CHECK_NEAR(res.length, 20.0, 1e-4);
        CHECK(steer_nav_find_path_masked(nav, a, b, 0.5f, 3u, pts, 256, &res) == STEER_NAV_OK);
        CHECK(res.count > 2);
        CHECK(res.length > 21.0f);
        for (int i = 1; i + 1 < res.count; ++i) CHECK(pts[i].y > 8.0f || pts[i].y < -8.0f);
        // every bit (the default) sees it too, the same route
        float masked = res.length;
        CHECK(steer_nav_find_path(nav, a, b, 0.5f, pts, 256, &res) == STEER_NAV_OK);
        CHECK_NEAR(res.length, masked, 1e-5);
    }
    // a start inside the wall is blocked only for a mask that sees it
    CHECK(steer_nav_find_path_masked(nav, steer_v2(0, 0), b, 0.5f, 2u, pts, 256, &res) == STEER_NAV_BLOCKED);
    CHECK(steer_nav_find_path_masked(nav, steer_v2(0, 0), b, 0.5f, 1u, pts, 256, &res) == STEER_NAV_OK);
    CHECK(steer_nav_clearance_masked(nav, steer_v2(0, 0), 1u) == FLT_MAX);
    CHECK(steer_nav_clearance_masked(nav, steer_v2(0, 0), 2u) == 0.0f);
    // back on layer 1: mask 1 sees it again (its tiles rebuilt)
    CHECK(steer_nav_set_layer(nav, wall, 1u));
    CHECK(steer_nav_find_path_masked(nav, a, b, 0.5f, 1u, pts, 256, &res) == STEER_NAV_OK);
    CHECK(res.count > 2);
    CHECK(steer_nav_set_layer(nav, wall, 2u));

    steer_flow_field_def d = {b, 0.5f, 0.25f, {-12, -12}, {12, 12}};
    steer_flow_field *through = steer_nav_flow_field_masked(nav, &d, 1u, NULL);
    steer_flow_field *round = steer_nav_flow_field_masked(nav, &d, 3u, NULL);
    steer_flow_field *every = steer_nav_flow_field(nav, &d, NULL);
    CHECK(through != NULL && round != NULL && every != NULL);
    if (through && round && every) {
        CHECK(steer_flow_field_distance(through, a) < 20.5f);
        CHECK(steer_flow_field_distance(round, a) > 21.0f);
        CHECK(steer_flow_field_hash(round) == steer_flow_field_hash(every));
        CHECK(steer_flow_field_hash(round) != steer_flow_field_hash(through));
    }
    steer_flow_field_destroy(through);
    steer_flow_field_destroy(round);
    steer_flow_field_destroy(every);
    steer_nav_destroy(nav);
}

int main(void)
{
    RUN(paths_match_the_exact_shortest_path);
    RUN(the_shorter_of_two_corridors_is_kept);
    RUN(straight_segment_when_nothing_is_between);
    RUN(round_a_block);
    RUN(shape_changes_rebuild_only_their_tiles);
    RUN(bad_input_is_refused_with_a_message);
    RUN(every_shape_kind_and_many_radii);
    RUN(tiles_made_on_threads_are_the_same);
    RUN(flat_ground_is_the_rasterised_ground);
    RUN(the_fallback_mesh_keeps_the_clearance);
    RUN(flow_fields_are_deterministic);
    RUN(following_a_field_reaches_the_goal);
    RUN(flow_field_refusals);
    RUN(masks_choose_the_shapes_a_query_sees);
    return TEST_RESULT();
}
