// Vector math and the orientation convention.
#include "steer/steer.h"
#include "test.h"

static void orientation_round_trips(void)
{
    // orientation -> heading (sin a, cos a) -> orientation, over the range
    for (int i = -1000; i <= 1000; ++i) {
        float a = (float)i * (STEER_PI / 1000.0f);
        steer_vec2 h = steer_heading(a);
        CHECK_NEAR(steer_length(h), 1.0, 1e-6);
        float back = steer_orientation_of(h);
        float expect = steer_wrap_angle(a);
        CHECK_NEAR(steer_wrap_angle(back - expect), 0.0, 2e-6);
    }
}

static void convention_axes(void)
{
    // 0 faces +y, pi/2 faces +x, -pi/2 faces -x, pi faces -y
    CHECK_VEC(steer_heading(0.0f), 0.0, 1.0, 1e-7);
    CHECK_VEC(steer_heading(STEER_PI / 2), 1.0, 0.0, 1e-7);
    CHECK_VEC(steer_heading(-STEER_PI / 2), -1.0, 0.0, 1e-7);
    CHECK_VEC(steer_heading(STEER_PI), 0.0, -1.0, 1e-7);
    CHECK_NEAR(steer_orientation_of(steer_v2(0, 1)), 0.0, 0);
    CHECK_NEAR(steer_orientation_of(steer_v2(1, 0)), STEER_PI / 2, 1e-7);
    CHECK_NEAR(steer_orientation_of(steer_v2(0, -1)), STEER_PI, 0); // pi, never -pi
    CHECK_NEAR(steer_orientation_of(steer_v2(-1, 0)), -STEER_PI / 2, 1e-7);
    CHECK_NEAR(steer_orientation_of(steer_v2(0, 0)), 0.0, 0);
}

static void atan2_matches_libm(void)
{
    double worst = 0.0;
    for (int i = 0; i < 20000; ++i) {
        float y = (float)sin(i * 0.37) * (float)(1 + i % 7), x = (float)cos(i * 0.91) * (float)(1 + i % 5);
        double err = fabs((double)steer_atan2(y, x) - atan2((double)y, (double)x));
        if (err > worst) worst = err;
    }
    CHECK(worst < 3e-7);
    double worst_cs = 0.0;
    for (int i = -20000; i <= 20000; ++i) {
        float a = (float)i * 0.0005f;
        steer_cos_sin cs = steer_compute_cos_sin(a);
        double ec = fabs(cs.cosine - cos((double)a)), es = fabs(cs.sine - sin((double)a));
        if (ec > worst_cs) worst_cs = ec;
        if (es > worst_cs) worst_cs = es;
    }
    CHECK(worst_cs < 3e-7);
}

static void wrap_angle_range(void)
{
    CHECK_NEAR(steer_wrap_angle(STEER_PI), STEER_PI, 0);
    CHECK_NEAR(steer_wrap_angle(-STEER_PI), STEER_PI, 0); // -pi maps to pi
    CHECK_NEAR(steer_wrap_angle(3 * STEER_PI / 2), -STEER_PI / 2, 1e-6);
    CHECK_NEAR(steer_wrap_angle(-3 * STEER_PI / 2), STEER_PI / 2, 1e-6);
    CHECK_NEAR(steer_wrap_angle(0.5f), 0.5, 0);
    for (int i = -100000; i <= 100000; i += 7) {
        float w = steer_wrap_angle((float)i * 0.013f);
        CHECK(w > -STEER_PI && w <= STEER_PI);
    }
    float big = steer_wrap_angle(1e30f);
    CHECK(big > -STEER_PI && big <= STEER_PI);
}

static void vector_helpers(void)
{
    CHECK_VEC(steer_normalize(steer_v2(0, 0)), 0, 0, 0); // zero stays zero
    CHECK_VEC(steer_normalize(steer_v2(3, 4)), 0.6, 0.8, 1e-7);
    CHECK_VEC(steer_clamp_length(steer_v2(3, 4), 2.5f), 1.5, 2.0, 1e-6);
    CHECK_VEC(steer_clamp_length(steer_v2(3, 4), 6.0f), 3, 4, 0);
    CHECK_NEAR(steer_new_orientation(1.25f, steer_v2(0, 0)), 1.25, 0); // keeps last when stopped
    CHECK_NEAR(steer_new_orientation(1.25f, steer_v2(1, 0)), STEER_PI / 2, 1e-7);
}

// The build's floating-point rule (CMakeLists.txt, docs/engine.md
// "Determinism"): a * b + c is never contracted into one fused multiply-add,
// which rounds once where the source rounds twice. aarch64 compilers contract
// by default (gcc outside strict ISO mode, clang in every mode); x86-64 ones
// only with FMA enabled (-mfma, -march=haswell). a * b = 1 - 2^-60 in double
// (1 - 2^-26 in float) rounds to 1, so a * b - 1 is 0 rounded twice and
// -2^-60 (-2^-26) fused. volatile keeps the compiler from folding it.
static void no_fused_multiply_add(void)
{
    volatile double va = 1.0 + 0x1p-30, vb = 1.0 - 0x1p-30, vc = -1.0;
    double a = va, b = vb, c = vc;
    CHECK(a * b + c == 0.0);
    volatile float fa = 1.0f + 0x1p-13f, fb = 1.0f - 0x1p-13f, fc = -1.0f;
    float x = fa, y = fb, z = fc;
    CHECK(x * y + z == 0.0f);
}

int main(void)
{
    RUN(orientation_round_trips);
    RUN(convention_axes);
    RUN(atan2_matches_libm);
    RUN(wrap_angle_range);
    RUN(vector_helpers);
    RUN(no_fused_multiply_add);
    return TEST_RESULT();
}
