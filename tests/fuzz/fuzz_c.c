// fuzz_c: a seeded op-sequence fuzzer for the engine's C API.
//
//   fuzz_c --seed N [--count K] [--ops N] [--avoid-known] [--verbose]
//   fuzz_c --seconds S [--ops N] [--timeout T]
//   fuzz_c --known        (what --avoid-known steers around)
//
// Random sequences of steer_* calls: worlds, agents, behaviours of every type
// with random definitions (extreme and invalid values, bad cookies, bad
// enums), set_param, set_children, set_target, set_path, shapes, rays, steps,
// and callback behaviours that call mutating APIs in the middle of a step.
// The assert hook counts refusals instead of aborting. After every operation
// the invariants are checked: agent counts match the fuzzer's own, all agent
// state is finite, speed <= max_speed after a step, orientation in (-pi, pi],
// removed ids are invalid and refused, ray hits and previews are finite, a
// preview changes nothing. A broken invariant prints the seed, the op index
// and the replay command, and the exit status is 1. --seconds runs fresh
// seeds, each in a child process (so crashes and hangs are caught), until the
// time is up.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "steer/steer.h"

static const char KNOWN[] =
    "--avoid-known steers around these open findings of issue 9:\n"
    "  #1  nesting limit: combinator depth capped at 150\n"
    "  #2  shared sub-trees: expanded tree size capped at 4096 (sharing depth 12)\n"
    "  #3,4 denormal ray directions: rays with 0 < |direction| < 1e-18 are skipped\n"
    "  #5  contact resolution near surfaces: coordinates with 0 < |v| < 1e-30 become 0\n"
    "  #6  follow_path path_offset: |path_offset| capped at 1e37\n"
    "  #7  blend overflow: |weight| capped at 1e3, callback outputs at 1e15, limits at 1e15\n"
    "  #9  set_param storing NaN: NaN is not passed to steer_behaviour_set_param\n"
    "  #10 tiny cell_size: cell_size below 1e-30 is not tried\n"
    "  #13 get_steering of a callback behaviour: no world change is tried from inside it\n";

/* ---- options and random numbers --------------------------------------------------------- */

static struct {
    fuzz_options o;
    int avoid;
    const char *self;
} opt = {{0, 0, 1, 2000, 0, 0.0, 120.0}, 0, "fuzz_c"}; // every finding of issue 9 is fixed: nothing avoided

static float small(void) { return (float)((unit() * 2.0 - 1.0) * 20.0); }

static const float EXTREME[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-40f, 1e-38f, 1e-30f, 1e-7f, 3.4e38f, -3.4e38f,
                                3.40282347e38f, -3.40282347e38f, 1e30f, -1e30f, 1e20f, 16777217.0f, 1e15f, -1e15f,
                                1e16f, 3.14159265f, -3.14159265f, 6.2831853f, 1.0f, -1.0f, 0.5f};
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

// Any float: plain, extreme, or invalid (NaN, infinities, negative).
static float any_float(void)
{
    double r = unit();
    if (r < 0.5) return (float)((unit() * 2.0 - 1.0) * (double)(chance(0.5) ? 10 : 100));
    if (r < 0.85) return EXTREME[rnd(COUNT_OF(EXTREME))];
    switch (rnd(4)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    default: return -(float)unit() * 10.0f;
    }
}
static float coord(void)
{
    float v = chance(0.7) ? small() : any_float();
    if (opt.avoid && v != 0.0f && fabsf(v) < 1e-30f) v = 0.0f; // #5
    return v;
}
static float nonneg(void) { return chance(0.75) ? (float)(unit() * 10.0) : any_float(); }
static float positive(void) { return chance(0.75) ? (float)(unit() * 10.0 + 0.01) : any_float(); }
static int finitef(float v) { return isfinite(v); }

/* ---- state --------------------------------------------------------------------------------- */

#define MAX_WORLDS 4
#define MAX_AGENTS 96
#define MAX_POOL 40
#define MAX_REMOVED 64
#define MAX_SHAPES 32
#define MAX_FORMATIONS 8

typedef struct fworld {
    steer_world *w;
    steer_agent_id agents[MAX_AGENTS];
    int count;
    int dirty; // velocities or max_speed changed since the last step
    steer_shape_id shapes[MAX_SHAPES];
    int shape_count;
    steer_formation_id formations[MAX_FORMATIONS]; // made here (some destroyed since)
    int formation_count;
    int removal_pending; // an agent was removed since the last step (members leave at the step)
} fworld;

typedef struct removed_agent {
    int world; // index into S.worlds at the time (cleared when the world goes)
    steer_agent_id id;
} removed_agent;

static struct {
    fworld worlds[MAX_WORLDS];
    steer_behaviour *pool[MAX_POOL];
    int pool_count;
    steer_path *paths[8];
    int path_count;
    removed_agent removed[MAX_REMOVED];
    int removed_count;
    long asserts;
    const char *last_assert;
    int stepping[MAX_WORLDS]; // nesting of steps per world
    int previewing;          // inside steer_behaviour_get_steering (any world)
    int previewed[MAX_WORLDS]; // nesting of previews per world
    int callback_depth;
    long calls;
    long mutations; // world changes accepted from callbacks (not stepping)
    char violation[1024];
    int has_violation;
} S;

static void violation(const char *fmt, ...)
{
    if (S.has_violation) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S.violation, sizeof S.violation, fmt, ap);
    va_end(ap);
    S.has_violation = 1;
}

static void count_assert(const char *condition, const char *file, int line, void *context)
{
    (void)file;
    (void)line;
    (void)context;
    ++S.asserts;
    S.last_assert = condition;
}

static int world_index(const steer_world *w)
{
    for (int i = 0; i < MAX_WORLDS; ++i)
        if (S.worlds[i].w == w && w != NULL) return i;
    return -1;
}

static void note_removed(int world, steer_agent_id id)
{
    removed_agent r = {world, id};
    if (S.removed_count < MAX_REMOVED) S.removed[S.removed_count++] = r;
    else S.removed[rnd(MAX_REMOVED)] = r;
}

static void forget_agent(fworld *fw, int i)
{
    fw->removal_pending = 1;
    note_removed((int)(fw - S.worlds), fw->agents[i]);
    fw->agents[i] = fw->agents[--fw->count];
}

static fworld *some_world(void)
{
    int live[MAX_WORLDS], n = 0;
    for (int i = 0; i < MAX_WORLDS; ++i)
        if (S.worlds[i].w != NULL) live[n++] = i;
    return n == 0 ? NULL : &S.worlds[live[rnd(n)]];
}

static steer_behaviour *some_behaviour(void)
{
    if (S.pool_count == 0) return NULL;
    return S.pool[rnd(S.pool_count)];
}

static void pool_add(steer_behaviour *b)
{
    if (b == NULL) return;
    if (S.pool_count < MAX_POOL) {
        S.pool[S.pool_count++] = b;
    } else {
        int i = rnd(MAX_POOL);
        steer_behaviour_release(S.pool[i]);
        S.pool[i] = b;
    }
}

// Live agent, or (sometimes) a removed or foreign id.
static steer_agent_id some_agent(fworld *fw)
{
    if (chance(0.1) && S.removed_count > 0) return S.removed[rnd(S.removed_count)].id;
    if (chance(0.03)) return (steer_agent_id){(uint32_t)rnd64(), (uint32_t)rnd64()};
    if (fw == NULL || fw->count == 0) return steer_null_agent;
    return fw->agents[rnd(fw->count)];
}
static int is_live(const fworld *fw, steer_agent_id id)
{
    for (int i = 0; i < fw->count; ++i)
        if (steer_agent_id_equal(fw->agents[i], id)) return i;
    return -1;
}

/* ---- tree measures (for --avoid-known #1, #2) ------------------------------------------------ */

typedef struct memo_entry {
    const steer_behaviour *b;
    int depth;
    double size;
} memo_entry;
static memo_entry memo[4096];
static int memo_count;

static void measure(const steer_behaviour *b, int *depth, double *size)
{
    for (int i = 0; i < memo_count; ++i) {
        if (memo[i].b == b) {
            *depth = memo[i].depth;
            *size = memo[i].size;
            return;
        }
    }
    int d = 1;
    double s = 1.0;
    int n = steer_behaviour_child_count(b);
    for (int i = 0; i < n; ++i) {
        int cd;
        double cs;
        measure(steer_behaviour_get_child(b, i).behaviour, &cd, &cs);
        if (cd + 1 > d) d = cd + 1;
        s += cs;
    }
    if (memo_count < COUNT_OF(memo)) memo[memo_count++] = (memo_entry){b, d, s};
    *depth = d;
    *size = s;
}

#define AVOID_DEPTH 150
#define AVOID_SIZE 4096.0

// Would a combinator with these children pass the --avoid-known caps?
// `extra` is the height of the combinator's own ancestors (0 for a new one).
static int too_big(const steer_child *children, int n)
{
    if (!opt.avoid) return 0;
    memo_count = 0;
    int depth = 1;
    double size = 1.0;
    for (int i = 0; i < n; ++i) {
        if (children[i].behaviour == NULL) continue;
        int d;
        double s;
        measure(children[i].behaviour, &d, &s);
        if (d + 1 > depth) depth = d + 1;
        size += s;
    }
    return depth > AVOID_DEPTH || size > AVOID_SIZE;
}

// Behaviours that are a child of some combinator: under --avoid-known their
// children are not replaced (the caps are measured from the root down).
#define MAX_PARENTED 4096
static const steer_behaviour *parented[MAX_PARENTED];
static int parented_count;
static int has_parent(const steer_behaviour *b)
{
    for (int i = 0; i < parented_count; ++i)
        if (parented[i] == b) return 1;
    return 0;
}
static void note_parent(const steer_behaviour *b)
{
    if (b == NULL || has_parent(b)) return;
    if (parented_count < MAX_PARENTED) parented[parented_count++] = b;
    else parented[rnd(MAX_PARENTED)] = b; // forgetting one only loosens the cap check
}

/* ---- callback behaviours ------------------------------------------------------------------- */

static void step_world(fworld *fw, float dt);
static steer_formation_id some_formation(fworld *fw);
static void preview(steer_behaviour *b, fworld *fw, steer_agent_id a);

static float limit_value(void)
{
    float v = nonneg();
    if (opt.avoid && finitef(v) && v > 1e15f) v = 1e15f; // #7
    return v;
}

// A world change from inside a callback. Refused (assert) while that world
// steps; accepted otherwise, and then counted by the fuzzer.
static void mutate_from_callback(fworld *fw)
{
    int wi = (int)(fw - S.worlds);
    if (opt.avoid && S.previewing) return; // #13
    int busy = S.stepping[wi] > 0;
    int previewed = S.previewed[wi] > 0;
    long before = S.asserts;
    int accepted = 0;
    const char *what = "";
    switch (rnd(9)) {
    case 0: {
        what = "agent_create";
        if (fw->count >= MAX_AGENTS - 1) return;
        steer_agent_def d = steer_default_agent_def();
        d.state.position = steer_v2(small(), small());
        steer_agent_id id = steer_agent_create(fw->w, &d);
        if (!steer_agent_id_is_null(id)) {
            accepted = 1;
            if (fw->count < MAX_AGENTS) fw->agents[fw->count++] = id;
            else violation("more agents than the fuzzer can track");
        }
        break;
    }
    case 1:
        what = "agent_destroy";
        if (fw->count > 0) {
            int i = rnd(fw->count);
            steer_agent_destroy(fw->w, fw->agents[i]);
            if (!steer_agent_is_valid(fw->w, fw->agents[i])) {
                accepted = 1;
                forget_agent(fw, i);
            }
        }
        break;
    case 2:
        what = "set_position";
        if (fw->count > 0) {
            steer_agent_id id = fw->agents[rnd(fw->count)];
            steer_vec2 p = steer_v2(small(), small());
            steer_agent_set_position(fw->w, id, p);
            accepted = S.asserts == before;
        }
        break;
    case 3:
        what = "set_velocity";
        if (fw->count > 0) {
            steer_agent_set_velocity(fw->w, fw->agents[rnd(fw->count)], steer_v2(small(), small()));
            accepted = S.asserts == before;
            if (accepted) fw->dirty = 1;
        }
        break;
    case 4:
        what = "set_behaviour";
        if (fw->count > 0) {
            steer_agent_set_behaviour(fw->w, fw->agents[rnd(fw->count)], some_behaviour(), chance(0.5));
            accepted = S.asserts == before;
        }
        break;
    case 5:
        what = "set_limits";
        if (fw->count > 0) {
            steer_limits l = steer_default_limits();
            l.max_speed = (float)(unit() * 10.0);
            steer_agent_set_limits(fw->w, fw->agents[rnd(fw->count)], &l);
            accepted = S.asserts == before;
            if (accepted) fw->dirty = 1;
        }
        break;
    case 6:
        what = "step";
        if (busy || previewed || S.callback_depth > 2) {
            uint64_t steps = steer_world_step_count(fw->w);
            steer_world_step(fw->w, 1.0f / 60.0f);
            accepted = steer_world_step_count(fw->w) != steps;
        } else {
            step_world(fw, 1.0f / 60.0f);
            return;
        }
        break;
    case 7:
        what = "add_circle";
        {
            steer_shape_id s = steer_world_add_circle(fw->w, steer_v2(small(), small()), 1.0f);
            accepted = !steer_shape_id_is_null(s);
            if (accepted && fw->shape_count < MAX_SHAPES) fw->shapes[fw->shape_count++] = s;
        }
        break;
    default:
        what = "set_cell_size";
        steer_world_set_cell_size(fw->w, 2.0f);
        accepted = S.asserts == before;
        break;
    }
    if (accepted && (busy || previewed))
        violation("a callback changed a world (%s) while it was %s", what, busy ? "stepping" : "previewed by get_steering");
    if (accepted) ++S.mutations;
}

static steer_callback_result fuzz_callback(steer_world *world, steer_agent_id agent, float dt, steer_steering *out,
                                           void *context)
{
    (void)dt;
    (void)context;
    if (++S.calls > 3000) {
        out->linear = steer_v2(0.5f, 0.5f);
        out->angular = 0.0f;
        return STEER_CALLBACK_STEERING;
    }
    ++S.callback_depth;
    int r = rnd(100);
    if (r < 20) {
        int wi = world_index(world);
        fworld *fw = (wi >= 0 && chance(0.7)) ? &S.worlds[wi] : some_world();
        if (fw != NULL) mutate_from_callback(fw);
    } else if (r < 30) {
        // no behaviour may change mid-step (docs/engine.md, mid-step rules)
        steer_behaviour *b = some_behaviour();
        if (b != NULL) {
            long before = S.asserts;
            const char *what = "set_param";
            steer_behaviour_type t = steer_behaviour_get_type(b);
            int n = steer_behaviour_param_count(t);
            switch (rnd(4)) {
            case 0:
                if (n > 0) steer_behaviour_set_param(b, steer_behaviour_param(t, rnd(n)), unit() * 5.0);
                else before = -1;
                break;
            case 1:
                what = "set_target";
                steer_behaviour_set_target(b, (steer_target){STEER_TARGET_POINT, steer_v2(small(), small()), agent});
                break;
            case 2: {
                what = "set_children";
                steer_child c = {some_behaviour(), 1.0f};
                if (t == STEER_BLEND || t == STEER_PRIORITY) steer_behaviour_set_children(b, &c, chance(0.5));
                else before = -1;
                break;
            }
            default:
                what = "set_path";
                steer_behaviour_set_path(b, S.path_count > 0 ? S.paths[rnd(S.path_count)] : NULL);
                break;
            }
            if (before >= 0 && S.asserts == before)
                violation("%s of a %s was accepted from a callback mid-step", what, steer_behaviour_type_name(t));
        }
    } else if (r < 36) {
        steer_behaviour *b = some_behaviour();
        int wi = world_index(world);
        if (b != NULL && wi >= 0 && S.callback_depth < 3) preview(b, &S.worlds[wi], agent);
    } else if (r < 45) {
        steer_kinematic k = steer_agent_get_state(world, agent);
        (void)k;
        steer_ray_hit hit;
        steer_world_raycast(world, steer_v2(small(), small()), steer_v2(1.0f, 0.0f), 10.0f, NULL, &hit);
    }
    --S.callback_depth;
    int out_kind = rnd(10);
    if (out_kind < 6) {
        out->linear = steer_v2(small(), small());
        out->angular = small();
        return STEER_CALLBACK_STEERING;
    }
    if (out_kind == 6) return STEER_CALLBACK_NONE;
    if (out_kind == 7) return STEER_CALLBACK_ERROR;
    out->linear = steer_v2(any_float(), any_float());
    out->angular = any_float();
    if (opt.avoid) {
        // #7: huge outputs overflow a blend's weighted sum
        if (finitef(out->linear.x) && fabsf(out->linear.x) > 1e15f) out->linear.x = 1e15f;
        if (finitef(out->linear.y) && fabsf(out->linear.y) > 1e15f) out->linear.y = 1e15f;
        if (finitef(out->angular) && fabsf(out->angular) > 1e15f) out->angular = 1e15f;
    }
    return STEER_CALLBACK_STEERING;
}

static int released_contexts;
static void fuzz_release(void *context)
{
    (void)context;
    ++released_contexts;
}

/* ---- operations ---------------------------------------------------------------------------------- */

static void op_new_world(void)
{
    int slot = -1;
    for (int i = 0; i < MAX_WORLDS; ++i)
        if (S.worlds[i].w == NULL) slot = i;
    if (slot < 0) return;
    steer_world_def d = steer_default_world_def();
    d.seed = rnd64() % 1000;
    if (chance(0.3)) d.integrator = (steer_integrator)(chance(0.9) ? rnd(2) : rnd(5) - 2);
    if (chance(0.3)) {
        d.cell_size = chance(0.6) ? (float)(unit() * 8.0 + 0.1) : any_float();
        if (opt.avoid && d.cell_size > 0.0f && d.cell_size < 1e-30f) d.cell_size = 1e-30f; // #10
    }
    if (chance(0.2)) d.agent_capacity = (int[]){0, 1, 5, 1000, -1}[rnd(5)];
    d.resolve_contacts = chance(0.4);
    d.resolve_agent_contacts = chance(0.3);
    if (chance(0.6)) d.worker_count = chance(0.95) ? 1 + rnd(4) : (int[]){0, -1, 65, 1000}[rnd(4)];
    if (chance(0.03)) d.cookie = 0;
    steer_world *w = steer_world_create(chance(0.02) ? NULL : &d);
    if (w != NULL) {
        memset(&S.worlds[slot], 0, sizeof S.worlds[slot]);
        S.worlds[slot].w = w;
    }
}

static void drop_world(int wi)
{
    for (int i = 0; i < S.removed_count;) {
        if (S.removed[i].world == wi) S.removed[i] = S.removed[--S.removed_count];
        else ++i;
    }
    memset(&S.worlds[wi], 0, sizeof S.worlds[wi]);
}

static void op_destroy_world(void)
{
    fworld *fw = some_world();
    if (fw == NULL) return;
    steer_world_destroy(fw->w);
    drop_world((int)(fw - S.worlds));
}

static steer_limits random_limits(void)
{
    steer_limits l = steer_default_limits();
    if (chance(0.3)) l.radius = chance(0.8) ? (float)(unit() * 5.0) : limit_value();
    if (chance(0.3)) l.max_speed = chance(0.8) ? (float)(unit() * 20.0) : limit_value();
    if (chance(0.3)) l.max_acceleration = chance(0.8) ? (float)(unit() * 20.0) : limit_value();
    if (chance(0.2)) l.max_rotation = limit_value();
    if (chance(0.2)) l.max_angular_acceleration = limit_value();
    if (chance(0.2)) l.drag = chance(0.8) ? (float)(unit() * 3.0) : limit_value();
    return l;
}

static void op_spawn(void)
{
    fworld *fw = some_world();
    if (fw == NULL || fw->count >= MAX_AGENTS - 8) return;
    steer_agent_def d = steer_default_agent_def();
    int clean = chance(0.7);
    d.state.position = steer_v2(clean ? small() : coord(), clean ? small() : coord());
    if (chance(0.3)) d.state.velocity = steer_v2(clean ? small() : any_float(), clean ? small() : any_float());
    if (chance(0.3)) d.state.orientation = clean ? small() : any_float();
    if (chance(0.2)) d.state.rotation = clean ? small() : any_float();
    if (chance(0.5)) d.limits = random_limits();
    d.kinematic = chance(0.2);
    d.face_velocity = chance(0.3);
    d.behaviour = chance(0.8) ? some_behaviour() : NULL;
    if (chance(0.1)) d.key = rnd64() % 100;
    if (chance(0.02)) d.cookie = 1;
    steer_agent_id id = steer_agent_create(chance(0.01) ? NULL : fw->w, &d);
    if (!steer_agent_id_is_null(id)) {
        fw->agents[fw->count++] = id;
        // a new agent's velocity is not clamped until its first step
        fw->dirty = 1;
    }
}

static void op_agent(void)
{
    fworld *fw = some_world();
    if (fw == NULL) return;
    steer_agent_id id = some_agent(fw);
    steer_world *w = fw->w;
    switch (rnd(12)) {
    case 0: {
        steer_kinematic k = steer_agent_get_state(w, id);
        k.position = chance(0.5) ? k.position : steer_v2(coord(), coord());
        if (chance(0.3)) k.velocity = steer_v2(any_float(), any_float());
        if (chance(0.3)) k.orientation = any_float();
        if (chance(0.3)) k.rotation = any_float();
        steer_agent_set_state(w, id, &k);
        fw->dirty = 1;
        break;
    }
    case 1: steer_agent_set_position(w, id, steer_v2(coord(), coord())); break;
    case 2:
        steer_agent_set_velocity(w, id, steer_v2(chance(0.7) ? small() : any_float(), any_float()));
        fw->dirty = 1;
        break;
    case 3: {
        steer_limits l = random_limits();
        steer_agent_set_limits(w, id, &l);
        fw->dirty = 1;
        break;
    }
    case 4:
        steer_agent_set_kinematic(w, id, chance(0.5));
        fw->dirty = 1;
        break;
    case 5: steer_agent_set_face_velocity(w, id, chance(0.5)); break;
    case 6: steer_agent_set_behaviour(w, id, chance(0.9) ? some_behaviour() : NULL, chance(0.5)); break;
    case 7: {
        int i = is_live(fw, id);
        steer_agent_destroy(w, id);
        if (i >= 0) {
            if (steer_agent_is_valid(w, id)) violation("steer_agent_destroy left a live agent valid");
            forget_agent(fw, i);
        }
        break;
    }
    case 8: steer_agent_set_user_data(w, id, &S); break;
    case 9: {
        steer_steering s = steer_agent_get_last_steering(w, id);
        float o = steer_agent_get_orientation(w, id);
        (void)steer_agent_get_key(w, id);
        (void)steer_agent_get_behaviour(w, id);
        (void)steer_agent_get_user_data(w, id);
        if (is_live(fw, id) >= 0 && !(finitef(s.linear.x) && finitef(s.linear.y) && finitef(s.angular) && finitef(o)))
            violation("a live agent's last steering or orientation is not finite");
        break;
    }
    case 10: {
        steer_agent_id out[16];
        int cap = chance(0.9) ? 16 : rnd(3);
        int n = steer_world_query(w, steer_v2(coord(), coord()), chance(0.7) ? (float)(unit() * 30.0) : any_float(),
                                  out, cap);
        if (n > fw->count) violation("query found %d agents of %d", n, fw->count);
        for (int i = 0; i < n && i < cap; ++i)
            if (is_live(fw, out[i]) < 0) violation("query returned an agent the fuzzer does not know");
        break;
    }
    default:
        // the agent in another world
        for (int i = 0; i < MAX_WORLDS; ++i) {
            if (S.worlds[i].w != NULL && &S.worlds[i] != fw) steer_agent_set_position(S.worlds[i].w, id, steer_v2(1, 1));
        }
        break;
    }
}

static steer_target random_target(fworld *fw)
{
    steer_target t;
    memset(&t, 0, sizeof t);
    int r = rnd(10);
    if (r < 4) {
        t.kind = STEER_TARGET_POINT;
        t.point = steer_v2(chance(0.8) ? small() : any_float(), chance(0.8) ? small() : any_float());
    } else if (r < 8) {
        t.kind = STEER_TARGET_AGENT;
        t.agent = some_agent(fw);
    } else if (r < 9) {
        t.kind = STEER_TARGET_NONE;
    } else {
        t.kind = (steer_target_kind)(rnd(5) + 3);
    }
    return t;
}

static float weight(void)
{
    float w = chance(0.7) ? (float)(unit() * 4.0 - 1.0) : any_float();
    if (opt.avoid && finitef(w) && fabsf(w) > 1e3f) w = 1e3f; // #7
    return w;
}

// Random float fields of a definition: each field with some chance.
static void perturb_def(steer_behaviour_def *d)
{
    float *fields[] = {&d->radius, &d->time_to_target, &d->target_radius, &d->slow_radius, &d->orientation,
                       &d->max_prediction, &d->wander_offset, &d->wander_radius, &d->wander_rate, &d->path_offset,
                       &d->predict_time, &d->decay_coefficient, &d->cone_threshold, &d->panic_radius, &d->lookahead,
                       &d->avoid_distance, &d->whisker_angle, &d->whisker_scale, &d->epsilon};
    for (int i = 0; i < COUNT_OF(fields); ++i) {
        if (chance(0.12)) *fields[i] = chance(0.5) ? positive() : any_float();
    }
    float *limits[] = {&d->max_speed, &d->max_acceleration, &d->max_rotation, &d->max_angular_acceleration};
    for (int i = 0; i < 4; ++i)
        if (chance(0.05)) *limits[i] = chance(0.3) ? -1.0f : limit_value();
    if (opt.avoid && finitef(d->path_offset) && fabsf(d->path_offset) > 1e37f) d->path_offset = 1e37f; // #6
    if (chance(0.05)) d->law = (steer_separation_law)(rnd(4) - 1);
    if (chance(0.05)) d->rays = (steer_ray_layout)(rnd(5) - 1);
    d->arrive_on_overshoot = chance(0.3);
    d->use_cone = chance(0.3);
    d->use_panic_radius = chance(0.3);
    d->scale_lookahead = chance(0.3);
}

static void op_new_behaviour(void)
{
    fworld *fw = some_world();
    int t = chance(0.98) ? rnd(STEER_BEHAVIOUR_TYPE_COUNT) : rnd(40) - 10;
    steer_behaviour_def d = steer_default_behaviour_def((steer_behaviour_type)(t >= 0 && t < STEER_BEHAVIOUR_TYPE_COUNT ? t : 0));
    d.type = (steer_behaviour_type)t;
    if (chance(0.6)) d.target = random_target(fw);
    if (chance(0.3)) perturb_def(&d);
    if (t == STEER_FOLLOW_PATH && S.path_count > 0 && chance(0.9)) d.path = S.paths[rnd(S.path_count)];
    steer_child children[5];
    if (t == STEER_FORMATION_SLOT || chance(0.01)) d.formation = some_formation(fw);
    if (t == STEER_RECIPROCAL_AVOIDANCE) {
        if (chance(0.3)) d.max_neighbours = chance(0.8) ? (float)(1 + rnd(64)) : any_float();
        if (chance(0.3)) d.time_horizon = positive();
        if (chance(0.3)) d.obstacle_time_horizon = positive();
    }
    if (t == STEER_BLEND || t == STEER_PRIORITY || t == STEER_RECIPROCAL_AVOIDANCE || chance(0.02)) {
        int n = t == STEER_RECIPROCAL_AVOIDANCE && chance(0.9) ? 1 : rnd(5);
        for (int i = 0; i < n; ++i) {
            children[i].behaviour = chance(0.97) ? some_behaviour() : NULL;
            children[i].weight = weight();
        }
        if (too_big(children, n)) return;
        d.children = children;
        d.child_count = chance(0.98) ? n : -1;
    }
    if (t == STEER_CALLBACK || chance(0.01)) {
        d.callback = chance(0.97) ? fuzz_callback : NULL;
        d.context = &S;
        d.release = chance(0.5) ? fuzz_release : NULL;
    }
    if (chance(0.02)) d.cookie = 0;
    steer_behaviour *b = steer_behaviour_create(&d);
    if (b != NULL) {
        for (int i = 0; i < d.child_count; ++i) note_parent(children[i].behaviour);
        pool_add(b);
    }
}

static void op_set_param(void)
{
    steer_behaviour *b = some_behaviour();
    if (b == NULL) return;
    steer_behaviour_type t = steer_behaviour_get_type(b);
    int n = steer_behaviour_param_count(t);
    if (n == 0) return;
    const steer_param_info *p = steer_behaviour_param(t, rnd(n));
    double v = chance(0.5) ? unit() * 10.0 : (chance(0.8) ? (double)any_float() : (chance(0.5) ? 1e300 : -2.0));
    if (p->kind == STEER_PARAM_ENUM && chance(0.7)) v = rnd(4);
    if (opt.avoid && isnan(v)) return;                                                     // #9
    if (opt.avoid && strcmp(p->name, "path_offset") == 0 && fabs(v) > 1e37) return;        // #6
    if (opt.avoid && p->kind == STEER_PARAM_LIMIT && v > 1e15) return;                      // #7
    char buf[128];
    const char *why = steer_param_check(steer_behaviour_get_def(b), p, v, buf, sizeof buf);
    long before = S.asserts;
    bool ok = steer_behaviour_set_param(b, p, v);
    if (ok != (S.asserts == before)) violation("set_param(%s) returned %d with %ld asserts", p->name, ok, S.asserts - before);
    if (ok && why != NULL && !(p->kind == STEER_PARAM_LIMIT && v < 0) && !(p->kind == STEER_PARAM_OPTIONAL && v < -1))
        violation("set_param(%s, %g) accepted what steer_param_check refuses (%s)", p->name, v, why);
    double back = steer_behaviour_get_param(b, p);
    if (isnan(back) && !(p->kind == STEER_PARAM_OPTIONAL)) violation("param %s reads back NaN", p->name);
    if (steer_behaviour_find_param(t, p->name) != p) violation("find_param(%s) is not param(i)", p->name);
}

static void op_children(void)
{
    steer_behaviour *b = some_behaviour();
    if (b == NULL) return;
    if (opt.avoid && has_parent(b)) return;
    steer_child children[4];
    int n = rnd(4);
    for (int i = 0; i < n; ++i) {
        children[i].behaviour = chance(0.97) ? some_behaviour() : NULL;
        children[i].weight = weight();
    }
    if (chance(0.05) && n > 0) children[0].behaviour = b; // itself: refused
    if (too_big(children, n)) return;
    if (steer_behaviour_set_children(b, children, n)) {
        for (int i = 0; i < n; ++i) note_parent(children[i].behaviour);
        if (steer_behaviour_child_count(b) != n) violation("set_children: child count %d, expected %d", steer_behaviour_child_count(b), n);
    }
    for (int i = 0; i < steer_behaviour_child_count(b); ++i)
        if (steer_behaviour_get_child(b, i).behaviour == b) violation("a combinator contains itself");
}

static void op_deep_chain(void)
{
    int levels = opt.avoid ? 1 + rnd(AVOID_DEPTH - 2) : (chance(0.1) ? 1000 + rnd(30000) : 1 + rnd(400));
    steer_behaviour_def d = steer_default_behaviour_def(STEER_BLEND);
    steer_behaviour *top = steer_behaviour_create(&d);
    steer_behaviour *b = top;
    steer_behaviour_def sd = steer_default_behaviour_def(STEER_SEEK);
    sd.target = (steer_target){STEER_TARGET_POINT, steer_v2(1, 0), steer_null_agent};
    for (int i = 0; i < levels && b != NULL; ++i) {
        steer_behaviour *seek = steer_behaviour_create(&sd);
        steer_child c = {seek, 1.0f};
        d.children = &c;
        d.child_count = 1;
        steer_behaviour *nb = steer_behaviour_create(&d);
        steer_behaviour_release(seek);
        d.children = NULL;
        d.child_count = 0;
        if (nb == NULL) break;
        steer_child link = {nb, 1.0f};
        bool ok = steer_behaviour_set_children(b, &link, 1);
        steer_behaviour_release(nb);
        if (!ok) break;
        note_parent(nb);
        b = nb;
    }
    pool_add(top);
}

static void op_doubling(void)
{
    int k = opt.avoid ? 1 + rnd(12) : 1 + rnd(30);
    steer_behaviour *b = some_behaviour();
    if (b == NULL) return;
    if (opt.avoid) {
        int d;
        double s;
        memo_count = 0;
        measure(b, &d, &s);
        if (s * (double)(1 << k) > AVOID_SIZE || d + k > AVOID_DEPTH) return;
    }
    steer_behaviour_retain(b);
    for (int i = 0; i < k; ++i) {
        steer_child c[2] = {{b, 1.0f}, {b, weight()}};
        steer_behaviour_def d = steer_default_behaviour_def(STEER_BLEND);
        d.children = c;
        d.child_count = 2;
        steer_behaviour *nb = steer_behaviour_create(&d);
        if (nb == NULL) break;
        note_parent(b);
        steer_behaviour_release(b);
        b = nb;
    }
    pool_add(b);
}

static void op_target_path(void)
{
    steer_behaviour *b = some_behaviour();
    if (b == NULL) return;
    if (chance(0.5)) steer_behaviour_set_target(b, random_target(some_world()));
    else steer_behaviour_set_path(b, S.path_count > 0 && chance(0.8) ? S.paths[rnd(S.path_count)] : NULL);
}

static void op_path(void)
{
    steer_vec2 pts[12];
    int n = chance(0.1) ? rnd(4) : 2 + rnd(8);
    for (int i = 0; i < n; ++i) pts[i] = chance(0.9) ? steer_v2(small(), small()) : steer_v2(coord(), coord());
    if (n >= 2 && chance(0.1)) pts[1] = pts[0];
    steer_path_def d = steer_default_path_def();
    d.points = pts;
    d.count = chance(0.98) ? n : -1;
    d.loop = chance(0.5);
    bool valid = steer_path_def_is_valid(&d);
    long before = S.asserts;
    steer_path *p = steer_path_create(&d);
    if ((p != NULL) != valid) violation("steer_path_create disagrees with steer_path_def_is_valid");
    if (p == NULL && S.asserts == before) violation("steer_path_create refused without an assert");
    if (p == NULL) return;
    float len = steer_path_length(p);
    if (!(finitef(len) && len > 0)) violation("path length %g", len);
    float at = chance(0.8) ? small() * 3.0f : any_float();
    steer_vec2 q = steer_path_position(p, at);
    if (finitef(at) && !(finitef(q.x) && finitef(q.y))) violation("path position(%g) not finite", at);
    steer_vec2 from = steer_v2(small(), small());
    float t = steer_path_param(p, from, chance(0.5) ? -1.0f : (float)(unit() * len), chance(0.5) ? 5.0f : nonneg());
    if (!finitef(t)) violation("path param not finite");
    if (S.path_count < 8) {
        S.paths[S.path_count++] = p;
    } else {
        int i = rnd(8);
        steer_path_release(S.paths[i]);
        S.paths[i] = p;
    }
}

static float ray_clip(const steer_ray_hit *hit, void *context)
{
    (void)context;
    if (!(finitef(hit->distance) && finitef(hit->point.x) && finitef(hit->point.y) && finitef(hit->normal.x) &&
          finitef(hit->normal.y)))
        violation("raycast_all reported a non-finite hit");
    switch (rnd(4)) {
    case 0: return -1.0f;
    case 1: return 0.0f;
    case 2: return hit->distance;
    default: return 1e9f;
    }
}

static void op_ray(fworld *fw)
{
    steer_vec2 o = chance(0.6) ? steer_v2(small(), small()) : steer_v2(coord(), coord());
    steer_vec2 dir = chance(0.6) ? steer_v2(small(), small()) : steer_v2(coord(), coord());
    if (chance(0.1)) dir = steer_v2((float[]){1e-45f, 1e-40f, 0.0f, -0.0f, 1e-20f}[rnd(5)], chance(0.5) ? 0.0f : 1e-45f);
    if (opt.avoid && finitef(dir.x) && finitef(dir.y)) {
        double len = sqrt((double)dir.x * dir.x + (double)dir.y * dir.y);
        if (len > 0 && len < 1e-18) return; // #3, #4
    }
    float maxd = chance(0.7) ? (float)(unit() * 50.0) : any_float();
    steer_ray_filter f = steer_default_ray_filter();
    if (chance(0.4)) {
        f.mask = (uint32_t)rnd(8);
        f.include_agents = chance(0.5);
        f.ignore = some_agent(fw);
    }
    steer_ray_hit hit;
    if (chance(0.8)) {
        if (steer_world_raycast(fw->w, o, dir, maxd, chance(0.8) ? &f : NULL, &hit)) {
            if (!(finitef(hit.distance) && finitef(hit.point.x) && finitef(hit.point.y) && finitef(hit.normal.x) &&
                  finitef(hit.normal.y)))
                violation("raycast returned a non-finite hit");
            else if (hit.distance < 0 || hit.distance > maxd * (1 + 1e-6f))
                violation("ray hit distance %g outside [0, %g]", hit.distance, maxd);
            else if (fabs(hypot(hit.normal.x, hit.normal.y) - 1.0) > 1e-3)
                violation("ray normal (%g, %g) is not a unit vector", hit.normal.x, hit.normal.y);
            if (steer_shape_id_is_null(hit.shape) == steer_agent_id_is_null(hit.agent))
                violation("a ray hit names both or neither a shape and an agent");
            else if (!steer_shape_id_is_null(hit.shape) && !steer_shape_is_valid(fw->w, hit.shape))
                violation("a ray hit a removed shape");
            else if (!steer_agent_id_is_null(hit.agent) && is_live(fw, hit.agent) < 0)
                violation("a ray hit an agent the fuzzer does not know");
        }
    } else {
        steer_world_raycast_all(fw->w, o, dir, maxd, &f, ray_clip, NULL);
    }
}

static void op_shape(fworld *fw)
{
    steer_shape_id s = steer_null_shape;
    switch (rnd(7)) {
    case 0: s = steer_world_add_segment(fw->w, steer_v2(coord(), coord()), steer_v2(coord(), coord())); break;
    case 1: s = steer_world_add_circle(fw->w, steer_v2(coord(), coord()), chance(0.7) ? (float)(unit() * 3.0) : any_float()); break;
    case 2: s = steer_world_add_box(fw->w, steer_v2(coord(), coord()), steer_v2(coord(), coord())); break;
    case 3: {
        steer_vec2 pts[20];
        int n = 1 + rnd(19);
        if (chance(0.7)) {
            float cx = small(), cy = small(), r = chance(0.8) ? (float)(unit() * 4.0 + 0.01) : fabsf(coord());
            for (int i = 0; i < n; ++i)
                pts[i] = steer_v2(cx + r * cosf(6.2831853f * (float)i / (float)n), cy + r * sinf(6.2831853f * (float)i / (float)n));
        } else {
            for (int i = 0; i < n; ++i) pts[i] = steer_v2(coord(), coord());
        }
        bool valid = steer_polygon_is_valid(pts, n);
        s = steer_world_add_polygon(fw->w, pts, n);
        if (steer_shape_id_is_null(s) == valid) violation("add_polygon disagrees with steer_polygon_is_valid");
        break;
    }
    case 4: {
        steer_vec2 pts[10];
        int n = rnd(10);
        for (int i = 0; i < n; ++i) pts[i] = chance(0.8) ? steer_v2(small(), small()) : steer_v2(coord(), coord());
        s = steer_world_add_polyline(fw->w, pts, n, chance(0.5));
        break;
    }
    case 5:
        if (fw->shape_count > 0) {
            int i = rnd(fw->shape_count);
            switch (rnd(3)) {
            case 0:
                steer_shape_destroy(fw->w, fw->shapes[i]);
                if (steer_shape_is_valid(fw->w, fw->shapes[i])) violation("a destroyed shape is still valid");
                break;
            case 1: steer_shape_set_category(fw->w, fw->shapes[i], (uint32_t)rnd64()); break;
            default: (void)steer_shape_get_type(fw->w, fw->shapes[i]); (void)steer_shape_get_category(fw->w, fw->shapes[i]);
            }
        }
        break;
    default: op_ray(fw); break;
    }
    if (!steer_shape_id_is_null(s)) {
        if (fw->shape_count < MAX_SHAPES) fw->shapes[fw->shape_count++] = s;
        else fw->shapes[rnd(MAX_SHAPES)] = s;
    }
}

static void op_world_settings(fworld *fw)
{
    switch (rnd(4)) {
    case 0: steer_world_set_integrator(fw->w, (steer_integrator)(chance(0.9) ? rnd(2) : rnd(9) - 4)); break;
    case 1: {
        float c = chance(0.6) ? (float)(unit() * 8.0 + 0.05) : any_float();
        if (opt.avoid && c > 0.0f && c < 1e-30f) c = 1e-30f; // #10
        steer_world_set_cell_size(fw->w, c);
        break;
    }
    case 2: steer_world_set_resolve_contacts(fw->w, chance(0.5)); break;
    default: (void)steer_world_hash(fw->w); (void)steer_world_callback_errors(fw->w); break;
    }
}

static int trace;

static void step_world(fworld *fw, float dt)
{
    if (trace) fprintf(stderr, "  step world %d dt %g\n", (int)(fw - S.worlds), dt);
    int wi = (int)(fw - S.worlds);
    uint64_t before = steer_world_step_count(fw->w);
    ++S.stepping[wi];
    steer_world_step(fw->w, dt);
    --S.stepping[wi];
    if (steer_world_step_count(fw->w) != before) fw->dirty = 0, fw->removal_pending = 0;
    if (S.stepping[wi] == 0 && S.previewed[wi] == 0 && steer_world_is_stepping(fw->w))
        violation("the world still says it is stepping after its step");
}

static void op_step(void)
{
    fworld *fw = some_world();
    if (fw == NULL) return;
    float dts[] = {1.0f / 60.0f, 1.0f / 60.0f, 0.1f, 0.5f};
    float bad[] = {0.0f, 1.0f, 1e4f, 1e-45f, -1.0f, NAN, 1e5f, INFINITY};
    float dt = chance(0.85) ? dts[rnd(4)] : bad[rnd(8)];
    step_world(fw, dt);
}

static void preview(steer_behaviour *b, fworld *fw, steer_agent_id a)
{
    uint64_t h = steer_world_hash(fw->w);
    long m = S.mutations;
    steer_steering out;
    int wi = (int)(fw - S.worlds);
    ++S.previewing;
    ++S.previewed[wi];
    bool got = steer_behaviour_get_steering(b, fw->w, a, chance(0.9) ? 1.0f / 60.0f : any_float(), &out);
    --S.previewed[wi];
    --S.previewing;
    if (got && !(finitef(out.linear.x) && finitef(out.linear.y) && finitef(out.angular)))
        violation("get_steering of a %s returned (%g, %g, %g)", steer_behaviour_type_name(steer_behaviour_get_type(b)),
                  out.linear.x, out.linear.y, out.angular);
    if (S.mutations == m && steer_world_hash(fw->w) != h)
        violation("get_steering of a %s changed the world", steer_behaviour_type_name(steer_behaviour_get_type(b)));
}

static void op_preview(void)
{
    fworld *fw = some_world();
    steer_behaviour *b = some_behaviour();
    if (fw == NULL || b == NULL) return;
    preview(b, fw, some_agent(fw));
}

static void op_release(void)
{
    int n = rnd(S.pool_count + 1);
    for (int i = 0; i < n && S.pool_count > 0; ++i) {
        int j = rnd(S.pool_count);
        steer_behaviour_release(S.pool[j]);
        S.pool[j] = S.pool[--S.pool_count];
    }
    if (chance(0.3)) {
        for (int i = 0; i < S.path_count; ++i) steer_path_release(S.paths[i]);
        S.path_count = 0;
    }
}

/* ---- formations (issue 20) ------------------------------------------------------------------ */

static steer_formation_id some_formation(fworld *fw)
{
    if (fw == NULL || fw->formation_count == 0 || chance(0.03)) return (steer_formation_id){(uint32_t)rnd(5), (uint32_t)rnd(5)};
    return fw->formations[rnd(fw->formation_count)];
}

static steer_formation_def random_formation_def(fworld *fw, steer_formation_slot *slots, float *costs)
{
    steer_formation_def d = steer_default_formation_def();
    d.pattern = (steer_formation_pattern)(chance(0.95) ? rnd(STEER_PATTERN_OFFSETS + 1) : rnd(10) - 2);
    if (chance(0.4)) d.spacing = chance(0.8) ? (float)(unit() * 4.0 + 0.1) : any_float();
    if (d.pattern == STEER_PATTERN_OFFSETS || chance(0.2)) {
        int n = chance(0.05) ? 0 : 1 + rnd(12);
        for (int i = 0; i < n; ++i) {
            slots[i].offset = steer_v2(chance(0.9) ? small() : any_float(), small());
            slots[i].orientation = chance(0.9) ? small() : any_float();
            slots[i].cost_role = chance(0.95) ? rnd(3) : -1;
        }
        d.slots = slots;
        d.slot_count = n;
    }
    if (fw->count > 0 && chance(0.5)) d.leader = some_agent(fw);
    else {
        d.anchor_position = steer_v2(chance(0.9) ? small() : any_float(), small());
        d.anchor_orientation = chance(0.9) ? small() : any_float();
        switch (rnd(4)) {
        case 0: d.anchor_target = random_target(fw); break;
        case 1: d.anchor_path = S.path_count > 0 ? S.paths[rnd(S.path_count)] : NULL; break;
        case 2: d.anchor_behaviour = some_behaviour(); break;
        default: break;
        }
        if (chance(0.3)) d.anchor_max_speed = chance(0.8) ? (float)(unit() * 5.0) : any_float();
        if (chance(0.2)) d.anchor_max_acceleration = chance(0.8) ? (float)(unit() * 10.0) : any_float();
        if (chance(0.2)) d.anchor_max_rotation = chance(0.8) ? (float)(unit() * 4.0) : any_float();
    }
    if (chance(0.2)) d.moderation_distance = chance(0.8) ? (float)(unit() * 3.0 + 0.1) : any_float();
    if (chance(0.3)) d.motion = (steer_formation_motion)(chance(0.95) ? rnd(3) : rnd(6) - 2);
    if (chance(0.3)) d.assignment = (steer_formation_assignment)(chance(0.95) ? rnd(2) : rnd(6) - 2);
    if (chance(0.2)) d.distance_weight = chance(0.8) ? (float)(unit() * 3.0) : any_float();
    if (chance(0.4)) {
        d.cost_role_count = 3;
        for (int i = 0; i < 9; ++i)
            costs[i] = chance(0.8) ? (float)(unit() * 10.0) : (float[]){INFINITY, -1.0f, NAN, -INFINITY, 3e38f}[rnd(5)];
        d.cost_role_costs = costs;
        if (chance(0.03)) d.cost_role_count = -1;
    }
    if (chance(0.1)) d.member_capacity = (int[]){0, 1, 100, -1}[rnd(4)];
    if (chance(0.02)) d.cookie = 0;
    return d;
}

static void note_formation(fworld *fw, steer_formation_id id)
{
    if (steer_formation_id_is_null(id)) return;
    if (fw->formation_count < MAX_FORMATIONS) fw->formations[fw->formation_count++] = id;
    else fw->formations[rnd(MAX_FORMATIONS)] = id;
}

static void op_formation(void)
{
    fworld *fw = some_world();
    if (fw == NULL) return;
    steer_formation_slot slots[16];
    float costs[9];
    steer_formation_id f = some_formation(fw);
    int what = rnd(12);
    if (trace) fprintf(stderr, "  formation world %d case %d id %u\n", (int)(fw - S.worlds), what, f.index);
    switch (what) {
    case 0:
    case 1: {
        steer_formation_def d = random_formation_def(fw, slots, costs);
        steer_formation_id id = steer_formation_create(fw->w, &d);
        note_formation(fw, id);
        if (!steer_formation_id_is_null(id)) {
            for (int i = rnd(10); i > 0; --i) steer_formation_add(fw->w, id, some_agent(fw), rnd(3));
        }
        break;
    }
    case 2:
    case 3: steer_formation_add(fw->w, f, some_agent(fw), chance(0.95) ? rnd(3) : -1); break;
    case 4: {
        int n = steer_formation_member_count(fw->w, f);
        steer_formation_remove(fw->w, f, n > 0 && chance(0.8) ? steer_formation_member_at(fw->w, f, rnd(n)) : some_agent(fw));
        break;
    }
    case 5: {
        steer_formation_def d = random_formation_def(fw, slots, costs);
        steer_formation_set_def(fw->w, f, &d);
        break;
    }
    case 6: {
        // a member leads a formation of its own (two levels), or the leader changes
        int n = steer_formation_member_count(fw->w, f);
        if (n == 0 || !steer_formation_is_valid(fw->w, f)) break;
        steer_agent_id lead = steer_formation_member_at(fw->w, f, rnd(n));
        if (chance(0.5)) {
            steer_formation_def d = steer_default_formation_def();
            d.leader = lead;
            d.motion = chance(0.5) ? STEER_MOTION_EMERGENT : STEER_MOTION_STEER;
            steer_formation_id g = steer_formation_create(fw->w, &d);
            note_formation(fw, g);
            for (int i = 1 + rnd(4); i > 0; --i) steer_formation_add(fw->w, g, some_agent(fw), 0);
        } else {
            steer_formation_id g = some_formation(fw);
            if (!steer_formation_is_valid(fw->w, g)) break;
            steer_formation_def d = *steer_formation_get_def(fw->w, g);
            d.leader = chance(0.8) ? lead : steer_null_agent;
            steer_formation_set_def(fw->w, g, &d);
        }
        break;
    }
    case 7: {
        float c[16];
        int n = rnd(16);
        for (int i = 0; i < n; ++i) c[i] = chance(0.85) ? (float)(unit() * 5.0) : (float[]){INFINITY, NAN, -INFINITY, -1.0f}[rnd(4)];
        steer_formation_set_member_costs(fw->w, f, some_agent(fw), c, chance(0.97) ? n : -1);
        break;
    }
    case 8: steer_formation_set_member_cost_role(fw->w, f, some_agent(fw), chance(0.95) ? rnd(3) : -1); break;
    case 9: steer_formation_reassign(fw->w, f); break;
    case 10:
        if (chance(0.3)) steer_formation_destroy(fw->w, f);
        break;
    default: {
        // reads
        int sc = steer_formation_slot_count(fw->w, f);
        for (int s = -1; s <= sc && s < 20; ++s) {
            steer_vec2 p;
            float o;
            if (steer_formation_slot_target(fw->w, f, s, &p, &o) && !(finitef(p.x) && finitef(p.y) && finitef(o))) {
                const steer_formation_def *fd = steer_formation_get_def(fw->w, f);
                steer_formation_slot sl = steer_formation_get_slot(fw->w, f, s);
                steer_vec2 ap = steer_formation_anchor_position(fw->w, f);
                violation("slot_target(%d) not finite: (%g, %g, %g); pattern %d, spacing %g, offset (%g, %g), %s at (%g, %g)",
                          s, p.x, p.y, o, (int)fd->pattern, fd->spacing, sl.offset.x, sl.offset.y,
                          steer_agent_id_is_null(fd->leader) ? "anchor" : "leader",
                          steer_agent_id_is_null(fd->leader) ? ap.x : steer_agent_get_position(fw->w, fd->leader).x,
                          steer_agent_id_is_null(fd->leader) ? ap.y : steer_agent_get_position(fw->w, fd->leader).y);
            }
            (void)steer_formation_get_slot(fw->w, f, s);
        }
        float c = steer_formation_total_cost(fw->w, f);
        if (isnan(c)) violation("total_cost is NaN");
        steer_vec2 ap = steer_formation_anchor_position(fw->w, f);
        if (!(finitef(ap.x) && finitef(ap.y) && finitef(steer_formation_anchor_orientation(fw->w, f)) &&
              finitef(steer_formation_anchor_moderation(fw->w, f))))
            violation("anchor state not finite");
        steer_agent_id a = some_agent(fw);
        (void)steer_formation_followed(fw->w, f, a);
        (void)steer_formation_allowed_slots(fw->w, f, a);
        (void)steer_formation_check_add(fw->w, f, a);
        (void)steer_formation_check_leader(fw->w, f, a);
        (void)steer_world_formation_count(fw->w);
        break;
    }
    }
}

// Members: distinct slots in range, slot_holder agrees, each live member
// names its formation, none removed after a step.
static void check_formations(fworld *fw)
{
    for (int k = 0; k < fw->formation_count; ++k) {
        steer_formation_id f = fw->formations[k];
        if (!steer_formation_is_valid(fw->w, f)) continue;
        int n = steer_formation_member_count(fw->w, f), sc = steer_formation_slot_count(fw->w, f);
        unsigned char taken[512] = {0};
        for (int m = 0; m < n; ++m) {
            steer_agent_id a = steer_formation_member_at(fw->w, f, m);
            if (!steer_agent_is_valid(fw->w, a)) {
                if (!fw->removal_pending) violation("a removed agent is still a member after a step");
                continue;
            }
            if (!steer_formation_id_equal(steer_agent_get_formation(fw->w, a), f))
                violation("a member's steer_agent_get_formation is another formation");
            int s = steer_formation_slot_of(fw->w, f, a);
            if (s < -1 || s >= sc) violation("slot_of = %d of %d slots", s, sc);
            else if (s >= 0) {
                if (s < 512 && taken[s]++) violation("two members hold slot %d", s);
                if (!steer_agent_id_equal(steer_formation_slot_holder(fw->w, f, s), a))
                    violation("slot_holder(%d) is not the member whose slot_of it is", s);
            }
        }
    }
}

/* ---- determinism (issue 20): one scene, 1-4 workers, either spawn order ---------------------- */

static uint64_t det_scene(uint64_t sub, int workers, int reverse)
{
    uint64_t saved = rng_state;
    rng_state = sub;
    steer_world_def wd = steer_default_world_def();
    wd.seed = rnd64() % 1000;
    wd.integrator = (steer_integrator)rnd(2);
    wd.cell_size = (float[]){1.0f, 2.0f, 4.0f, 7.5f}[rnd(4)];
    wd.resolve_contacts = chance(0.5);
    wd.resolve_agent_contacts = chance(0.5);
    wd.worker_count = workers;
    steer_world *w = steer_world_create(&wd);
    if (w == NULL) {
        rng_state = saved;
        return 0;
    }
    for (int i = rnd(4); i > 0; --i) {
        steer_vec2 c = steer_v2(small(), small());
        if (chance(0.5)) steer_world_add_circle(w, c, (float)(unit() * 3.0 + 0.5));
        else steer_world_add_box(w, c, steer_v2(c.x + 2.0f, c.y + 1.0f));
    }
    enum { N = 32 };
    int n = 2 + rnd(N - 2);
    steer_agent_def defs[N];
    steer_agent_id ids[N];
    steer_behaviour *made[N * 3];
    int made_count = 0;
    for (int i = 0; i < n; ++i) {
        steer_agent_def d = steer_default_agent_def();
        d.key = 1000 + (uint64_t)i;
        d.state.position = steer_v2(small(), small());
        d.state.velocity = steer_v2(small() * 0.1f, small() * 0.1f);
        d.limits.radius = (float)(unit() * 0.8 + 0.1);
        d.limits.max_speed = (float)(unit() * 4.0 + 0.5);
        steer_behaviour_def b = steer_default_behaviour_def(STEER_ARRIVE);
        b.target = (steer_target){STEER_TARGET_POINT, steer_v2(small(), small()), steer_null_agent};
        int kind = rnd(5);
        if (kind == 1) b = steer_default_behaviour_def(STEER_WANDER);
        steer_behaviour *inner = steer_behaviour_create(&b);
        made[made_count++] = inner;
        if (kind == 2) {
            steer_behaviour_def r = steer_default_behaviour_def(STEER_RECIPROCAL_AVOIDANCE);
            steer_child c = {inner, 1.0f};
            r.children = &c;
            r.child_count = 1;
            made[made_count++] = inner = steer_behaviour_create(&r);
        } else if (kind == 3) {
            steer_behaviour_def o = steer_default_behaviour_def(STEER_OBSTACLE_AVOIDANCE);
            steer_behaviour *oa = steer_behaviour_create(&o);
            made[made_count++] = oa;
            steer_behaviour_def p = steer_default_behaviour_def(STEER_PRIORITY);
            steer_child c[2] = {{oa, 1.0f}, {inner, 1.0f}};
            p.children = c;
            p.child_count = 2;
            made[made_count++] = inner = steer_behaviour_create(&p);
        }
        d.behaviour = inner;
        defs[i] = d;
    }
    for (int j = 0; j < n; ++j) {
        int i = reverse ? n - 1 - j : j;
        ids[i] = steer_agent_create(w, &defs[i]);
    }
    int nf = rnd(3), next = 0;
    for (int k = 0; k < nf && next < n; ++k) {
        steer_formation_def fd = steer_default_formation_def();
        fd.pattern = (steer_formation_pattern)rnd(STEER_PATTERN_OFFSETS);
        fd.motion = (steer_formation_motion)rnd(3);
        fd.spacing = (float)(unit() * 2.0 + 0.5);
        if (chance(0.5)) fd.leader = ids[next++];
        else fd.anchor_target = (steer_target){STEER_TARGET_POINT, steer_v2(small(), small()), steer_null_agent};
        steer_formation_id f = steer_formation_create(w, &fd);
        int m = next + rnd(8) < n ? next + rnd(8) : n;
        // optimal assignment: the same slots whatever the order of joining
        for (int j = next; j < m; ++j) steer_formation_add(w, f, ids[reverse ? m - 1 - (j - next) : j], 0);
        next = m;
    }
    int steps = 5 + rnd(30);
    for (int s = 0; s < steps; ++s) steer_world_step(w, 1.0f / 60.0f);
    uint64_t h = steer_world_hash(w) ^ (uint64_t)steer_world_agent_count(w);
    steer_world_destroy(w);
    for (int i = 0; i < made_count; ++i) steer_behaviour_release(made[i]);
    rng_state = saved;
    return h;
}

static void op_determinism(void)
{
    uint64_t sub = rnd64();
    uint64_t h1 = det_scene(sub, 1, 0);
    for (int t = 0; t < 2; ++t) {
        int workers = 1 + rnd(4), reverse = chance(0.5);
        uint64_t h2 = det_scene(sub, workers, reverse);
        if (h2 != h1) {
            violation("determinism: scene %016llx gives %016llx with 1 worker, %016llx with %d workers%s",
                      (unsigned long long)sub, (unsigned long long)h1, (unsigned long long)h2, workers,
                      reverse ? " in reverse spawn order" : "");
            return;
        }
    }
}

/* ---- invariants ----------------------------------------------------------------------------------- */

static const float PI_F = 3.14159265358979323846f;

static void check_world(fworld *fw)
{
    int n = steer_world_agent_count(fw->w);
    if (n != fw->count) {
        violation("steer_world_agent_count = %d, the fuzzer counts %d", n, fw->count);
        return;
    }
    if (steer_world_is_stepping(fw->w)) violation("a world says it is stepping between steps");
    for (int i = 0; i < n; ++i) {
        steer_agent_id id = steer_world_agent_at(fw->w, i);
        if (is_live(fw, id) < 0) {
            violation("agent_at(%d) is an agent the fuzzer does not know", i);
            return;
        }
        steer_kinematic k = steer_agent_get_state(fw->w, id);
        steer_limits l = steer_agent_get_limits(fw->w, id);
        steer_steering s = steer_agent_get_last_steering(fw->w, id);
        if (!(finitef(k.position.x) && finitef(k.position.y) && finitef(k.velocity.x) && finitef(k.velocity.y) &&
              finitef(k.orientation) && finitef(k.rotation)))
            violation("agent state not finite: p (%g, %g) v (%g, %g) o %g r %g (a %s, %s, limits %g %g %g %g, "
                      "kinematic %d, steering (%g, %g, %g))",
                      k.position.x, k.position.y, k.velocity.x, k.velocity.y, k.orientation, k.rotation,
                      steer_agent_get_behaviour(fw->w, id)
                          ? steer_behaviour_type_name(steer_behaviour_get_type(steer_agent_get_behaviour(fw->w, id)))
                          : "none",
                      steer_formation_id_is_null(steer_agent_get_formation(fw->w, id))
                          ? "no formation"
                          : (const char *[]){"steer motion", "rigid motion", "emergent motion"}[steer_formation_get_def(
                                fw->w, steer_agent_get_formation(fw->w, id))->motion % 3],
                      l.max_speed, l.max_acceleration, l.drag, l.radius, (int)steer_agent_get_kinematic(fw->w, id),
                      s.linear.x, s.linear.y, s.angular);
        else if (!(k.orientation > -PI_F && k.orientation <= PI_F))
            violation("orientation %.9g outside (-pi, pi]", k.orientation);
        if (!(finitef(l.radius) && finitef(l.max_speed) && finitef(l.max_acceleration) && finitef(l.max_rotation) &&
              finitef(l.max_angular_acceleration) && finitef(l.drag)))
            violation("agent limits not finite");
        if (!(finitef(s.linear.x) && finitef(s.linear.y) && finitef(s.angular)))
            violation("last steering not finite: (%g, %g, %g) of a %s", s.linear.x, s.linear.y, s.angular,
                      steer_agent_get_behaviour(fw->w, id)
                          ? steer_behaviour_type_name(steer_behaviour_get_type(steer_agent_get_behaviour(fw->w, id)))
                          : "none");
        if (!fw->dirty) {
            double speed = hypot(k.velocity.x, k.velocity.y);
            if (speed > (double)l.max_speed * (1 + 1e-5) + 1e-30)
                violation("speed %.9g above max_speed %.9g after a step", speed, l.max_speed);
        }
    }
}

static void check_all(void)
{
    for (int i = 0; i < MAX_WORLDS; ++i)
        if (S.worlds[i].w != NULL) check_world(&S.worlds[i]), check_formations(&S.worlds[i]);
    for (int i = 0; i < S.removed_count; ++i) {
        fworld *fw = &S.worlds[S.removed[i].world];
        if (fw->w == NULL) continue;
        steer_agent_id id = S.removed[i].id;
        if (steer_agent_is_valid(fw->w, id)) {
            violation("a removed agent id is valid again");
            continue;
        }
        long before = S.asserts;
        steer_vec2 p = steer_agent_get_position(fw->w, id);
        (void)p;
        if (S.asserts != before + 1) violation("reading a removed agent gave %ld asserts, expected 1", S.asserts - before);
    }
}

/* ---- driver --------------------------------------------------------------------------------------- */

typedef struct op {
    int weight;
    void (*fn)(void);
    const char *name;
} op;

static void op_shape_any(void) { fworld *fw = some_world(); if (fw) op_shape(fw); }
static void op_ray_any(void) { fworld *fw = some_world(); if (fw) op_ray(fw); }
static void op_world_any(void) { fworld *fw = some_world(); if (fw) op_world_settings(fw); }
static void op_spawn_some(void) { for (int i = rnd(4); i >= 0; --i) op_spawn(); }
static void op_new_world_some(void)
{
    int live = 0;
    for (int i = 0; i < MAX_WORLDS; ++i) live += S.worlds[i].w != NULL;
    if (live < 2 || chance(0.1)) op_new_world();
}

static const op OPS[] = {
    {4, op_new_world_some, "world"},   {1, op_destroy_world, "destroy_world"}, {20, op_spawn_some, "spawn"},
    {14, op_agent, "agent"},           {14, op_new_behaviour, "behaviour"},    {8, op_set_param, "set_param"},
    {4, op_children, "children"},      {1, op_deep_chain, "deep_chain"},       {1, op_doubling, "doubling"},
    {3, op_target_path, "target_path"}, {3, op_path, "path"},                  {6, op_preview, "get_steering"},
    {14, op_step, "step"},             {8, op_shape_any, "shape"},             {5, op_ray_any, "ray"},
    {3, op_world_any, "world_settings"}, {3, op_release, "release"},
    {12, op_formation, "formation"},     {1, op_determinism, "determinism"},
};

static const op *pick_op(void)
{
    int total = 0;
    for (int i = 0; i < COUNT_OF(OPS); ++i) total += OPS[i].weight;
    int r = rnd(total);
    for (int i = 0; i < COUNT_OF(OPS); ++i) {
        r -= OPS[i].weight;
        if (r < 0) return &OPS[i];
    }
    return &OPS[0];
}

static void replay_command(char *buf, size_t size, unsigned long long seed)
{
    snprintf(buf, size, "%s --seed %llu --ops %d%s", opt.self, seed, opt.o.ops, opt.avoid ? " --avoid-known" : "");
}

static void clean_up(void)
{
    // destroy in a random order: worlds first or behaviours first
    int worlds_first = chance(0.5);
    for (int pass = 0; pass < 2; ++pass) {
        if ((pass == 0) == worlds_first) {
            for (int i = 0; i < MAX_WORLDS; ++i) steer_world_destroy(S.worlds[i].w);
        } else {
            for (int i = 0; i < S.pool_count; ++i) steer_behaviour_release(S.pool[i]);
            for (int i = 0; i < S.path_count; ++i) steer_path_release(S.paths[i]);
        }
    }
}

static int run_seed(unsigned long long seed)
{
    trace = getenv("FUZZ_TRACE") != NULL; // each op's index and name on stderr
    memset(&S, 0, sizeof S);
    parented_count = 0;
    rng_state = seed * 0x2545F4914F6CDD1Dull + 1;
    steer_set_assert_fn(count_assert, NULL);
    long steps = 0;
    for (int i = 1; i <= opt.o.ops; ++i) {
        S.calls = 0;
        const op *o = pick_op();
        if (trace) fprintf(stderr, "op %d %s\n", i, o->name);
        o->fn();
        if (o->fn == op_step) ++steps;
        if (!S.has_violation) check_all();
        if (S.has_violation) {
            char cmd[512];
            replay_command(cmd, sizeof cmd, seed);
            printf("FAIL seed %llu op %d (%s): %s\nreplay: %s\n", seed, i, o->name, S.violation, cmd);
            fflush(stdout);
            return 0;
        }
    }
    if (opt.o.verbose)
        printf("seed %llu: %ld step ops, %ld refusals counted, %d behaviours\n", seed, steps, S.asserts, S.pool_count);
    clean_up();
    steer_set_assert_fn(NULL, NULL);
    return 1;
}

int main(int argc, char **argv)
{
    opt.self = argv[0];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int took = fuzz_common_option(&opt.o, argc, argv, i);
        if (took > 0) i += took - 1;
        else if (strcmp(a, "--avoid-known") == 0) opt.avoid = 1;
        else if (strcmp(a, "--no-avoid-known") == 0) opt.avoid = 0;
        else if (strcmp(a, "--known") == 0) {
            fputs(KNOWN, stdout);
            return 0;
        } else {
            fprintf(stderr, "usage: %s (--seed N [--count K] | --seconds S [--timeout T]) [--ops N] [--avoid-known] [--verbose] [--known]\n", argv[0]);
            return 2;
        }
    }
    fuzz_driver d = {"fuzz_c", opt.o.seconds, opt.o.timeout, opt.o.ops, run_seed, replay_command, NULL, NULL};
    return fuzz_main(&opt.o, &d, argv[0], opt.avoid ? " (known findings avoided)" : "");
}
