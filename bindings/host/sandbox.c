// sandbox.c: what a script's code can reach. The Lua allocator with the
// memory cap, what the instruction budget counts besides Lua instructions
// (budget.c counts those), and the environments a
// version loads into: an allow-list (the default) or every library (trusted).
// Modelled on Lua 5.4's lbaselib.c `load` (text mode, the environment as the
// first upvalue) and lua.c's count hook that raises (`lstop`).
#define _GNU_SOURCE
#include "host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "steer/steer_lua.h"

// Steps of engine work (steer_lua_set_work_hook: a formation's assignment)
// charged as one instruction: on the build machine an optimal assignment of
// 1,000 members (1e9 steps) took 1.5 s, about what 16 steps a Lua
// instruction makes of it.
#define WORK_PER_INSTRUCTION 16.0

/* ---- memory ------------------------------------------------------------------ */

void *steer_host__alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    steer_host *h = ud;
    size_t old = ptr != NULL ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->bytes -= old;
        h->account.bytes -= old;
        return NULL;
    }
    // Lua requires that shrinking never fails: only growth is refused. The
    // cap holds for the Lua state and the engine memory the account holds
    if (nsize > old) {
        if (h->def.alloc_fail != NULL && h->def.alloc_fail(h->def.alloc_fail_context, nsize)) return NULL;
        if (h->def.memory_cap != 0 && h->account.bytes - old + nsize > h->def.memory_cap) return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    h->bytes = h->bytes - old + nsize;
    h->account.bytes = h->account.bytes - old + nsize;
    return p;
}

// An engine allocation a script causes would take the script's memory past
// memory_cap (the account): collect its Lua garbage (and so the engine
// memory of unreachable paths, behaviours and worlds) and try again, as Lua
// does before it refuses an allocation of its own. Whether an allocation
// fits then depends on what the script holds, not on how far the collector
// had got, which a replay of the recording (its allocations differ) does
// not repeat: a spawn refused while recording succeeded in the replay.
void steer_host__reclaim(steer_memory_account *account, size_t needed, void *context)
{
    (void)account, (void)needed;
    steer_host *h = context;
    if (h->L != NULL) lua_gc(h->L, LUA_GCCOLLECT, 0); // (the sandbox allows no __gc: C finalisers only)
}

/* ---- instruction budget ----------------------------------------------------------- */

// The work hook (steer_lua_set_work_hook): engine work a script causes
// (a formation's assignment, O(n^3)) counts against the callback's budget,
// refused before it starts when it would exceed it.
static int work_hook(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    double units = luaL_checknumber(L, 1);
    if (h->scope == NULL || h->def.instruction_budget <= 0) return 0;
    double cost = units / WORK_PER_INSTRUCTION;
    double left = (double)(h->def.instruction_budget - h->used);
    if (cost > left) {
        h->used = h->def.instruction_budget + 1;
        // level 2: the Lua code that called the steer function (level 1)
        return steer_host__budget_exceeded(L, h, 2, lua_pushfstring(L, "; a formation's assignment here would take %I more",
                                                          (LUAI_UACINT)cost));
    }
    h->used += (int64_t)cost;
    return 0;
}

/* ---- a call into Lua ----------------------------------------------------------------------- */

steer_memory_account *steer_host__call_begin(steer_host *host)
{
    // what the engine allocates meanwhile is the script's: under the cap
    host->account.refused = false;
    return steer_set_memory_account(&host->account);
}

void steer_host__call_end(steer_host *host, int status, steer_memory_account *was)
{
    steer_set_memory_account(was);
    steer_host__interrupt_end(host);
    if (status == LUA_OK) return;
    lua_State *L = host->L;
    steer_host__set_error(host, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL);
    if (host->account.refused) {
        // an engine allocation hit the cap: say so (the bindings say "not
        // enough memory")
        size_t n = strlen(host->error);
        snprintf(host->error + n, sizeof host->error - n,
                 " (the script's memory, Lua and engine together, reached memory_cap: %zu bytes)",
                 host->def.memory_cap);
    }
}

/* ---- interrupts ---------------------------------------------------------------------------- */

// Installed by steer_host_interrupt (from a signal handler: lua_sethook may
// be called asynchronously, as lua.c's Ctrl-C handler does): raises at every
// instruction until the call into the host ends.
static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    steer_host__check_interrupt(L, steer_host__of(L));
}

void steer_host_interrupt(steer_host *host)
{
    host->interrupted = 1;
    if (host->L != NULL) lua_sethook(host->L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void steer_host__check_interrupt(lua_State *L, steer_host *host)
{
    if (host->interrupted) luaL_error(L, "interrupted");
}

void steer_host__interrupt_end(steer_host *host)
{
    if (!host->interrupted) return;
    host->interrupted = 0;
    if (host->def.instruction_budget > 0 && host->def.budget_mode == STEER_HOST_BUDGET_EXACT)
        steer_host__budget_arm(host->L);
    else
        lua_sethook(host->L, NULL, 0, 0);
}

/* ---- functions of the environments ------------------------------------------------------ */

// print(...): one line to the host's log, arguments separated by tabs.
static int host_print(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; ++i) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    steer_host__log(steer_host__of(L), STEER_HOST_LOG_PRINT, "%s", lua_tostring(L, -1));
    return 0;
}

// A path under the script root from a relative name; raises when the name
// could leave the root.
static const char *root_path(lua_State *L, const char *rel, const char *what)
{
    steer_host *h = steer_host__of(L);
    bool ok = rel[0] != '\0' && rel[0] != '/';
    for (const char *p = rel; ok && *p != '\0'; ++p) {
        char c = *p;
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
             c == '-' || c == '.' || c == '/';
        // no "..", no hidden files, no empty components
        if (c == '.' && (p == rel || p[-1] == '/')) ok = false;
        if (c == '/' && p[1] == '/') ok = false;
    }
    if (!ok) luaL_error(L, "%s: '%s' is not a path under the script root", what, rel);
    return lua_pushfstring(L, "%s/%s", h->root, rel);
}

// The name errors show for a file: its path under the script root when it
// is there (Lua cuts long chunk names to 60 characters).
static const char *display_name(lua_State *L, const char *path)
{
    steer_host *h = steer_host__of(L);
    size_t rl = strlen(h->root);
    if (strcmp(h->root, ".") != 0 && strncmp(path, h->root, rl) == 0 && path[rl] == '/') path += rl + 1;
    return lua_pushfstring(L, "@%s", path);
}

// luaL_loadfilex in text mode with the display name; the text is read
// through Lua's allocator (so it counts against the memory cap) and through
// the recording when there is one.
static int load_text_file(lua_State *L, const char *path)
{
    const char *name = display_name(L, path);
    if (!steer_host__read_file(L, path, name + 1)) {
        // the script itself by its path as the embedder gave it (the name
        // under the root hides where the host looked); a file the script
        // names, as the script named it
        bool script = strcmp(path, steer_host__of(L)->path) == 0;
        lua_pushfstring(L, "cannot open %s", script ? path : name + 1);
        lua_remove(L, -2);
        return LUA_ERRFILE;
    }
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    int status = luaL_loadbufferx(L, text, len, name, "t");
    lua_remove(L, -2);
    lua_remove(L, -2);
    return status;
}

void steer_host__load_file(lua_State *L, const char *path, int env_idx)
{
    env_idx = lua_absindex(L, env_idx);
    steer_host__watch_remember(L, path);
    if (load_text_file(L, path) != LUA_OK) lua_error(L);
    lua_pushvalue(L, env_idx);
    lua_setupvalue(L, -2, 1);
}

// What load and loadfile return: the function with env as its first
// upvalue, or fail and the message (as lbaselib.c's load_aux).
static int load_result(lua_State *L, int status, int env)
{
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushvalue(L, env);
    if (lua_setupvalue(L, -2, 1) == NULL) lua_pop(L, 1);
    return 1;
}

// load(chunk [, chunkname [, mode [, env]]]): text chunks only, the
// version's environment unless env is given.
static int sb_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    if (s == NULL) return luaL_error(L, "load: only string chunks are allowed in the sandbox");
    const char *name = luaL_optstring(L, 2, s);
    int env = lua_gettop(L) >= 4 ? 4 : lua_upvalueindex(1);
    return load_result(L, luaL_loadbufferx(L, s, len, name, "t"), env);
}

// loadfile(path [, mode [, env]]): files under the script root, text only.
static int sb_loadfile(lua_State *L)
{
    int env = lua_gettop(L) >= 3 ? 3 : lua_upvalueindex(1);
    const char *path = root_path(L, luaL_checkstring(L, 1), "loadfile");
    return load_result(L, load_text_file(L, path), env);
}

// dofile(path): loadfile, then call; errors propagate.
static int sb_dofile(lua_State *L)
{
    lua_settop(L, 1);
    const char *path = root_path(L, luaL_checkstring(L, 1), "dofile");
    if (load_text_file(L, path) != LUA_OK) return lua_error(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setupvalue(L, -2, 1);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 2;
}

// require(name): "steer", or a Lua file under the script root (name.lua,
// dots as directories), loaded into this version's environment and part of
// the version for reload. Trusted scripts fall back to the standard require.
// Upvalues: the environment, this version's loaded modules, the standard
// require (trusted) or nil.
static int host_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    // "steer" is in there from the start: this version's view of the module
    if (lua_getfield(L, lua_upvalueindex(2), name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    bool plain = name[0] != '\0';
    for (const char *p = name; *p != '\0'; ++p) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              (c == '.' && p != name && p[1] != '.' && p[1] != '\0')))
            plain = false;
    }
    if (plain) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addgsub(&b, name, ".", "/");
        luaL_addstring(&b, ".lua");
        luaL_pushresult(&b); // 2: relative path
        const char *path = lua_pushfstring(L, "%s/%s", steer_host__of(L)->root, lua_tostring(L, 2)); // 3
        // a module that cannot be opened is looked for elsewhere (trusted) or
        // reported as not found; the read is part of a recording either way
        const char *chunk = display_name(L, path); // 4
        if (steer_host__read_file(L, path, chunk + 1)) { // 5: the text
            steer_host__watch_remember(L, path);
            size_t len;
            const char *text = lua_tolstring(L, 5, &len);
            if (luaL_loadbufferx(L, text, len, chunk, "t") != LUA_OK) return lua_error(L);
            lua_replace(L, 4); // 4: the chunk
            lua_settop(L, 4);
            lua_pushvalue(L, lua_upvalueindex(1));
            lua_setupvalue(L, 4, 1);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, 3);
            lua_call(L, 2, 1);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                lua_pushboolean(L, 1);
            }
            lua_pushvalue(L, -1);
            lua_setfield(L, lua_upvalueindex(2), name);
            return 1;
        }
    }
    if (lua_isfunction(L, lua_upvalueindex(3))) {
        lua_pushvalue(L, lua_upvalueindex(3));
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        return 1;
    }
    return luaL_error(L, "module '%s' not found under the script root (C modules and files elsewhere are not allowed)",
                      name);
}

// collectgarbage("count"): the only option in the sandbox.
static int sb_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0)
        return luaL_error(L, "collectgarbage: only \"count\" is allowed in the sandbox, got \"%s\"", opt);
    int k = lua_gc(L, LUA_GCCOUNT, 0);
    int b = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, (lua_Number)k + ((lua_Number)b / 1024));
    return 1;
}

// A trusted script's finaliser (upvalue 1), run by the host's __gc in a
// coroutine of its own: Lua 5.4 calls no hook inside a finaliser, but a
// coroutine it resumes has hooks again, so the callback's budget (or the
// budget of closing the state) stops a finaliser that loops. Its error goes
// where any finaliser's goes (Lua 5.4 makes it a warning); the callback it
// ran in raises at its next instruction.
static int gc_guard(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 2);
    lua_State *was = steer_host__watchdog_enter(h, co);
    int nres = 0;
    int status = lua_resume(co, L, 1, &nres);
    steer_host__watchdog_enter(h, was);
    if (status == LUA_OK || status == LUA_YIELD) return 0;
    lua_xmove(co, L, 1);
    return lua_error(L);
}

// setmetatable(t, mt) of trusted hosts: a __gc function in mt is replaced
// by the host's guard around it (upvalue 1: Lua's setmetatable).
static int trusted_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) == LUA_TFUNCTION && lua_tocfunction(L, -1) != gc_guard) {
            lua_pushcclosure(L, gc_guard, 1);
            steer_host__raw_set_field(L, 2, "__gc");
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// setmetatable(t, mt): refuses metatables with __gc (a finaliser runs
// outside any callback's budget).
static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "setmetatable: __gc is not allowed in the sandbox");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* ---- read-only views ------------------------------------------------------------------ */

// A table a version reads through a view: writes raise, so nothing one
// version stashes there reaches the next (rawset changes only its own view).
static int view_newindex(lua_State *L)
{
    return luaL_error(L, "attempt to set field '%s' of the read-only %s table", luaL_tolstring(L, 2, NULL),
                      lua_tostring(L, lua_upvalueindex(1)));
}

// next over the table behind a view (what pairs(view) iterates).
static int view_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1) != 0) return 2;
    lua_pushnil(L);
    return 1;
}

// pairs(view): the fields of the table behind it (upvalue 1).
static int view_pairs(lua_State *L)
{
    lua_pushcfunction(L, view_next);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushnil(L);
    return 3;
}

// Push a new read-only view of the table at idx, named name in errors.
static void push_view(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, view_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, idx);
    lua_pushcclosure(L, view_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

/* ---- opening --------------------------------------------------------------------------- */

static const luaL_Reg sandbox_libs[] = {
    {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
    {LUA_MATHLIBNAME, luaopen_math}, {LUA_COLIBNAME, luaopen_coroutine}, {LUA_UTF8LIBNAME, luaopen_utf8},
    {LUA_OSLIBNAME, luaopen_os},     {LUA_DBLIBNAME, luaopen_debug},   {NULL, NULL},
};

int steer_host__open_libs(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    if (h->def.trusted) {
        luaL_openlibs(L);
        lua_getglobal(L, "setmetatable");
        lua_pushcclosure(L, trusted_setmetatable, 1);
        lua_setglobal(L, "setmetatable");
    } else {
        // os and debug are opened only to copy os.clock/time/date and
        // debug.traceback into environments; nothing else reaches them
        for (const luaL_Reg *lib = sandbox_libs; lib->func != NULL; ++lib) {
            luaL_requiref(L, lib->name, lib->func, 1);
            lua_pop(L, 1);
        }
        // (find, match, gmatch and gsub: the host puts match.c's in, whose
        // steps the budget counts)
        lua_getglobal(L, LUA_STRLIBNAME);
        lua_pushnil(L);
        lua_setfield(L, -2, "dump");
        lua_pop(L, 1);
        // getmetatable("") returns false; the metatable itself stays out of reach
        lua_pushliteral(L, "");
        lua_getmetatable(L, -1);
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 2);
    }
    // before any environment copies them
    steer_host__wrap_outside(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->table_ref);
    luaL_requiref(L, "steer", luaopen_steer, 0);
    lua_setfield(L, -2, HOST_F_STEER);
    lua_pop(L, 1);
    steer_host__watchdog_open(L);
    if (h->def.instruction_budget > 0 && h->def.budget_mode == STEER_HOST_BUDGET_EXACT) steer_host__budget_arm(L);
    lua_pushcfunction(L, work_hook);
    steer_lua_set_work_hook(L, -1);
    lua_pop(L, 1);
    return 0;
}

// env[name] = t[name] for each name (t at -1).
static void copy_fields(lua_State *L, int env, const char *const *names)
{
    for (; *names != NULL; ++names) {
        lua_getfield(L, -1, *names);
        lua_setfield(L, env, *names);
    }
}

// A shallow copy of the global library `name` into env[name].
static void copy_lib(lua_State *L, int env, const char *name)
{
    lua_getglobal(L, name);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_setfield(L, env, name);
    lua_pop(L, 1);
}

void steer_host__push_env(lua_State *L, steer_host *host)
{
    lua_newtable(L);
    int env = lua_gettop(L);
    if (host->def.trusted) {
        lua_newtable(L);
        lua_pushglobaltable(L);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, env);
    } else {
        static const char *const base[] = {"assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall",
                                           "rawequal", "rawget", "rawlen", "rawset", "select", "tonumber",
                                           "tostring", "type", "xpcall", "_VERSION", NULL};
        lua_pushglobaltable(L);
        copy_fields(L, env, base);
        lua_pop(L, 1);
        lua_pushvalue(L, env);
        lua_setfield(L, env, "_G");
        static const char *const libs[] = {LUA_MATHLIBNAME, LUA_TABLIBNAME, LUA_COLIBNAME, LUA_UTF8LIBNAME};
        for (int i = 0; i < 4; ++i) copy_lib(L, env, libs[i]);
        // one string table (the string metatable's __index must be it),
        // seen through a view: a stash there would outlive the version
        lua_getglobal(L, LUA_STRLIBNAME);
        push_view(L, -1, LUA_STRLIBNAME);
        lua_setfield(L, env, LUA_STRLIBNAME);
        lua_pop(L, 1);
        static const char *const os_names[] = {"clock", "time", "date", NULL};
        static const char *const debug_names[] = {"traceback", NULL};
        lua_newtable(L);
        lua_getglobal(L, LUA_OSLIBNAME);
        copy_fields(L, lua_gettop(L) - 1, os_names);
        lua_pop(L, 1);
        lua_setfield(L, env, LUA_OSLIBNAME);
        lua_newtable(L);
        lua_getglobal(L, LUA_DBLIBNAME);
        copy_fields(L, lua_gettop(L) - 1, debug_names);
        lua_pop(L, 1);
        lua_setfield(L, env, LUA_DBLIBNAME);
        lua_pushcfunction(L, sb_setmetatable);
        lua_setfield(L, env, "setmetatable");
        lua_pushcfunction(L, sb_collectgarbage);
        lua_setfield(L, env, "collectgarbage");
        static const luaL_Reg with_env[] = {{"load", sb_load}, {"loadfile", sb_loadfile}, {"dofile", sb_dofile},
                                            {NULL, NULL}};
        for (const luaL_Reg *r = with_env; r->name != NULL; ++r) {
            lua_pushvalue(L, env);
            lua_pushcclosure(L, r->func, 1);
            lua_setfield(L, env, r->name);
        }
    }
    lua_pushcfunction(L, host_print);
    lua_setfield(L, env, "print");
    lua_pushcfunction(L, steer_host__camera);
    lua_setfield(L, env, "camera");
    // the version's own read-only view of the module, also what
    // require "steer" gives it
    steer_host__push_field(L, steer_host__of(L), HOST_F_STEER);
    push_view(L, -1, "steer");
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, env, "steer");
    lua_pushvalue(L, env);
    lua_newtable(L);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "steer");
    lua_remove(L, -3);
    if (host->def.trusted)
        lua_getglobal(L, "require");
    else
        lua_pushnil(L);
    lua_pushcclosure(L, host_require, 3);
    lua_setfield(L, env, "require");
}
