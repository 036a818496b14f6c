// core.c: the assert hook, the allocator hook, hashing helpers, and the
// wording of a limit in a message.
#include "core.h"
#include "steer/reflect.h"

#include <math.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static steer_assert_fn *assert_fn = NULL;
static void *assert_context = NULL;

_Thread_local int steer__evaluating = 0;

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

/* ---- allocation ----------------------------------------------------------------- */

static void *default_alloc(size_t size, void *context)
{
    (void)context;
    return malloc(size);
}

static void default_free(void *memory, size_t size, void *context)
{
    (void)size;
    (void)context;
    free(memory);
}

static steer_alloc_fn *alloc_fn = default_alloc;
static steer_free_fn *free_fn = default_free;
static void *alloc_context = NULL;

void steer_set_allocator(steer_alloc_fn *alloc, steer_free_fn *release, void *context)
{
    bool custom = alloc != NULL && release != NULL;
    alloc_fn = custom ? alloc : default_alloc;
    free_fn = custom ? release : default_free;
    alloc_context = custom ? context : NULL;
}

// Each block starts with a header holding the size asked for, so the free
// hook gets the size and realloc knows what to copy, and the account it was
// charged to (NULL: none), which gets it back when it is freed. The header
// keeps the payload aligned for any type.
typedef union block_header {
    struct {
        size_t size;
        steer_memory_account *account;
    } b;
    max_align_t align;
} block_header;

// Counted, so a test can check that a step allocates nothing.
unsigned long steer__allocations = 0;

// The account this thread's allocations are charged to (NULL: none).
static _Thread_local steer_memory_account *account_now = NULL;

steer_memory_account *steer_set_memory_account(steer_memory_account *account)
{
    steer_memory_account *was = account_now;
    account_now = account;
    return was;
}

void *steer__alloc(size_t size)
{
    ++steer__allocations;
    if (size > SIZE_MAX - sizeof(block_header)) return NULL;
    steer_memory_account *a = account_now;
    const size_t total = sizeof(block_header) + size;
    if (a != NULL && a->cap != 0 && (a->bytes > a->cap || total > a->cap - a->bytes)) {
        // the owner may free something first (not from inside itself)
        void (*reclaim)(steer_memory_account *, size_t, void *) = a->reclaim;
        if (reclaim != NULL) {
            a->reclaim = NULL;
            reclaim(a, total, a->reclaim_context);
            a->reclaim = reclaim;
        }
        if (a->bytes > a->cap || total > a->cap - a->bytes) {
            a->refused = true;
            return NULL;
        }
    }
    block_header *h = alloc_fn(total, alloc_context);
    if (h == NULL) return NULL;
    h->b.size = size;
    h->b.account = a;
    if (a != NULL) a->bytes += total;
    return h + 1;
}

void steer__free(void *p)
{
    if (p == NULL) return;
    block_header *h = (block_header *)p - 1;
    const size_t total = sizeof *h + h->b.size;
    if (h->b.account != NULL) h->b.account->bytes -= total;
    free_fn(h, total, alloc_context);
}

void *steer__realloc(void *p, size_t size)
{
    if (p == NULL) return steer__alloc(size);
    block_header *old = (block_header *)p - 1;
    if (old->b.size >= size && old->b.size / 2 < size) return p; // close enough: keep it
    void *q = steer__alloc(size);
    if (q == NULL) return NULL;
    memcpy(q, p, old->b.size < size ? old->b.size : size);
    steer__free(p);
    return q;
}

void *steer_alloc(size_t size) { return steer__alloc(size); }
void steer_free(void *memory) { steer__free(memory); }

bool steer__grow(void **array, size_t item, size_t n)
{
    if (n > SIZE_MAX / item) return false;
    void *p = steer__realloc(*array, item * n);
    if (p == NULL) return false;
    *array = p;
    return true;
}

/* ---- hashing ------------------------------------------------------------------- */

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

// A limit as messages write it: whole numbers plainly, large powers of two
// as 2^k, the rest in two significant digits without exponent padding.
const char *steer_format_limit(double v, char *buf, size_t size)
{
    int e;
    if (v == floor(v) && fabs(v) < 1e6) {
        snprintf(buf, size, "%.0f", v);
    } else if (v == floor(v) && v >= 65536.0 && v < 9.0e15 && frexp(v, &e) == 0.5) {
        snprintf(buf, size, "2^%d", e - 1);
    } else {
        // "1e+09" -> "1e9", "3.4e+38" -> "3.4e38"
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.2g", v);
        char *x = strchr(tmp, 'e');
        if (x != NULL) {
            char *d = x + 1;
            bool minus = *d == '-';
            if (*d == '+' || *d == '-') ++d;
            while (*d == '0' && d[1] != '\0') ++d;
            snprintf(x + 1, sizeof tmp - (size_t)(x + 1 - tmp), "%s%s", minus ? "-" : "", d);
        }
        snprintf(buf, size, "%s", tmp);
    }
    return buf;
}
