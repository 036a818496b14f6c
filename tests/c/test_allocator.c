// The allocator hook: every engine allocation goes through it, with the
// size given back on free; a refused allocation fails the call that needed
// it cleanly. Swept over every allocation of a scene: no crash, no leak.
#include <string.h>

#include "fixture.h"
#include "test.h"

static assert_counter asserts;

typedef struct budget {
    long live_blocks;
    long long live_bytes;
    long calls;
    long fail_at; ///< refuse the n-th allocation (0: never)
    bool size_mismatch;
} budget;

// Each block carries its size in front, to check the hook gets it back.
static void *counting_alloc(size_t size, void *context)
{
    budget *b = context;
    if (++b->calls == b->fail_at) return NULL;
    size_t *p = malloc(sizeof(size_t) * 2 + size);
    if (p == NULL) return NULL;
    p[0] = size;
    ++b->live_blocks;
    b->live_bytes += (long long)size;
    return p + 2;
}

static void counting_free(void *memory, size_t size, void *context)
{
    budget *b = context;
    size_t *p = (size_t *)memory - 2;
    if (p[0] != size) b->size_mismatch = true;
    --b->live_blocks;
    b->live_bytes -= (long long)size;
    free(p);
}

// A scene that allocates in every way the engine does: world, agents past
// the initial capacity, behaviours with children and sharing, paths, shapes.
// Returns false when an allocation was refused somewhere (and cleans up).
static bool scene(void)
{
    bool ok = true;
    steer_world_def wd = steer_default_world_def();
    wd.agent_capacity = 4;
    steer_world *w = steer_world_create(&wd);
    if (w == NULL) return false;
    steer_vec2 pts[] = {{0, 0}, {10, 0}, {10, 10}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts;
    pd.count = 3;
    steer_path *path = steer_path_create(&pd);
    ok = ok && path != NULL;
    steer_behaviour_def fd = def_of(STEER_FOLLOW_PATH);
    fd.path = path;
    steer_behaviour *follow = steer_behaviour_create(&fd);
    steer_behaviour *seek = make(def_at(STEER_SEEK, 5, 5));
    steer_behaviour *blend = NULL;
    if (follow != NULL && seek != NULL) {
        steer_child c[3] = {{follow, 1}, {seek, 2}, {seek, 1}};
        steer_behaviour_def bd = def_of(STEER_BLEND);
        bd.children = c;
        bd.child_count = 3;
        blend = steer_behaviour_create(&bd);
    }
    ok = ok && follow != NULL && seek != NULL && blend != NULL;
    for (int i = 0; i < 40; ++i) {
        steer_agent_def ad = steer_default_agent_def();
        ad.state.position = steer_v2((float)(i % 7), (float)(i / 7));
        ad.behaviour = blend;
        ok = ok && !steer_agent_id_is_null(steer_agent_create(w, &ad));
    }
    ok = ok && !steer_shape_id_is_null(steer_world_add_segment(w, steer_v2(-5, 20), steer_v2(20, 20)));
    ok = ok && !steer_shape_id_is_null(steer_world_add_circle(w, steer_v2(3, 12), 1.0f));
    steer_vec2 poly[] = {{0, 30}, {4, 30}, {2, 33}};
    ok = ok && !steer_shape_id_is_null(steer_world_add_polygon(w, poly, 3));
    if (blend != NULL && seek != NULL) {
        steer_child c[2] = {{seek, 1}, {seek, 1}};
        ok = steer_behaviour_set_children(blend, c, 2) && ok;
    }
    for (int s = 0; s < 5; ++s) steer_world_step(w, 1.0f / 30.0f);
    steer_ray_hit hit;
    steer_world_raycast(w, steer_v2(0, 0), steer_v2(0, 1), 100.0f, NULL, &hit);
    steer_behaviour_release(blend);
    steer_behaviour_release(seek);
    steer_behaviour_release(follow);
    steer_path_release(path);
    steer_world_destroy(w);
    return ok;
}

static void test_hook_sees_every_allocation(void)
{
    budget b = {0};
    steer_set_allocator(counting_alloc, counting_free, &b);
    CHECK(scene());
    steer_set_allocator(NULL, NULL, NULL);
    CHECK(b.calls > 20);
    CHECK(b.live_blocks == 0 && b.live_bytes == 0);
    CHECK(!b.size_mismatch);
    // the hook for hosts and the bindings
    steer_set_allocator(counting_alloc, counting_free, &b);
    void *p = steer_alloc(100);
    CHECK(p != NULL && b.live_bytes >= 100);
    steer_free(p);
    steer_set_allocator(NULL, NULL, NULL);
    CHECK(b.live_blocks == 0);
}

static void test_every_failure_is_clean(void)
{
    budget probe = {0};
    steer_set_allocator(counting_alloc, counting_free, &probe);
    scene();
    steer_set_allocator(NULL, NULL, NULL);
    int failures_seen = 0;
    for (long n = 1; n <= probe.calls; ++n) {
        budget b = {0};
        b.fail_at = n;
        steer_set_allocator(counting_alloc, counting_free, &b);
        failures_seen += !scene();
        steer_set_allocator(NULL, NULL, NULL);
        CHECK(b.live_blocks == 0 && b.live_bytes == 0); // nothing leaked
        CHECK(!b.size_mismatch);
    }
    CHECK(failures_seen > 0);
}

// A memory account: what a thread allocates while it is set is charged to
// it, given back when freed (whatever account is set then), and refused
// past the cap with the flag set.
static void test_memory_account(void)
{
    steer_memory_account a = {0}, other = {0};
    CHECK(steer_set_memory_account(&a) == NULL);
    CHECK(scene());
    CHECK(a.bytes == 0 && !a.refused); // all freed again
    void *p = steer_alloc(1000);
    CHECK(p != NULL && a.bytes >= 1000);
    CHECK(steer_set_memory_account(&other) == &a);
    void *q = steer_alloc(10);
    size_t other_held = other.bytes;
    CHECK(other_held >= 10);
    steer_free(p); // back to a, not to the one set now
    CHECK(a.bytes == 0 && other.bytes == other_held);
    steer_free(q);
    CHECK(other.bytes == 0);
    // the cap: a scene that needs more fails cleanly, leaving nothing charged
    a.cap = 4096;
    steer_set_memory_account(&a);
    CHECK(!scene() && a.refused && a.bytes == 0);
    a.refused = false;
    CHECK(steer_alloc(8192) == NULL && a.refused && a.bytes == 0);
    a.refused = false;
    int made = 0;
    for (int i = 0; i < 4; ++i) {
        void *r = steer_alloc(512);
        if (r != NULL) ++made, steer_free(r);
    }
    CHECK(made == 4 && !a.refused);
    steer_set_memory_account(NULL);
    void *free_of_charge = steer_alloc(8192);
    CHECK(free_of_charge != NULL && a.bytes == 0);
    steer_free(free_of_charge);
}

// Before refusing for the cap, the account's reclaim runs once (not from
// inside itself); what it frees lets the allocation through.
static void *held;
static int reclaims;
static void free_held(steer_memory_account *a, size_t needed, void *context)
{
    CHECK(context == &held && needed > 2048 && a->reclaim == NULL);
    ++reclaims;
    CHECK(steer_alloc(8192) == NULL && a->refused); // no reclaim inside reclaim
    a->refused = false;
    steer_free(held);
    held = NULL;
}

static void test_memory_account_reclaim(void)
{
    steer_memory_account a = {.cap = 4096, .reclaim = free_held, .reclaim_context = &held};
    steer_set_memory_account(&a);
    held = steer_alloc(2048);
    CHECK(held != NULL);
    void *p = steer_alloc(2048); // over the cap with held: reclaim frees it
    CHECK(p != NULL && held == NULL && reclaims == 1 && !a.refused && a.reclaim == free_held);
    CHECK(steer_alloc(4096) == NULL && a.refused && reclaims == 2); // nothing more to free
    steer_free(p);
    steer_set_memory_account(NULL);
    CHECK(a.bytes == 0);
}

int main(void)
{
    steer_set_assert_fn(counting_assert, &asserts);
    RUN(test_hook_sees_every_allocation);
    RUN(test_every_failure_is_clean);
    RUN(test_memory_account);
    RUN(test_memory_account_reclaim);
    return TEST_RESULT();
}
