// Agents are moved into grid order during steps (past 1024 agents, once the
// storage order has drifted): ids, keys, user data, behaviour memory and
// random streams move with them, and the results are the same bits as in a
// world spawned in another order.
#include "store.h"
#include "world.h"
#include "fixture.h"
#include "test.h"

enum { N = 3000, STEPS = 30 };

typedef struct run {
    steer_world *world;
    steer_agent_id ids[N]; // by spawn index
} run;

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

// Spawn the same N agents (index i has key i + 1, user data i + 1) in the
// order given, with a flock + wander behaviour.
static void spawn_all(run *r, const int *order, steer_behaviour *b)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = 9;
    wd.cell_size = 2.0f;
    r->world = steer_world_create(&wd);
    for (int n = 0; n < N; ++n) {
        int i = order[n];
        uint64_t s = (uint64_t)i * 2654435761u + 1;
        steer_agent_def d = steer_default_agent_def();
        d.state.position = steer_v2((float)(lcg(&s) % 8000) * 0.01f, (float)(lcg(&s) % 8000) * 0.01f);
        d.state.velocity = steer_v2((float)(lcg(&s) % 200) * 0.01f - 1.0f, (float)(lcg(&s) % 200) * 0.01f - 1.0f);
        d.behaviour = b;
        d.key = (uint64_t)i + 1;
        d.user_data = (void *)(uintptr_t)(i + 1);
        r->ids[i] = steer_agent_create(r->world, &d);
    }
}

// Pairs of arrays starting in the same set of an 8-way 32 kB L1 cache (64
// sets of 64-byte lines).
static int same_sets(const void *const *arrays, int n)
{
    int same = 0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) same += ((uintptr_t)arrays[i] / 64) % 64 == ((uintptr_t)arrays[j] / 64) % 64;
    return same;
}

static void moved_agents_keep_everything(void)
{
    steer_behaviour_def sep = steer_default_behaviour_def(STEER_SEPARATION);
    steer_behaviour_def coh = steer_default_behaviour_def(STEER_COHESION);
    steer_behaviour_def wan = steer_default_behaviour_def(STEER_WANDER);
    steer_child kids[] = {{steer_behaviour_create(&sep), 2.0f}, {steer_behaviour_create(&coh), 1.0f},
                          {steer_behaviour_create(&wan), 1.0f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids;
    bd.child_count = 3;
    steer_behaviour *b = steer_behaviour_create(&bd);
    for (int i = 0; i < 3; ++i) steer_behaviour_release(kids[i].behaviour);

    static int forward[N], backward[N];
    for (int i = 0; i < N; ++i) forward[i] = i, backward[i] = N - 1 - i;
    static run a, z;
    spawn_all(&a, forward, b);
    spawn_all(&z, backward, b);
    for (int s = 0; s < STEPS; ++s) {
        steer_world_step(a.world, 1.0f / 60.0f);
        steer_world_step(z.world, 1.0f / 60.0f);
    }
    // the storage was re-sorted: dense order is no longer spawn order
    int moved = 0;
    for (int i = 0; i < N; ++i) moved += steer__store_dense(a.world, a.ids[i]) != i;
    CHECK(moved > N / 2);

    int bad_ids = 0, differ = 0;
    for (int i = 0; i < N; ++i) {
        // every id still names its own agent
        bad_ids += !steer_agent_is_valid(a.world, a.ids[i]) || steer_agent_get_key(a.world, a.ids[i]) != (uint64_t)i + 1 ||
                   steer_agent_get_user_data(a.world, a.ids[i]) != (void *)(uintptr_t)(i + 1) ||
                   steer_agent_get_behaviour(a.world, a.ids[i]) != b;
        // and the two worlds agree bit for bit, agent by agent
        int da = steer__store_dense(a.world, a.ids[i]), dz = steer__store_dense(z.world, z.ids[i]);
        differ += memcmp(&a.world->state[da], &z.world->state[dz], sizeof(steer_kinematic)) != 0 ||
                  memcmp(&a.world->memory[da], &z.world->memory[dz], sizeof(agent_memory)) != 0 ||
                  a.world->rng[da] != z.world->rng[dz];
    }
    CHECK(bad_ids == 0);
    CHECK(differ == 0);
    CHECK(steer_world_hash(a.world) == steer_world_hash(z.world));

    // removing by id after the move removes exactly those agents
    for (int i = 0; i < N; i += 3) steer_agent_destroy(a.world, a.ids[i]);
    int wrong = 0;
    for (int i = 0; i < N; ++i) {
        bool alive = steer_agent_is_valid(a.world, a.ids[i]);
        wrong += alive == (i % 3 == 0);
        if (alive) wrong += steer_agent_get_key(a.world, a.ids[i]) != (uint64_t)i + 1;
    }
    CHECK(wrong == 0);
    CHECK(steer_world_agent_count(a.world) == N - (N + 2) / 3);
    steer_world_step(a.world, 1.0f / 60.0f); // and stepping on is fine

    // the reorder swaps each column with the spare of its element size
    // (store.c): after the moves every column and spare is a block of its own
    const void *blocks[2 * STEER_STORE_SPARES];
    int nblocks = 0, shared = 0;
    for (int c = 0; c < steer__store_column_count(); ++c) blocks[nblocks++] = steer__store_column_data(a.world, c);
    for (int c = 0; c < STEER_STORE_SPARES; ++c)
        if (a.world->reorder_spare[c] != NULL) blocks[nblocks++] = a.world->reorder_spare[c];
    for (int i = 0; i < nblocks; ++i)
        for (int j = i + 1; j < nblocks; ++j) shared += blocks[i] == blocks[j];
    CHECK(shared == 0);
    CHECK(nblocks > steer__store_column_count());
    // and the reorder only permutes the arrays' cache sets among them (store.c, steer__store_reserve)
    CHECK(same_sets(blocks, nblocks) == 0);

    steer_world_destroy(a.world);
    steer_world_destroy(z.world);
    steer_behaviour_release(b);
}

// The nine proxy arrays of the neighbour grid start in different sets of
// an 8-way 32 kB L1 cache (64 sets of 64-byte lines): arrays allocated
// apart come page-aligned, and the fill, which writes all nine at the same
// index, evicted its own lines (grid.c, reserve_proxies).
static void proxy_arrays_in_different_cache_sets(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = 100000; // arrays of 400 kB: from the system, page-aligned
    steer_world *w = steer_world_create(&wd);
    const neighbour_grid *g = &w->grid;
    const void *arrays[9] = {g->x, g->y, g->vx, g->vy, g->ix, g->iy, g->px, g->py, g->yield_to};
    CHECK(same_sets(arrays, 9) == 0);
    steer_world_destroy(w);
}

// The store's columns and the reorder's spares start in different sets of
// the L1 cache: arrays allocated apart come page-aligned, so element k of
// state, limits and intent (and of memory and the two course columns) fell
// in one set, which the step's evaluation reads and writes at once
// (store.c, steer__store_reserve).
static void store_columns_in_different_cache_sets(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = 100000; // columns of 100 kB to 3 MB: from the system, page-aligned
    steer_world *w = steer_world_create(&wd);
    const void *arrays[2 * STEER_STORE_SPARES];
    int n = 0;
    for (int c = 0; c < steer__store_column_count(); ++c) arrays[n++] = steer__store_column_data(w, c);
    for (int c = 0; c < STEER_STORE_SPARES; ++c)
        if (w->reorder_spare[c] != NULL) arrays[n++] = w->reorder_spare[c];
    CHECK(n > steer__store_column_count());
    CHECK(same_sets(arrays, n) == 0);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(moved_agents_keep_everything);
    RUN(proxy_arrays_in_different_cache_sets);
    RUN(store_columns_in_different_cache_sets);
    return TEST_RESULT();
}
