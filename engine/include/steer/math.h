/// steer/math.h: 2D vectors, angles and the orientation convention.
///
/// The ground plane is (x, y); the movement notes call it (x, z). Units are
/// metres, seconds and radians.
///
/// Orientation convention (one for the whole engine): an orientation `a` is
/// the angle of the heading vector `(sin a, cos a)`. Orientation 0 faces +y,
/// and a positive angle turns the heading towards +x. The inverse is
/// `steer_orientation_of(v) = atan2(v.x, v.y)`, so orientation -> heading ->
/// orientation round-trips (tests/c/test_math.c). The notes also write
/// `atan2(-x, z)`, which belongs to a mirrored axis convention and does not
/// round-trip with `(sin a, cos a)`; it is not used here.
///
/// Orientations are kept in (-pi, pi] by `steer_wrap_angle`. The trigonometry
/// below is our own polynomial code (only +, *, /, IEEE-exact with
/// -ffp-contract=off), so results are the same bits on every platform and
/// cheaper than libm's atan2f.
#ifndef STEER_MATH_H
#define STEER_MATH_H

#include <math.h>
#include <stdbool.h>

#include "base.h"

STEER_EXTERN_C_BEGIN

#define STEER_PI 3.14159265358979323846f

/// A 2D vector (metres, metres/second or metres/second^2 by context).
typedef struct steer_vec2 {
    float x, y;
} steer_vec2;

static inline steer_vec2 steer_v2(float x, float y) { return STEER_LITERAL(steer_vec2){x, y}; }
static inline steer_vec2 steer_add(steer_vec2 a, steer_vec2 b) { return STEER_LITERAL(steer_vec2){a.x + b.x, a.y + b.y}; }
static inline steer_vec2 steer_sub(steer_vec2 a, steer_vec2 b) { return STEER_LITERAL(steer_vec2){a.x - b.x, a.y - b.y}; }
static inline steer_vec2 steer_scale(steer_vec2 a, float s) { return STEER_LITERAL(steer_vec2){a.x * s, a.y * s}; }
/// a + b * s
static inline steer_vec2 steer_mul_add(steer_vec2 a, steer_vec2 b, float s) { return STEER_LITERAL(steer_vec2){a.x + b.x * s, a.y + b.y * s}; }
static inline steer_vec2 steer_neg(steer_vec2 a) { return STEER_LITERAL(steer_vec2){-a.x, -a.y}; }
static inline float steer_dot(steer_vec2 a, steer_vec2 b) { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: positive when b is counter-clockwise of a.
static inline float steer_cross(steer_vec2 a, steer_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline float steer_length_sq(steer_vec2 a) { return a.x * a.x + a.y * a.y; }
/// Length, computed in double so that no finite vector overflows on the way.
static inline float steer_length(steer_vec2 a) { return (float)sqrt((double)a.x * a.x + (double)a.y * a.y); }
static inline float steer_distance(steer_vec2 a, steer_vec2 b) { return steer_length(steer_sub(a, b)); }
/// Left perpendicular (counter-clockwise by 90 degrees).
static inline steer_vec2 steer_perp(steer_vec2 a) { return STEER_LITERAL(steer_vec2){-a.y, a.x}; }

/// Unit vector along a; the zero vector stays zero (as in the notes' normalize).
/// Infinite components give the direction of the infinite part.
static inline steer_vec2 steer_normalize(steer_vec2 a)
{
    double x = a.x, y = a.y;
    if (isinf(x) || isinf(y)) {
        x = isinf(x) ? (x > 0 ? 1.0 : -1.0) : 0.0;
        y = isinf(y) ? (y > 0 ? 1.0 : -1.0) : 0.0;
    }
    double len = sqrt(x * x + y * y);
    if (len > 0.0) return STEER_LITERAL(steer_vec2){(float)(x / len), (float)(y / len)};
    return STEER_LITERAL(steer_vec2){0.0f, 0.0f};
}

/// A double rounded to float, and kept rounded. gcc 12's SLP vectorizer
/// (-O2 and -O3) carried the unrounded double of a clamped length on into
/// the next expression that widened the result again (a formation member's
/// arrive: other bits in the Release build than in -O0 and clang). The
/// empty asm makes the float a value the optimiser cannot see through; it
/// emits no instruction.
static inline float steer_round_float(double v)
{
    float f = (float)v;
#if defined(__GNUC__) && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__)))
    __asm__("" : "+x"(f));
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__("" : "+w"(f));
#endif
    return f;
}

/// (x, y) shortened to at most max (finite, >= 0), computed in double: no
/// finite input overflows on the way. The engine's one length clamp.
static inline steer_vec2 steer_clamp_length_d(double x, double y, double max)
{
    double len2 = x * x + y * y;
    if (len2 > max * max) {
        double s = max / sqrt(len2);
        x *= s;
        y *= s;
    }
    return STEER_LITERAL(steer_vec2){steer_round_float(x), steer_round_float(y)};
}

/// a shortened to at most max_len (finite, >= 0); shorter vectors are
/// unchanged. Huge or infinite vectors (an intermediate that overflowed)
/// come back max_len long, never NaN.
static inline steer_vec2 steer_clamp_length(steer_vec2 a, float max_len)
{
    double len2 = (double)a.x * a.x + (double)a.y * a.y;
    if (len2 <= (double)max_len * max_len) return a; // (the common case: nothing to do)
    if (isinf(a.x) || isinf(a.y)) return steer_scale(steer_normalize(a), max_len);
    return steer_clamp_length_d(a.x, a.y, max_len);
}

static inline float steer_minf(float a, float b) { return a < b ? a : b; }
static inline float steer_maxf(float a, float b) { return a > b ? a : b; }
static inline float steer_clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
static inline float steer_absf(float v) { return v < 0.0f ? -v : v; }
static inline bool steer_is_finite(float v) { return isfinite(v) != 0; }
static inline bool steer_vec2_is_finite(steer_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/// Angle wrapped into (-pi, pi] (the notes' mapToRange). Finite input only.
STEER_API float steer_wrap_angle(float a);

/// atan2(y, x) in (-pi, pi], our deterministic polynomial (error < 2e-7 rad).
/// atan2(0, 0) is 0.
STEER_API float steer_atan2(float y, float x);

/// Cosine and sine of an angle in radians, deterministic polynomial
/// (error < 2e-7 for |a| <= 2pi; larger angles are wrapped first).
typedef struct steer_cos_sin {
    float cosine, sine;
} steer_cos_sin;
STEER_API steer_cos_sin steer_compute_cos_sin(float a);

/// Unit heading of an orientation: (sin a, cos a).
static inline steer_vec2 steer_heading(float orientation)
{
    steer_cos_sin cs = steer_compute_cos_sin(orientation);
    return STEER_LITERAL(steer_vec2){cs.sine, cs.cosine};
}

/// Orientation of a direction: atan2(v.x, v.y), in (-pi, pi]; 0 for the zero vector.
static inline float steer_orientation_of(steer_vec2 v) { return steer_atan2(v.x, v.y); }

/// The notes' getNewOrientation: the orientation of velocity, or current when
/// the velocity is zero.
static inline float steer_new_orientation(float current, steer_vec2 velocity)
{
    if (velocity.x != 0.0f || velocity.y != 0.0f) return steer_orientation_of(velocity);
    return current;
}

STEER_EXTERN_C_END

#endif
