// world.c: the world, its settings, its step, neighbour queries and the
// state digest. Agents themselves are agent.c's.
#include "behaviour.h"
#include "eval.h"
#include "trace.h"
#include "formation.h"
#include "tasks.h"
#include "world.h"

static bool world_def_is_valid(const steer_world_def *d)
{
    if (!STEER_CHECK(d != NULL && d->cookie == STEER_COOKIE)) return false;
    if (!STEER_CHECK(d->integrator == STEER_INTEGRATOR_EULER || d->integrator == STEER_INTEGRATOR_NEWTON)) return false;
    if (!STEER_CHECK(steer_cell_size_is_valid(d->cell_size))) return false;
    if (!STEER_CHECK(d->agent_capacity >= 0)) return false;
    if (!STEER_CHECK(d->worker_count >= 1 && d->worker_count <= STEER_MAX_WORKERS)) return false;
    // both task callbacks or neither
    if (!STEER_CHECK((d->enqueue_task == NULL) == (d->finish_task == NULL))) return false;
    return true;
}

// Grow every dense array to hold `capacity` agents. Only called outside the step.
bool steer__world_reserve(steer_world *w, int capacity)
{
    if (capacity <= w->capacity) return true;
    size_t n = (size_t)capacity;
    if (!STEER_GROW(w->state, n) || !STEER_GROW(w->limits, n) || !STEER_GROW(w->behaviour, n) ||
        !STEER_GROW(w->out, n) || !STEER_GROW(w->memory, n) || !STEER_GROW(w->rng, n) || !STEER_GROW(w->key, n) ||
        !STEER_GROW(w->slot_of, n) || !STEER_GROW(w->flags, n) || !STEER_GROW(w->user_data, n) ||
        !STEER_GROW(w->push, n))
        return false;
    // the reorder buffer holds any one per-agent field: the largest is the memory
    void *buf = steer__realloc(w->reorder_buffer, sizeof(agent_memory) * n);
    if (buf == NULL) return false;
    w->reorder_buffer = buf;
    if (!steer__grid_reserve(&w->grid, capacity)) return false;
    for (int k = 0; k < w->def.worker_count; ++k) {
        if (!steer__scratch_reserve(&w->scratch[k], capacity)) return false;
    }
    w->capacity = capacity;
    return true;
}

steer_world *steer_world_create(const steer_world_def *def)
{
    if (!world_def_is_valid(def)) return NULL;
    steer_world *w = steer__alloc(sizeof *w);
    if (w == NULL) return NULL;
    memset(w, 0, sizeof *w);
    w->def = *def;
    w->next_key = 1;
    w->grid.cell_size = def->cell_size;
    w->grid.inv_cell = 1.0f / def->cell_size;
    w->grid.dirty = true;
    const size_t scratch_size = sizeof *w->scratch * (size_t)def->worker_count;
    w->scratch = steer__alloc(scratch_size);
    if (w->scratch == NULL) {
        steer__free(w);
        return NULL;
    }
    memset(w->scratch, 0, scratch_size);
    if (def->worker_count > 1 && def->enqueue_task == NULL) {
        w->pool = steer__pool_create(def->worker_count);
        if (w->pool == NULL) {
            steer_world_destroy(w);
            return NULL;
        }
        w->def.enqueue_task = steer__pool_enqueue;
        w->def.finish_task = steer__pool_finish;
        w->def.user_task_context = w->pool;
    }
    if (!steer__world_reserve(w, def->agent_capacity > 0 ? def->agent_capacity : 64)) {
        steer_world_destroy(w);
        return NULL;
    }
    return w;
}

void steer_world_destroy(steer_world *w)
{
    if (w == NULL) return;
    for (int i = 0; i < w->count; ++i) steer_behaviour_release(w->behaviour[i]);
    steer__geometry_destroy(w->geometry);
    steer__formations_destroy(w->formations);
    steer__grid_free(&w->grid);
    steer__pool_destroy(w->pool);
    if (w->scratch != NULL) {
        for (int k = 0; k < w->def.worker_count; ++k) steer__scratch_free(&w->scratch[k]);
    }
    steer__free(w->scratch);
    steer__free(w->slots);
    steer__free(w->state);
    steer__free(w->limits);
    steer__free(w->behaviour);
    steer__free(w->push);
    steer__free(w->out);
    steer__free(w->memory);
    steer__free(w->rng);
    steer__free(w->key);
    steer__free(w->slot_of);
    steer__free(w->flags);
    steer__free(w->user_data);
    steer__free(w->reorder_buffer);
    steer__traces_free(w);
    steer__free(w);
}

int steer_world_agent_count(const steer_world *w) { return w->count; }
bool steer_world_is_stepping(const steer_world *w) { return w->stepping; }
uint64_t steer_world_step_count(const steer_world *w) { return w->steps; }
steer_integrator steer_world_get_integrator(const steer_world *w) { return w->def.integrator; }
float steer_world_get_cell_size(const steer_world *w) { return w->def.cell_size; }
bool steer_world_get_resolve_contacts(const steer_world *w) { return w->def.resolve_contacts; }
int steer_world_callback_errors(const steer_world *w) { return w->callback_errors; }
int steer_world_get_worker_count(const steer_world *w) { return w->def.worker_count; }

void steer_world_set_integrator(steer_world *w, steer_integrator integrator)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return;
    if (!STEER_CHECK(integrator == STEER_INTEGRATOR_EULER || integrator == STEER_INTEGRATOR_NEWTON)) return;
    w->def.integrator = integrator;
}

void steer_world_set_cell_size(steer_world *w, float cell_size)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return;
    if (!STEER_CHECK(steer_cell_size_is_valid(cell_size))) return;
    w->def.cell_size = cell_size;
    w->grid.cell_size = cell_size;
    w->grid.inv_cell = 1.0f / cell_size;
    w->grid.dirty = true;
}

void steer_world_set_resolve_contacts(steer_world *w, bool enabled)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return;
    w->def.resolve_contacts = enabled;
}

bool steer_world_get_resolve_agent_contacts(const steer_world *w) { return w->def.resolve_agent_contacts; }

void steer_world_set_resolve_agent_contacts(steer_world *w, bool enabled)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return;
    w->def.resolve_agent_contacts = enabled;
}

static void flag_range(int start, int end, int worker, void *context)
{
    (void)worker;
    steer_world *w = context;
    for (int i = start; i < end; ++i) {
        const steer_behaviour *b = w->behaviour[i];
        // a kinematic agent that runs reciprocal avoidance shares it too: two
        // of them that each took all of it locked (issue 21, a crowd driven
        // by setting velocities)
        bool avoids = b != NULL && b->avoids;
        w->flags[i] = (uint8_t)((w->flags[i] & ~AGENT_AVOIDS) | (avoids ? AGENT_AVOIDS : 0));
    }
}

void steer__flag_avoiders(steer_world *w)
{
    // from the cached tree shape of each root: O(1) an agent, and no
    // evaluation ever looks into another agent's tree
    steer__parallel_for(w, flag_range, w->count, 4096, w);
}

steer_agent_id steer_world_agent_at(const steer_world *w, int i)
{
    if (!STEER_CHECK(i >= 0 && i < w->count)) return steer_null_agent;
    return steer__agent_id_of(w, i);
}

// Storage reorder, on the world's workers: each per-agent array gathered
// into the reorder buffer by ranges, then copied back by ranges.
typedef struct permute_pass {
    steer_world *w;
    uint32_t *order;
} permute_pass;

#define PERMUTE_TASKS(field, type)                                                        \
    static void gather_##field(int start, int end, int worker, void *context)            \
    {                                                                                     \
        (void)worker;                                                                     \
        const permute_pass *p = context;                                                  \
        type *tmp = p->w->reorder_buffer;                                                 \
        for (int k = start; k < end; ++k) tmp[k] = p->w->field[p->order[k]];              \
    }                                                                                     \
    static void copy_##field(int start, int end, int worker, void *context)              \
    {                                                                                     \
        (void)worker;                                                                     \
        const permute_pass *p = context;                                                  \
        const type *tmp = p->w->reorder_buffer;                                           \
        memcpy(p->w->field + start, tmp + start, sizeof(type) * (size_t)(end - start));   \
    }
PERMUTE_TASKS(state, steer_kinematic)
PERMUTE_TASKS(limits, steer_limits)
PERMUTE_TASKS(behaviour, steer_behaviour *)
PERMUTE_TASKS(out, steer_steering)
PERMUTE_TASKS(memory, agent_memory)
PERMUTE_TASKS(rng, uint64_t)
PERMUTE_TASKS(key, uint64_t)
PERMUTE_TASKS(slot_of, uint32_t)
PERMUTE_TASKS(flags, uint8_t)
PERMUTE_TASKS(user_data, void *)
#undef PERMUTE_TASKS

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

void steer__world_reorder(steer_world *w, uint32_t *order)
{
    const int n = w->count;
    permute_pass p = {w, order};
    enum { RANGE = 4096 };
#define PERMUTE(field)                                             \
    do {                                                           \
        steer__parallel_for(w, gather_##field, n, RANGE, &p);     \
        steer__parallel_for(w, copy_##field, n, RANGE, &p);       \
    } while (0)
    PERMUTE(state);
    PERMUTE(limits);
    PERMUTE(behaviour);
    PERMUTE(out);
    PERMUTE(memory);
    PERMUTE(rng);
    PERMUTE(key);
    PERMUTE(slot_of);
    PERMUTE(flags);
    PERMUTE(user_data);
#undef PERMUTE
    steer__parallel_for(w, renumber_range, n, RANGE, &p);
}

/* ---- step --------------------------------------------------------------------- */
//
// A step is four phases; each reads only what the phases before it wrote:
//   prepare_step     grid rebuild (keys, bucket sorts and proxy fill on the
//                    workers), storage order, geometry caches, formation
//                    slots: everything evaluation reads
//   evaluate_agents  behaviours on the workers from start-of-step state, each
//                    agent writing only its own output, memory and stream;
//                    then trees holding a callback, on the calling thread
//   integrate_agents on the workers, each agent on its own
//   contacts         resolve_contacts, then rigid formations placed, on the
//                    calling thread
// Nothing an agent computes depends on which worker ran it, nor on what ran
// before it, so every worker count gives the same bits.

#if defined(__GNUC__)
#define STEER_PREFETCH_INLINE __attribute__((always_inline)) inline
#else
#define STEER_PREFETCH_INLINE
#endif

// Agents with trees of their own (a goal each) have them scattered in the
// heap: each level of a tree is a cache miss that evaluation waits for
// (measured with steer-bench crowd, ~30% of its time). Fetch ahead, one
// level further down the nearer the agent is: the root 8 agents ahead, its
// children array 4 ahead, the first child 2 ahead (a combinator's first
// child, reciprocal_avoidance's preferred behaviour).
// Every cache line of a node: evaluation reads its header, its definition
// and its children pointer, spread over the whole struct.
// (Inlined early on purpose: gcc otherwise finds these functions free of
// side effects and deletes their calls, prefetches and all.)
STEER_PREFETCH_INLINE static void prefetch_node(const steer_behaviour *b)
{
#if defined(__GNUC__)
    if (b == NULL) return;
    const char *p = (const char *)b;
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
    __builtin_prefetch(p + 192);
    __builtin_prefetch(p + sizeof *b - 1);
#else
    (void)b;
#endif
}

STEER_PREFETCH_INLINE static void prefetch_trees(const steer_world *w, const uint32_t *order, int k)
{
#if defined(__GNUC__)
    const int n = w->count;
    if (k + 8 < n) prefetch_node(w->behaviour[order[k + 8]]);
    const steer_behaviour *b4 = k + 4 < n ? w->behaviour[order[k + 4]] : NULL;
    if (b4 != NULL && b4->def.child_count > 0) __builtin_prefetch(b4->children);
    const steer_behaviour *b2 = k + 2 < n ? w->behaviour[order[k + 2]] : NULL;
    if (b2 != NULL && b2->def.child_count > 0) prefetch_node(b2->children[0].behaviour);
#else
    (void)w, (void)order, (void)k;
#endif
}

static void prepare_step(steer_world *w, float dt)
{
    // Storage far from grid order costs a cache miss per agent at large
    // counts (PERFORMANCE.md: ~6x at 1M): when more than a quarter of the
    // grid order breaks storage order, move the agents into grid order.
    if (steer__grid_update(w) && w->count > 1024 && steer__grid_disorder(&w->grid) > 0.25f) {
        steer__world_reorder(w, w->grid.agent);
        steer__grid_refill(w);
    }
    // shared caches are written here, before evaluation, never during it
    steer__geometry_prepare(w);
    // formations too: slot targets, anchors and reassignment are written
    // here, so evaluation only reads them
    steer__formations_update(w, dt);
    // which agents avoid reciprocally (reciprocal_avoidance reads it)
    steer__flag_avoiders(w);
}

typedef struct eval_pass {
    steer_world *world;
    eval_view view;
    float dt;
    bool skip_callbacks; ///< leave trees holding a callback to the serial pass
    int skipped[STEER_MAX_WORKERS];
    int errors[STEER_MAX_WORKERS];
} eval_pass;

static bool runs_callbacks(const steer_world *w, int i)
{
    return w->behaviour[i] != NULL && w->behaviour[i]->has_callback;
}

// Agents [start, end) of the grid order: neighbours of consecutive agents
// are close in memory.
static void evaluate_range(int start, int end, int worker, void *context)
{
    eval_pass *p = context;
    steer_world *w = p->world;
    eval_scratch *scratch = &w->scratch[worker];
    const uint32_t *order = w->grid.agent;
    int skipped = 0, errors = 0;
    // traces are scattered in memory: fetch them a few agents ahead
    enum { AHEAD = 4 };
    for (int k = start; k < end; ++k) {
        prefetch_trees(w, order, k);
        if (w->traced > 0 && k + AHEAD < end) steer__trace_prefetch(w, (int)order[k + AHEAD]);
        const int i = (int)order[k];
        if (p->skip_callbacks && runs_callbacks(w, i)) {
            ++skipped;
            continue;
        }
        errors += !steer__evaluate_agent(w, &p->view, scratch, i, p->dt);
    }
    p->skipped[worker] += skipped;
    p->errors[worker] += errors;
}

// Returns the agents whose callback failed.
static int evaluate_agents(steer_world *w, float dt)
{
    eval_pass p;
    p.world = w;
    steer__view_init(&p.view, w);
    p.dt = dt;
    // callbacks (Lua behaviours) run on the calling thread only
    p.skip_callbacks = w->def.worker_count > 1;
    memset(p.skipped, 0, sizeof p.skipped);
    memset(p.errors, 0, sizeof p.errors);
    steer__parallel_for(w, evaluate_range, w->count, 64, &p);
    int skipped = 0, failed = 0;
    for (int k = 0; k < w->def.worker_count; ++k) {
        skipped += p.skipped[k];
        failed += p.errors[k];
    }
    if (skipped == 0) return failed;
    // the serial pass, in grid order as a single worker would run them
    const uint32_t *order = w->grid.agent;
    for (int k = 0; k < w->count; ++k) {
        const int i = (int)order[k];
        if (runs_callbacks(w, i)) failed += !steer__evaluate_agent(w, &p.view, &w->scratch[0], i, dt);
    }
    return failed;
}

typedef struct integrate_pass {
    steer_world *world;
    float dt;
} integrate_pass;

static void integrate_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const integrate_pass *p = context;
    steer__integrate(p->world, p->dt, start, end);
}

static void integrate_agents(steer_world *w, float dt)
{
    integrate_pass p = {w, dt};
    steer__parallel_for(w, integrate_range, w->count, 256, &p);
}

void steer_world_step(steer_world *w, float dt)
{
    if (!STEER_CHECK(w != NULL && isfinite(dt) && dt >= 0.0f && dt <= 1.0e4f)) return;
    if (!STEER_CHECK(!w->stepping)) return;
    w->stepping = true;
    ++steer__evaluating;
    prepare_step(w, dt);
    w->callback_errors = evaluate_agents(w, dt);
    integrate_agents(w, dt);
    if (w->def.resolve_agent_contacts) steer__resolve_agent_contacts(w);
    if ((w->def.resolve_contacts || w->def.resolve_agent_contacts) && w->geometry != NULL) steer__resolve_contacts(w);
    // rigid formations put their members on their slots, last
    steer__formations_place(w);
    w->grid.dirty = true;
    ++w->steps;
    --steer__evaluating;
    w->stepping = false;
}

bool steer_behaviour_get_steering(const steer_behaviour *b, steer_world *w, steer_agent_id agent,
                                  float dt, steer_steering *out)
{
    int i = steer__agent_dense(w, agent);
    if (out != NULL) *out = (steer_steering){{0.0f, 0.0f}, 0.0f};
    if (!STEER_CHECK(b != NULL && i >= 0 && out != NULL && isfinite(dt) && dt >= 0.0f)) return false;
    steer__grid_update(w);
    // a preview runs callbacks as a step does, under the same rules: the
    // world's agents and every behaviour stay as they are meanwhile
    const bool was_stepping = w->stepping;
    // (inside a step the flags are already those of the step; a preview
    // sets them on the calling thread, without the task system)
    if (!was_stepping && b->avoids) flag_range(0, w->count, 0, w);
    w->stepping = true;
    ++steer__evaluating;
    bool has = steer__preview(w, b, i, dt, out);
    --steer__evaluating;
    w->stepping = was_stepping;
    return has;
}

/* ---- queries ------------------------------------------------------------------ */

int steer_world_query(steer_world *w, steer_vec2 center, float radius, steer_agent_id *out, int capacity)
{
    if (!STEER_CHECK(w != NULL && steer_vec2_is_finite(center) && isfinite(radius) && radius >= 0.0f)) return 0;
    if (!STEER_CHECK(capacity >= 0 && (capacity == 0 || out != NULL))) return 0;
    steer__grid_update(w);
    const neighbour_grid *g = &w->grid;
    float r2 = radius * radius;
    int n = 0;
    grid_cursor c;
    uint32_t begin, end;
    steer__grid_cursor_init(g, &c, center, radius);
    while (steer__grid_cursor_next(&c, &begin, &end)) {
        for (uint32_t k = begin; k < end; ++k) {
            float dx = g->x[k] - center.x, dy = g->y[k] - center.y;
            if (dx * dx + dy * dy < r2) {
                if (n < capacity) out[n] = steer__agent_id_of(w, (int)g->agent[k]);
                ++n;
            }
        }
    }
    return n;
}

/* ---- digest ------------------------------------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t size)
{
    // FNV-1a over the bytes, mixed at the end by the caller
    const unsigned char *p = data;
    for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

uint64_t steer_world_hash(const steer_world *w)
{
    // Sum of per-agent digests: the same whatever the storage order.
    uint64_t total = steer__mix64((uint64_t)w->count);
    for (int i = 0; i < w->count; ++i) {
        uint64_t h = 0xCBF29CE484222325ull;
        h = hash_bytes(h, &w->key[i], sizeof w->key[i]);
        h = hash_bytes(h, &w->state[i], sizeof w->state[i]);
        h = hash_bytes(h, &w->memory[i], sizeof w->memory[i]);
        h = hash_bytes(h, &w->rng[i], sizeof w->rng[i]);
        total += steer__mix64(h);
    }
    return total;
}
