// navigate.c: the navigate behaviour (plan round the static shapes, follow
// the plan, replan), agents' own goals, stuck reporting, and group orders
// (steer_world_move_group). Plans are made through the world's planner
// (steer_planner, set by a navigation layer: the engine links none) in the
// step's serial prepare stage; evaluation, on any worker, reads its own
// agent's plan and advances only that plan's progress. docs/navigation.md.
#include "navigate.h"
#include "raycast.h"
#include "store.h"
#include "world.h"

#include <stdio.h>

/// Progress that counts against stuck: the remaining route must fall by this.
#define PROGRESS_STEP 0.25f
/// Seconds between tries of a plan that failed.
#define RETRY_SECONDS 1.0f

/* ---- plans --------------------------------------------------------------------------- */

nav_plan *steer__navigate_new(void)
{
    nav_plan *p = steer__alloc(sizeof *p);
    if (p != NULL) memset(p, 0, sizeof *p);
    return p;
}

void steer__navigate_free(nav_plan *plan) { steer__free(plan); }

void steer__navigate_behaviour_changed(nav_plan *plan, const steer_behaviour *b, bool keep_memory)
{
    if (plan == NULL) return;
    const steer_behaviour *node = b != NULL ? b->nav : NULL;
    // (plan->node is compared only: the old tree may be released by now)
    if (keep_memory && node != NULL && plan->node != NULL) {
        // a hot reload: the route is kept for the new tree's navigate; the
        // next prepare replans only if its target is elsewhere
        plan->node = node;
        return;
    }
    plan->node = NULL;
    plan->status = STEER_PLAN_NONE;
    plan->count = 0;
    plan->stall = 0.0f;
    plan->stuck = false;
}

// Route lengths from each point to the goal.
static void measure(nav_plan *p)
{
    float acc = 0.0f;
    p->rest[p->count - 1] = 0.0f;
    for (int k = p->count - 2; k >= 0; --k) {
        acc += steer_length(steer_sub(p->points[k + 1], p->points[k]));
        p->rest[k] = acc;
    }
}

static float clearance_of(const steer_behaviour_def *d, float default_radius)
{
    return d->use_radius ? d->radius : default_radius;
}

// The goal a navigate node leads to now: its target, else the agent's own.
static bool goal_of(const steer_world *w, const nav_plan *p, const steer_behaviour_def *d, steer_vec2 *goal)
{
    if (d->target.kind == STEER_TARGET_POINT) {
        *goal = d->target.point;
        return true;
    }
    if (d->target.kind == STEER_TARGET_AGENT) {
        int j = steer__store_dense(w, d->target.agent);
        if (j < 0) return false;
        *goal = w->state[j].position;
        return true;
    }
    if (p->has_order) *goal = p->order;
    return p->has_order;
}

// The planner's path round the shapes mask sees: find_path_masked when the
// planner has it, else find_path (round every shape).
static int plan_path(const steer_world *w, steer_vec2 from, steer_vec2 to, float radius, uint32_t mask,
                     steer_vec2 *points, float *length, char *message, int message_size)
{
    if (w->planner.find_path_masked != NULL)
        return w->planner.find_path_masked(w->planner.context, from, to, radius, mask, points, STEER_PLAN_POINTS,
                                           length, message, message_size);
    return w->planner.find_path(w->planner.context, from, to, radius, points, STEER_PLAN_POINTS, length, message,
                                message_size);
}

static void make_plan(steer_world *w, nav_plan *p, steer_vec2 pos, steer_vec2 goal, float radius, uint32_t mask,
                      uint64_t version)
{
    const bool new_goal = p->status == STEER_PLAN_NONE || p->status == STEER_PLAN_NO_GOAL ||
                          steer_length(steer_sub(goal, p->goal)) > 1e-3f;
    int n = 2;
    float length = 0.0f;
    p->message[0] = '\0';
    if (w->has_planner) {
        n = plan_path(w, pos, goal, radius, mask, p->points, &length, p->message, (int)sizeof p->message);
    } else {
        p->points[0] = pos;
        p->points[1] = goal;
    }
    p->goal = goal;
    p->radius = radius;
    p->version = version;
    ++p->replans;
    if (n < 2) {
        p->status = STEER_PLAN_FAILED;
        p->count = 0;
        p->retry = RETRY_SECONDS;
        if (p->message[0] == '\0') snprintf(p->message, sizeof p->message, "no route to (%g, %g)", goal.x, goal.y);
        return;
    }
    p->partial = n > STEER_PLAN_POINTS;
    p->count = p->partial ? STEER_PLAN_POINTS : n;
    p->next = 1;
    p->status = STEER_PLAN_FOLLOWING;
    measure(p);
    p->remaining = p->rest[0];
    // progress is measured on the new route; a new goal starts the clock again
    p->best = p->rest[0];
    if (new_goal) {
        p->stall = 0.0f;
        p->stuck = false;
    }
}

// Distance from p to the segment a-b.
static float segment_distance(steer_vec2 p, steer_vec2 a, steer_vec2 b)
{
    steer_vec2 ab = steer_sub(b, a);
    float len2 = steer_dot(ab, ab);
    float t = len2 > 0.0f ? steer_dot(steer_sub(p, a), ab) / len2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return steer_length(steer_sub(p, steer_add(a, steer_scale(ab, t))));
}

void steer__navigate_update(steer_world *w, nav_plan **slot, const steer_behaviour *node, steer_vec2 pos,
                            float default_radius, uint32_t mask, float dt)
{
    if (*slot == NULL) {
        // first use by a tree changed after the agent got it (agents get
        // their plan when their behaviour is set): once, serial
        *slot = steer__navigate_new();
        if (*slot == NULL) return;
    }
    nav_plan *p = *slot;
    const steer_behaviour_def *d = &node->def;
    if (p->node != node) {
        p->node = node;
        p->status = STEER_PLAN_NONE;
    }
    steer_vec2 goal;
    if (!goal_of(w, p, d, &goal)) {
        p->status = STEER_PLAN_NO_GOAL;
        p->count = 0;
        return;
    }
    const float radius = clearance_of(d, default_radius);
    const uint64_t version = w->has_planner && w->planner.version != NULL ? w->planner.version(w->planner.context) : 0;
    bool need = p->status == STEER_PLAN_NONE || p->status == STEER_PLAN_NO_GOAL || version != p->version ||
                radius != p->radius || steer_length(steer_sub(goal, p->goal)) > d->replan_distance;
    if (p->status == STEER_PLAN_FAILED) {
        p->retry -= dt;
        need = need || p->retry <= 0.0f;
    } else if (!need && p->count >= 2) {
        const int k = p->next < p->count ? p->next : p->count - 1;
        // strayed from the route (pushed aside in a crowd), or at the end of a partial one
        need = segment_distance(pos, p->points[k - 1], p->points[k]) > d->replan_distance ||
               (p->partial && k >= p->count - 1);
    }
    if (need) {
        make_plan(w, p, pos, goal, radius, mask, version);
        return;
    }
    if (p->count >= 2 && (p->points[p->count - 1].x != goal.x || p->points[p->count - 1].y != goal.y)) {
        // a target that moved less than replan_distance: the route ends where it is
        p->points[p->count - 1] = goal;
        p->goal = goal;
        measure(p);
    }
}

/* ---- a group's units exchange stop points ------------------------------------------------ */

// Whether agent i follows a goal of a move_group order (its navigate has no
// target of its own): such goals may be exchanged within the group.
static bool exchangeable(const steer_world *w, int i)
{
    const nav_plan *p = w->plan[i];
    return (w->flags[i] & AGENT_NAVIGATES) && p != NULL && p->has_order && p->group != 0 &&
           w->behaviour[i]->nav->def.target.kind == STEER_TARGET_NONE;
}

// Two units of one group, each nearer the other's stop point: exchanging the
// points shortens their ways together by this much (symmetric in i and j to
// the bit: sums of two terms commute).
static float exchange_gain(const steer_world *w, int i, int j)
{
    const steer_vec2 a = w->state[i].position, b = w->state[j].position;
    const steer_vec2 sa = w->plan[i]->order, sb = w->plan[j]->order;
    const float now = steer_length(steer_sub(sa, a)) + steer_length(steer_sub(sb, b));
    const float swapped = steer_length(steer_sub(sb, a)) + steer_length(steer_sub(sa, b));
    return now - swapped;
}

static bool id_before(const steer_world *w, int i, int j)
{
    const steer_agent_id a = steer__store_id_of(w, i), b = steer__store_id_of(w, j);
    return a.index < b.index;
}

// A group sent by move_group arrives as a pack: the unit whose point comes
// first is seldom the one in front, and the crowd carries units past their
// points (docs/navigation.md, "Behaviour figures"). Units of one group within
// EXCHANGE_REACH radii of each other exchange their stop points when that
// shortens their two ways together by more than EXCHANGE_GAIN radii: the one
// carried past its point takes a point ahead, the one behind the point it
// passed. Each unit picks its best partner (the largest gain, ties to the
// lower agent index); a pair exchanges when each picked the other, so the
// result does not depend on the agents' order in the store.
#define EXCHANGE_REACH 6.0f
#define EXCHANGE_GAIN 1.0f

static void exchange_goals(steer_world *w)
{
    const neighbour_grid *g = &w->grid;
    bool picked = false; // the second pass runs only when a unit picked a partner
    for (int i = 0; i < w->count; ++i) {
        if (!exchangeable(w, i)) continue;
        nav_plan *p = w->plan[i];
        p->swap = -1;
        const float ri = w->limits[i].radius;
        const steer_vec2 at = w->state[i].position;
        const float reach = EXCHANGE_REACH * ri;
        float best = 0.0f;
        grid_cursor c;
        uint32_t begin, end;
        steer__grid_cursor_init(g, &c, at, reach);
        while (steer__grid_cursor_next(&c, &begin, &end)) {
            for (uint32_t k = begin; k < end; ++k) {
                const int j = (int)g->agent[k];
                if (j == i || !exchangeable(w, j) || w->plan[j]->group != p->group) continue;
                const steer_vec2 d = steer_sub(w->state[j].position, at);
                if (steer_dot(d, d) >= reach * reach) continue;
                const float gain = exchange_gain(w, i, j);
                if (gain <= EXCHANGE_GAIN * fmaxf(ri, w->limits[j].radius)) continue;
                if (p->swap < 0 || gain > best || (gain == best && id_before(w, j, p->swap))) {
                    best = gain;
                    p->swap = j;
                }
            }
        }
        picked |= p->swap >= 0;
    }
    for (int i = 0; picked && i < w->count; ++i) {
        if (!exchangeable(w, i)) continue;
        nav_plan *p = w->plan[i];
        const int j = p->swap;
        if (j < 0 || w->plan[j]->swap != i || !id_before(w, i, j)) continue;
        nav_plan *q = w->plan[j];
        const steer_vec2 order = p->order;
        p->order = q->order;
        q->order = order;
        p->status = STEER_PLAN_NONE;
        q->status = STEER_PLAN_NONE;
    }
}

void steer__navigate_prepare(steer_world *w, float dt)
{
    exchange_goals(w);
    for (int i = 0; i < w->count; ++i) {
        if (!(w->flags[i] & AGENT_NAVIGATES)) continue;
        steer__navigate_update(w, &w->plan[i], w->behaviour[i]->nav, w->state[i].position, w->limits[i].radius,
                               w->filter[i].mask, dt);
    }
}

/* ---- following ------------------------------------------------------------------------- */

// The velocity wanted along dir at `speed`, as a steering (or a velocity
// for a kinematic agent).
static bool steer_velocity(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 want, steer_steering *out)
{
    out->angular = 0.0f;
    if (ctx->kinematic) {
        out->linear = steer_clamp_length(want, ctx->lim.max_speed);
        return true;
    }
    out->linear = steer__over_time(want, ctx->me.velocity, d->time_to_target, ctx->lim.max_acceleration);
    return true;
}

// Towards a point, arriving: full speed outside slow_radius of the route's
// end (`left` metres away along it); inside, the speed of a constant
// deceleration that stops at target_radius (max_speed x sqrt((left -
// target_radius) / (slow_radius - target_radius))), braking within
// target_radius. A linear slowing (max_speed x left / slow_radius) crawls
// through the last metre, where a group's later units are already pressing:
// docs/navigation.md, "Behaviour figures".
static bool toward(const eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 point, float left,
                   steer_steering *out)
{
    steer_vec2 to = steer_sub(point, ctx->me.position);
    float dist = steer_length(to);
    if (left <= d->target_radius || dist <= 0.0f) return steer_velocity(ctx, d, steer_v2(0.0f, 0.0f), out);
    const float span = d->slow_radius - d->target_radius;
    float speed = ctx->lim.max_speed;
    if (left < d->slow_radius && span > 0.0f) speed *= sqrtf((left - d->target_radius) / span);
    return steer_velocity(ctx, d, steer_scale(to, speed / dist), out);
}

// Whether the agent's disc can go straight from p to q without touching a shape.
static bool in_sight(const eval_ctx *ctx, steer_vec2 p, steer_vec2 q, float radius)
{
    const struct steer_geometry *g = ctx->view->geometry;
    if (g == NULL) return true;
    steer_vec2 pq = steer_sub(q, p);
    float len = steer_length(pq);
    if (len <= 0.0f) return true;
    steer_ray_hit hit;
    const geo_filter all = geo_filter_all(); // navigation plans round every shape
    return !steer__raycast_shapes(g, p, pq, radius, len, &all, &hit);
}

bool steer__navigate_steer(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    const steer_behaviour_def *d = &b->def;
    nav_plan *p = ctx->self >= 0 ? ctx->view->plan[ctx->self] : ctx->plan;
    const steer_vec2 pos = ctx->me.position;
    if (p == NULL || p->node != b || p->status == STEER_PLAN_NONE) {
        // not planned for this node (a preview of another behaviour, a second
        // navigate in one tree, no step yet): straight at the target
        target_state t;
        if (!steer__context_target(ctx, &d->target, &t)) {
            if (p == NULL || !p->has_order) return false;
            t.position = p->order;
        }
        return toward(ctx, d, t.position, steer_length(steer_sub(t.position, pos)), out);
    }
    const bool write = ctx->plan_writable;
    if (p->status == STEER_PLAN_NO_GOAL) {
        // nothing to do is not being stuck
        if (write) p->stall = 0.0f, p->stuck = false;
        return false;
    }
    if (p->status == STEER_PLAN_FAILED) {
        if (write) {
            p->stall += ctx->dt;
            p->stuck = p->stall >= d->stuck_time;
        }
        return false;
    }
    // the corners reached: near one, or the one after it in sight for a disc
    // of the route's clearance (at most two a step: a sweep each)
    int next = p->next;
    const float reach = fmaxf(0.2f, 0.5f * ctx->lim.radius);
    for (int k = 0; k < 2 && next < p->count - 1; ++k) {
        if (steer_length(steer_sub(p->points[next], pos)) > reach &&
            !in_sight(ctx, pos, p->points[next + 1], 0.95f * p->radius))
            break;
        ++next;
    }
    const steer_vec2 corner = p->points[next];
    const float left = steer_length(steer_sub(corner, pos)) + p->rest[next];
    if (write) {
        // the route now runs from here to the corner: what "strayed" is
        // measured against (prepare)
        if (next != p->next) p->points[next - 1] = pos;
        p->next = next;
        p->remaining = left;
        const bool arrived = left <= d->target_radius;
        p->status = arrived ? STEER_PLAN_ARRIVED : STEER_PLAN_FOLLOWING;
        if (left < p->best - PROGRESS_STEP || left <= d->slow_radius) {
            p->best = fminf(p->best, left);
            p->stall = 0.0f;
        } else {
            p->stall += ctx->dt;
        }
        p->stuck = p->stall >= d->stuck_time;
    }
    return toward(ctx, d, corner, left, out);
}

/* ---- public: goals, plans, stuck --------------------------------------------------------- */

void steer_world_set_planner(steer_world *w, const steer_planner *planner)
{
    if (!STEER_CHECK(w != NULL && !w->stepping)) return;
    if (!STEER_CHECK(planner == NULL || planner->find_path != NULL)) return;
    w->has_planner = planner != NULL;
    if (planner != NULL) w->planner = *planner;
    else memset(&w->planner, 0, sizeof w->planner);
}

bool steer_world_get_planner(const steer_world *w, steer_planner *out)
{
    if (!STEER_CHECK(w != NULL && out != NULL)) return false;
    *out = w->planner;
    return w->has_planner;
}

void steer_agent_set_goal(steer_world *w, steer_agent_id id, const steer_vec2 *goal)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0 && !w->stepping)) return;
    if (!STEER_CHECK(goal == NULL || steer_vec2_is_finite(*goal))) return;
    if (w->plan[i] == NULL) {
        if (goal == NULL) return;
        w->plan[i] = steer__navigate_new();
        if (w->plan[i] == NULL) return;
    }
    nav_plan *p = w->plan[i];
    p->has_order = goal != NULL;
    p->group = 0; // a goal given by hand is the agent's own, not exchanged
    if (goal != NULL) p->order = *goal;
    // planned afresh at the next step
    if (p->node == NULL || p->node->def.target.kind == STEER_TARGET_NONE) p->status = STEER_PLAN_NONE;
}

bool steer_agent_get_goal(const steer_world *w, steer_agent_id id, steer_vec2 *goal)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0 && goal != NULL)) return false;
    const nav_plan *p = w->plan[i];
    if (p == NULL || !p->has_order) return false;
    *goal = p->order;
    return true;
}

bool steer_agent_get_stuck(const steer_world *w, steer_agent_id id)
{
    int i = steer__store_dense(w, id);
    if (!STEER_CHECK(i >= 0)) return false;
    return w->plan[i] != NULL && w->plan[i]->node != NULL && w->plan[i]->stuck;
}

int steer_agent_get_plan(const steer_world *w, steer_agent_id id, steer_vec2 *points, int capacity,
                         steer_plan_info *info)
{
    int i = steer__store_dense(w, id);
    if (info != NULL) memset(info, 0, sizeof *info);
    if (!STEER_CHECK(i >= 0 && capacity >= 0 && (capacity == 0 || points != NULL))) return 0;
    const nav_plan *p = w->plan[i];
    if (p == NULL || p->node == NULL) return 0;
    if (info != NULL) {
        info->status = (steer_plan_status)p->status;
        info->count = p->count;
        info->next = p->next;
        info->goal = p->goal;
        info->radius = p->radius;
        info->remaining = p->remaining;
        info->stalled = p->stall;
        info->stuck = p->stuck;
        info->replans = p->replans;
        memcpy(info->message, p->message, sizeof info->message);
    }
    for (int k = 0; k < p->count && k < capacity; ++k) points[k] = p->points[k];
    return p->count;
}

const steer_behaviour *steer_behaviour_navigate_node(const steer_behaviour *b) { return b != NULL ? b->nav : NULL; }

/* ---- group orders ------------------------------------------------------------------------ */

typedef struct clear_query {
    const struct steer_geometry *g;
    steer_vec2 p;
    float least;
} clear_query;

static void clear_visit(const geo_prim *prim, void *context)
{
    clear_query *q = context;
    steer_vec2 point, normal;
    float d = steer__geometry_closest(q->g, prim, q->p, &point, &normal);
    if (prim->type == PRIM_SEGMENT) d = fabsf(d);
    if (d < q->least) q->least = d;
}

// Whether a disc of radius r at p keeps clear of every shape.
static bool disc_clear(const struct steer_geometry *g, steer_vec2 p, float r)
{
    if (g == NULL) return true;
    clear_query q = {g, p, r};
    const geo_filter all = geo_filter_all();
    steer__geometry_overlap(g, steer_v2(p.x - r, p.y - r), steer_v2(p.x + r, p.y + r), &all, clear_visit, &q);
    return q.least >= r;
}

typedef struct stop_candidate {
    steer_vec2 p;
    uint64_t order; ///< squared distance from the goal, then the point's bits
} stop_candidate;

static int compare_candidates(const void *a, const void *b)
{
    const stop_candidate *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    uint64_t kx = steer__sortable_pair(x->p.x, x->p.y), ky = steer__sortable_pair(y->p.x, y->p.y);
    return kx < ky ? -1 : (kx > ky);
}

// Stop points: a hexagonal lattice round `to`, nearest first, each clear of
// the shapes by r and in sight of `to` for a disc of r. Returns how many
// (up to want) were written.
static int stop_points(const struct steer_geometry *g, steer_vec2 to, float spacing, float r, int want,
                       int rings, steer_vec2 *out)
{
    const int side = 2 * rings + 1;
    stop_candidate *c = steer__alloc(sizeof *c * (size_t)side * (size_t)side);
    if (c == NULL) return 0;
    int n = 0;
    const float row = spacing * 0.8660254f; // sqrt(3) / 2
    for (int j = -rings; j <= rings; ++j) {
        for (int i = -rings; i <= rings; ++i) {
            steer_vec2 p = steer_v2(to.x + spacing * ((float)i + 0.5f * (float)(j & 1)), to.y + row * (float)j);
            float d2 = steer_dot(steer_sub(p, to), steer_sub(p, to));
            c[n++] = (stop_candidate){p, steer__sortable_bits(d2)};
        }
    }
    qsort(c, (size_t)n, sizeof *c, compare_candidates);
    int found = 0;
    const geo_filter all = geo_filter_all(); // stop points keep clear of every shape
    for (int k = 0; k < n && found < want; ++k) {
        steer_vec2 p = c[k].p;
        if (!disc_clear(g, p, r)) continue;
        steer_vec2 d = steer_sub(p, to);
        float len = steer_length(d);
        steer_ray_hit hit;
        if (g != NULL && len > 0.0f && steer__raycast_shapes(g, to, d, r, len, &all, &hit)) continue;
        out[found++] = p;
    }
    steer__free(c);
    return found;
}

// How far agent i has to go to `to` (the planner's route when there is
// one), and the last corner it comes from (where it starts, on open ground).
static float way_to(steer_world *w, int i, steer_vec2 to, float r, steer_vec2 *corner)
{
    const steer_vec2 from = w->state[i].position;
    *corner = from;
    if (w->has_planner) {
        float length = 0.0f;
        char message[8];
        steer_vec2 points[STEER_PLAN_POINTS];
        int n = plan_path(w, from, to, r, w->filter[i].mask, points, &length, message, (int)sizeof message);
        if (n >= 2) {
            if (n <= STEER_PLAN_POINTS) *corner = points[n - 2];
            return length;
        }
    }
    return steer_length(steer_sub(to, from));
}

int steer_world_move_group(steer_world *w, const steer_agent_id *agents, int count, steer_vec2 to, float spacing,
                           steer_vec2 *stops)
{
    if (!STEER_CHECK(w != NULL && !w->stepping && count > 0 && agents != NULL)) return 0;
    if (!STEER_CHECK(steer_vec2_is_finite(to) && isfinite(spacing) && spacing >= 0.0f)) return 0;
    float r = 0.0f;
    for (int u = 0; u < count; ++u) {
        int i = steer__store_dense(w, agents[u]);
        if (!STEER_CHECK(i >= 0)) return 0;
        for (int v = 0; v < u; ++v)
            if (!STEER_CHECK(agents[v].index != agents[u].index)) return 0;
        r = fmaxf(r, w->limits[i].radius);
    }
    // by default a gap wider than an agent between stop points: later
    // arrivals pass between settled ones
    if (spacing == 0.0f) spacing = fmaxf(4.4f * r, 0.1f);
    const struct steer_geometry *g = steer__geometry_ready(w);
    if (!disc_clear(g, to, r)) return 0;
    // the lattice's rings: the group's own size, grown up to four times
    const int base = (int)ceilf(sqrtf((float)count)) + 2;
    size_t n = (size_t)count;
    steer_vec2 *points = steer__alloc(sizeof *points * n);
    float *cost = steer__alloc(sizeof *cost * n * n);
    float *way = steer__alloc(sizeof *way * n);
    steer_vec2 *corner = steer__alloc(sizeof *corner * n);
    int *row_to_col = steer__alloc(sizeof *row_to_col * n);
    int result = 0;
    if (points == NULL || cost == NULL || way == NULL || corner == NULL || row_to_col == NULL) goto done;
    int found = 0;
    for (int rings = base; rings <= 4 * base && found < count; rings *= 2)
        found = stop_points(g, to, spacing, r + 0.05f, count, rings, points);
    if (found < count) goto done;
    // The way in: the mean direction from the agents' last corners to the
    // goal. A point is the further in the further it lies along that way
    // (round the goal when the agents come from all sides).
    float far = 0.0f;
    steer_vec2 in = {0.0f, 0.0f};
    for (int u = 0; u < count; ++u) {
        way[u] = way_to(w, steer__store_dense(w, agents[u]), to, r, &corner[u]);
        far = fmaxf(far, way[u]);
        in = steer_add(in, steer_normalize(steer_sub(to, corner[u])));
    }
    in = steer_length(in) > 0.5f * (float)count ? steer_normalize(in) : steer_v2(0.0f, 0.0f);
    float deepest = 0.0f;
    for (int s = 0; s < count; ++s) {
        steer_vec2 d = steer_sub(points[s], to);
        deepest = fmaxf(deepest, in.x != 0.0f || in.y != 0.0f ? steer_dot(d, in) : -steer_length(d));
    }
    // Costs: the way from the agent's last corner to the point, plus how
    // shallow the point is weighted by how soon the agent gets there: the
    // first to arrive take the points furthest in and do not block the rest.
    for (int u = 0; u < count; ++u) {
        const float soon = far > 0.0f ? 1.0f - way[u] / far : 0.0f;
        for (int s = 0; s < count; ++s) {
            steer_vec2 d = steer_sub(points[s], to);
            const float depth = in.x != 0.0f || in.y != 0.0f ? steer_dot(d, in) : -steer_length(d);
            cost[(size_t)u * n + (size_t)s] = steer_length(steer_sub(points[s], corner[u])) + 2.0f * (deepest - depth) * soon;
        }
    }
    steer_assign_optimal(cost, count, count, row_to_col, NULL);
    for (int u = 0; u < count; ++u) {
        if (row_to_col[u] < 0) goto done;
    }
    // the order's group: the world's next order id (never 0), so two orders
    // never share one, whatever their goals and units
    const uint32_t group = w->next_group;
    w->next_group = group == UINT32_MAX ? 1 : group + 1;
    for (int u = 0; u < count; ++u) {
        const steer_vec2 stop = points[row_to_col[u]];
        steer_agent_set_goal(w, agents[u], &stop);
        nav_plan *p = w->plan[steer__store_dense(w, agents[u])];
        if (p != NULL) p->group = group;
        if (stops != NULL) stops[u] = stop;
    }
    result = count;
done:
    steer__free(points);
    steer__free(cost);
    steer__free(way);
    steer__free(corner);
    steer__free(row_to_col);
    return result;
}
