// Scenarios: whole runs of the world (60 Hz) whose outcome the notes
// promise: arrive comes to rest inside target_radius and stays; flee
// increases the distance every step; pursue catches a moving target sooner
// than seek; follow_path goes round a loop and a figure-eight in order;
// separation keeps a packed group of 200 apart; two agents on a head-on
// course with collision avoidance never overlap.
#include "fixture.h"
#include "test.h"

static const float DT = 1.0f / 60.0f;
static const double PI = 3.14159265358979323846;

/* ---- arrive ------------------------------------------------------------------------ */

// Run arrive from `start` to `goal`; returns the step it first got inside
// target_radius (-1 if never) and checks it stays there and comes to rest.
static int arrive_run(steer_limits limits, steer_vec2 start, steer_vec2 goal, int steps, float *final_speed,
                      int *left)
{
    steer_world *w = make_world(1);
    steer_behaviour_def d = def_at(STEER_ARRIVE, goal.x, goal.y);
    steer_behaviour *b = make(d);
    steer_agent_id a = spawn_full(w, kin(start.x, start.y, 0, 0, 0, 0), limits, b, 0);
    int inside_at = -1;
    *left = 0;
    for (int i = 0; i < steps; ++i) {
        steer_world_step(w, DT);
        float dist = steer_distance(steer_agent_get_position(w, a), goal);
        if (dist < d.target_radius) {
            if (inside_at < 0) inside_at = i;
        } else if (inside_at >= 0) {
            ++*left; // came out again
        }
    }
    *final_speed = steer_length(steer_agent_get_velocity(w, a));
    steer_behaviour_release(b);
    steer_world_destroy(w);
    return inside_at;
}

static void arrive_comes_to_rest(void)
{
    const steer_vec2 goals[] = {{20, 5}, {-3, 1}, {0.4f, -7}, {60, -60}};
    for (int drag = 0; drag <= 1; ++drag) {
        for (int g = 0; g < 4; ++g) {
            steer_limits l = test_limits();
            l.drag = drag ? 0.5f : 0.0f;
            float speed;
            int left;
            int at = arrive_run(l, steer_v2(0, 0), goals[g], 60 * 40, &speed, &left);
            CHECK(at >= 0);     // got there
            CHECK(left == 0);   // and stayed inside target_radius
            CHECK(speed == 0.0f); // truly at rest: arrive then asks for no steering
            if (left != 0 || speed >= 1e-2f)
                fprintf(stderr, "  arrive to (%g,%g) drag %d: inside at step %d, %d steps outside after, final speed %g\n",
                        (double)goals[g].x, (double)goals[g].y, drag, at, left, (double)speed);
        }
    }
}

/* ---- flee ---------------------------------------------------------------------------- */

static void flee_increases_distance(void)
{
    test_rng r = {11};
    for (int run = 0; run < 20; ++run) {
        steer_integrator integ = run % 2 ? STEER_INTEGRATOR_NEWTON : STEER_INTEGRATOR_EULER;
        steer_world_def wd = steer_default_world_def();
        wd.integrator = integ;
        steer_world *w = steer_world_create(&wd);
        steer_vec2 from = steer_v2(rng_range(&r, -10, 10), rng_range(&r, -10, 10));
        steer_behaviour *b = make(def_at(run % 4 < 2 ? STEER_FLEE : STEER_EVADE, from.x, from.y));
        steer_vec2 p = steer_v2(from.x + rng_range(&r, -3, 3), from.y + rng_range(&r, -3, 3));
        // starting at rest or already moving away
        steer_vec2 v = run % 3 == 0 ? steer_scale(steer_normalize(steer_sub(p, from)), 2.0f) : steer_v2(0, 0);
        steer_limits l = test_limits();
        l.max_speed = rng_range(&r, 1, 8);
        l.max_acceleration = rng_range(&r, 1, 20);
        steer_agent_id a = spawn_full(w, kin(p.x, p.y, v.x, v.y, 0, 0), l, b, 0);
        float last = steer_distance(p, from);
        int bad = 0;
        for (int i = 0; i < 600; ++i) {
            steer_world_step(w, DT);
            float dist = steer_distance(steer_agent_get_position(w, a), from);
            // euler moves with the old velocity: from rest the first step does not move
            bool strict = !(i == 0 && integ == STEER_INTEGRATOR_EULER && v.x == 0 && v.y == 0);
            if (strict ? !(dist > last) : !(dist >= last)) ++bad;
            last = dist;
        }
        CHECK(bad == 0);
        CHECK(last > 600 * DT * 0.5f * l.max_speed); // and it got somewhere
        steer_behaviour_release(b);
        steer_world_destroy(w);
    }
}

/* ---- pursue vs seek -------------------------------------------------------------------- */

static int steps_to_catch(steer_behaviour_type type, steer_vec2 target_pos, steer_vec2 target_vel)
{
    steer_world *w = make_world(1);
    steer_limits tl = test_limits();
    tl.max_speed = 4.0f;
    steer_agent_id t = spawn_full(w, kin(target_pos.x, target_pos.y, target_vel.x, target_vel.y, 0, 0), tl, NULL, 0);
    steer_behaviour_def d = def_of(type);
    d.target = agent_target(t);
    d.max_prediction = 2.0f;
    steer_behaviour *b = make(d);
    steer_agent_id a = spawn_full(w, kin(0, 0, 0, 0, 0, 0), test_limits(), b, 0);
    int caught = -1;
    for (int i = 0; i < 60 * 60 && caught < 0; ++i) {
        steer_world_step(w, DT);
        if (steer_distance(steer_agent_get_position(w, a), steer_agent_get_position(w, t)) < 1.0f) caught = i;
    }
    steer_behaviour_release(b);
    steer_world_destroy(w);
    return caught;
}

static void pursue_beats_seek(void)
{
    // a target crossing at 3-4 m/s; the chaser runs at 5
    const steer_vec2 pos[] = {{0, 20}, {15, 15}, {-20, 5}, {10, -25}};
    const steer_vec2 vel[] = {{4, 0}, {0, -3}, {0, 4}, {-3, 0}};
    for (int i = 0; i < 4; ++i) {
        int ns = steps_to_catch(STEER_SEEK, pos[i], vel[i]);
        int np = steps_to_catch(STEER_PURSUE, pos[i], vel[i]);
        CHECK(np > 0);
        CHECK(ns < 0 || np < ns);
        if (!(np > 0 && (ns < 0 || np < ns))) fprintf(stderr, "  case %d: pursue %d steps, seek %d\n", i, np, ns);
    }
}

/* ---- follow_path ------------------------------------------------------------------------- */

// Follow a looped path for `steps`; checkpoints (indices into pts) must be
// reached (within `near`) in cyclic order. Returns the laps completed
// (checkpoint 0 reached again after all the others).
static int follow_loop(const steer_vec2 *pts, int n, const int *checks, int nchecks, steer_vec2 start,
                       steer_vec2 start_vel, float predict_time, int steps, float near, int *out_of_order,
                       float *worst_back)
{
    steer_path_def pd = steer_default_path_def();
    pd.points = pts;
    pd.count = n;
    pd.loop = true;
    steer_path *p = steer_path_create(&pd);
    float len = steer_path_length(p);
    steer_behaviour_def d = def_of(STEER_FOLLOW_PATH);
    d.path = p;
    d.path_offset = 1.5f;
    d.predict_time = predict_time;
    steer_behaviour *b = make(d);
    steer_world *w = make_world(1);
    steer_agent_id a = spawn_full(w, kin(start.x, start.y, start_vel.x, start_vel.y, 0, 0), test_limits(), b, 0);
    // the agent starts just past the last checkpoint
    int next = 0, last_seen = nchecks - 1, visits = 0;
    float last_param = -1.0f, progress = 0.0f;
    *out_of_order = 0;
    *worst_back = 0.0f;
    for (int i = 0; i < steps; ++i) {
        steer_world_step(w, DT);
        // the path parameter the agent is at (its follow_path memory)
        float param = memory_of(w, a, 0) - 1.0f;
        if (last_param >= 0.0f) {
            float delta = param - last_param;
            if (delta < -0.5f * len) delta += len;
            if (delta > 0.5f * len) delta -= len;
            if (-delta > *worst_back) *worst_back = -delta;
            progress += delta;
        }
        last_param = param;
        steer_vec2 pos = steer_agent_get_position(w, a);
        for (int c = 0; c < nchecks; ++c) {
            if (steer_distance(pos, pts[checks[c]]) >= near || c == last_seen) continue;
            if (c == next) {
                last_seen = c;
                next = (next + 1) % nchecks;
                ++visits;
            } else {
                ++*out_of_order;
            }
        }
    }
    CHECK(progress > 0.0f);
    steer_behaviour_release(b);
    steer_path_release(p);
    steer_world_destroy(w);
    return visits / nchecks;
}

static void follow_path_loop(void)
{
    // a 20 x 20 square, counter-clockwise from (0,0)
    const steer_vec2 sq[] = {{0, 0}, {20, 0}, {20, 20}, {0, 20}};
    const int checks[] = {1, 2, 3, 0};
    int bad;
    float back;
    // 80 m a lap at up to 5 m/s: 3 laps in 60 s
    int laps = follow_loop(sq, 4, checks, 4, steer_v2(1, -1), steer_v2(0, 0), 0.0f, 60 * 60, 3.0f, &bad, &back);
    CHECK(laps >= 3);
    CHECK(bad == 0);
    CHECK(back < 0.05f); // the parameter never goes backwards
    if (laps < 3 || bad || back >= 0.05f) fprintf(stderr, "  square: %d laps, %d out of order, back %g\n", laps, bad, (double)back);
}

static void follow_path_figure_eight(void)
{
    // Gerono's lemniscate x = a sin t, y = a sin t cos t, a = 12, 48 points.
    // It crosses itself at the origin (t = 0 and t = pi): the follower must
    // go right lobe, crossing, left lobe, crossing, ... never back into the
    // lobe it just left.
    enum { N = 48 };
    steer_vec2 pts[N];
    for (int i = 0; i < N; ++i) {
        double t = 2.0 * PI * i / N;
        pts[i] = steer_v2((float)(12.0 * sin(t)), (float)(12.0 * sin(t) * cos(t)));
    }
    // checkpoints at t = pi/4, pi/2, 3pi/4 (right lobe), 5pi/4, 3pi/2, 7pi/4 (left)
    const int checks[] = {6, 12, 18, 30, 36, 42};
    int bad;
    float back;
    // start a little before the crossing, moving along the path
    steer_vec2 start = pts[N - 1];
    steer_vec2 vel = steer_scale(steer_normalize(steer_sub(pts[0], pts[N - 1])), 3.0f);
    // plain, then predictive (which cuts in towards where the agent will be)
    for (int predictive = 0; predictive <= 1; ++predictive) {
        int laps = follow_loop(pts, N, checks, 6, start, vel, predictive ? 0.3f : 0.0f, 60 * 60, 2.5f, &bad, &back);
        CHECK(laps >= 2);
        CHECK(bad == 0);
        CHECK(back < 0.05f);
        if (laps < 2 || bad || back >= 0.05f)
            fprintf(stderr, "  figure-eight (predictive %d): %d laps, %d out of order, back %g\n", predictive, laps, bad,
                    (double)back);
    }
}

/* ---- separation --------------------------------------------------------------------------- */

static float min_pair_distance(steer_world *w)
{
    int n = steer_world_agent_count(w);
    float best = INFINITY;
    for (int i = 0; i < n; ++i) {
        steer_vec2 p = steer_agent_get_position(w, steer_world_agent_at(w, i));
        for (int j = i + 1; j < n; ++j) {
            float d = steer_distance(p, steer_agent_get_position(w, steer_world_agent_at(w, j)));
            if (d < best) best = d;
        }
    }
    return best;
}

static void separation_keeps_group_apart(void)
{
    // 200 agents of radius 0.25 packed 0.3 apart (overlapping), held together
    // by a weak cohesion, with drag to damp them. Separation (radius 2,
    // inverse square, k = 10) must spread them so that none overlap, and keep
    // them so while cohesion pulls; the group stays a group.
    steer_world *w = make_world(3);
    steer_behaviour_def sd = def_of(STEER_SEPARATION);
    sd.radius = 2.0f;
    steer_behaviour_def cd = def_of(STEER_COHESION);
    steer_behaviour *b = make_combinator(STEER_BLEND, (steer_behaviour *[]){make(sd), make(cd)}, (float[]){1.0f, 0.3f}, 2);
    steer_limits l = test_limits();
    l.radius = 0.25f;
    l.drag = 1.0f;
    for (int i = 0; i < 200; ++i) spawn_full(w, kin((float)(i % 20) * 0.3f, (float)(i / 20) * 0.3f, 0, 0, 0, 0), l, b, 0);
    float worst = INFINITY;
    for (int i = 0; i < 60 * 20; ++i) {
        steer_world_step(w, DT);
        // after 5 s to spread, never again overlapping
        if (i >= 60 * 5 && i % 2 == 0) {
            float m = min_pair_distance(w);
            if (m < worst) worst = m;
        }
    }
    // still one group: every agent within 25 m of the centre
    int n = steer_world_agent_count(w);
    steer_vec2 c = {0, 0};
    for (int i = 0; i < n; ++i) c = steer_add(c, steer_agent_get_position(w, steer_world_agent_at(w, i)));
    c = steer_scale(c, 1.0f / (float)n);
    float extent = 0.0f;
    for (int i = 0; i < n; ++i) extent = steer_maxf(extent, steer_distance(c, steer_agent_get_position(w, steer_world_agent_at(w, i))));
    CHECK(worst >= 2 * l.radius);
    CHECK(extent < 25.0f);
    if (worst < 2 * l.radius || extent >= 25.0f) fprintf(stderr, "  separation: closest %g, extent %g\n", (double)worst, (double)extent);
    steer_behaviour_release(b);
    steer_world_destroy(w);
}

/* ---- collision avoidance ------------------------------------------------------------------ */

// Two agents seek goals behind each other; returns the closest they came.
static float head_on(bool prioritised, float offset, float speed_b, bool *passed)
{
    steer_world *w = make_world(1);
    steer_behaviour_def ca = def_of(STEER_COLLISION_AVOIDANCE);
    steer_behaviour *brains[2];
    for (int k = 0; k < 2; ++k) {
        steer_behaviour *seek = make(def_at(STEER_SEEK, 0, k == 0 ? 15.0f : -15.0f));
        steer_behaviour *avoid = make(ca);
        if (prioritised) {
            brains[k] = make_combinator(STEER_PRIORITY, (steer_behaviour *[]){avoid, seek}, NULL, 2);
        } else {
            brains[k] = make_combinator(STEER_BLEND, (steer_behaviour *[]){avoid, seek}, (float[]){2.0f, 1.0f}, 2);
        }
    }
    steer_limits lb = test_limits();
    lb.max_speed = speed_b;
    steer_agent_id a = spawn_full(w, kin(0, -10, 0, 0, 0, 0), test_limits(), brains[0], 0);
    steer_agent_id b = spawn_full(w, kin(offset, 10, 0, 0, (float)PI, 0), lb, brains[1], 0);
    float closest = INFINITY;
    *passed = false;
    for (int i = 0; i < 60 * 12; ++i) {
        steer_world_step(w, DT);
        steer_vec2 pa = steer_agent_get_position(w, a), pb = steer_agent_get_position(w, b);
        float d = steer_distance(pa, pb);
        if (d < closest) closest = d;
        if (pa.y > pb.y + 2.0f) *passed = true;
    }
    steer_behaviour_release(brains[0]);
    steer_behaviour_release(brains[1]);
    steer_world_destroy(w);
    return closest;
}

static void head_on_never_overlap(void)
{
    const float offsets[] = {0.0f, 0.01f, -0.3f, 0.7f};
    for (int pr = 0; pr <= 1; ++pr) {
        for (int o = 0; o < 4; ++o) {
            for (int s = 0; s < 2; ++s) {
                bool passed;
                float closest = head_on(pr != 0, offsets[o], s ? 3.0f : 5.0f, &passed);
                CHECK(closest >= 1.0f); // the radii: 0.5 + 0.5
                CHECK(passed);          // and they got past each other
                if (closest < 1.0f || !passed)
                    fprintf(stderr, "  head-on %s offset %g speed %g: closest %g, passed %d\n",
                            pr ? "priority" : "blend", (double)offsets[o], s ? 3.0 : 5.0, (double)closest, passed);
            }
        }
    }
}

int main(void)
{
    RUN(arrive_comes_to_rest);
    RUN(flee_increases_distance);
    RUN(pursue_beats_seek);
    RUN(follow_path_loop);
    RUN(follow_path_figure_eight);
    RUN(separation_keeps_group_apart);
    RUN(head_on_never_overlap);
    return TEST_RESULT();
}
