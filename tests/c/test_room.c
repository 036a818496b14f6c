// Agents at rest in the way (reciprocal.c, make_room): a latecomer whose
// goal lies just behind a row of agents parked on their own spots gets
// through the row, and they return to their spots once it has passed;
// latecomers get through a whole field of them, on one worker or two; a
// latecomer gets to its goal between two parked closer than a body's width;
// an idle agent held off its spot by more than its radius makes room too;
// a big body at a long step gets into the free middle spot of a grid of
// big parked bodies.
#include "reciprocal_fixture.h"
#include "test.h"

// (avoid_to: reciprocal_fixture.h, an arrive under reciprocal avoidance)

typedef struct passage {
    float arrived; ///< when the latecomer was first within 0.5 m of its goal (0: never)
    float off;     ///< the parked agents' furthest distance from their spots at the end
    float closest; ///< the closest two centres came
    uint64_t hash; ///< the world's at the end
} passage;

// The closest two of the n agents' centres came, with `closest` so far
static float closest_pair(steer_world *w, const steer_agent_id *ids, int n, float closest)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j)
            closest = steer_minf(closest, distance(w, ids[i], ids[j]));
    }
    return closest;
}

// Spawns the n agents in order (or reversed): the first n - 1 parked on
// spot[i], the last (the latecomer) at `from`, each of radius r under an
// arrive to its spot at horizon tau, seeing neighbours within `within` m.
static void spawn_latecomer(steer_world *w, steer_behaviour **b, steer_agent_id *ids,
                            const steer_vec2 *spot, int n, steer_vec2 from, float r, float tau,
                            float within, bool reversed)
{
    for (int k = 0; k < n; ++k) {
        int i = reversed ? n - 1 - k : k;
        b[i] = avoid_to_within(spot[i].x, spot[i].y, tau, within);
        ids[i] = avoider(w, i < n - 1 ? spot[i] : from, r, b[i], (uint64_t)i + 1);
    }
}

// Steps the world `steps` times of dt with the latecomer the last of the n
// agents (bound for spot[n - 1]) and the others parked on their spots; then
// releases the behaviours and the world. arrived, closest, off (the parked
// ones' furthest from their spots at the end) and hash as passage says.
static passage run_latecomer(steer_world *w, steer_behaviour **b, const steer_agent_id *ids,
                             const steer_vec2 *spot, int n, float dt, int steps)
{
    passage r = {0.0f, 0.0f, 100.0f, 0};
    for (int s = 1; s <= steps; ++s) {
        steer_world_step(w, dt);
        steer_vec2 late = steer_agent_get_position(w, ids[n - 1]);
        if (r.arrived == 0.0f && steer_length(steer_sub(late, spot[n - 1])) < 0.5f)
            r.arrived = dt * (float)s;
        r.closest = closest_pair(w, ids, n, r.closest);
    }
    for (int i = 0; i < n - 1; ++i) {
        r.off = steer_maxf(r.off,
                           steer_length(steer_sub(steer_agent_get_position(w, ids[i]), spot[i])));
    }
    r.hash = steer_world_hash(w);
    for (int i = 0; i < n; ++i)
        steer_behaviour_release(b[i]);
    steer_world_destroy(w);
    return r;
}

// Five agents of radius 0.5 parked 1.5 m apart across x = 0 (0.5 m between
// bodies: the latecomer needs 2.2 m), each on its own spot; a latecomer
// from (from_x, 0.75) to (to_x, 0.75), straight between the middle two, for
// 40 s. `reversed`: spawned in the other order.
static passage through_a_row(float from_x, float to_x, float tau, bool reversed)
{
    enum { PARKED = 5, N = PARKED + 1 };
    steer_world *w = make_world(7);
    steer_behaviour *b[N];
    steer_agent_id ids[N];
    steer_vec2 spot[N];
    for (int i = 0; i < N; ++i)
        spot[i] = i < PARKED ? steer_v2(0.0f, 1.5f * (float)(i - 2)) : steer_v2(to_x, 0.75f);
    spawn_latecomer(w, b, ids, spot, N, steer_v2(from_x, 0.75f), 0.5f, tau, 6.0f, reversed);
    return run_latecomer(w, b, ids, spot, N, 0.1f, 400);
}

static void a_latecomer_gets_through_a_parked_row(void)
{
    // before: the latecomer stopped at rest 1.1 m from the middle two (the
    // clearance distance), their half of its zero avoidance zero, and
    // nothing moved for the 40 s (from 1.5 m before the row to 1.5 m past
    // it, at both horizons; from 2 m before it to 1 m past it at 5 s); now
    // the two step aside, it is home within 17 s, and they are back on their
    // spots (within the arrive's 0.1 m), with no two bodies overlapping; and
    // spawn order changes no bit
    const float from[2] = {-1.5f, -2.0f}, to[2] = {1.5f, 1.0f}, taus[2] = {2.0f, 5.0f};
    for (int c = 0; c < 2; ++c) {
        for (int t = 0; t < 2; ++t) {
            passage a = through_a_row(from[c], to[c], taus[t], false);
            passage b = through_a_row(from[c], to[c], taus[t], true);
            CHECK(a.arrived > 0.0f && a.arrived < 20.0f);
            CHECK(a.off < 0.12f);
            CHECK(a.closest >= 1.0f - 1e-3f);
            CHECK(a.hash == b.hash && a.arrived == b.arrived);
        }
    }
}

// A goal between two agents parked 0.7 m either side of it (less than a
// body's width: the latecomer on its goal would touch both), reached from
// `from` (x, 0) at horizon tau and step dt for 40 s; `reversed`: spawned in
// the other order.
static passage into_a_line(float from_x, float tau, float dt, bool reversed)
{
    enum { N = 3 };
    steer_world *w = make_world(11);
    steer_behaviour *b[N];
    steer_agent_id ids[N];
    const steer_vec2 spot[N] = {steer_v2(0.0f, -0.7f), steer_v2(0.0f, 0.7f), steer_v2(0.0f, 0.0f)};
    spawn_latecomer(w, b, ids, spot, N, steer_v2(from_x, 0.0f), 0.5f, tau, 6.0f, reversed);
    return run_latecomer(w, b, ids, spot, N, dt, (int)(40.0f / dt + 0.5f));
}

// A world of one latecomer (line_world: from from_x, horizon tau, step dt,
// spawned in order or reversed) over every start, horizon and step of the
// line tests: the latecomer home within `by` s, the held agents' `off`
// within [off_lo, off_hi), no two bodies overlapping, and spawn order
// changing no bit
typedef passage (*line_world)(float from_x, float tau, float dt, bool reversed);
static void every_start(line_world run, float by, float off_lo, float off_hi)
{
    const float from[4] = {-3.0f, 3.0f, -1.0f, 1.0f}, taus[2] = {2.0f, 5.0f},
                dts[2] = {0.05f, 0.1f};
    for (int c = 0; c < 4; ++c) {
        for (int t = 0; t < 2; ++t) {
            for (int d = 0; d < 2; ++d) {
                passage a = run(from[c], taus[t], dts[d], false);
                passage b = run(from[c], taus[t], dts[d], true);
                printf(
                    "  from %.1f, tau %.0f, dt %.2f: home at %.2f s, off %.2f m, closest %.3f m\n",
                    (double)from[c], (double)taus[t], (double)dts[d], (double)a.arrived,
                    (double)a.off, (double)a.closest);
                CHECK(a.arrived > 0.0f && a.arrived < by);
                CHECK(a.off >= off_lo && a.off < off_hi);
                CHECK(a.closest >= 1.0f - 1e-3f);
                CHECK(a.hash == b.hash && a.arrived == b.arrived);
            }
        }
    }
}

static void a_latecomer_gets_into_a_line_of_goals(void)
{
    // before: the latecomer stopped at rest 0.85 m short of its goal (the
    // clearance distance from both) for the 40 s in 10 of the 16 runs (all
    // 8 from 1 m; from 3 m at horizon 5 s and dt 0.1); now the two step
    // aside and on past their spots (room21b), it is home within 9 s, they
    // stay within 0.6 m of their spots (the latecomer on its goal keeps them
    // at least 0.4 m off), with no two bodies overlapping; and spawn order
    // changes no bit
    every_start(into_a_line, 20.0f, 0.0f, 0.65f);
}

// A field of 10 x 10 agents parked 1.5 m apart and 10 latecomers, one
// between each two rows, bound 3 m past the field's far side, on `workers`
// workers for 180 s: how many are home, and the world's hash.
static int through_a_field(int workers, uint64_t *hash)
{
    enum { SIDE = 10, LATE = 10, N = SIDE * SIDE + LATE };
    steer_world_def wd = steer_default_world_def();
    wd.seed = 3;
    wd.worker_count = workers;
    steer_world *w = steer_world_create(&wd);
    steer_behaviour *b[N];
    steer_agent_id ids[N];
    steer_vec2 goal[N];
    for (int i = 0; i < N; ++i) {
        steer_vec2 from;
        if (i < SIDE * SIDE) {
            from = goal[i] = steer_v2(1.5f * (float)(i % SIDE), 1.5f * (float)(i / SIDE));
        } else {
            float y = 1.5f * (float)(i - SIDE * SIDE) - 0.75f;
            from = steer_v2(-3.0f, y);
            goal[i] = steer_v2(1.5f * (float)(SIDE - 1) + 3.0f, y);
        }
        b[i] = avoid_to(goal[i].x, goal[i].y, 2.0f);
        ids[i] = avoider(w, from, 0.5f, b[i], (uint64_t)i + 1);
    }
    for (int s = 0; s < 1800; ++s)
        steer_world_step(w, 0.1f);
    int home = 0;
    for (int i = SIDE * SIDE; i < N; ++i) {
        home += steer_length(steer_sub(steer_agent_get_position(w, ids[i]), goal[i])) < 0.5f;
    }
    *hash = steer_world_hash(w);
    for (int i = 0; i < N; ++i)
        steer_behaviour_release(b[i]);
    steer_world_destroy(w);
    return home;
}

static void latecomers_through_a_field_on_two_workers(void)
{
    // every latecomer through ten rows of parked agents (before: 1 of 10,
    // also in 300 s; 5 of 10 within 90 s now), and the same bits on one
    // worker and on two
    uint64_t h1, h2;
    int one = through_a_field(1, &h1), two = through_a_field(2, &h2);
    printf("  home %d of 10 (one worker), %d (two)\n", one, two);
    CHECK(one == 10);
    CHECK(one == two && h1 == h2);
}

// An agent B whose spot is (0, -1.1) held 0.6 m off it (more than its
// radius) at (0, -0.5) by a body at rest that does not avoid, at (0, -1.6)
// (settled for 10 s), and a latecomer from (from_x, 0) to (0, 0), 0.5 m
// from B: on its goal within 0.5 m it would touch B, so B has to give way.
// Horizon tau, step dt, 40 s; `reversed`: spawned in the other order.
static passage beside_one_held_off(float from_x, float tau, float dt, bool reversed)
{
    enum { N = 3 };
    steer_world *w = make_world(5);
    steer_behaviour *b[N] = {NULL, avoid_to(0.0f, -1.1f, tau), avoid_to(0.0f, 0.0f, tau)};
    const steer_vec2 at[N] = {steer_v2(0.0f, -1.6f), steer_v2(0.0f, -1.1f), steer_v2(from_x, 0.0f)};
    steer_agent_id ids[N];
    const int settle = (int)(10.0f / dt + 0.5f), steps = settle + (int)(40.0f / dt + 0.5f);
    passage r = {0.0f, 0.0f, 100.0f, 0};
    for (int s = 1; s <= steps; ++s) {
        if (s == 1) {
            for (int k = 0; k < 2; ++k) {
                int i = reversed ? 1 - k : k;
                ids[i] = avoider(w, at[i], 0.5f, b[i], (uint64_t)i + 1);
            }
        }
        if (s == settle + 1) {
            const steer_vec2 spot = steer_v2(0.0f, -1.1f);
            r.off = steer_length(steer_sub(steer_agent_get_position(w, ids[1]), spot));
            ids[2] = avoider(w, at[2], 0.5f, b[2], 3);
        }
        steer_world_step(w, dt);
        if (s > settle) {
            if (r.arrived == 0.0f && steer_length(steer_agent_get_position(w, ids[2])) < 0.5f)
                r.arrived = dt * (float)(s - settle);
            r.closest = closest_pair(w, ids, N, r.closest);
        }
    }
    r.hash = steer_world_hash(w);
    for (int i = 1; i < N; ++i)
        steer_behaviour_release(b[i]);
    steer_world_destroy(w);
    return r;
}

static void an_agent_held_off_its_spot_makes_room(void)
{
    // B idle 0.6 m off its spot (further than its radius: it was not
    // parked, and made no room; `off` is B's before the latecomer comes):
    // before, the latecomer stopped at rest 0.59 m from its goal, 1.1 m
    // from B, for the 40 s in 11 of the 16 runs; now B steps aside (within
    // ORCA_ROOM_PARKED radii of its spot, goalline21), it is home within
    // 15 s, no two bodies overlap, and spawn order changes no bit
    every_start(beside_one_held_off, 15.0f, 0.55f, 1.0f);
}

// Bodies of radius 1.75 at a long step (the bigstep settings: dt 0.25 s,
// max speed 2 m/s, neighbours within 15 m): eight parked on a grid 5.2 m
// apart (1.7 m between bodies: a body needs 3.85 m), 3 x 3 with the
// middle spot free, and a latecomer bound for it from 4 m outside the
// grid, behind the middle of one side, at horizon tau and max acceleration
// accel times the max speed, for 60 s
static passage big_into_a_grid(float tau, float accel, bool reversed)
{
    enum { PARKED = 8, N = PARKED + 1 };
    steer_world *w = make_world(5);
    steer_behaviour *b[N];
    steer_agent_id ids[N];
    steer_vec2 spot[N];
    for (int i = 0; i < N; ++i) {
        int c = i < 4 ? i : i + 1; // the grid's places, the middle (4) left free
        spot[i] = i < PARKED ? steer_v2(5.2f * (float)(c % 3 - 1), 5.2f * (float)(c / 3 - 1))
                             : steer_v2(0.0f, 0.0f);
    }
    spawn_latecomer(w, b, ids, spot, N, steer_v2(0.3f, 9.2f), 1.75f, tau, 15.0f, reversed);
    for (int i = 0; i < N; ++i) {
        steer_limits lim = steer_agent_get_limits(w, ids[i]);
        lim.max_speed = 2.0f;
        lim.max_acceleration = accel * 2.0f;
        steer_agent_set_limits(w, ids[i], &lim);
    }
    return run_latecomer(w, b, ids, spot, N, 0.25f, 240);
}

static void a_big_latecomer_gets_into_a_grid_of_parked(void)
{
    // before (ORCA_ROOM_STEP 0.1): at a horizon of 10 s the latecomer
    // never got in (60 s; the parked up to 0.53 m off their spots at the
    // end), at 5 s it was home at 27.75 s; now
    // home at 19.5 s (5 s) and 27.75 s (10 s), the parked back within 0.1 m
    // of their spots, no two bodies overlapping, and spawn order changes
    // no bit (bigswap21)
    const float taus[2] = {5.0f, 10.0f}, accels[2] = {10.0f, 100.0f};
    for (int t = 0; t < 2; ++t) {
        for (int a = 0; a < 2; ++a) {
            passage x = big_into_a_grid(taus[t], accels[a], false);
            passage y = big_into_a_grid(taus[t], accels[a], true);
            printf("  tau %.0f, accel %.0f: home at %.2f s, parked %.2f m off at the end, closest "
                   "%.3f m\n",
                   (double)taus[t], (double)accels[a], (double)x.arrived, (double)x.off,
                   (double)x.closest);
            CHECK(x.arrived > 0.0f && x.arrived < 40.0f);
            CHECK(x.off < 0.12f);
            CHECK(x.closest >= 3.5f - 1e-3f);
            CHECK(x.hash == y.hash && x.arrived == y.arrived);
        }
    }
}

int main(void)
{
    RUN(a_latecomer_gets_through_a_parked_row);
    RUN(latecomers_through_a_field_on_two_workers);
    RUN(a_latecomer_gets_into_a_line_of_goals);
    RUN(an_agent_held_off_its_spot_makes_room);
    RUN(a_big_latecomer_gets_into_a_grid_of_parked);
    return TEST_RESULT();
}
