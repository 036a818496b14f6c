// fuzz_snapshot: the snapshot reader (steer_world_restore) against
// mutated and truncated snapshots.
//
//   fuzz_snapshot --seed N [--count K] [--ops N] [--verbose]
//   fuzz_snapshot --seconds S [--ops N] [--timeout T]
//
// A scene with every part a snapshot holds (shapes of each kind and a
// removed one, a path, a shared subtree, a named callback, formations,
// removed agents, navigating agents with routes, an own goal, a failed
// plan and a navigating formation anchor) is saved; each operation mutates a copy (random bytes,
// extreme words, a truncation, a repeated or dropped stretch), and most of
// the time writes the checksum again so the damage reaches the reader
// behind it. Every restore must either refuse with a message or give a
// world that steps with finite state; the sanitizer builds catch anything
// out of bounds. Exit status 1 on a broken rule, with the seed and op.
// --seconds runs fresh seeds, each in a child process (fuzz_common.h), so
// crashes, hangs and sanitizer reports name their seed.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "steer/steer.h"

static size_t below(size_t n) { return n > 0 ? (size_t)(rnd64() % n) : 0; }

static steer_callback_result spin(steer_world *w, steer_agent_id a, float dt, steer_steering *out, void *context)
{
    (void)w, (void)a, (void)dt, (void)context;
    out->linear = steer_v2(1.0f, 0.0f);
    out->angular = 0.5f;
    return STEER_CALLBACK_STEERING;
}

static bool resolve(const char *name, steer_behaviour_def *def, void *context)
{
    (void)context;
    if (strcmp(name, "spin") != 0) return false;
    def->callback = spin;
    return true;
}

static steer_behaviour *mk(steer_behaviour_def d) { return steer_behaviour_create(&d); }

// A planner for the navigating agents: round the corner (-6, 10) of the
// box (-9, -9)-(-7, 9) when the goal lies past it; none to a goal inside it.
static int corner_route(void *context, steer_vec2 from, steer_vec2 to, float radius, steer_vec2 *points, int capacity,
                        float *length, char *message, int message_size)
{
    (void)context, (void)radius;
    if (to.x > -9.5f && to.x < -6.5f && to.y > -9.5f && to.y < 9.5f) {
        snprintf(message, (size_t)message_size, "goal inside the box");
        return 0;
    }
    steer_vec2 route[3] = {from, {-6.0f, 10.0f}, to};
    int n = to.x < -9.0f ? 3 : 2;
    if (n == 2) route[1] = to;
    *length = 0.0f;
    for (int k = 0; k < n; ++k) {
        if (k < capacity) points[k] = route[k];
        if (k > 0) *length += sqrtf((route[k].x - route[k - 1].x) * (route[k].x - route[k - 1].x) +
                                    (route[k].y - route[k - 1].y) * (route[k].y - route[k - 1].y));
    }
    return n;
}

static uint64_t planner_version(void *context) { return (void)context, 1; }

static void attach_planner(steer_world *w)
{
    steer_planner p = {corner_route, planner_version, NULL, NULL, NULL};
    steer_world_set_planner(w, &p);
}

// Agents that navigate: to a point past the box, on their own goal, to a
// goal inside the box (a failed plan), and a formation's navigating anchor.
static void add_navigation(steer_world *w)
{
    attach_planner(w);
    steer_behaviour_def nd = steer_default_behaviour_def(STEER_NAVIGATE);
    nd.target.kind = STEER_TARGET_POINT, nd.target.point = steer_v2(-12, 0);
    steer_behaviour *past = mk(nd);
    nd.target.point = steer_v2(-8, 0);
    steer_behaviour *inside = mk(nd);
    steer_behaviour *own = mk(steer_default_behaviour_def(STEER_NAVIGATE));
    steer_behaviour *kinds[] = {past, inside, own};
    for (int i = 0; i < 6; ++i) {
        steer_agent_def ad = steer_default_agent_def();
        ad.state.position = steer_v2(2.0f + (float)i, 6.0f);
        ad.behaviour = kinds[i % 3];
        steer_agent_id a = steer_agent_create(w, &ad);
        const steer_vec2 goal = {-14.0f, (float)i};
        if (i % 3 == 2) steer_agent_set_goal(w, a, &goal);
    }
    steer_formation_def fdef = steer_default_formation_def();
    fdef.anchor_position = steer_v2(4, -6);
    fdef.anchor_behaviour = past;
    steer_formation_create(w, &fdef);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) steer_behaviour_release(kinds[k]);
}

static steer_world *scene(void)
{
    steer_world_def wd = steer_default_world_def();
    wd.seed = 5;
    wd.resolve_agent_contacts = true;
    steer_world *w = steer_world_create(&wd);
    steer_world_add_box(w, steer_v2(-9, -9), steer_v2(-7, 9));
    steer_shape_id gone = steer_world_add_circle(w, steer_v2(3, 3), 1);
    steer_vec2 poly[] = {{4, -4}, {6, -4}, {5, -2}};
    steer_world_add_polygon(w, poly, 3);
    steer_vec2 line[] = {{8, -8}, {8, 8}, {9, 9}};
    steer_world_add_polyline(w, line, 3, false);
    steer_world_add_segment(w, steer_v2(-6, 8), steer_v2(6, 8));
    steer_shape_destroy(w, gone);
    steer_vec2 pts[] = {{-5, -5}, {5, -5}, {5, 5}};
    steer_path_def pd = steer_default_path_def();
    pd.points = pts, pd.count = 3, pd.loop = true;
    steer_path *path = steer_path_create(&pd);
    steer_behaviour_def fd = steer_default_behaviour_def(STEER_FOLLOW_PATH);
    fd.path = path;
    steer_behaviour *follow = mk(fd);
    steer_behaviour *wander = mk(steer_default_behaviour_def(STEER_WANDER));
    steer_behaviour_def cd = steer_default_behaviour_def(STEER_CALLBACK);
    cd.callback = spin;
    steer_behaviour *cb = mk(cd);
    steer_behaviour_set_name(cb, "spin");
    steer_child kids[] = {{follow, 1.0f}, {wander, 0.5f}, {cb, 0.1f}};
    steer_behaviour_def bd = steer_default_behaviour_def(STEER_BLEND);
    bd.children = kids, bd.child_count = 3;
    steer_behaviour *blend = mk(bd);
    steer_child pref = {blend, 1.0f};
    steer_behaviour_def rd = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
    rd.children = &pref, rd.child_count = 1;
    steer_behaviour *avoid = mk(rd);
    steer_formation_def fdef = steer_default_formation_def();
    fdef.anchor_path = path;
    fdef.pattern = STEER_PATTERN_V;
    steer_formation_id f = steer_formation_create(w, &fdef);
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_FORMATION_SLOT);
    sd.formation = f;
    steer_behaviour *slot = mk(sd);
    for (int i = 0; i < 24; ++i) {
        steer_agent_def ad = steer_default_agent_def();
        ad.state.position = steer_v2((float)(i % 6) - 3.0f, (float)(i / 6) - 2.0f);
        ad.behaviour = i % 3 == 0 ? avoid : i % 3 == 1 ? wander : slot;
        steer_agent_id a = steer_agent_create(w, &ad);
        if (i % 3 == 2) steer_formation_add(w, f, a, 0);
        if (i % 7 == 5) steer_agent_destroy(w, a);
    }
    steer_behaviour *held[] = {follow, wander, cb, blend, avoid, slot};
    for (size_t k = 0; k < sizeof held / sizeof held[0]; ++k) steer_behaviour_release(held[k]);
    steer_path_release(path);
    add_navigation(w);
    for (int k = 0; k < 3; ++k) steer_world_step(w, 0.05f);
    return w;
}

// The payload starts after the header: magic, format, version, size, checksum.
static size_t payload_at(void) { return 8 + 4 + 4 + strlen(steer_version()) + 8 + 8; }

static void write_checksum(unsigned char *b, size_t size)
{
    size_t at = payload_at();
    if (size < at) return;
    uint64_t h = 0xCBF29CE484222325ull, n = size - at;
    for (size_t i = at; i < size; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
    for (int k = 0; k < 8; ++k) b[at - 16 + k] = (unsigned char)(n >> (8 * k));
    for (int k = 0; k < 8; ++k) b[at - 8 + k] = (unsigned char)(h >> (8 * k));
}

static size_t mutate(const unsigned char *src, size_t size, unsigned char *out)
{
    memcpy(out, src, size);
    size_t n = size;
    size_t at = payload_at() + below(size - payload_at());
    switch (below(6)) {
    case 0: // a few random bytes
        for (int k = 1 + (int)below(4); k > 0; --k) out[payload_at() + below(size - payload_at())] = (unsigned char)rnd64();
        break;
    case 1: { // an extreme word
        static const uint32_t words[] = {0, 1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x7FC00000u /* NaN */,
                                         0x7F800000u /* inf */, 0xFF800000u, 65, 1u << 28};
        uint32_t v = words[below(sizeof words / sizeof words[0])];
        if (at + 4 <= size) memcpy(out + at, &v, 4);
        break;
    }
    case 2: n = at; break; // truncated
    case 3: // a bit flipped
        out[at] ^= (unsigned char)(1u << below(8));
        break;
    case 4: { // a stretch dropped
        size_t len = 1 + below(16);
        if (at + len < size) {
            memmove(out + at, out + at + len, size - at - len);
            n = size - len;
        }
        break;
    }
    default: // a stretch repeated over what follows
        if (at + 8 < size) memcpy(out + at + 4, out + at, 4);
        break;
    }
    if (below(8) != 0) write_checksum(out, n);
    return n;
}

static bool state_finite(const steer_world *w)
{
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_kinematic k = steer_agent_get_state(w, steer_world_agent_at(w, i));
        if (!isfinite(k.position.x) || !isfinite(k.position.y) || !isfinite(k.velocity.x) || !isfinite(k.velocity.y) ||
            !isfinite(k.orientation) || !isfinite(k.rotation))
            return false;
    }
    return true;
}

static void ignore_assert(const char *c, const char *f, int l, void *ctx) { (void)c, (void)f, (void)l, (void)ctx; }

static struct {
    fuzz_options o;
    const char *self;
    const unsigned char *bytes; // the saved scene
    size_t size;
    unsigned char *copy;
    long restored, refused;
} opt = {{0, 0, 1, 500, 0, 0.0, 120.0}, "fuzz_snapshot", NULL, 0, NULL, 0, 0};

// One seed: ops mutated snapshots, each refused with a message or restored
// to a world that steps finite. 1 when every one held.
static int run_seed(unsigned long long seed)
{
    rng_state = seed;
    steer_restore_def rd = steer_default_restore_def();
    rd.resolve = resolve;
    int failures = 0;
    for (int op = 0; op < opt.o.ops; ++op) {
        size_t n = mutate(opt.bytes, opt.size, opt.copy);
        steer_snapshot_error e = {{0}};
        rd.worker_count = 1 + (int)below(2);
        steer_world *r = steer_world_restore(opt.copy, n, &rd, &e);
        if (r == NULL) {
            ++opt.refused;
            if (e.message[0] == '\0') {
                printf("FAIL seed %llu op %d: refused without a message\n", seed, op);
                ++failures;
            }
            continue;
        }
        ++opt.restored;
        attach_planner(r);
        for (int k = 0; k < 3; ++k) steer_world_step(r, 0.05f);
        if (!state_finite(r)) {
            printf("FAIL seed %llu op %d: a restored world stepped to non-finite state\n", seed, op);
            ++failures;
        }
        steer_world_destroy(r);
    }
    if (opt.o.verbose) printf("seed %llu: %ld restored, %ld refused so far\n", seed, opt.restored, opt.refused);
    return failures == 0;
}

static void replay_command(char *b, size_t size, unsigned long long seed)
{
    snprintf(b, size, "%s --seed %llu --ops %d", opt.self, seed, opt.o.ops);
}

int main(int argc, char **argv)
{
    opt.self = argv[0];
    for (int i = 1; i < argc; ++i) {
        int took = fuzz_common_option(&opt.o, argc, argv, i);
        if (took <= 0) {
            fprintf(stderr, "usage: %s (--seed N [--count K] | --seconds S [--timeout T]) [--ops N] [--verbose]\n",
                    argv[0]);
            return 2;
        }
        i += took - 1;
    }
    // a restored world with odd but valid values may assert in a step; the
    // rule here is no crash and no non-finite state
    steer_set_assert_fn(ignore_assert, NULL);
    rng_state = 0; // the scene is the same for every seed
    steer_world *w = scene();
    // the scene's navigating agents hold plans (routes, a failed one) for the mutations to reach
    int planned = 0, failed = 0;
    for (int i = 0; i < steer_world_agent_count(w); ++i) {
        steer_plan_info info;
        planned += steer_agent_get_plan(w, steer_world_agent_at(w, i), NULL, 0, &info) >= 2;
        failed += info.status == STEER_PLAN_FAILED;
    }
    if (planned < 4 || failed < 2) return fprintf(stderr, "the scene lacks plans (%d, %d failed)\n", planned, failed), 1;
    size_t size = 0;
    steer_world_snapshot(w, NULL, NULL, 0, &size, NULL);
    unsigned char *bytes = malloc(size);
    opt.copy = malloc(size);
    if (bytes == NULL || opt.copy == NULL || !steer_world_snapshot(w, NULL, bytes, size, &size, NULL))
        return fprintf(stderr, "cannot save\n"), 1;
    opt.bytes = bytes, opt.size = size;
    fuzz_driver d = {"fuzz_snapshot", opt.o.seconds, opt.o.timeout, opt.o.ops, run_seed, replay_command, NULL, NULL};
    int status = fuzz_main(&opt.o, &d, argv[0], "");
    // the mutations must reach the reader's refusals (not only checksum failures)
    if (opt.o.seconds <= 0) {
        printf("fuzz_snapshot: %ld restored, %ld refused\n", opt.restored, opt.refused);
        if (opt.refused == 0) status = 1;
    }
    free(bytes);
    free(opt.copy);
    steer_world_destroy(w);
    return status;
}
