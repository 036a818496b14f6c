// steer-bench nav: the navigation library's figures (issue 22).
//   steer-bench nav [--shapes 500] [--side 200] [--queries 1000] [--cell-mm 200] [--margin-mm 0]
//                   [--any-angle] [--detour] [--loose] [--one-thread] [--watershed] [--raster]
//                   [--fallback] [--at-r] [--explain]
//                   [--compare SEEDS]
// Prints: mesh build time for a side x side map with N shapes (boxes and
// circles), the median and 90th percentile of a path query between random
// free points, the time of an incremental update (one shape added, the next
// query's rebuild), a 256 x 256 flow field's time; with --compare S, the
// ratio of path length to the exact shortest path (brute-force visibility
// graph) and the smallest clearance over S small random maps.
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "steer/nav.h"
#include "visgraph.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int any_angle = 0, detour = 0;

// A navigation with the command line's settings.
static steer_nav *make_nav(float cell, float margin)
{
    steer_nav_def def = steer_default_nav_def();
    def.cell_size = cell;
    def.margin = margin;
    def.any_angle = any_angle;
    def.detour_find_path = detour;
    return steer_nav_create(&def);
}

static int compare(long seeds, float cell, float margin, int explain)
{
    int queries = 0, both = 0, disagree = 0, over2 = 0;
    double worst = 0.0, sum = 0.0;
    float min_clear_excess = 1e9f;
    double *ratios = (double *)malloc((size_t)seeds * 20 * sizeof *ratios);
    for (long seed = 1; seed <= seeds; ++seed) {
        steer_nav *nav = make_nav(cell, margin);
        vg_layout(nav, (unsigned)seed, 40.0f, 10, 6, 6.0f);
        unsigned st = (unsigned)seed * 7919u;
        for (int q = 0; q < 20; ++q) {
            float r = q % 2 ? 0.5f : 0.3f + 0.05f * (float)(q % 7);
            steer_vec2 a = vg_free_point(nav, &st, 40.0f, r), b = vg_free_point(nav, &st, 40.0f, r);
            steer_vec2 pts[512];
            steer_nav_result res;
            steer_nav_find_path(nav, a, b, r, pts, 512, &res);
            double ref = vg_shortest(nav, a, b, r);
            ++queries;
            if ((res.status == STEER_NAV_OK) != (ref >= 0.0)) {
                ++disagree;
                continue;
            }
            if (ref < 0.0) continue;
            ++both;
            double ratio = ref > 0.0 ? res.length / ref : 1.0;
            ratios[both - 1] = ratio;
            sum += ratio;
            if (ratio > worst) worst = ratio;
            if (ratio > 1.02) ++over2;
            if (ratio > 1.02 && explain) {
                // what the exact path would be for a wider radius: the 5 cm
                // the corners keep, the gaps a mesh closes
                double e5 = vg_shortest(nav, a, b, r + 0.05f), e15 = vg_shortest(nav, a, b, r + 0.15f),
                       e30 = vg_shortest(nav, a, b, r + 0.3f);
                printf("over seed %ld q %d r %.2f ratio %.4f exact(r+5cm) %.4f exact(r+15cm) %.4f exact(r+30cm) %.4f\n",
                       seed, q, (double)r, ratio, e5 / ref, e15 / ref, e30 / ref);
            }
            float c = vg_clearance(nav, pts, res.count) - r;
            if (c < min_clear_excess) min_clear_excess = c;
        }
        steer_nav_destroy(nav);
    }
    qsort(ratios, (size_t)both, sizeof *ratios, cmp_double);
    printf("nav compare: search=%s tighten=%d at_r=%d fallback=%d watershed=%d any_angle=%d detour=%d cell=%g "
           "margin=%g maps=%ld "
           "queries=%d paths=%d length/exact mean=%.4f median=%.4f "
           "p95=%.4f max=%.4f over_2%%=%d disagreements=%d min(clearance-r)=%.3f m fallbacks=%d\n",
           "corridor",
           !(nav_search_mode & NAV_SEARCH_LOOSE), !!(nav_search_mode & NAV_SEARCH_AT_R),
           !!(nav_search_mode & NAV_SEARCH_FALLBACK), !!(nav_search_mode & NAV_BUILD_WATERSHED), any_angle,
           detour, (double)cell, (double)margin, seeds, queries, both,
           both ? sum / both : 0.0, both ? ratios[both / 2] : 0.0,
           both ? ratios[(int)(both * 0.95)] : 0.0, worst, over2, disagree,
           (double)min_clear_excess, nav_fallbacks);
    free(ratios);
    return 0;
}

int bench_nav(int argc, char **argv)
{
    long shapes = bench_arg_long(argc, argv, "--shapes", 500);
    long side_l = bench_arg_long(argc, argv, "--side", 200);
    long queries = bench_arg_long(argc, argv, "--queries", 1000);
    float cell = (float)bench_arg_long(argc, argv, "--cell-mm", 200) / 1000.0f;
    float margin = (float)bench_arg_long(argc, argv, "--margin-mm", (long)(steer_default_nav_def().margin * 1000.0f)) / 1000.0f;
    long seeds = bench_arg_long(argc, argv, "--compare", 0);
    any_angle = bench_has_flag(argc, argv, "--any-angle");
    detour = bench_has_flag(argc, argv, "--detour");
    nav_search_mode = (bench_has_flag(argc, argv, "--loose") ? NAV_SEARCH_LOOSE : 0) |
                      (bench_has_flag(argc, argv, "--one-thread") ? NAV_BUILD_ONE_THREAD : 0) |
                      (bench_has_flag(argc, argv, "--watershed") ? NAV_BUILD_WATERSHED : 0) |
                      (bench_has_flag(argc, argv, "--raster") ? NAV_BUILD_RASTER : 0) |
                      (bench_has_flag(argc, argv, "--fallback") ? NAV_SEARCH_FALLBACK : 0) |
                      (bench_has_flag(argc, argv, "--at-r") ? NAV_SEARCH_AT_R : 0);
    if (seeds > 0) return compare(seeds, cell, margin, bench_has_flag(argc, argv, "--explain"));
    float side = (float)side_l;

    steer_nav *nav = make_nav(cell, margin);
    vg_layout(nav, 42u, side, (int)(shapes * 3 / 5), (int)(shapes - shapes * 3 / 5), 6.0f);
    steer_nav_result res;
    double t0 = bench_now();
    clock_t c0 = clock(); // CPU time of every thread of the process
    int tiles = steer_nav_prepare(nav, 0.5f, &res);
    double build_ms = (bench_now() - t0) * 1e3;
    double build_cpu_ms = (double)(clock() - c0) * 1e3 / CLOCKS_PER_SEC;

    double *times = (double *)malloc((size_t)queries * sizeof *times);
    unsigned st = 12345u;
    steer_vec2 pts[1024];
    int ok = 0, straight = 0;
    double length = 0.0;
    for (long q = 0; q < queries; ++q) {
        steer_vec2 a = vg_free_point(nav, &st, side, 0.5f), b = vg_free_point(nav, &st, side, 0.5f);
        double s = bench_now();
        steer_nav_find_path(nav, a, b, 0.5f, pts, 1024, &res);
        times[q] = (bench_now() - s) * 1e3;
        if (res.status == STEER_NAV_OK) ++ok, length += res.length, straight += res.count == 2;
    }
    qsort(times, (size_t)queries, sizeof *times, cmp_double);

    // incremental: one box added in the middle, then the query that rebuilds
    int before = steer_nav_tiles_built(nav, 0.5f);
    steer_nav_shape box = steer_nav_add_box(nav, steer_v2(side * 0.5f, side * 0.5f),
                                            steer_v2(side * 0.5f + 4.0f, side * 0.5f + 2.0f));
    t0 = bench_now();
    steer_nav_prepare(nav, 0.5f, &res);
    double update_ms = (bench_now() - t0) * 1e3;
    int rebuilt = steer_nav_tiles_built(nav, 0.5f) - before;
    steer_nav_remove(nav, box);
    steer_nav_prepare(nav, 0.5f, &res);

    // a 256 x 256 flow field over the map (cell = side / 256)
    steer_flow_field_def fd = {steer_v2(side * 0.5f, side * 0.5f), 0.5f, side / 256.0f, steer_v2(0.0f, 0.0f),
                               steer_v2(side, side)};
    st = 99u;
    fd.goal = vg_free_point(nav, &st, side, 0.5f);
    double field_times[5];
    uint64_t hash = 0;
    for (int k = 0; k < 5; ++k) {
        t0 = bench_now();
        steer_flow_field *f = steer_nav_flow_field(nav, &fd, &res);
        field_times[k] = (bench_now() - t0) * 1e3;
        hash = steer_flow_field_hash(f);
        steer_flow_field_destroy(f);
    }
    qsort(field_times, 5, sizeof *field_times, cmp_double);
    printf(
        "nav: search=%s tighten=%d watershed=%d raster=%d any_angle=%d detour=%d map=%gx%g shapes=%ld "
        "cell=%g margin=%g build=%.1f ms (cpu %.1f ms, %d tiles) query median=%.4f ms p90=%.4f ms "
        "(%ld queries, %d found, %d straight, mean length %.1f m) update=%.2f ms (%d tiles) "
        "field256=%.2f ms hash=%016llx fallbacks=%d\n",
        "corridor",
        !(nav_search_mode & NAV_SEARCH_LOOSE), !!(nav_search_mode & NAV_BUILD_WATERSHED),
        !!(nav_search_mode & NAV_BUILD_RASTER), any_angle, detour, (double)side, (double)side, shapes, (double)cell, (double)margin, build_ms,
        build_cpu_ms, tiles, times[queries / 2], times[queries * 9 / 10], queries, ok, straight,
        ok ? length / ok : 0.0, update_ms, rebuilt, field_times[2], (unsigned long long)hash, nav_fallbacks);
    free(times);
    steer_nav_destroy(nav);
    return 0;
}
