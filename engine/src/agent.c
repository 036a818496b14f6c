// agent.c: agents: handles, creation and removal, reading and writing one
// agent through its id.
#include "behaviour.h"
#include "navigate.h"
#include "store.h"
#include "trace.h"

// Look up a live agent or report the stale id and refuse.
#define AGENT_OR(w, id, fallback)                                              \
    int i = steer__store_dense(w, id);                                         \
    if (!STEER_CHECK(i >= 0)) return fallback

// Writes that would change what other agents read mid-step are refused then.
#define NOT_STEPPING(w) \
    if (!STEER_CHECK(!(w)->stepping)) return

static steer_kinematic zero_kinematic(void)
{
    steer_kinematic k;
    memset(&k, 0, sizeof k);
    return k;
}

static steer_steering zero_steering(void)
{
    steer_steering s;
    memset(&s, 0, sizeof s);
    return s;
}

/* ---- handles, creation and removal ------------------------------------------------ */

bool steer__agent_limits_are_valid(const steer_limits *l)
{
    const float v[] = {l->radius, l->max_speed, l->max_acceleration, l->max_rotation, l->max_angular_acceleration, l->drag};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i) {
        if (!isfinite(v[i]) || v[i] < 0.0f || v[i] > 1e30f) return false;
    }
    return true;
}

bool steer__agent_kinematic_is_valid(const steer_kinematic *k)
{
    return steer_vec2_is_finite(k->position) && steer_vec2_is_finite(k->velocity) && isfinite(k->orientation) &&
           isfinite(k->rotation);
}

// A vertical extent: z finite, height finite and >= 0.
static bool extent_is_valid(float z, float height) { return isfinite(z) && isfinite(height) && height >= 0.0f; }

void steer__agent_set_filter(steer_world *w, int i, agent_filter f)
{
    w->filtered += (int)!steer__filter_is_default(&f) - (int)!steer__filter_is_default(&w->filter[i]);
    w->filter[i] = f;
    w->grid.dirty = true;
}

void steer__agent_recount(steer_world *w)
{
    w->filtered = w->prioritised = w->opposed = w->settling = 0;
    for (int i = 0; i < w->count; ++i) {
        w->filtered += !steer__filter_is_default(&w->filter[i]);
        w->prioritised += w->priority[i] != 0.0f;
        w->opposed += w->course[i].opp > 0.0f;
        w->settling += steer__rest_held(w->rest[i]);
    }
    // the step's buffer is not in a snapshot: 0, and the marks say so
    steer__store_remark_rest(w);
}

steer_agent_id steer_agent_create(steer_world *w, const steer_agent_def *def)
{
    if (!STEER_CHECK(w != NULL && def != NULL && def->cookie == STEER_COOKIE)) return steer_null_agent;
    if (!STEER_CHECK(!w->stepping)) return steer_null_agent;
    if (!STEER_CHECK(steer__agent_kinematic_is_valid(&def->state))) return steer_null_agent;
    if (!STEER_CHECK(steer__agent_limits_are_valid(&def->limits))) return steer_null_agent;
    if (!STEER_CHECK(extent_is_valid(def->z, def->height) && isfinite(def->priority))) return steer_null_agent;
    uint32_t slot;
    int i;
    if (w->count == w->capacity && !steer__world_reserve(w, w->capacity * 2)) return steer_null_agent;
    if (!steer__store_add(w, &slot, &i)) return steer_null_agent;

    steer_kinematic st = def->state;
    st.orientation = steer_wrap_angle(st.orientation);
    st.velocity = steer_clamp_length(st.velocity, def->limits.max_speed);
    st.rotation = steer_clampf(st.rotation, -def->limits.max_rotation, def->limits.max_rotation);
    w->state[i] = st;
    w->limits[i] = def->limits;
    ++w->limits_version;
    w->behaviour[i] = steer_behaviour_retain(def->behaviour);
    ++w->trees_version;
    w->out[i] = (steer_steering){{0.0f, 0.0f}, 0.0f};
    memset(&w->memory[i], 0, sizeof w->memory[i]);
    w->intent[i] = (orca_intent){0.0f, 0.0f, 0u, 0u, 0.0f, 0.0f};
    w->course[i] = (orca_course){0.0f, 0.0f, 0.0f};
    w->rest[i] = w->rest_next[i] = (orca_rest){0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    w->rest_held[i] = 0;
    w->key[i] = def->key != 0 ? def->key : w->next_key;
    if (def->key == 0) ++w->next_key;
    w->rng[i] = steer__stream_seed(w->def.seed, w->key[i]);
    w->slot_of[i] = slot;
    w->flags[i] = (uint8_t)((def->kinematic ? AGENT_KINEMATIC : 0) | (def->face_velocity ? AGENT_FACE_VELOCITY : 0));
    w->user_data[i] = def->user_data;
    w->filter[i] = (agent_filter){1u, STEER_ALL_LAYERS, 0.0f, 0.0f};
    steer__agent_set_filter(w, i, (agent_filter){def->layer, def->mask, def->z, def->height});
    w->priority[i] = def->priority;
    w->prioritised += def->priority != 0.0f;
    // an agent that navigates gets its plan now, not in a step
    w->plan[i] = def->behaviour != NULL && def->behaviour->nav != NULL ? steer__navigate_new() : NULL;
    w->grid.dirty = true;
    return (steer_agent_id){slot + 1, w->slots[slot].generation};
}

void steer_agent_destroy(steer_world *w, steer_agent_id id)
{
    int i = steer__store_dense(w, id);
    if (i < 0) return;
    if (!STEER_CHECK(!w->stepping)) return;
    steer_behaviour_release(w->behaviour[i]);
    steer__navigate_free(w->plan[i]);
    steer__trace_drop(w, w->slot_of[i]);
    if ((int)(id.index - 1) < w->color_slots) w->colors[id.index - 1] = 0; // the slot's next agent has none
    // a formation's slot target is no longer the agent's (its formation
    // drops it at the next update); an agent taking the slot starts with none
    if ((int)(id.index - 1) < w->slot_target_capacity) w->slot_targets[id.index - 1].formation = steer_null_formation;
    w->filtered -= (int)!steer__filter_is_default(&w->filter[i]);
    w->prioritised -= w->priority[i] != 0.0f;
    w->opposed -= w->course[i].opp > 0.0f;
    w->settling -= steer__rest_held(w->rest[i]);
    // (the columns that do not move: the last agent's settling state of
    // two steps before, and its marks, follow it into the hole)
    w->rest_next[i] = w->rest_next[w->count - 1];
    w->rest_held[i] = w->rest_held[w->count - 1];
    steer__store_remove(w, id, i);
    w->grid.dirty = true;
}

/* ---- presentation ------------------------------------------------------------------ */

// Colours sit in an array of their own by slot index, allocated at the first
// colour: the step, the reorder into grid order and removal never touch them.
bool steer_agent_set_color(steer_world *w, steer_agent_id id, steer_color color)
{
    AGENT_OR(w, id, false);
    if (!STEER_CHECK(!w->stepping)) return false; // growing the array could race a worker's read
    const int slot = (int)id.index - 1;
    if (slot >= w->color_slots) {
        if (color == 0) return true;
        int n = w->slot_capacity > slot ? w->slot_capacity : slot + 1;
        steer_color *grown = steer__realloc(w->colors, sizeof *grown * (size_t)n);
        if (grown == NULL) return false;
        for (int k = w->color_slots; k < n; ++k) grown[k] = 0;
        w->colors = grown;
        w->color_slots = n;
    }
    (void)i;
    w->colors[slot] = color;
    return true;
}

steer_color steer_agent_get_color(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0);
    (void)i;
    const int slot = (int)id.index - 1;
    return slot < w->color_slots ? w->colors[slot] : 0;
}

/* ---- state ------------------------------------------------------------------------ */

bool steer_agent_is_valid(const steer_world *w, steer_agent_id id) { return steer__store_dense(w, id) >= 0; }

steer_kinematic steer_agent_get_state(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, zero_kinematic());
    return w->state[i];
}

void steer_agent_set_state(steer_world *w, steer_agent_id id, const steer_kinematic *k)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(k != NULL && steer__agent_kinematic_is_valid(k))) return;
    w->state[i] = *k;
    w->state[i].orientation = steer_wrap_angle(k->orientation);
    // within the agent's limits, as at spawn: no speed the step must clamp
    // from an overflowed length
    w->state[i].velocity = steer_clamp_length(k->velocity, w->limits[i].max_speed);
    w->state[i].rotation = steer_clampf(k->rotation, -w->limits[i].max_rotation, w->limits[i].max_rotation);
    w->grid.dirty = true;
}

steer_vec2 steer_agent_get_position(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_v2(0, 0));
    return w->state[i].position;
}

void steer_agent_set_position(steer_world *w, steer_agent_id id, steer_vec2 p)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(steer_vec2_is_finite(p))) return;
    w->state[i].position = p;
    w->grid.dirty = true;
}

steer_vec2 steer_agent_get_velocity(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_v2(0, 0));
    return w->state[i].velocity;
}

void steer_agent_set_velocity(steer_world *w, steer_agent_id id, steer_vec2 v)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(steer_vec2_is_finite(v))) return;
    w->state[i].velocity = steer_clamp_length(v, w->limits[i].max_speed); // as at spawn
    w->grid.dirty = true;
}

float steer_agent_get_orientation(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0.0f);
    return w->state[i].orientation;
}

steer_limits steer_agent_get_limits(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, steer_default_limits());
    return w->limits[i];
}

void steer_agent_set_limits(steer_world *w, steer_agent_id id, const steer_limits *l)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(l != NULL && steer__agent_limits_are_valid(l))) return;
    w->limits[i] = *l;
    ++w->limits_version;
    w->grid.dirty = true; // the grid's records carry the limits (grid.h, grid_body)
}

bool steer_agent_get_kinematic(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, false);
    return (w->flags[i] & AGENT_KINEMATIC) != 0;
}

void steer_agent_set_kinematic(steer_world *w, steer_agent_id id, bool on)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    w->flags[i] = (uint8_t)(on ? (w->flags[i] | AGENT_KINEMATIC) : (w->flags[i] & ~AGENT_KINEMATIC));
}

bool steer_agent_get_face_velocity(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, false);
    return (w->flags[i] & AGENT_FACE_VELOCITY) != 0;
}

void steer_agent_set_face_velocity(steer_world *w, steer_agent_id id, bool on)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    w->flags[i] = (uint8_t)(on ? (w->flags[i] | AGENT_FACE_VELOCITY) : (w->flags[i] & ~AGENT_FACE_VELOCITY));
}

steer_behaviour *steer_agent_get_behaviour(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, NULL);
    return w->behaviour[i];
}

void steer_agent_set_behaviour(steer_world *w, steer_agent_id id, steer_behaviour *b, bool keep_memory)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(b == NULL || b->memory <= STEER_MAX_TREE_MEMORY)) return;
    // hot reload: the memory follows the tree node by node (behaviour.h)
    agent_memory kept;
    memset(&kept, 0, sizeof kept);
    if (keep_memory && b != NULL) steer__behaviour_copy_memory(w->behaviour[i], w->memory[i].value, b, kept.value);
    // navigate's plan: kept across a hot reload, allocated here for a tree
    // that navigates (not in a step)
    steer__navigate_behaviour_changed(w->plan[i], b, keep_memory);
    if (w->plan[i] == NULL && b != NULL && b->nav != NULL) w->plan[i] = steer__navigate_new();
    steer_behaviour_retain(b);
    steer_behaviour_release(w->behaviour[i]);
    w->behaviour[i] = b;
    ++w->trees_version;
    w->memory[i] = kept;
}

/* ---- layers, floors and priority ---------------------------------------------------- */

uint32_t steer_agent_get_layer(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0u);
    return w->filter[i].layer;
}

void steer_agent_set_layer(steer_world *w, steer_agent_id id, uint32_t layer)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    agent_filter f = w->filter[i];
    f.layer = layer;
    steer__agent_set_filter(w, i, f);
}

uint32_t steer_agent_get_mask(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0u);
    return w->filter[i].mask;
}

void steer_agent_set_mask(steer_world *w, steer_agent_id id, uint32_t mask)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    agent_filter f = w->filter[i];
    f.mask = mask;
    steer__agent_set_filter(w, i, f);
}

float steer_agent_get_z(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0.0f);
    return w->filter[i].z;
}

float steer_agent_get_height(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0.0f);
    return w->filter[i].height;
}

void steer_agent_set_extent(steer_world *w, steer_agent_id id, float z, float height)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(extent_is_valid(z, height))) return;
    agent_filter f = w->filter[i];
    f.z = z;
    f.height = height;
    steer__agent_set_filter(w, i, f);
}

float steer_agent_get_priority(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0.0f);
    return w->priority[i];
}

void steer_agent_set_priority(steer_world *w, steer_agent_id id, float priority)
{
    AGENT_OR(w, id, );
    NOT_STEPPING(w);
    if (!STEER_CHECK(isfinite(priority))) return;
    w->prioritised += (priority != 0.0f) - (w->priority[i] != 0.0f);
    w->priority[i] = priority;
}

uint64_t steer_agent_get_key(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, 0);
    return w->key[i];
}

void *steer_agent_get_user_data(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, NULL);
    return w->user_data[i];
}

void steer_agent_set_user_data(steer_world *w, steer_agent_id id, void *user_data)
{
    AGENT_OR(w, id, );
    w->user_data[i] = user_data;
}

steer_steering steer_agent_get_last_steering(const steer_world *w, steer_agent_id id)
{
    AGENT_OR(w, id, zero_steering());
    // during a step (a behaviour written in Lua asking), the step before's:
    // this step's outputs are being written in an order that depends on the
    // workers
    return w->stepping ? w->last_out[i] : w->out[i];
}
