// behaviour.c: the behaviour object (reference counted), its reflected
// parameters, validation, and combinator children.
#include "core.h"

#include <stdio.h>

#define T(x) (1ull << (x))
#define ALL_TYPES (T(STEER_BEHAVIOUR_TYPE_COUNT) - 1)

static const char *const type_names[STEER_BEHAVIOUR_TYPE_COUNT] = {
    "kinematic_seek", "kinematic_flee", "kinematic_arrive", "kinematic_wander",
    "seek", "flee", "arrive", "align", "velocity_match", "pursue", "evade", "face",
    "look_where_you_are_going", "wander", "follow_path", "separation", "cohesion",
    "alignment", "collision_avoidance", "obstacle_avoidance", "blend", "priority", "behaviour",
};

const char *steer_behaviour_type_name(steer_behaviour_type type)
{
    if ((unsigned)type >= STEER_BEHAVIOUR_TYPE_COUNT) return "?";
    return type_names[type];
}

static const char *const law_names[] = {"inverse_square", "linear", NULL};
static const char *const ray_names[] = {"single", "whiskers", "parallel", NULL};

// Types that use the align family's angular radii.
#define ALIGN_FAMILY (T(STEER_ALIGN) | T(STEER_FACE) | T(STEER_LOOK_WHERE_YOU_ARE_GOING) | T(STEER_WANDER))
#define RADIUS_TYPES (T(STEER_KINEMATIC_ARRIVE) | T(STEER_SEPARATION) | T(STEER_COHESION) | T(STEER_ALIGNMENT) | T(STEER_COLLISION_AVOIDANCE))
#define ARRIVE_RADII (T(STEER_ARRIVE) | T(STEER_PURSUE) | T(STEER_FOLLOW_PATH) | ALIGN_FAMILY)
#define TIME_TYPES (T(STEER_KINEMATIC_ARRIVE) | T(STEER_ARRIVE) | T(STEER_VELOCITY_MATCH) | T(STEER_ALIGNMENT) | T(STEER_PURSUE) | T(STEER_FOLLOW_PATH) | ALIGN_FAMILY)

typedef struct param_entry {
    steer_param_info info;
    uint64_t types;
} param_entry;

#define F(name, rule, unit, types) {{#name, STEER_PARAM_FLOAT, rule, offsetof(steer_behaviour_def, name), NULL, unit, 0}, types}
#define L(name, unit) {{#name, STEER_PARAM_LIMIT, STEER_RULE_NONNEGATIVE, offsetof(steer_behaviour_def, name), NULL, unit, 0}, ALL_TYPES}
#define B(name, types) {{#name, STEER_PARAM_BOOL, STEER_RULE_FINITE, offsetof(steer_behaviour_def, name), NULL, "", 0}, types}
#define E(name, choices, types) {{#name, STEER_PARAM_ENUM, STEER_RULE_FINITE, offsetof(steer_behaviour_def, name), choices, "", 0}, types}

static const param_entry params[] = {
    F(radius, STEER_RULE_POSITIVE, "m", RADIUS_TYPES),
    F(target_radius, STEER_RULE_NONNEGATIVE, "m or rad", ARRIVE_RADII),
    F(slow_radius, STEER_RULE_POSITIVE, "m or rad", ARRIVE_RADII),
    F(time_to_target, STEER_RULE_POSITIVE, "s", TIME_TYPES),
    F(orientation, STEER_RULE_FINITE, "rad", T(STEER_ALIGN)),
    F(max_prediction, STEER_RULE_POSITIVE, "s", T(STEER_PURSUE) | T(STEER_EVADE)),
    B(arrive_on_overshoot, T(STEER_PURSUE)),
    F(wander_offset, STEER_RULE_FINITE, "m", T(STEER_WANDER)),
    F(wander_radius, STEER_RULE_NONNEGATIVE, "m", T(STEER_WANDER)),
    F(wander_rate, STEER_RULE_NONNEGATIVE, "rad", T(STEER_WANDER)),
    F(path_offset, STEER_RULE_FINITE, "m", T(STEER_FOLLOW_PATH)),
    F(predict_time, STEER_RULE_NONNEGATIVE, "s", T(STEER_FOLLOW_PATH)),
    F(decay_coefficient, STEER_RULE_POSITIVE, "m^3/s^2", T(STEER_SEPARATION)),
    E(law, law_names, T(STEER_SEPARATION)),
    {{"cone_threshold", STEER_PARAM_OPTIONAL, STEER_RULE_COSINE, offsetof(steer_behaviour_def, cone_threshold), NULL, "cos", offsetof(steer_behaviour_def, use_cone)}, T(STEER_COLLISION_AVOIDANCE)},
    F(lookahead, STEER_RULE_POSITIVE, "m", T(STEER_OBSTACLE_AVOIDANCE)),
    F(avoid_distance, STEER_RULE_NONNEGATIVE, "m", T(STEER_OBSTACLE_AVOIDANCE)),
    E(rays, ray_names, T(STEER_OBSTACLE_AVOIDANCE)),
    F(whisker_angle, STEER_RULE_POSITIVE, "rad", T(STEER_OBSTACLE_AVOIDANCE)),
    F(whisker_scale, STEER_RULE_UNIT, "", T(STEER_OBSTACLE_AVOIDANCE)),
    B(scale_lookahead, T(STEER_OBSTACLE_AVOIDANCE)),
    F(epsilon, STEER_RULE_NONNEGATIVE, "", T(STEER_PRIORITY)),
    L(max_speed, "m/s"),
    L(max_acceleration, "m/s^2"),
    L(max_rotation, "rad/s"),
    L(max_angular_acceleration, "rad/s^2"),
};
enum { PARAM_TOTAL = sizeof params / sizeof params[0] };

int steer_behaviour_param_count(steer_behaviour_type type)
{
    if ((unsigned)type >= STEER_BEHAVIOUR_TYPE_COUNT) return 0;
    int n = 0;
    for (int i = 0; i < PARAM_TOTAL; ++i) n += (params[i].types & T(type)) != 0;
    return n;
}

const steer_param_info *steer_behaviour_param(steer_behaviour_type type, int index)
{
    if ((unsigned)type >= STEER_BEHAVIOUR_TYPE_COUNT) return NULL;
    for (int i = 0; i < PARAM_TOTAL; ++i) {
        if ((params[i].types & T(type)) && index-- == 0) return &params[i].info;
    }
    return NULL;
}

const steer_param_info *steer_behaviour_find_param(steer_behaviour_type type, const char *name)
{
    if ((unsigned)type >= STEER_BEHAVIOUR_TYPE_COUNT || name == NULL) return NULL;
    for (int i = 0; i < PARAM_TOTAL; ++i) {
        if ((params[i].types & T(type)) && strcmp(params[i].info.name, name) == 0) return &params[i].info;
    }
    return NULL;
}

static float *float_field(steer_behaviour_def *d, size_t offset) { return (float *)((char *)d + offset); }
static const float *float_field_c(const steer_behaviour_def *d, size_t offset) { return (const float *)((const char *)d + offset); }

static double def_get_param(const steer_behaviour_def *d, const steer_param_info *p)
{
    switch (p->kind) {
    case STEER_PARAM_BOOL: return *(const bool *)((const char *)d + p->offset) ? 1.0 : 0.0;
    case STEER_PARAM_ENUM: return (double)*(const int *)((const char *)d + p->offset);
    default: return (double)*float_field_c(d, p->offset);
    }
}

static bool has_overrides(const steer_behaviour_def *d)
{
    return d->max_speed >= 0.0f || d->max_acceleration >= 0.0f || d->max_rotation >= 0.0f ||
           d->max_angular_acceleration >= 0.0f;
}

static bool uses_arrive_radii(steer_behaviour_type t) { return (ARRIVE_RADII & T(t)) != 0; }

const char *steer_param_check(const steer_behaviour_def *def, const steer_param_info *p, double v,
                              char *buf, size_t size)
{
    if (p->kind == STEER_PARAM_BOOL) return (v == 0.0 || v == 1.0) ? NULL : "must be a boolean";
    if (p->kind == STEER_PARAM_ENUM) {
        int n = 0;
        while (p->choices[n] != NULL) ++n;
        return (v >= 0.0 && v < n && v == floor(v)) ? NULL : "must be one of its choices";
    }
    if (!isfinite(v) || v > 3.0e38 || v < -3.0e38) return "must be a finite number";
    switch (p->rule) {
    case STEER_RULE_FINITE: break;
    case STEER_RULE_NONNEGATIVE:
        if (v < 0.0) return "must be a non-negative number";
        break;
    case STEER_RULE_POSITIVE:
        if (!(v > 0.0)) return "must be a positive number";
        break;
    case STEER_RULE_COSINE:
        if (v < -1.0 || v > 1.0) return "must be a number in [-1, 1]";
        break;
    case STEER_RULE_UNIT:
        if (!(v > 0.0) || v > 1.0) return "must be a number in (0, 1]";
        break;
    }
    // cross-field rules
    if (def != NULL && uses_arrive_radii(def->type)) {
        if (strcmp(p->name, "slow_radius") == 0 && v < def->target_radius) {
            snprintf(buf, size, "must not be less than target_radius (%g)", (double)def->target_radius);
            return buf;
        }
        if (strcmp(p->name, "target_radius") == 0 && v > def->slow_radius) {
            snprintf(buf, size, "must not exceed slow_radius (%g)", (double)def->slow_radius);
            return buf;
        }
    }
    if (strcmp(p->name, "whisker_angle") == 0 && v > 0.5 * STEER_PI + 1e-6) return "must be at most pi/2";
    return NULL;
}

// Validate every parameter of a definition; the first failure goes to the
// assert hook with a message naming the field.
static bool def_is_valid(const steer_behaviour_def *d)
{
    char buf[128], cond[192];
    if (!STEER_CHECK(d != NULL && d->cookie == STEER_COOKIE)) return false;
    if (!STEER_CHECK((unsigned)d->type < STEER_BEHAVIOUR_TYPE_COUNT)) return false;
    int n = steer_behaviour_param_count(d->type);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(d->type, i);
        double v = def_get_param(d, p);
        if (p->kind == STEER_PARAM_LIMIT && v < 0.0) continue; // inherit
        if (p->kind == STEER_PARAM_OPTIONAL && !*(const bool *)((const char *)d + p->flag_offset)) continue;
        const char *msg = steer_param_check(d, p, v, buf, sizeof buf);
        if (msg != NULL) {
            snprintf(cond, sizeof cond, "behaviour '%s': field '%s' %s", steer_behaviour_type_name(d->type), p->name, msg);
            steer__assert_failed(cond, __FILE__, __LINE__);
            return false;
        }
    }
    const steer_target *t = &d->target;
    if (!STEER_CHECK(t->kind != STEER_TARGET_POINT || steer_vec2_is_finite(t->point))) return false;
    if (!STEER_CHECK(d->child_count >= 0 && (d->child_count == 0 || d->children != NULL))) return false;
    for (int i = 0; i < d->child_count; ++i) {
        if (!STEER_CHECK(d->children[i].behaviour != NULL && isfinite(d->children[i].weight))) return false;
    }
    if (!STEER_CHECK(d->type != STEER_CALLBACK || d->callback != NULL)) return false;
    return true;
}

steer_behaviour *steer_behaviour_create(const steer_behaviour_def *def)
{
    if (!def_is_valid(def)) return NULL;
    steer_behaviour *b = steer__alloc(sizeof *b);
    if (b == NULL) return NULL;
    b->refcount = 1;
    b->def = *def;
    b->overrides = has_overrides(def);
    b->def.children = NULL;
    b->def.child_count = 0;
    b->children = NULL;
    if (def->type == STEER_ALIGN) b->def.orientation = steer_wrap_angle(def->orientation);
    if (def->path != NULL) steer_path_retain(def->path);
    if (def->child_count > 0 && !steer_behaviour_set_children(b, def->children, def->child_count)) {
        if (def->path != NULL) steer_path_release(def->path);
        steer__free(b);
        return NULL;
    }
    return b;
}

steer_behaviour *steer_behaviour_retain(steer_behaviour *b)
{
    if (b != NULL) ++b->refcount;
    return b;
}

void steer_behaviour_release(steer_behaviour *b)
{
    if (b == NULL) return;
    if (!STEER_CHECK(b->refcount > 0)) return;
    if (--b->refcount > 0) return;
    for (int i = 0; i < b->def.child_count; ++i) steer_behaviour_release(b->children[i].behaviour);
    steer__free(b->children);
    if (b->def.path != NULL) steer_path_release(b->def.path);
    if (b->def.release != NULL) b->def.release(b->def.context);
    steer__free(b);
}

steer_behaviour_type steer_behaviour_get_type(const steer_behaviour *b) { return b->def.type; }
const steer_behaviour_def *steer_behaviour_get_def(const steer_behaviour *b) { return &b->def; }

double steer_behaviour_get_param(const steer_behaviour *b, const steer_param_info *p)
{
    return def_get_param(&b->def, p);
}

bool steer_behaviour_set_param(steer_behaviour *b, const steer_param_info *p, double v)
{
    char buf[128];
    if (!STEER_CHECK(b != NULL && p != NULL)) return false;
    steer_behaviour_def *d = &b->def;
    if (p->kind == STEER_PARAM_LIMIT) {
        if (v >= 0.0 && !STEER_CHECK(steer_param_check(d, p, v, buf, sizeof buf) == NULL)) return false;
        *float_field(d, p->offset) = v < 0.0 ? -1.0f : (float)v; // negative: inherit the agent's limit
        b->overrides = has_overrides(d);
        return true;
    }
    if (p->kind == STEER_PARAM_OPTIONAL && v < -1.0) {
        *(bool *)((char *)d + p->flag_offset) = false; // unset
        return true;
    }
    if (!STEER_CHECK(steer_param_check(d, p, v, buf, sizeof buf) == NULL)) return false;
    switch (p->kind) {
    case STEER_PARAM_BOOL: *(bool *)((char *)d + p->offset) = v != 0.0; break;
    case STEER_PARAM_ENUM: *(int *)((char *)d + p->offset) = (int)v; break;
    case STEER_PARAM_OPTIONAL:
        *(bool *)((char *)d + p->flag_offset) = true;
        *float_field(d, p->offset) = (float)v;
        break;
    default:
        *float_field(d, p->offset) = (float)v;
        if (strcmp(p->name, "orientation") == 0) d->orientation = steer_wrap_angle(d->orientation);
        break;
    }
    return true;
}

void steer_behaviour_set_target(steer_behaviour *b, steer_target target)
{
    if (!STEER_CHECK(b != NULL)) return;
    if (!STEER_CHECK(target.kind != STEER_TARGET_POINT || steer_vec2_is_finite(target.point))) return;
    b->def.target = target;
}

void steer_behaviour_set_path(steer_behaviour *b, steer_path *path)
{
    if (!STEER_CHECK(b != NULL)) return;
    if (path != NULL) steer_path_retain(path);
    if (b->def.path != NULL) steer_path_release(b->def.path);
    b->def.path = path;
}

int steer_behaviour_child_count(const steer_behaviour *b) { return b->def.child_count; }

steer_child steer_behaviour_get_child(const steer_behaviour *b, int i)
{
    if (!STEER_CHECK(i >= 0 && i < b->def.child_count)) return (steer_child){NULL, 0.0f};
    return b->children[i];
}

bool steer_behaviour_contains(const steer_behaviour *outer, const steer_behaviour *inner)
{
    if (outer == inner) return true;
    for (int i = 0; i < outer->def.child_count; ++i) {
        if (steer_behaviour_contains(outer->children[i].behaviour, inner)) return true;
    }
    return false;
}

bool steer_behaviour_set_children(steer_behaviour *b, const steer_child *children, int count)
{
    if (!STEER_CHECK(b != NULL && count >= 0 && (count == 0 || children != NULL))) return false;
    if (!STEER_CHECK(b->def.type == STEER_BLEND || b->def.type == STEER_PRIORITY)) return false;
    for (int i = 0; i < count; ++i) {
        if (!STEER_CHECK(children[i].behaviour != NULL && isfinite(children[i].weight))) return false;
        // a combinator must never contain itself: evaluation would not end
        if (!STEER_CHECK(!steer_behaviour_contains(children[i].behaviour, b))) return false;
    }
    steer_child *copy = NULL;
    if (count > 0) {
        copy = steer__alloc(sizeof *copy * (size_t)count);
        if (copy == NULL) return false;
        memcpy(copy, children, sizeof *copy * (size_t)count);
        for (int i = 0; i < count; ++i) steer_behaviour_retain(copy[i].behaviour);
    }
    steer_child *old = b->children;
    int old_count = b->def.child_count;
    b->children = copy;
    b->def.children = copy;
    b->def.child_count = count;
    for (int i = 0; i < old_count; ++i) steer_behaviour_release(old[i].behaviour);
    steer__free(old);
    return true;
}
