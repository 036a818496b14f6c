// core.c: the assert hook, allocation and hashing helpers.
#include "core.h"

#include <stdio.h>

static steer_assert_fn *assert_fn = NULL;
static void *assert_context = NULL;

void steer_set_assert_fn(steer_assert_fn *fn, void *context)
{
    assert_fn = fn;
    assert_context = context;
}

void steer__assert_failed(const char *condition, const char *file, int line)
{
    if (assert_fn != NULL) {
        assert_fn(condition, file, line, assert_context);
        return;
    }
    fprintf(stderr, "steer: assertion failed: %s (%s:%d)\n", condition, file, line);
#ifndef NDEBUG
    abort();
#endif
}

// Counted, so a test can check that a step allocates nothing.
unsigned long steer__allocations = 0;

void *steer__alloc(size_t size)
{
    ++steer__allocations;
    return malloc(size > 0 ? size : 1);
}

void *steer__realloc(void *p, size_t size)
{
    ++steer__allocations;
    return realloc(p, size > 0 ? size : 1);
}
void steer__free(void *p) { free(p); }

uint64_t steer__mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t steer__stream_seed(uint64_t world_seed, uint64_t key)
{
    return steer__mix64(steer__mix64(world_seed + 0x9E3779B97F4A7C15ull) ^ (key * 0xD6E8FEB86659FD93ull));
}
