// Properties over randomized worlds with fixed seeds: every behaviour type,
// random limits, random parameters within their rules (read from the
// reflected parameter table), random nesting. After every step: speed <=
// max_speed, |rotation| <= max_rotation, orientation in (-pi, pi], nothing
// NaN or infinite. And get_steering of every behaviour is finite for finite
// input, ordinary and extreme.
#include "fixture.h"
#include "test.h"

static assert_counter asserts;

/* ---- random definitions ------------------------------------------------------------------ */

typedef struct scale {
    float lo, hi; ///< magnitudes of positions, limits and parameters
    bool extreme;
} scale;

// A magnitude: log-uniform in [lo, hi] for extreme inputs, uniform otherwise.
static float magnitude(test_rng *r, const scale *s)
{
    if (!s->extreme) return rng_range(r, s->lo, s->hi);
    float e = rng_range(r, log10f(s->lo), log10f(s->hi));
    return powf(10.0f, e);
}

static float signed_magnitude(test_rng *r, const scale *s)
{
    float m = magnitude(r, s);
    return rng_int(r, 2) ? m : -m;
}

static float param_value(test_rng *r, const steer_param_info *p, const scale *s)
{
    switch (p->rule) {
    case STEER_RULE_FINITE: return signed_magnitude(r, s);
    case STEER_RULE_NONNEGATIVE: return rng_int(r, 8) == 0 ? 0.0f : magnitude(r, s);
    case STEER_RULE_POSITIVE: return magnitude(r, s);
    case STEER_RULE_COSINE: return rng_range(r, -1, 1);
    case STEER_RULE_UNIT: return rng_range(r, 0.01f, 1);
    }
    return 0;
}

static void random_params(test_rng *r, steer_behaviour_def *d, const scale *s)
{
    int n = steer_behaviour_param_count(d->type);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(d->type, i);
        char *field = (char *)d + p->offset;
        switch (p->kind) {
        case STEER_PARAM_BOOL: *(bool *)field = rng_int(r, 2) != 0; break;
        case STEER_PARAM_ENUM: {
            int k = 0;
            while (p->choices[k] != NULL) ++k;
            *(int *)field = rng_int(r, k);
            break;
        }
        case STEER_PARAM_LIMIT: *(float *)field = rng_int(r, 2) ? -1.0f : (rng_int(r, 8) ? magnitude(r, s) : 0.0f); break;
        case STEER_PARAM_OPTIONAL:
            *(bool *)((char *)d + p->flag_offset) = rng_int(r, 2) != 0;
            *(float *)field = param_value(r, p, s);
            break;
        default: *(float *)field = param_value(r, p, s); break;
        }
    }
    // the cross-field rule: slow_radius >= target_radius
    if (d->target_radius > d->slow_radius) {
        float t = d->target_radius;
        d->target_radius = d->slow_radius;
        d->slow_radius = t;
    }
    d->whisker_angle = rng_range(r, 0.05f, 1.5f); // at most pi/2
    // sometimes the edge values exactly
    if (rng_int(r, 6) == 0) d->target_radius = 0.0f;
    if (rng_int(r, 6) == 0) d->slow_radius = d->target_radius > 0.0f ? d->target_radius : d->slow_radius;
}

typedef struct pool {
    steer_agent_id agents[64];
    int count;
    steer_path *paths[4];
} pool;

static steer_target random_target(test_rng *r, const pool *p, const scale *s)
{
    if (p->count > 0 && rng_int(r, 2)) return agent_target(p->agents[rng_int(r, p->count)]);
    return point_target(signed_magnitude(r, s), signed_magnitude(r, s));
}

static steer_behaviour *random_behaviour(test_rng *r, const pool *p, const scale *s, int depth)
{
    steer_behaviour_type type = (steer_behaviour_type)rng_int(r, STEER_CALLBACK);
    if (depth >= 3 && (type == STEER_BLEND || type == STEER_PRIORITY)) type = STEER_SEEK;
    steer_behaviour_def d = steer_default_behaviour_def(type);
    random_params(r, &d, s);
    d.target = random_target(r, p, s);
    if (type == STEER_ALIGN && rng_int(r, 2)) d.target.kind = STEER_TARGET_NONE; // align to `orientation`
    d.path = p->paths[rng_int(r, 4)];
    steer_child children[5];
    if (type == STEER_BLEND || type == STEER_PRIORITY) {
        d.child_count = 1 + rng_int(r, 4);
        for (int i = 0; i < d.child_count; ++i) {
            children[i].behaviour = random_behaviour(r, p, s, depth + 1);
            children[i].weight = rng_range(r, -2, 3);
        }
        d.children = children;
    }
    steer_behaviour *b = steer_behaviour_create(&d);
    CHECK(b != NULL);
    if (b == NULL) fprintf(stderr, "  refused %s: %s\n", steer_behaviour_type_name(type), asserts.last);
    for (int i = 0; i < d.child_count; ++i) steer_behaviour_release(children[i].behaviour);
    return b;
}

static steer_path *random_path(test_rng *r, const scale *s)
{
    steer_vec2 pts[12];
    int n = 2 + rng_int(r, 10);
    for (int i = 0; i < n; ++i) pts[i] = steer_v2(signed_magnitude(r, s), signed_magnitude(r, s));
    steer_path_def d = steer_default_path_def();
    d.points = pts;
    d.count = n;
    d.loop = rng_int(r, 2) != 0;
    return steer_path_create(&d);
}

static steer_limits random_limits(test_rng *r, const scale *s)
{
    steer_limits l;
    l.radius = rng_int(r, 8) ? magnitude(r, s) * 0.1f : 0.0f;
    l.max_speed = rng_int(r, 10) ? magnitude(r, s) : 0.0f;
    l.max_acceleration = rng_int(r, 10) ? magnitude(r, s) : 0.0f;
    l.max_rotation = rng_int(r, 10) ? magnitude(r, s) : 0.0f;
    l.max_angular_acceleration = rng_int(r, 10) ? magnitude(r, s) : 0.0f;
    l.drag = rng_int(r, 2) ? magnitude(r, s) * 0.1f : 0.0f;
    return l;
}

static steer_kinematic random_state(test_rng *r, const scale *s, float spread)
{
    steer_kinematic k = kin(rng_range(r, -spread, spread), rng_range(r, -spread, spread), signed_magnitude(r, s),
                            signed_magnitude(r, s), rng_range(r, -10, 10), signed_magnitude(r, s));
    if (rng_int(r, 6) == 0) k.velocity = steer_v2(0, 0);
    return k;
}

/* ---- the invariants ------------------------------------------------------------------------- */

static int check_world(steer_world *w)
{
    int bad = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_agent_id id = steer_world_agent_at(w, i);
        steer_kinematic k = steer_agent_get_state(w, id);
        steer_limits l = steer_agent_get_limits(w, id);
        bool ok = steer_vec2_is_finite(k.position) && steer_vec2_is_finite(k.velocity) && isfinite(k.orientation) &&
                  isfinite(k.rotation);
        ok = ok && steer_length(k.velocity) <= l.max_speed * (1.0f + 1e-6f);
        ok = ok && fabsf(k.rotation) <= l.max_rotation;
        ok = ok && k.orientation > -STEER_PI && k.orientation <= STEER_PI;
        steer_steering s = steer_agent_get_last_steering(w, id);
        ok = ok && steer_vec2_is_finite(s.linear) && isfinite(s.angular);
        if (!ok) {
            if (bad == 0)
                fprintf(stderr, "  agent %d: p (%g,%g) v (%g,%g) |v| %g max %g o %g r %g (max %g) out (%g,%g,%g)\n", i,
                        (double)k.position.x, (double)k.position.y, (double)k.velocity.x, (double)k.velocity.y,
                        (double)steer_length(k.velocity), (double)l.max_speed, (double)k.orientation,
                        (double)k.rotation, (double)l.max_rotation, (double)s.linear.x, (double)s.linear.y,
                        (double)s.angular);
            ++bad;
        }
    }
    return bad;
}

static void run_world(uint64_t seed, const scale *s, int agents, int steps)
{
    test_rng r = {seed};
    steer_world_def wd = steer_default_world_def();
    wd.seed = seed;
    wd.integrator = rng_int(&r, 2) ? STEER_INTEGRATOR_NEWTON : STEER_INTEGRATOR_EULER;
    wd.cell_size = rng_range(&r, 0.5f, 10);
    steer_world *w = steer_world_create(&wd);
    pool p = {{{0, 0}}, 0, {NULL}};
    for (int i = 0; i < 4; ++i) p.paths[i] = rng_int(&r, 4) ? random_path(&r, s) : NULL;
    float spread = s->extreme ? 1e4f : 30.0f;
    for (int i = 0; i < agents; ++i) {
        steer_agent_def d = steer_default_agent_def();
        d.state = random_state(&r, s, spread);
        d.limits = random_limits(&r, s);
        d.kinematic = rng_int(&r, 5) == 0;
        d.face_velocity = rng_int(&r, 5) == 0;
        p.agents[p.count++] = steer_agent_create(w, &d);
    }
    // behaviours may target any agent, including ones removed later
    for (int i = 0; i < agents; ++i) {
        steer_behaviour *b = random_behaviour(&r, &p, s, 0);
        steer_agent_set_behaviour(w, p.agents[i], b, false);
        steer_behaviour_release(b);
    }
    int bad = 0;
    const float dts[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.1f, 0.0f, 0.5f, 3.0f};
    for (int step = 0; step < steps; ++step) {
        float dt = dts[rng_int(&r, 10) < 7 ? 0 : rng_int(&r, 6)];
        steer_world_step(w, dt);
        bad += check_world(w);
        // now and then remove an agent or add one
        if (rng_int(&r, 20) == 0 && steer_world_agent_count(w) > 1)
            steer_agent_destroy(w, steer_world_agent_at(w, rng_int(&r, steer_world_agent_count(w))));
        if (rng_int(&r, 20) == 0 && p.count < 64) {
            steer_agent_def d = steer_default_agent_def();
            d.state = random_state(&r, s, spread);
            d.limits = random_limits(&r, s);
            d.behaviour = random_behaviour(&r, &p, s, 0);
            p.agents[p.count++] = steer_agent_create(w, &d);
            steer_behaviour_release(d.behaviour);
        }
    }
    CHECK(bad == 0);
    if (bad) fprintf(stderr, "  world seed %llu: %d bad agent states\n", (unsigned long long)seed, bad);
    for (int i = 0; i < 4; ++i) steer_path_release(p.paths[i]);
    steer_world_destroy(w);
}

static void random_worlds(void)
{
    const scale ordinary = {0.05f, 20.0f, false};
    for (uint64_t seed = 1; seed <= 12; ++seed) run_world(seed, &ordinary, 48, 150);
    CHECK(asserts.count == 0);
}

static void random_worlds_extreme(void)
{
    // magnitudes from 1e-30 to 1e30 (log-uniform), large time steps included
    const scale extreme = {1e-30f, 1e30f, true};
    for (uint64_t seed = 100; seed <= 108; ++seed) run_world(seed, &extreme, 32, 100);
    CHECK(asserts.count == 0);
}

/* ---- get_steering is finite for finite input ----------------------------------------------- */

static int steering_trials(uint64_t seed, const scale *s, float spread, int trials)
{
    test_rng r = {seed};
    int bad = 0;
    for (int t = 0; t < trials; ++t) {
        steer_world *w = make_world(seed + (uint64_t)t);
        pool p = {{{0, 0}}, 0, {NULL}};
        p.paths[0] = random_path(&r, s);
        // a handful of agents close together (so the group behaviours see
        // neighbours), some at the very same point
        int n = 2 + rng_int(&r, 6);
        steer_kinematic first = random_state(&r, s, spread);
        for (int i = 0; i < n; ++i) {
            steer_kinematic k = random_state(&r, s, spread);
            if (rng_int(&r, 3) == 0) k.position = first.position;
            else k.position = steer_add(first.position, steer_v2(signed_magnitude(&r, s) * 0.1f, signed_magnitude(&r, s) * 0.1f));
            if (!steer_vec2_is_finite(k.position)) k.position = first.position;
            p.agents[p.count++] = spawn_full(w, k, random_limits(&r, s), NULL, 0);
        }
        for (int type = 0; type < STEER_CALLBACK; ++type) {
            for (int rep = 0; rep < 3; ++rep) {
                steer_behaviour_def d = steer_default_behaviour_def((steer_behaviour_type)type);
                random_params(&r, &d, s);
                d.target = random_target(&r, &p, s);
                // at the agent's own position, or at a neighbour's
                if (rep == 1) d.target = point_target(steer_agent_get_position(w, p.agents[0]).x, steer_agent_get_position(w, p.agents[0]).y);
                if (rep == 2) d.target = agent_target(p.agents[rng_int(&r, p.count)]);
                d.path = p.paths[0];
                steer_behaviour *leaf = steer_behaviour_create(&d);
                if (leaf == NULL) {
                    ++bad;
                    fprintf(stderr, "  refused %s: %s\n", steer_behaviour_type_name(d.type), asserts.last);
                    continue;
                }
                steer_behaviour *b = leaf;
                if (type == STEER_BLEND || type == STEER_PRIORITY) {
                    // a combinator over a random leaf and itself-less siblings
                    steer_behaviour_release(leaf);
                    steer_behaviour_def c = steer_default_behaviour_def(STEER_SEEK);
                    c.target = random_target(&r, &p, s);
                    steer_behaviour *kids[2] = {make(c), make(def_of(STEER_SEPARATION))};
                    d.children = (steer_child[]){{kids[0], rng_range(&r, -3, 3)}, {kids[1], rng_range(&r, -3, 3)}};
                    d.child_count = 2;
                    b = steer_behaviour_create(&d);
                    steer_behaviour_release(kids[0]);
                    steer_behaviour_release(kids[1]);
                }
                for (int i = 0; i < p.count; ++i) {
                    steer_steering out;
                    bool has = steer_behaviour_get_steering(b, w, p.agents[i], 1.0f / 60.0f, &out);
                    if (!steer_vec2_is_finite(out.linear) || !isfinite(out.angular)) {
                        if (bad < 8) {
                            steer_kinematic k = steer_agent_get_state(w, p.agents[i]);
                            steer_limits l = steer_agent_get_limits(w, p.agents[i]);
                            fprintf(stderr,
                                    "  %s (has %d) -> (%g,%g,%g) for p (%g,%g) v (%g,%g) o %g r %g; limits r %g s %g a %g "
                                    "rot %g ang %g; target (%g,%g) radius %g tr %g sr %g\n",
                                    steer_behaviour_type_name(d.type), has, (double)out.linear.x,
                                    (double)out.linear.y, (double)out.angular, (double)k.position.x,
                                    (double)k.position.y, (double)k.velocity.x, (double)k.velocity.y,
                                    (double)k.orientation, (double)k.rotation, (double)l.radius,
                                    (double)l.max_speed, (double)l.max_acceleration, (double)l.max_rotation,
                                    (double)l.max_angular_acceleration, (double)d.target.point.x,
                                    (double)d.target.point.y, (double)d.radius, (double)d.target_radius,
                                    (double)d.slow_radius);
                        }
                        ++bad;
                    }
                }
                steer_behaviour_release(b);
            }
        }
        steer_path_release(p.paths[0]);
        steer_world_destroy(w);
    }
    return bad;
}

static void get_steering_is_finite(void)
{
    const scale ordinary = {0.01f, 50.0f, false};
    int bad = steering_trials(7, &ordinary, 50.0f, 150);
    CHECK(bad == 0);
    CHECK(asserts.count == 0);
}

static void get_steering_is_finite_extreme(void)
{
    // magnitudes from 1e-30 to 1e30 (the engine's bound on positions):
    // squares of distances overflow float, tiny ones underflow; limits,
    // radii and times from tiny to huge
    const scale extreme = {1e-30f, 1e30f, true};
    int bad = steering_trials(8, &extreme, 1e30f, 150);
    CHECK(bad == 0);
    CHECK(asserts.count == 0);
}

int main(void)
{
    // nothing here is invalid input: any assert is a failure (counted, not fatal)
    steer_set_assert_fn(counting_assert, &asserts);
    RUN(random_worlds);
    RUN(random_worlds_extreme);
    RUN(get_steering_is_finite);
    RUN(get_steering_is_finite_extreme);
    return TEST_RESULT();
}
