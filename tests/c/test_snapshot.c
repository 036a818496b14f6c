// test_snapshot.c: world snapshots (issue 26). A restored world steps to
// the same hash as the world it was saved from, checked every 50 frames
// over a mixed scene (shapes, paths, shared subtrees, wander, a named
// callback, removed agents and shapes, traces), a crowd (reciprocal
// avoidance), formations (anchored, led, rigid, emergent) and navigation
// (plans round a box, own goals from move_group mid-way, failed and stalled
// plans, a navigating anchor), for 1 and 2 workers; a restored world saves
// to the very same bytes and has the same plans, goals and stuck flags; bad
// snapshots are refused with a message naming what is wrong.
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"
#include "navigate.h"
#include "test.h"

/* ---- a callback behaviour, by name -------------------------------------------------------- */

static int orbit_releases = 0;

static steer_callback_result orbit(steer_world *w, steer_agent_id a, float dt, steer_steering *out, void *context)
{
    (void)dt, (void)context;
    steer_vec2 p = steer_agent_get_position(w, a);
    out->linear = steer_v2(-p.y * 0.5f - p.x * 0.1f, p.x * 0.5f - p.y * 0.1f);
    out->angular = 0.0f;
    return STEER_CALLBACK_STEERING;
}

static void count_release(void *context)
{
    (void)context;
    ++orbit_releases;
}

static bool resolve_orbit(const char *name, steer_behaviour_def *def, void *context)
{
    (void)context;
    if (strcmp(name, "orbit") != 0) return false;
    def->callback = orbit;
    def->release = count_release;
    return true;
}

static steer_behaviour *make_orbit(void)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_CALLBACK);
    d.callback = orbit;
    steer_behaviour *b = steer_behaviour_create(&d);
    steer_behaviour_set_name(b, "orbit");
    return b;
}

/* ---- scenes ------------------------------------------------------------------------------- */

static steer_world *new_world(uint64_t seed, int workers, bool contacts)
{
    steer_world_def d = steer_default_world_def();
    d.seed = seed;
    d.worker_count = workers;
    d.resolve_contacts = contacts;
    d.resolve_agent_contacts = contacts;
    return steer_world_create(&d);
}

static steer_behaviour *mk(steer_behaviour_def d) { return steer_behaviour_create(&d); }

// Shapes of every kind, some removed; a path; a shared subtree; wander;
// obstacle avoidance; a named callback; agents removed (their slots reused).
static steer_world *mixed_scene(int workers)
{
    steer_world *w = new_world(7, workers, true);
    steer_world_add_box(w, steer_v2(-30, -30), steer_v2(-25, 30));
    steer_shape_id gone = steer_world_add_circle(w, steer_v2(5, 5), 2);
    steer_vec2 poly[] = {{10, -5}, {14, -4}, {13, 0}};
    steer_world_add_polygon(w, poly, 3);
    steer_vec2 wall[] = {{20, -20}, {20, 20}, {25, 25}};
    steer_world_add_polyline(w, wall, 3, false);
    steer_world_add_segment(w, steer_v2(-20, 25), steer_v2(15, 25));
    steer_shape_destroy(w, gone);
    steer_world_add_circle(w, steer_v2(-5, -12), 1.5f);

    steer_vec2 pts[] = {{-15, -15}, {15, -15}, {15, 15}, {-15, 15}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts, pd.count = 4, pd.loop = true;
    steer_path *path = steer_path_create(&pd);
    steer_behaviour_def fd = steer_default_behaviour_def(STEER_FOLLOW_PATH);
    fd.path = path;
    steer_behaviour *follow = mk(fd);
    steer_path_release(path);
    steer_behaviour *wander = mk(steer_default_behaviour_def(STEER_WANDER));
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEPARATION);
    sd.radius = 3.0f;
    steer_behaviour *separation = mk(sd);
    steer_behaviour *avoid = mk(steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE));
    steer_child kids[] = {{follow, 1.0f}, {separation, 2.0f}, {wander, 0.3f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids, bd.child_count = 3;
    steer_behaviour *blend = mk(bd);
    steer_child groups[] = {{avoid, 1.0f}, {blend, 1.0f}};
    steer_behaviour_def pr = steer_default_behaviour_def(STEER_PRIORITY);
    pr.children = groups, pr.child_count = 2;
    steer_behaviour *root = mk(pr);
    steer_behaviour *orb = make_orbit();
    steer_child mix[] = {{orb, 1.0f}, {separation, 1.0f}}; // separation shared
    bd.children = mix, bd.child_count = 2;
    steer_behaviour *orbiter = mk(bd);
    steer_behaviour_def ad = steer_default_behaviour_def(STEER_ARRIVE);
    ad.target.kind = STEER_TARGET_POINT, ad.target.point = steer_v2(3, -7);
    ad.slow_radius = 6.0f, ad.target_radius = 0.5f, ad.max_speed = 2.0f;
    steer_behaviour *arrive = mk(ad);
    steer_agent_id first = steer_null_agent;
    for (int i = 0; i < 60; ++i) {
        float x = (float)(i % 10) * 2.5f - 12.0f, y = (float)(i / 10) * 2.5f - 8.0f;
        steer_behaviour *b = i % 5 == 0 ? orbiter : i % 7 == 0 ? arrive : i % 2 ? root : wander;
        steer_agent_id a = spawn_full(w, kin(x, y, 0.5f, -0.2f, 0.1f * (float)i, 0.0f), steer_default_limits(), b,
                                      i % 3 == 0 ? 0 : 1000 + (uint64_t)i);
        if (i == 0) first = a;
        if (i == 4) steer_agent_set_face_velocity(w, a, true);
        if (i == 8) steer_agent_set_trace(w, a, true);
        if (i % 11 == 3) steer_agent_destroy(w, a); // slots to reuse
    }
    // a pursuer of the first agent
    steer_behaviour_def pu = steer_default_behaviour_def(STEER_PURSUE);
    pu.target.kind = STEER_TARGET_AGENT, pu.target.agent = first;
    steer_behaviour *pursue = mk(pu);
    spawn_full(w, kin(0, 20, 0, 0, 0, 0), steer_default_limits(), pursue, 0);
    steer_behaviour *held[] = {follow, wander, separation, avoid, blend, root, orb, orbiter, arrive, pursue};
    for (size_t k = 0; k < sizeof held / sizeof held[0]; ++k) steer_behaviour_release(held[k]);
    return w;
}

// Two groups crossing with reciprocal avoidance around a pillar.
static steer_world *crowd_scene(int workers)
{
    steer_world *w = new_world(3, workers, true);
    steer_world_add_circle(w, steer_v2(0, 0), 2.0f);
    for (int i = 0; i < 80; ++i) {
        float side = i % 2 ? 1.0f : -1.0f;
        steer_behaviour_def ad = steer_default_behaviour_def(STEER_ARRIVE);
        ad.target.kind = STEER_TARGET_POINT;
        ad.target.point = steer_v2(-side * 20.0f, (float)(i / 2 % 10) - 5.0f);
        steer_behaviour *goal = mk(ad);
        steer_child c = {goal, 1.0f};
        steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
        rd.children = &c, rd.child_count = 1, rd.radius = 5.0f;
        steer_behaviour *avoid = mk(rd);
        steer_limits l = steer_default_limits();
        l.max_speed = 1.5f;
        spawn_full(w, kin(side * 20.0f + (float)(i % 3), (float)(i / 2 % 10) * 1.2f - 6.0f, 0, 0, 0, 0), l, avoid, 0);
        steer_behaviour_release(goal);
        steer_behaviour_release(avoid);
    }
    return w;
}

// Formations: an anchored one following a path, a led one, a rigid one,
// an emergent one, with cost roles and a removed member.
static steer_world *formation_scene(int workers)
{
    steer_world *w = new_world(11, workers, false);
    steer_vec2 pts[] = {{0, 0}, {30, 0}, {30, 30}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts, pd.count = 3;
    steer_path *path = steer_path_create(&pd);
    const steer_formation_pattern patterns[] = {STEER_PATTERN_V, STEER_PATTERN_CIRCLE, STEER_PATTERN_GRID,
                                                STEER_PATTERN_LINE};
    const steer_formation_motion motions[] = {STEER_MOTION_STEER, STEER_MOTION_STEER, STEER_MOTION_RIGID,
                                              STEER_MOTION_EMERGENT};
    for (int k = 0; k < 4; ++k) {
        steer_formation_def fd = steer_default_formation_def();
        fd.pattern = patterns[k];
        fd.motion = motions[k];
        fd.anchor_position = steer_v2((float)k * 10.0f, -10.0f);
        float costs[] = {0, 5, 5, 0};
        if (k == 0) fd.anchor_path = path, fd.cost_role_costs = costs, fd.cost_role_count = 2;
        if (k == 3) fd.anchor_target.kind = STEER_TARGET_POINT, fd.anchor_target.point = steer_v2(-20, 20);
        steer_agent_id leader = steer_null_agent;
        if (k == 1 || k == 2) {
            steer_behaviour_def wd = steer_default_behaviour_def(STEER_WANDER);
            steer_behaviour *wander = mk(wd);
            leader = spawn_full(w, kin((float)k * 10.0f, 5, 0, 0, 0, 0), steer_default_limits(), wander, 0);
            steer_behaviour_release(wander);
            fd.leader = leader;
        }
        steer_formation_id f = steer_formation_create(w, &fd);
        steer_behaviour_def sd = steer_default_behaviour_def(STEER_FORMATION_SLOT);
        sd.formation = f;
        steer_behaviour *slot = mk(sd);
        for (int m = 0; m < 7; ++m) {
            steer_agent_id a = spawn_full(w, kin((float)k * 10.0f + (float)m, -3.0f - (float)m, 0, 0, 0, 0),
                                          steer_default_limits(), slot, 0);
            steer_formation_add(w, f, a, m % 2);
            if (m == 5 && k == 0) {
                float extra[] = {0, 0, 3};
                steer_formation_set_member_costs(w, f, a, extra, 3);
            }
            if (m == 3 && k == 1) steer_agent_destroy(w, a); // a member gone before the step
        }
        steer_behaviour_release(slot);
    }
    steer_path_release(path);
    return w;
}

/* ---- navigation ------------------------------------------------------------------------- */

// fixture.h's planner round the box (-15, -5)-(15, 5); the restored worlds
// get one of the same version, as a host gives its restored world its planner
static box_planner nav_planner = {0, 1};
static steer_agent_id nav_group[6];

static void nav_attach(steer_world *w)
{
    steer_planner p = box_planner_of(&nav_planner);
    steer_world_set_planner(w, &p);
}

static steer_behaviour *avoiding(steer_behaviour *preferred)
{
    steer_child c = {preferred, 1.0f};
    steer_behaviour_def d = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    d.children = &c, d.child_count = 1;
    steer_behaviour *b = mk(d);
    steer_behaviour_release(preferred);
    return b;
}

static steer_behaviour *navigate_to(bool has_target, float x, float y)
{
    steer_behaviour_def d = steer_default_behaviour_def(STEER_NAVIGATE);
    if (has_target) d.target.kind = STEER_TARGET_POINT, d.target.point = steer_v2(x, y);
    return mk(d);
}

// A crowd inside reciprocal avoidance bound across the box (round its
// right side), a group following their own goals (given by move_group at
// frame 120: nav_orders), one whose target lies inside the box (its plan
// fails: retried every second, stuck after 3 s), one too slow to progress
// (stuck after 3 s), and a formation whose anchor navigates round the box.
static steer_world *nav_scene(int workers)
{
    steer_world *w = new_world(13, workers, true);
    steer_world_add_box(w, steer_v2(-15, -5), steer_v2(15, 5));
    nav_attach(w);
    steer_behaviour *crowd = avoiding(navigate_to(true, 0.0f, 20.0f));
    for (int i = 0; i < 12; ++i)
        spawn_full(w, kin(-6.0f + (float)(i % 6) * 2.0f, -12.0f - (float)(i / 6) * 2.0f, 0, 0, 0, 0),
                   steer_default_limits(), crowd, 0);
    steer_behaviour *own = avoiding(navigate_to(false, 0.0f, 0.0f));
    for (int i = 0; i < 6; ++i)
        nav_group[i] = spawn_full(w, kin(-28.0f + (float)i * 1.5f, -20.0f, 0, 0, 0, 0), steer_default_limits(), own, 0);
    steer_behaviour *blocked = navigate_to(true, 0.0f, 0.0f);
    spawn_full(w, kin(-30.0f, 0.0f, 0, 0, 0, 0), steer_default_limits(), blocked, 0);
    steer_behaviour *slow_nav = navigate_to(true, 30.0f, 20.0f);
    steer_limits slow = steer_default_limits();
    slow.max_speed = 0.05f;
    spawn_full(w, kin(30.0f, -20.0f, 0, 0, 0, 0), slow, slow_nav, 0);
    steer_formation_def fd = steer_default_formation_def();
    fd.anchor_position = steer_v2(25.0f, -25.0f);
    fd.anchor_behaviour = navigate_to(true, 25.0f, 25.0f);
    steer_formation_id f = steer_formation_create(w, &fd);
    steer_behaviour_release(fd.anchor_behaviour);
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_FORMATION_SLOT);
    sd.formation = f;
    steer_behaviour *slot = mk(sd);
    for (int m = 0; m < 4; ++m)
        steer_formation_add(w, f, spawn_full(w, kin(25.0f + (float)m, -27.0f, 0, 0, 0, 0), steer_default_limits(), slot, 0), 0);
    steer_behaviour_release(slot);
    steer_behaviour_release(slow_nav);
    steer_behaviour_release(blocked);
    steer_behaviour_release(own);
    steer_behaviour_release(crowd);
    return w;
}

// The group's order, mid-way: the same call on both worlds at frame 120.
static void nav_orders(steer_world *w, int frame)
{
    if (frame == 120) CHECK(steer_world_move_group(w, nav_group, 6, steer_v2(-25.0f, 20.0f), 0.0f, NULL) == 6);
}

/* ---- snapshots -------------------------------------------------------------------------- */

static unsigned char *save(const steer_world *w, size_t *size)
{
    steer_snapshot_error e = {{0}};
    size_t need = 0;
    CHECK(!steer_world_snapshot(w, NULL, NULL, 0, &need, &e));
    CHECK(need > 0);
    unsigned char *buf = malloc(need);
    CHECK(steer_world_snapshot(w, NULL, buf, need, size, &e));
    CHECK(*size == need);
    if (*size != need) fprintf(stderr, "snapshot: %s\n", e.message);
    return buf;
}

static steer_world *load(const unsigned char *bytes, size_t size, int workers)
{
    steer_restore_def d = steer_default_restore_def();
    d.worker_count = workers;
    d.resolve = resolve_orbit;
    steer_snapshot_error e = {{0}};
    steer_world *w = steer_world_restore(bytes, size, &d, &e);
    if (w == NULL) fprintf(stderr, "restore: %s\n", e.message);
    return w;
}

// Step the scene `frames` frames; every 50, save, restore with `workers`
// and step both to the next check, comparing hashes every frame; the
// restored world saves to the same bytes.
static int stuck_seen, goals_seen;

// Every agent's plan, goal and stuck flag the same in both worlds.
static void check_plans(const steer_world *w, const steer_world *r)
{
    bool same = true;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_agent_id a = steer_world_agent_at(w, i);
        steer_plan_info x, y;
        steer_vec2 px[STEER_PLAN_POINTS], py[STEER_PLAN_POINTS], gx = {0, 0}, gy = {0, 0};
        int n = steer_agent_get_plan(w, a, px, STEER_PLAN_POINTS, &x);
        same = same && n == steer_agent_get_plan(r, a, py, STEER_PLAN_POINTS, &y) && memcmp(&x, &y, sizeof x) == 0 &&
               memcmp(px, py, sizeof px[0] * (size_t)(n < STEER_PLAN_POINTS ? n : STEER_PLAN_POINTS)) == 0;
        bool goal = steer_agent_get_goal(w, a, &gx);
        same = same && goal == steer_agent_get_goal(r, a, &gy) && gx.x == gy.x && gx.y == gy.y;
        same = same && steer_agent_get_stuck(w, a) == steer_agent_get_stuck(r, a);
        stuck_seen += steer_agent_get_stuck(w, a);
        goals_seen += goal;
    }
    CHECK(same);
}

static void check_scene_with(steer_world *(*scene)(int), int workers, int frames, void (*attach)(steer_world *),
                             void (*orders)(steer_world *, int))
{
    steer_world *w = scene(1);
    const float dt = 1.0f / 30.0f;
    int checked = 0;
    for (int frame = 0; frame < frames; frame += 50) {
        size_t size;
        unsigned char *bytes = save(w, &size);
        steer_world *r = load(bytes, size, workers);
        CHECK(r != NULL);
        if (r == NULL) {
            free(bytes);
            break;
        }
        if (attach != NULL) attach(r);
        CHECK(steer_world_hash(r) == steer_world_hash(w));
        check_plans(w, r);
        CHECK(steer_world_agent_count(r) == steer_world_agent_count(w));
        CHECK(steer_world_step_count(r) == steer_world_step_count(w));
        CHECK(steer_world_get_worker_count(r) == workers);
        size_t again_size;
        unsigned char *again = save(r, &again_size);
        CHECK(again_size == size && memcmp(again, bytes, size) == 0);
        for (size_t k = 0; k < size && k < again_size; ++k) {
            if (again[k] != bytes[k]) {
                fprintf(stderr, "  first difference at byte %zu of %zu\n", k, size);
                break;
            }
        }
        free(again);
        free(bytes);
        bool same = true;
        for (int k = 0; k < 50; ++k) {
            if (orders != NULL) orders(w, frame + k), orders(r, frame + k);
            steer_world_step(w, dt);
            steer_world_step(r, dt);
            same = same && steer_world_hash(r) == steer_world_hash(w);
        }
        CHECK(same);
        if (!same) fprintf(stderr, "  frames %d-%d differ after a restore (%d workers)\n", frame, frame + 50, workers);
        // ids stay valid: every agent of one is the same agent in the other
        for (int i = 0; i < steer_world_agent_count(w); ++i) {
            steer_agent_id a = steer_world_agent_at(w, i);
            CHECK(steer_agent_is_valid(r, a) && steer_agent_get_key(r, a) == steer_agent_get_key(w, a));
        }
        steer_world_destroy(r);
        ++checked;
    }
    CHECK(checked == frames / 50);
    steer_world_destroy(w);
}

static void check_scene(steer_world *(*scene)(int), int workers, int frames)
{
    check_scene_with(scene, workers, frames, NULL, NULL);
}

static void test_mixed_restores_bit_for_bit(void)
{
    check_scene(mixed_scene, 1, 300);
    check_scene(mixed_scene, 2, 300);
}

static void test_crowd_restores_bit_for_bit(void)
{
    check_scene(crowd_scene, 1, 300);
    check_scene(crowd_scene, 2, 300);
}

static void test_formations_restore_bit_for_bit(void)
{
    check_scene(formation_scene, 1, 300);
    check_scene(formation_scene, 2, 300);
}

// Plans, goals and stuck flags are saved: navigating agents continue to the
// same bits (issue 26). The group's goals and the stuck agents are seen at
// the restore points, so the check covers them.
static void test_navigation_restores_bit_for_bit(void)
{
    stuck_seen = goals_seen = 0;
    check_scene_with(nav_scene, 1, 400, nav_attach, nav_orders);
    check_scene_with(nav_scene, 2, 400, nav_attach, nav_orders);
    CHECK(stuck_seen > 0 && goals_seen > 0);
}

// What a restore keeps besides the hash: shapes and their ids, formations
// and their members, names, traces, settings.
static void test_restore_keeps_ids_and_settings(void)
{
    steer_world *w = mixed_scene(1);
    steer_world_set_integrator(w, STEER_INTEGRATOR_NEWTON);
    steer_world_set_cell_size(w, 3.0f);
    for (int k = 0; k < 5; ++k) steer_world_step(w, 0.05f);
    size_t size;
    unsigned char *bytes = save(w, &size);
    steer_world *r = load(bytes, size, 2);
    CHECK(r != NULL);
    CHECK(steer_world_get_integrator(r) == STEER_INTEGRATOR_NEWTON);
    CHECK(steer_world_get_cell_size(r) == 3.0f);
    CHECK(steer_world_get_resolve_contacts(r));
    CHECK(steer_world_shape_count(r) == steer_world_shape_count(w));
    steer_shape_id s = {5, 1}; // the circle added after a removal took slot 2's place? check every slot
    for (uint32_t index = 1; index <= 8; ++index) {
        for (uint32_t gen = 1; gen <= 2; ++gen) {
            s.index = index, s.generation = gen;
            CHECK(steer_shape_is_valid(r, s) == steer_shape_is_valid(w, s));
        }
    }
    int traced = 0, named = 0;
    for (int i = 0; i < steer_world_agent_count(r); ++i) {
        steer_agent_id a = steer_world_agent_at(r, i);
        traced += steer_agent_get_trace(r, a);
        const steer_behaviour *b = steer_agent_get_behaviour(r, a);
        for (int c = 0; b != NULL && c < steer_behaviour_child_count(b); ++c) {
            const char *name = steer_behaviour_get_name(steer_behaviour_get_child(b, c).behaviour);
            named += name != NULL && strcmp(name, "orbit") == 0;
        }
    }
    CHECK(traced == 1);
    CHECK(named > 0);
    // a new agent takes the same slot in both
    steer_agent_id a = spawn(w, 1, 1, 0, 0), b = spawn(r, 1, 1, 0, 0);
    CHECK(steer_agent_id_equal(a, b) && steer_agent_get_key(w, a) == steer_agent_get_key(r, b));
    steer_world_destroy(r);
    steer_world_destroy(w);
    free(bytes);

    w = formation_scene(1);
    steer_world_step(w, 0.1f);
    bytes = save(w, &size);
    r = load(bytes, size, 1);
    CHECK(steer_world_formation_count(r) == 4);
    for (uint32_t index = 1; index <= 4; ++index) {
        steer_formation_id f = {index, 1};
        CHECK(steer_formation_member_count(r, f) == steer_formation_member_count(w, f));
        for (int m = 0; m < steer_formation_member_count(w, f); ++m) {
            steer_agent_id x = steer_formation_member_at(w, f, m);
            CHECK(steer_agent_id_equal(x, steer_formation_member_at(r, f, m)));
            CHECK(steer_formation_slot_of(r, f, x) == steer_formation_slot_of(w, f, x));
        }
    }
    steer_world_destroy(r);
    steer_world_destroy(w);
    free(bytes);
}

// The host's bytes travel with the snapshot.
static void test_host_data(void)
{
    steer_world *w = crowd_scene(1);
    steer_snapshot_def d = steer_default_snapshot_def();
    const char host[] = "the host's own state";
    d.host_data = host, d.host_size = sizeof host;
    size_t size = 0;
    steer_world_snapshot(w, &d, NULL, 0, &size, NULL);
    unsigned char *bytes = malloc(size);
    CHECK(steer_world_snapshot(w, &d, bytes, size, &size, NULL));
    const void *got;
    size_t got_size;
    CHECK(steer_snapshot_host_data(bytes, size, &got, &got_size, NULL));
    CHECK(got_size == sizeof host && memcmp(got, host, sizeof host) == 0);
    steer_world *r = load(bytes, size, 1);
    CHECK(r != NULL && steer_world_hash(r) == steer_world_hash(w));
    steer_world_destroy(r);
    steer_world_destroy(w);
    free(bytes);
}

static bool message_has(const steer_snapshot_error *e, const char *part)
{
    bool ok = strstr(e->message, part) != NULL;
    if (!ok) fprintf(stderr, "  message '%s' lacks '%s'\n", e->message, part);
    return ok;
}

// Refusals: unnamed callbacks (saving), the missing resolver (naming the
// behaviour), every truncation, another format or engine, a damaged byte.
static void test_refusals(void)
{
    steer_snapshot_error e = {{0}};
    steer_world *w = new_world(1, 1, false);
    steer_behaviour_def cd = steer_default_behaviour_def(STEER_CALLBACK);
    cd.callback = orbit;
    steer_behaviour *anonymous = mk(cd);
    steer_agent_id a = spawn_full(w, kin(1, 1, 0, 0, 0, 0), steer_default_limits(), anonymous, 0);
    size_t size = 1;
    CHECK(!steer_world_snapshot(w, NULL, NULL, 0, &size, &e) && size == 0);
    CHECK(message_has(&e, "callback behaviour has no name"));
    steer_behaviour_set_name(anonymous, "hunt");
    CHECK(strcmp(steer_behaviour_get_name(anonymous), "hunt") == 0);
    steer_behaviour_release(anonymous);
    (void)a;
    unsigned char *bytes = save(w, &size);
    // no resolver, or one without the name
    CHECK(steer_world_restore(bytes, size, NULL, &e) == NULL && message_has(&e, "'hunt'"));
    steer_restore_def rd = steer_default_restore_def();
    rd.resolve = resolve_orbit;
    CHECK(steer_world_restore(bytes, size, &rd, &e) == NULL && message_has(&e, "'hunt'"));
    rd.worker_count = 0;
    CHECK(steer_world_restore(bytes, size, &rd, &e) == NULL && message_has(&e, "worker_count"));
    steer_world_destroy(w);
    free(bytes);

    w = mixed_scene(1);
    steer_world_step(w, 0.1f);
    bytes = save(w, &size);
    int before = orbit_releases, refused = 0;
    for (size_t n = 0; n < size; n += n < 64 ? 1 : 97) {
        refused += steer_world_restore(bytes, n, &rd, &e) == NULL;
    }
    rd.worker_count = 1;
    CHECK(refused == (int)((size - 64 + 96) / 97) + 64);
    CHECK(steer_world_restore(bytes, size - 1, &rd, &e) == NULL && message_has(&e, "truncated"));
    CHECK(steer_world_restore(NULL, 0, &rd, &e) == NULL && message_has(&e, "not a steer snapshot"));
    unsigned char *bad = malloc(size);
    memcpy(bad, bytes, size);
    bad[8] = 1; // format 1: written before plans were saved; both formats named
    CHECK(steer_world_restore(bad, size, &rd, &e) == NULL && message_has(&e, "snapshot format 1") &&
          message_has(&e, "reads format 4"));
    bad[8] = 2; // format 2: written before the world's next move_group id was saved
    CHECK(steer_world_restore(bad, size, &rd, &e) == NULL && message_has(&e, "snapshot format 2") &&
          message_has(&e, "reads format 4"));
    bad[8] = 3; // format 3: the settling state inside a 32-byte course
    CHECK(steer_world_restore(bad, size, &rd, &e) == NULL && message_has(&e, "snapshot format 3") &&
          message_has(&e, "reads format 4"));
    memcpy(bad, bytes, size);
    bad[16] = '9'; // another engine version ("9.1.0")
    CHECK(steer_world_restore(bad, size, &rd, &e) == NULL && message_has(&e, "written by steer 9"));
    memcpy(bad, bytes, size);
    bad[size / 2] ^= 0x40;
    CHECK(steer_world_restore(bad, size, &rd, &e) == NULL && message_has(&e, "checksum"));
    steer_world *ok = steer_world_restore(bytes, size, &rd, &e);
    CHECK(ok != NULL);
    steer_world_destroy(ok);
    // every resolved context that a refused restore made was released
    CHECK(orbit_releases > before);
    free(bad);
    free(bytes);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(test_mixed_restores_bit_for_bit);
    RUN(test_crowd_restores_bit_for_bit);
    RUN(test_formations_restore_bit_for_bit);
    RUN(test_navigation_restores_bit_for_bit);
    RUN(test_restore_keeps_ids_and_settings);
    RUN(test_host_data);
    RUN(test_refusals);
    return TEST_RESULT();
}
