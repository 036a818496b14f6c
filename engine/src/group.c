// group.c: behaviours whose target is the agent's neighbours: separation,
// cohesion, alignment and collision avoidance. Neighbours come from the
// grid in canonical order (the neighbour sums, the context's gather), so
// results are the same bits whatever the spawn or storage order.
#include "eval.h"

// The neighbour sums at radius r, computed once per agent and shared by the
// separation, cohesion and alignment of one tree (a flock is one pass).
// `separation` asks for separation's sum too.
static const neighbour_sums *sums_at(eval_ctx *ctx, float r, const steer_behaviour_def *separation)
{
    neighbour_sums *s = &ctx->sums;
    bool fresh = s->radius == r;
    if (fresh && separation != NULL) {
        fresh = s->has_separation && s->law == (int)separation->law && s->decay == separation->decay_coefficient &&
                s->max_acc == ctx->lim.max_acceleration;
    }
    if (!fresh) steer__neighbour_sums(ctx, r, separation, s);
    return s;
}

// Separation's sum capped at max_len: steer_clamp_length's result, with
// whether it caps selected without a branch (three agents in four of a
// flock are capped, in no pattern a predictor follows); uncapped, the scale
// is 1 and the sum comes back as it was.
static steer_vec2 cap_push(float px, float py, float max_len)
{
    const double x = px, y = py, len2 = x * x + y * y, max = max_len;
    if (isinf(len2)) return steer_clamp_length(steer_v2(px, py), max_len); // an overflowed sum: its direction
    const double s = steer__select_gt(len2, max * max, max / sqrt(len2 > 0.0 ? len2 : 1.0), 1.0);
    return steer_v2(steer_round_float(x * s), steer_round_float(y * s));
}

static bool separation(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    // the notes' separation: from each neighbour closer than the threshold,
    // flee with a strength from the inverse-square or linear law; the sum
    // is capped at max_acceleration
    const neighbour_sums *s = sums_at(ctx, d->radius, d);
    if (s->count == 0) return false;
    out->linear = cap_push(s->sep_x, s->sep_y, ctx->lim.max_acceleration);
    out->angular = 0.0f;
    return true;
}

static bool cohesion(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const neighbour_sums *s = sums_at(ctx, d->radius, NULL);
    if (s->count == 0) return false;
    // towards the neighbours' centre of mass, at full acceleration from the
    // edge of the radius and proportionally less closer in:
    // (offset to the centre) * max_acc / radius, capped. In double, so a tiny
    // radius cannot overflow.
    const double f = (double)ctx->lim.max_acceleration / ((double)d->radius * s->count);
    out->linear = steer_clamp_length_d(s->sum_dx * f, s->sum_dy * f, ctx->lim.max_acceleration);
    out->angular = 0.0f;
    return true;
}

static bool alignment(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const neighbour_sums *s = sums_at(ctx, d->radius, NULL);
    if (s->count == 0) return false;
    // velocity matching with the neighbours' mean velocity
    const float inv_n = 1.0f / (float)s->count;
    steer_vec2 mean = steer_v2(s->sum_vx * inv_n, s->sum_vy * inv_n);
    out->linear = steer__over_time(mean, ctx->me.velocity, d->time_to_target, ctx->lim.max_acceleration);
    out->angular = 0.0f;
    return true;
}

// Strict order of two candidates by relative position, relative velocity, key.
static bool state_before(steer_vec2 pa, steer_vec2 va, uint64_t ka, steer_vec2 pb, steer_vec2 vb, uint64_t kb)
{
    uint64_t a = steer__sortable_pair(pa.x, pa.y), b = steer__sortable_pair(pb.x, pb.y);
    if (a != b) return a < b;
    a = steer__sortable_pair(va.x, va.y), b = steer__sortable_pair(vb.x, vb.y);
    if (a != b) return a < b;
    return ka < kb;
}

static bool collision_avoidance(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const float r2 = d->radius * d->radius;
    const int n = steer__context_gather(ctx, d->radius);
    const neighbour_grid *g = ctx->view->grid;
    const uint32_t *list = ctx->scratch->proxy;
    const float *dist = ctx->scratch->dist_sq;
    const steer_vec2 heading = steer_heading(ctx->me.orientation);
    float shortest = INFINITY, first_distance = 0.0f, first_radius = 0.0f;
    uint64_t first_key = 0;
    steer_vec2 first_pos = {0, 0}, first_vel = {0, 0};
    bool found = false;
    for (int j = 0; j < n; ++j) {
        if (!(dist[j] < r2)) continue;
        uint32_t k = list[j];
        steer_vec2 rel_pos = steer_v2(g->x[k] - ctx->me.position.x, g->y[k] - ctx->me.position.y);
        float distance = sqrtf(dist[j]);
        // the optional cone: engage only what is in front
        if (d->use_cone && distance > 0.0f && steer_dot(heading, rel_pos) <= d->cone_threshold * distance) continue;
        steer_vec2 rel_vel = steer_v2(g->vx[k] - ctx->me.velocity.x, g->vy[k] - ctx->me.velocity.y);
        float rel_speed2 = steer_length_sq(rel_vel);
        float collide = ctx->lim.radius + steer__proxy_radius(ctx, k);
        float t, min_sep;
        if (rel_speed2 > 0.0f) {
            // time of closest approach: t = -(r . v) / |v|^2
            t = -steer_dot(rel_pos, rel_vel) / rel_speed2;
            min_sep = steer_length(steer_mul_add(rel_pos, rel_vel, t));
        } else if (distance < collide) {
            t = 0.0f; // overlapping and not moving apart
            min_sep = distance;
        } else {
            continue;
        }
        if (min_sep >= collide) continue;
        // already overlapping counts as a collision now
        if (distance < collide) t = 0.0f;
        if (t < 0.0f || t > shortest) continue;
        // equal times (every overlapping neighbour has t = 0): the nearest,
        // then by relative position and velocity, the key last, so the
        // choice never depends on the scan order, nor on keys but for
        // neighbours in the very same state
        const uint64_t key = steer__proxy_key(ctx, k);
        if (t == shortest && (distance > first_distance ||
                              (distance == first_distance && !state_before(rel_pos, rel_vel, key, first_pos, first_vel, first_key))))
            continue;
        // react to the neighbour whose closest approach comes first
        shortest = t;
        first_key = key;
        first_distance = distance;
        first_radius = collide;
        first_pos = rel_pos;
        first_vel = rel_vel;
        found = true;
    }
    if (!found) return false;
    steer_vec2 away;
    if (first_distance < first_radius) {
        // colliding now: move away from where the other is
        away = steer_neg(first_pos);
    } else {
        // move away from where the other will be at closest approach; an
        // exact hit (separation 0) leaves no direction and keeps right below
        away = steer_neg(steer_mul_add(first_pos, first_vel, shortest));
    }
    if (steer_length_sq(away) <= 1e-12f * steer_maxf(steer_length_sq(first_pos), 1.0f)) {
        // exactly head-on: keep right (of the agent's velocity, or heading)
        steer_vec2 fwd = steer_length_sq(ctx->me.velocity) > 0.0f ? ctx->me.velocity : heading;
        away = steer_v2(fwd.y, -fwd.x);
    }
    out->linear = steer_scale(steer_normalize(away), ctx->lim.max_acceleration);
    out->angular = 0.0f;
    return true;
}

bool steer__group_separation(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return separation(ctx, &b->def, out);
}

bool steer__group_cohesion(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return cohesion(ctx, &b->def, out);
}

bool steer__group_alignment(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return alignment(ctx, &b->def, out);
}

bool steer__group_collision_avoidance(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    return collision_avoidance(ctx, &b->def, out);
}

bool steer__group_blend(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out)
{
    // eval_blend's loop with its children's evaluators inlined: the same
    // operations in the same order, so the same bits. The angular sum stays
    // +0.0 (each child's is 0, times a finite weight, added to +0.0).
    const int n = b->def.child_count;
    const steer_child *children = b->children;
    double x = 0.0, y = 0.0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        const steer_behaviour_def *d = &children[i].behaviour->def;
        steer_steering s;
        bool has;
        switch (d->type) {
        case STEER_SEPARATION: has = separation(ctx, d, &s); break;
        case STEER_COHESION: has = cohesion(ctx, d, &s); break;
        default: has = alignment(ctx, d, &s); break; // (the flag admits only these three)
        }
        if (!has) continue;
        const double wgt = children[i].weight;
        x += s.linear.x * wgt;
        y += s.linear.y * wgt;
        any = true;
    }
    if (!any) return false;
    steer__clamp_output(ctx, x, y, 0.0, out);
    return true;
}
