// tests/tools/peers/box2d_rays.c: Box2D v3 (github.com/erincatto/box2d) on
// the world and rays of `steer-bench rays --scene boxes`, for a same-run
// comparison (issue 25). steer-bench writes its boxes, its rays and its own
// answers (--dump FILE); this driver makes every box a static body with one
// box polygon (b2MakeBox, centred on the body), rebuilds the static tree
// (b2World_RebuildStaticTree) and casts ray i % M for i < R with
// b2World_CastRayClosest (translation = direction x length), as steer-bench
// times them. Prints
//   box2d rays boxes=N length=L ns_per_ray=X cpu_ns=C hit_rate=H
//     agree=A of=B inside=I max_diff=D
// H counts as steer-bench's hit_rate does (over the R casts). The check
// against steer's answers, ray by ray over the M distinct rays: B rays start
// outside every box and A of them have the same answer in both engines (both
// miss, or both hit with distances within 1e-4 m; the largest difference is
// D). The I rays that start inside a box are left out: steer answers
// distance 0 there, Box2D's closest cast ignores a shape it starts in
// ("initial overlap") and goes on to the next one.
// Not built by CMake: with a checkout of Box2D at $BOX2D, built as the
// issue's peers are (-O2 -DNDEBUG, a static library, no samples or tests;
// the cmake line is one command):
//   cmake -S $BOX2D -B $BOX2D/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG"
//     -DBOX2D_SAMPLES=OFF -DBOX2D_UNIT_TESTS=OFF -DBOX2D_VALIDATE=OFF -DBUILD_SHARED_LIBS=OFF
//   cmake --build $BOX2D/build -j2
//   cc -std=c17 -O2 -DNDEBUG -I$BOX2D/include -o box2d_rays tests/tools/peers/box2d_rays.c $BOX2D/build/src/libbox2d.a -lm
//   steer-bench rays --scene boxes --shapes 1000 --length 5 --dump rays.txt
//   ./box2d_rays rays.txt [R]   (R: casts, default 1000000, as steer-bench's --rays)
#define _POSIX_C_SOURCE 199309L
#include <box2d/box2d.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: box2d_rays DUMP [RAYS]\n");
        return 2;
    }
    long casts = argc > 2 ? atol(argv[2]) : 1000000;
    FILE *f = fopen(argv[1], "r");
    int boxes, count;
    double length;
    if (f == NULL || fscanf(f, "steer-rays boxes=%d rays=%d length=%la", &boxes, &count, &length) != 3 || boxes < 0 ||
        count < 1 || casts < 1) {
        fprintf(stderr, "box2d_rays: cannot read '%s' (from steer-bench rays --scene boxes --dump)\n", argv[1]);
        return 2;
    }
    float *box = malloc(sizeof *box * 4 * (size_t)(boxes > 0 ? boxes : 1));
    float *ray = malloc(sizeof *ray * 4 * (size_t)count), *steer_s = malloc(sizeof *steer_s * (size_t)count);
    int *steer_hit = malloc(sizeof *steer_hit * (size_t)count);
    if (box == NULL || ray == NULL || steer_s == NULL || steer_hit == NULL) return 1;
    for (int i = 0; i < boxes; ++i) {
        double v[4];
        if (fscanf(f, "%la %la %la %la", &v[0], &v[1], &v[2], &v[3]) != 4) return 2;
        for (int k = 0; k < 4; ++k) box[4 * i + k] = (float)v[k];
    }
    for (int i = 0; i < count; ++i) {
        double v[5];
        if (fscanf(f, "%la %la %la %la %d %la", &v[0], &v[1], &v[2], &v[3], &steer_hit[i], &v[4]) != 6) return 2;
        for (int k = 0; k < 4; ++k) ray[4 * i + k] = (float)v[k];
        steer_s[i] = (float)v[4];
    }
    fclose(f);

    b2WorldDef wdef = b2DefaultWorldDef();
    b2WorldId world = b2CreateWorld(&wdef);
    b2ShapeDef sdef = b2DefaultShapeDef();
    for (int i = 0; i < boxes; ++i) {
        const float *b = &box[4 * i];
        b2BodyDef bdef = b2DefaultBodyDef(); // static
        bdef.position = (b2Pos){0.5f * (b[0] + b[2]), 0.5f * (b[1] + b[3])};
        b2BodyId body = b2CreateBody(world, &bdef);
        b2Polygon poly = b2MakeBox(0.5f * (b[2] - b[0]), 0.5f * (b[3] - b[1]));
        b2CreatePolygonShape(body, &sdef, &poly);
    }
    b2World_RebuildStaticTree(world);
    const b2QueryFilter filter = b2DefaultQueryFilter();
    const float len = (float)length;

    long hits = 0;
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < casts; ++i) {
        const float *r = &ray[4 * (i % count)];
        b2RayResult res = b2World_CastRayClosest(world, (b2Pos){r[0], r[1]}, (b2Vec2){r[2] * len, r[3] * len}, filter);
        hits += res.hit;
    }
    double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);

    // ray by ray against steer's answers, the rays from inside a box apart
    int agree = 0, outside = 0, inside = 0;
    double max_diff = 0.0;
    for (int i = 0; i < count; ++i) {
        const float *r = &ray[4 * i];
        if (steer_hit[i] && steer_s[i] == 0.0f) {
            ++inside;
            continue;
        }
        ++outside;
        b2RayResult res = b2World_CastRayClosest(world, (b2Pos){r[0], r[1]}, (b2Vec2){r[2] * len, r[3] * len}, filter);
        if (res.hit != (steer_hit[i] != 0)) continue;
        if (res.hit) {
            double d = fabs((double)res.fraction * len - (double)steer_s[i]);
            if (d > max_diff) max_diff = d;
            if (d > 1e-4) continue;
        }
        ++agree;
    }
    printf("box2d rays boxes=%d length=%g ns_per_ray=%.1f cpu_ns=%.1f hit_rate=%.3f agree=%d of=%d inside=%d "
           "max_diff=%.2g\n",
           boxes, length, (t1 - t0) * 1e9 / (double)casts, (c1 - c0) * 1e9 / (double)casts, (double)hits / (double)casts,
           agree, outside, inside, max_diff);
    b2DestroyWorld(world);
    free(box);
    free(ray);
    free(steer_s);
    free(steer_hit);
    return 0;
}
