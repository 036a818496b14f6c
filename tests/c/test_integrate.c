// Integration: the notes' Newton-Euler update (euler, and newton with the
// 0.5*a*t^2 terms), clamps, orientation wrap, drag, kinematic agents and
// face_velocity (the notes' getNewOrientation). A callback behaviour gives
// a fixed steering so the numbers are exact.
#include "fixture.h"
#include "test.h"

#define TOL 1e-5
static const double PI = 3.14159265358979323846;

typedef struct rig {
    steer_world *w;
    steer_agent_id a;
    fixed_output f;
    steer_behaviour *b;
} rig;

static void rig_init(rig *r, steer_integrator integrator, steer_kinematic state, steer_limits limits,
                     float lx, float ly, float angular)
{
    steer_world_def wd = steer_default_world_def();
    wd.integrator = integrator;
    r->w = steer_world_create(&wd);
    r->f = (fixed_output){{{lx, ly}, angular}, STEER_CALLBACK_STEERING, 0};
    r->b = make_fixed(&r->f);
    r->a = spawn_full(r->w, state, limits, r->b, 0);
}

static void rig_free(rig *r)
{
    steer_behaviour_release(r->b);
    steer_world_destroy(r->w);
}

static void euler(void)
{
    rig r;
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 1, 0, 0, 0.5f), test_limits(), 2, 0, 0.4f);
    CHECK(steer_world_get_integrator(r.w) == STEER_INTEGRATOR_EULER);
    steer_world_step(r.w, 0.5f);
    steer_kinematic k = steer_agent_get_state(r.w, r.a);
    // position += velocity*t = (0.5, 0); orientation += rotation*t = 0.25;
    // velocity += linear*t = (2, 0); rotation += angular*t = 0.5 + 0.2 = 0.7
    CHECK_VEC(k.position, 0.5, 0, TOL);
    CHECK_NEAR(k.orientation, 0.25, TOL);
    CHECK_VEC(k.velocity, 2, 0, TOL);
    CHECK_NEAR(k.rotation, 0.7, TOL);
    // second step: position (0.5,0) + (2,0)*0.5 = (1.5, 0); orientation 0.25 + 0.35 = 0.6;
    // velocity (3, 0); rotation 0.9
    steer_world_step(r.w, 0.5f);
    k = steer_agent_get_state(r.w, r.a);
    CHECK_VEC(k.position, 1.5, 0, TOL);
    CHECK_NEAR(k.orientation, 0.6, TOL);
    CHECK_VEC(k.velocity, 3, 0, TOL);
    CHECK_NEAR(k.rotation, 0.9, TOL);
    CHECK(steer_world_step_count(r.w) == 2);
    rig_free(&r);
}

static void newton(void)
{
    rig r;
    rig_init(&r, STEER_INTEGRATOR_NEWTON, kin(0, 0, 1, 0, 0, 0.5f), test_limits(), 2, 0, 0.4f);
    steer_world_step(r.w, 0.5f);
    steer_kinematic k = steer_agent_get_state(r.w, r.a);
    // position += velocity*t + 0.5*linear*t^2 = (0.5 + 0.25, 0) = (0.75, 0)
    // orientation += rotation*t + 0.5*angular*t^2 = 0.25 + 0.05 = 0.3
    // velocity and rotation as euler: (2, 0), 0.7
    CHECK_VEC(k.position, 0.75, 0, TOL);
    CHECK_NEAR(k.orientation, 0.3, TOL);
    CHECK_VEC(k.velocity, 2, 0, TOL);
    CHECK_NEAR(k.rotation, 0.7, TOL);
    rig_free(&r);
    // switching an existing world's integrator
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 0, 0), test_limits(), 0, 4, 0);
    steer_world_set_integrator(r.w, STEER_INTEGRATOR_NEWTON);
    steer_world_step(r.w, 0.5f);
    // 0.5 * (0,4) * 0.25 = (0, 0.5)
    CHECK_VEC(steer_agent_get_position(r.w, r.a), 0, 0.5, TOL);
    rig_free(&r);
}

static void clamps_and_wrap(void)
{
    rig r;
    // speed: velocity (1,0) + (20,0)*0.5 = (11,0) -> clamped to max_speed 5,
    // after the position moved with the old velocity: (0.5, 0)
    // rotation: 0.5 + 10*0.5 = 5.5 -> clamped to max_rotation pi
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 1, 0, 0, 0.5f), test_limits(), 20, 0, 10);
    steer_world_step(r.w, 0.5f);
    steer_kinematic k = steer_agent_get_state(r.w, r.a);
    CHECK_VEC(k.position, 0.5, 0, TOL);
    CHECK_VEC(k.velocity, 5, 0, TOL);
    CHECK_NEAR(k.rotation, PI, 1e-6);
    // a diagonal clamp keeps the direction: (0,0) + (30,40)*0.5 = (15,20) -> (3,4)
    rig_free(&r);
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 0, 0), test_limits(), 30, 40, -10);
    steer_world_step(r.w, 0.5f);
    k = steer_agent_get_state(r.w, r.a);
    CHECK_VEC(k.velocity, 3, 4, TOL);
    CHECK_NEAR(k.rotation, -PI, 1e-6);
    rig_free(&r);
    // orientation wraps into (-pi, pi]: 3 + 2*0.5 = 4 -> 4 - 2pi = -2.28319
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 3.0f, 2.0f), test_limits(), 0, 0, 0);
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), 4 - 2 * PI, 1e-5);
    // and keeps turning: -2.28319 + 1 = -1.28319
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), 5 - 2 * PI, 1e-5);
    rig_free(&r);
    // -pi itself is stored as pi
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, -STEER_PI, 0), test_limits(), 0, 0, 0);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), STEER_PI, 0);
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), STEER_PI, 0);
    rig_free(&r);
}

static void drag(void)
{
    rig r;
    steer_limits l = test_limits();
    l.drag = 1.0f;
    // velocity = ((0,0) + (2,0)*0.5) / (1 + 1*0.5) = (0.66667, 0)
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 0, 0), l, 2, 0, 0);
    steer_world_step(r.w, 0.5f);
    CHECK_VEC(steer_agent_get_velocity(r.w, r.a), 0.6666667, 0, TOL);
    rig_free(&r);
    // coasting: (3,0) / (1 + 2*0.25) = (2, 0); then (2,0)/1.5 = (1.3333, 0);
    // the position moves with the velocity before drag: 0.75, then 0.75 + 0.5
    l.drag = 2.0f;
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 3, 0, 0, 1.0f), l, 0, 0, 0);
    steer_world_step(r.w, 0.25f);
    CHECK_VEC(steer_agent_get_velocity(r.w, r.a), 2, 0, TOL);
    CHECK_VEC(steer_agent_get_position(r.w, r.a), 0.75, 0, TOL);
    steer_world_step(r.w, 0.25f);
    CHECK_VEC(steer_agent_get_velocity(r.w, r.a), 1.3333333, 0, TOL);
    CHECK_VEC(steer_agent_get_position(r.w, r.a), 1.25, 0, TOL);
    // drag is linear only: the rotation is untouched
    CHECK_NEAR(steer_agent_get_state(r.w, r.a).rotation, 1.0, 0);
    rig_free(&r);
    // no drag: a free agent keeps its velocity exactly
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 3, 0, 0, 0), test_limits(), 0, 0, 0);
    for (int i = 0; i < 10; ++i) steer_world_step(r.w, 0.25f);
    CHECK_VEC(steer_agent_get_velocity(r.w, r.a), 3, 0, 0);
    CHECK_VEC(steer_agent_get_position(r.w, r.a), 7.5, 0, TOL);
    rig_free(&r);
}

static void kinematic_agents(void)
{
    steer_world *w = make_world(1);
    steer_behaviour *seek = make(def_at(STEER_KINEMATIC_SEEK, 10, 0));
    steer_agent_def d = steer_default_agent_def();
    d.limits = test_limits();
    d.kinematic = true;
    d.behaviour = seek;
    steer_agent_id a = steer_agent_create(w, &d);
    CHECK(steer_agent_get_kinematic(w, a));
    // the output is the velocity: (5,0); position += (5,0)*0.5 = (2.5, 0);
    // rotation 0: the orientation stays 0 without face_velocity
    steer_world_step(w, 0.5f);
    steer_kinematic k = steer_agent_get_state(w, a);
    CHECK_VEC(k.velocity, 5, 0, TOL);
    CHECK_VEC(k.position, 2.5, 0, TOL);
    CHECK_NEAR(k.orientation, 0, 0);
    // face_velocity: getNewOrientation = atan2(5, 0) = pi/2
    steer_agent_set_face_velocity(w, a, true);
    steer_world_step(w, 0.5f);
    k = steer_agent_get_state(w, a);
    CHECK_VEC(k.position, 5, 0, TOL);
    CHECK_NEAR(k.orientation, PI / 2, 1e-6);
    steer_behaviour_release(seek);

    // kinematic arrive gives None inside its radius: the agent stops dead and
    // keeps its last orientation (getNewOrientation with a zero velocity)
    steer_behaviour_def ad = def_at(STEER_KINEMATIC_ARRIVE, 5, 0);
    ad.radius = 0.5f;
    steer_behaviour *arrive = make(ad);
    steer_agent_set_behaviour(w, a, arrive, false);
    steer_world_step(w, 0.5f);
    k = steer_agent_get_state(w, a);
    CHECK_VEC(k.velocity, 0, 0, 0);
    CHECK_VEC(k.position, 5, 0, TOL);
    CHECK_NEAR(k.orientation, PI / 2, 1e-6);
    steer_behaviour_release(arrive);

    // a kinematic agent's velocity and rotation are clamped to its limits:
    // (10,0) -> (5,0); rotation 5 -> pi; orientation += pi*0.5
    fixed_output f = {{{10, 0}, 5}, STEER_CALLBACK_STEERING, 0};
    steer_behaviour *cb = make_fixed(&f);
    d.behaviour = cb;
    steer_agent_id b = steer_agent_create(w, &d);
    steer_world_step(w, 0.5f);
    k = steer_agent_get_state(w, b);
    CHECK_VEC(k.velocity, 5, 0, TOL);
    CHECK_NEAR(k.rotation, PI, 1e-6);
    CHECK_NEAR(k.orientation, PI / 2, 1e-6);
    CHECK_VEC(k.position, 2.5, 0, TOL);
    steer_behaviour_release(cb);
    steer_world_destroy(w);
}

static void face_velocity_steering_agent(void)
{
    rig r;
    // a steering agent facing its velocity: (0,0) + (0,-2)*0.5 = (0,-1): orientation pi
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 0.3f, 0), test_limits(), 0, -2, 0);
    steer_agent_set_face_velocity(r.w, r.a, true);
    CHECK(steer_agent_get_face_velocity(r.w, r.a));
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), PI, 1e-6);
    // (-2, -1): atan2(-2, -1) = -2.03444
    r.f.steering.linear = steer_v2(-4, 0);
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), atan2(-2.0, -1.0), 1e-6);
    rig_free(&r);
    // stopped: the orientation is kept (and the rotation still applies: 0.3 + 0.4*0.5)
    rig_init(&r, STEER_INTEGRATOR_EULER, kin(0, 0, 0, 0, 0.3f, 0.4f), test_limits(), 0, 0, 0);
    steer_agent_set_face_velocity(r.w, r.a, true);
    steer_world_step(r.w, 0.5f);
    CHECK_NEAR(steer_agent_get_orientation(r.w, r.a), 0.5, 1e-6);
    rig_free(&r);
}

int main(void)
{
    RUN(euler);
    RUN(newton);
    RUN(clamps_and_wrap);
    RUN(drag);
    RUN(kinematic_agents);
    RUN(face_velocity_steering_agent);
    return TEST_RESULT();
}
