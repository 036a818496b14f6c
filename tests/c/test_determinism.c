// Determinism: a flock with wander (randomness and neighbours both matter)
// gives the same hash for the same seed and steps; the same per-agent states,
// bit for bit, whatever the spawn order (explicit keys) or removals; without
// keys and without randomness, whatever the spawn order too; a
// different seed gives a different hash; get_steering changes nothing.
#include "fixture.h"
#include "test.h"

enum { AGENTS = 160, STEPS = 240 };

typedef struct flock {
    steer_behaviour *boid, *leader;
} flock;

static flock make_flock(void)
{
    flock f;
    f.boid = make_boid_tree(false);
    f.leader = make(def_of(STEER_KINEMATIC_WANDER));
    return f;
}

static void free_flock(flock *f)
{
    steer_behaviour_release(f->boid);
    steer_behaviour_release(f->leader);
}

// Agent k (0 <= k < AGENTS) always gets the same definition, key 1000 + k.
static steer_agent_def agent_def(const flock *f, int k)
{
    test_rng r = {(uint64_t)k * 7919u + 1};
    steer_agent_def d = steer_default_agent_def();
    d.state = kin(rng_range(&r, -15, 15), rng_range(&r, -15, 15), rng_range(&r, -2, 2), rng_range(&r, -2, 2),
                  rng_range(&r, -3, 3), 0);
    d.limits = test_limits();
    d.key = 1000 + (uint64_t)k;
    d.kinematic = k % 40 == 0;
    d.face_velocity = d.kinematic;
    d.behaviour = d.kinematic ? f->leader : f->boid;
    return d;
}

// Spawn the flock in `order` (a permutation of 0..AGENTS-1); with `decoys`,
// extra agents are spawned in between and removed again before stepping.
static steer_world *spawn_world(const flock *f, uint64_t seed, const int *order, bool decoys, float cell)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = seed;
    wd.cell_size = cell;
    wd.agent_capacity = 8; // growth while spawning too
    steer_world *w = steer_world_create(&wd);
    steer_agent_id junk[AGENTS];
    int n = 0;
    for (int i = 0; i < AGENTS; ++i) {
        steer_agent_def d = agent_def(f, order[i]);
        steer_agent_create(w, &d);
        if (decoys && i % 3 == 0) {
            d.key = 1; // keys of removed agents never matter
            d.state.position = steer_v2(0, 0);
            junk[n++] = steer_agent_create(w, &d);
        }
    }
    for (int i = 0; i < n; ++i) steer_agent_destroy(w, junk[(i * 7) % n]);
    for (int i = 0; i < n; ++i) steer_agent_destroy(w, junk[i]); // already removed ones are ignored
    return w;
}

static void run(steer_world *w, int steps)
{
    for (int i = 0; i < steps; ++i) steer_world_step(w, 1.0f / 60.0f);
}

static void identity(int *order)
{
    for (int i = 0; i < AGENTS; ++i) order[i] = i;
}

static void shuffled(int *order, uint64_t seed)
{
    identity(order);
    test_rng r = {seed};
    for (int i = AGENTS - 1; i > 0; --i) {
        int j = rng_int(&r, i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

// Bitwise comparison of every agent's state, memory and random stream, by key.
static int compare_agents(const steer_world *a, const steer_world *b)
{
    int diff = 0;
    CHECK(a->count == b->count);
    for (int i = 0; i < a->count; ++i) {
        int j = -1;
        for (int k = 0; k < b->count; ++k)
            if (b->key[k] == a->key[i]) j = k;
        if (j < 0) {
            ++diff;
            continue;
        }
        if (memcmp(&a->state[i], &b->state[j], sizeof a->state[i]) != 0 ||
            memcmp(&a->memory[i], &b->memory[j], sizeof a->memory[i]) != 0 || a->rng[i] != b->rng[j])
            ++diff;
    }
    return diff;
}

static void same_seed_same_hash(void)
{
    flock f = make_flock();
    int order[AGENTS];
    identity(order);
    steer_world *a = spawn_world(&f, 42, order, false, 4.0f);
    steer_world *b = spawn_world(&f, 42, order, false, 4.0f);
    uint64_t h0 = steer_world_hash(a);
    CHECK(h0 == steer_world_hash(b));
    run(a, STEPS);
    run(b, STEPS);
    CHECK(steer_world_hash(a) == steer_world_hash(b));
    CHECK(steer_world_hash(a) != h0); // and something happened
    CHECK(compare_agents(a, b) == 0);
    steer_world_destroy(a);
    steer_world_destroy(b);
    free_flock(&f);
}

static void spawn_order_does_not_matter(void)
{
    flock f = make_flock();
    int order[AGENTS];
    identity(order);
    steer_world *ref = spawn_world(&f, 42, order, false, 4.0f);
    run(ref, STEPS);
    for (uint64_t s = 1; s <= 3; ++s) {
        shuffled(order, s);
        steer_world *w = spawn_world(&f, 42, order, s == 3, 4.0f);
        run(w, STEPS);
        int diff = compare_agents(ref, w);
        CHECK(diff == 0);
        CHECK(steer_world_hash(ref) == steer_world_hash(w));
        if (diff) fprintf(stderr, "  shuffle %llu: %d agents differ\n", (unsigned long long)s, diff);
        steer_world_destroy(w);
    }
    steer_world_destroy(ref);
    free_flock(&f);
}

static void different_seed_different_hash(void)
{
    flock f = make_flock();
    int order[AGENTS];
    identity(order);
    steer_world *a = spawn_world(&f, 42, order, false, 4.0f);
    steer_world *b = spawn_world(&f, 43, order, false, 4.0f);
    // the seed is in every random stream from the start
    CHECK(steer_world_hash(a) != steer_world_hash(b));
    run(a, STEPS);
    run(b, STEPS);
    CHECK(steer_world_hash(a) != steer_world_hash(b));
    // and it changed where the wanderers went, not only their streams
    CHECK(compare_agents(a, b) == AGENTS);
    steer_world_destroy(a);
    steer_world_destroy(b);
    free_flock(&f);
}

static void get_steering_changes_nothing(void)
{
    flock f = make_flock();
    int order[AGENTS];
    identity(order);
    steer_world *a = spawn_world(&f, 42, order, false, 4.0f);
    steer_world *b = spawn_world(&f, 42, order, false, 4.0f);
    for (int i = 0; i < STEPS; ++i) {
        if (i % 10 == 3) {
            uint64_t h = steer_world_hash(b);
            // ask every agent's behaviour (wander draws from the stream) and a few others
            for (int k = 0; k < steer_world_agent_count(b); ++k) {
                steer_agent_id id = steer_world_agent_at(b, k);
                steer_steering s;
                steer_behaviour_get_steering(steer_agent_get_behaviour(b, id), b, id, 1.0f / 60.0f, &s);
                steer_behaviour_get_steering(f.leader, b, id, 0.5f, &s);
            }
            CHECK(steer_world_hash(b) == h);
        }
        steer_world_step(a, 1.0f / 60.0f);
        steer_world_step(b, 1.0f / 60.0f);
    }
    CHECK(steer_world_hash(a) == steer_world_hash(b));
    CHECK(compare_agents(a, b) == 0);
    steer_world_destroy(a);
    steer_world_destroy(b);
    free_flock(&f);
}

static void cell_size_finds_the_same_neighbours(void)
{
    // types.h: any cell size finds the same neighbours; only the order of the
    // sums (their last bits) may differ. So one evaluation of every agent
    // agrees to rounding, whatever the cell size.
    flock f = make_flock();
    int order[AGENTS];
    identity(order);
    steer_world *ref = spawn_world(&f, 42, order, false, 4.0f);
    const float cells[] = {0.3f, 1.0f, 2.5f, 8.0f, 100.0f};
    int worst_agents = 0;
    for (int c = 0; c < 5; ++c) {
        steer_world *w = spawn_world(&f, 42, order, false, cells[c]);
        int differ = 0;
        for (int k = 0; k < AGENTS; ++k) {
            steer_agent_id ia = steer_world_agent_at(ref, k), ib = steer_world_agent_at(w, k);
            CHECK(steer_agent_get_key(ref, ia) == steer_agent_get_key(w, ib));
            steer_steering sa, sb;
            bool ha = steer_behaviour_get_steering(steer_agent_get_behaviour(ref, ia), ref, ia, 1.0f / 60.0f, &sa);
            bool hb = steer_behaviour_get_steering(steer_agent_get_behaviour(w, ib), w, ib, 1.0f / 60.0f, &sb);
            float tol = 1e-4f * (1.0f + steer_length(sa.linear) + fabsf(sa.angular));
            if (ha != hb || steer_distance(sa.linear, sb.linear) > tol || fabsf(sa.angular - sb.angular) > tol) ++differ;
        }
        CHECK(differ == 0);
        if (differ > worst_agents) worst_agents = differ;
        if (differ) fprintf(stderr, "  cell size %g: %d agents steer differently\n", (double)cells[c], differ);
        steer_world_destroy(w);
    }
    steer_world_destroy(ref);
    free_flock(&f);
}

// The issue-13 scene: 120 agents arriving at a point, blended with
// separation, no randomness, no keys (the world numbers them in spawn
// order). Neighbours are summed in an order of their states, so the spawn
// order cannot show in the result: agent k ends in the same state, bit for
// bit, whichever order the agents were spawned in.
enum { CROWD = 120, CROWD_STEPS = 300 };

static steer_world *spawn_crowd(steer_behaviour *b, const int *order, steer_agent_id *id_of)
{
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = 8;
    steer_world *w = steer_world_create(&wd);
    for (int i = 0; i < CROWD; ++i) {
        int k = order[i];
        test_rng r = {(uint64_t)k * 104729u + 7};
        steer_agent_def d = steer_default_agent_def();
        // packed: many neighbours in each agent's separation radius
        // one draw a statement: a call's arguments are evaluated in the compiler's order
        float x = rng_range(&r, -6, 6);
        float y = rng_range(&r, -6, 6);
        float vx = rng_range(&r, -1, 1);
        float vy = rng_range(&r, -1, 1);
        d.state = kin(x, y, vx, vy, 0, 0);
        d.limits = test_limits();
        d.behaviour = b;
        id_of[k] = steer_agent_create(w, &d);
    }
    return w;
}

static void spawn_order_without_keys_does_not_matter(void)
{
    steer_behaviour_def arrive = def_at(STEER_ARRIVE, 30.0f, 10.0f);
    steer_behaviour_def sep = def_of(STEER_SEPARATION);
    sep.radius = 3.0f;
    steer_behaviour *b =
        make_combinator(STEER_BLEND, (steer_behaviour *[]){make(arrive), make(sep)}, (float[]){1.0f, 2.0f}, 2);
    int order[CROWD];
    for (int i = 0; i < CROWD; ++i) order[i] = i;
    steer_agent_id ref_id[CROWD], id[CROWD];
    steer_world *ref = spawn_crowd(b, order, ref_id);
    for (int s = 0; s < CROWD_STEPS; ++s) steer_world_step(ref, 1.0f / 60.0f);
    for (uint64_t shuffle = 0; shuffle < 4; ++shuffle) {
        // 0: reversed (the case), then random permutations
        test_rng r = {shuffle * 31 + 5};
        for (int i = 0; i < CROWD; ++i) order[i] = CROWD - 1 - i;
        if (shuffle > 0) {
            for (int i = CROWD - 1; i > 0; --i) {
                int j = rng_int(&r, i + 1), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        steer_world *w = spawn_crowd(b, order, id);
        for (int s = 0; s < CROWD_STEPS; ++s) steer_world_step(w, 1.0f / 60.0f);
        int differ = 0;
        float worst = 0.0f;
        for (int k = 0; k < CROWD; ++k) {
            const steer_kinematic *a = &ref->state[dense_of(ref, ref_id[k])], *c = &w->state[dense_of(w, id[k])];
            if (memcmp(a, c, sizeof *a) != 0) ++differ;
            worst = steer_maxf(worst, steer_distance(a->position, c->position));
        }
        CHECK(differ == 0);
        if (differ) fprintf(stderr, "  order %llu: %d agents differ, up to %g m\n", (unsigned long long)shuffle, differ, (double)worst);
        // and the scene did move them (the comparison is not of idle agents):
        // they all started within 8.5 m of the origin, 31.6 m from the target
        CHECK(steer_distance(w->state[dense_of(w, id[0])].position, steer_v2(30.0f, 10.0f)) < 23.0f);
        steer_world_destroy(w);
    }
    steer_world_destroy(ref);
    steer_behaviour_release(b);
}

int main(void)
{
    RUN(same_seed_same_hash);
    RUN(spawn_order_does_not_matter);
    RUN(spawn_order_without_keys_does_not_matter);
    RUN(different_seed_different_hash);
    RUN(get_steering_changes_nothing);
    RUN(cell_size_finds_the_same_neighbours);
    return TEST_RESULT();
}
