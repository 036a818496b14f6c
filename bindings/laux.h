// laux.h: checkers for the binding files, in the shapes of Lua's lauxlib:
// `bad argument #1 to 'arrive' (field 'slow_radius' must be a positive number, got -3)`.
#ifndef STEER_LAUX_H
#define STEER_LAUX_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

/// Where a checked value came from, for the message.
typedef struct laux_where {
    int arg;           ///< argument number (> 0), or 0 for a property
    const char *field; ///< option name ("slow_radius"), or NULL for the argument itself
    const char *tname; ///< property: the class ("steer.Arrive")
} laux_where;

static inline laux_where laux_field(int arg, const char *field)
{
    return (laux_where){arg, field, NULL};
}
static inline laux_where laux_arg(int arg) { return (laux_where){arg, NULL, NULL}; }
static inline laux_where laux_property(const char *tname, const char *name)
{
    return (laux_where){0, name, tname};
}

/// Range rules of numbers. Every rule also requires a finite number that
/// fits a float (so no NaN or infinity ever reaches the engine).
typedef enum laux_rule {
    LAUX_FINITE,
    LAUX_NONNEGATIVE,
    LAUX_POSITIVE,
    LAUX_LIMIT, ///< an agent limit: >= 0 and <= 1e30
} laux_rule;

/// Raise "<where> <phrase>, got <value at vidx>".
int laux_error(lua_State *L, laux_where w, const char *phrase, int vidx);
/// Raise "<where> <phrase>" (no value).
int laux_error_plain(lua_State *L, laux_where w, const char *phrase);
/// Raise "unknown field 'name'" for the key at kidx of the table at arg.
int laux_unknown_field(lua_State *L, int arg, int kidx);
/// Push a short description of a value: numbers and strings by value, the
/// rest by type name.
const char *laux_describe(lua_State *L, int idx);

/// A number following rule (the value must be a number).
double laux_number(lua_State *L, laux_where w, int vidx, laux_rule rule);
/// A positional number argument (luaL_checknumber, then the rule).
float laux_check_float(lua_State *L, int arg, laux_rule rule);
/// A boolean (true or false, nothing else).
bool laux_boolean(lua_State *L, laux_where w, int vidx);
/// A string among choices (NULL-terminated); returns its index. The error
/// lists the valid choices.
int laux_enum(lua_State *L, laux_where w, int vidx, const char *const *choices);
/// A point: {x, y} or {x = x, y = y}.
void laux_point(lua_State *L, laux_where w, int vidx, float *x, float *y);

/// Push a float as the shortest decimal that reads back as the same float,
/// so `b.time_to_target = 0.1` reads back as 0.1.
void laux_push_float(lua_State *L, float value);
/// The same number as a double.
double laux_float_value(float value);

/// Push a set of names (NULL-terminated): a table name -> true.
void laux_push_set(lua_State *L, const char *const *names);

/// Create a metatable named tname with __name, locked (__metatable), and the
/// given metamethods; leaves it on the stack. Every class's __index is a C
/// closure whose upvalue 1 is its method table and upvalue 2 the names of
/// its properties (a set, or name -> index), which tools read with
/// debug.getupvalue (tests/lua/annotations_check.lua).
void laux_new_class(lua_State *L, const char *tname, const luaL_Reg *metamethods);

#endif
