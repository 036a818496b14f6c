// nav_sync.c: a world's shapes mirrored into its steer_nav (nav_sync.h).
#include "nav_sync.h"

#include <string.h>

typedef struct lnav_entry {
    uint32_t generation; ///< of the world's shape; 0: none
    int count;           ///< navigation shapes (a polyline has one per link)
    steer_nav_shape one;
    steer_nav_shape *many;
} lnav_entry;

struct lnav {
    steer_nav *nav;
    lnav_entry *entries; ///< by the world's shape slot index
    int capacity;
};

steer_nav *steer_lua__nav_of(lcore *core)
{
    if (core->nav == NULL) {
        struct lnav *n = steer_alloc(sizeof *n);
        if (n == NULL) return NULL;
        memset(n, 0, sizeof *n);
        n->nav = steer_nav_create(NULL);
        if (n->nav == NULL) {
            steer_free(n);
            return NULL;
        }
        core->nav = n;
    }
    return core->nav->nav;
}

static lnav_entry *entry_for(struct lnav *n, uint32_t index)
{
    if ((int64_t)index >= n->capacity) {
        int capacity = n->capacity ? n->capacity : 64;
        while (capacity <= (int64_t)index) capacity *= 2;
        lnav_entry *grown = steer_alloc((size_t)capacity * sizeof *grown);
        if (grown == NULL) return NULL;
        memset(grown, 0, (size_t)capacity * sizeof *grown);
        if (n->entries) memcpy(grown, n->entries, (size_t)n->capacity * sizeof *grown);
        steer_free(n->entries);
        n->entries = grown;
        n->capacity = capacity;
    }
    return &n->entries[index];
}

bool steer_lua__nav_shape_added(lcore *core, steer_shape_id id, int kind, const steer_vec2 *p, int count,
                                float radius, bool loop)
{
    if (steer_lua__nav_of(core) == NULL) return false;
    struct lnav *n = core->nav;
    lnav_entry *e = entry_for(n, id.index);
    if (e == NULL) return false;
    memset(e, 0, sizeof *e);
    steer_nav_shape s = {0, 0};
    switch (kind) {
    case LNAV_SEGMENT: s = steer_nav_add_segment(n->nav, p[0], p[1]); break;
    case LNAV_CIRCLE: s = steer_nav_add_circle(n->nav, p[0], radius); break;
    case LNAV_BOX: s = steer_nav_add_box(n->nav, p[0], p[1]); break;
    case LNAV_POLYGON: s = steer_nav_add_polygon(n->nav, p, count); break;
    default: break;
    }
    if (kind != LNAV_POLYLINE) {
        if (s.index == 0) return false;
        e->generation = id.generation;
        e->count = 1;
        e->one = s;
        return true;
    }
    int links = loop ? count : count - 1;
    e->many = steer_alloc((size_t)links * sizeof *e->many);
    if (e->many == NULL) return false;
    for (int i = 0; i < links; ++i) {
        steer_vec2 a = p[i], b = p[(i + 1) % count];
        if (a.x == b.x && a.y == b.y) continue; // a loop already closed by its points
        steer_nav_shape link = steer_nav_add_segment(n->nav, a, b);
        if (link.index == 0) {
            for (int k = 0; k < e->count; ++k) steer_nav_remove(n->nav, e->many[k]);
            steer_free(e->many);
            e->many = NULL;
            e->count = 0;
            return false;
        }
        e->many[e->count++] = link;
    }
    e->generation = id.generation;
    return true;
}

void steer_lua__nav_shape_removed(lcore *core, steer_shape_id id)
{
    struct lnav *n = core->nav;
    if (n == NULL || (int64_t)id.index >= n->capacity) return;
    lnav_entry *e = &n->entries[id.index];
    if (e->generation != id.generation || e->count == 0) return;
    if (e->many) {
        for (int k = 0; k < e->count; ++k) steer_nav_remove(n->nav, e->many[k]);
        steer_free(e->many);
    } else {
        steer_nav_remove(n->nav, e->one);
    }
    memset(e, 0, sizeof *e);
}

void steer_lua__nav_free(lcore *core)
{
    struct lnav *n = core->nav;
    if (n == NULL) return;
    for (int i = 0; i < n->capacity; ++i) steer_free(n->entries[i].many);
    steer_free(n->entries);
    steer_nav_destroy(n->nav);
    steer_free(n);
    core->nav = NULL;
}
