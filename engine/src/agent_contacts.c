// agent_contacts.c: optional separation of overlapping agents after
// integration (world.resolve_agent_contacts, off by default): the last line
// of defence of a crowd, not its avoidance (docs/crowds.md).
//
// Jacobi relaxation: in each pass every agent's push is computed from the
// positions at the start of the pass, and only then are the pushes applied,
// so the result cannot depend on the order agents are visited in. Each
// overlapping pair is pushed apart by half its overlap each way. With
// static geometry, every pass then pushes the agents back out of the shapes
// (as resolve_contacts does after it, which this setting turns on too), so
// that a wall does not undo the separation after the last pass. Passes go
// on while overlaps remain.
#include "geometry.h"
#include "world.h"

/// Most relaxation passes a step. A crush against a wall needs many: the
/// bottleneck scenario kept overlaps of 15 cm with 4 passes and the wall
/// pushed after them; the passes stop as soon as no pair overlaps.
enum { AGENT_CONTACT_PASSES = 16 };
/// Overlap below this (metres) is left alone: touching is not a contact.
#define AGENT_CONTACT_SLOP 1e-4f

// Largest radius and largest distance moved since the grid was built (the
// grid holds start-of-step positions): bound the candidates' search.
static void grid_bounds(const steer_world *w, float *max_radius, float *max_moved)
{
    const neighbour_grid *g = &w->grid;
    float r = 0.0f, m2 = 0.0f;
    for (int k = 0; k < g->count; ++k) {
        uint32_t i = g->agent[k];
        float dx = w->state[i].position.x - g->x[k], dy = w->state[i].position.y - g->y[k];
        m2 = steer_maxf(m2, dx * dx + dy * dy);
        r = steer_maxf(r, w->limits[i].radius);
    }
    *max_radius = r;
    *max_moved = sqrtf(m2);
}

// One pass: the pushes of every agent from the current positions, then
// applied. Returns false when no pair overlapped.
static bool relax(steer_world *w, float max_radius, float max_moved)
{
    const neighbour_grid *g = &w->grid;
    range_cache cache;
    cache.version = g->version - 1u; // nothing cached
    bool any = false;
    const bool filtered = w->filtered > 0;
    // in grid order: the sums of each agent are in the grid's canonical order
    for (int k = 0; k < g->count; ++k) {
        uint32_t i = g->agent[k];
        steer_vec2 pi = w->state[i].position;
        float ri = w->limits[i].radius;
        steer_vec2 push = steer_v2(0.0f, 0.0f);
        const uint32_t (*ranges)[2];
        // around the start-of-step position, widened by what anyone moved
        float reach = ri + max_radius + 2.0f * max_moved;
        int nr = steer__grid_ranges(g, &cache, steer_v2(g->x[k], g->y[k]), reach, &ranges);
        for (int r = 0; r < nr; ++r) {
            for (uint32_t c = ranges[r][0]; c < ranges[r][1]; ++c) {
                uint32_t j = g->agent[c];
                if (j == i) continue;
                // layers and floors: pushed only by the agents it sees
                if (filtered && !steer__filter_sees(&w->filter[i], &w->filter[j])) continue;
                steer_vec2 d = steer_sub(pi, w->state[j].position);
                float sum = ri + w->limits[j].radius, d2 = steer_length_sq(d);
                if (d2 >= sum * sum) continue;
                float dist = sqrtf(d2), overlap = sum - dist;
                if (overlap <= AGENT_CONTACT_SLOP) continue;
                steer_vec2 n;
                if (dist > 0.0f) n = steer_scale(d, 1.0f / dist);
                else n = w->key[i] < w->key[j] ? steer_v2(-1.0f, 0.0f) : steer_v2(1.0f, 0.0f); // same spot: by key
                push = steer_mul_add(push, n, 0.5f * overlap);
                any = true;
            }
        }
        w->push[i] = push;
    }
    if (!any) return false;
    for (int i = 0; i < w->count; ++i) w->state[i].position = steer_add(w->state[i].position, w->push[i]);
    return true;
}

void steer__agent_contacts_resolve(steer_world *w)
{
    if (w->count < 2 || w->grid.count != w->count) return;
    float max_radius, max_moved;
    grid_bounds(w, &max_radius, &max_moved);
    // the shapes, pushed in every pass: each agent on its own
    bool shapes = steer__geometry_ready(w) != NULL;
    for (int pass = 0; pass < AGENT_CONTACT_PASSES; ++pass) {
        if (!relax(w, max_radius, max_moved)) break;
        if (shapes) {
            for (int i = 0; i < w->count; ++i) steer__contacts_push_out(w, i);
        }
        // the pushes moved agents further from their grid positions
        grid_bounds(w, &max_radius, &max_moved);
    }
}
