// avoidance.c: the notes' obstacle and wall avoidance.
//
// "Cast one or more rays out in the direction of the motion. If these rays
// collide with an obstacle, then create a target to avoid the collision, and
// do seek on this target": target = hit + normal * avoid_distance.
//
// The notes' problems and the work-arounds here (docs/geometry.md):
// - corner trap: with whiskers, each side ray hits one wall of a corner and
//   the seek target jumps from side to side. The agent commits to one turn
//   direction (one float of behaviour memory) while any ray hits, and when the
//   rays disagree (a trap) or the wall is straight ahead it turns that way.
// - thin obstacles slip between rays: the central ray of the whiskers and
//   parallel layouts sweeps the agent's disc (a circle cast), so nothing the
//   body would touch passes between the rays.
// - ray length ignores speed: with scale_lookahead the rays are
//   lookahead * speed / max_speed long (never shorter than the radius).
#include "geometry.h"

enum { RAY_CENTRE, RAY_LEFT, RAY_RIGHT, RAY_COUNT };

/// Lateral push (|normal . left|) below which a hit counts as head-on.
#define HEAD_ON 0.1f

typedef struct feeler {
    steer_vec2 origin, dir;
    float length, radius;
    bool cast;
    bool hit;
    steer_ray_hit result;
} feeler;

// Direction rotated by +angle (counter-clockwise), deterministic trig.
static steer_vec2 rotate(steer_vec2 v, float angle)
{
    steer_cos_sin cs = steer_compute_cos_sin(angle);
    return steer_v2(v.x * cs.cosine - v.y * cs.sine, v.x * cs.sine + v.y * cs.cosine);
}

static feeler make_feeler(steer_vec2 origin, steer_vec2 dir, float length, float radius, bool cast)
{
    feeler f;
    memset(&f, 0, sizeof f);
    f.origin = origin, f.dir = dir, f.length = length, f.radius = radius, f.cast = cast;
    return f;
}

static void lay_out(const steer_behaviour_def *d, steer_vec2 pos, steer_vec2 u, float length, float radius,
                    feeler *f)
{
    steer_vec2 left = steer_perp(u);
    f[RAY_CENTRE] = make_feeler(pos, u, length, 0.0f, true);
    f[RAY_LEFT] = f[RAY_RIGHT] = make_feeler(pos, u, 0.0f, 0.0f, false);
    switch (d->rays) {
    case STEER_RAYS_WHISKERS: {
        float side = length * d->whisker_scale;
        f[RAY_CENTRE].radius = radius;
        f[RAY_LEFT] = make_feeler(pos, rotate(u, d->whisker_angle), side, 0.0f, true);
        f[RAY_RIGHT] = make_feeler(pos, rotate(u, -d->whisker_angle), side, 0.0f, true);
        break;
    }
    case STEER_RAYS_PARALLEL:
        f[RAY_CENTRE].radius = radius;
        f[RAY_LEFT] = make_feeler(steer_mul_add(pos, left, radius), u, length, 0.0f, radius > 0.0f);
        f[RAY_RIGHT] = make_feeler(steer_mul_add(pos, left, -radius), u, length, 0.0f, radius > 0.0f);
        break;
    default: break; // single: the notes' one ray
    }
}

// The turn direction with more room: away from the nearer side hit, else
// along the summed normals, else left.
static float choose_side(const feeler *f, steer_vec2 left)
{
    bool l = f[RAY_LEFT].hit, r = f[RAY_RIGHT].hit;
    if (l != r) return l ? -1.0f : 1.0f;
    if (l && r && f[RAY_LEFT].result.distance != f[RAY_RIGHT].result.distance)
        return f[RAY_LEFT].result.distance > f[RAY_RIGHT].result.distance ? 1.0f : -1.0f;
    float lateral = 0.0f;
    for (int i = 0; i < RAY_COUNT; ++i) {
        if (f[i].hit) lateral += steer_dot(f[i].result.normal, left);
    }
    return lateral < 0.0f ? -1.0f : 1.0f;
}

bool steer__eval_obstacle_avoidance(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    // committed turn: +1 left, -1 right, 0 none (kept while any ray hits)
    float *side = steer__memory_claim(ctx, 1);
    steer_vec2 pos = ctx->me.position, v = ctx->me.velocity;
    float speed = steer_length(v);
    if (speed == 0.0f || ctx->w->geometry == NULL) {
        *side = 0.0f;
        return false;
    }
    steer_vec2 u = steer_scale(v, 1.0f / speed), left = steer_perp(u);
    float radius = ctx->lim.radius;
    float length = d->lookahead;
    if (d->scale_lookahead) {
        // rays as long as the motion needs: lookahead is the length at max speed
        float ratio = ctx->lim.max_speed > 0.0f ? steer_minf(speed / ctx->lim.max_speed, 1.0f) : 1.0f;
        length = steer_maxf(length * ratio, radius);
    }
    feeler f[RAY_COUNT];
    lay_out(d, pos, u, length, radius, f);
    int nearest = -1;
    bool pushes_left = false, pushes_right = false;
    for (int i = 0; i < RAY_COUNT; ++i) {
        if (!f[i].cast || f[i].length <= 0.0f) continue;
        f[i].hit = steer__geometry_cast(ctx->w, f[i].origin, f[i].dir, f[i].radius, f[i].length, UINT32_MAX,
                                        &f[i].result);
        if (!f[i].hit) continue;
        if (nearest < 0 || f[i].result.distance < f[nearest].result.distance) nearest = i;
        float lateral = steer_dot(f[i].result.normal, left);
        if (i != RAY_CENTRE && lateral > HEAD_ON) pushes_left = true;
        if (i != RAY_CENTRE && lateral < -HEAD_ON) pushes_right = true;
    }
    if (nearest < 0) {
        *side = 0.0f;
        return false;
    }
    // the notes: seek a point off the surface that was hit
    const steer_ray_hit *h = &f[nearest].result;
    steer_vec2 target = steer_mul_add(h->point, h->normal, d->avoid_distance);
    float lateral = steer_dot(steer_sub(target, pos), left);
    bool trap = f[RAY_CENTRE].hit && pushes_left && pushes_right;
    bool head_on = steer_absf(steer_dot(h->normal, left)) < HEAD_ON;
    if (*side == 0.0f) {
        if (trap || head_on) *side = choose_side(f, left);
        else *side = lateral > 0.0f ? 1.0f : -1.0f;
    }
    if (trap || head_on || lateral * *side <= 0.0f) {
        // turn the committed way, braking: a point back and to that side
        steer_vec2 dir = steer_normalize(steer_sub(steer_scale(left, *side), u));
        target = steer_mul_add(pos, dir, length);
    }
    steer__seek_point(ctx, target, false, out);
    return true;
}
