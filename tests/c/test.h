// test.h: a handful of macros instead of a framework. Each test file has
// main() call RUN(test_fn) for its tests and return TEST_RESULT().
#ifndef STEER_TEST_H
#define STEER_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int test_failures = 0;
static int test_checks = 0;
static const char *test_current = "";

#define CHECK(cond)                                                                  \
    do {                                                                             \
        ++test_checks;                                                               \
        if (!(cond)) {                                                               \
            ++test_failures;                                                         \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__,     \
                    test_current, #cond);                                            \
        }                                                                            \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                        \
    do {                                                                             \
        ++test_checks;                                                               \
        double a_ = (double)(a), b_ = (double)(b);                                   \
        if (!(fabs(a_ - b_) <= (tol))) {                                             \
            ++test_failures;                                                         \
            fprintf(stderr, "%s:%d: %s: %s = %.9g, expected %s = %.9g (tol %g)\n",   \
                    __FILE__, __LINE__, test_current, #a, a_, #b, b_, (double)(tol)); \
        }                                                                            \
    } while (0)

#define CHECK_VEC(v, ex, ey, tol)                                                    \
    do {                                                                             \
        CHECK_NEAR((v).x, ex, tol);                                                  \
        CHECK_NEAR((v).y, ey, tol);                                                  \
    } while (0)

#define RUN(fn)                                                                      \
    do {                                                                             \
        test_current = #fn;                                                          \
        int before_ = test_failures;                                                 \
        fn();                                                                        \
        printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #fn);          \
    } while (0)

#define TEST_RESULT()                                                                \
    (printf("%d checks, %d failed\n", test_checks, test_failures),                   \
     (test_failures == 0 && test_checks > 0) ? 0 : 1)

#endif
