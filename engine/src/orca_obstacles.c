// orca_obstacles.c: the half-planes static geometry gives reciprocal
// avoidance (reciprocal.c), one per part within reach, and the slide along
// a shape for an agent alone at it. Our own code after van den Berg, Guy,
// Lin and Manocha, "Reciprocal n-body collision avoidance" (2011), section
// 5.1: the truncated velocity obstacle of a static part.
#include "behaviour.h"
#include "eval.h"
#include "geometry.h"
#include "orca_lines.h"
#include "orca_lp.h"
#include "orca_obstacles.h"
#include "world.h"

typedef struct obstacle_query {
    const struct steer_geometry *g;
    steer_vec2 p; ///< the agent's position when its new velocity acts
    steer_vec2 v; ///< its current velocity
    float radius, reach, tau, inv_tau, inv_dt, max_push;
    const geo_prim **prim; ///< the nearest parts, nearest first...
    steer_vec2 *normal;    ///< ...the outward normal at each one's closest point...
    float *gap;            ///< ...and its distance
    int count;
} obstacle_query;

// One static part within reach: kept if among the nearest
// ORCA_MAX_OBSTACLE_LINES (its half-plane is built once the nearest are
// known, see obstacle_line).
static void obstacle_visit(const geo_prim *prim, void *context)
{
    obstacle_query *q = context;
    steer_vec2 point, n;
    float d = steer__geometry_closest(q->g, prim, q->p, &point, &n);
    if (d > q->reach) return;
    int at = q->count;
    if (at == ORCA_MAX_OBSTACLE_LINES) {
        if (d >= q->gap[at - 1]) return;
        --at;
    } else {
        ++q->count;
    }
    // sorted by distance, nearest first (stable for equal distances)
    while (at > 0 && q->gap[at - 1] > d) {
        q->prim[at] = q->prim[at - 1];
        q->normal[at] = q->normal[at - 1];
        q->gap[at] = q->gap[at - 1];
        --at;
    }
    q->prim[at] = prim;
    q->normal[at] = n;
    q->gap[at] = d;
}

// By how much u meets a line (negative: breaks it).
static inline float line_meets(orca_line l, steer_vec2 u) { return steer_cross(l.dir, steer_sub(u, l.point)); }

// The cut-off line at the grown part's point nearest where u leads within
// the horizon, if the agent sees that side of the part; false otherwise.
static bool cutoff_line(const obstacle_query *q, const geo_prim *prim, steer_vec2 n, steer_vec2 u, orca_line *out)
{
    steer_vec2 w = steer_mul_add(q->p, u, q->tau), at, m;
    if (!steer_vec2_is_finite(w)) return false;
    (void)steer__geometry_closest(q->g, prim, w, &at, &m);
    // m . (grown point - p), negative when the agent sees that side; the
    // same face as the closest point's gives the same line (kept)
    float c = steer_dot(m, steer_sub(at, q->p)) + q->radius;
    if (!(c < 0.0f) || !(steer_dot(m, n) < 1.0f - 1e-6f)) return false;
    c *= q->inv_tau;
    *out = (orca_line){steer_scale(m, c), steer_v2(m.y, -m.x)};
    return true;
}

// The half-plane of one part: velocities that do not take the agent's
// body (grown by the clearance) into the part within the obstacle horizon.
// Those that do form the part's truncated velocity obstacle: the cone of
// the directions from the agent to the grown part (between its two legs,
// the tangents), cut off where the part, scaled by 1 / horizon, faces the
// agent. That set is convex (a part is convex), so every line that touches
// it from outside excludes it. The candidates:
// - at the closest point: do not close in on it faster than the gap closes
//   in the horizon, v . n >= -gap / tau. For a wall beside the agent this
//   is exact, and at rest it is the line (as before: the same bits);
// - the cut-off at the grown part's point nearest where the current
//   velocity leads within the horizon, when the agent sees that point;
// - each leg, through the origin: a velocity passing beside a wall's end
//   or a corner ahead keeps its speed, where the closest point's line
//   would hold it to closing in on the end by gap / tau.
// Kept: the one the current velocity meets by the most (or breaks by the
// least), which is the line through the obstacle's point nearest that
// velocity, ORCA's (and RVO2's) choice. An agent at rest or stuck keeps
// the closest point's line, which lets it back away; chosen by the
// preferred velocity instead, the legs of a door's two jambs left a stuck
// agent only the way forward, into the one coming the other way
// (docs/crowds/wallend21.md).
// Inside the gap (d < radius), leave within the step, at a bounded speed so
// that the static lines stay satisfiable together. Every line admits the
// zero velocity, so the static lines together always do.
static orca_line obstacle_line(const obstacle_query *q, const geo_prim *prim, float d, steer_vec2 n)
{
    float gap = d - q->radius;
    float k = gap >= 0.0f ? -gap * q->inv_tau : steer_minf(-gap * q->inv_dt, q->max_push);
    orca_line line = {steer_scale(n, k), steer_v2(n.y, -n.x)};
    if (!(gap > 0.0f) || (q->v.x == 0.0f && q->v.y == 0.0f)) return line;
    orca_line cand[3];
    int nc = 0;
    if (cutoff_line(q, prim, n, q->v, &cand[nc])) ++nc;
    steer_vec2 left, right;
    if (steer__geometry_legs(q->g, prim, q->p, q->radius, &left, &right)) {
        // permitted: left of the left leg, right of the right leg
        cand[nc++] = (orca_line){steer_v2(0.0f, 0.0f), left};
        cand[nc++] = (orca_line){steer_v2(0.0f, 0.0f), steer_scale(right, -1.0f)};
    }
    float most = line_meets(line, q->v);
    for (int i = 0; i < nc; ++i) {
        float meets = line_meets(cand[i], q->v);
        if (meets > most) most = meets, line = cand[i];
    }
    return line;
}

int steer__orca_obstacle_lines(eval_ctx *ctx, const steer_behaviour_def *d, steer_vec2 p, orca_line *lines)
{
    const geo_prim *prims[ORCA_MAX_OBSTACLE_LINES];
    steer_vec2 normals[ORCA_MAX_OBSTACLE_LINES];
    float gaps[ORCA_MAX_OBSTACLE_LINES];
    obstacle_query q;
    q.g = ctx->view->geometry;
    q.p = p;
    q.v = ctx->me.velocity;
    q.radius = steer_minf(ctx->lim.radius * ORCA_CLEARANCE, ctx->lim.radius + 0.5f * ORCA_CLEARANCE_MAX);
    // what can be reached within the horizon at full speed
    q.reach = q.radius + ctx->lim.max_speed * d->obstacle_time_horizon;
    q.tau = d->obstacle_time_horizon;
    q.inv_tau = 1.0f / d->obstacle_time_horizon;
    q.inv_dt = ctx->dt > 0.0f ? 1.0f / ctx->dt : 0.0f;
    q.max_push = 0.5f * ctx->lim.max_speed;
    q.prim = prims;
    q.normal = normals;
    q.gap = gaps;
    q.count = 0;
    steer_vec2 ext = steer_v2(q.reach, q.reach);
    const geo_filter filter = geo_filter_of(&ctx->view->filter[ctx->self]); // the shapes the agent sees
    steer__geometry_overlap(q.g, steer_sub(p, ext), steer_add(p, ext), &filter, obstacle_visit, &q);
    for (int i = 0; i < q.count; ++i) lines[i] = obstacle_line(&q, prims[i], gaps[i], normals[i]);
    return q.count;
}

// Local minima at walls: an agent alone at a shape whose preferred velocity
// runs into the nearest shape line it breaks keeps its speed along that
// line instead, on the side the preferred velocity leans to. Projected
// onto the wall, a goal almost straight behind it leaves a crawl, and the
// deadlock turn below, right by 0.03 rad, can balance it exactly: agents
// stopped for good 0.2 m from the corner of a block (scripts/scenarios/blocks).
steer_vec2 steer__orca_slide_along_shapes(const orca_line *lines, int hard, steer_vec2 preferred)
{
    for (int i = 0; i < hard; ++i) {
        steer_vec2 n = steer_perp(lines[i].dir); // the permitted side
        float k = steer_dot(lines[i].point, n);
        if (steer_dot(preferred, n) >= k) continue;
        float side = steer_dot(preferred, lines[i].dir) >= 0.0f ? 1.0f : -1.0f;
        float along = sqrtf(steer_maxf(steer_length_sq(preferred) - k * k, 0.0f));
        return steer_mul_add(steer_scale(n, k), lines[i].dir, side * along);
    }
    return preferred;
}
