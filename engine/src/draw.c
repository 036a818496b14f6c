// draw.c: the debug draw (steer_world_draw), pulled by the host after a
// step: static shapes, agents, followed paths and, for traced agents, what
// their last evaluation recorded, reported through the host's callbacks
// with the engine's palette. The engine draws nothing itself.
#include "behaviour.h"
#include "geometry.h"
#include "navigate.h"
#include "trace.h"
#include "world.h"

#define COLOR_SHAPE 0x8c9aa8ffu
#define COLOR_PATH 0x4a90d9ffu
#define COLOR_AGENT 0xd0d0d0ffu
#define COLOR_VELOCITY 0x3ad13affu
#define COLOR_STEERING 0xffd23affu
#define COLOR_WINNER 0x3affa0ffu
#define COLOR_LOSER 0x707070ffu
#define COLOR_RAY 0x9a9a9affu
#define COLOR_HIT 0xff4040ffu
#define COLOR_WANDER 0xc080ffffu
#define COLOR_TARGET 0xff80c0ffu
#define COLOR_NEIGHBOURS 0x40c0ff80u
#define COLOR_ROUTE 0x50e0c0ffu
#define COLOR_STUCK 0xff3030ffu

/// Colours of blend children by their index (public: inspectors use the same).
static const steer_color child_colors[8] = {0xff6b6bffu, 0x4dabf7ffu, 0x69db7cffu, 0xffa94dffu,
                                            0xda77f2ffu, 0x3bc9dbffu, 0xffd43bffu, 0xf783acffu};

steer_color steer_debug_child_color(int index) { return child_colors[index & 7]; }

static const struct {
    steer_color color;
    const char *name;
} palette[STEER_DEBUG_PALETTE_COUNT] = {
    {COLOR_SHAPE, "static shape"},
    {COLOR_PATH, "followed path"},
    {COLOR_AGENT, "agent (without a colour)"},
    {COLOR_VELOCITY, "velocity"},
    {COLOR_STEERING, "final steering"},
    {COLOR_WINNER, "priority: the winning group's output"},
    {COLOR_LOSER, "priority: a losing group's output"},
    {COLOR_RAY, "avoidance ray"},
    {COLOR_HIT, "avoidance ray hit, its normal"},
    {COLOR_WANDER, "wander circle and target"},
    {COLOR_TARGET, "seek, arrive or path target"},
    {COLOR_NEIGHBOURS, "neighbour radius"},
};

steer_color steer_debug_palette(steer_debug_palette_entry e)
{
    return (unsigned)e < STEER_DEBUG_PALETTE_COUNT ? palette[e].color : 0;
}

const char *steer_debug_palette_name(steer_debug_palette_entry e)
{
    return (unsigned)e < STEER_DEBUG_PALETTE_COUNT ? palette[e].name : "";
}


static void draw_poly(const steer_debug_draw *d, const steer_vec2 *p, int n, steer_color c)
{
    if (d->draw_solid_polygon != NULL) d->draw_solid_polygon(p, n, c, d->context);
    else if (d->draw_polygon != NULL) d->draw_polygon(p, n, c, d->context);
}

static void draw_shapes(steer_world *w, const steer_debug_draw *d)
{
    const struct steer_geometry *g = w->geometry;
    if (g == NULL) return;
    for (int s = 0; s < g->slot_count; ++s) {
        const geo_slot *slot = &g->slots[s];
        if (!slot->alive) continue;
        for (uint32_t k = slot->first; k < slot->first + slot->count; ++k) {
            const geo_prim *p = &g->src[k];
            if (p->dead) continue;
            switch (p->type) {
            case PRIM_SEGMENT:
                if (d->draw_segment) d->draw_segment(steer_v2(p->d[0], p->d[1]), steer_v2(p->d[2], p->d[3]), COLOR_SHAPE, d->context);
                break;
            case PRIM_CIRCLE:
                if (d->draw_solid_circle) d->draw_solid_circle(steer_v2(p->d[0], p->d[1]), p->d[2], 0.0f, COLOR_SHAPE, d->context);
                else if (d->draw_circle) d->draw_circle(steer_v2(p->d[0], p->d[1]), p->d[2], COLOR_SHAPE, d->context);
                break;
            case PRIM_BOX: {
                steer_vec2 q[4] = {{p->d[0], p->d[1]}, {p->d[2], p->d[1]}, {p->d[2], p->d[3]}, {p->d[0], p->d[3]}};
                draw_poly(d, q, 4, COLOR_SHAPE);
                break;
            }
            default: draw_poly(d, g->verts + p->first, p->count, COLOR_SHAPE); break;
            }
        }
    }
}

enum { DRAW_MAX_SEEN = 64 };
typedef struct seen_set {
    const void *item[DRAW_MAX_SEEN];
    int count;
} seen_set;

// True the first time an item is seen (and when the set is full: then
// drawing twice is the lesser evil).
static bool first_sight(seen_set *s, const void *item)
{
    for (int i = 0; i < s->count; ++i) {
        if (s->item[i] == item) return false;
    }
    if (s->count < DRAW_MAX_SEEN) s->item[s->count++] = item;
    return true;
}

static void draw_path(const steer_debug_draw *d, const steer_path *path)
{
    int n = steer_path_point_count(path);
    for (int i = 0; i + 1 < n; ++i) d->draw_segment(steer_path_point(path, i), steer_path_point(path, i + 1), COLOR_PATH, d->context);
    if (steer_path_is_loop(path) && n > 2) d->draw_segment(steer_path_point(path, n - 1), steer_path_point(path, 0), COLOR_PATH, d->context);
}

static void collect_paths(const steer_behaviour *b, const steer_debug_draw *d, seen_set *nodes, seen_set *paths, int depth)
{
    if (b == NULL || depth > STEER_MAX_TREE_DEPTH || !first_sight(nodes, b)) return;
    if (b->def.type == STEER_FOLLOW_PATH && b->def.path != NULL && first_sight(paths, b->def.path)) draw_path(d, b->def.path);
    for (int i = 0; i < b->def.child_count; ++i) collect_paths(b->children[i].behaviour, d, nodes, paths, depth + 1);
}

static void draw_paths(steer_world *w, const steer_debug_draw *d)
{
    if (d->draw_segment == NULL) return;
    seen_set nodes, paths;
    nodes.count = paths.count = 0;
    const steer_behaviour *previous = NULL;
    for (int i = 0; i < w->count; ++i) {
        // thousands of agents usually share a few behaviours: skip repeats cheaply
        if (w->behaviour[i] == previous) continue;
        previous = w->behaviour[i];
        collect_paths(previous, d, &nodes, &paths, 0);
    }
}

static void arrow(const steer_debug_draw *d, steer_vec2 o, steer_vec2 v, steer_color c)
{
    if (d->draw_arrow != NULL) d->draw_arrow(o, v, c, d->context);
    else if (d->draw_segment != NULL) d->draw_segment(o, steer_add(o, v), c, d->context);
}

static void draw_tree(const trace_view *t, steer_vec2 pos, const steer_debug_draw *d)
{
    for (int k = 0; k < t->node_count; ++k) {
        const trace_node *n = &t->nodes[k];
        if (n->parent < 0 || !(n->bits & TRACE_HAS_OUTPUT)) continue;
        const trace_node *p = &t->nodes[n->parent];
        if (p->type == STEER_BLEND) {
            // a child's contribution: its output times its weight
            arrow(d, pos, steer_scale(n->output.linear, n->weight * d->steering_scale), child_colors[n->child_index & 7]);
        } else if (p->type == STEER_PRIORITY) {
            bool won = n->child_index == p->winner_linear;
            arrow(d, pos, steer_scale(n->output.linear, d->steering_scale), won ? COLOR_WINNER : COLOR_LOSER);
        }
    }
}

static void draw_trace(const trace_view *t, const steer_kinematic *s, const steer_debug_draw *d)
{
    const steer_vec2 pos = s->position;
    if (d->flags & STEER_DRAW_VELOCITY) arrow(d, pos, steer_scale(s->velocity, d->velocity_scale), COLOR_VELOCITY);
    if (d->flags & STEER_DRAW_TREE) draw_tree(t, pos, d);
    if (d->flags & STEER_DRAW_STEERING) arrow(d, pos, steer_scale(t->final.linear, d->steering_scale), COLOR_STEERING);
    if ((d->flags & STEER_DRAW_RAYS) && d->draw_segment != NULL) {
        for (int k = 0; k < t->ray_count; ++k) {
            const trace_ray *r = &t->rays[k];
            d->draw_segment(r->origin, r->point, r->hit ? COLOR_HIT : COLOR_RAY, d->context);
            if (r->radius > 0.0f && d->draw_circle) d->draw_circle(r->point, r->radius, r->hit ? COLOR_HIT : COLOR_RAY, d->context);
            if (r->hit) {
                if (d->draw_point) d->draw_point(r->point, 6.0f, COLOR_HIT, d->context);
                arrow(d, r->point, r->normal, COLOR_HIT);
            }
        }
    }
    if (d->flags & STEER_DRAW_MARKS) {
        for (int k = 0; k < t->mark_count; ++k) {
            const trace_mark *m = &t->marks[k];
            switch (m->kind) {
            case MARK_WANDER:
                if (d->draw_circle) d->draw_circle(m->a, m->radius, COLOR_WANDER, d->context);
                if (d->draw_point) d->draw_point(m->b, 6.0f, COLOR_WANDER, d->context);
                if (d->draw_segment) d->draw_segment(m->a, m->b, COLOR_WANDER, d->context);
                break;
            case MARK_PATH_TARGET:
                if (d->draw_point) d->draw_point(m->a, 6.0f, COLOR_TARGET, d->context);
                if (d->draw_segment) d->draw_segment(pos, m->a, COLOR_TARGET, d->context);
                break;
            default:
                if (d->draw_circle) d->draw_circle(pos, m->radius, COLOR_NEIGHBOURS, d->context);
                break;
            }
        }
    }
}

// A traced agent's route: the stretch still ahead, from the agent on.
static void draw_route(const nav_plan *p, steer_vec2 pos, const steer_debug_draw *d)
{
    if (d->draw_segment == NULL || p->count < 2 || p->next >= p->count) return;
    d->draw_segment(pos, p->points[p->next], COLOR_ROUTE, d->context);
    for (int k = p->next; k + 1 < p->count; ++k) d->draw_segment(p->points[k], p->points[k + 1], COLOR_ROUTE, d->context);
    if (d->draw_point != NULL) {
        for (int k = p->next; k < p->count; ++k) d->draw_point(p->points[k], 4.0f, COLOR_ROUTE, d->context);
    }
}

// What the planner holds (its mesh, its flow fields), for the radius of
// the first plan made, else 0.5 m.
static void draw_planner(const steer_world *w, const steer_debug_draw *d)
{
    if (!w->has_planner || w->planner.draw == NULL) return;
    float radius = 0.5f;
    for (int i = 0; i < w->count; ++i) {
        if (w->plan[i] != NULL && w->plan[i]->radius > 0.0f) {
            radius = w->plan[i]->radius;
            break;
        }
    }
    w->planner.draw(w->planner.context, d, radius);
}

void steer_world_draw(steer_world *w, const steer_debug_draw *d)
{
    if (!STEER_CHECK(w != NULL && d != NULL)) return;
    if (!STEER_CHECK(!w->stepping)) return;
    if (d->flags & (STEER_DRAW_NAV_MESH | STEER_DRAW_FLOW)) draw_planner(w, d);
    if (d->flags & STEER_DRAW_SHAPES) draw_shapes(w, d);
    if (d->flags & STEER_DRAW_PATHS) draw_paths(w, d);
    for (int i = 0; i < w->count; ++i) {
        const steer_kinematic *s = &w->state[i];
        if (d->flags & STEER_DRAW_AGENTS) {
            // the agent's own colour when it has one (by slot: colours are cold)
            uint32_t slot = w->slot_of[i];
            steer_color c = (int)slot < w->color_slots && w->colors[slot] != 0 ? w->colors[slot] : COLOR_AGENT;
            if (d->draw_solid_circle != NULL) d->draw_solid_circle(s->position, w->limits[i].radius, s->orientation, c, d->context);
            if (d->draw_transform != NULL) d->draw_transform(s->position, s->orientation, d->context);
        }
        trace_view t;
        const bool traced = steer__trace_of(w, i, &t);
        if (traced) draw_trace(&t, s, d);
        const nav_plan *p = w->plan[i];
        if (p == NULL || p->node == NULL) continue;
        if (traced && (d->flags & STEER_DRAW_ROUTES)) draw_route(p, s->position, d);
        if (p->stuck && (d->flags & STEER_DRAW_STUCK) && d->draw_circle != NULL)
            d->draw_circle(s->position, w->limits[i].radius + 0.3f, COLOR_STUCK, d->context);
    }
}
