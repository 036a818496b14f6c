// steer-bench rays: closest-hit feeler rays against static geometry.
//
//   steer-bench rays [--scene mixed|boxes] [--shapes N] [--rays R] [--length L] [--seed S] [--bvh]
//                    [--outside] [--dump FILE]
//
// --bvh disables the uniform grid (the BVH alone), for comparison.
// A square grid of 1 m cells (side ceil(sqrt(10 N)) m: about 100 m for the
// default 1,000 shapes), 10% of them holding a shape:
//   --scene mixed (default): half boxes (0.4 to 1 m a side), half wall
//     segments (0.5 to 1.4 m);
//   --scene boxes: boxes only (0.4 to 1 m a side), no segments: the world a
//     peer's ray cast (Box2D's b2World_CastRayClosest over 1,000 boxes) runs.
// R rays of L m (default 5) from random origins in the square, in random
// directions (--outside: a ray whose origin lies inside a shape, which
// steer answers with a hit at distance 0, is drawn again); prints
//   rays scene=S shapes=N length=L ns_per_ray=X cpu_ns=C hit_rate=H checksum=K
// where K hashes the bits of every distinct ray's answer (hit or not,
// distance, point, normal, shape: the same K, the same answers; untimed).
// --dump FILE (--scene boxes) also writes the world, the rays and steer's
// answers for a peer's driver to cast the same rays over the same boxes
// (tests/tools/peers/box2d_rays.c reads it):
//   steer-rays boxes=N rays=M length=L
//   N lines "lx ly ux uy" (a box's corners), then M lines "ox oy dx dy hit
//   distance" (a ray's origin, unit direction and steer's answer), every
//   float in C99's exact hexadecimal notation (%a). The timed loop casts
//   ray i % M for i < R.
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "world.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// FNV-1a over bytes.
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/// The world and the rays for a peer (--dump); false when the file cannot be written.
static bool dump_rays(const char *path, steer_world *w, const steer_vec2 *origin, const steer_vec2 *dir, int count,
                      float len)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) return false;
    const struct steer_geometry *g = w->geometry;
    int boxes = 0;
    for (int i = 0; i < g->src_count; ++i) boxes += !g->src[i].dead && g->src[i].type == PRIM_BOX;
    fprintf(f, "steer-rays boxes=%d rays=%d length=%a\n", boxes, count, (double)len);
    for (int i = 0; i < g->src_count; ++i) {
        const geo_prim *p = &g->src[i];
        if (p->dead || p->type != PRIM_BOX) continue;
        fprintf(f, "%a %a %a %a\n", (double)p->d[0], (double)p->d[1], (double)p->d[2], (double)p->d[3]);
    }
    steer_ray_filter filter = steer_default_ray_filter();
    for (int i = 0; i < count; ++i) {
        steer_ray_hit hit;
        bool got = steer_world_raycast(w, origin[i], dir[i], len, &filter, &hit);
        fprintf(f, "%a %a %a %a %d %a\n", (double)origin[i].x, (double)origin[i].y, (double)dir[i].x, (double)dir[i].y,
                got, got ? (double)hit.distance : 0.0);
    }
    return fclose(f) == 0;
}

static float uniform(uint64_t *s) { return (float)(next(s) >> 40) * (1.0f / 16777216.0f); }

// N distinct cells of a side x side grid, by a partial Fisher-Yates shuffle.
static void build_world(steer_world *w, long shapes, int side, bool boxes_only, uint64_t *rng)
{
    long cells = (long)side * side;
    int *cell = malloc(sizeof *cell * (size_t)cells);
    if (cell == NULL) return;
    for (long i = 0; i < cells; ++i) cell[i] = (int)i;
    for (long i = 0; i < shapes && i < cells; ++i) {
        long j = i + (long)(next(rng) % (uint64_t)(cells - i));
        int t = cell[i];
        cell[i] = cell[j];
        cell[j] = t;
        float cx = (float)(cell[i] % side) + 0.5f, cy = (float)(cell[i] / side) + 0.5f;
        if (boxes_only || i % 2 == 0) {
            float hx = 0.2f + 0.3f * uniform(rng), hy = 0.2f + 0.3f * uniform(rng);
            steer_world_add_box(w, steer_v2(cx - hx, cy - hy), steer_v2(cx + hx, cy + hy));
        } else {
            steer_vec2 d = steer_scale(steer_heading(uniform(rng) * 2.0f * STEER_PI), 0.25f + 0.45f * uniform(rng));
            steer_world_add_segment(w, steer_sub(steer_v2(cx, cy), d), steer_add(steer_v2(cx, cy), d));
        }
    }
    free(cell);
}

int bench_rays(int argc, char **argv)
{
    long shapes = bench_arg_long(argc, argv, "--shapes", 1000);
    long rays = bench_arg_long(argc, argv, "--rays", 1000000);
    long length = bench_arg_long(argc, argv, "--length", 5);
    uint64_t rng = (uint64_t)bench_arg_long(argc, argv, "--seed", 1);
    const char *scene = "mixed", *dump = NULL;
    for (int i = 2; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--scene") == 0) scene = argv[i + 1];
        if (strcmp(argv[i], "--dump") == 0) dump = argv[i + 1];
    }
    if (strcmp(scene, "mixed") != 0 && strcmp(scene, "boxes") != 0) {
        fprintf(stderr, "steer-bench rays: --scene must be mixed or boxes, got '%s'\n", scene);
        return 2;
    }
    if (shapes < 1 || rays < 1 || length < 1) {
        fprintf(stderr, "steer-bench rays: --shapes, --rays and --length must be positive\n");
        return 2;
    }
    if (dump != NULL && strcmp(scene, "boxes") != 0) {
        fprintf(stderr, "steer-bench rays: --dump takes the boxes scene (--scene boxes)\n");
        return 2;
    }
    int side = (int)ceil(sqrt((double)shapes * 10.0));
    steer_world_def def = steer_default_world_def();
    steer_world *w = steer_world_create(&def);
    if (w == NULL) return 1;
    build_world(w, shapes, side, strcmp(scene, "boxes") == 0, &rng);
    if (bench_has_flag(argc, argv, "--bvh") && w->geometry != NULL) w->geometry->grid_off = true;

    // rays generated up front: only the casts are timed
    enum { BATCH = 4096 };
    steer_vec2 *origin = malloc(sizeof *origin * BATCH), *dir = malloc(sizeof *dir * BATCH);
    if (origin == NULL || dir == NULL) return 1;
    steer_ray_filter filter = steer_default_ray_filter();
    steer_ray_hit hit;
    const float len = (float)length;
    const bool outside = bench_has_flag(argc, argv, "--outside");
    for (int i = 0; i < BATCH; ++i) {
        do {
            origin[i] = steer_v2(uniform(&rng) * (float)side, uniform(&rng) * (float)side);
            dir[i] = steer_heading(uniform(&rng) * 2.0f * STEER_PI);
        } while (outside && steer_world_raycast(w, origin[i], dir[i], len, &filter, &hit) && hit.distance == 0.0f);
    }
    steer_world_raycast(w, origin[0], dir[0], len, &filter, &hit); // builds the hierarchy
    if (dump != NULL && !dump_rays(dump, w, origin, dir, BATCH, len)) {
        fprintf(stderr, "steer-bench rays: cannot write --dump '%s'\n", dump);
        free(origin);
        free(dir);
        steer_world_destroy(w);
        return 1;
    }

    long hits = 0;
    double t0 = bench_now(), c0 = bench_cpu_now();
    for (long i = 0; i < rays; ++i) {
        int k = (int)(i % BATCH);
        hits += steer_world_raycast(w, origin[k], dir[k], len, &filter, &hit);
    }
    double t1 = bench_now(), c1 = bench_cpu_now();
    uint64_t checksum = 0xCBF29CE484222325ull;
    for (long i = 0; i < rays && i < BATCH; ++i) {
        unsigned char got = steer_world_raycast(w, origin[i], dir[i], len, &filter, &hit);
        checksum = fnv(checksum, &got, 1);
        if (!got) continue;
        float f[5] = {hit.distance, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y};
        checksum = fnv(fnv(checksum, f, sizeof f), &hit.shape.index, sizeof hit.shape.index);
    }
    printf("rays scene=%s shapes=%ld length=%ld ns_per_ray=%.1f cpu_ns=%.1f hit_rate=%.3f checksum=%016llx\n", scene,
           shapes, length, (t1 - t0) * 1e9 / (double)rays, (c1 - c0) * 1e9 / (double)rays, (double)hits / (double)rays,
           (unsigned long long)checksum);
    free(origin);
    free(dir);
    steer_world_destroy(w);
    return 0;
}
