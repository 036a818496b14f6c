// The mid-step rules (docs/engine.md): while a world steps, or a preview
// (steer_behaviour_get_steering) runs, every change to that world, its
// agents and shapes, and to any behaviour or path, is refused through the
// assert hook and leaves everything as it was. A C callback behaviour that
// tries them all must not crash (ASan) and must not change the run.
#include <string.h>

#include "fixture.h"
#include "test.h"

static assert_counter asserts;

typedef struct meddler {
    steer_behaviour *tree;   ///< the tree being evaluated (a blend holding this callback)
    steer_behaviour *other;  ///< a behaviour no agent uses
    steer_path *path;
    steer_agent_id victim;
    steer_shape_id wall;
    int attempts;
} meddler;

static steer_callback_result meddle(steer_world *w, steer_agent_id self, float dt, steer_steering *out,
                                    void *context)
{
    (void)dt;
    meddler *m = context;
    int before = asserts.count;
    // the crash: emptying the blend being evaluated
    steer_behaviour_set_children(m->tree, NULL, 0);
    steer_behaviour_set_children(m->other, NULL, 0);
    steer_behaviour_set_param(m->other, steer_behaviour_find_param(STEER_BLEND, "epsilon"), 1.0);
    steer_behaviour_set_target(m->other, point_target(1, 1));
    steer_behaviour_set_path(m->other, m->path);
    steer_world_set_cell_size(w, 2.0f);
    steer_world_set_integrator(w, STEER_INTEGRATOR_NEWTON);
    steer_world_set_resolve_contacts(w, true);
    steer_agent_set_face_velocity(w, self, true);
    steer_agent_set_kinematic(w, self, true);
    steer_agent_set_position(w, m->victim, steer_v2(9, 9));
    steer_agent_set_color(w, m->victim, 0xff0000ffu);
    steer_agent_set_behaviour(w, self, NULL, false);
    steer_agent_destroy(w, m->victim);
    steer_agent_def ad = steer_default_agent_def();
    steer_agent_create(w, &ad);
    steer_world_add_circle(w, steer_v2(0, 0), 1.0f);
    steer_shape_destroy(w, m->wall);
    steer_shape_set_category(w, m->wall, 2);
    steer_world_step(w, 0.1f);
    m->attempts += asserts.count - before;
    // reading is fine
    steer_ray_hit hit;
    steer_world_raycast(w, steer_v2(-5, 5), steer_v2(1, 0), 20.0f, NULL, &hit);
    out->linear = steer_v2(1.0f, 0.0f);
    out->angular = 0.0f;
    return STEER_CALLBACK_STEERING;
}

static void check_refusals(bool preview)
{
    asserts.count = 0;
    steer_world *w = make_world(2);
    steer_vec2 pts[] = {{0, 0}, {5, 0}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts;
    pd.count = 2;
    meddler m = {0};
    m.path = steer_path_create(&pd);
    m.other = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(def_at(STEER_SEEK, 1, 0))}, NULL, 1);
    steer_behaviour_def cd = steer_default_behaviour_def(STEER_CALLBACK);
    cd.callback = meddle;
    cd.context = &m;
    m.tree = make_combinator(STEER_BLEND, (steer_behaviour *[]){steer_behaviour_create(&cd), make(def_at(STEER_SEEK, 5, 0))}, NULL, 2);
    m.wall = steer_world_add_segment(w, steer_v2(-10, 5), steer_v2(10, 5));
    m.victim = spawn(w, 3, 0, 0, 0);
    steer_agent_def ad = steer_default_agent_def();
    ad.behaviour = m.tree;
    steer_agent_id a = steer_agent_create(w, &ad);
    uint64_t hash = steer_world_hash(w);
    if (preview) {
        steer_steering s;
        CHECK(steer_behaviour_get_steering(m.tree, w, a, 0.1f, &s));
        CHECK(steer_world_hash(w) == hash); // a preview changes nothing
    } else {
        steer_world_step(w, 0.1f);
    }
    CHECK(m.attempts == 19); // every change refused
    CHECK(asserts.count == 19);
    CHECK(steer_agent_get_color(w, m.victim) == 0);
    // nothing changed that the meddler touched
    CHECK(steer_behaviour_child_count(m.tree) == 2 && steer_behaviour_child_count(m.other) == 1);
    CHECK(steer_behaviour_get_def(m.other)->epsilon == 1e-3f);
    CHECK(steer_world_get_cell_size(w) == 4.0f && steer_world_get_integrator(w) == STEER_INTEGRATOR_EULER);
    CHECK(!steer_world_get_resolve_contacts(w));
    CHECK(!steer_agent_get_face_velocity(w, a) && !steer_agent_get_kinematic(w, a));
    CHECK(steer_agent_get_behaviour(w, a) == m.tree);
    CHECK(steer_agent_is_valid(w, m.victim) && steer_world_agent_count(w) == 2);
    CHECK(steer_world_shape_count(w) == 1 && steer_shape_get_category(w, m.wall) == 1);
    CHECK(steer_world_step_count(w) == (preview ? 0u : 1u));
    CHECK(!steer_world_is_stepping(w));
    // and after the step, the same calls are accepted
    asserts.count = 0;
    CHECK(steer_behaviour_set_children(m.other, NULL, 0));
    steer_world_set_cell_size(w, 2.0f);
    steer_agent_set_face_velocity(w, a, true);
    CHECK(steer_agent_set_color(w, m.victim, 0xff0000ffu) && steer_agent_get_color(w, m.victim) == 0xff0000ffu);
    CHECK(asserts.count == 0 && steer_world_get_cell_size(w) == 2.0f && steer_agent_get_face_velocity(w, a));
    steer_behaviour_release(m.tree);
    steer_behaviour_release(m.other);
    steer_path_release(m.path);
    steer_world_destroy(w);
}

static void test_step_refuses_changes(void) { check_refusals(false); }
static void test_preview_refuses_changes(void) { check_refusals(true); }

int main(void)
{
    steer_set_assert_fn(counting_assert, &asserts);
    RUN(test_step_refuses_changes);
    RUN(test_preview_refuses_changes);
    return TEST_RESULT();
}
