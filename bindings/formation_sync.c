// formation_sync.c: a formation's Lua values (pattern, slot roles, costs)
// turned into the engine's tables: slots from a pattern, cost roles from
// role names, a cost table. Lua functions run here, outside the step,
// whenever the formation's shape changes. And the work hook
// (steer_lua_set_work_hook), which the places that run assignments charge.
//
// Words: a member's "role" is the host's role (agent.role); the formation
// turns role names into "cost roles", the indices of its cost table.
#include "formation_sync.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char work_hook_key = 0; // registry: the work hook (a function) or nil

// Most offsets a pattern lists (a bound on the work of a sync).
#define MAX_OFFSETS (1 << 16)

const char *const steer_lua__pattern_names[] = {"line", "column", "v", "circle", "defensive_circle", "grid", NULL};
static const char *const pattern_phrase = "must be one of 'line', 'column', 'v', 'circle', 'defensive_circle', "
                                          "'grid', a list of offsets or a function";

// Push field k of the formation's data table.
int steer_lua__formation_get(lua_State *L, int fidx, const char *k)
{
    lua_getiuservalue(L, fidx, FORM_UV_DATA);
    int t = lua_getfield(L, -1, k);
    lua_remove(L, -2);
    return t;
}

// data[k] = value at -1 (popped)
void steer_lua__formation_set(lua_State *L, int fidx, const char *k)
{
    fidx = lua_absindex(L, fidx);
    lua_getiuservalue(L, fidx, FORM_UV_DATA);
    lua_insert(L, -2);
    lua_setfield(L, -2, k);
    lua_pop(L, 1);
}

// An offset's dx or dy at vidx (a number): within the coordinate bound.
static void check_coordinate(lua_State *L, steer_laux_where w, int vidx, const char *phrase)
{
    double v = steer_laux_number(L, w, vidx, LAUX_FINITE);
    if (fabs(v) > STEER_MAX_COORDINATE) {
        char limit[32], msg[192];
        snprintf(msg, sizeof msg, "%s within [-%s, %s] m", phrase,
                 steer_format_limit(STEER_MAX_COORDINATE, limit, sizeof limit), limit);
        steer_laux_error(L, w, msg, vidx);
    }
}

// pattern: a name, a list of offsets {dx, dy[, orientation]}, or a function.
void steer_lua__formation_check_pattern(lua_State *L, steer_laux_where w, int vidx)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) == LUA_TSTRING) {
        if (steer_lua__choice(L, vidx, steer_lua__pattern_names) < 0) steer_laux_error(L, w, pattern_phrase, vidx);
        return;
    }
    if (lua_type(L, vidx) == LUA_TFUNCTION) return;
    if (lua_type(L, vidx) != LUA_TTABLE) steer_laux_error(L, w, pattern_phrase, vidx);
    lua_Integer n = (lua_Integer)lua_rawlen(L, vidx);
    if (n < 1) steer_laux_error_plain(L, w, "must list at least one offset {dx, dy[, orientation]}");
    if (n > MAX_OFFSETS) steer_laux_error_plain(L, w, lua_pushfstring(L, "must list at most %d offsets", MAX_OFFSETS));
    for (lua_Integer i = 1; i <= n; ++i) {
        char name[48];
        snprintf(name, sizeof name, "%s[%d]", w.field, (int)i);
        steer_laux_where wi = w;
        wi.field = name;
        if (lua_rawgeti(L, vidx, i) != LUA_TTABLE) steer_laux_error(L, wi, "must be an offset {dx, dy[, orientation]}", -1);
        int values = (int)lua_rawlen(L, -1);
        if (values > 3) { // a fourth value would be dropped without a word
            const char *got = lua_pushfstring(L, "must be an offset {dx, dy[, orientation]}, got %d values", values);
            steer_laux_error_plain(L, wi, got);
        }
        for (int k = 1; k <= 3; ++k) {
            int t = lua_rawgeti(L, -1, k);
            if (!(k == 3 && t == LUA_TNIL)) {
                if (t != LUA_TNUMBER) steer_laux_error(L, wi, "must be an offset {dx, dy[, orientation]} of numbers", -1);
                if (k < 3) check_coordinate(L, wi, -1, "must be an offset {dx, dy[, orientation]} with dx and dy");
                else steer_laux_number(L, wi, -1, LAUX_FINITE);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* ---- cost roles and costs --------------------------------------------------------------- */

// The cost role of a role name: its index in the table at names_idx
// (added when new); cost role 0 is "none".
static int cost_role(lua_State *L, int names_idx, int vidx)
{
    if (lua_type(L, vidx) != LUA_TSTRING) return 0;
    lua_pushvalue(L, vidx);
    if (lua_rawget(L, names_idx) == LUA_TNUMBER) {
        int r = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        return r;
    }
    lua_pop(L, 1);
    lua_getfield(L, names_idx, "#");
    int r = (int)lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    // (cost role 0 is "none": r names can take r + 1 cost roles)
    if (r + 1 > STEER_MAX_FORMATION_ROLES) {
        steer_compat_close_pending(L); // the undo guards (before Lua 5.4: compat.h)
        luaL_error(L, "a formation takes at most %d different role names (its slot roles, costs and members' roles), "
                      "got more",
                   STEER_MAX_FORMATION_ROLES - 1);
    }
    lua_pushinteger(L, r);
    lua_setfield(L, names_idx, "#");
    lua_pushvalue(L, vidx);
    lua_pushinteger(L, r);
    lua_rawset(L, names_idx);
    return r;
}

// A cost: a number in [-STEER_MAX_PARAM, STEER_MAX_PARAM], or math.huge.
static bool is_cost(lua_State *L, int vidx)
{
    if (lua_type(L, vidx) != LUA_TNUMBER) return false;
    double v = lua_tonumber(L, vidx);
    return v == HUGE_VAL || fabs(v) <= STEER_MAX_PARAM;
}

// Raise the costs message: the shape expected, then what is wrong where
// ("costs['a']['s'] is not", "a key of costs['a'] is not a role name"), then
// the value at vidx. k1 (and k2, when not 0) are the keys on the way.
static void costs_error(lua_State *L, steer_laux_where w, bool key, int k1, int k2, int vidx)
{
    vidx = lua_absindex(L, vidx);
    char path[160] = "costs", cap[32], phrase[384];
    if (k1 != 0) {
        size_t n = strlen(path);
        snprintf(path + n, sizeof path - n, "[%s]", steer_laux_describe(L, k1));
        lua_pop(L, 1);
    }
    if (k2 != 0) {
        size_t n = strlen(path);
        snprintf(path + n, sizeof path - n, "[%s]", steer_laux_describe(L, k2));
        lua_pop(L, 1);
    }
    steer_format_limit(STEER_MAX_PARAM, cap, sizeof cap);
    snprintf(phrase, sizeof phrase,
             "must be a table costs[member_role][slot_role] of numbers in [-%s, %s] or math.huge (forbidden); %s%s", cap,
             cap, key ? "a key of " : "", path);
    size_t n = strlen(phrase);
    snprintf(phrase + n, sizeof phrase - n, "%s", key ? " is not a role name" : " is not");
    steer_laux_error(L, w, phrase, vidx);
}

void steer_lua__formation_check_costs(lua_State *L, steer_laux_where w, int vidx)
{
    vidx = lua_absindex(L, vidx);
    int t = lua_type(L, vidx);
    if (t == LUA_TNIL || t == LUA_TFUNCTION) return;
    if (t != LUA_TTABLE) steer_laux_error(L, w, "must be a table costs[member_role][slot_role] or a function", vidx);
    lua_pushnil(L);
    while (lua_next(L, vidx) != 0) {
        const int row = lua_gettop(L), key = row - 1;
        if (lua_type(L, key) != LUA_TSTRING) costs_error(L, w, true, 0, 0, key);
        if (lua_type(L, row) != LUA_TTABLE) costs_error(L, w, false, key, 0, row);
        lua_pushnil(L);
        while (lua_next(L, row) != 0) {
            if (lua_type(L, -2) != LUA_TSTRING) costs_error(L, w, true, key, 0, -2);
            if (!is_cost(L, -1)) costs_error(L, w, false, key, lua_gettop(L) - 1, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

// The host's role of a member: agent.role, as kept by world:spawn.
void steer_lua__formation_member_role(lua_State *L, int core_idx, steer_agent_id id)
{
    lua_getiuservalue(L, core_idx, CORE_UV_ROLE);
    if (lua_istable(L, -1)) lua_rawgeti(L, -1, steer_lua__stored_id(id));
    else lua_pushnil(L);
    lua_remove(L, -2);
}

// Call fn (at fidx) with nargs arguments already pushed after a copy of it;
// errors propagate as Lua errors (we are outside the step here), after the
// undo guards ran (before Lua 5.4: compat.h). Meanwhile the world may not
// change: a function removing a member (or an agent) would pull the
// members out from under the loop evaluating them.
static void call_user(lua_State *L, lcore *core, int fn_idx, int nargs, int nresults)
{
    lua_pushvalue(L, fn_idx);
    lua_insert(L, -nargs - 1);
    const char *was = core->frozen;
    core->frozen = "a formation's pattern, slot_roles or costs function runs";
    int status = lua_pcall(L, nargs, nresults, 0);
    core->frozen = was;
    if (status != LUA_OK) {
        steer_compat_close_pending(L);
        lua_error(L);
    }
}

/* ---- sync: Lua values -> engine tables -------------------------------------------------- */

// Recompute what depends on Lua values and the member count, and hand it
// to the engine. `w` names the place errors are reported against.
void steer_lua__formation_sync(lua_State *L, int fidx, steer_laux_where w)
{
    fidx = lua_absindex(L, fidx);
    int top = lua_gettop(L);
    lformation *lf = lua_touserdata(L, fidx);
    steer_world *world = lf->core->world;
    steer_formation_def def = *steer_formation_get_def(world, lf->id);
    const int n = steer_formation_member_count(world, lf->id);
    lua_getiuservalue(L, fidx, FORM_UV_CORE);
    const int core_idx = lua_gettop(L);
    lua_newtable(L); // role names -> cost role
    const int names = lua_gettop(L);
    // slots: a function pattern is called for (i, n) now; a list is read
    steer_lua__formation_get(L, fidx, "pattern");
    const int pat = lua_gettop(L);
    int slot_count = 0;
    steer_formation_slot *slots = NULL;
    steer_laux_where wp = w;
    wp.field = "pattern";
    if (lua_type(L, pat) == LUA_TSTRING) {
        def.pattern = (steer_formation_pattern)steer_lua__choice(L, pat, steer_lua__pattern_names);
        slot_count = n;
    } else {
        def.pattern = STEER_PATTERN_OFFSETS;
        slot_count = lua_type(L, pat) == LUA_TFUNCTION ? (n > 0 ? n : 1) : (int)lua_rawlen(L, pat);
    }
    slots = lua_newuserdatauv(L, sizeof *slots * (size_t)(slot_count > 0 ? slot_count : 1), 0);
    memset(slots, 0, sizeof *slots * (size_t)(slot_count > 0 ? slot_count : 1));
    for (int i = 0; i < slot_count && lua_type(L, pat) != LUA_TSTRING; ++i) {
        if (lua_type(L, pat) == LUA_TFUNCTION) {
            lua_pushinteger(L, i + 1);
            lua_pushinteger(L, slot_count);
            call_user(L, lf->core, pat, 2, 3);
        } else {
            lua_rawgeti(L, pat, i + 1);
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            lua_rawgeti(L, -3, 3);
            lua_remove(L, -4);
        }
        char phrase[96];
        snprintf(phrase, sizeof phrase, "must give numbers dx, dy[, orientation] (slot %d of %d)", i + 1, slot_count);
        for (int k = -3; k <= -1; ++k) {
            if (k == -1 && lua_isnil(L, k)) continue;
            if (lua_type(L, k) != LUA_TNUMBER) steer_laux_error(L, wp, phrase, k);
            if (k < -1) check_coordinate(L, wp, k, phrase);
            else steer_laux_number(L, wp, k, LAUX_FINITE);
        }
        slots[i].offset = steer_v2((float)lua_tonumber(L, -3), (float)lua_tonumber(L, -2));
        slots[i].orientation = lua_isnil(L, -1) ? 0.0f : (float)lua_tonumber(L, -1);
        lua_pop(L, 3);
    }
    // slot roles: a list of names or a function (i, slot_count) -> name
    int t = steer_lua__formation_get(L, fidx, "slot_roles");
    const int sr = lua_gettop(L);
    for (int i = 0; i < slot_count && t != LUA_TNIL; ++i) {
        if (t == LUA_TFUNCTION) {
            lua_pushinteger(L, i + 1);
            lua_pushinteger(L, slot_count);
            call_user(L, lf->core, sr, 2, 1);
            if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING) {
                steer_laux_where wr = w;
                wr.field = "slot_roles";
                steer_laux_error(L, wr, "must give a role name or nil", -1);
            }
        } else {
            lua_rawgeti(L, sr, i + 1);
        }
        slots[i].cost_role = cost_role(L, names, -1);
        lua_pop(L, 1);
    }
    // costs by cost role: costs[member_role][slot_role]
    t = steer_lua__formation_get(L, fidx, "costs");
    const int costs = lua_gettop(L);
    steer_laux_where wcosts = w;
    wcosts.field = "costs";
    steer_lua__formation_check_costs(L, wcosts, costs);
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, costs) != 0) {
            cost_role(L, names, -2);
            lua_pushnil(L);
            while (lua_next(L, -2) != 0) {
                cost_role(L, names, -2);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
    }
    // members' roles get cost roles too (a role nobody prices costs nothing);
    // a member removed from the world (it leaves at the next step) is skipped
    // here and below: it is no member to the engine any more
    for (int m = 0; m < n; ++m) {
        steer_agent_id a = steer_formation_member_at(world, lf->id, m);
        if (!steer_agent_is_valid(world, a)) continue;
        steer_lua__formation_member_role(L, core_idx, a);
        steer_formation_set_member_cost_role(world, lf->id, a, cost_role(L, names, -1));
        lua_pop(L, 1);
    }
    lua_getfield(L, names, "#");
    const int rc = (int)lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    float *table = lua_newuserdatauv(L, sizeof *table * (size_t)rc * (size_t)rc, 0);
    memset(table, 0, sizeof *table * (size_t)rc * (size_t)rc);
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, costs) != 0) {
            int mr = cost_role(L, names, -2);
            lua_pushnil(L);
            while (lua_next(L, -2) != 0) {
                int r = cost_role(L, names, -2);
                double v = lua_tonumber(L, -1);
                table[mr * rc + r] = v == HUGE_VAL ? INFINITY : (float)v;
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
    }
    def.slots = slots;
    def.slot_count = slot_count;
    def.cost_role_costs = table;
    def.cost_role_count = rc;
    if (!steer_formation_set_def(world, lf->id, &def)) luaL_error(L, "not enough memory");
    // a costs function: per member, per slot, evaluated now
    if (t == LUA_TFUNCTION) {
        float *row = lua_newuserdatauv(L, sizeof *row * (size_t)(slot_count > 0 ? slot_count : 1), 0);
        for (int m = 0; m < n; ++m) {
            steer_agent_id a = steer_formation_member_at(world, lf->id, m);
            if (!steer_agent_is_valid(world, a)) continue;
            for (int s = 0; s < slot_count; ++s) {
                steer_lua__push_agent(L, core_idx, a);
                lua_pushinteger(L, s + 1);
                call_user(L, lf->core, costs, 2, 1);
                steer_laux_where wc = w;
                wc.field = "costs";
                if (!is_cost(L, -1)) steer_laux_error(L, wc, "must give a number or math.huge (forbidden)", -1);
                double v = lua_tonumber(L, -1);
                row[s] = v == HUGE_VAL ? INFINITY : (float)v;
                lua_pop(L, 1);
            }
            steer_formation_set_member_costs(world, lf->id, a, row, slot_count);
        }
    }
    lua_settop(L, top);
}

/* ---- the work hook: what assignments cost ------------------------------------------------------------------------- */

void steer_lua_set_work_hook(lua_State *L, int index)
{
    lua_pushvalue(L, index);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &work_hook_key);
}

void steer_lua__charge_work(lua_State *L, double units)
{
    if (!(units > 0.0)) return;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &work_hook_key) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    lua_pushnumber(L, units);
    lua_call(L, 1, 0);
}

void steer_lua__charge_step(lua_State *L, steer_world *world)
{
    if (!steer_world_is_stepping(world)) steer_lua__charge_work(L, steer_world_pending_formation_work(world));
}
