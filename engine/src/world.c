// world.c: the world, its step, neighbour queries and the state digest.
#include "core.h"

static bool world_def_is_valid(const steer_world_def *d)
{
    if (!STEER_CHECK(d != NULL && d->cookie == STEER_COOKIE)) return false;
    if (!STEER_CHECK(d->integrator == STEER_INTEGRATOR_EULER || d->integrator == STEER_INTEGRATOR_NEWTON)) return false;
    if (!STEER_CHECK(isfinite(d->cell_size) && d->cell_size > 0.0f)) return false;
    if (!STEER_CHECK(d->agent_capacity >= 0)) return false;
    return true;
}

// Grow every dense array to hold `capacity` agents. Only called outside the step.
static bool world_reserve(steer_world *w, int capacity)
{
    if (capacity <= w->capacity) return true;
    size_t n = (size_t)capacity;
#define GROW(field)                                                             \
    do {                                                                        \
        void *p = steer__realloc(w->field, sizeof *w->field * n);               \
        if (p == NULL) return false;                                            \
        w->field = p;                                                           \
    } while (0)
    GROW(state);
    GROW(limits);
    GROW(behaviour);
    GROW(out);
    GROW(memory);
    GROW(rng);
    GROW(key);
    GROW(slot_of);
    GROW(flags);
    GROW(user_data);
#undef GROW
    void *buf = steer__realloc(w->reorder_buffer, sizeof(agent_memory) * n);
    if (buf == NULL) return false;
    w->reorder_buffer = buf;
    if (!steer__grid_reserve(&w->grid, capacity)) return false;
    if (!steer__scratch_reserve(w->scratch, capacity)) return false;
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
    w->scratch = steer__alloc(sizeof *w->scratch);
    if (w->scratch == NULL) {
        steer__free(w);
        return NULL;
    }
    memset(w->scratch, 0, sizeof *w->scratch);
    if (!world_reserve(w, def->agent_capacity > 0 ? def->agent_capacity : 64)) {
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
    steer__grid_free(&w->grid);
    if (w->scratch != NULL) steer__scratch_free(w->scratch);
    steer__free(w->scratch);
    steer__free(w->slots);
    steer__free(w->state);
    steer__free(w->limits);
    steer__free(w->behaviour);
    steer__free(w->out);
    steer__free(w->memory);
    steer__free(w->rng);
    steer__free(w->key);
    steer__free(w->slot_of);
    steer__free(w->flags);
    steer__free(w->user_data);
    steer__free(w->reorder_buffer);
    steer__free(w);
}

int steer_world_agent_count(const steer_world *w) { return w->count; }
bool steer_world_is_stepping(const steer_world *w) { return w->stepping; }
uint64_t steer_world_step_count(const steer_world *w) { return w->steps; }
steer_integrator steer_world_get_integrator(const steer_world *w) { return w->def.integrator; }
float steer_world_get_cell_size(const steer_world *w) { return w->def.cell_size; }
bool steer_world_get_resolve_contacts(const steer_world *w) { return w->def.resolve_contacts; }
int steer_world_callback_errors(const steer_world *w) { return w->callback_errors; }

void steer_world_set_integrator(steer_world *w, steer_integrator integrator)
{
    if (!STEER_CHECK(integrator == STEER_INTEGRATOR_EULER || integrator == STEER_INTEGRATOR_NEWTON)) return;
    w->def.integrator = integrator;
}

void steer_world_set_cell_size(steer_world *w, float cell_size)
{
    if (!STEER_CHECK(isfinite(cell_size) && cell_size > 0.0f)) return;
    w->def.cell_size = cell_size;
    w->grid.cell_size = cell_size;
    w->grid.inv_cell = 1.0f / cell_size;
    w->grid.dirty = true;
}

void steer_world_set_resolve_contacts(steer_world *w, bool enabled) { w->def.resolve_contacts = enabled; }

steer_agent_id steer_world_agent_at(const steer_world *w, int i)
{
    if (!STEER_CHECK(i >= 0 && i < w->count)) return steer_null_agent;
    return steer__agent_id_of(w, i);
}

/* ---- agents: handles and creation -------------------------------------------- */

int steer__agent_dense(const steer_world *w, steer_agent_id id)
{
    if (w == NULL || id.index == 0 || id.index > (uint32_t)w->slot_count) return -1;
    const agent_slot *s = &w->slots[id.index - 1];
    if (!s->alive || s->generation != id.generation) return -1;
    return (int)s->dense;
}

steer_agent_id steer__agent_id_of(const steer_world *w, int dense)
{
    uint32_t slot = w->slot_of[dense];
    return (steer_agent_id){slot + 1, w->slots[slot].generation};
}

static bool limits_are_valid(const steer_limits *l)
{
    const float v[] = {l->radius, l->max_speed, l->max_acceleration, l->max_rotation, l->max_angular_acceleration, l->drag};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i) {
        if (!isfinite(v[i]) || v[i] < 0.0f || v[i] > 1e30f) return false;
    }
    return true;
}

static bool kinematic_is_valid(const steer_kinematic *k)
{
    return steer_vec2_is_finite(k->position) && steer_vec2_is_finite(k->velocity) &&
           isfinite(k->orientation) && isfinite(k->rotation);
}

steer_agent_id steer_agent_create(steer_world *w, const steer_agent_def *def)
{
    if (!STEER_CHECK(w != NULL && def != NULL && def->cookie == STEER_COOKIE)) return steer_null_agent;
    if (!STEER_CHECK(!w->stepping)) return steer_null_agent;
    if (!STEER_CHECK(kinematic_is_valid(&def->state))) return steer_null_agent;
    if (!STEER_CHECK(limits_are_valid(&def->limits))) return steer_null_agent;
    if (w->count == w->capacity && !world_reserve(w, w->capacity * 2)) return steer_null_agent;

    uint32_t slot;
    if (w->free_slot != 0) {
        slot = w->free_slot - 1;
        w->free_slot = w->slots[slot].dense;
    } else {
        if (w->slot_count == w->slot_capacity) {
            int cap = w->slot_capacity > 0 ? w->slot_capacity * 2 : 64;
            agent_slot *p = steer__realloc(w->slots, sizeof *p * (size_t)cap);
            if (p == NULL) return steer_null_agent;
            w->slots = p;
            w->slot_capacity = cap;
        }
        slot = (uint32_t)w->slot_count++;
        w->slots[slot].generation = 1;
    }
    int i = w->count++;
    w->slots[slot].alive = true;
    w->slots[slot].dense = (uint32_t)i;

    steer_kinematic st = def->state;
    st.orientation = steer_wrap_angle(st.orientation);
    st.velocity = steer_clamp_length(st.velocity, def->limits.max_speed);
    st.rotation = steer_clampf(st.rotation, -def->limits.max_rotation, def->limits.max_rotation);
    w->state[i] = st;
    w->limits[i] = def->limits;
    w->behaviour[i] = steer_behaviour_retain(def->behaviour);
    w->out[i] = (steer_steering){{0.0f, 0.0f}, 0.0f};
    memset(&w->memory[i], 0, sizeof w->memory[i]);
    w->key[i] = def->key != 0 ? def->key : w->next_key;
    if (def->key == 0) ++w->next_key;
    w->rng[i] = steer__stream_seed(w->def.seed, w->key[i]);
    w->slot_of[i] = slot;
    w->flags[i] = (uint8_t)((def->kinematic ? AGENT_KINEMATIC : 0) | (def->face_velocity ? AGENT_FACE_VELOCITY : 0));
    w->user_data[i] = def->user_data;
    w->grid.dirty = true;
    return (steer_agent_id){slot + 1, w->slots[slot].generation};
}

void steer_agent_destroy(steer_world *w, steer_agent_id id)
{
    int i = steer__agent_dense(w, id);
    if (i < 0) return;
    if (!STEER_CHECK(!w->stepping)) return;
    steer_behaviour_release(w->behaviour[i]);
    // swap-remove: move the last agent into the hole
    int last = w->count - 1;
    if (i != last) {
        w->state[i] = w->state[last];
        w->limits[i] = w->limits[last];
        w->behaviour[i] = w->behaviour[last];
        w->out[i] = w->out[last];
        w->memory[i] = w->memory[last];
        w->rng[i] = w->rng[last];
        w->key[i] = w->key[last];
        w->slot_of[i] = w->slot_of[last];
        w->flags[i] = w->flags[last];
        w->user_data[i] = w->user_data[last];
        w->slots[w->slot_of[i]].dense = (uint32_t)i;
    }
    --w->count;
    agent_slot *s = &w->slots[id.index - 1];
    s->alive = false;
    ++s->generation;
    if (s->generation == 0) s->generation = 1;
    s->dense = w->free_slot;
    w->free_slot = id.index;
    w->grid.dirty = true;
}

void steer__world_reorder(steer_world *w, uint32_t *order)
{
    const int n = w->count;
#define PERMUTE(field, type)                                                    \
    do {                                                                        \
        type *tmp = w->reorder_buffer;                                          \
        for (int k = 0; k < n; ++k) tmp[k] = w->field[order[k]];              \
        memcpy(w->field, tmp, sizeof tmp[0] * (size_t)n);                      \
    } while (0)
    PERMUTE(state, steer_kinematic);
    PERMUTE(limits, steer_limits);
    PERMUTE(behaviour, steer_behaviour *);
    PERMUTE(out, steer_steering);
    PERMUTE(memory, agent_memory);
    PERMUTE(rng, uint64_t);
    PERMUTE(key, uint64_t);
    PERMUTE(slot_of, uint32_t);
    PERMUTE(flags, uint8_t);
    PERMUTE(user_data, void *);
#undef PERMUTE
    for (int k = 0; k < n; ++k) {
        w->slots[w->slot_of[k]].dense = (uint32_t)k;
        order[k] = (uint32_t)k;
    }
}

/* ---- step --------------------------------------------------------------------- */

// The evaluation context of agent i, reading (and advancing) mem and rng.
static void init_ctx(eval_ctx *ctx, steer_world *w, int i, float dt, agent_memory *mem, uint64_t *rng)
{
    // field by field: a memset of the whole context costs more than the step's arithmetic
    ctx->w = w;
    ctx->self = i;
    ctx->self_proxy = w->grid.proxy_of[i];
    ctx->me = w->state[i];
    ctx->lim = w->limits[i];
    ctx->key = w->key[i];
    ctx->dt = dt;
    ctx->mem = mem;
    ctx->mem_cursor = 0;
    ctx->rng = rng;
    ctx->failed = false;
    ctx->scratch = w->scratch;
    ctx->neighbour_count = 0;
    ctx->gathered_radius = -1.0f;
    ctx->sums.radius = -1.0f;
}

static void evaluate_agent(steer_world *w, int i, float dt)
{
    steer_steering out = {{0.0f, 0.0f}, 0.0f};
    const steer_behaviour *b = w->behaviour[i];
    if (b != NULL) {
        eval_ctx ctx;
        init_ctx(&ctx, w, i, dt, &w->memory[i], &w->rng[i]);
        if (!steer__evaluate(&ctx, b, &out) || ctx.failed) out = (steer_steering){{0.0f, 0.0f}, 0.0f};
        if (ctx.failed) ++w->callback_errors;
    }
    w->out[i] = out;
}

void steer_world_step(steer_world *w, float dt)
{
    if (!STEER_CHECK(w != NULL && isfinite(dt) && dt >= 0.0f && dt <= 1.0e4f)) return;
    if (!STEER_CHECK(!w->stepping)) return;
    w->stepping = true;
    w->callback_errors = 0;
    steer__grid_update(w);
    // shared caches are written here, before evaluation, never during it
    steer__geometry_prepare(w);
    // Evaluate in grid order: neighbours of consecutive agents are close in
    // memory. Each evaluation reads start-of-step state and writes only its
    // own output, memory and random stream, so the order cannot matter.
    const uint32_t *order = w->grid.agent;
    for (int k = 0; k < w->count; ++k) evaluate_agent(w, (int)order[k], dt);
    steer__integrate(w, dt);
    if (w->def.resolve_contacts && w->geometry != NULL) steer__resolve_contacts(w);
    w->grid.dirty = true;
    ++w->steps;
    w->stepping = false;
}

bool steer_behaviour_get_steering(const steer_behaviour *b, steer_world *w, steer_agent_id agent,
                                  float dt, steer_steering *out)
{
    int i = steer__agent_dense(w, agent);
    if (out != NULL) *out = (steer_steering){{0.0f, 0.0f}, 0.0f};
    if (!STEER_CHECK(b != NULL && i >= 0 && out != NULL && isfinite(dt) && dt >= 0.0f)) return false;
    steer__grid_update(w);
    // preview on copies: asking must not change the run
    agent_memory mem = w->memory[i];
    uint64_t rng = w->rng[i];
    eval_ctx ctx;
    init_ctx(&ctx, w, i, dt, &mem, &rng);
    steer_steering s = {{0.0f, 0.0f}, 0.0f};
    bool has = steer__evaluate(&ctx, b, &s) && !ctx.failed;
    *out = has ? s : (steer_steering){{0.0f, 0.0f}, 0.0f};
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
