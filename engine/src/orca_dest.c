// orca_dest.c: of two avoiders heading for one point, the nearer one goes
// first (orca_dest.h; issue 21, docs/crowds/exit21.md, docs/crowds/exit21b.md).
#include "orca_dest.h"
#include "world.h"

// Whether the agent's destination `dest` is the one it published the step
// before (at an agent's first step its course is still the origin: every
// agent of a new world would share (0, 0) for one step).
static inline bool dest_kept(const eval_view *view, uint32_t self, steer_vec2 dest)
{
    return view->course[self].dx == dest.x && view->course[self].dy == dest.y;
}

// Whether agent i (dense) is settled or easing out: its pairs are the
// settling rules'.
static inline bool settling(const eval_view *view, uint32_t i)
{
    return view->settling && view->rest[i].rest > 0.0f;
}

void steer__orca_shared_destination(const eval_ctx *ctx, const orca_neighbour *near, int k, bool idle,
                                    steer_vec2 dest, orca_pairs *pairs)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    const orca_course *course = view->course;
    if (!dest_kept(view, ctx->self, dest) || settling(view, ctx->self)) return;
    const uint32_t self = ctx->self_proxy;
    const float r_self = ctx->lim.radius;
    const float da = steer_length(steer_v2(g->x[self] - dest.x, g->y[self] - dest.y));
    float sa = -1.0f; // its speed (the grid's), once needed
    for (int i = 0; i < k; ++i) {
        // (first against pairs->r, at hand: most neighbours go elsewhere)
        const uint32_t q = near[i].proxy, j = g->agent[q];
        const float ex = course[j].dx - dest.x, ey = course[j].dy - dest.y, e2 = ex * ex + ey * ey;
        if (e2 > ORCA_DEST_SAME * ORCA_DEST_SAME * pairs->r[i] * pairs->r[i]) continue;
        const float rr = r_self + view->limits[j].radius;
        if (e2 > ORCA_DEST_SAME * ORCA_DEST_SAME * rr * rr || !(view->flags[j] & AGENT_AVOIDS)) continue;
        if (settling(view, j)) continue;
        if (sa < 0.0f) sa = steer_length(steer_v2(g->vx[self], g->vy[self]));
        const float db = steer_length(steer_v2(g->x[q] - dest.x, g->y[q] - dest.y));
        // near the point: in full while the nearer is within NEAR times the
        // two radii of it, none from twice that
        const float at = steer_clampf(2.0f - steer_minf(da, db) / (ORCA_DEST_NEAR * rr), 0.0f, 1.0f);
        // at a crawl: none once the two speeds add up to SLOW mean max speeds
        const float sum = sa + steer_length(steer_v2(g->vx[q], g->vy[q]));
        const float mean_max = 0.5f * (ctx->lim.max_speed + view->limits[j].max_speed);
        const float crawl = steer_clampf(1.0f - sum / (ORCA_DEST_SLOW * mean_max), 0.0f, 1.0f);
        const float dp = steer_clampf((da - db) / (ORCA_DEST_SPAN * rr), -ORCA_DEST_MAX, ORCA_DEST_MAX) * crawl * at;
        if (dp == 0.0f) continue;
        float share = pairs->share[i];
        share = dp > 0.0f ? share + dp * (1.0f - share) : share + dp * share;
        pairs->share[i] = idle_share(share, idle);
    }
}

bool steer__orca_comes_first(const eval_ctx *ctx, uint32_t q, uint32_t j, steer_vec2 dest)
{
    const eval_view *view = ctx->view;
    const bool by_key = view->key[j] < ctx->key;
    // both head for one point: the agent's destination kept, the
    // neighbour's course at it; no layers or priorities (their lines are
    // rebuilt from their own shares); neither of the two settled or easing
    // out (both read the same two levels, the step before's)
    if (!ORCA_DEST_YIELD || view->course == NULL || view->filtered || view->prioritised) return by_key;
    if (!dest_kept(view, ctx->self, dest)) return by_key;
    const orca_course *a = &view->course[ctx->self], *b = &view->course[j];
    const float ex = b->dx - a->dx, ey = b->dy - a->dy, rr = ctx->lim.radius + view->limits[j].radius;
    if (ex * ex + ey * ey > ORCA_DEST_SAME * ORCA_DEST_SAME * rr * rr) return by_key;
    if (settling(view, ctx->self) || settling(view, j)) return by_key;
    // the nearer by more than ORCA_DEST_YIELD_BY of the two radii, both
    // measuring to the course of the one whose key comes first
    const orca_course *at = by_key ? b : a;
    const neighbour_grid *g = view->grid;
    const float da = steer_length(steer_v2(g->x[ctx->self_proxy] - at->dx, g->y[ctx->self_proxy] - at->dy));
    const float db = steer_length(steer_v2(g->x[q] - at->dx, g->y[q] - at->dy));
    const float m = ORCA_DEST_YIELD_BY * rr;
    const int win = db < da - m ? 1 : da < db - m ? -1 : 0; // (1: the neighbour)
    if (win == 0) return by_key;
    // ...only while the nearer one still moves in (an exit's front crawls
    // in; a kept point's holder stands on it)
    const uint32_t p = win > 0 ? q : ctx->self_proxy;
    const float wx = at->dx - g->x[p], wy = at->dy - g->y[p], wd = win > 0 ? db : da;
    const float in = wd > 0.0f ? (g->vx[p] * wx + g->vy[p] * wy) / wd : 0.0f;
    const float top = win > 0 ? view->limits[j].max_speed : ctx->lim.max_speed;
    if (!(in >= ORCA_DEST_YIELD_MOVING * top)) return by_key;
    return win > 0;
}
