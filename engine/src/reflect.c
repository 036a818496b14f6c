// reflect.c: the world, agent and formation definitions described as data
// (steer/reflect.h) and the getters and setters that go with them. A public
// face: it sets live worlds and agents through their public functions and
// words a broken rule as behaviour parameters do.
#include "behaviour.h"
#include "steer/steer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const integrator_names[] = {"euler", "newton", NULL};
static const char *const motion_names[] = {"steer", "rigid", "emergent", NULL};
static const char *const assignment_names[] = {"optimal", "ordered", NULL};

#define NO_RANGE 0.0, 0.0
#define FLOAT(S, name, member, rule, lo, hi, unit, live) \
    {name, STEER_FIELD_FLOAT, rule, lo, hi, NULL, unit, live, offsetof(S, member)}
#define BOOL(S, name, member, live) {name, STEER_FIELD_BOOL, STEER_RULE_FINITE, NO_RANGE, NULL, "", live, offsetof(S, member)}
#define ENUM(S, name, member, choices, live) \
    {name, STEER_FIELD_ENUM, STEER_RULE_FINITE, NO_RANGE, choices, "", live, offsetof(S, member)}
#define INT(S, kind, name, member, lo, hi) {name, kind, STEER_RULE_FINITE, lo, hi, NULL, "", false, offsetof(S, member)}
#define BITS(S, name, member, live) \
    {name, STEER_FIELD_BITS, STEER_RULE_FINITE, NO_RANGE, NULL, "", live, offsetof(S, member)}

static const steer_field_info world_fields[] = {
    INT(steer_world_def, STEER_FIELD_UINT64, "seed", seed, 0.0, 0.0),
    ENUM(steer_world_def, "integrator", integrator, integrator_names, true),
    FLOAT(steer_world_def, "cell_size", cell_size, STEER_RULE_POSITIVE, STEER_MIN_CELL_SIZE, STEER_MAX_CELL_SIZE, "m",
          true),
    INT(steer_world_def, STEER_FIELD_INT, "capacity", agent_capacity, 0.0, STEER_MAX_AGENT_CAPACITY),
    BOOL(steer_world_def, "resolve_contacts", resolve_contacts, true),
    BOOL(steer_world_def, "resolve_agent_contacts", resolve_agent_contacts, true),
    INT(steer_world_def, STEER_FIELD_INT, "workers", worker_count, 1.0, STEER_MAX_WORKERS),
};

#define STATE(name, member, unit) FLOAT(steer_agent_def, name, member, STEER_RULE_FINITE, 0.0, 0.0, unit, false)
#define LIMIT(name, unit) \
    FLOAT(steer_agent_def, #name, limits.name, STEER_RULE_NONNEGATIVE, 0.0, STEER_MAX_LIMIT, unit, true)

static const steer_field_info agent_fields[] = {
    STATE("x", state.position.x, "m"),
    STATE("y", state.position.y, "m"),
    STATE("orientation", state.orientation, "rad"),
    STATE("vx", state.velocity.x, "m/s"),
    STATE("vy", state.velocity.y, "m/s"),
    STATE("rotation", state.rotation, "rad/s"),
    LIMIT(radius, "m"),
    LIMIT(max_speed, "m/s"),
    LIMIT(max_acceleration, "m/s^2"),
    LIMIT(max_rotation, "rad/s"),
    LIMIT(max_angular_acceleration, "rad/s^2"),
    LIMIT(drag, "1/s"),
    BOOL(steer_agent_def, "kinematic", kinematic, true),
    BOOL(steer_agent_def, "face_velocity", face_velocity, true),
    BITS(steer_agent_def, "layer", layer, true),
    BITS(steer_agent_def, "mask", mask, true),
    FLOAT(steer_agent_def, "z", z, STEER_RULE_FINITE, 0.0, 0.0, "m", true),
    FLOAT(steer_agent_def, "height", height, STEER_RULE_NONNEGATIVE, 0.0, 0.0, "m", true),
    FLOAT(steer_agent_def, "priority", priority, STEER_RULE_FINITE, 0.0, 0.0, "", true),
    INT(steer_agent_def, STEER_FIELD_UINT64, "key", key, 1.0, 0.0),
};

#define FORM(name, member, rule, unit, live) FLOAT(steer_formation_def, name, member, rule, 0.0, 0.0, unit, live)

static const steer_field_info formation_fields[] = {
    FLOAT(steer_formation_def, "spacing", spacing, STEER_RULE_POSITIVE, 0.0, STEER_MAX_COORDINATE, "m", true),
    FORM("anchor.x", anchor_position.x, STEER_RULE_FINITE, "m", false),
    FORM("anchor.y", anchor_position.y, STEER_RULE_FINITE, "m", false),
    FORM("anchor.orientation", anchor_orientation, STEER_RULE_FINITE, "rad", false),
    FORM("anchor.max_acceleration", anchor_max_acceleration, STEER_RULE_NONNEGATIVE, "m/s^2", false),
    FORM("anchor.max_speed", anchor_max_speed, STEER_RULE_NONNEGATIVE, "m/s", false),
    FORM("anchor.max_rotation", anchor_max_rotation, STEER_RULE_NONNEGATIVE, "rad/s", false),
    FORM("moderation_distance", moderation_distance, STEER_RULE_POSITIVE, "m", true),
    ENUM(steer_formation_def, "motion", motion, motion_names, true),
    ENUM(steer_formation_def, "assignment", assignment, assignment_names, true),
    FORM("distance_weight", distance_weight, STEER_RULE_NONNEGATIVE, "", true),
};

typedef struct field_table {
    const steer_field_info *fields;
    int count;
} field_table;

#define TABLE(a) {a, (int)(sizeof a / sizeof a[0])}
static const field_table tables[STEER_DEF_TYPE_COUNT] = {TABLE(world_fields), TABLE(agent_fields),
                                                          TABLE(formation_fields)};

int steer_def_field_count(steer_def_type type)
{
    return (unsigned)type < STEER_DEF_TYPE_COUNT ? tables[type].count : 0;
}

const steer_field_info *steer_def_field(steer_def_type type, int i)
{
    if (i < 0 || i >= steer_def_field_count(type)) return NULL;
    return &tables[type].fields[i];
}

const steer_field_info *steer_def_find_field(steer_def_type type, const char *name)
{
    for (int i = 0; i < steer_def_field_count(type); ++i) {
        if (strcmp(tables[type].fields[i].name, name) == 0) return &tables[type].fields[i];
    }
    return NULL;
}

static void *at(void *def, const steer_field_info *f) { return (char *)def + f->offset; }
static const void *at_c(const void *def, const steer_field_info *f) { return (const char *)def + f->offset; }

double steer_def_get_field(const void *def, const steer_field_info *f)
{
    switch (f->kind) {
    case STEER_FIELD_BOOL: return *(const bool *)at_c(def, f) ? 1.0 : 0.0;
    case STEER_FIELD_ENUM:
    case STEER_FIELD_INT: return (double)*(const int *)at_c(def, f);
    case STEER_FIELD_UINT64: return (double)*(const uint64_t *)at_c(def, f);
    case STEER_FIELD_BITS: return (double)*(const uint32_t *)at_c(def, f);
    default: return (double)*(const float *)at_c(def, f);
    }
}

void steer_def_set_field(void *def, const steer_field_info *f, double v)
{
    switch (f->kind) {
    case STEER_FIELD_BOOL: *(bool *)at(def, f) = v != 0.0; break;
    case STEER_FIELD_ENUM:
    case STEER_FIELD_INT: *(int *)at(def, f) = (int)v; break;
    case STEER_FIELD_UINT64: *(uint64_t *)at(def, f) = (uint64_t)v; break;
    case STEER_FIELD_BITS: *(uint32_t *)at(def, f) = (uint32_t)v; break;
    default: *(float *)at(def, f) = (float)v; break;
    }
}

int64_t steer_def_get_integer(const void *def, const steer_field_info *f)
{
    if (f->kind == STEER_FIELD_UINT64) return (int64_t)*(const uint64_t *)at_c(def, f);
    return (int64_t)steer_def_get_field(def, f);
}

void steer_def_set_integer(void *def, const steer_field_info *f, int64_t v)
{
    if (f->kind == STEER_FIELD_UINT64) *(uint64_t *)at(def, f) = (uint64_t)v;
    else steer_def_set_field(def, f, (double)v);
}

const char *steer_field_check(const steer_field_info *f, double v, char *buf, size_t size)
{
    char lo[32], hi[32];
    if (f->kind == STEER_FIELD_BOOL) return (v == 0.0 || v == 1.0) ? NULL : "must be a boolean";
    if (f->kind == STEER_FIELD_ENUM) {
        int n = 0;
        while (f->choices[n] != NULL) ++n;
        return (v >= 0.0 && v < n && v == floor(v)) ? NULL : "must be one of its choices";
    }
    if (f->kind == STEER_FIELD_BITS) {
        bool bits = isfinite(v) && v == floor(v) && v >= 0.0 && v <= 4294967295.0;
        return bits ? NULL : "must be a 32-bit mask (an integer in [0, 2^32 - 1])";
    }
    if (f->kind == STEER_FIELD_INT || f->kind == STEER_FIELD_UINT64) {
        bool whole = isfinite(v) && v == floor(v);
        if (f->kind == STEER_FIELD_UINT64) {
            if (f->min >= 1.0 && !(whole && v >= 1.0)) return "must be a positive integer";
            return whole ? NULL : "must be an integer";
        }
        if (whole && v >= f->min && v <= f->max) return NULL;
        snprintf(buf, size, "must be an integer in [%s, %s]", steer_format_limit(f->min, lo, sizeof lo),
                 steer_format_limit(f->max, hi, sizeof hi));
        return buf;
    }
    if (!isfinite(v)) return "must be a finite number";
    if (fabs(v) > STEER_MAX_FLOAT) {
        snprintf(buf, size, "must be at most %s in magnitude", steer_format_limit(STEER_MAX_FLOAT, hi, sizeof hi));
        return buf;
    }
    const char *phrase = steer__behaviour_rule_phrase(f->rule, v);
    if (phrase != NULL) return phrase;
    if (!(f->min < f->max)) return NULL;
    // checked as the float stored (1e-3 is the float STEER_MIN_CELL_SIZE)
    float stored = (float)v;
    if (stored >= (float)f->min && stored <= (float)f->max) return NULL;
    if (f->min > 0.0 || f->rule == STEER_RULE_FINITE)
        snprintf(buf, size, "must be in [%s, %s]", steer_format_limit(f->min, lo, sizeof lo),
                 steer_format_limit(f->max, hi, sizeof hi));
    else
        snprintf(buf, size, "must be at most %s", steer_format_limit(f->max, hi, sizeof hi));
    return buf;
}

/* ---- behaviour parameters of a definition ---------------------------------------- */

static void *param_at(steer_behaviour_def *d, size_t offset) { return (char *)d + offset; }
static const void *param_at_c(const steer_behaviour_def *d, size_t offset) { return (const char *)d + offset; }

double steer_param_get(const steer_behaviour_def *d, const steer_param_info *p)
{
    switch (p->kind) {
    case STEER_PARAM_BOOL: return *(const bool *)param_at_c(d, p->offset) ? 1.0 : 0.0;
    case STEER_PARAM_ENUM: return (double)*(const int *)param_at_c(d, p->offset);
    default: return (double)*(const float *)param_at_c(d, p->offset);
    }
}

void steer_param_set(steer_behaviour_def *d, const steer_param_info *p, double v)
{
    switch (p->kind) {
    case STEER_PARAM_BOOL: *(bool *)param_at(d, p->offset) = v != 0.0; break;
    case STEER_PARAM_ENUM: *(int *)param_at(d, p->offset) = (int)v; break;
    case STEER_PARAM_OPTIONAL:
        *(bool *)param_at(d, p->flag_offset) = v >= -1.0;
        if (v >= -1.0) *(float *)param_at(d, p->offset) = (float)v;
        break;
    default: *(float *)param_at(d, p->offset) = (float)v; break;
    }
}

bool steer_param_is_set(const steer_behaviour_def *d, const steer_param_info *p)
{
    if (p->kind == STEER_PARAM_OPTIONAL) return *(const bool *)param_at_c(d, p->flag_offset);
    if (p->kind == STEER_PARAM_LIMIT) return steer_param_get(d, p) >= 0.0;
    return true;
}

/* ---- live objects as definitions ---------------------------------------------------- */

void steer_world_get_def(const steer_world *world, steer_world_def *def)
{
    *def = steer_default_world_def();
    def->integrator = steer_world_get_integrator(world);
    def->cell_size = steer_world_get_cell_size(world);
    def->resolve_contacts = steer_world_get_resolve_contacts(world);
    def->resolve_agent_contacts = steer_world_get_resolve_agent_contacts(world);
    def->worker_count = steer_world_get_worker_count(world);
}

void steer_world_apply_def(steer_world *world, const steer_world_def *def)
{
    if (def->integrator != steer_world_get_integrator(world)) steer_world_set_integrator(world, def->integrator);
    if (def->cell_size != steer_world_get_cell_size(world)) steer_world_set_cell_size(world, def->cell_size);
    if (def->resolve_contacts != steer_world_get_resolve_contacts(world))
        steer_world_set_resolve_contacts(world, def->resolve_contacts);
    if (def->resolve_agent_contacts != steer_world_get_resolve_agent_contacts(world))
        steer_world_set_resolve_agent_contacts(world, def->resolve_agent_contacts);
}

void steer_agent_get_def(const steer_world *world, steer_agent_id agent, steer_agent_def *def)
{
    *def = steer_default_agent_def();
    def->state = steer_agent_get_state(world, agent);
    def->limits = steer_agent_get_limits(world, agent);
    def->kinematic = steer_agent_get_kinematic(world, agent);
    def->face_velocity = steer_agent_get_face_velocity(world, agent);
    def->layer = steer_agent_get_layer(world, agent);
    def->mask = steer_agent_get_mask(world, agent);
    def->z = steer_agent_get_z(world, agent);
    def->height = steer_agent_get_height(world, agent);
    def->priority = steer_agent_get_priority(world, agent);
    def->behaviour = steer_agent_get_behaviour(world, agent);
    def->key = steer_agent_get_key(world, agent);
    def->user_data = steer_agent_get_user_data(world, agent);
}

void steer_agent_apply_def(steer_world *world, steer_agent_id agent, const steer_agent_def *def)
{
    steer_limits l = steer_agent_get_limits(world, agent);
    if (memcmp(&l, &def->limits, sizeof l) != 0) steer_agent_set_limits(world, agent, &def->limits);
    if (def->kinematic != steer_agent_get_kinematic(world, agent)) steer_agent_set_kinematic(world, agent, def->kinematic);
    if (def->face_velocity != steer_agent_get_face_velocity(world, agent))
        steer_agent_set_face_velocity(world, agent, def->face_velocity);
    if (def->layer != steer_agent_get_layer(world, agent)) steer_agent_set_layer(world, agent, def->layer);
    if (def->mask != steer_agent_get_mask(world, agent)) steer_agent_set_mask(world, agent, def->mask);
    if (def->z != steer_agent_get_z(world, agent) || def->height != steer_agent_get_height(world, agent))
        steer_agent_set_extent(world, agent, def->z, def->height);
    if (def->priority != steer_agent_get_priority(world, agent)) steer_agent_set_priority(world, agent, def->priority);
}
