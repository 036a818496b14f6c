// orca_settle.c: settling at a shared point (orca_settle.h).
#include "orca_settle.h"

bool steer__orca_settled(const eval_ctx *ctx, const orca_neighbour *near, int k, steer_vec2 dest_now,
                         float wish, float r_self, float r_cap, orca_settling *out)
{
    *out = (orca_settling){false, false, 0.0f, 0.0f, 0.0f, 0.0f, {0.0f, 0.0f}};
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    const orca_course *course = view->course;
    const orca_rest *rest = view->rest;
    if (ctx->self_proxy >= (uint32_t)g->count) return false;
    const steer_vec2 dest = steer_v2(course[ctx->self].dx, course[ctx->self].dy), at = ctx->me.position;
    const float to_dest = steer_length(steer_sub(dest, at));
    // a new order: not settled, and its pairs do not rest (see
    // steer__orca_settle_lines)
    out->fresh = steer_length_sq(steer_sub(dest_now, dest)) >= ORCA_SETTLE_SAME * ORCA_SETTLE_SAME;
    if (out->fresh) return false;
    const bool on_point = to_dest < ORCA_SETTLE_ROOT * ctx->lim.radius;
    int touching = 0, supports = 0;
    float carried = 0.0f, heap = 0.0f, pressed = 0.0f;
    steer_vec2 push = steer_v2(0.0f, 0.0f);
    // (no agent settling: none counts, and the column is not read)
    const int settling = view->settling ? k : 0;
    for (int i = 0; i < settling; ++i) {
        const uint32_t q = near[i].proxy, j = g->agent[q];
        const orca_rest *cj = &rest[j];
        if (!(cj->rest > 0.0f)) continue;
        const float ex = course[j].dx - dest.x, ey = course[j].dy - dest.y;
        if (ex * ex + ey * ey >= ORCA_SETTLE_SAME * ORCA_SETTLE_SAME) continue;
        const steer_vec2 pj = steer_v2(g->x[q], g->y[q]);
        const float reach = pair_radius(r_self, r_cap, view->limits[j].radius) + ORCA_SETTLE_REACH;
        if (steer_length_sq(steer_sub(pj, at)) >= reach * reach) continue;
        ++touching;
        const float dj = steer_length(steer_sub(dest, pj));
        if (dj < to_dest) {
            // a support: it relays the heap's area
            ++supports;
            heap = steer_maxf(heap, cj->heap);
        } else if (dj > to_dest) {
            // an outer one: its share of what it carries (split equally
            // among its supports), and its pressing
            carried += cj->mass / steer_maxf(cj->supports, 1.0f);
            const steer_vec2 away = steer_sub(at, pj);
            const float al = steer_length(away);
            if (cj->press > 0.0f && al > 0.0f) {
                push = steer_mul_add(push, away, cj->press / al);
                pressed = steer_maxf(pressed, cj->press);
            }
        }
    }
    if (!on_point && supports == 0) return false;
    out->pocket = on_point || touching >= 2;
    out->supports = (float)supports;
    out->mass = ctx->lim.radius * ctx->lim.radius + carried;
    out->heap = steer_maxf(heap, out->mass);
    // farther out than the heap would reach packed: it presses on its
    // supports (and they, less, on theirs), which give way to the side;
    // not while its supports relay no heap (just settled) or the count
    // still changes
    const float packed = ORCA_PACKED * sqrtf(out->heap);
    const float was = (ctx->rest_marks & 1) ? rest[ctx->self].heap : 0.0f; // (world.h, rest_held)
    const bool beyond = heap > 0.0f && fabsf(out->heap - was) <= ORCA_HEAP_SAME * was &&
                        to_dest > ORCA_PRESS_BEYOND * packed;
    out->press = on_point ? 0.0f : beyond ? 1.0f : ORCA_PRESS_RELAY * pressed;
    // pressed: its wish's length away from the agents pressing on it (the
    // agent on the point stays)
    const float pl = steer_length(push);
    if (!on_point && pl > 0.0f) out->push = steer_scale(push, wish * steer_minf(pl, 1.0f) / pl);
    return true;
}

uint64_t steer__orca_settle_lines(const eval_ctx *ctx, const orca_neighbour *near, int k, const orca_pairs *pairs,
                                  steer_vec2 v, float speed, float inv_tau, float inv_dt, bool fresh, bool pocket,
                                  orca_line *lines)
{
    const eval_view *view = ctx->view;
    const neighbour_grid *g = view->grid;
    uint64_t stiff = 0;
    for (int i = 0; i < k; ++i) {
        const uint32_t q = near[i].proxy, j = g->agent[q];
        const float lvl = steer__orca_pair_level(view, ctx->self, (int)j);
        if (!(lvl > 0.0f)) continue;
        const float rb = ctx->lim.radius + view->limits[j].radius;
        const float still = ORCA_SETTLE_SLOW * pairs->mean[i];
        const steer_vec2 rel = steer_v2(pairs->rx[i], pairs->ry[i]);
        const bool rest = pocket && lvl >= 1.0f && !fresh && speed < still &&
                          pairs->jx[i] * pairs->jx[i] + pairs->jy[i] * pairs->jy[i] < still * still;
        if (rest) {
            // the other as if it stood still (its velocity at rest is noise)
            lines[i] = agent_line(rel, v, steer__orca_settle_radius(pairs->r[i], rb, 1.0f), inv_tau, inv_dt, v,
                                  pairs->share[i]);
            stiff |= UINT64_C(1) << i;
        } else {
            lines[i] = agent_line(rel, steer_v2(pairs->vx[i], pairs->vy[i]),
                                  steer__orca_settle_radius(pairs->r[i], rb, lvl), inv_tau, inv_dt, v, pairs->share[i]);
        }
    }
    return stiff;
}
