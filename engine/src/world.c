// world.c: the world object: creation and destruction, settings, neighbour
// queries and the state digest. The step's stages are step.c's, agents
// agent.c's, their storage store.c's.
#include "behaviour.h"
#include "eval.h"
#include "geometry.h"
#include "trace.h"
#include "formation.h"
#include "navigate.h"
#include "tasks.h"
#include "store.h"
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

// Room for `capacity` agents in the store and in every other per-agent
// array (the grid, the workers' scratch). Only called outside the step.
bool steer__world_reserve(steer_world *w, int capacity)
{
    if (capacity <= w->capacity) return true;
    if (!steer__store_reserve(w, capacity)) return false;
    if (!steer__grid_reserve(&w->grid, capacity)) return false;
    for (int k = 0; k < w->def.worker_count; ++k) {
        if (!steer__context_scratch_reserve(&w->scratch[k], capacity)) return false;
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
    w->next_group = 1;
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
        w->pool = steer__tasks_pool_create(def->worker_count);
        if (w->pool == NULL) {
            steer_world_destroy(w);
            return NULL;
        }
        w->def.enqueue_task = steer__tasks_pool_enqueue;
        w->def.finish_task = steer__tasks_pool_finish;
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
    for (int i = 0; i < w->count; ++i) {
        steer_behaviour_release(w->behaviour[i]);
        steer__navigate_free(w->plan[i]);
    }
    steer__geometry_destroy(w->geometry);
    steer__formation_free_all(w);
    steer__grid_free(&w->grid);
    steer__tasks_pool_destroy(w->pool);
    if (w->scratch != NULL) {
        for (int k = 0; k < w->def.worker_count; ++k) steer__context_scratch_free(&w->scratch[k]);
    }
    steer__free(w->scratch);
    steer__store_free(w);
    steer__trace_free_all(w);
    steer__free(w->colors);
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

steer_agent_id steer_world_agent_at(const steer_world *w, int i)
{
    if (!STEER_CHECK(i >= 0 && i < w->count)) return steer_null_agent;
    return steer__store_id_of(w, i);
}

/* ---- queries ------------------------------------------------------------------ */

// A query filter takes agent i (dense index).
static bool passes(const steer_world *w, const steer_ray_filter *f, int ignore, int i)
{
    const agent_filter *a = &w->filter[i];
    return i != ignore && (a->layer & f->mask) != 0 && steer__extents_meet(f->z_min, f->z_max, a->z, a->z + a->height);
}

int steer_world_query(steer_world *w, steer_vec2 center, float radius, steer_agent_id *out, int capacity)
{
    return steer_world_query_filtered(w, center, radius, NULL, out, capacity);
}

int steer_world_query_filtered(steer_world *w, steer_vec2 center, float radius, const steer_ray_filter *filter,
                               steer_agent_id *out, int capacity)
{
    if (!STEER_CHECK(w != NULL && steer_vec2_is_finite(center) && isfinite(radius) && radius >= 0.0f)) return 0;
    if (!STEER_CHECK(capacity >= 0 && (capacity == 0 || out != NULL))) return 0;
    if (!STEER_CHECK(filter == NULL || filter->z_min <= filter->z_max)) return 0;
    steer__grid_update(w);
    const int ignore = filter != NULL ? steer__store_dense(w, filter->ignore) : -1;
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
                if (filter != NULL && !passes(w, filter, ignore, (int)g->agent[k])) continue;
                if (n < capacity) out[n] = steer__store_id_of(w, (int)g->agent[k]);
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
    // Sum of per-agent digests: the same whatever the storage order. An
    // agent's layers, mask and extent and its priority count only where they
    // are not the defaults, so a world of defaults hashes as before they
    // existed (the pinned golden hashes); the filter and priority columns
    // hold the defaults for every agent while their counts are 0.
    uint64_t total = steer__mix64((uint64_t)w->count);
    for (int i = 0; i < w->count; ++i) {
        uint64_t h = 0xCBF29CE484222325ull;
        h = hash_bytes(h, &w->key[i], sizeof w->key[i]);
        h = hash_bytes(h, &w->state[i], sizeof w->state[i]);
        h = hash_bytes(h, &w->memory[i], sizeof w->memory[i]);
        h = hash_bytes(h, &w->rng[i], sizeof w->rng[i]);
        if (w->filtered > 0 && !steer__filter_is_default(&w->filter[i])) {
            const agent_filter *f = &w->filter[i];
            const float z = f->z + 0.0f, height = f->height + 0.0f; // -0 as 0
            h = hash_bytes(h, &f->layer, sizeof f->layer);
            h = hash_bytes(h, &f->mask, sizeof f->mask);
            h = hash_bytes(h, &z, sizeof z);
            h = hash_bytes(h, &height, sizeof height);
        }
        if (w->prioritised > 0 && w->priority[i] != 0.0f) {
            const float priority = w->priority[i];
            h = hash_bytes(h, &priority, sizeof priority);
        }
        total += steer__mix64(h);
    }
    return total;
}
