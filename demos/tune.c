// tune.c: see tune.h.
#include "tune.h"

#include <stdio.h>
#include <string.h>

// Numbers as Lua reads them back (shortest form that round-trips a float).
static void format_number(double x, char *out, size_t size)
{
    snprintf(out, size, "%.9g", x);
    float f = (float)x;
    for (int digits = 1; digits <= 9; ++digits) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*g", digits, x);
        float back;
        if (sscanf(buf, "%f", &back) == 1 && back == f) {
            snprintf(out, size, "%s", buf);
            return;
        }
    }
}

bool tune_set(steer_behaviour *b, const steer_param_info *param, double value, char *why, size_t size)
{
    char phrase[256];
    const char *msg = steer_param_check(steer_behaviour_get_def(b), param, value, phrase, sizeof phrase);
    if (msg == NULL && steer_behaviour_set_param(b, param, value)) return true;
    char number[64];
    format_number(value, number, sizeof number);
    snprintf(why, size, "bad argument #1 to '%s' (field '%s' %s, got %s)",
             steer_behaviour_type_name(steer_behaviour_get_type(b)), param->name,
             msg != NULL ? msg : "was refused", number);
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
        double v = steer_behaviour_get_param(b, p);
        if (p->kind == STEER_PARAM_LIMIT && v < 0.0) continue; // inherited from the agent
        if (p->kind == STEER_PARAM_OPTIONAL && !*(const bool *)((const char *)def + p->flag_offset)) continue;
        if (p->kind == STEER_PARAM_BOOL) PUT("%s%s = %s", sep, p->name, v != 0.0 ? "true" : "false");
        else if (p->kind == STEER_PARAM_ENUM) PUT("%s%s = \"%s\"", sep, p->name, p->choices[(int)v]);
        else {
            char number[64];
            format_number(v, number, sizeof number);
            PUT("%s%s = %s", sep, p->name, number);
        }
        sep = ", ";
    }
    // what is not a number stays the script's: named, not written
    int children = steer_behaviour_child_count(b);
    if (children > 0) PUT("%s--[[ %d children ]]", sep, children);
    else if (def->target.kind != STEER_TARGET_NONE) PUT("%s--[[ target ]]", sep);
    if (type == STEER_FOLLOW_PATH) PUT(" --[[ path ]]");
    PUT(" }");
#undef PUT
    return n < size ? n : (size > 0 ? size - 1 : 0);
}
