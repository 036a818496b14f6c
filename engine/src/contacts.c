// contacts.c: the optional contact resolution after integration
// (world.resolve_contacts, off by default): agents pushed out of the static
// shapes.
#include "geometry.h"
#include "world.h"

/// Passes of contact resolution per agent (a corner needs two).
enum { CONTACT_PASSES = 4 };
/// Contact within this distance of touching (metres): the velocity into
/// the surface is removed even without penetration, so an agent pushed
/// against a wall stays on it instead of entering it every other step.
#define CONTACT_SKIN 1e-3f


/* ---- contact resolution ---------------------------------------------------------- */

typedef struct contact_query {
    const struct steer_geometry *g;
    steer_vec2 p, v;
    float radius;
    float depth; ///< deepest penetration found (> 0)
    steer_vec2 normal;
} contact_query;

static void contact_visit(const geo_prim *prim, void *context)
{
    contact_query *q = context;
    steer_vec2 point, n;
    float d = steer__geometry_closest(q->g, prim, q->p, &point, &n);
    if (prim->type == PRIM_SEGMENT && d == 0.0f) {
        // centre on the wall: push back to the side it came from
        if (steer_dot(q->v, n) > 0.0f) n = steer_neg(n);
    }
    float depth = q->radius - d;
    if (depth > q->depth) q->depth = depth, q->normal = n;
}

void steer__contacts_push_out(steer_world *w, int i)
{
    float r = w->limits[i].radius;
    steer_kinematic *s = &w->state[i];
    const geo_filter filter = geo_filter_of(&w->filter[i]); // the shapes the agent sees
    for (int pass = 0; pass < CONTACT_PASSES; ++pass) {
        contact_query q = {w->geometry, s->position, s->velocity, r + CONTACT_SKIN, 0.0f, {0.0f, 0.0f}};
        steer_vec2 ext = steer_v2(q.radius, q.radius);
        steer__geometry_overlap(w->geometry, steer_sub(s->position, ext), steer_add(s->position, ext), &filter,
                                contact_visit, &q);
        if (q.depth <= 0.0f) break;
        // out along the normal; velocity into the wall removed
        s->position = steer_mul_add(s->position, q.normal, steer_maxf(q.depth - CONTACT_SKIN, 0.0f));
        float into = steer_dot(s->velocity, q.normal);
        if (into < 0.0f) s->velocity = steer_mul_add(s->velocity, q.normal, -into);
        if (q.depth <= CONTACT_SKIN) break; // touching only
    }
}

void steer__contacts_resolve(steer_world *w)
{
    // Each agent is pushed out of static geometry on its own: the result
    // does not depend on agent order.
    if (steer__geometry_ready(w) == NULL) return;
    for (int i = 0; i < w->count; ++i) steer__contacts_push_out(w, i);
}
