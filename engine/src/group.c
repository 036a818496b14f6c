// group.c: behaviours whose target is the agent's neighbours: separation,
// cohesion, alignment and collision avoidance. Neighbours come from the
// grid (steer__gather_neighbours) in canonical order, so sums are the same
// bits whatever the spawn or storage order.
#include "core.h"

// Direction away from a neighbour at the very same point: a fixed axis
// chosen by key, so the two agents go opposite ways.
static steer_vec2 tie_break(const eval_ctx *ctx, uint32_t proxy)
{
    uint64_t other = ctx->w->key[ctx->w->grid.agent[proxy]];
    return steer_v2(ctx->key < other ? -1.0f : 1.0f, 0.0f);
}

static bool separation(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const float r = d->radius, r2 = r * r;
    const int n = steer__gather_neighbours(ctx, r);
    const eval_scratch *sc = ctx->scratch;
    const neighbour_grid *g = &ctx->w->grid;
    const float cx = ctx->me.position.x, cy = ctx->me.position.y;
    const float max_acc = ctx->lim.max_acceleration;
    const bool linear_law = d->law == STEER_LAW_LINEAR;
    const float k_decay = d->decay_coefficient;
    float lx = 0.0f, ly = 0.0f;
    bool any = false;
    for (int j = 0; j < n; ++j) {
        float d2 = sc->dist_sq[j];
        if (!(d2 < r2)) continue; // gathered for a wider behaviour
        if (d2 == 0.0f) {
            // same point: no direction to flee along, use the tie-break axis
            steer_vec2 dir = tie_break(ctx, sc->proxy[j]);
            lx += max_acc * dir.x;
            ly += max_acc * dir.y;
            any = true;
            continue;
        }
        float inv = 1.0f / sqrtf(d2);
        // separation strength: the notes' two laws
        float strength = linear_law ? max_acc * (r - d2 * inv) / r : steer_minf(k_decay * (inv * inv), max_acc);
        // direction away from the neighbour, unit
        uint32_t k = sc->proxy[j];
        lx += strength * ((cx - g->x[k]) * inv);
        ly += strength * ((cy - g->y[k]) * inv);
        any = true;
    }
    if (!any) return false;
    out->linear = steer_clamp_length(steer_v2(lx, ly), max_acc);
    out->angular = 0.0f;
    return true;
}

static bool cohesion_or_alignment(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const float r = d->radius, r2 = r * r;
    const int n = steer__gather_neighbours(ctx, r);
    const neighbour_grid *g = &ctx->w->grid;
    const eval_scratch *sc = ctx->scratch;
    const bool cohesion = d->type == STEER_COHESION;
    // cohesion averages positions, alignment velocities
    const float *ax = cohesion ? g->x : g->vx, *ay = cohesion ? g->y : g->vy;
    float sx = 0.0f, sy = 0.0f;
    int count = 0;
    for (int j = 0; j < n; ++j) {
        if (!(sc->dist_sq[j] < r2)) continue;
        uint32_t k = sc->proxy[j];
        sx += ax[k];
        sy += ay[k];
        ++count;
    }
    if (count == 0) return false;
    steer_vec2 mean = steer_v2(sx / (float)count, sy / (float)count);
    if (cohesion) mean = steer_sub(mean, ctx->me.position); // offset to the centre
    const float max_acc = ctx->lim.max_acceleration;
    if (cohesion) {
        // towards the neighbours' centre of mass (mean is the offset to it),
        // at full acceleration from the edge of the radius, less closer in
        out->linear = steer_clamp_length(steer_scale(mean, max_acc / r), max_acc);
    } else {
        // velocity matching with the neighbours' mean velocity
        steer_vec2 linear = steer_scale(steer_sub(mean, ctx->me.velocity), 1.0f / d->time_to_target);
        out->linear = steer_clamp_length(linear, max_acc);
    }
    out->angular = 0.0f;
    return true;
}

static bool collision_avoidance(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    const float r2 = d->radius * d->radius;
    const int n = steer__gather_neighbours(ctx, d->radius);
    const steer_world *w = ctx->w;
    const neighbour_grid *g = &w->grid;
    const uint32_t *list = ctx->scratch->proxy;
    const float *dist = ctx->scratch->dist_sq;
    const steer_vec2 heading = steer_heading(ctx->me.orientation);
    float shortest = INFINITY, first_distance = 0.0f, first_radius = 0.0f;
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
        float collide = ctx->lim.radius + w->limits[g->agent[k]].radius;
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
        if (t < 0.0f || t >= shortest) continue;
        // react to the neighbour whose closest approach comes first
        shortest = t;
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

bool steer__eval_group(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    switch (d->type) {
    case STEER_SEPARATION: return separation(ctx, d, out);
    case STEER_COLLISION_AVOIDANCE: return collision_avoidance(ctx, d, out);
    default: return cohesion_or_alignment(ctx, d, out);
    }
}
