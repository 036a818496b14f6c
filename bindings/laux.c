// laux.c: value checkers and the shape of their error messages.
#include "laux.h"

#include "steer/steer.h"
#include "steer/steer_lua.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *steer_laux_describe(lua_State *L, int idx)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) return lua_pushfstring(L, STEER_LUA_IFMT, STEER_LUA_IARG(lua_tointeger(L, idx)));
        {
            double v = lua_tonumber(L, idx);
            if (isnan(v)) return lua_pushliteral(L, "nan");
            if (isinf(v)) return lua_pushstring(L, v > 0 ? "inf" : "-inf");
            return lua_pushfstring(L, "%f", (LUAI_UACNUMBER)v);
        }
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        if (n <= 40) return lua_pushfstring(L, "'%s'", s);
        char head[41];
        memcpy(head, s, 37);
        head[37] = '\0';
        return lua_pushfstring(L, "'%s...'", head);
    }
    case LUA_TBOOLEAN: return lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
    default: return lua_pushstring(L, luaL_typename(L, idx));
    }
}

// "field '<field>' <phrase>, got <got>" (no field: "<phrase>, got <got>";
// no got: without ", got"): what a bad argument message says in its
// parentheses. Returns the length it needs (as snprintf).
static size_t format_what(char *out, size_t size, const char *field, const char *phrase, const char *got)
{
    int n = snprintf(out, size, "%s%s%s%s%s%s", field != NULL ? "field '" : "", field != NULL ? field : "",
                     field != NULL ? "' " : "", phrase, got != NULL ? ", got " : "", got != NULL ? got : "");
    return n < 0 ? 0 : (size_t)n;
}

const char *steer_lua_format_float(double value, char *out, size_t size)
{
    // the shortest text that reads back as the same float: -3, 0.1, 1e+10
    snprintf(out, size, "%.9g", value);
    float f = (float)value;
    for (int digits = 1; digits <= 9; ++digits) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*g", digits, value);
        if (strtof(buf, NULL) == f) {
            snprintf(out, size, "%s", buf);
            break;
        }
    }
    return out;
}

size_t steer_lua_bad_argument(char *out, size_t size, int arg, const char *function, const char *field,
                              const char *phrase, double value)
{
    char got[48], what[512];
    steer_lua_format_float(value, got, sizeof got);
    format_what(what, sizeof what, field, phrase, got);
    int n = snprintf(out, size, "bad argument #%d to '%s' (%s)", arg, function, what);
    return n < 0 ? 0 : (size_t)n;
}

// Raise with the message shape of the place: a property, or an argument
// (with or without a field).
static int raise(lua_State *L, steer_laux_where w, const char *phrase, const char *got)
{
    const char *field = w.tname != NULL ? NULL : w.field;
    size_t n = format_what(NULL, 0, field, phrase, got);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, n + 1);
    format_what(p, n + 1, field, phrase, got);
    luaL_pushresultsize(&b, n);
    const char *what = lua_tostring(L, -1);
    steer_compat_close_pending(L); // undo guards, before Lua 5.4 (compat.h)
    if (w.tname != NULL) return luaL_error(L, "bad property '%s' of %s (%s)", w.field, w.tname, what);
    return luaL_argerror(L, w.arg, what);
}

int steer_laux_error(lua_State *L, steer_laux_where w, const char *phrase, int vidx)
{
    vidx = lua_absindex(L, vidx);
    const char *got = steer_laux_describe(L, vidx);
    return raise(L, w, phrase, got);
}

int steer_laux_error_plain(lua_State *L, steer_laux_where w, const char *phrase) { return raise(L, w, phrase, NULL); }

int steer_laux_unknown_field(lua_State *L, int arg, int kidx)
{
    if (lua_type(L, kidx) == LUA_TSTRING)
        return luaL_argerror(L, arg, lua_pushfstring(L, "unknown field '%s'", lua_tostring(L, kidx)));
    const char *k = steer_laux_describe(L, kidx);
    return luaL_argerror(L, arg, lua_pushfstring(L, "unknown field [%s]", k));
}

double steer_laux_number(lua_State *L, steer_laux_where w, int vidx, steer_laux_rule rule)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TNUMBER) {
        const char *expected = rule == LAUX_POSITIVE      ? "must be a positive number"
                               : rule == LAUX_FINITE      ? "must be a number"
                                                          : "must be a non-negative number";
        return steer_laux_error(L, w, expected, vidx);
    }
    double v = lua_tonumber(L, vidx);
    // beyond the float range a value would become an infinity in the engine
    if (!isfinite(v)) return steer_laux_error(L, w, "must be a finite number", vidx);
    if (v > STEER_MAX_FLOAT || v < -STEER_MAX_FLOAT) {
        char limit[32], phrase[64];
        snprintf(phrase, sizeof phrase, "must be at most %s in magnitude",
                 steer_format_limit(STEER_MAX_FLOAT, limit, sizeof limit));
        return steer_laux_error(L, w, phrase, vidx);
    }
    switch (rule) {
    case LAUX_FINITE: break;
    case LAUX_NONNEGATIVE:
        if (v < 0.0) steer_laux_error(L, w, "must be a non-negative number", vidx);
        break;
    case LAUX_POSITIVE:
        if (!(v > 0.0)) steer_laux_error(L, w, "must be a positive number", vidx);
        break;
    }
    return v;
}

float steer_laux_check_float(lua_State *L, int arg, steer_laux_rule rule)
{
    luaL_checknumber(L, arg);
    if (lua_type(L, arg) != LUA_TNUMBER) { // a numeric string: convert in place
        lua_pushnumber(L, lua_tonumber(L, arg));
        lua_replace(L, arg);
    }
    return (float)steer_laux_number(L, steer_laux_arg(arg), arg, rule);
}

uint32_t steer_laux_bits(lua_State *L, steer_laux_where w, int vidx)
{
    vidx = lua_absindex(L, vidx);
    lua_Integer v = lua_isinteger(L, vidx) ? lua_tointeger(L, vidx) : -1;
    if (v < 0 || v > (lua_Integer)0xFFFFFFFF) steer_laux_error(L, w, "must be a 32-bit mask (an integer in [0, 2^32 - 1])", vidx);
    return (uint32_t)v;
}

bool steer_laux_boolean(lua_State *L, steer_laux_where w, int vidx)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TBOOLEAN) steer_laux_error(L, w, "must be a boolean", vidx);
    return lua_toboolean(L, vidx) != 0;
}

bool steer_lua_parse_color(const char *s, uint32_t *out)
{
    if (s == NULL || s[0] != '#' || strlen(s) != 7) return false;
    uint32_t c = 0;
    for (int i = 1; i < 7; ++i) {
        char ch = s[i];
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0) return false;
        c = c << 4 | (uint32_t)d;
    }
    *out = c << 8 | 0xffu;
    return true;
}

uint32_t steer_laux_color(lua_State *L, steer_laux_where w, int vidx)
{
    uint32_t c = 0; // (steer_laux_error does not return)
    if (lua_type(L, vidx) != LUA_TSTRING || !steer_lua_parse_color(lua_tostring(L, vidx), &c))
        steer_laux_error(L, w, "must be a colour '#rrggbb'", vidx);
    return c;
}

void steer_laux_push_color(lua_State *L, uint32_t color)
{
    char s[8];
    snprintf(s, sizeof s, "#%06x", (unsigned)(color >> 8));
    lua_pushstring(L, s);
}

int steer_laux_enum(lua_State *L, steer_laux_where w, int vidx, const char *const *choices)
{
    vidx = lua_absindex(L, vidx);
    const char *s = lua_type(L, vidx) == LUA_TSTRING ? lua_tostring(L, vidx) : NULL;
    int n = 0;
    for (; choices[n] != NULL; ++n) {
        if (s != NULL && strcmp(s, choices[n]) == 0) return n;
    }
    // "must be one of 'single', 'whiskers', 'parallel'"
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "must be one of ");
    for (int i = 0; i < n; ++i) {
        if (i > 0) luaL_addstring(&b, ", ");
        luaL_addchar(&b, '\'');
        luaL_addstring(&b, choices[i]);
        luaL_addchar(&b, '\'');
    }
    luaL_pushresult(&b);
    return steer_laux_error(L, w, lua_tostring(L, -1), vidx);
}

// What a point table holds: its entries [1] and [2], x and y, and the
// first other key (a third value, a field 'z', ...), counted by a walk of
// its raw keys.
typedef struct point_keys {
    int values; // integer keys (1, 2 and any other)
    int named;  // keys "x" and "y"
    int other;  // any other key, the first at the top of the stack when > 0
} point_keys;

static point_keys count_point_keys(lua_State *L, int vidx)
{
    point_keys k = {0, 0, 0};
    lua_pushnil(L);
    while (lua_next(L, vidx) != 0) {
        lua_pop(L, 1);
        bool extra = false;
        if (lua_type(L, -1) == LUA_TNUMBER && lua_isinteger(L, -1)) {
            lua_Integer i = lua_tointeger(L, -1);
            ++k.values;
            extra = i != 1 && i != 2;
        } else if (lua_type(L, -1) == LUA_TSTRING && (strcmp(lua_tostring(L, -1), "x") == 0 ||
                                                     strcmp(lua_tostring(L, -1), "y") == 0)) {
            ++k.named;
        } else {
            extra = true;
        }
        if (extra && k.other++ == 0) lua_pushvalue(L, -1); // the first stays below the walk's key
    }
    return k;
}

void steer_laux_point(lua_State *L, steer_laux_where w, int vidx, float *x, float *y)
{
    static const char shape[] = "must be a point {x, y} or {x = x, y = y}";
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TTABLE) steer_laux_error(L, w, "must be a point {x, y}", vidx);
    // exactly two numbers: a third value (a height, a mistake) would be
    // dropped without a word
    point_keys k = count_point_keys(L, vidx);
    if (k.values > 0 && k.named > 0) steer_laux_error_plain(L, w, "must be a point {x, y} or {x = x, y = y}, not both");
    if (k.values > 2) {
        const char *got = lua_pushfstring(L, "must be a point {x, y} of two numbers, got %d values", k.values);
        steer_laux_error_plain(L, w, got);
    }
    if (k.other > 0) {
        const char *got = lua_type(L, -1) == LUA_TSTRING
                              ? lua_pushfstring(L, "%s, got an extra field '%s'", shape, lua_tostring(L, -1))
                              : lua_pushfstring(L, "%s, got an extra key [%s]", shape, steer_laux_describe(L, -1));
        steer_laux_error_plain(L, w, got);
    }
    if (k.named > 0 || k.values == 0) { // {x = , y = } (or a table whose __index gives them)
        lua_getfield(L, vidx, "x");
        lua_getfield(L, vidx, "y");
    } else {
        lua_rawgeti(L, vidx, 1);
        lua_rawgeti(L, vidx, 2);
    }
    if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TNUMBER) {
        if (k.values == 0 && k.named == 0 && lua_isnil(L, -2) && lua_isnil(L, -1))
            steer_laux_error_plain(L, w, "must be a point {x, y} or {x = x, y = y}, got an empty table");
        if (k.values > 0 && k.values < 2) {
            const char *got = lua_pushfstring(L, "must be a point {x, y} of two numbers, got %d value", k.values);
            steer_laux_error_plain(L, w, got);
        }
        const char *which = k.values > 0 ? (lua_type(L, -2) != LUA_TNUMBER ? "[1]" : "[2]")
                                         : (lua_type(L, -2) != LUA_TNUMBER ? "x" : "y");
        int bad = lua_type(L, -2) != LUA_TNUMBER ? -2 : -1;
        const char *what = steer_laux_describe(L, bad);
        steer_laux_error_plain(L, w, lua_pushfstring(L, "%s of two numbers, got %s at %s", shape, what, which));
    }
    double vx = lua_tonumber(L, -2), vy = lua_tonumber(L, -1);
    if (!isfinite(vx) || !isfinite(vy)) steer_laux_error_plain(L, w, "must be a point of finite numbers");
    if (fabs(vx) > STEER_MAX_FLOAT || fabs(vy) > STEER_MAX_FLOAT) {
        // finite, but an infinity as a float: worded as every number's limit
        char limit[32], phrase[96];
        snprintf(phrase, sizeof phrase, "must be a point of numbers at most %s in magnitude",
                 steer_format_limit(STEER_MAX_FLOAT, limit, sizeof limit));
        steer_laux_error(L, w, phrase, fabs(vx) > STEER_MAX_FLOAT ? -2 : -1);
    }
    *x = (float)vx;
    *y = (float)vy;
    lua_pop(L, 2);
}

double steer_laux_float_value(float value)
{
    if (!isfinite(value)) return (double)value;
    char buf[32];
    for (int digits = 6; digits <= 9; ++digits) {
        snprintf(buf, sizeof buf, "%.*g", digits, (double)value);
        if (strtof(buf, NULL) == value) return strtod(buf, NULL);
    }
    return (double)value;
}

void steer_laux_push_float(lua_State *L, float value) { lua_pushnumber(L, (lua_Number)steer_laux_float_value(value)); }

void steer_laux_new_class(lua_State *L, const char *tname, const luaL_Reg *metamethods)
{
    luaL_newmetatable(L, tname);
    luaL_setfuncs(L, metamethods, 0);
    // locked: getmetatable() from Lua gives the class name
    lua_pushstring(L, tname);
    lua_setfield(L, -2, "__metatable");
}
