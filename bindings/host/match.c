// match.c: string.find, match, gmatch and gsub for the sandbox. Lua 5.4's
// patterns as the reference manual describes them (section 6.4.1: classes,
// sets, the four repetitions, captures and position captures, %1-%9, %b,
// %f, the anchors), matched by a backtracking matcher of our own whose
// every step counts as an instruction of the callback's budget: a pattern
// that backtracks without end ("a*a*a*...b" on a long run of a's) is stopped
// with the budget's error, as a Lua loop is. Trusted hosts keep Lua's own.
#define _GNU_SOURCE // memmem
#include "host_internal.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

// Nesting of the matcher's recursion ("pattern too complex" beyond): bounds
// the C stack whatever the pattern.
#define MATCH_MAX_DEPTH 200
// Captures a pattern may have (as Lua's).
#define MATCH_MAX_CAPTURES 32
// Steps between two charges to the budget.
#define MATCH_CHARGE_EVERY 1024
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define ESC '%'
#define SPECIALS "^$*+?.([%-"

typedef struct mcapture {
    const char *init;
    ptrdiff_t len; ///< or CAP_UNFINISHED, CAP_POSITION
} mcapture;

typedef struct mstate {
    lua_State *L;
    steer_host *h;
    const char *s, *s_end; ///< the subject
    const char *p_end;     ///< the end of the pattern
    int depth;             ///< recursion now
    int level;             ///< captures open or closed
    int steps;             ///< steps since the last charge
    mcapture cap[MATCH_MAX_CAPTURES];
} mstate;

static inline int uchar(char c) { return (unsigned char)c; }

/* ---- the budget ------------------------------------------------------------------------ */

// Add the steps taken to the callback's instructions; raises past the
// budget (naming the Lua code that called the string function).
static void charge(mstate *ms)
{
    steer_host *h = ms->h;
    int n = ms->steps;
    ms->steps = 0;
    steer_host__check_interrupt(ms->L, h);
    if (h->scope == NULL || h->def.instruction_budget <= 0) return;
    h->used += n;
    if (h->used > h->def.instruction_budget)
        steer_host__budget_exceeded(ms->L, h, 1, "; each step of the pattern matcher counts as one");
}

static inline void step(mstate *ms)
{
    if (++ms->steps >= MATCH_CHARGE_EVERY) charge(ms);
}

/* ---- single characters ------------------------------------------------------------------ */

// c against a class letter cl (%a, %D, ...); any other letter stands for itself.
static bool class_match(int c, int cl)
{
    bool r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c) != 0; break;
    case 'c': r = iscntrl(c) != 0; break;
    case 'd': r = isdigit(c) != 0; break;
    case 'g': r = isgraph(c) != 0; break;
    case 'l': r = islower(c) != 0; break;
    case 'p': r = ispunct(c) != 0; break;
    case 's': r = isspace(c) != 0; break;
    case 'u': r = isupper(c) != 0; break;
    case 'w': r = isalnum(c) != 0; break;
    case 'x': r = isxdigit(c) != 0; break;
    default: return cl == c;
    }
    return isupper(cl) ? !r : r;
}

// c against the set [ ... ] from p (its '[') to close (its ']').
static bool set_match(int c, const char *p, const char *close)
{
    bool negate = p[1] == '^';
    p += negate ? 2 : 1;
    while (p < close) {
        if (*p == ESC && p + 1 < close) {
            if (class_match(c, uchar(p[1]))) return !negate;
            p += 2;
        } else if (p[1] == '-' && p + 2 < close) {
            if (uchar(p[0]) <= c && c <= uchar(p[2])) return !negate;
            p += 3;
        } else {
            if (uchar(*p) == c) return !negate;
            p += 1;
        }
    }
    return negate;
}

// The end of the single-character class at p (., %x, [set] or a character).
static const char *class_end(mstate *ms, const char *p)
{
    char c = *p++;
    if (c == ESC) {
        if (p >= ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (*p == '^') ++p;
        // the first character of a set is itself, even ']'
        do {
            if (p >= ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == ESC && p < ms->p_end) ++p;
        } while (p >= ms->p_end || *p != ']');
        return p + 1;
    }
    return p;
}

// Does the subject character at s match the class from p to ep?
static bool single_match(const mstate *ms, const char *s, const char *p, const char *ep)
{
    if (s >= ms->s_end) return false;
    int c = uchar(*s);
    switch (*p) {
    case '.': return true;
    case ESC: return class_match(c, uchar(p[1]));
    case '[': return set_match(c, p, ep - 1);
    default: return uchar(*p) == c;
    }
}

/* ---- the matcher ------------------------------------------------------------------------- */

static const char *do_match(mstate *ms, const char *s, const char *p);

// x* (greedy): as many as match, then fewer until the rest matches.
static const char *max_expand(mstate *ms, const char *s, const char *p, const char *ep)
{
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        step(ms);
        ++i;
    }
    for (; i >= 0; --i) {
        const char *r = do_match(ms, s + i, ep + 1);
        if (r != NULL) return r;
    }
    return NULL;
}

// x- (lazy): as few as let the rest match.
static const char *min_expand(mstate *ms, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *r = do_match(ms, s, ep + 1);
        if (r != NULL) return r;
        if (!single_match(ms, s, p, ep)) return NULL;
        ++s;
    }
}

static const char *start_capture(mstate *ms, const char *s, const char *p, ptrdiff_t what)
{
    if (ms->level >= MATCH_MAX_CAPTURES) luaL_error(ms->L, "too many captures");
    ms->cap[ms->level].init = s;
    ms->cap[ms->level].len = what;
    ++ms->level;
    const char *r = do_match(ms, s, p);
    if (r == NULL) --ms->level;
    return r;
}

static const char *end_capture(mstate *ms, const char *s, const char *p)
{
    int open = ms->level - 1;
    while (open >= 0 && ms->cap[open].len != CAP_UNFINISHED) --open;
    if (open < 0) luaL_error(ms->L, "invalid pattern capture");
    ms->cap[open].len = s - ms->cap[open].init;
    const char *r = do_match(ms, s, p);
    if (r == NULL) ms->cap[open].len = CAP_UNFINISHED;
    return r;
}

// %bxy: a balanced run from x to its y.
static const char *match_balance(mstate *ms, const char *s, const char *p)
{
    if (p + 1 >= ms->p_end) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->s_end || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    int depth = 1;
    while (++s < ms->s_end) {
        step(ms);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            ++depth;
        }
    }
    return NULL;
}

// %1-%9: the text of a closed capture again.
static const char *match_capture(mstate *ms, const char *s, int digit)
{
    int i = digit - '1';
    if (i < 0 || i >= ms->level || ms->cap[i].len == CAP_UNFINISHED)
        luaL_error(ms->L, "invalid capture index %%%d", i + 1);
    ptrdiff_t len = ms->cap[i].len;
    if (len < 0) return NULL; // a position capture matches no text
    if (ms->s_end - s >= len && memcmp(ms->cap[i].init, s, (size_t)len) == 0) return s + len;
    return NULL;
}

// The end of a match of the pattern at p from s, or NULL.
static const char *do_match(mstate *ms, const char *s, const char *p)
{
    if (++ms->depth > MATCH_MAX_DEPTH) luaL_error(ms->L, "pattern too complex");
    const char *r = NULL;
    for (;;) {
        step(ms);
        if (p >= ms->p_end) {
            r = s;
            break;
        }
        if (*p == '(') {
            r = p[1] == ')' ? start_capture(ms, s, p + 2, CAP_POSITION) : start_capture(ms, s, p + 1, CAP_UNFINISHED);
            break;
        }
        if (*p == ')') {
            r = end_capture(ms, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == ms->p_end) {
            r = s == ms->s_end ? s : NULL;
            break;
        }
        if (*p == ESC && p[1] == 'b') {
            s = match_balance(ms, s, p + 2);
            if (s == NULL) break;
            p += 4;
            continue;
        }
        if (*p == ESC && p[1] == 'f') {
            p += 2;
            if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
            const char *ep = class_end(ms, p);
            int before = s == ms->s ? '\0' : uchar(s[-1]);
            int here = s < ms->s_end ? uchar(*s) : '\0';
            if (set_match(before, p, ep - 1) || !set_match(here, p, ep - 1)) break;
            p = ep;
            continue;
        }
        if (*p == ESC && isdigit(uchar(p[1]))) {
            s = match_capture(ms, s, uchar(p[1]));
            if (s == NULL) break;
            p += 2;
            continue;
        }
        // a single-character class, maybe repeated
        const char *ep = class_end(ms, p);
        if (!single_match(ms, s, p, ep)) {
            if (*ep == '*' || *ep == '?' || *ep == '-') { // zero of them will do
                p = ep + 1;
                continue;
            }
            break;
        }
        if (*ep == '?') {
            r = do_match(ms, s + 1, ep + 1);
            if (r != NULL) break;
            p = ep + 1;
            continue;
        }
        if (*ep == '+') {
            r = max_expand(ms, s + 1, p, ep);
            break;
        }
        if (*ep == '*') {
            r = max_expand(ms, s, p, ep);
            break;
        }
        if (*ep == '-') {
            r = min_expand(ms, s, p, ep);
            break;
        }
        ++s;
        p = ep;
    }
    --ms->depth;
    return r;
}

/* ---- captures --------------------------------------------------------------------------- */

// Push capture i (the whole match s..e when there are none and i is 0).
static void push_capture(mstate *ms, int i, const char *s, const char *e)
{
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(ms->L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t len = ms->cap[i].len;
    if (len == CAP_UNFINISHED) luaL_error(ms->L, "unfinished capture");
    if (len == CAP_POSITION)
        lua_pushinteger(ms->L, (lua_Integer)(ms->cap[i].init - ms->s) + 1);
    else
        lua_pushlstring(ms->L, ms->cap[i].init, (size_t)len);
}

// Push every capture (or the whole match when s is given and there are
// none); returns how many.
static int push_captures(mstate *ms, const char *s, const char *e)
{
    int n = ms->level == 0 && s != NULL ? 1 : ms->level;
    luaL_checkstack(ms->L, n, "too many captures");
    for (int i = 0; i < n; ++i) push_capture(ms, i, s, e);
    return n;
}

static void prepare(mstate *ms, lua_State *L, const char *s, size_t ls, const char *p, size_t lp)
{
    ms->L = L;
    ms->h = steer_host__of(L);
    ms->s = s;
    ms->s_end = s + ls;
    ms->p_end = p + lp;
    ms->depth = 0;
    ms->level = 0;
    ms->steps = 0;
}

// A start position as string.find takes it (negative: from the end).
static size_t start_position(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos;
    if (pos == 0 || pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static bool has_specials(const char *p, size_t lp)
{
    for (size_t i = 0; i < lp; ++i)
        if (p[i] != '\0' && strchr(SPECIALS, p[i]) != NULL) return true;
    return false;
}

/* ---- the string functions ------------------------------------------------------------------ */

static int find_or_match(lua_State *L, bool find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *at = memmem(s + init, ls - init, p, lp);
        if (at != NULL) {
            lua_pushinteger(L, (lua_Integer)(at - s) + 1);
            lua_pushinteger(L, (lua_Integer)(at - s) + (lua_Integer)lp);
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    mstate ms;
    bool anchor = *p == '^';
    if (anchor) ++p, --lp;
    prepare(&ms, L, s, ls, p, lp);
    const char *from = s + init;
    do {
        ms.level = 0;
        ms.depth = 0;
        const char *e = do_match(&ms, from, p);
        if (e != NULL) {
            charge(&ms);
            if (!find) return push_captures(&ms, from, e);
            lua_pushinteger(L, (lua_Integer)(from - s) + 1);
            lua_pushinteger(L, (lua_Integer)(e - s));
            return push_captures(&ms, NULL, NULL) + 2;
        }
    } while (from++ < ms.s_end && !anchor);
    charge(&ms);
    luaL_pushfail(L);
    return 1;
}

static int sb_find(lua_State *L) { return find_or_match(L, true); }
static int sb_match(lua_State *L) { return find_or_match(L, false); }

// gmatch's state (upvalue 3; the subject and pattern are upvalues 1 and 2,
// which keep the pointers valid).
typedef struct gmatch_state {
    mstate ms;
    const char *next;      ///< where the next search starts
    const char *lastmatch; ///< end of the last match (an empty match there is skipped)
    const char *p;
} gmatch_state;

static int gmatch_next(lua_State *L)
{
    gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
    g->ms.L = L;
    for (const char *from = g->next; from <= g->ms.s_end; ++from) {
        g->ms.level = 0;
        g->ms.depth = 0;
        const char *e = do_match(&g->ms, from, g->p);
        if (e != NULL && e != g->lastmatch) {
            g->next = g->lastmatch = e;
            charge(&g->ms);
            return push_captures(&g->ms, from, e);
        }
    }
    g->next = g->ms.s_end + 1;
    charge(&g->ms);
    return 0;
}

// gmatch(s, pattern [, init]): '^' is not an anchor here (as in Lua 5.4).
static int sb_gmatch(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) init = ls + 1; // no match at all
    lua_settop(L, 2);
    gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
    prepare(&g->ms, L, s, ls, p, lp);
    g->next = s + init;
    g->lastmatch = NULL;
    g->p = p;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

// The replacement string (argument 3) for the match s..e: %0-%9 and %%.
static void add_string(mstate *ms, luaL_Buffer *b, const char *s, const char *e)
{
    lua_State *L = ms->L;
    size_t l;
    const char *r = lua_tolstring(L, 3, &l);
    for (const char *q = r; q < r + l; ++q) {
        step(ms);
        if (*q != ESC) {
            luaL_addchar(b, *q);
            continue;
        }
        ++q; // the character after '%' (the terminating zero at the end)
        if (*q == ESC) {
            luaL_addchar(b, ESC);
        } else if (isdigit(uchar(*q))) {
            if (*q == '0') {
                luaL_addlstring(b, s, (size_t)(e - s));
            } else {
                push_capture(ms, *q - '1', s, e);
                luaL_tolstring(L, -1, NULL);
                lua_remove(L, -2);
                luaL_addvalue(b);
            }
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESC);
        }
    }
}

// Add the replacement of the match s..e; false when the match stays as it was.
static bool add_value(mstate *ms, luaL_Buffer *b, const char *s, const char *e, int repl_type)
{
    lua_State *L = ms->L;
    if (repl_type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
    } else if (repl_type == LUA_TTABLE) {
        push_capture(ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_string(ms, b, s, e);
        return true;
    }
    if (!lua_toboolean(L, -1)) { // nil or false: the match itself
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return false;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return true;
}

static int sb_gsub(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int repl_type = lua_type(L, 3);
    lua_Integer most = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L, repl_type == LUA_TNUMBER || repl_type == LUA_TSTRING || repl_type == LUA_TFUNCTION ||
                            repl_type == LUA_TTABLE,
                     3, "string/function/table");
    bool anchor = *p == '^';
    if (anchor) ++p, --lp;
    mstate ms;
    prepare(&ms, L, s, ls, p, lp);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *from = s, *lastmatch = NULL;
    lua_Integer count = 0;
    bool changed = false;
    while (count < most) {
        ms.level = 0;
        ms.depth = 0;
        const char *e = do_match(&ms, from, p);
        if (e != NULL && e != lastmatch) {
            ++count;
            changed = add_value(&ms, &b, from, e, repl_type) || changed;
            from = lastmatch = e;
        } else if (from < ms.s_end) {
            luaL_addchar(&b, *from++);
        } else {
            break;
        }
        if (anchor) break;
    }
    charge(&ms);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, from, (size_t)(ms.s_end - from));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, count);
    return 2;
}

void steer_host__open_matcher(lua_State *L, steer_host *host)
{
    static const luaL_Reg fns[] = {
        {"find", sb_find}, {"match", sb_match}, {"gmatch", sb_gmatch}, {"gsub", sb_gsub}, {NULL, NULL},
    };
    if (host->def.trusted) return; // Lua's own
    lua_getglobal(L, LUA_STRLIBNAME);
    for (const luaL_Reg *f = fns; f->name != NULL; ++f) {
        lua_pushcfunction(L, f->func);
        lua_setfield(L, -2, f->name);
    }
    lua_pop(L, 1);
}
