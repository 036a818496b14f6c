// options.c: steer.options(kind), every option of a constructor as a tool
// reads it: the engine's reflected fields of the definition (numbers, flags,
// choices, with their rules and ranges), then the options the binding adds
// (steering, role, nav_bounds, pattern, ...), from the same name lists the
// constructors' parsers are built from (runtime.h), so the two cannot drift.
#include "runtime.h"

#include <string.h>

static const char *const kinds[] = {"world", "agent", "formation", NULL};

// The Lua type of a binding option's value, by constructor: what
// steer.options reports as its type (a test checks every listed option
// has one).
typedef struct extra_type {
    steer_def_type def;
    const char *name, *type;
} extra_type;

static const extra_type extra_types[] = {
    {STEER_DEF_WORLD, "nav_bounds", "table"},
    {STEER_DEF_AGENT, "steering", "behaviour"},
    {STEER_DEF_AGENT, "role", "string"},
    {STEER_DEF_AGENT, "tag", "string"},
    {STEER_DEF_AGENT, "color", "string"},
    {STEER_DEF_FORMATION, "pattern", "string|table|function"},
    {STEER_DEF_FORMATION, "leader", "agent"},
    {STEER_DEF_FORMATION, "anchor", "table"},
    {STEER_DEF_FORMATION, "members", "table"},
    {STEER_DEF_FORMATION, "slot_roles", "table|function"},
    {STEER_DEF_FORMATION, "costs", "table|function"},
    {STEER_DEF_FORMATION, "world", "world"},
    {STEER_DEF_FORMATION, "steering", "boolean"},
    {STEER_DEF_FORMATION, "anchor.target", "agent|table"},
    {STEER_DEF_FORMATION, "anchor.path", "path"},
    {STEER_DEF_FORMATION, "anchor.steering", "behaviour"},
};

static bool listed(const char *const *names, const char *name)
{
    for (int i = 0; names != NULL && names[i] != NULL; ++i) {
        if (strcmp(names[i], name) == 0) return true;
    }
    return false;
}

static void set_list(lua_State *L, const char *key, const char *const *names)
{
    lua_newtable(L);
    for (int c = 0; names[c] != NULL; ++c) {
        lua_pushstring(L, names[c]);
        lua_rawseti(L, -2, c + 1);
    }
    lua_setfield(L, -2, key);
}

// Push the entry of a reflected field.
static void push_field(lua_State *L, const steer_field_info *f)
{
    static const char *const rules[] = {"finite", "non-negative", "positive", "cosine", "unit", NULL};
    static const char *const types[] = {"number", "boolean", "string", "integer", "integer", "integer"};
    lua_createtable(L, 0, 9);
    lua_pushstring(L, f->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, types[f->kind]);
    lua_setfield(L, -2, "type");
    if (f->kind == STEER_FIELD_FLOAT) {
        lua_pushstring(L, rules[f->rule]);
        lua_setfield(L, -2, "rule");
    }
    lua_pushstring(L, f->unit);
    lua_setfield(L, -2, "unit");
    bool whole = f->kind == STEER_FIELD_INT || f->kind == STEER_FIELD_UINT64 || f->kind == STEER_FIELD_BITS;
    if (f->min < f->max || f->min != 0.0) {
        if (whole) lua_pushinteger(L, (lua_Integer)f->min);
        else lua_pushnumber(L, f->min);
        lua_setfield(L, -2, "min");
    }
    if (f->min < f->max) {
        if (whole) lua_pushinteger(L, (lua_Integer)f->max);
        else lua_pushnumber(L, f->max);
        lua_setfield(L, -2, "max");
    }
    if (f->choices != NULL) set_list(L, "choices", f->choices);
    lua_pushboolean(L, f->live);
    lua_setfield(L, -2, "live");
    lua_pushboolean(L, true);
    lua_setfield(L, -2, "reflected");
}

// Append the entries of a binding's options (names) to the list at -1,
// from index *n + 1; live: the object's property names.
static void push_extras(lua_State *L, steer_def_type def, const char *const *names, const char *const *live, int *n)
{
    for (int i = 0; names[i] != NULL; ++i) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, names[i]);
        lua_setfield(L, -2, "name");
        for (size_t t = 0; t < sizeof extra_types / sizeof extra_types[0]; ++t) {
            if (extra_types[t].def != def || strcmp(extra_types[t].name, names[i]) != 0) continue;
            lua_pushstring(L, extra_types[t].type);
            lua_setfield(L, -2, "type");
        }
        if (def == STEER_DEF_FORMATION && strcmp(names[i], "pattern") == 0)
            set_list(L, "choices", steer_lua__pattern_names); // or a list of offsets, or a function
        lua_pushboolean(L, listed(live, names[i]));
        lua_setfield(L, -2, "live");
        lua_pushboolean(L, false);
        lua_setfield(L, -2, "reflected");
        lua_rawseti(L, -2, ++*n);
    }
}

int steer_lua__options(lua_State *L)
{
    lua_settop(L, 1); // no argument: nil, in the message
    steer_def_type def = (steer_def_type)steer_laux_enum(L, steer_laux_arg(1), 1, kinds);
    int n = steer_def_field_count(def);
    lua_createtable(L, n + 16, 0);
    for (int i = 0; i < n; ++i) {
        push_field(L, steer_def_field(def, i));
        lua_rawseti(L, -2, i + 1);
    }
    switch (def) {
    case STEER_DEF_WORLD: push_extras(L, def, steer_lua__world_options, steer_lua__world_properties, &n); break;
    case STEER_DEF_AGENT: push_extras(L, def, steer_lua__spawn_options, steer_lua__agent_properties, &n); break;
    default:
        push_extras(L, def, steer_lua__formation_options, steer_lua__formation_properties, &n);
        push_extras(L, def, steer_lua__anchor_options, NULL, &n);
        break;
    }
    return 1;
}
