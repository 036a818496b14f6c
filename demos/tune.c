// tune.c: see tune.h. Values are checked by the engine's reflected tables
// and refusals worded by the module's one formatter (steer_lua_bad_argument),
// so the tuner and Lua cannot disagree.
#include "tune.h"

#include <math.h>
#include <stdio.h>

#include "steer/steer_lua.h"

bool tune_set(steer_behaviour *b, const steer_param_info *param, double value, char *why, size_t size)
{
    char phrase[256];
    const char *msg = steer_param_check(steer_behaviour_get_def(b), param, value, phrase, sizeof phrase);
    if (msg == NULL && steer_behaviour_set_param(b, param, value)) return true;
    steer_lua_bad_argument(why, size, 1, steer_behaviour_type_name(steer_behaviour_get_type(b)), param->name,
                           msg != NULL ? msg : "was refused", value);
    return false;
}

bool tune_set_weight(steer_behaviour *blend, int index, double weight, char *why, size_t size)
{
    int n = steer_behaviour_child_count(blend);
    char field[32];
    snprintf(field, sizeof field, "[%d].weight", index + 1);
    if (index < 0 || index >= n || n > 256 || !isfinite(weight) || fabs(weight) > 3.4e38) {
        steer_lua_bad_argument(why, size, 1, "blend", field, "must be a finite number", weight);
        return false;
    }
    steer_child children[256];
    for (int i = 0; i < n; ++i) children[i] = steer_behaviour_get_child(blend, i);
    children[index].weight = (float)weight;
    if (steer_behaviour_set_children(blend, children, n)) return true;
    steer_lua_bad_argument(why, size, 1, "blend", field, "was refused", weight);
    return false;
}

// Check a value for a definition's field and store it in def; false (why
// as Lua words it for the constructor `function`) when refused.
static bool set_field(void *def, const steer_field_info *f, double value, const char *function, char *why,
                      size_t size)
{
    char phrase[128];
    const char *msg = steer_field_check(f, value, phrase, sizeof phrase);
    if (msg == NULL && !f->live) msg = "cannot change on a live object";
    if (msg != NULL) {
        steer_lua_bad_argument(why, size, 1, function, f->name, msg, value);
        return false;
    }
    steer_def_set_field(def, f, value);
    return true;
}

bool tune_set_world(steer_world *world, const steer_field_info *field, double value, char *why, size_t size)
{
    steer_world_def d;
    steer_world_get_def(world, &d);
    if (!set_field(&d, field, value, "world", why, size)) return false;
    steer_world_apply_def(world, &d);
    return true;
}

bool tune_set_agent(steer_world *world, steer_agent_id agent, const steer_field_info *field, double value, char *why,
                    size_t size)
{
    steer_agent_def d;
    steer_agent_get_def(world, agent, &d);
    if (!set_field(&d, field, value, "spawn", why, size)) return false;
    steer_agent_apply_def(world, agent, &d);
    return true;
}

bool tune_set_formation(steer_world *world, steer_formation_id formation, const steer_field_info *field, double value,
                        char *why, size_t size)
{
    steer_formation_def d = *steer_formation_get_def(world, formation);
    if (!set_field(&d, field, value, "formation", why, size)) return false;
    if (steer_formation_set_def(world, formation, &d)) return true;
    snprintf(why, size, "not enough memory");
    return false;
}

size_t tune_as_lua(const steer_behaviour *b, char *out, size_t size)
{
    steer_behaviour_type type = steer_behaviour_get_type(b);
    const steer_behaviour_def *def = steer_behaviour_get_def(b);
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(out + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__)
    PUT("steer.%s{", steer_behaviour_type_name(type));
    const char *sep = " ";
    for (int i = 0; i < steer_behaviour_param_count(type); ++i) {
        const steer_param_info *p = steer_behaviour_param(type, i);
        if (!steer_param_is_set(def, p)) continue; // an inherited limit, an unset value
        double v = steer_param_get(def, p);
        if (p->kind == STEER_PARAM_BOOL) PUT("%s%s = %s", sep, p->name, v != 0.0 ? "true" : "false");
        else if (p->kind == STEER_PARAM_ENUM) PUT("%s%s = \"%s\"", sep, p->name, p->choices[(int)v]);
        else {
            char number[64];
            steer_lua_format_float(v, number, sizeof number);
            PUT("%s%s = %s", sep, p->name, number);
        }
        sep = ", ";
    }
    // what is not a number stays the script's: named, not written
    int children = steer_behaviour_child_count(b);
    unsigned inputs = steer_behaviour_type_inputs(type);
    if (children > 0) PUT("%s--[[ %d children ]]", sep, children);
    else if (def->target.kind != STEER_TARGET_NONE) PUT("%s--[[ target ]]", sep);
    if (inputs & STEER_INPUT_PATH) PUT(" --[[ path ]]");
    PUT(" }");
#undef PUT
    return n < size ? n : (size > 0 ? size - 1 : 0);
}
