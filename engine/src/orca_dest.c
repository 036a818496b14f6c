// orca_dest.c: of two avoiders heading for one point, the nearer one goes
// first (orca_dest.h; issue 21, docs/crowds/exit21.md, docs/crowds/exit21b.md).
#include "orca_dest.h"
#include "world.h"

void steer__orca_shared_destination(const eval_ctx *ctx, const orca_neighbour *near, int k, bool idle,
                                    steer_vec2 dest, orca_pairs *pairs)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    const orca_course *course = view->course;
    // only a destination kept since the step before (at an agent's first
    // step its course is still the origin: every agent of a new world
    // would share (0, 0) for one step)
    if (!(course[ctx->self].dx == dest.x && course[ctx->self].dy == dest.y)) return;
    // (settled or easing out: its pairs are the settling rules')
    const orca_rest *rest = view->settling ? view->rest : NULL;
    if (rest != NULL && rest[ctx->self].rest > 0.0f) return;
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
        if (rest != NULL && rest[j].rest > 0.0f) continue;
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
