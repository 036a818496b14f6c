// step.c: the stages of a step and the only place that knows their order
// (Box2D's solver.c): prepare (the neighbour grid, storage order, the
// static geometry's caches, formations, who avoids), evaluate (on the
// workers, then the trees holding callbacks on the calling thread),
// integrate, contacts, and the rigid formations' placement. A preview
// (steer_behaviour_get_steering) prepares what an evaluation reads the
// same way, then evaluates one agent.
#include "behaviour.h"
#include "evaluate.h"
#include "formation.h"
#include "navigate.h"
#include "raycast.h"
#include "store.h"
#include "tasks.h"
#include "trace.h"

// A step is five stages; each reads only what the stages before it wrote:
//   prepare    grid rebuild (keys, bucket sorts and proxy fill on the
//              workers), storage order, geometry caches, formations'
//              update (slot targets, anchors), who avoids: everything
//              evaluation reads
//   evaluate   behaviours on the workers from start-of-step state, each
//              agent writing only its own output, memory and stream;
//              then trees holding a callback, on the calling thread
//   integrate  on the workers, each agent on its own
//   contacts   agent contacts, then static contacts (optional), on the
//              calling thread
//   place      rigid formations put their members on their slots
// Nothing an agent computes depends on which worker ran it, nor on what ran
// before it, so every worker count gives the same bits.

#if defined(__GNUC__)
#define STEER_PREFETCH_INLINE __attribute__((always_inline)) inline
#else
#define STEER_PREFETCH_INLINE
#endif

// Agents with trees of their own (a goal each) have them scattered in the
// heap: each level of a tree is a cache miss that evaluation waits for
// (measured with steer-bench crowd, ~30% of its time). Fetch ahead, one
// level further down the nearer the agent is: the root 5 agents ahead, its
// children array 3 ahead, the first child 1 ahead (a combinator's first
// child, reciprocal_avoidance's preferred behaviour). An agent of the disc
// crowd takes about 350 ns, several times a miss to memory: from 8, 4 and
// 2 agents ahead the lines fetched had probably partly left the L1 cache
// again (5, 3, 1: the free crowd x0.97 to x0.985 at 7,000 to 13,000
// agents; 12, 6, 3: x1.09; docs/crowds/bench21.md).
// Every cache line of a node: evaluation reads its header, its definition
// and its children pointer, spread over the whole struct.
// (Inlined early on purpose: gcc otherwise finds these functions free of
// side effects and deletes their calls, prefetches and all.)
STEER_PREFETCH_INLINE static void prefetch_node(const steer_behaviour *b)
{
#if defined(__GNUC__)
    if (b == NULL) return;
    const char *p = (const char *)b;
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
    __builtin_prefetch(p + 192);
    __builtin_prefetch(p + sizeof *b - 1);
#else
    (void)b;
#endif
}

// A tree shared with the agent being evaluated (a flock's one tree) is in
// the cache already: nothing to fetch.
STEER_PREFETCH_INLINE static void prefetch_trees(const steer_world *w, const uint32_t *order, int k)
{
#if defined(__GNUC__)
    const int n = w->count;
    const steer_behaviour *here = w->behaviour[order[k]];
    if (k + 8 < n) {
        // the agent's own columns too: grid order is storage order with up
        // to a quarter of breaks (prepare_step), and evaluation's other
        // traffic drives them out of the cache before the hardware's
        // prefetcher brings them (loads of state, key and proxy_of stalled
        // for about 5% of steer-bench crowd --scene disc's time)
        const uint32_t a = order[k + 8];
        __builtin_prefetch(&w->state[a]);
        __builtin_prefetch(&w->limits[a]);
        __builtin_prefetch(&w->key[a]);
        __builtin_prefetch(&w->memory[a]);
        __builtin_prefetch(&w->rng[a]);
        __builtin_prefetch(&w->intent[a]);
        __builtin_prefetch(&w->grid.proxy_of[a]);
        __builtin_prefetch(&w->out[a], 1);
    }
    const steer_behaviour *b5 = k + 5 < n ? w->behaviour[order[k + 5]] : NULL;
    if (b5 != here) prefetch_node(b5);
    const steer_behaviour *b3 = k + 3 < n ? w->behaviour[order[k + 3]] : NULL;
    if (b3 != NULL && b3 != here && b3->def.child_count > 0) __builtin_prefetch(b3->children);
    const steer_behaviour *b1 = k + 1 < n ? w->behaviour[order[k + 1]] : NULL;
    if (b1 != NULL && b1 != here && b1->def.child_count > 0) prefetch_node(b1->children[0].behaviour);
#else
    (void)w, (void)order, (void)k;
#endif
}

typedef struct flag_pass {
    steer_world *w;
    /// read AGENT_AVOIDS and AGENT_NAVIGATES from the trees (else they stand: see flag_avoiders)
    bool read_trees;
    int navigating[STEER_MAX_WORKERS]; ///< agents that navigate, by worker
    int avoiding[STEER_MAX_WORKERS];   ///< agents that avoid reciprocally, by worker
} flag_pass;

static void flag_range(int start, int end, int worker, void *context)
{
    flag_pass *p = context;
    steer_world *w = p->w;
    int navigating = 0, avoiding = 0;
    if (!p->read_trees) {
        // the flags stand: only the outputs of the step before and the counts
        for (int i = start; i < end; ++i) {
            w->last_out[i] = w->out[i];
            navigating += (w->flags[i] & AGENT_NAVIGATES) != 0;
            avoiding += (w->flags[i] & AGENT_AVOIDS) != 0;
        }
        p->navigating[worker] += navigating;
        p->avoiding[worker] += avoiding;
        return;
    }
    for (int i = start; i < end; ++i) {
        const steer_behaviour *b = w->behaviour[i];
        // a kinematic agent that runs reciprocal avoidance shares it too: two
        // of them that each took all of it locked (issue 21, a crowd driven
        // by setting velocities)
        bool avoids = b != NULL && b->avoids, navigates = b != NULL && b->nav != NULL;
        w->flags[i] = (uint8_t)((w->flags[i] & ~(AGENT_AVOIDS | AGENT_NAVIGATES)) | (avoids ? AGENT_AVOIDS : 0) |
                                (navigates ? AGENT_NAVIGATES : 0));
        // the outputs of the step before, for last_steering during this one
        w->last_out[i] = w->out[i];
        navigating += navigates;
        avoiding += avoids;
    }
    p->navigating[worker] += navigating;
    p->avoiding[worker] += avoiding;
    // the grid's records of the flag, when it has them (grid.h, grid_body)
    if (!w->grid.has_bodies || w->grid.dirty) return;
    for (int i = start; i < end; ++i)
        w->grid.bodies[w->grid.proxy_of[i]].max_speed =
            steer__grid_body_speed(w->limits[i].max_speed, (w->flags[i] & AGENT_AVOIDS) != 0);
}

// Returns how many agents navigate.
// The flags come from the cached tree shape of each root: O(1) an agent,
// and no evaluation ever looks into another agent's tree. Each root is
// elsewhere in the heap, so reading them was a cache miss (and, with many
// trees, a TLB miss) an agent: 7% of `steer-bench crowd --scene disc`'s
// time (perf, cpu-clock samples). They are read again only when they can
// have changed: an agent given a behaviour (trees_version: spawn,
// set_behaviour, a snapshot read) or a tree's children changed anywhere
// (steer__behaviour_shape_epoch). Removal and the storage reorder move the
// flags with the behaviours; the bodies' copies were filled from the flags
// as they stand.
static int flag_avoiders(steer_world *w)
{
    const uint32_t epoch = steer__behaviour_shape_epoch();
    const bool stand = w->flags_read && w->flagged_trees == w->trees_version && w->flagged_epoch == epoch;
    flag_pass p = {w, !stand, {0}, {0}};
    steer__tasks_parallel_for(w, flag_range, w->count, 4096, &p);
    w->flags_read = true;
    w->flagged_trees = w->trees_version;
    w->flagged_epoch = epoch;
    int navigating = 0, avoiding = 0;
    for (int k = 0; k < STEER_MAX_WORKERS; ++k) navigating += p.navigating[k], avoiding += p.avoiding[k];
    // the grid's records for reciprocal avoidance from the next fill on, while some agent avoids (grid.h)
    w->grid.want_bodies = avoiding > 0;
    return navigating;
}

static void prepare_step(steer_world *w, float dt)
{
    // Storage far from grid order costs a cache miss per agent at large
    // counts (PERFORMANCE.md: ~6x at 1M): when more than a quarter of the
    // grid order breaks storage order, move the agents into grid order.
    // That happens between the grid's sort and its proxies' fill, so the
    // proxies are filled once, from storage in its new order.
    if (w->grid.dirty) {
        steer__grid_sort(w);
        if (w->count > 1024 && steer__grid_disorder(&w->grid) > 0.25f) steer__store_reorder(w, w->grid.agent);
        steer__grid_refill(w);
    }
    // shared caches are written here, before evaluation, never during it
    steer__raycast_prepare(w);
    // formations too: slot targets, anchors and reassignment are written
    // here, so evaluation only reads them
    steer__formation_step_update(w, dt);
    // which agents avoid reciprocally (reciprocal_avoidance reads it) or
    // navigate, and the outputs of the step before
    const int navigating = flag_avoiders(w);
    if (w->traced > 0) steer__trace_prepare(w, w->grid.agent);
    // navigate's plans: made through the planner here, serially, so the
    // evaluation on the workers only follows them (it walks every agent:
    // a flock without navigate skips it)
    if (navigating > 0) steer__navigate_prepare(w, dt);
}

typedef struct eval_pass {
    steer_world *world;
    eval_view view;
    float dt;
    bool skip_callbacks; ///< leave trees holding a callback to the serial pass
    int skipped[STEER_MAX_WORKERS];
    int errors[STEER_MAX_WORKERS];
} eval_pass;

static bool runs_callbacks(const steer_world *w, int i)
{
    return w->behaviour[i] != NULL && w->behaviour[i]->has_callback;
}

// Agents [start, end) of the grid order: neighbours of consecutive agents
// are close in memory.
static void evaluate_range(int start, int end, int worker, void *context)
{
    eval_pass *p = context;
    steer_world *w = p->world;
    eval_scratch *scratch = &w->scratch[worker];
    const uint32_t *order = w->grid.agent;
    int skipped = 0, errors = 0;
    // traces are scattered in memory: fetch them a few agents ahead
    for (int k = start; k < end; ++k) {
        prefetch_trees(w, order, k);
        const int i = (int)order[k];
        if (p->skip_callbacks && runs_callbacks(w, i)) {
            ++skipped;
            continue;
        }
        errors += !steer__evaluate_agent(w, &p->view, scratch, i, p->dt);
    }
    p->skipped[worker] += skipped;
    p->errors[worker] += errors;
}

// The courses the evaluation wrote (world.h, orca_course) become the
// agents' own, the ones read during it their next step's to write.
static void swap_courses(steer_world *w)
{
    orca_course *read = w->course;
    w->course = w->course_next;
    w->course_next = read;
    int opposed = 0, settling = 0;
    for (int k = 0; k < w->def.worker_count; ++k) {
        opposed += w->scratch[k].opposed;
        settling += w->scratch[k].settling;
    }
    w->opposed = opposed;
    // the settling states likewise, with their counts (world.h, settling)
    orca_rest *rest = w->rest;
    w->rest = w->rest_next;
    w->rest_next = rest;
    w->settling = settling;
}

// Returns the agents whose callback failed.
static int evaluate_agents(steer_world *w, float dt)
{
    eval_pass p;
    p.world = w;
    steer__context_view_init(&p.view, w);
    p.dt = dt;
    // callbacks (Lua behaviours) run on the calling thread only
    p.skip_callbacks = w->def.worker_count > 1;
    memset(p.skipped, 0, sizeof p.skipped);
    memset(p.errors, 0, sizeof p.errors);
    for (int k = 0; k < w->def.worker_count; ++k) w->scratch[k].opposed = w->scratch[k].settling = 0;
    steer__tasks_parallel_for(w, evaluate_range, w->count, 64, &p);
    int skipped = 0, failed = 0;
    for (int k = 0; k < w->def.worker_count; ++k) {
        skipped += p.skipped[k];
        failed += p.errors[k];
    }
    if (skipped > 0) {
        // the serial pass, in grid order as a single worker would run them
        const uint32_t *order = w->grid.agent;
        for (int k = 0; k < w->count; ++k) {
            const int i = (int)order[k];
            if (runs_callbacks(w, i)) failed += !steer__evaluate_agent(w, &p.view, &w->scratch[0], i, dt);
        }
    }
    swap_courses(w);
    return failed;
}

typedef struct integrate_pass {
    steer_world *world;
    float dt;
} integrate_pass;

static void integrate_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const integrate_pass *p = context;
    steer__integrate(p->world, p->dt, start, end);
}

static void integrate_agents(steer_world *w, float dt)
{
    integrate_pass p = {w, dt};
    steer__tasks_parallel_for(w, integrate_range, w->count, 256, &p);
}

void steer_world_step(steer_world *w, float dt)
{
    if (!STEER_CHECK(w != NULL && isfinite(dt) && dt >= 0.0f && dt <= 1.0e4f)) return;
    if (!STEER_CHECK(!w->stepping)) return;
    w->stepping = true;
    ++steer__evaluating;
    prepare_step(w, dt);
    w->callback_errors = evaluate_agents(w, dt);
    integrate_agents(w, dt);
    // contacts
    if (w->def.resolve_agent_contacts) steer__agent_contacts_resolve(w);
    if ((w->def.resolve_contacts || w->def.resolve_agent_contacts) && w->geometry != NULL) steer__contacts_resolve(w);
    // place: rigid formations put their members on their slots, last
    steer__formation_step_place(w);
    w->grid.dirty = true;
    ++w->steps;
    --steer__evaluating;
    w->stepping = false;
}

// A preview of b for the agent at i (get_steering, trace_preview).
static bool preview(const steer_behaviour *b, steer_world *w, int i, float dt, steer_steering *out, bool record_trace)
{
    steer__grid_update(w);
    if (!w->stepping) steer__formation_step_settle(w);
    // a preview runs callbacks as a step does, under the same rules: the
    // world's agents and every behaviour stay as they are meanwhile
    const bool was_stepping = w->stepping;
    // (inside a step the flags are already those of the step; a preview
    // sets them on the calling thread, without the task system)
    if (!was_stepping && b->avoids) {
        flag_pass p = {w, true, {0}, {0}};
        flag_range(0, w->count, 0, &p);
    }
    w->stepping = true;
    ++steer__evaluating;
    bool has = steer__evaluate_preview(w, b, i, dt, out, record_trace);
    --steer__evaluating;
    w->stepping = was_stepping;
    return has;
}

bool steer_behaviour_get_steering(const steer_behaviour *b, steer_world *w, steer_agent_id agent,
                                  float dt, steer_steering *out)
{
    int i = steer__store_dense(w, agent);
    if (out != NULL) *out = (steer_steering){{0.0f, 0.0f}, 0.0f};
    if (!STEER_CHECK(b != NULL && i >= 0 && out != NULL && isfinite(dt) && dt >= 0.0f)) return false;
    return preview(b, w, i, dt, out, false);
}

bool steer_agent_trace_preview(steer_world *w, steer_agent_id agent, float dt)
{
    int i = steer__store_dense(w, agent);
    if (!STEER_CHECK(i >= 0 && isfinite(dt) && dt >= 0.0f)) return false;
    if (!STEER_CHECK(!w->stepping)) return false;
    if (!(w->flags[i] & AGENT_TRACE) || w->behaviour[i] == NULL) return false;
    steer_steering out;
    preview(w->behaviour[i], w, i, dt, &out, true);
    return true;
}

