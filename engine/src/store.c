// store.c: the agent store. Agents live in dense columns (one array per
// field), addressed through slots whose generation detects stale ids. The
// columns are described once, in `columns` below: growing, freeing,
// permuting into grid order and swap-removal all walk that table.
#include <stddef.h>

#include "store.h"
#include "tasks.h"

/// One per-agent column: where its array pointer sits in the world, the
/// size of one element, and whether it holds agent state (moved by
/// reorder and removal, and saved by snapshots) or only scratch of a stage.
/// Snapshots walk this table too (snapshot.c): a column added here is
/// saved and restored with no more code, by its name and the size of the
/// words it is made of (WORD_OF below: a struct counts as floats). A column
/// whose agents all hold the default while a counter of the world is 0
/// (`unless`, the counter's offset, or -1) is not permuted then: it would
/// not change.
typedef struct store_column {
    size_t offset;
    store_column_info info;
    ptrdiff_t unless;
} store_column;

// The size of the words an element is made of, for the byte order of a
// snapshot; 0 for a pointer (the behaviour column is saved by snapshot.c
// as a reference, navigate's plans by snapshot_parts.c field by field; the
// host's user data is not saved); a struct counts as 4-byte words
// (every struct column holds floats, or 32-bit words).
#define WORD_OF(x)                                                                                   \
    _Generic((x), bool: 1, char: 1, signed char: 1, unsigned char: 1, short: 2, unsigned short: 2,   \
             int: 4, unsigned: 4, float: 4, long long: 8, unsigned long long: 8, long: sizeof(long), \
             unsigned long: sizeof(long), double: 8, steer_behaviour *: 0, void *: 0, struct nav_plan *: 0,   \
             default: 4)
#define COLUMN_OF(field, moves, unless)                                                              \
    {offsetof(steer_world, field),                                                                   \
     {#field, sizeof *((steer_world *)0)->field, WORD_OF(*((steer_world *)0)->field), moves}, unless}
#define COLUMN(field, moves) COLUMN_OF(field, moves, -1)
#define DEFAULTED(field, counter) COLUMN_OF(field, true, (ptrdiff_t)offsetof(steer_world, counter))
// (the block holds them in this order, then the spares: steer__store_reserve)
static const store_column columns[] = {
    COLUMN(state, true),     COLUMN(limits, true), COLUMN(behaviour, true), COLUMN(out, true),
    COLUMN(memory, true),    COLUMN(rng, true),    COLUMN(key, true),       COLUMN(slot_of, true),
    COLUMN(flags, true),     DEFAULTED(filter, filtered), DEFAULTED(priority, prioritised), COLUMN(user_data, true),
    COLUMN(plan, true),      COLUMN(intent, true), COLUMN(course, true), DEFAULTED(rest, settling),
    COLUMN(push, false),     // agent contact resolution's scratch
    COLUMN(last_out, false), // the previous outputs, during a step (step.c)
    COLUMN(course_next, false), // the courses a step writes (world.h, orca_course)
    // the settling states a step writes and which of an agent's may not
    // be all 0 (world.h, orca_rest, rest_held): steer_agent_destroy moves
    // them, the reorder clears the first and sets the marks again
    COLUMN(rest_next, false), COLUMN(rest_held, false),
};
#undef COLUMN
#undef COLUMN_OF
#undef DEFAULTED
#undef WORD_OF
enum { COLUMN_COUNT = sizeof columns / sizeof columns[0] };

static inline char **column_of(const steer_world *w, int c)
{
    return (char **)((char *)w + columns[c].offset);
}

int steer__store_column_count(void) { return COLUMN_COUNT; }
const store_column_info *steer__store_column_info(int c) { return &columns[c].info; }
char *steer__store_column_data(const steer_world *w, int c) { return *column_of(w, c); }

/* ---- slots --------------------------------------------------------------------- */

int steer__store_dense(const steer_world *w, steer_agent_id id)
{
    if (w == NULL || id.index == 0 || id.index > (uint32_t)w->slot_count) return -1;
    const agent_slot *s = &w->slots[id.index - 1];
    if (!s->alive || s->generation != id.generation) return -1;
    return (int)s->dense;
}

steer_agent_id steer__store_id_of(const steer_world *w, int dense)
{
    uint32_t slot = w->slot_of[dense];
    return (steer_agent_id){slot + 1, w->slots[slot].generation};
}

// A free slot (from the free list, or a new one); false when memory ran out.
static bool take_slot(steer_world *w, uint32_t *slot)
{
    if (w->free_slot != 0) {
        *slot = w->free_slot - 1;
        w->free_slot = w->slots[*slot].dense;
        return true;
    }
    if (w->slot_count == w->slot_capacity) {
        int cap = w->slot_capacity > 0 ? w->slot_capacity * 2 : 64;
        if (!STEER_GROW(w->slots, cap)) return false;
        w->slot_capacity = cap;
    }
    *slot = (uint32_t)w->slot_count++;
    w->slots[*slot].generation = 1;
    return true;
}

/* ---- columns ------------------------------------------------------------------- */

// The spare of column c: the first column that moves with the same element
// size holds it (-1: the column does not move).
static int spare_of(int c)
{
    if (!columns[c].info.moves) return -1;
    for (int d = 0; d < c; ++d)
        if (columns[d].info.moves && columns[d].info.size == columns[c].info.size) return d;
    return c;
}

// The columns and the spares share one block (world.h, store_block).
// Arrays of a few hundred kB allocated apart come from the system
// page-aligned, so element k of every column of one element size fell in
// the same set of the 8-way L1 cache (64 sets of 64-byte lines) and at the
// same offset in its page: the step's evaluation, which reads or writes
// them all at the agent it is at and prefetches them 8 agents ahead,
// evicted its own lines. When orca_course grew from 12 to 32 bytes its two
// columns joined memory's on page starts (state, limits, filter and intent
// were there already), and the free disc crowd took x1.11 the CPU time for
// +2.9% instructions; x1.05 in the block (docs/crowds.md, "Benchmark",
// and docs/crowds/bench21.md). In the block each
// array starts at a cache line, and in a large block each also at a
// colour of its own: `stagger` bytes further into its page than the array
// before (the proxies' arrays do the same, grid.c). A small block is
// packed: colouring it would add up to a page an array.
enum { PAGE = 4096, LINE = 64 };

typedef struct block_array {
    char **at;   ///< where the array's pointer sits in the world
    size_t size; ///< bytes of one element
    bool kept;   ///< a column, whose elements move with the block (a spare's are not kept)
} block_array;

static size_t line_round(size_t bytes) { return (bytes + LINE - 1) / LINE * LINE; }

// The arrays of the block: the columns, then the spares.
static int block_arrays(steer_world *w, block_array *a)
{
    int n = 0;
    for (int c = 0; c < COLUMN_COUNT; ++c) a[n++] = (block_array){column_of(w, c), columns[c].info.size, true};
    for (int c = 0; c < COLUMN_COUNT; ++c) {
        if (spare_of(c) == c) a[n++] = (block_array){(char **)&w->reorder_spare[c], columns[c].info.size, false};
    }
    return n;
}

bool steer__store_reserve(steer_world *w, int capacity)
{
    _Static_assert(COLUMN_COUNT <= STEER_STORE_SPARES, "a spare per column at most");
    _Static_assert(2 * COLUMN_COUNT <= PAGE / LINE, "a colour per array");
    if (capacity <= w->capacity) return true;
    const size_t n = (size_t)capacity;
    block_array a[2 * COLUMN_COUNT];
    const int arrays = block_arrays(w, a);
    size_t packed = LINE; // the first array's alignment
    for (int j = 0; j < arrays; ++j) {
        if (n > (SIZE_MAX / 2 - packed) / a[j].size) return false;
        packed += line_round(n * a[j].size);
    }
    // coloured when the pads (under a page an array) are at most an eighth of the block
    const bool colour = packed / 8 >= (size_t)arrays * PAGE;
    const uintptr_t stagger = (uintptr_t)(PAGE / LINE / arrays) * LINE;
    char *block = steer__alloc(colour ? packed + (size_t)arrays * PAGE : packed);
    if (block == NULL) return false;
    char *at = block + (LINE - (uintptr_t)block % LINE) % LINE;
    for (int j = 0; j < arrays; ++j) {
        if (colour) at += ((uintptr_t)j * stagger - (uintptr_t)at) % PAGE; // to the array's colour
        if (a[j].kept && w->capacity > 0) memcpy(at, *a[j].at, (size_t)w->capacity * a[j].size);
        *a[j].at = at;
        at += line_round(n * a[j].size);
    }
    steer__free(w->store_block);
    w->store_block = block;
    return true;
}

void steer__store_free(steer_world *w)
{
    steer__free(w->store_block);
    steer__free(w->slots);
}

bool steer__store_add(steer_world *w, uint32_t *slot, int *dense)
{
    if (!STEER_CHECK(w->count < w->capacity)) return false;
    if (!take_slot(w, slot)) return false;
    int i = w->count++;
    w->slots[*slot].alive = true;
    w->slots[*slot].dense = (uint32_t)i;
    *dense = i;
    return true;
}

void steer__store_remove(steer_world *w, steer_agent_id id, int i)
{
    // swap-remove: move the last agent into the hole
    int last = w->count - 1;
    if (i != last) {
        for (int c = 0; c < COLUMN_COUNT; ++c) {
            if (!columns[c].info.moves) continue;
            char *col = *column_of(w, c);
            const size_t size = columns[c].info.size;
            memcpy(col + (size_t)i * size, col + (size_t)last * size, size);
        }
        w->slots[w->slot_of[i]].dense = (uint32_t)i;
    }
    --w->count;
    agent_slot *s = &w->slots[id.index - 1];
    s->alive = false;
    ++s->generation;
    if (s->generation == 0) s->generation = 1;
    s->dense = w->free_slot;
    w->free_slot = id.index;
}

/* ---- reorder ------------------------------------------------------------------- */

// Storage reorder, on the world's workers: each column gathered by ranges
// into the spare of its element size, which then becomes the column (and
// the column the spare): each moved byte is read once and written once,
// where a gather into one buffer and a copy back wrote it twice.
typedef struct permute_pass {
    steer_world *w;
    uint32_t *order;
    const char *column;
    char *spare;
    size_t size;
} permute_pass;

// one loop per element size, so each copy is a few moves, not a call
#define GATHER(S)                                                                                   \
    for (int k = start; k < end; ++k) memcpy(to + (size_t)k * (S), col + (size_t)order[k] * (S), (S)); \
    break

static void gather_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const permute_pass *p = context;
    char *restrict to = p->spare;
    const char *restrict col = p->column;
    const uint32_t *order = p->order;
    switch (p->size) {
    case 1: GATHER(1);
    case 4: GATHER(4);
    case 8: GATHER(8);
    case 12: GATHER(12);
    case 16: GATHER(16); // agent_filter
    case 20: GATHER(20); // orca_rest
    case 24: GATHER(24);
    case 32: GATHER(32); // agent_memory
    default: GATHER(p->size);
    }
}
#undef GATHER

// Slots follow their agents; the order becomes the identity.
static void renumber_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const permute_pass *p = context;
    for (int k = start; k < end; ++k) {
        p->w->slots[p->w->slot_of[k]].dense = (uint32_t)k;
        p->order[k] = (uint32_t)k;
    }
}

void steer__store_reorder(steer_world *w, uint32_t *order)
{
    const int n = w->count;
    enum { RANGE = 4096 };
    permute_pass p = {w, order, NULL, NULL, 0};
    for (int c = 0; c < COLUMN_COUNT; ++c) {
        if (!columns[c].info.moves) continue;
        if (columns[c].unless >= 0 && *(const int *)((const char *)w + columns[c].unless) == 0) continue; // all default
        char **column = column_of(w, c), **spare = (char **)&w->reorder_spare[spare_of(c)];
        p.column = *column;
        p.spare = *spare;
        p.size = columns[c].info.size;
        steer__tasks_parallel_for(w, gather_range, n, RANGE, &p);
        *spare = *column;
        *column = p.spare;
    }
    steer__tasks_parallel_for(w, renumber_range, n, RANGE, &p);
    steer__store_remark_rest(w); // (the step's settling states are not moved)
}

void steer__store_remark_rest(steer_world *w)
{
    const int n = w->count;
    memset(w->rest_next, 0, sizeof *w->rest_next * (size_t)n);
    if (w->settling == 0) {
        memset(w->rest_held, 0, (size_t)n);
    } else {
        for (int k = 0; k < n; ++k) w->rest_held[k] = steer__rest_held(w->rest[k]);
    }
}
