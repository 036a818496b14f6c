// laux.h: value checkers and the shape of their messages, as Lua's lauxlib
// words them: `bad argument #1 to 'arrive' (field 'slow_radius' must be a
// positive number, got -3)`.
#ifndef STEER_LAUX_H
#define STEER_LAUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compat.h" // the version shim

/// Where a checked value came from, for the message.
typedef struct steer_laux_where {
    int arg;           ///< argument number (> 0), or 0 for a property
    const char *field; ///< option name ("slow_radius"), or NULL for the argument itself
    const char *tname; ///< property: the class ("steer.Arrive")
} steer_laux_where;

static inline steer_laux_where steer_laux_field(int arg, const char *field)
{
    return (steer_laux_where){arg, field, NULL};
}
static inline steer_laux_where steer_laux_arg(int arg) { return (steer_laux_where){arg, NULL, NULL}; }
static inline steer_laux_where steer_laux_property(const char *tname, const char *name)
{
    return (steer_laux_where){0, name, tname};
}

/// Range rules of numbers. Every rule also requires a finite number that
/// fits a float (so no NaN or infinity ever reaches the engine).
typedef enum steer_laux_rule {
    LAUX_FINITE,
    LAUX_NONNEGATIVE,
    LAUX_POSITIVE,
} steer_laux_rule;

/// Raise "<where> <phrase>, got <value at vidx>".
int steer_laux_error(lua_State *L, steer_laux_where w, const char *phrase, int vidx);
/// Raise "<where> <phrase>" (no value).
int steer_laux_error_plain(lua_State *L, steer_laux_where w, const char *phrase);
/// Raise "unknown field 'name'" for the key at kidx of the table at arg.
int steer_laux_unknown_field(lua_State *L, int arg, int kidx);
/// Push a short description of a value: numbers and strings by value, the
/// rest by type name.
const char *steer_laux_describe(lua_State *L, int idx);

/// A number following rule (the value must be a number).
double steer_laux_number(lua_State *L, steer_laux_where w, int vidx, steer_laux_rule rule);
/// A positional number argument (luaL_checknumber, then the rule).
float steer_laux_check_float(lua_State *L, int arg, steer_laux_rule rule);
/// A 32-bit mask (layers): an integer in [0, 2^32 - 1].
uint32_t steer_laux_bits(lua_State *L, steer_laux_where w, int vidx);
/// A boolean (true or false, nothing else).
bool steer_laux_boolean(lua_State *L, steer_laux_where w, int vidx);
/// A string among choices (NULL-terminated); returns its index. The error
/// lists the valid choices.
int steer_laux_enum(lua_State *L, steer_laux_where w, int vidx, const char *const *choices);
/// A colour: the string "#rrggbb" (hex digits, either case), as 0xRRGGBBff.
uint32_t steer_laux_color(lua_State *L, steer_laux_where w, int vidx);
/// Push a colour (0xRRGGBBAA, not 0) as "#rrggbb".
void steer_laux_push_color(lua_State *L, uint32_t color);
/// A point: {x, y} or {x = x, y = y}.
void steer_laux_point(lua_State *L, steer_laux_where w, int vidx, float *x, float *y);

/// Push a float as the shortest decimal that reads back as the same float,
/// so `b.time_to_target = 0.1` reads back as 0.1.
void steer_laux_push_float(lua_State *L, float value);
/// The same number as a double.
double steer_laux_float_value(float value);

/// Create a metatable named tname with __name, locked (__metatable), and the
/// given metamethods; leaves it on the stack. Every class's __index is a C
/// closure whose upvalue 1 is its method table and upvalue 2 its name table
/// (property name -> reflected field or extra code, runtime.h), whose keys
/// tools read with debug.getupvalue (tests/lua/annotations_check.lua).
void steer_laux_new_class(lua_State *L, const char *tname, const luaL_Reg *metamethods);

#endif
