// host.c: the script host (steer/host.h). One Lua state, one world, one
// script; versions of the script load as transactions (prepare, then a
// commit that cannot fail half-way), and one place runs a frame (update,
// then step) and tells the tape about it. The module is reached only
// through steer/steer_lua.h.
#include "host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "steer/steer_lua.h"

static const char *const host_fields[] = {
    HOST_F_WORLD, HOST_F_SCRIPT, HOST_F_ENV, HOST_F_STEER, HOST_F_INPUT, HOST_F_FILES,
    "new_world", "new_script", "new_env", "plan", "removed", "old_colors", NULL,
};


/// What a load, reload or reset is doing (passed to the protected steps).
typedef struct txn {
    steer_host *h;
    bool fresh;            ///< load: a fresh world, no agents to carry over
    steer_world *world;    ///< replace_world: the new world
    const char *callback;  ///< run_callback: the script's field
    float dt;              ///< update and step
    const steer_host_input *input;
    bool undo;             ///< p_fresh: take back what it set
} txn;

steer_host_def steer_host_default_def(void)
{
    steer_host_def d;
    memset(&d, 0, sizeof d);
    d.trusted = false;
    d.memory_cap = (size_t)64 << 20;
    d.instruction_budget = 10000000;
    d.budget_mode = STEER_HOST_BUDGET_WATCHDOG;
    d.watchdog_slice_us = 50000;
    d.world = steer_default_world_def();
    d.watch = STEER_HOST_WATCH_NONE;
    d.debounce_ms = 100;
    return d;
}

// Errors of update and Lua behaviours: once per distinct message per
// simulated second.
static void report_frame_error(steer_host *h)
{
    uint64_t hash = 1469598103934665603u;
    for (const char *p = h->error; *p != '\0'; ++p) hash = (hash ^ (unsigned char)*p) * 1099511628211u;
    for (int i = 0; i < HOST_RECENT_ERRORS; ++i) {
        if (h->recent[i].hash == hash && h->sim_time - h->recent[i].time < 1.0) return;
    }
    h->recent[h->recent_next] = (host_recent){hash, h->sim_time};
    h->recent_next = (h->recent_next + 1) % HOST_RECENT_ERRORS;
    steer_host__log(h, STEER_HOST_LOG_ERROR, "%s", h->error);
}

// Message handler: strings as they are (they carry file:line).
static int message_handler(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING) return 1;
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    return 1;
}

// Run f(t) protected. On failure the message becomes last_error. Every use
// of the Lua state by the host goes through here, so running out of memory
// anywhere is an error, never a panic.
static int host_pcall(steer_host *h, lua_CFunction f, txn *t)
{
    lua_State *L = h->L;
    int top = lua_gettop(L);
    steer_memory_account *was = steer_host__call_begin(h);
    lua_pushcfunction(L, message_handler);
    lua_pushcfunction(L, f);
    lua_pushlightuserdata(L, t);
    int status = lua_pcall(L, 1, 0, top + 1);
    steer_host__call_end(h, status, was);
    lua_settop(L, top);
    steer_host__budget_end(h);
    return status;
}

/* ---- roles ---------------------------------------------------------------------- */

// The behaviour of a role for an agent: the role's value at vidx (a
// behaviour, or a function called with the agent at aidx). Pushes it.
static void resolve_role(lua_State *L, int vidx, int aidx, const char *name)
{
    vidx = lua_absindex(L, vidx);
    aidx = lua_absindex(L, aidx);
    if (lua_isfunction(L, vidx)) {
        lua_pushvalue(L, vidx);
        lua_pushvalue(L, aidx);
        lua_call(L, 1, 1);
        if (!steer_lua_isbehaviour(L, -1))
            luaL_error(L, "role '%s' must return a behaviour, got %s", name, luaL_typename(L, -1));
    } else {
        lua_pushvalue(L, vidx);
    }
}

// The spawn hook (steer_lua_set_spawn_hook) of world:spawn{role = name}
// without steering: (agent, role) -> the current version's behaviour for
// it and the role's colour (the version's colors table), or nothing. The
// world is frozen meanwhile: world:spawn sets the colour (unless the spawn
// gave one) and the behaviour.
static int role_hook(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (!lua_istable(L, -1)) return 0;
    if (steer_host__raw_field(L, -1, "roles") != LUA_TTABLE) return 0;
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) == LUA_TNIL) return 0;
    int role = lua_gettop(L);
    resolve_role(L, role, 1, lua_tostring(L, 2)); // role + 1
    if (steer_host__raw_field(L, role - 2, "colors") == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) == LUA_TSTRING) {
            lua_remove(L, -2);
            return 2; // the behaviour, the colour (validate checked it)
        }
    }
    lua_settop(L, role + 1);
    return 1;
}

// After a reload: agents whose colour is their role's colour in the version
// before (or none) take the role's colour in the new one (a colour the
// script gave an agent itself stays).
static int p_recolor(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    steer_host__push_field(L, h, "old_colors"); // 2
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (steer_host__raw_field(L, -1, "colors") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    lua_remove(L, -2);                           // 3: new colours
    steer_host__push_field(L, h, HOST_F_WORLD); // 4
    int n = steer_world_agent_count(h->world);
    for (int i = 0; i < n; ++i) {
        lua_settop(L, 4);
        steer_agent_id id = steer_world_agent_at(h->world, i);
        if (steer_lua_pushrole(L, 4, id) != LUA_TSTRING) continue; // 5
        uint32_t was = 0, now = 0;
        if (lua_istable(L, 2)) {
            lua_pushvalue(L, 5);
            lua_rawget(L, 2);
            if (!steer_lua_parse_color(lua_tostring(L, -1), &was)) was = 0;
        }
        lua_pushvalue(L, 5);
        lua_rawget(L, 3);
        if (!steer_lua_parse_color(lua_tostring(L, -1), &now)) now = 0;
        steer_color c = steer_agent_get_color(h->world, id);
        if (now != was && (c == 0 || c == was) && !steer_agent_set_color(h->world, id, now))
            luaL_error(L, "not enough memory for the agents' colours");
    }
    lua_pushboolean(L, 0);
    steer_host__set_field(L, h, "old_colors");
    return 0;
}

// A version's table at idx is usable: errors name the file.
static void validate(lua_State *L, steer_host *h, int idx)
{
    if (!lua_istable(L, idx)) luaL_error(L, "%s: a script must return a table with roles, setup or update, got %s"
        " (a plain Lua program runs under lua5.4 or steer-lua)", h->name, luaL_typename(L, idx));
    int found = 0;
    static const char *const fns[] = {"setup", "update", "on_reload"};
    for (int i = 0; i < 3; ++i) {
        int t = steer_host__raw_field(L, idx, fns[i]);
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            luaL_error(L, "%s: field '%s' must be a function, got %s", h->name, fns[i], lua_typename(L, t));
        found += t != LUA_TNIL && i < 2;
        lua_pop(L, 1);
    }
    int t = steer_host__raw_field(L, idx, "roles");
    if (t != LUA_TNIL && t != LUA_TTABLE)
        luaL_error(L, "%s: field 'roles' must be a table, got %s", h->name, lua_typename(L, t));
    if (t == LUA_TTABLE) {
        ++found;
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            if (lua_type(L, -2) != LUA_TSTRING)
                luaL_error(L, "%s: roles must be named by strings, got %s", h->name, luaL_typename(L, -2));
            if (!lua_isfunction(L, -1) && !steer_lua_isbehaviour(L, -1))
                luaL_error(L, "%s: role '%s' must be a behaviour or a function returning one, got %s", h->name,
                           lua_tostring(L, -2), luaL_typename(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    t = steer_host__raw_field(L, idx, "colors");
    if (t != LUA_TNIL && t != LUA_TTABLE)
        luaL_error(L, "%s: field 'colors' must be a table of role = '#rrggbb', got %s", h->name, lua_typename(L, t));
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            uint32_t c;
            if (lua_type(L, -2) != LUA_TSTRING)
                luaL_error(L, "%s: colors must be named by roles (strings), got %s", h->name, luaL_typename(L, -2));
            if (lua_type(L, -1) != LUA_TSTRING || !steer_lua_parse_color(lua_tostring(L, -1), &c))
                luaL_error(L, "%s: colors.%s must be a colour '#rrggbb', got %s", h->name, lua_tostring(L, -2),
                           lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (found == 0) luaL_error(L, "%s: a script must return a table with roles, setup or update", h->name);
}

/* ---- the transaction ------------------------------------------------------------ */

// Prepare: run the new version in a fresh environment and work out every
// agent's new behaviour, changing nothing the running version uses.
static int p_prepare(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    steer_host__watch_begin_version(L, h);
    steer_host__push_env(L, h); // 2
    steer_host__budget_begin(h, "loading");
    steer_host__load_file(L, h->path, 2);
    lua_call(L, 0, 1); // 3
    validate(L, h, 3);
    steer_host__budget_end(h);
    lua_pushvalue(L, 3);
    steer_host__set_field(L, h, "new_script");
    lua_pushvalue(L, 2);
    steer_host__set_field(L, h, "new_env");
    if (t->fresh) return 0;
    lua_newtable(L);                   // 4: plan: triples agent, behaviour, fresh (had none)
    lua_newtable(L);                   // 5: removed roles, agent count by name
    steer_host__push_field(L, h, HOST_F_WORLD); // 6
    steer_host__raw_field(L, 3, "roles");          // 7: new roles (or nil)
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (lua_istable(L, -1)) steer_host__raw_field(L, -1, "roles"); else lua_pushnil(L);
    lua_remove(L, -2);                 // 8: old roles (or nil)
    // ids first: a role function may spawn, which reorders storage
    int n = steer_world_agent_count(h->world);
    steer_agent_id *ids = lua_newuserdatauv(L, (size_t)n * sizeof *ids, 0); // 9
    for (int i = 0; i < n; ++i) ids[i] = steer_world_agent_at(h->world, i);
    lua_Integer planned = 0;
    for (int i = 0; i < n; ++i) {
        lua_settop(L, 9);
        steer_agent_id id = ids[i];
        // 10: the role (kept on the stack: a role function may change it)
        if (!steer_agent_is_valid(h->world, id) || steer_lua_pushrole(L, 6, id) != LUA_TSTRING) continue;
        const char *role = lua_tostring(L, 10);
        if (!lua_istable(L, 7) || steer_host__raw_field(L, 7, role) == LUA_TNIL) { // 11
            if (lua_istable(L, 8) && steer_host__raw_field(L, 8, role) != LUA_TNIL) {
                steer_host__raw_field(L, 5, role);
                lua_pushinteger(L, luaL_optinteger(L, -1, 0) + 1);
                lua_setfield(L, 5, role);
            }
            continue;
        }
        snprintf(h->scope_buf, sizeof h->scope_buf, "role '%s'", role);
        steer_lua_pushagent(L, 6, id); // 12
        steer_host__budget_begin(h, h->scope_buf);
        resolve_role(L, 11, 12, role); // 13
        steer_host__budget_end(h);
        bool fresh = steer_agent_is_valid(h->world, id) && steer_agent_get_behaviour(h->world, id) == NULL;
        lua_pushvalue(L, 12);
        lua_rawseti(L, 4, ++planned);
        lua_pushvalue(L, 13);
        lua_rawseti(L, 4, ++planned);
        lua_pushboolean(L, fresh);
        lua_rawseti(L, 4, ++planned);
    }
    lua_settop(L, 9);
    lua_pushvalue(L, 4);
    steer_host__set_field(L, h, "plan");
    lua_pushvalue(L, 5);
    steer_host__set_field(L, h, "removed");
    return 0;
}

// Commit, step 1 (may allocate): the new behaviour of agents that had none
// (their entries in the module's tables are new). With t->undo (after a
// failure) they have none again (setting nil never allocates).
static int p_fresh(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host__push_field(L, t->h, "plan"); // 2
    lua_pushnil(L);                          // 3: nil, for the undo
    for (lua_Integer i = 1; lua_rawgeti(L, 2, i) != LUA_TNIL; i += 3) { // 4: agent
        lua_rawgeti(L, 2, i + 1);                                        // 5: behaviour
        if (lua_rawgeti(L, 2, i + 2) == LUA_TBOOLEAN && lua_toboolean(L, -1))
            steer_lua_set_steering(L, 4, t->undo ? 3 : 5);
        lua_settop(L, 3);
    }
    return 0;
}

// Clear the fields of a transaction (assigning false never allocates).
static int p_clear(lua_State *L)
{
    steer_host *h = ((txn *)lua_touserdata(L, 1))->h;
    static const char *const tmp[] = {"new_world", "new_script", "new_env", "plan", "removed"};
    for (int i = 0; i < 5; ++i) {
        lua_pushboolean(L, 0);
        steer_host__set_field(L, h, tmp[i]);
    }
    return 0;
}

// Commit, step 2 (allocates nothing): behaviours swapped keeping memory,
// the version's table and environment swapped, removed roles named.
static int p_commit(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    if (!t->fresh) {
        steer_host__push_field(L, h, "plan"); // 2
        for (lua_Integer i = 1; lua_rawgeti(L, 2, i) != LUA_TNIL; i += 3) { // 3: agent
            lua_rawgeti(L, 2, i + 1);                                        // 4: behaviour
            if (lua_rawgeti(L, 2, i + 2) != LUA_TBOOLEAN || !lua_toboolean(L, -1)) steer_lua_set_steering(L, 3, 4);
            lua_settop(L, 2);
        }
        steer_host__push_field(L, h, "removed");
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            steer_host__log(h, STEER_HOST_LOG_WARNING,
                            "%s: role '%s' is not in the new version: its %d agent(s) keep their old behaviour",
                            h->name, lua_tostring(L, -2), (int)lua_tointeger(L, -1));
            lua_pop(L, 1);
        }
    }
    // the version before's role colours, for p_recolor (an existing key: no allocation)
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (lua_istable(L, -1) && !t->fresh) steer_host__raw_field(L, -1, "colors"); else lua_pushnil(L);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 0);
    }
    steer_host__set_field(L, h, "old_colors");
    lua_pop(L, 1);
    steer_host__push_field(L, h, "new_script");
    steer_host__set_field(L, h, HOST_F_SCRIPT);
    steer_host__push_field(L, h, "new_env");
    steer_host__set_field(L, h, HOST_F_ENV);
    return 0;
}

// Call script[t->callback](world) if present, under its own budget.
static int p_callback(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (!lua_istable(L, -1) || steer_host__raw_field(L, -1, t->callback) != LUA_TFUNCTION) return 0;
    steer_host__push_field(L, h, HOST_F_WORLD);
    steer_host__budget_begin(h, t->callback);
    lua_call(L, 1, 0);
    return 0;
}

// A clean-up step after a failure: last_error keeps the failure's message.
static void cleanup_pcall(steer_host *h, lua_CFunction f, txn *t)
{
    char saved[HOST_ERROR_MAX];
    memcpy(saved, h->error, sizeof saved);
    host_pcall(h, f, t);
    memcpy(h->error, saved, sizeof saved);
}

// Clear a transaction's fields, keeping last_error.
static void clear_txn(steer_host *h, txn *t) { cleanup_pcall(h, p_clear, t); }

// Prepare a version; on failure nothing changed (-1, last_error set): its chunk
// and role functions may read the world, not change it (t->undo: thaw).
static int p_freeze(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host__push_field(L, t->h, HOST_F_WORLD);
    steer_lua_freeze_world(L, -1, t->undo ? NULL : "a new version of the script is prepared");
    return 0;
}

static int prepare_version(steer_host *h, txn *t)
{
    int status = host_pcall(h, p_freeze, t) == LUA_OK ? host_pcall(h, p_prepare, t) : LUA_ERRRUN;
    t->undo = true;
    cleanup_pcall(h, p_freeze, t);
    t->undo = false;
    if (status == LUA_OK) return 0;
    clear_txn(h, t);
    return -1;
}

// Commit a prepared version: all of it, or (out of memory) none of it.
static int commit_version(steer_host *h, txn *t)
{
    int status = LUA_OK;
    if (!t->fresh) {
        status = host_pcall(h, p_fresh, t);
        if (status != LUA_OK) {
            t->undo = true;
            cleanup_pcall(h, p_fresh, t);
        }
    }
    if (status == LUA_OK) status = host_pcall(h, p_commit, t);
    clear_txn(h, t);
    if (status != LUA_OK) return -1;
    ++h->version;
    h->has_error = false;
    if (!t->fresh && host_pcall(h, p_recolor, t) != LUA_OK) {
        steer_host__log(h, STEER_HOST_LOG_WARNING, "%s", h->error);
        h->has_error = false;
    }
    if (h->watch.backend != STEER_HOST_WATCH_NONE) host_pcall(h, steer_host__watch_version, t);
    return 0;
}

/* ---- worlds ---------------------------------------------------------------------- */

static int p_new_world(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    if (h->restore_bytes != NULL) h->restore_world(L, h, &t->world); // from a snapshot
    else steer_lua_pushworld(L, t->world);
    steer_host__set_field(L, t->h, "new_world");
    return 0;
}

static int p_forget_world(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host__push_field(L, t->h, "new_world");
    if (lua_isuserdata(L, -1)) steer_lua_close_world(L, -1);
    lua_pushboolean(L, 0);
    steer_host__set_field(L, t->h, "new_world");
    return 0;
}

static int p_swap_world(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host__push_field(L, t->h, HOST_F_WORLD);
    steer_host__push_field(L, t->h, "new_world");
    steer_host__set_field(L, t->h, HOST_F_WORLD);
    lua_pushboolean(L, 0);
    steer_host__set_field(L, t->h, "new_world");
    // the old proxies (and the agents' behaviours) let go of the old world
    steer_lua_close_world(L, -1);
    return 0;
}

// A fresh world in place of the current one, or -1 with nothing changed.
static int replace_world(steer_host *h)
{
    txn t = {.h = h, .world = h->restore_bytes == NULL ? steer_world_create(&h->def.world) : NULL};
    if (t.world == NULL && h->restore_bytes == NULL) {
        steer_host__set_error(h, "not enough memory for a new world");
        return -1;
    }
    if (host_pcall(h, p_new_world, &t) != LUA_OK || host_pcall(h, p_swap_world, &t) != LUA_OK) {
        cleanup_pcall(h, p_forget_world, &t);
        // a proxy of it may still be unreachable garbage: it never owns the world
        steer_world_destroy(t.world);
        return -1;
    }
    steer_world_destroy(h->world);
    h->world = t.world;
    return 0;
}

static int run_callback(steer_host *h, const char *name)
{
    txn t = {.h = h, .callback = name};
    if (host_pcall(h, p_callback, &t) != LUA_OK) {
        steer_host__log(h, STEER_HOST_LOG_ERROR, "%s", h->error);
        return -1;
    }
    return 0;
}

/* ---- API ------------------------------------------------------------------------- */


static int p_init(lua_State *L)
{
    steer_host *h = lua_touserdata(L, 1);
    lua_createtable(L, 0, 16);
    for (const char *const *f = host_fields; *f != NULL; ++f) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, *f);
    }
    h->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    steer_host__open_libs(L);
    steer_host__open_matcher(L, h);
    steer_lua_pushworld(L, h->world);
    steer_host__set_field(L, h, HOST_F_WORLD);
    steer_host__new_input(L);
    steer_host__set_field(L, h, HOST_F_INPUT);
    lua_pushcfunction(L, role_hook);
    steer_lua_set_spawn_hook(L, -1);
    lua_pop(L, 1);
    return 0;
}

steer_host *steer_host_create(const steer_host_def *def)
{
    steer_host_def d = def != NULL ? *def : steer_host_default_def();
    if (d.instruction_budget < 0 || d.debounce_ms < 0 || d.watchdog_slice_us < 0 ||
        (d.budget_mode != STEER_HOST_BUDGET_WATCHDOG && d.budget_mode != STEER_HOST_BUDGET_EXACT))
        return NULL;
    steer_host *h = calloc(1, sizeof *h);
    if (h == NULL) return NULL;
    h->def = d;
    h->account.cap = d.memory_cap;
    h->account.reclaim = steer_host__reclaim;
    h->account.reclaim_context = h;
    h->table_ref = LUA_NOREF;
    h->watch.fd = -1;
    h->world = steer_world_create(&d.world);
    if (h->world != NULL) h->L = lua_newstate(steer_host__alloc, h);
    if (h->L == NULL) {
        steer_host_destroy(h);
        return NULL;
    }
    lua_pushcfunction(h->L, p_init);
    lua_pushlightuserdata(h->L, h);
    if (lua_pcall(h->L, 1, 0, 0) != LUA_OK || steer_host__watch_start(h) != 0) {
        steer_host_destroy(h);
        return NULL;
    }
    return h;
}

void steer_host_destroy(steer_host *host)
{
    if (host == NULL) return;
    steer_host__tape_destroy(host);
    steer_host__watch_stop(host);
    steer_host__watchdog_stop(host);
    // the Lua state first: its proxies never own the world
    if (host->L != NULL) steer_host__budget_closing(host);
    if (host->L != NULL) lua_close(host->L);
    if (host->world != NULL) steer_world_destroy(host->world);
    free(host);
}

// math.random starts from the world's seed at each load and reset, so a
// script that draws from it runs the same every time.
static int p_seed_random(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    uint64_t seed = t->h->def.world.seed;
    lua_pushinteger(L, (lua_Integer)(seed & 0x7fffffffffffffffu));
    lua_pushinteger(L, (lua_Integer)(seed >> 63));
    lua_call(L, 2, 0);
    return 0;
}

static int load_script(steer_host *host, const char *path, bool report);

int steer_host_load(steer_host *host, const char *path)
{
    // a recording is line-based: a path it cannot hold is refused before
    // anything changes (and so is not recorded either)
    if (host->tape != NULL && path != NULL && strpbrk(path, "\r\n") != NULL) {
        steer_host__set_error(host, "a script path with a line break cannot be recorded");
        return -1;
    }
    int rc = load_script(host, path, true);
    steer_host__tape_event(host, "load", rc, path);
    return rc;
}

// Run setup; remember whether it failed (a reload says so: it does not run it).
static int run_setup(steer_host *h)
{
    int rc = run_callback(h, "setup");
    h->setup_failed = rc != 0;
    return rc;
}

// Load the script at path (it may be host->path). On failure with no
// version running, the host keeps the path and watches the files the
// attempt read (load_pending): the next good save, reload or reset loads
// it. report: log the failure (the watcher reports through its own rule).
static int load_script(steer_host *host, const char *path, bool report)
{
    if (path == NULL || strlen(path) >= HOST_PATH_MAX) {
        steer_host__set_error(host, "the script's path is missing or too long");
        if (report) steer_host__log(host, STEER_HOST_LOG_ERROR, "%s", host->error);
        return -1;
    }
    char wanted[HOST_PATH_MAX];
    snprintf(wanted, sizeof wanted, "%s", path);
    char old_path[HOST_PATH_MAX], old_root[HOST_PATH_MAX];
    memcpy(old_path, host->path, sizeof old_path);
    memcpy(old_root, host->root, sizeof old_root);
    char old_name[HOST_PATH_MAX];
    memcpy(old_name, host->name, sizeof old_name);
    memcpy(host->path, wanted, sizeof wanted);
    if (host->def.script_root != NULL) {
        snprintf(host->root, sizeof host->root, "%s", host->def.script_root);
    } else {
        const char *slash = strrchr(wanted, '/');
        if (slash == NULL)
            snprintf(host->root, sizeof host->root, ".");
        else
            snprintf(host->root, sizeof host->root, "%.*s", (int)(slash - wanted), wanted);
    }
    size_t rl = strlen(host->root);
    while (rl > 1 && host->root[rl - 1] == '/') host->root[--rl] = '\0';
    // errors name the script by its path under the root, as Lua's do
    bool under = strcmp(host->root, ".") != 0 && strncmp(wanted, host->root, rl) == 0 && wanted[rl] == '/';
    snprintf(host->name, sizeof host->name, "%s", under ? wanted + rl + 1 : wanted);
    txn t = {.h = host, .fresh = true};
    host_pcall(host, p_seed_random, &t);
    if (prepare_version(host, &t) != 0 || replace_world(host) != 0 || commit_version(host, &t) != 0) {
        clear_txn(host, &t);
        if (host->version == 0) {
            // nothing runs: keep the script, and watch what this attempt read
            host->load_pending = true;
            if (host->watch.backend != STEER_HOST_WATCH_NONE) cleanup_pcall(host, steer_host__watch_version, &t);
        } else {
            memcpy(host->path, old_path, sizeof old_path);
            memcpy(host->root, old_root, sizeof old_root);
            memcpy(host->name, old_name, sizeof old_name);
        }
        if (report) steer_host__log(host, STEER_HOST_LOG_ERROR, "%s", host->error);
        return -1;
    }
    host->load_pending = false;
    // "loaded" only once setup ran: a setup error must not follow a line
    // that reads like success (a world restored from a snapshot runs none)
    if (host->restore_bytes == NULL && run_setup(host) != 0) return -1;
    steer_host__log(host, STEER_HOST_LOG_INFO, "loaded %s", host->path);
    return 0;
}

int steer_host__load_restoring(steer_host *host, const char *path) { return load_script(host, path, true); }

// Commit a prepared version and run on_reload: the end of every reload.
static int finish_reload(steer_host *h, txn *t)
{
    if (commit_version(h, t) != 0) {
        steer_host__log(h, STEER_HOST_LOG_ERROR, "%s", h->error);
        return -1;
    }
    steer_host__log(h, STEER_HOST_LOG_INFO, "reloaded %s (version %d)", h->path, h->version);
    if (h->setup_failed)
        steer_host__log(h, STEER_HOST_LOG_WARNING,
                        "%s: setup failed earlier and a reload does not run it: reset (R in steer-viewer) "
                        "runs the new setup on a fresh world",
                        h->name);
    return run_callback(h, "on_reload");
}

// The first load failed and nothing runs: reload and reset load the script.
static int load_again(steer_host *host, const char *what)
{
    if (!host->load_pending) {
        char msg[64];
        snprintf(msg, sizeof msg, "nothing to %s: no script was loaded", what);
        steer_host__set_error(host, msg);
        return -1;
    }
    return load_script(host, host->path, true);
}

int steer_host_reload(steer_host *host)
{
    int rc;
    if (host->version == 0) {
        rc = load_again(host, "reload");
    } else {
        txn t = {.h = host, .fresh = false};
        if (prepare_version(host, &t) != 0) {
            steer_host__log(host, STEER_HOST_LOG_ERROR, "%s", host->error);
            rc = -1;
        } else {
            rc = finish_reload(host, &t);
        }
    }
    steer_host__tape_event(host, "reload", rc, NULL);
    return rc;
}

int steer_host_reset(steer_host *host)
{
    int rc;
    if (host->version == 0) {
        rc = load_again(host, "reset");
    } else {
        txn t = {.h = host};
        host_pcall(host, p_seed_random, &t);
        if (replace_world(host) != 0) {
            steer_host__log(host, STEER_HOST_LOG_ERROR, "%s", host->error);
            rc = -1;
        } else {
            host->has_error = false;
            rc = run_setup(host);
        }
    }
    steer_host__tape_event(host, "reset", rc, NULL);
    return rc;
}

// A change the watcher saw: applied, reported, or (watch.c's rule: the
// editor is still writing) tried again later.
static void apply_change(steer_host *h)
{
    if (!steer_host__watch_script_ready(h)) return;
    // a recording sees the same as steer_host_reload: a load while the
    // first load has not succeeded, else prepare (the files read) and,
    // when it worked, the commit
    if (h->version == 0) {
        int rc = load_script(h, h->path, false);
        steer_host__tape_event(h, "reload", rc, NULL);
        // a failed setup was reported by itself
        if (steer_host__watch_applied(h, h->version == 0)) steer_host__log(h, STEER_HOST_LOG_ERROR, "%s", h->error);
        return;
    }
    txn t = {.h = h, .fresh = false};
    if (prepare_version(h, &t) != 0) {
        steer_host__tape_event(h, "reload", -1, NULL);
        if (steer_host__watch_applied(h, true)) steer_host__log(h, STEER_HOST_LOG_ERROR, "%s", h->error);
        return;
    }
    steer_host__watch_applied(h, false);
    steer_host__tape_event(h, "reload", finish_reload(h, &t), NULL);
}


// Fill the input table (reused every frame) and call update(world, dt, input).
static int p_update(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host *h = t->h;
    steer_host__push_field(L, h, HOST_F_SCRIPT);
    if (!lua_istable(L, -1) || steer_host__raw_field(L, -1, "update") != LUA_TFUNCTION) return 0;
    steer_host__push_field(L, h, HOST_F_WORLD);
    lua_pushnumber(L, t->dt);
    steer_host__push_field(L, h, HOST_F_INPUT);
    static const steer_host_input none;
    const steer_host_input *in = t->input != NULL ? t->input : &none;
    steer_host__fill_input(L, lua_gettop(L), in);
    steer_host__budget_begin(h, "update");
    lua_call(L, 3, 0);
    return 0;
}

// The step as world:step(dt) does it, so Lua behaviours run under the
// module's protocol.
static int p_step(lua_State *L)
{
    txn *t = lua_touserdata(L, 1);
    steer_host__push_field(L, t->h, HOST_F_WORLD);
    steer_host__budget_begin(t->h, "a Lua behaviour");
    steer_lua_step(L, -1, t->dt);
    return 0;
}

int steer_host_poll(steer_host *host)
{
    if (host->version == 0 || !steer_host__watch_ready(host)) return 0;
    apply_change(host);
    return 1;
}

int steer_host_update(steer_host *host, float dt, const steer_host_input *input)
{
    if (!(dt >= 0.0f && dt <= 1.0e4f)) {
        steer_host__set_error(host, "the frame's dt must be in [0, 10000]");
        return -1;
    }
    if ((host->version > 0 || host->load_pending) && steer_host__watch_ready(host)) apply_change(host);
    txn t = {.h = host, .dt = dt, .input = input};
    int rc = 0;
    if (host_pcall(host, p_update, &t) != LUA_OK) {
        report_frame_error(host);
        rc = -1;
    }
    if (host_pcall(host, p_step, &t) != LUA_OK) {
        report_frame_error(host);
        rc = -1;
    }
    host->sim_time += dt;
    steer_host__tape_frame(host, dt, input);
    return rc;
}
