// test_debug_draw.c: steer_world_draw reports what a scene holds, counted by
// a draw struct whose callbacks only count; tracing records each node.
#include <string.h>

#include "steer/steer.h"
#include "test.h"

typedef struct counts {
    int segments, polygons, circles, solid_circles, points, arrows, transforms;
    int circle_radius_1; // circles of radius 1 (the wander circle below)
    int red_segments;    // rays that hit (0xff4040ff)
    int child_arrows[2]; // arrows in the colours of blend children 0 and 1
} counts;

static void on_segment(steer_vec2 p, steer_vec2 q, steer_color c, void *ctx)
{
    (void)p, (void)q;
    counts *n = ctx;
    ++n->segments;
    n->red_segments += c == 0xff4040ffu;
}
static void on_polygon(const steer_vec2 *p, int count, steer_color c, void *ctx)
{
    (void)p, (void)c;
    counts *n = ctx;
    n->polygons += count >= 3;
}
static void on_circle(steer_vec2 center, float radius, steer_color c, void *ctx)
{
    (void)center, (void)c;
    counts *n = ctx;
    ++n->circles;
    n->circle_radius_1 += radius == 1.0f;
}
static void on_solid_circle(steer_vec2 center, float radius, float orientation, steer_color c, void *ctx)
{
    (void)center, (void)radius, (void)orientation, (void)c;
    ++((counts *)ctx)->solid_circles;
}
static void on_point(steer_vec2 p, float size, steer_color c, void *ctx)
{
    (void)p, (void)size, (void)c;
    ++((counts *)ctx)->points;
}
static void on_arrow(steer_vec2 o, steer_vec2 v, steer_color c, void *ctx)
{
    (void)o, (void)v;
    counts *n = ctx;
    ++n->arrows;
    for (int k = 0; k < 2; ++k) n->child_arrows[k] += c == steer_debug_child_color(k);
}

static void on_transform(steer_vec2 p, float orientation, void *ctx)
{
    (void)p, (void)orientation;
    ++((counts *)ctx)->transforms;
}

static steer_debug_draw counting_draw(counts *n, uint32_t flags)
{
    memset(n, 0, sizeof *n);
    steer_debug_draw d = steer_default_debug_draw();
    d.draw_segment = on_segment;
    d.draw_polygon = on_polygon;
    d.draw_circle = on_circle;
    d.draw_solid_circle = on_solid_circle;
    d.draw_point = on_point;
    d.draw_arrow = on_arrow;
    d.draw_transform = on_transform;
    d.flags = flags;
    d.context = n;
    return d;
}

static steer_behaviour *make(steer_behaviour_type type)
{
    steer_behaviour_def d = steer_default_behaviour_def(type);
    return steer_behaviour_create(&d);
}

static void test_shapes_agents_paths(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_world_add_segment(w, steer_v2(0, 0), steer_v2(10, 0));
    steer_vec2 chain[3] = {{0, 5}, {5, 5}, {5, 10}};
    steer_world_add_polyline(w, chain, 3, false); // 2 segments
    steer_world_add_circle(w, steer_v2(20, 20), 2.0f);
    steer_world_add_box(w, steer_v2(30, 30), steer_v2(32, 32));
    steer_vec2 tri[3] = {{40, 40}, {42, 40}, {41, 42}};
    steer_world_add_polygon(w, tri, 3);
    steer_vec2 pts[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts, pd.count = 4, pd.loop = true;
    steer_path *path = steer_path_create(&pd);
    steer_behaviour *follow = make(STEER_FOLLOW_PATH);
    steer_behaviour_set_path(follow, path);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = follow;
    for (int i = 0; i < 3; ++i) steer_agent_create(w, &ad); // one path, shared by three agents
    counts n;
    steer_debug_draw d = counting_draw(&n, STEER_DRAW_SHAPES);
    steer_world_draw(w, &d);
    CHECK(n.segments == 3);
    CHECK(n.solid_circles == 1);
    CHECK(n.polygons == 2);
    d = counting_draw(&n, STEER_DRAW_PATHS);
    steer_world_draw(w, &d);
    CHECK(n.segments == 4); // the looped square, drawn once
    d = counting_draw(&n, STEER_DRAW_AGENTS);
    steer_world_draw(w, &d);
    CHECK(n.solid_circles == 3);
    CHECK(n.transforms == 3);
    CHECK(n.arrows == 0); // nothing traced
    steer_world_destroy(w);
    steer_behaviour_release(follow);
    steer_path_release(path);
}

static void test_traced_blend_and_priority(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *seek = make(STEER_SEEK);
    steer_target t = {STEER_TARGET_POINT, {10.0f, 0.0f}, steer_null_agent};
    steer_behaviour_set_target(seek, t);
    steer_behaviour *wander = make(STEER_WANDER);
    steer_behaviour *sep = make(STEER_SEPARATION);
    steer_child kids[3] = {{seek, 2.0f}, {wander, 0.5f}, {sep, 1.0f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids, bd.child_count = 3;
    steer_behaviour *blend = steer_behaviour_create(&bd);
    // priority: separation (nothing near: no steering) then the blend
    steer_child groups[2] = {{sep, 1.0f}, {blend, 1.0f}};
    steer_behaviour_def pd = steer_default_behaviour_def(STEER_PRIORITY);
    pd.children = groups, pd.child_count = 2;
    steer_behaviour *prio = steer_behaviour_create(&pd);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = prio;
    steer_agent_id traced = steer_agent_create(w, &ad);
    ad.state.position = steer_v2(100.0f, 100.0f);
    steer_agent_id plain = steer_agent_create(w, &ad);
    CHECK(!steer_agent_get_trace(w, traced));
    CHECK(steer_agent_set_trace(w, traced, true));
    CHECK(steer_agent_trace_node_count(w, traced) == 0); // no traced step yet
    steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_agent_trace_node_count(w, plain) == 0);
    // priority, separation, blend, seek, wander, separation
    CHECK(steer_agent_trace_node_count(w, traced) == 6);
    steer_trace_node n0, n3, n4, n5;
    CHECK(steer_agent_trace_node(w, traced, 0, &n0));
    CHECK(n0.type == STEER_PRIORITY && n0.parent == -1 && n0.depth == 0);
    CHECK(n0.winner_linear == 1 && !n0.fallback_linear); // the first group gave nothing
    CHECK(steer_agent_trace_node(w, traced, 3, &n3));
    CHECK(n3.type == STEER_SEEK && n3.parent == 2 && n3.depth == 2 && n3.weight == 2.0f && n3.has_output);
    CHECK_NEAR(n3.output.linear.x, 10.0, 1e-5); // full max_acceleration towards +x
    CHECK(steer_agent_trace_node(w, traced, 4, &n4));
    CHECK(n4.type == STEER_WANDER && n4.weight == 0.5f && n4.child_index == 1);
    CHECK(steer_agent_trace_node(w, traced, 5, &n5));
    CHECK(n5.type == STEER_SEPARATION && !n5.has_output);
    CHECK(!steer_agent_trace_truncated(w, traced));

    counts n;
    steer_debug_draw d = counting_draw(&n, STEER_DRAW_VELOCITY | STEER_DRAW_STEERING | STEER_DRAW_TREE);
    steer_world_draw(w, &d);
    // velocity + final steering + priority group 1 (the blend) + seek and wander in the blend
    CHECK(n.arrows == 5);
    // the blend's children in the public palette (inspectors use the same)
    CHECK(n.child_arrows[0] == 1 && n.child_arrows[1] == 1);
    d = counting_draw(&n, STEER_DRAW_MARKS);
    steer_world_draw(w, &d);
    CHECK(n.circle_radius_1 == 1); // the wander circle (default radius 1)
    CHECK(n.points == 1);          // its target
    CHECK(n.circles == 3);         // and separation's radius, twice (two nodes)

    // the trace does not change the simulation: a twin world without it matches
    CHECK(steer_agent_set_trace(w, traced, false));
    CHECK(steer_agent_trace_node_count(w, traced) == 0);
    steer_world_destroy(w);
    steer_behaviour_release(prio);
    steer_behaviour_release(blend);
    steer_behaviour_release(sep);
    steer_behaviour_release(wander);
    steer_behaviour_release(seek);
}

static void test_rays(void)
{
    steer_world_def wd = steer_default_world_def();
    steer_world *w = steer_world_create(&wd);
    steer_world_add_segment(w, steer_v2(3.0f, -5.0f), steer_v2(3.0f, 5.0f)); // a wall ahead
    steer_behaviour_def od = steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE);
    od.rays = STEER_RAYS_WHISKERS;
    steer_behaviour *avoid = steer_behaviour_create(&od);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = avoid;
    ad.state.velocity = steer_v2(4.0f, 0.0f);
    steer_agent_id a = steer_agent_create(w, &ad);
    steer_agent_set_trace(w, a, true);
    steer_world_step(w, 1.0f / 60.0f);
    counts n;
    steer_debug_draw d = counting_draw(&n, STEER_DRAW_RAYS);
    steer_world_draw(w, &d);
    CHECK(n.segments == 3);      // centre and two whiskers
    CHECK(n.red_segments >= 1);  // the centre ray hits the wall
    CHECK(n.points == n.red_segments && n.arrows == n.red_segments); // hit point and normal per hit
    steer_world_destroy(w);
    steer_behaviour_release(avoid);
}

// Tracing records, it does not steer: the same scene with and without it
// ends in the same state.
static void test_trace_changes_nothing(void)
{
    uint64_t hash[2];
    for (int traced = 0; traced < 2; ++traced) {
        steer_world_def wd = steer_default_world_def();
        steer_world *w = steer_world_create(&wd);
        steer_behaviour *wander = make(STEER_WANDER);
        steer_behaviour *sep = make(STEER_SEPARATION);
        steer_child kids[2] = {{wander, 1.0f}, {sep, 3.0f}};
        steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
        bd.children = kids, bd.child_count = 2;
        steer_behaviour *blend = steer_behaviour_create(&bd);
        steer_agent_def ad = steer_default_agent_def();
        ad.behaviour = blend;
        for (int i = 0; i < 50; ++i) {
            ad.state.position = steer_v2((float)(i % 7), (float)(i / 7));
            steer_agent_id id = steer_agent_create(w, &ad);
            if (traced) steer_agent_set_trace(w, id, true);
        }
        for (int s = 0; s < 100; ++s) steer_world_step(w, 1.0f / 60.0f);
        hash[traced] = steer_world_hash(w);
        steer_world_destroy(w);
        steer_behaviour_release(blend);
        steer_behaviour_release(sep);
        steer_behaviour_release(wander);
    }
    CHECK(hash[0] == hash[1]);
}

// Traced agents' records are kept in step order (trace.c): with two
// workers and agents stored in another order than the grid's, each agent
// reads back its own evaluation; turning tracing on for one more agent
// (the records grow) keeps the others' until the next step.
static void test_trace_records_per_agent(void)
{
    enum { N = 300, TRACED = 128 };
    steer_world_def wd = steer_default_world_def();
    wd.worker_count = 2;
    steer_world *w = steer_world_create(&wd);
    steer_agent_id ids[N];
    steer_vec2 goal[N];
    for (int i = 0; i < N; ++i) {
        // spawn order far from grid order
        int k = (i * 7919) % N;
        steer_behaviour *seek = make(STEER_SEEK);
        goal[i] = steer_v2((float)(k % 17) * 3.0f - 20.0f, (float)(k / 17) * 2.0f - 15.0f);
        steer_target t = {STEER_TARGET_POINT, goal[i], steer_null_agent};
        steer_behaviour_set_target(seek, t);
        steer_agent_def ad = steer_default_agent_def();
        ad.behaviour = seek;
        ad.state.position = steer_v2((float)(k % 20) * 1.5f, (float)(k / 20) * 1.5f);
        ids[i] = steer_agent_create(w, &ad);
        steer_behaviour_release(seek);
    }
    for (int i = 0; i < TRACED; ++i) CHECK(steer_agent_set_trace(w, ids[2 * i], true));
    steer_world_step(w, 1.0f / 60.0f);
    int wrong = 0;
    for (int i = 0; i < N; ++i) {
        bool traced = i % 2 == 0 && i / 2 < TRACED;
        if (!traced) {
            wrong += steer_agent_trace_node_count(w, ids[i]) != 0;
            continue;
        }
        steer_trace_node node;
        wrong += steer_agent_trace_node_count(w, ids[i]) != 1 || !steer_agent_trace_node(w, ids[i], 0, &node);
        // seek: full max_acceleration (10) towards its own goal, from where it was
        steer_vec2 p = steer_agent_get_position(w, ids[i]);
        steer_vec2 v = steer_agent_get_velocity(w, ids[i]);
        steer_vec2 before = steer_sub(p, steer_scale(v, 1.0f / 60.0f));
        steer_vec2 expect = steer_scale(steer_normalize(steer_sub(goal[i], before)), 10.0f);
        wrong += node.type != STEER_SEEK || steer_length(steer_sub(node.output.linear, expect)) > 1e-3f;
    }
    CHECK(wrong == 0);
    // one more traced agent: the records grow (128 -> 256), the others' stay
    steer_trace_node before0, after0;
    CHECK(steer_agent_trace_node(w, ids[0], 0, &before0));
    CHECK(steer_agent_set_trace(w, ids[1], true));
    CHECK(steer_agent_trace_node_count(w, ids[1]) == 0); // no traced step yet
    CHECK(steer_agent_trace_node(w, ids[0], 0, &after0));
    CHECK(after0.output.linear.x == before0.output.linear.x && after0.output.linear.y == before0.output.linear.y);
    steer_world_step(w, 1.0f / 60.0f);
    CHECK(steer_agent_trace_node_count(w, ids[1]) == 1);
    steer_world_destroy(w);
}

// The blend-child palette: 8 distinct colours, repeating.
static void test_child_palette(void)
{
    for (int i = 0; i < 8; ++i) {
        CHECK(steer_debug_child_color(i) == steer_debug_child_color(i + 8));
        for (int j = 0; j < i; ++j) CHECK(steer_debug_child_color(i) != steer_debug_child_color(j));
    }
}

int main(void)
{
    RUN(test_shapes_agents_paths);
    RUN(test_traced_blend_and_priority);
    RUN(test_rays);
    RUN(test_trace_changes_nothing);
    RUN(test_trace_records_per_agent);
    RUN(test_child_palette);
    return TEST_RESULT();
}
