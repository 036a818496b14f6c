// The shape of behaviour trees: per-node memory at a fixed place decided by
// the tree's shape, kept node by node across a change of tree; the limits
// (depth, nodes, memory) held however a tree is built, in linear time.
#include <string.h>

#include "behaviour.h"
#include "fixture.h"
#include "test.h"

static assert_counter asserts;

/// A callback behaviour that steers only while *on (the notes' "goes quiet").
typedef struct switchable {
    bool on;
} switchable;

static steer_callback_result switch_callback(steer_world *w, steer_agent_id a, float dt, steer_steering *out,
                                             void *context)
{
    (void)w;
    (void)a;
    (void)dt;
    const switchable *s = context;
    if (!s->on) return STEER_CALLBACK_NONE;
    // both channels, so that a priority stops here (it arbitrates each)
    out->linear = steer_v2(1.0f, 0.0f);
    out->angular = 0.5f;
    return STEER_CALLBACK_STEERING;
}

static steer_behaviour *make_switch(switchable *s)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_CALLBACK);
    d.callback = switch_callback;
    d.context = s;
    return steer_behaviour_create(&d);
}

static steer_path *square_path(void)
{
    steer_vec2 pts[] = {{0, 0}, {20, 0}, {20, 20}, {0, 20}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts;
    pd.count = 4;
    pd.loop = true;
    return steer_path_create(&pd);
}

// The case: blend{ priority{ callback, wander }, follow_path }. When
// the callback goes quiet, wander runs; follow_path's progress must stay
// follow_path's, and wander's angle wander's.
static void test_priority_skipping_keeps_memory(void)
{
    steer_world *w = make_world(3);
    switchable sw = {true};
    steer_behaviour *wander = make(def_of(STEER_WANDER));
    steer_behaviour *prio = make_combinator(STEER_PRIORITY, (steer_behaviour *[]){make_switch(&sw), wander}, NULL, 2);
    steer_path *path = square_path();
    steer_behaviour_def fd = def_of(STEER_FOLLOW_PATH);
    fd.path = path;
    steer_behaviour *follow = make(fd);
    steer_behaviour *top = make_combinator(STEER_BLEND, (steer_behaviour *[]){prio, follow}, NULL, 2);
    CHECK(steer_behaviour_tree_memory(top) == 2);
    steer_agent_def ad = steer_default_agent_def();
    ad.state.position = steer_v2(5.0f, 1.0f);
    ad.behaviour = top;
    steer_agent_id a = steer_agent_create(w, &ad);
    // wander's place is 0 (under the priority), follow_path's is 1
    for (int i = 0; i < 30; ++i) steer_world_step(w, 1.0f / 60.0f);
    float progress = memory_of(w, a, 1);
    CHECK(progress > 0.0f); // follow_path ran and kept its parameter + 1
    CHECK(memory_of(w, a, 0) == 0.0f); // wander has not run yet
    sw.on = false;
    steer_world_step(w, 1.0f / 60.0f);
    float wander_angle = memory_of(w, a, 0);
    // follow_path's progress moved on from where it was, not from wander's angle
    CHECK(memory_of(w, a, 1) >= progress - 0.01f && memory_of(w, a, 1) < progress + 1.0f);
    CHECK(wander_angle != 0.0f);
    sw.on = true; // wander quiet again: its angle waits where it was
    for (int i = 0; i < 10; ++i) steer_world_step(w, 1.0f / 60.0f);
    CHECK(memory_of(w, a, 0) == wander_angle);
    steer_behaviour_release(top);
    steer_path_release(path);
    steer_world_destroy(w);
}

// Random trees of blends and priorities over stateful leaves and callbacks
// that go quiet at random: the memory of a node never changes while the node
// does not run (skipping branches never moves another node's memory).
typedef struct tree_probe {
    test_rng rng;
    int quiet_permille;
} tree_probe;

static steer_callback_result random_quiet(steer_world *w, steer_agent_id a, float dt, steer_steering *out,
                                          void *context)
{
    (void)w;
    (void)a;
    (void)dt;
    tree_probe *p = context;
    if (rng_int(&p->rng, 1000) < p->quiet_permille) return STEER_CALLBACK_NONE;
    out->linear = steer_v2(2.0f, 0.0f);
    out->angular = 0.1f;
    return STEER_CALLBACK_STEERING;
}

static steer_behaviour *random_tree(test_rng *r, tree_probe *probe, steer_path *path, int depth)
{
    int kind = depth >= 3 ? 2 + rng_int(r, 3) : rng_int(r, 5);
    if (kind < 2) {
        int n = 1 + rng_int(r, 3);
        steer_behaviour *c[3];
        for (int i = 0; i < n; ++i) c[i] = random_tree(r, probe, path, depth + 1);
        return make_combinator(kind == 0 ? STEER_BLEND : STEER_PRIORITY, c, NULL, n);
    }
    if (kind == 2) return make(def_of(STEER_WANDER));
    if (kind == 3) {
        steer_behaviour_def d = def_of(STEER_FOLLOW_PATH);
        d.path = path;
        return make(d);
    }
    steer_behaviour_def d = steer_default_behaviour_def(STEER_CALLBACK);
    d.callback = random_quiet;
    d.context = probe;
    return steer_behaviour_create(&d);
}

// Which memory floats a node "owns" in the unfolded tree: a map from float
// to the leaf's position in depth-first order, built from the shape.
static void owners(const steer_behaviour *b, int base, int *owner, int *leaf)
{
    if (steer_behaviour_child_count(b) == 0) {
        if (steer__behaviour_type_memory(steer_behaviour_get_type(b)) > 0) owner[base] = *leaf;
        ++*leaf;
        return;
    }
    int offset = base;
    for (int i = 0; i < steer_behaviour_child_count(b); ++i) {
        const steer_behaviour *c = steer_behaviour_get_child(b, i).behaviour;
        owners(c, offset, owner, leaf);
        offset += steer_behaviour_tree_memory(c);
    }
}

static void test_random_trees_memory_stays_put(void)
{
    test_rng r = {77};
    steer_path *path = square_path();
    int trees = 0, skipped_steps = 0;
    for (int t = 0; t < 60; ++t) {
        tree_probe probe = {{(uint64_t)t + 1}, 500};
        steer_behaviour *b = random_tree(&r, &probe, path, 0);
        if (b == NULL) continue; // past the memory limit: refused, fine
        ++trees;
        int owner[STEER_MAX_TREE_MEMORY], leaf = 0;
        for (int k = 0; k < STEER_MAX_TREE_MEMORY; ++k) owner[k] = -1;
        owners(b, 0, owner, &leaf);
        // every float of the tree's memory has exactly one stateful owner
        for (int k = 0; k < steer_behaviour_tree_memory(b); ++k) CHECK(owner[k] >= 0);
        steer_world *w = make_world(5);
        steer_agent_def ad = steer_default_agent_def();
        ad.state.position = steer_v2(3.0f, 2.0f);
        ad.behaviour = b;
        steer_agent_id a = steer_agent_create(w, &ad);
        float before[STEER_MAX_TREE_MEMORY];
        for (int s = 0; s < 40; ++s) {
            for (int k = 0; k < STEER_MAX_TREE_MEMORY; ++k) before[k] = memory_of(w, a, k);
            steer_world_step(w, 1.0f / 30.0f);
            // floats outside the tree's memory are never written
            for (int k = steer_behaviour_tree_memory(b); k < STEER_MAX_TREE_MEMORY; ++k) CHECK(memory_of(w, a, k) == 0.0f);
            for (int k = 0; k < steer_behaviour_tree_memory(b); ++k) skipped_steps += memory_of(w, a, k) == before[k];
        }
        steer_behaviour_release(b);
        steer_world_destroy(w);
    }
    CHECK(trees > 40);
    CHECK(skipped_steps > 100); // branches were skipped, and their memory stayed
    steer_path_release(path);
}

// A change of tree keeps memory node by node: same place and type keeps it.
static void test_reload_keeps_memory_by_node(void)
{
    steer_world *w = make_world(9);
    steer_path *path = square_path();
    steer_behaviour_def fd = def_of(STEER_FOLLOW_PATH);
    fd.path = path;
    steer_behaviour *v1 = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(def_of(STEER_WANDER)), make(fd)}, NULL, 2);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = v1;
    steer_agent_id a = steer_agent_create(w, &ad);
    for (int i = 0; i < 20; ++i) steer_world_step(w, 1.0f / 60.0f);
    float angle = memory_of(w, a, 0), progress = memory_of(w, a, 1);
    CHECK(angle != 0.0f && progress > 0.0f);
    // same shape, a new parameter: both kept
    steer_behaviour_def wd = def_of(STEER_WANDER);
    wd.wander_rate = 0.1f;
    steer_behaviour *v2 = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(wd), make(fd)}, NULL, 2);
    steer_agent_set_behaviour(w, a, v2, true);
    CHECK(memory_of(w, a, 0) == angle && memory_of(w, a, 1) == progress);
    // a seek inserted in front: the stateful nodes moved place, types differ
    // where they were, so they start fresh
    steer_behaviour *v3 = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(def_at(STEER_SEEK, 1, 1)), make(wd), make(fd)}, NULL, 3);
    steer_agent_set_behaviour(w, a, v3, true);
    CHECK(memory_of(w, a, 0) == 0.0f && memory_of(w, a, 1) == 0.0f);
    // without keep_memory: all fresh
    steer_world_step(w, 1.0f / 60.0f);
    steer_agent_set_behaviour(w, a, v2, false);
    CHECK(memory_of(w, a, 0) == 0.0f && memory_of(w, a, 1) == 0.0f);
    steer_behaviour_release(v1);
    steer_behaviour_release(v2);
    steer_behaviour_release(v3);
    steer_path_release(path);
    steer_world_destroy(w);
}

// Issue 9, finding 1: the depth limit holds when a chain is grown from the
// bottom through set_children, one level at a time.
static void test_depth_limit_through_set_children(void)
{
    asserts.count = 0;
    steer_behaviour *top = make_combinator(STEER_BLEND, NULL, NULL, 0);
    steer_behaviour *b = top;
    int levels = 1;
    for (int i = 0; i < 20000; ++i) {
        steer_behaviour *nb = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(def_at(STEER_SEEK, 1, 0))}, NULL, 1);
        steer_child c = {nb, 1.0f};
        bool ok = steer_behaviour_set_children(b, &c, 1);
        steer_behaviour_release(nb);
        if (!ok) break;
        b = nb;
        ++levels;
    }
    CHECK(asserts.count == 1 && strstr(asserts.last, "would nest more than 200 levels deep") != NULL);
    CHECK(levels == 199);
    CHECK(steer_behaviour_tree_depth(top) == 200); // 199 blends and the seek
    // it evaluates and releases without deep recursion trouble
    steer_world *w = make_world(1);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = top;
    steer_agent_create(w, &ad);
    steer_world_step(w, 1.0f / 60.0f);
    steer_world_destroy(w);
    steer_behaviour_release(top);
}

// Issue 9, finding 2: shared sub-trees. 30 doublings took 28 s; the checks
// are linear and the unfolded size is bounded.
static void test_shared_subtrees_are_linear_and_bounded(void)
{
    asserts.count = 0;
    steer_behaviour *b = make(def_at(STEER_SEEK, 1, 0));
    int doublings = 0;
    for (int k = 0; k < 30; ++k) {
        steer_child c[2] = {{b, 1.0f}, {b, 1.0f}};
        steer_behaviour_def d = def_of(STEER_BLEND);
        d.children = c;
        d.child_count = 2;
        steer_behaviour *nb = steer_behaviour_create(&d);
        if (nb == NULL) break;
        steer_behaviour_release(b);
        b = nb;
        ++doublings;
    }
    CHECK(doublings == 9); // 2^10 - 1 = 1023 nodes; the next would be 2047
    CHECK(steer_behaviour_tree_nodes(b) == 1023);
    CHECK(asserts.count == 1 && strstr(asserts.last, "more than 1024 nodes") != NULL);
    // contains is one walk: a leaf is found inside, the top is not inside the leaf
    const steer_behaviour *leaf = b;
    while (steer_behaviour_child_count(leaf) > 0) leaf = steer_behaviour_get_child(leaf, 0).behaviour;
    CHECK(steer_behaviour_contains(b, leaf) && !steer_behaviour_contains(leaf, b));
    // reshaping a shared node deep inside updates every ancestor once
    steer_behaviour *mid = (steer_behaviour *)steer_behaviour_get_child(b, 0).behaviour;
    steer_behaviour *deepest = (steer_behaviour *)steer_behaviour_get_child(steer_behaviour_get_child(mid, 0).behaviour, 0).behaviour;
    steer_child none[1];
    CHECK(steer_behaviour_set_children(deepest, none, 0));
    // every path goes through the shared nodes: b, mid, its child, then deepest as a leaf
    CHECK(steer_behaviour_tree_nodes(b) == 15 && steer_behaviour_tree_depth(b) == 4);
    // a cycle through sharing is refused
    steer_child up = {b, 1.0f};
    asserts.count = 0;
    CHECK(!steer_behaviour_set_children(deepest, &up, 1));
    CHECK(asserts.count == 1 && strstr(asserts.last, "would contain itself") != NULL);
    steer_behaviour_release(b);
}

static void test_memory_limit(void)
{
    asserts.count = 0;
    steer_behaviour *w[STEER_MAX_TREE_MEMORY + 1];
    for (int i = 0; i <= STEER_MAX_TREE_MEMORY; ++i) w[i] = make(def_of(STEER_WANDER));
    steer_behaviour *ok = make_combinator(STEER_BLEND, w, NULL, STEER_MAX_TREE_MEMORY - 1);
    CHECK(ok != NULL && steer_behaviour_tree_memory(ok) == STEER_MAX_TREE_MEMORY - 1);
    // one more wander fits, two do not
    steer_child c[3] = {{ok, 1}, {w[STEER_MAX_TREE_MEMORY - 1], 1}, {w[STEER_MAX_TREE_MEMORY], 1}};
    char buf[160];
    CHECK(steer_behaviour_check_children(NULL, c, 2, buf, sizeof buf) == NULL);
    const char *e = steer_behaviour_check_children(NULL, c, 3, buf, sizeof buf);
    CHECK(e != NULL && strstr(e, "more than 8 floats of per-agent memory") != NULL);
    steer_behaviour_def d = def_of(STEER_BLEND);
    d.children = c;
    d.child_count = 3;
    CHECK(steer_behaviour_create(&d) == NULL && asserts.count == 1);
    steer_behaviour_release(ok);
    steer_behaviour_release(w[STEER_MAX_TREE_MEMORY - 1]);
    steer_behaviour_release(w[STEER_MAX_TREE_MEMORY]);
}

int main(void)
{
    steer_set_assert_fn(counting_assert, &asserts);
    RUN(test_priority_skipping_keeps_memory);
    RUN(test_random_trees_memory_stays_put);
    RUN(test_reload_keeps_memory_by_node);
    RUN(test_depth_limit_through_set_children);
    RUN(test_shared_subtrees_are_linear_and_bounded);
    RUN(test_memory_limit);
    return TEST_RESULT();
}
