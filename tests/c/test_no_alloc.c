// Once capacity is reached, a step allocates nothing: every behaviour family
// (neighbours, paths, wander memory, rays through geometry, combinators),
// contact resolution, and previews between steps.
#include "world.h"
#include "fixture.h"
#include "test.h"

static steer_behaviour *leaf(steer_behaviour_def d)
{
    steer_behaviour *b = steer_behaviour_create(&d);
    CHECK(b != NULL);
    return b;
}

static void steps_do_not_allocate(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = 5;
    wd.resolve_contacts = true;
    steer_world *w = steer_world_create(&wd);
    for (int i = 0; i < 20; ++i) steer_world_add_circle(w, steer_v2((float)(i % 5) * 8.0f - 16.0f, (float)(i / 5) * 8.0f - 12.0f), 1.0f);
    steer_world_add_segment(w, steer_v2(-30, 20), steer_v2(30, 20));
    steer_world_add_box(w, steer_v2(25, -5), steer_v2(28, 5));

    steer_vec2 pts[] = {{-20, -20}, {20, -20}, {20, 18}, {-20, 18}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts;
    pd.count = 4;
    pd.loop = true;
    steer_path *route = steer_path_create(&pd);

    steer_behaviour_def fp = steer_default_behaviour_def(STEER_FOLLOW_PATH);
    fp.path = route;
    steer_behaviour_def oa = steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE);
    oa.rays = STEER_RAYS_WHISKERS;
    steer_child flock[] = {
        {leaf(steer_default_behaviour_def(STEER_SEPARATION)), 2.0f},
        {leaf(steer_default_behaviour_def(STEER_COHESION)), 1.0f},
        {leaf(steer_default_behaviour_def(STEER_ALIGNMENT)), 1.0f},
        {leaf(steer_default_behaviour_def(STEER_COLLISION_AVOIDANCE)), 1.0f},
        {leaf(steer_default_behaviour_def(STEER_WANDER)), 0.5f},
        {leaf(fp), 1.0f},
    };
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = flock;
    bd.child_count = 6;
    steer_behaviour *blend = steer_behaviour_create(&bd);
    steer_child groups[] = {{leaf(oa), 1.0f}, {blend, 1.0f}};
    steer_behaviour_def pr = steer_default_behaviour_def(STEER_PRIORITY);
    pr.children = groups;
    pr.child_count = 2;
    steer_behaviour *brain = steer_behaviour_create(&pr);

    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = brain;
    steer_agent_id first = steer_null_agent;
    for (int i = 0; i < 500; ++i) {
        ad.state.position = steer_v2((float)(i % 25) * 1.5f - 18.0f, (float)(i / 25) * 1.5f - 15.0f);
        steer_agent_id a = steer_agent_create(w, &ad);
        if (i == 0) first = a;
    }
    steer_world_step(w, 1.0f / 60.0f); // lazy structures built on the first step

    unsigned long before = steer__allocations;
    CHECK(before > 0); // the counter does count (the world allocated)
    steer_steering s;
    steer_agent_id hits[16];
    for (int i = 0; i < 100; ++i) {
        steer_world_step(w, 1.0f / 60.0f);
        steer_behaviour_get_steering(brain, w, first, 1.0f / 60.0f, &s);
        steer_world_query(w, steer_v2(0, 0), 5.0f, hits, 16);
    }
    CHECK(steer__allocations == before);
    if (steer__allocations != before) fprintf(stderr, "  %lu allocations in 100 steps\n", steer__allocations - before);

    for (int i = 0; i < 6; ++i) steer_behaviour_release(flock[i].behaviour);
    steer_behaviour_release(groups[0].behaviour);
    steer_behaviour_release(blend);
    steer_behaviour_release(brain);
    steer_path_release(route);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(steps_do_not_allocate);
    return TEST_RESULT();
}
