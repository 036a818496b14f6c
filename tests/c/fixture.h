// fixture.h: small helpers shared by the C tests (worlds, agents,
// behaviours, a callback behaviour with a fixed output, a counting assert
// hook). Everything is static inline so unused helpers cost nothing.
#ifndef STEER_TEST_FIXTURE_H
#define STEER_TEST_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store.h"
#include "world.h"
#include "steer/steer.h"

/* ---- counting assert hook ------------------------------------------------------ */

typedef struct assert_counter {
    int count;
    char last[256];
} assert_counter;

static inline void counting_assert(const char *condition, const char *file, int line, void *context)
{
    (void)file;
    (void)line;
    assert_counter *c = context;
    ++c->count;
    strncpy(c->last, condition, sizeof c->last - 1);
    c->last[sizeof c->last - 1] = '\0';
}

/* ---- worlds and agents ------------------------------------------------------------- */

static inline steer_world *make_world(uint64_t seed)
{
    steer_world_def d = steer_default_world_def();
    d.seed = seed;
    return steer_world_create(&d);
}

/// Limits with round numbers for hand computations: radius 0.5, max speed 5,
/// max acceleration 10, max rotation pi, max angular acceleration 100.
static inline steer_limits test_limits(void)
{
    steer_limits l = steer_default_limits();
    l.max_angular_acceleration = 100.0f;
    return l;
}

static inline steer_kinematic kin(float x, float y, float vx, float vy, float orientation, float rotation)
{
    steer_kinematic k;
    memset(&k, 0, sizeof k);
    k.position = steer_v2(x, y);
    k.velocity = steer_v2(vx, vy);
    k.orientation = orientation;
    k.rotation = rotation;
    return k;
}

static inline steer_agent_id spawn_full(steer_world *w, steer_kinematic state, steer_limits limits,
                                        steer_behaviour *b, uint64_t key)
{
    steer_agent_def d = steer_default_agent_def();
    d.state = state;
    d.limits = limits;
    d.behaviour = b;
    d.key = key;
    return steer_agent_create(w, &d);
}

/// An agent with test_limits() at (x, y) with velocity (vx, vy), orientation 0.
static inline steer_agent_id spawn(steer_world *w, float x, float y, float vx, float vy)
{
    return spawn_full(w, kin(x, y, vx, vy, 0.0f, 0.0f), test_limits(), NULL, 0);
}

static inline int dense_of(const steer_world *w, steer_agent_id id) { return steer__store_dense(w, id); }

/// The agent's behaviour memory, float k.
static inline float memory_of(const steer_world *w, steer_agent_id id, int k)
{
    return w->memory[steer__store_dense(w, id)].value[k];
}

/* ---- behaviours ----------------------------------------------------------------- */

static inline steer_target point_target(float x, float y)
{
    steer_target t;
    memset(&t, 0, sizeof t);
    t.kind = STEER_TARGET_POINT;
    t.point = steer_v2(x, y);
    return t;
}

static inline steer_target agent_target(steer_agent_id id)
{
    steer_target t;
    memset(&t, 0, sizeof t);
    t.kind = STEER_TARGET_AGENT;
    t.agent = id;
    return t;
}

static inline steer_behaviour_def def_of(steer_behaviour_type type) { return steer_default_behaviour_def(type); }

static inline steer_behaviour_def def_at(steer_behaviour_type type, float x, float y)
{
    steer_behaviour_def d = steer_default_behaviour_def(type);
    d.target = point_target(x, y);
    return d;
}

static inline steer_behaviour *make(steer_behaviour_def d) { return steer_behaviour_create(&d); }

/// reciprocal_avoidance around one child looking `radius` metres out (the
/// child's reference is handed over).
static inline steer_behaviour *orca_around(steer_behaviour *child, float radius)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    steer_child c = {child, 1.0f};
    d.children = &c;
    d.child_count = 1;
    d.radius = radius;
    steer_behaviour *b = steer_behaviour_create(&d);
    steer_behaviour_release(child);
    return b;
}

/// A combinator over n children (the children's references are handed over).
static inline steer_behaviour *make_combinator(steer_behaviour_type type, steer_behaviour **children,
                                               const float *weights, int n)
{
    steer_child c[16];
    for (int i = 0; i < n; ++i) {
        c[i].behaviour = children[i];
        c[i].weight = weights != NULL ? weights[i] : 1.0f;
    }
    steer_behaviour_def d = steer_default_behaviour_def(type);
    d.children = c;
    d.child_count = n;
    steer_behaviour *b = steer_behaviour_create(&d);
    for (int i = 0; i < n; ++i) steer_behaviour_release(children[i]);
    return b;
}

/// The boid of the determinism and threads scenes: a priority of obstacle
/// avoidance (when asked), collision avoidance (radius 3), then a blend of
/// separation 2, cohesion 0.5, alignment 1, wander 0.7 and
/// look_where_you_are_going 1.
static inline steer_behaviour *make_boid_tree(bool obstacle_avoidance)
{
    steer_behaviour_def ca = def_of(STEER_COLLISION_AVOIDANCE);
    ca.radius = 3.0f;
    steer_behaviour *blend =
        make_combinator(STEER_BLEND,
                        (steer_behaviour *[]){make(def_of(STEER_SEPARATION)), make(def_of(STEER_COHESION)),
                                              make(def_of(STEER_ALIGNMENT)), make(def_of(STEER_WANDER)),
                                              make(def_of(STEER_LOOK_WHERE_YOU_ARE_GOING))},
                        (float[]){2.0f, 0.5f, 1.0f, 0.7f, 1.0f}, 5);
    if (!obstacle_avoidance) return make_combinator(STEER_PRIORITY, (steer_behaviour *[]){make(ca), blend}, NULL, 2);
    return make_combinator(STEER_PRIORITY,
                           (steer_behaviour *[]){make(def_of(STEER_OBSTACLE_AVOIDANCE)), make(ca), blend}, NULL, 3);
}

/// Evaluate b for an agent without stepping; *has receives the "steering or not".
static inline steer_steering steering_of(const steer_behaviour *b, steer_world *w, steer_agent_id id, bool *has)
{
    steer_steering s;
    bool h = steer_behaviour_get_steering(b, w, id, 1.0f / 60.0f, &s);
    if (has != NULL) *has = h;
    return s;
}

/* ---- a callback behaviour with a fixed output ---------------------------------------- */

typedef struct fixed_output {
    steer_steering steering;
    steer_callback_result result;
    int calls;
} fixed_output;

static inline steer_callback_result fixed_callback(steer_world *w, steer_agent_id a, float dt,
                                                   steer_steering *out, void *context)
{
    (void)w;
    (void)a;
    (void)dt;
    fixed_output *f = context;
    ++f->calls;
    *out = f->steering;
    return f->result;
}

static inline steer_behaviour *make_fixed(fixed_output *f)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_CALLBACK);
    d.callback = fixed_callback;
    d.context = f;
    return steer_behaviour_create(&d);
}

/* ---- a deterministic random generator for the tests themselves ----------------------- */

typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline uint64_t rng_u64(test_rng *r) { return steer__rng_next(&r->s); }
/// Uniform in [lo, hi).
static inline float rng_range(test_rng *r, float lo, float hi)
{
    double u = (double)(rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
    return (float)(lo + (hi - lo) * u);
}
static inline int rng_int(test_rng *r, int n) { return (int)(rng_u64(r) % (uint64_t)n); }

/* ---- a planner (test_navigate, test_snapshot) ------------------------------------------ */

/// A planner that knows one box, (-15, -5)-(15, 5): routes from below to
/// above go round its right side, corners grown by the radius and 0.1 m; a
/// goal inside the box has no route. Counts its calls; `version` is what
/// steer_planner.version reports.
typedef struct box_planner {
    int calls;
    uint64_t version;
} box_planner;

static inline int box_planner_find_path(void *context, steer_vec2 from, steer_vec2 to, float radius,
                                        steer_vec2 *points, int capacity, float *length, char *message,
                                        int message_size)
{
    box_planner *s = context;
    ++s->calls;
    if (fabsf(to.x) < 15.0f + radius && fabsf(to.y) < 5.0f + radius) {
        snprintf(message, (size_t)message_size, "goal (%g, %g) is inside a shape", (double)to.x, (double)to.y);
        return 0;
    }
    steer_vec2 route[4] = {from, {15.1f + radius, -5.1f - radius}, {15.1f + radius, 5.1f + radius}, to};
    int n = 4;
    if (!((from.y < -5.0f && to.y > 5.0f) || (from.y > 5.0f && to.y < -5.0f))) {
        route[1] = to;
        n = 2;
    } else if (from.y > 5.0f) {
        steer_vec2 t = route[1];
        route[1] = route[2];
        route[2] = t;
    }
    *length = 0.0f;
    for (int k = 0; k < n; ++k) {
        if (k < capacity) points[k] = route[k];
        if (k > 0) *length += steer_length(steer_sub(route[k], route[k - 1]));
    }
    return n;
}

static inline uint64_t box_planner_version(void *context) { return ((box_planner *)context)->version; }

static inline steer_planner box_planner_of(box_planner *s)
{
    steer_planner p = {box_planner_find_path, box_planner_version, NULL, s, NULL};
    return p;
}

#endif
