// avoidance.c: the notes' obstacle and wall avoidance.
//
// "Cast one or more rays out in the direction of the motion. If these rays
// collide with an obstacle, then create a target to avoid the collision, and
// do seek on this target": target = hit + normal * avoid_distance.
//
// The notes' problems and the work-arounds here (docs/geometry.md):
// - corner trap: with whiskers, each side ray hits one wall of a corner and
//   the seek target jumps from side to side. When the rays disagree (a trap)
//   or the wall is straight ahead, or the target flips side from one step to
//   the next, the agent commits to one turn (the side with more room, probed
//   by rays at 30 and 60 degrees) kept in one float of behaviour memory until no ray hits;
//   meanwhile a target on the other side is not followed.
// - thin obstacles slip between rays: the central ray of the whiskers and
//   parallel layouts sweeps the agent's disc, grown by a quarter (a circle
//   cast), so nothing the body would touch passes between the rays.
// - ray length ignores speed: with scale_lookahead the rays are
//   lookahead * speed / max_speed long (never shorter than the radius).
// - an agent whose centre is inside a solid (placed there, or pushed in):
//   every ray from inside hits at distance 0 facing back along the ray, so
//   the notes' target sits behind the agent whichever way it turns, and it
//   hovers. Before casting, a point query finds the solid part the centre is
//   deepest in; the agent seeks a point avoid_distance (plus its radius)
//   outside that part's nearest boundary point, at rest or moving, with any
//   ray layout. Walls have no inside.
#include "eval.h"
#include "raycast.h"
#include "trace.h"

enum { RAY_CENTRE, RAY_LEFT, RAY_RIGHT, RAY_COUNT };

/// The swept central ray is the agent's disc grown by this factor: a path
/// that clears an obstacle by a hair is not taken as clear.
#define SWEEP_CLEARANCE 1.25f

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
        f[RAY_CENTRE].radius = radius * SWEEP_CLEARANCE;
        f[RAY_LEFT] = make_feeler(pos, rotate(u, d->whisker_angle), side, 0.0f, true);
        f[RAY_RIGHT] = make_feeler(pos, rotate(u, -d->whisker_angle), side, 0.0f, true);
        break;
    }
    case STEER_RAYS_PARALLEL:
        f[RAY_CENTRE].radius = radius * SWEEP_CLEARANCE;
        f[RAY_LEFT] = make_feeler(steer_mul_add(pos, left, radius), u, length, 0.0f, radius > 0.0f);
        f[RAY_RIGHT] = make_feeler(steer_mul_add(pos, left, -radius), u, length, 0.0f, radius > 0.0f);
        break;
    default: break; // single: the notes' one ray
    }
}

// The solid part (circle, box, polygon) the point is deepest inside, with
// its nearest boundary point and outward normal; ties go to the lower
// (shape, part), so the answer does not depend on the hierarchy's order.
typedef struct inside_query {
    const struct steer_geometry *g;
    steer_vec2 p;
    bool found;
    float depth;
    uint64_t key;
    steer_vec2 point, normal;
} inside_query;

static void inside_visit(const geo_prim *prim, void *context)
{
    inside_query *q = context;
    if (prim->type == PRIM_SEGMENT) return;
    steer_vec2 point, normal;
    float depth = -steer__geometry_closest(q->g, prim, q->p, &point, &normal);
    if (!(depth > 0.0f)) return;
    uint64_t key = ((uint64_t)prim->shape << 24) | prim->part;
    if (q->found && (depth < q->depth || (depth == q->depth && key > q->key))) return;
    q->found = true, q->depth = depth, q->key = key, q->point = point, q->normal = normal;
}

// Inside a solid: seek out through its nearest boundary point. The trace
// shows a ray from the centre to that point, hitting it.
static bool escape(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    inside_query q = {ctx->view->geometry, ctx->me.position, false, 0.0f, 0, {0.0f, 0.0f}, {0.0f, 0.0f}};
    const geo_filter sees = geo_filter_of(&ctx->view->filter[ctx->self]); // only a solid the agent sees
    steer__geometry_overlap(q.g, q.p, q.p, &sees, inside_visit, &q);
    if (!q.found) return false;
    steer_vec2 target = steer_mul_add(q.point, q.normal, ctx->lim.radius + d->avoid_distance);
    if (ctx->trace != NULL) {
        steer_ray_hit h;
        memset(&h, 0, sizeof h);
        h.point = q.point, h.normal = q.normal, h.distance = q.depth;
        steer__trace_ray(ctx, q.p, q.normal, q.depth, 0.0f, true, &h);
    }
    steer__steering_seek(ctx, target, false, out);
    return true;
}

// The turn direction with more room: probes at 30 and 60 degrees either
// side, twice as long as the central ray; the side whose probes run freer
// in total wins, then the side the hit normals push to, then left.
static float choose_side(eval_ctx *ctx, const feeler *f)
{
    static const float angles[2] = {0.5235988f, 1.0471976f};
    float reach = 2.0f * f[RAY_CENTRE].length, room[2] = {0.0f, 0.0f};
    const geo_filter sees = geo_filter_of(&ctx->view->filter[ctx->self]);
    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 2; ++j) {
            steer_vec2 dir = rotate(f[RAY_CENTRE].dir, k == 0 ? angles[j] : -angles[j]);
            steer_ray_hit h;
            bool hit = steer__raycast_shapes(ctx->view->geometry, f[RAY_CENTRE].origin, dir, 0.0f, reach, &sees, &h);
            room[k] += hit ? h.distance : reach;
        }
    }
    if (room[0] != room[1]) return room[0] > room[1] ? 1.0f : -1.0f;
    float lateral = 0.0f;
    steer_vec2 left = steer_perp(f[RAY_CENTRE].dir);
    for (int i = 0; i < RAY_COUNT; ++i) {
        if (f[i].hit) lateral += steer_dot(f[i].result.normal, left);
    }
    return lateral < 0.0f ? -1.0f : 1.0f;
}

bool steer__avoidance_steer(eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out)
{
    // turn memory: 0 none, +-1 the last turn (left +), +-2 a committed turn
    // (kept while any ray hits)
    float *side = steer__node_memory(ctx);
    steer_vec2 pos = ctx->me.position, v = ctx->me.velocity;
    float speed = steer_length(v);
    if (ctx->view->geometry == NULL) {
        *side = 0.0f;
        return false;
    }
    if (escape(ctx, d, out)) {
        *side = 0.0f;
        return true;
    }
    if (speed == 0.0f) {
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
    const geo_filter sees = geo_filter_of(&ctx->view->filter[ctx->self]); // the shapes the agent sees
    int nearest = -1;
    bool pushes_left = false, pushes_right = false;
    for (int i = 0; i < RAY_COUNT; ++i) {
        if (!f[i].cast || f[i].length <= 0.0f) continue;
        f[i].hit = steer__raycast_shapes(ctx->view->geometry, f[i].origin, f[i].dir, f[i].radius, f[i].length, &sees,
                                        &f[i].result);
        if (ctx->trace != NULL) {
            steer__trace_ray(ctx, f[i].origin, f[i].dir, f[i].length, f[i].radius, f[i].hit, &f[i].result);
        }
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
    bool trap = f[RAY_CENTRE].hit && pushes_left && pushes_right;
    bool head_on = steer_absf(steer_dot(h->normal, left)) < HEAD_ON;
    float lateral = steer_dot(steer_sub(target, pos), left);
    float now = lateral > 0.0f ? 1.0f : -1.0f;
    // memory: the last turn (+-1), or a committed turn (+-2)
    if (steer_absf(*side) != 2.0f) {
        // a trap, a wall straight ahead, or a target that flipped side since
        // the last step: commit to the side with more room
        if (trap || head_on || *side == -now) *side = 2.0f * choose_side(ctx, f);
        else *side = now;
    }
    float committed = 0.5f * *side;
    if (steer_absf(*side) == 2.0f && (trap || head_on || now != committed)) {
        // turn the committed way, braking: a point back and to that side
        steer_vec2 dir = steer_normalize(steer_sub(steer_scale(left, committed), u));
        target = steer_mul_add(pos, dir, length);
    }
    steer__steering_seek(ctx, target, false, out);
    return true;
}
