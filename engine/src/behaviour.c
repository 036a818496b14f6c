// behaviour.c: the behaviour object (reference counted), its reflected
// parameters, validation, and combinator children.
#include "behaviour.h"

#include <stdatomic.h>
#include <stdio.h>

#define T(x) (1ull << (x))
#define ALL_TYPES (T(STEER_BEHAVIOUR_TYPE_COUNT) - 1)

static const char *const type_names[STEER_BEHAVIOUR_TYPE_COUNT] = {
    "kinematic_seek", "kinematic_flee", "kinematic_arrive", "kinematic_wander",
    "seek", "flee", "arrive", "align", "velocity_match", "pursue", "evade", "face",
    "look_where_you_are_going", "wander", "follow_path", "separation", "cohesion",
    "alignment", "collision_avoidance", "obstacle_avoidance", "blend", "priority", "behaviour",
    "formation_slot",
    "reciprocal_avoidance", "navigate",
};

const char *steer_behaviour_type_name(steer_behaviour_type type)
{
    if ((unsigned)type >= STEER_BEHAVIOUR_TYPE_COUNT) return "?";
    return type_names[type];
}

// What each type takes besides numbers (steer_behaviour_type_inputs).
#define TARGET STEER_INPUT_TARGET
static const unsigned char type_inputs[STEER_BEHAVIOUR_TYPE_COUNT] = {
    [STEER_KINEMATIC_SEEK] = TARGET, [STEER_KINEMATIC_FLEE] = TARGET, [STEER_KINEMATIC_ARRIVE] = TARGET,
    [STEER_SEEK] = TARGET,           [STEER_FLEE] = TARGET,           [STEER_ARRIVE] = TARGET,
    [STEER_ALIGN] = TARGET,          [STEER_VELOCITY_MATCH] = TARGET, [STEER_PURSUE] = TARGET,
    [STEER_EVADE] = TARGET,          [STEER_FACE] = TARGET,
    [STEER_FOLLOW_PATH] = STEER_INPUT_PATH,
    [STEER_BLEND] = STEER_INPUT_CHILDREN, [STEER_PRIORITY] = STEER_INPUT_CHILDREN,
    [STEER_CALLBACK] = STEER_INPUT_CALLBACK,
    [STEER_FORMATION_SLOT] = STEER_INPUT_FORMATION,
    [STEER_RECIPROCAL_AVOIDANCE] = STEER_INPUT_PREFERRED,
    [STEER_NAVIGATE] = TARGET,
};
#undef TARGET

unsigned steer_behaviour_type_inputs(steer_behaviour_type type)
{
    return (unsigned)type < STEER_BEHAVIOUR_TYPE_COUNT ? type_inputs[type] : 0u;
}

static const char *const law_names[] = {"inverse_square", "linear", NULL};
static const char *const ray_names[] = {"single", "whiskers", "parallel", NULL};

// Types that use the align family's angular radii.
#define ALIGN_FAMILY (T(STEER_ALIGN) | T(STEER_FACE) | T(STEER_LOOK_WHERE_YOU_ARE_GOING) | T(STEER_WANDER))
#define RADIUS_TYPES (T(STEER_KINEMATIC_ARRIVE) | T(STEER_SEPARATION) | T(STEER_COHESION) | T(STEER_ALIGNMENT) | T(STEER_COLLISION_AVOIDANCE) | T(STEER_RECIPROCAL_AVOIDANCE))
#define ARRIVE_RADII (T(STEER_ARRIVE) | T(STEER_PURSUE) | T(STEER_FOLLOW_PATH) | ALIGN_FAMILY | T(STEER_FORMATION_SLOT) | T(STEER_NAVIGATE))
#define TIME_TYPES (T(STEER_NAVIGATE) | T(STEER_FORMATION_SLOT) | T(STEER_KINEMATIC_ARRIVE) | T(STEER_ARRIVE) | T(STEER_VELOCITY_MATCH) | T(STEER_ALIGNMENT) | T(STEER_PURSUE) | T(STEER_FOLLOW_PATH) | ALIGN_FAMILY)

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
    {{"radius", STEER_PARAM_OPTIONAL, STEER_RULE_POSITIVE, offsetof(steer_behaviour_def, radius), NULL, "m", offsetof(steer_behaviour_def, use_radius)}, T(STEER_NAVIGATE)},
    F(target_radius, STEER_RULE_NONNEGATIVE, "m or rad", ARRIVE_RADII),
    F(slow_radius, STEER_RULE_POSITIVE, "m or rad", ARRIVE_RADII),
    F(time_to_target, STEER_RULE_POSITIVE, "s", TIME_TYPES),
    F(orientation, STEER_RULE_FINITE, "rad", T(STEER_ALIGN)),
    F(max_prediction, STEER_RULE_POSITIVE, "s", T(STEER_PURSUE) | T(STEER_EVADE)),
    B(arrive_on_overshoot, T(STEER_PURSUE)),
    {{"panic_radius", STEER_PARAM_OPTIONAL, STEER_RULE_POSITIVE, offsetof(steer_behaviour_def, panic_radius), NULL, "m", offsetof(steer_behaviour_def, use_panic_radius)}, T(STEER_FLEE) | T(STEER_EVADE)},
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
    F(time_horizon, STEER_RULE_POSITIVE, "s", T(STEER_RECIPROCAL_AVOIDANCE)),
    F(obstacle_time_horizon, STEER_RULE_POSITIVE, "s", T(STEER_RECIPROCAL_AVOIDANCE)),
    F(max_neighbours, STEER_RULE_POSITIVE, "", T(STEER_RECIPROCAL_AVOIDANCE)),
    F(replan_distance, STEER_RULE_POSITIVE, "m", T(STEER_NAVIGATE)),
    F(stuck_time, STEER_RULE_POSITIVE, "s", T(STEER_NAVIGATE)),
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

// A blend of neighbour behaviours only (steer_behaviour.neighbour_blend).
static bool is_neighbour_blend(const steer_behaviour *b)
{
    if (b->def.type != STEER_BLEND || b->def.child_count == 0) return false;
    for (int i = 0; i < b->def.child_count; ++i) {
        const steer_behaviour *c = b->children[i].behaviour;
        const steer_behaviour_type t = c->def.type;
        if (c->overrides || (t != STEER_SEPARATION && t != STEER_COHESION && t != STEER_ALIGNMENT)) return false;
    }
    return true;
}

static bool uses_arrive_radii(steer_behaviour_type t) { return (ARRIVE_RADII & T(t)) != 0; }

const char *steer__behaviour_rule_phrase(steer_param_rule rule, double v)
{
    switch (rule) {
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
    return NULL;
}

const char *steer_param_check(const steer_behaviour_def *def, const steer_param_info *p, double v,
                              char *buf, size_t size)
{
    if (p->kind == STEER_PARAM_BOOL) return (v == 0.0 || v == 1.0) ? NULL : "must be a boolean";
    if (p->kind == STEER_PARAM_ENUM) {
        int n = 0;
        while (p->choices[n] != NULL) ++n;
        return (v >= 0.0 && v < n && v == floor(v)) ? NULL : "must be one of its choices";
    }
    if (!isfinite(v)) return "must be a finite number";
    // (a margin below FLT_MAX, so sums of two parameters stay finite floats)
    // (compared with the float bound: 3e38 itself rounds to a float a bit above 3e38)
    if (fabs(v) > (double)(float)STEER_MAX_PARAM) {
        char limit[32];
        snprintf(buf, size, "must be at most %s in magnitude", steer_format_limit(STEER_MAX_PARAM, limit, sizeof limit));
        return buf;
    }
    const char *phrase = steer__behaviour_rule_phrase(p->rule, v);
    if (phrase != NULL) return phrase;
    // cross-field rules
    if (def != NULL && uses_arrive_radii(def->type)) {
        // compared as stored (floats): 0.1 and 0.1 are equal radii
        if (strcmp(p->name, "slow_radius") == 0 && (float)v < def->target_radius) {
            snprintf(buf, size, "must not be less than target_radius (%g)", (double)def->target_radius);
            return buf;
        }
        if (strcmp(p->name, "target_radius") == 0 && (float)v > def->slow_radius) {
            snprintf(buf, size, "must not exceed slow_radius (%g)", (double)def->slow_radius);
            return buf;
        }
    }
    if (strcmp(p->name, "whisker_angle") == 0 && v > 0.5 * STEER_PI + 1e-6) return "must be at most pi/2";
    // reciprocal_avoidance keeps its half-planes on the stack: a fixed cap
    if (strcmp(p->name, "max_neighbours") == 0 && (v != floor(v) || v > STEER_MAX_AVOID_NEIGHBOURS)) {
        snprintf(buf, size, "must be a whole number in [1, %d]", STEER_MAX_AVOID_NEIGHBOURS);
        return buf;
    }
    return NULL;
}

// Types with children: the two combinators, and reciprocal_avoidance's
// single preferred-velocity child.
static bool takes_children(steer_behaviour_type t)
{
    return t == STEER_BLEND || t == STEER_PRIORITY || t == STEER_RECIPROCAL_AVOIDANCE;
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
    // reciprocal_avoidance wraps exactly one behaviour, its preferred velocity
    if (!STEER_CHECK(d->type != STEER_RECIPROCAL_AVOIDANCE || d->child_count == 1)) return false;
    if (!STEER_CHECK(d->child_count == 0 || takes_children(d->type))) return false;
    return true;
}

int steer__behaviour_type_memory(steer_behaviour_type type)
{
    // wander: its angle; follow_path: its progress; obstacle_avoidance: its committed side
    return type == STEER_WANDER || type == STEER_FOLLOW_PATH || type == STEER_OBSTACLE_AVOIDANCE;
}

static bool set_children(steer_behaviour *b, const steer_child *children, int count);

steer_behaviour *steer_behaviour_create(const steer_behaviour_def *def)
{
    if (!def_is_valid(def)) return NULL;
    steer_behaviour *b = steer__alloc(sizeof *b);
    if (b == NULL) return NULL;
    memset(b, 0, sizeof *b);
    b->refcount = 1;
    b->def = *def;
    b->overrides = has_overrides(def);
    b->def.children = NULL;
    b->def.child_count = 0;
    b->height = 1;
    b->nodes = 1;
    b->memory = steer__behaviour_type_memory(def->type);
    b->avoids = def->type == STEER_RECIPROCAL_AVOIDANCE;
    b->has_callback = def->type == STEER_CALLBACK;
    b->nav = def->type == STEER_NAVIGATE ? b : NULL;
    b->navs = def->type == STEER_NAVIGATE;
    if (def->type == STEER_ALIGN) b->def.orientation = steer_wrap_angle(def->orientation);
    // a new node: nothing evaluates it or holds it yet, so a Lua behaviour
    // may build combinators during a step (only the parent links of the
    // children change, which no evaluation reads; callbacks run alone)
    if (def->child_count > 0 && !set_children(b, def->children, def->child_count)) {
        steer__free(b);
        return NULL;
    }
    if (def->path != NULL) steer_path_retain(def->path);
    return b;
}

steer_behaviour *steer_behaviour_retain(steer_behaviour *b)
{
    if (b != NULL) ++b->refcount;
    return b;
}

static void unlink_child(steer_behaviour *parent, int i);

void steer_behaviour_release(steer_behaviour *b)
{
    if (b == NULL) return;
    if (!STEER_CHECK(b->refcount > 0)) return;
    if (--b->refcount > 0) return;
    // (a node is released only once nothing holds it, so it has no parents;
    // the recursion is as deep as the tree: at most STEER_MAX_TREE_DEPTH)
    for (int i = 0; i < b->def.child_count; ++i) {
        steer_behaviour *c = b->children[i].behaviour;
        unlink_child(b, i);
        steer_behaviour_release(c);
    }
    steer__free(b->children);
    steer__free(b->link_of);
    steer__free(b->parents);
    if (b->def.path != NULL) steer_path_release(b->def.path);
    if (b->def.release != NULL) b->def.release(b->def.context);
    steer__free(b->name);
    steer__free(b);
}

steer_behaviour_type steer_behaviour_get_type(const steer_behaviour *b) { return b->def.type; }

bool steer_behaviour_set_name(steer_behaviour *b, const char *name)
{
    if (!STEER_CHECK(b != NULL)) return false;
    size_t n = name != NULL ? strlen(name) : 0;
    if (!STEER_CHECK(n <= STEER_MAX_BEHAVIOUR_NAME)) return false;
    char *copy = NULL;
    if (n > 0) {
        copy = steer__alloc(n + 1);
        if (copy == NULL) return false;
        memcpy(copy, name, n + 1);
    }
    steer__free(b->name);
    b->name = copy;
    return true;
}

const char *steer_behaviour_get_name(const steer_behaviour *b) { return b != NULL ? b->name : NULL; }
const steer_behaviour_def *steer_behaviour_get_def(const steer_behaviour *b) { return &b->def; }

double steer_behaviour_get_param(const steer_behaviour *b, const steer_param_info *p)
{
    return def_get_param(&b->def, p);
}

bool steer_behaviour_set_param(steer_behaviour *b, const steer_param_info *p, double v)
{
    char buf[128];
    if (!STEER_CHECK(b != NULL && p != NULL)) return false;
    if (!STEER_NOT_EVALUATING()) return false;
    steer_behaviour_def *d = &b->def;
    if (!STEER_CHECK(!isnan(v))) return false;
    if (p->kind == STEER_PARAM_LIMIT) {
        if (v >= 0.0 && !STEER_CHECK(steer_param_check(d, p, v, buf, sizeof buf) == NULL)) return false;
        *float_field(d, p->offset) = v < 0.0 ? -1.0f : (float)v; // negative: inherit the agent's limit
        b->overrides = has_overrides(d);
        for (int i = 0; i < b->parent_count; ++i) {
            steer_behaviour *parent = b->parents[i].parent;
            parent->neighbour_blend = is_neighbour_blend(parent);
        }
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
    if (!STEER_NOT_EVALUATING()) return;
    if (!STEER_CHECK(target.kind != STEER_TARGET_POINT || steer_vec2_is_finite(target.point))) return;
    b->def.target = target;
}

void steer_behaviour_set_path(steer_behaviour *b, steer_path *path)
{
    if (!STEER_CHECK(b != NULL)) return;
    if (!STEER_NOT_EVALUATING()) return;
    if (path != NULL) steer_path_retain(path);
    if (b->def.path != NULL) steer_path_release(b->def.path);
    b->def.path = path;
}


/* ---- the tree graph --------------------------------------------------------------- */

int steer_behaviour_child_count(const steer_behaviour *b) { return b->def.child_count; }

steer_child steer_behaviour_get_child(const steer_behaviour *b, int i)
{
    if (!STEER_CHECK(i >= 0 && i < b->def.child_count)) return (steer_child){NULL, 0.0f};
    return b->children[i];
}

int steer_behaviour_tree_depth(const steer_behaviour *b) { return b->height; }
int steer_behaviour_tree_nodes(const steer_behaviour *b) { return b->nodes; }
int steer_behaviour_tree_memory(const steer_behaviour *b) { return b->memory; }

// The count steer__behaviour_shape_epoch returns (worlds stepping on other
// threads read it: relaxed atomics, a counter, not a synchronisation).
static atomic_uint shape_epoch;

uint32_t steer__behaviour_shape_epoch(void) { return atomic_load_explicit(&shape_epoch, memory_order_relaxed); }

// Marks of graph walks: a node is visited in the current walk when its mark
// equals the epoch. Behaviours are changed from one thread at a time.
static uint32_t walk_epoch = 0;

static uint32_t next_epoch(void)
{
    if (++walk_epoch == 0) ++walk_epoch; // 0 is never a current walk
    return walk_epoch;
}

// The ancestors of `from` (itself included) in an order where every node
// comes before its parents (the reverse postorder of a walk up the parent
// links), each marked with `epoch`. Iterative: no recursion on user-built
// depth. Returns their count, or -1 when memory ran out; *out is the
// caller's to free.
static int ancestors(steer_behaviour *from, uint32_t epoch, steer_behaviour ***out)
{
    typedef struct frame {
        steer_behaviour *node;
        int next; ///< next parent link to follow
    } frame;
    int cap = 16, top = 0, n = 0, order_cap = 16;
    frame *stack = steer__alloc(sizeof *stack * (size_t)cap);
    steer_behaviour **order = steer__alloc(sizeof *order * (size_t)order_cap);
    if (stack == NULL || order == NULL) goto fail;
    from->mark = epoch;
    stack[top++] = (frame){from, 0};
    while (top > 0) {
        frame *f = &stack[top - 1];
        if (f->next < f->node->parent_count) {
            steer_behaviour *p = f->node->parents[f->next++].parent;
            if (p->mark == epoch) continue;
            p->mark = epoch;
            if (top == cap && !STEER_GROW(stack, cap *= 2)) goto fail;
            stack[top++] = (frame){p, 0};
            continue;
        }
        if (n == order_cap && !STEER_GROW(order, order_cap *= 2)) goto fail;
        order[n++] = f->node; // postorder: after all of its ancestors
        --top;
    }
    steer__free(stack);
    // reverse: children before parents
    for (int i = 0; i < n / 2; ++i) {
        steer_behaviour *t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
    }
    *out = order;
    return n;
fail:
    steer__free(stack);
    steer__free(order);
    return -1;
}

bool steer_behaviour_contains(const steer_behaviour *outer, const steer_behaviour *inner)
{
    if (outer == inner) return true;
    // outer contains inner when it is one of inner's ancestors: one walk up
    steer_behaviour **up = NULL;
    int n = ancestors((steer_behaviour *)inner, next_epoch(), &up);
    if (n < 0) return true; // out of memory: the cautious answer for a cycle check
    bool found = outer->mark == walk_epoch;
    steer__free(up);
    return found;
}

// Shape of the unfolded tree, from the shapes of the children.
typedef struct tree_shape {
    int height, nodes, memory;
    bool avoids; ///< a reciprocal_avoidance node is in the tree
    bool has_callback;
    const steer_behaviour *nav; ///< the first navigate node
    int navs;                   ///< navigate nodes, once per use (saturates at 2)
} tree_shape;

static tree_shape shape_of(steer_behaviour_type type, const steer_child *children, int count,
                           const tree_shape *pending, uint32_t epoch, const steer_behaviour *self)
{
    tree_shape t = {1, 1, steer__behaviour_type_memory(type), type == STEER_RECIPROCAL_AVOIDANCE, type == STEER_CALLBACK,
                    type == STEER_NAVIGATE ? self : NULL, type == STEER_NAVIGATE};
    for (int i = 0; i < count; ++i) {
        const steer_behaviour *c = children[i].behaviour;
        // a child reshaped by the same change has its new shape pending
        tree_shape cs = c->mark == epoch ? pending[c->walk_index]
                                         : (tree_shape){c->height, c->nodes, c->memory, c->avoids, c->has_callback, c->nav,
                                                        c->navs};
        t.avoids = t.avoids || cs.avoids;
        if (t.nav == NULL) t.nav = cs.nav;
        t.navs = t.navs + cs.navs > 2 ? 2 : t.navs + cs.navs;
        if (cs.height + 1 > t.height) t.height = cs.height + 1;
        // saturating: a graph of shared nodes can unfold to astronomical sizes
        t.nodes = t.nodes + cs.nodes > STEER_MAX_TREE_NODES ? STEER_MAX_TREE_NODES + 1 : t.nodes + cs.nodes;
        t.memory = t.memory + cs.memory > STEER_MAX_TREE_MEMORY ? STEER_MAX_TREE_MEMORY + 1 : t.memory + cs.memory;
        t.has_callback = t.has_callback || cs.has_callback;
    }
    return t;
}

static const char *shape_error(tree_shape t, char *buf, size_t size)
{
    if (t.height > STEER_MAX_TREE_DEPTH) {
        snprintf(buf, size, "would nest more than %d levels deep", STEER_MAX_TREE_DEPTH);
        return buf;
    }
    if (t.nodes > STEER_MAX_TREE_NODES) {
        snprintf(buf, size, "would make a tree of more than %d nodes (shared behaviours count once per use)",
                 STEER_MAX_TREE_NODES);
        return buf;
    }
    if (t.memory > STEER_MAX_TREE_MEMORY) {
        snprintf(buf, size,
                 "would need more than %d floats of per-agent memory (wander, follow_path and "
                 "obstacle_avoidance take 1 each)",
                 STEER_MAX_TREE_MEMORY);
        return buf;
    }
    if (t.navs > 1) {
        // an agent holds one plan (navigate.c): a second navigate would
        // never be planned for
        snprintf(buf, size, "would hold more than one navigate (an agent keeps one plan: use one navigate and "
                            "change its target)");
        return buf;
    }
    return NULL;
}

// A planned change of b's children: every tree containing b reshaped.
typedef struct reshape {
    steer_behaviour **up; ///< b and its ancestors, children before parents
    tree_shape *shape;    ///< their new shapes
    int count;
    uint32_t epoch;
} reshape;

static void reshape_free(reshape *r)
{
    steer__free(r->up);
    steer__free(r->shape);
    memset(r, 0, sizeof *r);
}

// Plan the change; NULL when it is allowed, else the reason (r is then freed).
static const char out_of_memory[] = "could not be changed (not enough memory)";

static const char *reshape_plan(steer_behaviour *b, const steer_child *children, int count, reshape *r,
                                char *buf, size_t size)
{
    memset(r, 0, sizeof *r);
    r->epoch = next_epoch();
    r->count = b != NULL ? ancestors(b, r->epoch, &r->up) : 0;
    if (r->count < 0) return out_of_memory;
    for (int i = 0; i < count; ++i) {
        if (children[i].behaviour->mark == r->epoch) {
            reshape_free(r);
            return "would contain itself";
        }
    }
    r->shape = steer__alloc(sizeof *r->shape * (size_t)(r->count > 0 ? r->count : 1));
    if (r->shape == NULL) {
        reshape_free(r);
        return out_of_memory;
    }
    for (int k = 0; k < r->count; ++k) r->up[k]->walk_index = k;
    tree_shape first = shape_of(b != NULL ? b->def.type : STEER_BLEND, children, count, r->shape, r->epoch, b);
    const char *err = shape_error(first, buf, size);
    for (int k = 0; k < r->count && err == NULL; ++k) {
        steer_behaviour *n = r->up[k];
        r->shape[k] = k == 0 ? first : shape_of(n->def.type, n->children, n->def.child_count, r->shape, r->epoch, n);
        err = shape_error(r->shape[k], buf, size);
    }
    if (err != NULL) reshape_free(r);
    return err;
}

const char *steer_behaviour_check_children(const steer_behaviour *b, const steer_child *children, int count,
                                           char *buf, size_t size)
{
    if (count < 0 || (count > 0 && children == NULL)) return "must be a list of behaviours";
    for (int i = 0; i < count; ++i) {
        if (children[i].behaviour == NULL) return "must be a list of behaviours";
        if (!isfinite(children[i].weight)) return "must have finite weights";
    }
    reshape r;
    const char *err = reshape_plan((steer_behaviour *)b, children, count, &r, buf, size);
    if (err == NULL) reshape_free(&r);
    return err;
}

// Remove the parent link of b's child i (swap-remove in the child's list).
static void unlink_child(steer_behaviour *parent, int i)
{
    steer_behaviour *c = parent->children[i].behaviour;
    int at = parent->link_of[i];
    parent_link last = c->parents[--c->parent_count];
    c->parents[at] = last;
    if (at < c->parent_count) last.parent->link_of[last.child] = at;
}

bool steer_behaviour_set_children(steer_behaviour *b, const steer_child *children, int count)
{
    if (!STEER_NOT_EVALUATING()) return false;
    return set_children(b, children, count);
}

static bool set_children(steer_behaviour *b, const steer_child *children, int count)
{
    char buf[160], cond[224];
    if (!STEER_CHECK(b != NULL && count >= 0 && (count == 0 || children != NULL))) return false;
    if (!STEER_CHECK(takes_children(b->def.type))) return false;
    if (!STEER_CHECK(b->def.type != STEER_RECIPROCAL_AVOIDANCE || count == 1)) return false;
    for (int i = 0; i < count; ++i) {
        if (!STEER_CHECK(children[i].behaviour != NULL && isfinite(children[i].weight))) return false;
    }
    reshape r;
    const char *err = reshape_plan(b, children, count, &r, buf, sizeof buf);
    if (err == out_of_memory) return false; // not misuse: the call fails cleanly
    if (err != NULL) {
        snprintf(cond, sizeof cond, "behaviour '%s': children %s", steer_behaviour_type_name(b->def.type), err);
        steer__assert_failed(cond, __FILE__, __LINE__);
        return false;
    }
    // everything that can fail first: the copies and room for the parent links
    steer_child *copy = NULL;
    int *link_of = NULL;
    bool ok = true;
    if (count > 0) {
        copy = steer__alloc(sizeof *copy * (size_t)count);
        link_of = steer__alloc(sizeof *link_of * (size_t)count);
        ok = copy != NULL && link_of != NULL;
        for (int i = 0; ok && i < count; ++i) {
            steer_behaviour *c = children[i].behaviour;
            if (c->parent_count + count > c->parent_capacity) {
                int cap = (c->parent_count + count) * 2;
                ok = STEER_GROW(c->parents, cap);
                if (ok) c->parent_capacity = cap;
            }
        }
    }
    if (!ok) {
        steer__free(copy);
        steer__free(link_of);
        reshape_free(&r);
        return false;
    }
    // the old links go first: a swap-remove may move another link of b
    steer_child *old = b->children;
    int *old_links = b->link_of;
    int old_count = b->def.child_count;
    for (int i = 0; i < old_count; ++i) unlink_child(b, i);
    if (count > 0) memcpy(copy, children, sizeof *copy * (size_t)count);
    b->children = copy;
    b->link_of = link_of;
    b->def.children = copy;
    b->def.child_count = count;
    for (int i = 0; i < count; ++i) {
        steer_behaviour *c = steer_behaviour_retain(copy[i].behaviour);
        link_of[i] = c->parent_count;
        c->parents[c->parent_count++] = (parent_link){b, i};
    }
    b->neighbour_blend = is_neighbour_blend(b);
    for (int k = 0; k < r.count; ++k) {
        r.up[k]->height = r.shape[k].height;
        r.up[k]->nodes = r.shape[k].nodes;
        r.up[k]->memory = r.shape[k].memory;
        r.up[k]->avoids = r.shape[k].avoids;
        r.up[k]->has_callback = r.shape[k].has_callback;
        r.up[k]->nav = r.shape[k].nav;
        r.up[k]->navs = r.shape[k].navs;
    }
    atomic_fetch_add_explicit(&shape_epoch, 1u, memory_order_relaxed);
    reshape_free(&r);
    for (int i = 0; i < old_count; ++i) steer_behaviour_release(old[i].behaviour);
    steer__free(old);
    steer__free(old_links);
    return true;
}

/* ---- memory across a change of tree ---------------------------------------------------- */

void steer__behaviour_copy_memory(const steer_behaviour *from, const float *from_mem, const steer_behaviour *to,
                        float *to_mem)
{
    // same place, same type: the node keeps its memory; the recursion is as
    // deep as the trees (at most STEER_MAX_TREE_DEPTH)
    if (from == NULL || to == NULL || from->def.type != to->def.type) return; // to_mem stays zero
    if (to->def.child_count == 0) {
        memcpy(to_mem, from_mem, sizeof *to_mem * (size_t)to->memory);
        return;
    }
    int from_offset = 0, to_offset = 0;
    for (int i = 0; i < to->def.child_count; ++i) {
        const steer_behaviour *t = to->children[i].behaviour;
        const steer_behaviour *f = i < from->def.child_count ? from->children[i].behaviour : NULL;
        steer__behaviour_copy_memory(f, from_mem + from_offset, t, to_mem + to_offset);
        if (f != NULL) from_offset += f->memory;
        to_offset += t->memory;
    }
}
