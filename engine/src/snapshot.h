// snapshot.h: the byte format of world snapshots (snapshot.c writes the
// header, the world, its agents, paths and behaviours; snapshot_parts.c the
// shapes, navigate's plans and formations): a writer that counts what it cannot store, and a
// reader that refuses, with a message naming the part, whatever it cannot
// read. Every number is little-endian whatever the machine; floats by their
// bits.
#ifndef STEER_SNAPSHOT_H
#define STEER_SNAPSHOT_H

#include <stdarg.h>
#include <stdio.h>

#include "core.h"

/// Writes into buf while it has room; len counts every byte asked for, so
/// one pass sizes the snapshot and another (or the same) writes it.
typedef struct snap_writer {
    unsigned char *buf;
    size_t cap, len;
} snap_writer;

static inline void snap_put(snap_writer *w, const void *bytes, size_t n)
{
    if (w->len <= w->cap && n <= w->cap - w->len && n > 0) memcpy(w->buf + w->len, bytes, n);
    w->len += n;
}
static inline void snap_u64n(snap_writer *w, uint64_t v, int n)
{
    unsigned char b[8];
    for (int k = 0; k < n; ++k) b[k] = (unsigned char)(v >> (8 * k));
    snap_put(w, b, (size_t)n);
}
static inline void snap_u8(snap_writer *w, uint32_t v) { snap_u64n(w, v, 1); }
static inline void snap_u32(snap_writer *w, uint32_t v) { snap_u64n(w, v, 4); }
static inline void snap_u64(snap_writer *w, uint64_t v) { snap_u64n(w, v, 8); }
static inline void snap_i32(snap_writer *w, int v) { snap_u64n(w, (uint32_t)v, 4); }
static inline void snap_f32(snap_writer *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    snap_u32(w, u);
}
static inline void snap_f64(snap_writer *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    snap_u64(w, u);
}
static inline void snap_vec2(snap_writer *w, steer_vec2 v) { snap_f32(w, v.x), snap_f32(w, v.y); }
static inline void snap_str(snap_writer *w, const char *s)
{
    size_t n = s != NULL ? strlen(s) : 0;
    snap_u32(w, (uint32_t)n);
    snap_put(w, s, n);
}
/// n elements of `size` bytes made of words of `word` bytes (1, 2, 4, 8).
static inline void snap_words(snap_writer *w, const void *data, size_t n, size_t size, int word)
{
    const unsigned char *p = data;
    for (size_t k = 0; k < n * size; k += (size_t)word) {
        uint64_t v = 0;
        if (word == 1) v = p[k];
        else if (word == 2) { uint16_t x; memcpy(&x, p + k, 2); v = x; }
        else if (word == 4) { uint32_t x; memcpy(&x, p + k, 4); v = x; }
        else { memcpy(&v, p + k, 8); }
        snap_u64n(w, v, word);
    }
}

/// Reads from bytes; the first failure sets `error` (its message kept) and
/// every later read gives zeros, so a reader checks `ok` at its own pace.
typedef struct snap_reader {
    const unsigned char *bytes;
    size_t size, pos;
    bool ok;
    const char *part; ///< what is being read, for messages ("agents", "behaviour 3")
    steer_snapshot_error *error;
} snap_reader;

static inline bool snap_fail(snap_reader *r, const char *fmt, ...)
{
    if (r->ok && r->error != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error->message, sizeof r->error->message, fmt, ap);
        va_end(ap);
    }
    r->ok = false;
    return false;
}

static inline bool snap_get(snap_reader *r, void *out, size_t n)
{
    if (r->ok && n <= r->size - r->pos) {
        if (n > 0) memcpy(out, r->bytes + r->pos, n);
        r->pos += n;
        return true;
    }
    if (r->ok) snap_fail(r, "truncated snapshot: %s ends early (at byte %zu of %zu)", r->part, r->pos, r->size);
    memset(out, 0, n);
    return false;
}
static inline uint64_t snap_read_n(snap_reader *r, int n)
{
    unsigned char b[8];
    snap_get(r, b, (size_t)n);
    uint64_t v = 0;
    for (int k = 0; k < n; ++k) v |= (uint64_t)b[k] << (8 * k);
    return v;
}
static inline uint32_t snap_ru8(snap_reader *r) { return (uint32_t)snap_read_n(r, 1); }
static inline uint32_t snap_ru32(snap_reader *r) { return (uint32_t)snap_read_n(r, 4); }
static inline uint64_t snap_ru64(snap_reader *r) { return snap_read_n(r, 8); }
static inline int snap_ri32(snap_reader *r) { return (int)(int32_t)snap_ru32(r); }
static inline float snap_rf32(snap_reader *r)
{
    uint32_t u = snap_ru32(r);
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline double snap_rf64(snap_reader *r)
{
    uint64_t u = snap_ru64(r);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline steer_vec2 snap_rvec2(snap_reader *r)
{
    steer_vec2 v;
    v.x = snap_rf32(r);
    v.y = snap_rf32(r);
    return v;
}
static inline bool snap_rbool(snap_reader *r)
{
    uint32_t v = snap_ru8(r);
    if (v > 1) snap_fail(r, "damaged snapshot: %s has a flag that is neither 0 nor 1", r->part);
    return v == 1;
}
/// A count of things taking at least `each` bytes apiece: no more than the
/// bytes left can hold (a damaged count never makes a huge allocation).
static inline int snap_rcount(snap_reader *r, size_t each, int max)
{
    uint32_t n = snap_ru32(r);
    if (!r->ok) return 0;
    if ((uint64_t)n > (uint64_t)max || (each > 0 && (uint64_t)n * each > r->size - r->pos)) {
        snap_fail(r, "damaged snapshot: %s counts %u, more than it can hold", r->part, n);
        return 0;
    }
    return (int)n;
}
/// A string into buf (size bytes, NUL-terminated); longer ones are refused.
static inline const char *snap_rstr(snap_reader *r, char *buf, size_t size)
{
    uint32_t n = snap_ru32(r);
    buf[0] = '\0';
    if (!r->ok) return buf;
    if (n >= size) {
        snap_fail(r, "damaged snapshot: a name in %s is %u bytes long", r->part, n);
        return buf;
    }
    snap_get(r, buf, n);
    buf[r->ok ? n : 0] = '\0';
    if (r->ok && strlen(buf) != n) snap_fail(r, "damaged snapshot: a name in %s holds a zero byte", r->part);
    return buf;
}
static inline void snap_rwords(snap_reader *r, void *data, size_t n, size_t size, int word)
{
    unsigned char *p = data;
    for (size_t k = 0; k < n * size && r->ok; k += (size_t)word) {
        uint64_t v = snap_read_n(r, word);
        if (word == 1) p[k] = (unsigned char)v;
        else if (word == 2) { uint16_t x = (uint16_t)v; memcpy(p + k, &x, 2); }
        else if (word == 4) { uint32_t x = (uint32_t)v; memcpy(p + k, &x, 4); }
        else memcpy(p + k, &v, 8);
    }
}
/// Refuse unless cond, with a message about the current part; cond is
/// not evaluated once reading failed (what it reads may be unset).
#define SNAP_NEED(r, cond, what)                                                                \
    (!(r)->ok ? false : (cond) ? true : snap_fail((r), "damaged snapshot: %s: %s", (r)->part, (what)))

/// Paths and behaviours of a snapshot, by index: what the shapes and
/// formations refer to (snapshot.c builds them).
typedef struct snap_refs {
    steer_path **paths;
    int path_count;
    steer_behaviour **behaviours;
    int behaviour_count;
    // writing: the objects met so far, found by pointer
    const void **keys;
    int *values;
    size_t table_size; ///< a power of two, or 0
} snap_refs;

static inline size_t snap_hash_ptr(const void *p, size_t mask)
{
    return (size_t)(steer__mix64((uint64_t)(uintptr_t)p) & mask);
}

/// Writing: index + 1 of a path or behaviour already listed (0 for NULL
/// and for objects not listed).
static inline int snap_ref_of(const snap_refs *refs, const void *object)
{
    if (object == NULL || refs->table_size == 0) return 0;
    size_t mask = refs->table_size - 1;
    for (size_t h = snap_hash_ptr(object, mask);; h = (h + 1) & mask) {
        if (refs->keys[h] == NULL) return 0;
        if (refs->keys[h] == object) return refs->values[h] + 1;
    }
}

/* ---- snapshot_parts.c ------------------------------------------------------------------- */

/// Shapes: slots with their generations, parts, polygon vertices.
void steer__snapshot_write_shapes(snap_writer *w, const steer_world *world);
bool steer__snapshot_read_shapes(snap_reader *r, steer_world *world);
struct nav_plan;
/// navigate's plan (navigate.h) of an agent or formation anchor whose
/// behaviour tree is `tree`: route, progress, goal, replan and stuck state,
/// and the planner version it was made at. Reading makes *plan (NULL on
/// entry; owned by the caller whatever fails); a tree that navigates gets a
/// fresh plan when none was saved, as spawning gives it one.
void steer__snapshot_write_plan(snap_writer *w, const struct nav_plan *plan, const steer_behaviour *tree,
                                const snap_refs *refs);
bool steer__snapshot_read_plan(snap_reader *r, struct nav_plan **plan, const steer_behaviour *tree,
                               const snap_refs *refs);
/// Formations: their table, definitions, members, slots, anchors, memory.
void steer__snapshot_write_formations(snap_writer *w, const steer_world *world, const snap_refs *refs);
bool steer__snapshot_read_formations(snap_reader *r, steer_world *world, const snap_refs *refs);

#endif
