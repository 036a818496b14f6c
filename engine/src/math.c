// math.c: deterministic angle functions (polynomials in double precision;
// only +, -, *, / and floor, which IEEE 754 rounds exactly).
#include "steer/math.h"

static const double PI_D = 3.14159265358979323846;

float steer_wrap_angle(float a)
{
    // mapToRange from the notes: into (-pi, pi] by whole turns.
    if (a == -STEER_PI) return STEER_PI;
    if (a > STEER_PI || a < -STEER_PI) {
        double d = (double)a;
        d -= 2.0 * PI_D * floor((d + PI_D) / (2.0 * PI_D));
        a = (float)d;
        if (a <= -STEER_PI) a = STEER_PI;
        if (a > STEER_PI) a = STEER_PI;
    }
    return a;
}

// atan of t for |t| <= tan(pi/8): its Taylor series to t^19 (error < 1e-9).
static double atan_small(double t)
{
    double t2 = t * t;
    double p = 1.0 / 19.0;
    p = 1.0 / 17.0 - t2 * p;
    p = 1.0 / 15.0 - t2 * p;
    p = 1.0 / 13.0 - t2 * p;
    p = 1.0 / 11.0 - t2 * p;
    p = 1.0 / 9.0 - t2 * p;
    p = 1.0 / 7.0 - t2 * p;
    p = 1.0 / 5.0 - t2 * p;
    p = 1.0 / 3.0 - t2 * p;
    p = 1.0 - t2 * p;
    return t * p;
}

float steer_atan2(float y, float x)
{
    double ax = fabs((double)x), ay = fabs((double)y);
    if (ax == 0.0 && ay == 0.0) return 0.0f;
    // reduce to an angle in [0, pi/4] of the octant, then to |t| <= tan(pi/8)
    bool swap = ay > ax;
    double r = swap ? ax / ay : ay / ax; // in [0, 1]
    double a;
    if (r > 0.41421356237309503) {
        a = 0.25 * PI_D + atan_small((r - 1.0) / (r + 1.0));
    } else {
        a = atan_small(r);
    }
    if (swap) a = 0.5 * PI_D - a;
    if (x < 0.0f) a = PI_D - a;
    if (y < 0.0f) a = -a;
    float f = (float)a;
    if (f <= -STEER_PI) f = STEER_PI;
    return f;
}

steer_cos_sin steer_compute_cos_sin(float angle)
{
    double a = (double)steer_wrap_angle(angle);
    // quadrant reduction: a = k*pi/2 + r, |r| <= pi/4
    double k = floor(a / (0.5 * PI_D) + 0.5);
    double r = a - k * (0.5 * PI_D);
    double r2 = r * r;
    // Taylor series to r^13 and r^14 (error < 1e-12 for |r| <= pi/4)
    double s = r * (1.0 - r2 / 6.0 * (1.0 - r2 / 20.0 * (1.0 - r2 / 42.0 * (1.0 - r2 / 72.0 * (1.0 - r2 / 110.0 * (1.0 - r2 / 156.0))))));
    double c = 1.0 - r2 / 2.0 * (1.0 - r2 / 12.0 * (1.0 - r2 / 30.0 * (1.0 - r2 / 56.0 * (1.0 - r2 / 90.0 * (1.0 - r2 / 132.0 * (1.0 - r2 / 182.0))))));
    int q = ((int)k) & 3;
    double sn, cs;
    switch (q) {
    case 0: sn = s; cs = c; break;
    case 1: sn = c; cs = -s; break;
    case 2: sn = -s; cs = -c; break;
    default: sn = -c; cs = s; break;
    }
    return (steer_cos_sin){(float)cs, (float)sn};
}
