// wrap_formation.c: steer.formation{...} and the steer.Formation class
// (docs/lua-api.md, Formations). One proxy per formation; the formation
// itself belongs to the world (collecting the proxy does not destroy it).
//
// Lua functions (a pattern, slot roles, costs) never run in the engine's
// step: the bindings evaluate them whenever the formation's shape changes
// (members added or removed through the proxy, pattern, spacing, roles or
// costs set) and hand the engine the results as tables of slots and costs.
// Uservalue 1 is the world's core; uservalue 2 a table of the Lua values
// behind the formation (pattern, slot_roles, costs, leader, anchor target
// and path, the member behaviour).
#include "bind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEER_LUA_FORMATION "steer.Formation"

typedef struct lformation {
    lcore *core;
    steer_formation_id id;
} lformation;

enum { FORM_UV_CORE = 1, FORM_UV_DATA = 2 };

static const char *const pattern_names[] = {"line", "column", "v", "circle", "defensive_circle", "grid", NULL};
static const char *const motion_names[] = {"steer", "rigid", "emergent", NULL};
static const char *const assignment_names[] = {"optimal", "ordered", NULL};
static const char *const pattern_phrase = "must be one of 'line', 'column', 'v', 'circle', 'defensive_circle', "
                                          "'grid', a list of offsets or a function";

static lformation *check_formation(lua_State *L, int arg)
{
    lformation *lf = luaL_checkudata(L, arg, STEER_LUA_FORMATION);
    if (lf->core == NULL || lf->core->world == NULL) luaL_error(L, "attempt to use a closed world");
    if (!steer_formation_is_valid(lf->core->world, lf->id)) luaL_error(L, "attempt to use a destroyed formation");
    return lf;
}

// Push field k of the formation's data table.
static int get_data(lua_State *L, int fidx, const char *k)
{
    lua_getiuservalue(L, fidx, FORM_UV_DATA);
    int t = lua_getfield(L, -1, k);
    lua_remove(L, -2);
    return t;
}

// data[k] = value at -1 (popped)
static void set_data(lua_State *L, int fidx, const char *k)
{
    fidx = lua_absindex(L, fidx);
    lua_getiuservalue(L, fidx, FORM_UV_DATA);
    lua_insert(L, -2);
    lua_setfield(L, -2, k);
    lua_pop(L, 1);
}

/* ---- checks of option values -------------------------------------------------------- */

// pattern: a name, a list of offsets {dx, dy[, orientation]}, or a function.
static void check_pattern(lua_State *L, laux_where w, int vidx)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) == LUA_TSTRING) {
        const char *s = lua_tostring(L, vidx);
        for (int i = 0; pattern_names[i] != NULL; ++i) {
            if (strcmp(s, pattern_names[i]) == 0) return;
        }
        laux_error(L, w, pattern_phrase, vidx);
    }
    if (lua_type(L, vidx) == LUA_TFUNCTION) return;
    if (lua_type(L, vidx) != LUA_TTABLE) laux_error(L, w, pattern_phrase, vidx);
    lua_Integer n = (lua_Integer)lua_rawlen(L, vidx);
    if (n < 1) laux_error_plain(L, w, "must list at least one offset {dx, dy[, orientation]}");
    if (n > 1 << 16) laux_error_plain(L, w, "must list at most 65536 offsets");
    for (lua_Integer i = 1; i <= n; ++i) {
        char name[48];
        snprintf(name, sizeof name, "%s[%d]", w.field, (int)i);
        laux_where wi = w;
        wi.field = name;
        if (lua_rawgeti(L, vidx, i) != LUA_TTABLE) laux_error(L, wi, "must be an offset {dx, dy[, orientation]}", -1);
        for (int k = 1; k <= 3; ++k) {
            int t = lua_rawgeti(L, -1, k);
            if (!(k == 3 && t == LUA_TNIL)) {
                if (t != LUA_TNUMBER) laux_error(L, wi, "must be an offset {dx, dy[, orientation]} of numbers", -1);
                laux_number(L, wi, -1, LAUX_FINITE);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

// A live agent of the formation's world (value at vidx).
static lagent *check_member_agent(lua_State *L, laux_where w, int vidx, lcore *core)
{
    lagent *a = steer_lua__test_agent(L, vidx);
    if (a == NULL) laux_error(L, w, "must be an agent", vidx);
    if (a->core == NULL || a->core->world == NULL || !steer_agent_is_valid(a->core->world, a->id))
        laux_error_plain(L, w, "must be a live agent, got a removed agent");
    if (core != NULL && a->core != core) laux_error_plain(L, w, "must be an agent of the formation's world");
    return a;
}

/* ---- roles and costs ------------------------------------------------------------------ */

// Index of a role name in the names table at names_idx (added when new);
// role 0 is "none".
static int role_index(lua_State *L, int names_idx, int vidx)
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
    lua_pushinteger(L, r);
    lua_setfield(L, names_idx, "#");
    lua_pushvalue(L, vidx);
    lua_pushinteger(L, r);
    lua_rawset(L, names_idx);
    return r;
}

// The role of a member: agent.role, as kept by world:spawn.
static void push_member_role(lua_State *L, int core_idx, steer_agent_id id)
{
    lua_getiuservalue(L, core_idx, CORE_UV_ROLE);
    if (lua_istable(L, -1)) lua_rawgeti(L, -1, steer_lua__agent_key(id));
    else lua_pushnil(L);
    lua_remove(L, -2);
}

// Call fn (at fidx) with nargs arguments already pushed after a copy of it;
// errors propagate as Lua errors (we are outside the step here).
static void call_user(lua_State *L, int fn_idx, int nargs, int nresults)
{
    lua_pushvalue(L, fn_idx);
    lua_insert(L, -nargs - 1);
    lua_call(L, nargs, nresults);
}

/* ---- sync: Lua values -> engine tables -------------------------------------------------- */

// Recompute what depends on Lua values and the member count, and hand it
// to the engine. `w` names the place errors are reported against.
static void sync(lua_State *L, int fidx, laux_where w)
{
    fidx = lua_absindex(L, fidx);
    int top = lua_gettop(L);
    lformation *lf = lua_touserdata(L, fidx);
    steer_world *world = lf->core->world;
    steer_formation_def def = *steer_formation_get_def(world, lf->id);
    const int n = steer_formation_member_count(world, lf->id);
    lua_getiuservalue(L, fidx, FORM_UV_CORE);
    const int core_idx = lua_gettop(L);
    lua_newtable(L); // role names -> index
    const int names = lua_gettop(L);
    // slots: a function pattern is called for (i, n) now; a list is read
    get_data(L, fidx, "pattern");
    const int pat = lua_gettop(L);
    int slot_count = 0;
    steer_formation_slot *slots = NULL;
    laux_where wp = w;
    if (w.field == NULL || strcmp(w.field, "pattern") != 0) wp.field = "pattern";
    if (lua_type(L, pat) == LUA_TSTRING) {
        for (int i = 0; pattern_names[i] != NULL; ++i) {
            if (strcmp(lua_tostring(L, pat), pattern_names[i]) == 0) def.pattern = (steer_formation_pattern)i;
        }
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
            call_user(L, pat, 2, 3);
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
            if (lua_type(L, k) != LUA_TNUMBER) laux_error(L, wp, phrase, k);
            laux_number(L, wp, k, LAUX_FINITE);
        }
        slots[i].offset = steer_v2((float)lua_tonumber(L, -3), (float)lua_tonumber(L, -2));
        slots[i].orientation = lua_isnil(L, -1) ? 0.0f : (float)lua_tonumber(L, -1);
        lua_pop(L, 3);
    }
    // slot roles: a list of names or a function (i, slot_count) -> name
    int t = get_data(L, fidx, "slot_roles");
    const int sr = lua_gettop(L);
    for (int i = 0; i < slot_count && t != LUA_TNIL; ++i) {
        if (t == LUA_TFUNCTION) {
            lua_pushinteger(L, i + 1);
            lua_pushinteger(L, slot_count);
            call_user(L, sr, 2, 1);
            if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING) {
                laux_where wr = w;
                wr.field = "slot_roles";
                laux_error(L, wr, "must give a role name or nil", -1);
            }
        } else {
            lua_rawgeti(L, sr, i + 1);
        }
        slots[i].role = role_index(L, names, -1);
        lua_pop(L, 1);
    }
    // role costs: costs[member_role][slot_role]
    t = get_data(L, fidx, "costs");
    const int costs = lua_gettop(L);
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, costs) != 0) {
            role_index(L, names, -2);
            lua_pushnil(L);
            while (lua_next(L, -2) != 0) {
                role_index(L, names, -2);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
    }
    // members' roles are names too (a role nobody prices costs nothing)
    for (int m = 0; m < n; ++m) {
        steer_agent_id a = steer_formation_member_at(world, lf->id, m);
        push_member_role(L, core_idx, a);
        steer_formation_set_member_role(world, lf->id, a, role_index(L, names, -1));
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
            int mr = role_index(L, names, -2);
            lua_pushnil(L);
            while (lua_next(L, -2) != 0) {
                int r = role_index(L, names, -2);
                double v = lua_tonumber(L, -1);
                table[mr * rc + r] = v == HUGE_VAL ? INFINITY : (float)v;
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
    }
    def.slots = slots;
    def.slot_count = slot_count;
    def.role_costs = table;
    def.role_count = rc;
    if (!steer_formation_set_def(world, lf->id, &def)) luaL_error(L, "not enough memory");
    // a costs function: per member, per slot, evaluated now
    if (t == LUA_TFUNCTION) {
        float *row = lua_newuserdatauv(L, sizeof *row * (size_t)(slot_count > 0 ? slot_count : 1), 0);
        for (int m = 0; m < n; ++m) {
            steer_agent_id a = steer_formation_member_at(world, lf->id, m);
            for (int s = 0; s < slot_count; ++s) {
                steer_lua__push_agent(L, core_idx, a);
                lua_pushinteger(L, s + 1);
                call_user(L, costs, 2, 1);
                laux_where wc = w;
                wc.field = "costs";
                if (lua_type(L, -1) != LUA_TNUMBER || isnan(lua_tonumber(L, -1)) || lua_tonumber(L, -1) == -HUGE_VAL)
                    laux_error(L, wc, "must give a number or math.huge (forbidden)", -1);
                double v = lua_tonumber(L, -1);
                row[s] = v == HUGE_VAL ? INFINITY : (float)v;
                lua_pop(L, 1);
            }
            steer_formation_set_member_costs(world, lf->id, a, row, slot_count);
        }
    }
    lua_settop(L, top);
}


/* ---- undo on error ------------------------------------------------------------------ */

// A to-be-closed guard: when a Lua function (pattern, roles, costs) or a
// check raises halfway through a change, its __close undoes what the engine
// already did, so no half-made formation or member stays behind. Disarmed
// on success. Uservalue 1: the formation proxy; 2: an old data value.
typedef struct lguard {
    int kind; ///< GUARD_*
    bool armed;
    steer_agent_id agent;
    const char *key; ///< GUARD_RESTORE: the data field (a static string)
} lguard;

enum { GUARD_DESTROY, GUARD_REMOVE, GUARD_RESTORE };

static int guard_close(lua_State *L)
{
    lguard *g = lua_touserdata(L, 1);
    if (!g->armed) return 0;
    g->armed = false;
    lua_getiuservalue(L, 1, 1);
    lformation *lf = lua_touserdata(L, -1);
    if (lf == NULL || lf->core == NULL || lf->core->world == NULL || !steer_formation_is_valid(lf->core->world, lf->id))
        return 0;
    if (g->kind == GUARD_DESTROY) {
        steer_formation_destroy(lf->core->world, lf->id);
    } else if (g->kind == GUARD_REMOVE) {
        steer_formation_remove(lf->core->world, lf->id, g->agent);
    } else {
        lua_getiuservalue(L, 1, 2);
        set_data(L, -2, g->key);
    }
    return 0;
}

static const char guard_key = 0; // registry: the guard metatable

// Push a guard for the formation at fidx and mark it to be closed.
static lguard *push_guard(lua_State *L, int fidx, int kind)
{
    fidx = lua_absindex(L, fidx);
    lguard *g = lua_newuserdatauv(L, sizeof *g, 2);
    g->kind = kind;
    g->armed = true;
    g->agent = steer_null_agent;
    g->key = NULL;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &guard_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 1);
        lua_pushcfunction(L, guard_close);
        lua_setfield(L, -2, "__close");
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &guard_key);
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, fidx);
    lua_setiuservalue(L, -2, 1);
    lua_toclose(L, -1);
    return g;
}

/* ---- the constructor ---------------------------------------------------------------- */

static const char *const formation_fields[] = {
    "pattern", "leader", "anchor", "members", "spacing", "slot_roles", "costs", "distance_weight",
    "assignment", "motion", "moderation_distance", "world", "steering", NULL,
};

// anchor = { x =, y =, orientation =, target = agent or {x, y}, path = or steering = behaviour,
//   max_speed =, max_acceleration =, max_rotation = }
static void check_anchor(lua_State *L, int arg, int vidx, steer_formation_def *def, int fidx)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TTABLE) laux_error(L, laux_field(arg, "anchor"), "must be a table {x =, y =, target = or path =}", vidx);
    lua_pushnil(L);
    while (lua_next(L, vidx) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        char name[64];
        snprintf(name, sizeof name, "anchor.%s", k);
        laux_where w = laux_field(arg, name);
        if (strcmp(k, "x") == 0) def->anchor_position.x = (float)laux_number(L, w, -1, LAUX_FINITE);
        else if (strcmp(k, "y") == 0) def->anchor_position.y = (float)laux_number(L, w, -1, LAUX_FINITE);
        else if (strcmp(k, "orientation") == 0) def->anchor_orientation = (float)laux_number(L, w, -1, LAUX_FINITE);
        else if (strcmp(k, "max_speed") == 0) def->anchor_max_speed = (float)laux_number(L, w, -1, LAUX_NONNEGATIVE);
        else if (strcmp(k, "max_rotation") == 0) def->anchor_max_rotation = (float)laux_number(L, w, -1, LAUX_NONNEGATIVE);
        else if (strcmp(k, "target") == 0) {
            lagent *a = steer_lua__test_agent(L, -1);
            if (a != NULL) {
                check_member_agent(L, w, -1, NULL);
                def->anchor_target.kind = STEER_TARGET_AGENT;
                def->anchor_target.agent = a->id;
            } else if (lua_type(L, -1) == LUA_TTABLE) {
                def->anchor_target.kind = STEER_TARGET_POINT;
                laux_point(L, w, -1, &def->anchor_target.point.x, &def->anchor_target.point.y);
            } else {
                laux_error(L, w, "must be an agent or a point {x, y}", -1);
            }
            lua_pushvalue(L, -1);
            set_data(L, fidx, "anchor_target");
        } else if (strcmp(k, "path") == 0) {
            lpath *lp = luaL_testudata(L, -1, STEER_LUA_PATH);
            if (lp == NULL) laux_error(L, w, "must be a path (world:path{...})", -1);
            def->anchor_path = lp->path;
            lua_pushvalue(L, -1);
            set_data(L, fidx, "anchor_path");
        } else if (strcmp(k, "steering") == 0) {
            lbehaviour *lb = steer_lua__test_behaviour(L, -1);
            if (lb == NULL) laux_error(L, w, "must be a behaviour", -1);
            if (!steer_formation_can_steer_anchor(lb->b))
                laux_error_plain(L, w, "must not contain a Lua behaviour or a formation slot");
            def->anchor_behaviour = lb->b;
            lua_pushvalue(L, -1);
            set_data(L, fidx, "anchor_steering");
        } else if (strcmp(k, "max_acceleration") == 0) {
            def->anchor_max_acceleration = (float)laux_number(L, w, -1, LAUX_NONNEGATIVE);
        } else {
            luaL_argerror(L, arg, lua_pushfstring(L, "unknown field '%s'", name));
        }
        lua_pop(L, 1);
    }
}

// Add the agent at vidx as a member (reporting errors against w).
static void add_member(lua_State *L, int fidx, int vidx, laux_where w)
{
    fidx = lua_absindex(L, fidx);
    vidx = lua_absindex(L, vidx);
    lformation *lf = lua_touserdata(L, fidx);
    lagent *a = check_member_agent(L, w, vidx, lf->core);
    steer_world *world = lf->core->world;
    // checked first: no engine assert is reachable from Lua
    const char *phrase = steer_formation_check_add(world, lf->id, a->id);
    if (phrase != NULL) laux_error_plain(L, w, phrase);
    if (!steer_formation_add(world, lf->id, a->id, 0)) luaL_error(L, "not enough memory");
}

static void push_formation_behaviour(lua_State *L, int fidx);

// Give members without steering the formation's behaviour.
static void default_steering(lua_State *L, int fidx, steer_agent_id a)
{
    lformation *lf = lua_touserdata(L, fidx);
    if (steer_agent_get_behaviour(lf->core->world, a) != NULL) return;
    if (get_data(L, fidx, "steering") == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_getiuservalue(L, fidx, FORM_UV_CORE);
    push_formation_behaviour(L, fidx);
    steer_lua__set_steering(L, -2, a, -1, false);
    lua_pop(L, 2);
}

// Members forbidden in every slot are an error (named against w).
static void check_forbidden(lua_State *L, int fidx, laux_where w)
{
    lformation *lf = lua_touserdata(L, fidx);
    steer_world *world = lf->core->world;
    int n = steer_formation_member_count(world, lf->id), slots = steer_formation_slot_count(world, lf->id);
    for (int m = 0; m < n; ++m) {
        steer_agent_id a = steer_formation_member_at(world, lf->id, m);
        if (slots == 0 || steer_formation_allowed_slots(world, lf->id, a) > 0) continue;
        lua_getiuservalue(L, fidx, FORM_UV_CORE);
        push_member_role(L, -1, a);
        const char *role = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(none)";
        steer_formation_destroy(world, lf->id); // nothing half-made stays behind
        laux_error_plain(L, w, lua_pushfstring(L, "forbid every slot to a member with role '%s'", role));
    }
}

// steer.formation{pattern =, leader = or anchor =, members =, spacing =, slot_roles =,
//   costs =, distance_weight =, assignment =, motion =, moderation_distance =, world =} -> formation
static int formation_new(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    // unknown fields first
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        bool known = false;
        if (lua_type(L, -2) == LUA_TSTRING) {
            for (int i = 0; formation_fields[i] != NULL && !known; ++i) known = strcmp(lua_tostring(L, -2), formation_fields[i]) == 0;
        }
        if (!known) laux_unknown_field(L, 1, -2);
        lua_pop(L, 1);
    }
    // the world: from the leader, the members, or world =
    lcore *core = NULL;
    int core_idx = 0;
    if (lua_getfield(L, 1, "leader") != LUA_TNIL) {
        lagent *a = check_member_agent(L, laux_field(1, "leader"), -1, NULL);
        core = a->core;
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else if (lua_getfield(L, 1, "members"), lua_type(L, -1) == LUA_TTABLE && lua_rawgeti(L, -1, 1) != LUA_TNIL) {
        lagent *a = check_member_agent(L, laux_field(1, "members[1]"), -1, NULL);
        core = a->core;
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else if (lua_getfield(L, 1, "world") != LUA_TNIL) {
        core = steer_lua__check_world(L, lua_gettop(L));
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else {
        return luaL_argerror(L, 1, "needs a leader, members or a world");
    }
    steer_lua__check_mutable(L, core);
    steer_formation_def def = steer_default_formation_def();
    lformation *lf = lua_newuserdatauv(L, sizeof *lf, 2);
    const int fidx = lua_gettop(L);
    lf->core = NULL;
    lf->id = steer_null_formation;
    luaL_setmetatable(L, STEER_LUA_FORMATION);
    lua_pushvalue(L, core_idx);
    lua_setiuservalue(L, fidx, FORM_UV_CORE);
    lua_newtable(L);
    lua_setiuservalue(L, fidx, FORM_UV_DATA);
    // options into the definition and the data table
    if (lua_getfield(L, 1, "pattern") != LUA_TNIL) {
        check_pattern(L, laux_field(1, "pattern"), -1);
        set_data(L, fidx, "pattern");
    } else {
        lua_pushliteral(L, "line");
        set_data(L, fidx, "pattern");
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "leader") != LUA_TNIL) {
        lagent *a = check_member_agent(L, laux_field(1, "leader"), -1, core);
        def.leader = a->id;
        set_data(L, fidx, "leader");
    } else lua_pop(L, 1);
    if (lua_getfield(L, 1, "anchor") != LUA_TNIL) {
        if (!steer_agent_id_is_null(def.leader)) laux_error_plain(L, laux_field(1, "anchor"), "cannot be given with a leader");
        check_anchor(L, 1, -1, &def, fidx);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "spacing") != LUA_TNIL) def.spacing = (float)laux_number(L, laux_field(1, "spacing"), -1, LAUX_POSITIVE);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "distance_weight") != LUA_TNIL)
        def.distance_weight = (float)laux_number(L, laux_field(1, "distance_weight"), -1, LAUX_NONNEGATIVE);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "moderation_distance") != LUA_TNIL)
        def.moderation_distance = (float)laux_number(L, laux_field(1, "moderation_distance"), -1, LAUX_POSITIVE);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "assignment") != LUA_TNIL)
        def.assignment = (steer_formation_assignment)laux_enum(L, laux_field(1, "assignment"), -1, assignment_names);
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "motion") != LUA_TNIL) def.motion = (steer_formation_motion)laux_enum(L, laux_field(1, "motion"), -1, motion_names);
    lua_pop(L, 1);
    int t = lua_getfield(L, 1, "slot_roles");
    if (t != LUA_TNIL && t != LUA_TTABLE && t != LUA_TFUNCTION)
        laux_error(L, laux_field(1, "slot_roles"), "must be a list of role names or a function", -1);
    set_data(L, fidx, "slot_roles");
    t = lua_getfield(L, 1, "costs");
    if (t != LUA_TNIL && t != LUA_TTABLE && t != LUA_TFUNCTION)
        laux_error(L, laux_field(1, "costs"), "must be a table costs[member_role][slot_role] or a function", -1);
    set_data(L, fidx, "costs");
    if (lua_getfield(L, 1, "steering") != LUA_TNIL) laux_boolean(L, laux_field(1, "steering"), -1);
    set_data(L, fidx, "steering");
    // members are checked before anything is created
    int members = 0;
    if (lua_getfield(L, 1, "members") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE) laux_error(L, laux_field(1, "members"), "must be a list of agents", -1);
        members = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, members);
        for (lua_Integer i = 1; i <= n; ++i) {
            char name[32];
            snprintf(name, sizeof name, "members[%d]", (int)i);
            lua_rawgeti(L, members, i);
            check_member_agent(L, laux_field(1, name), -1, core);
            lua_pop(L, 1);
        }
    }
    def.member_capacity = members ? (int)lua_rawlen(L, members) : 0;
    lf->id = steer_formation_create(core->world, &def);
    if (steer_formation_id_is_null(lf->id)) return luaL_error(L, "not enough memory");
    lf->core = core;
    lguard *guard = push_guard(L, fidx, GUARD_DESTROY);
    if (members) {
        lua_Integer n = (lua_Integer)lua_rawlen(L, members);
        for (lua_Integer i = 1; i <= n; ++i) {
            char name[32];
            snprintf(name, sizeof name, "members[%d]", (int)i);
            lua_rawgeti(L, members, i);
            add_member(L, fidx, -1, laux_field(1, name));
            lua_pop(L, 1);
        }
    }
    sync(L, fidx, laux_field(1, NULL));
    check_forbidden(L, fidx, laux_field(1, "costs"));
    guard->armed = false;
    for (int m = 0; m < steer_formation_member_count(core->world, lf->id); ++m)
        default_steering(L, fidx, steer_formation_member_at(core->world, lf->id, m));
    lua_pushvalue(L, fidx);
    return 1;
}

/* ---- methods ---------------------------------------------------------------------------- */

static void push_formation_behaviour(lua_State *L, int fidx)
{
    fidx = lua_absindex(L, fidx);
    if (get_data(L, fidx, "behaviour") != LUA_TNIL) return;
    lua_pop(L, 1);
    lformation *lf = lua_touserdata(L, fidx);
    steer_behaviour_def d = steer_default_behaviour_def(STEER_FORMATION_SLOT);
    d.formation = lf->id;
    steer_behaviour *b = steer_behaviour_create(&d);
    if (b == NULL) luaL_error(L, "not enough memory");
    steer_lua__push_behaviour(L, b); // the proxy holds its own reference
    steer_behaviour_release(b);
    lua_pushvalue(L, -1);
    set_data(L, fidx, "behaviour");
}

// f:behaviour() -> the formation_slot behaviour members steer with (one per formation)
static int formation_behaviour(lua_State *L)
{
    check_formation(L, 1);
    push_formation_behaviour(L, 1);
    return 1;
}

// f:add(agent): joins, gets the formation's behaviour unless it has steering; reassigns
static int formation_add(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_lua__check_mutable(L, lf->core);
    lua_settop(L, 2);
    add_member(L, 1, 2, laux_arg(2));
    lagent *a = lua_touserdata(L, 2);
    // the Lua functions see the new member count; if one raises, the guard
    // takes the member out again
    lguard *guard = push_guard(L, 1, GUARD_REMOVE);
    guard->agent = a->id;
    sync(L, 1, laux_arg(2));
    guard->armed = false;
    steer_world *world = lf->core->world;
    if (steer_formation_slot_count(world, lf->id) > 0 && steer_formation_allowed_slots(world, lf->id, a->id) == 0) {
        lua_getiuservalue(L, 1, FORM_UV_CORE);
        push_member_role(L, -1, a->id);
        const char *role = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(none)";
        lua_pushstring(L, role);
        steer_formation_remove(world, lf->id, a->id);
        sync(L, 1, laux_arg(2));
        return laux_error_plain(L, laux_arg(2), lua_pushfstring(L, "has role '%s', forbidden in every slot", lua_tostring(L, -1)));
    }
    default_steering(L, 1, a->id);
    return 0;
}

// f:remove(agent) -> true if it was a member
static int formation_remove(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_lua__check_mutable(L, lf->core);
    lagent *a = steer_lua__test_agent(L, 2);
    if (a == NULL) return luaL_typeerror(L, 2, "agent");
    bool was = a->core == lf->core && steer_formation_remove(lf->core->world, lf->id, a->id);
    if (was) sync(L, 1, laux_arg(2));
    lua_pushboolean(L, was);
    return 1;
}

// f:slot_of(agent) -> slot index (1-based), or nil
static int formation_slot_of(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lagent *a = steer_lua__test_agent(L, 2);
    if (a == NULL) return luaL_typeerror(L, 2, "agent");
    int s = a->core == lf->core ? steer_formation_slot_of(lf->core->world, lf->id, a->id) : -1;
    if (s < 0) lua_pushnil(L);
    else lua_pushinteger(L, s + 1);
    return 1;
}

// f:slot_target(i) -> x, y, orientation of slot i now (nil without a reference)
static int formation_slot_target(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    int n = steer_formation_slot_count(lf->core->world, lf->id);
    if (i < 1 || i > n) return luaL_argerror(L, 2, lua_pushfstring(L, "slot must be in 1..%d, got %I", n, (LUAI_UACINT)i));
    steer_vec2 p;
    float o;
    if (!steer_formation_slot_target(lf->core->world, lf->id, (int)i - 1, &p, &o)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, o);
    return 3;
}

// f:slot_holder(i) -> agent or nil
static int formation_slot_holder(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    steer_agent_id a = steer_formation_slot_holder(lf->core->world, lf->id, (int)i - 1);
    if (steer_agent_id_is_null(a)) {
        lua_pushnil(L);
        return 1;
    }
    lua_getiuservalue(L, 1, FORM_UV_CORE);
    steer_lua__push_agent(L, -1, a);
    return 1;
}

// f:total_cost() -> the cost of the current assignment, recomputed now
static int formation_total_cost(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_pushnumber(L, steer_formation_total_cost(lf->core->world, lf->id));
    return 1;
}

// f:reassign(): assign again now (kept when no better: ties never swap)
static int formation_reassign(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_lua__check_mutable(L, lf->core);
    steer_formation_reassign(lf->core->world, lf->id);
    return 0;
}

// f:followed(agent) -> the agent it follows (emergent: a member or the leader), or nil
static int formation_followed(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lagent *a = steer_lua__test_agent(L, 2);
    if (a == NULL) return luaL_typeerror(L, 2, "agent");
    steer_agent_id b = steer_formation_followed(lf->core->world, lf->id, a->id);
    if (steer_agent_id_is_null(b)) {
        lua_pushnil(L);
        return 1;
    }
    lua_getiuservalue(L, 1, FORM_UV_CORE);
    steer_lua__push_agent(L, -1, b);
    return 1;
}

// f:anchor() -> x, y, orientation, moderation of the anchor now
static int formation_anchor(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_vec2 p = steer_formation_anchor_position(lf->core->world, lf->id);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, steer_formation_anchor_orientation(lf->core->world, lf->id));
    lua_pushnumber(L, steer_formation_anchor_moderation(lf->core->world, lf->id));
    return 4;
}

// f:destroy(): the formation goes; its members keep their behaviours (no steering from it)
static int formation_destroy(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_lua__check_mutable(L, lf->core);
    steer_formation_destroy(lf->core->world, lf->id);
    return 0;
}

/* ---- properties -------------------------------------------------------------------------- */

// The properties (upvalue 2 of __index, so tools can list them).
static const char *const formation_props[] = {
    "pattern", "spacing", "leader", "motion", "assignment", "slot_roles", "costs", "distance_weight",
    "moderation_distance", "members", "slot_count", NULL,
};

static int formation_index(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; // a method
    const char *k = luaL_checkstring(L, 2);
    steer_world *world = lf->core->world;
    const steer_formation_def *d = steer_formation_get_def(world, lf->id);
    if (strcmp(k, "pattern") == 0 || strcmp(k, "slot_roles") == 0 || strcmp(k, "costs") == 0) {
        get_data(L, 1, k);
    } else if (strcmp(k, "leader") == 0) {
        if (steer_agent_id_is_null(d->leader) || !steer_agent_is_valid(world, d->leader)) lua_pushnil(L);
        else {
            lua_getiuservalue(L, 1, FORM_UV_CORE);
            steer_lua__push_agent(L, -1, d->leader);
        }
    } else if (strcmp(k, "spacing") == 0) laux_push_float(L, d->spacing);
    else if (strcmp(k, "distance_weight") == 0) laux_push_float(L, d->distance_weight);
    else if (strcmp(k, "moderation_distance") == 0) laux_push_float(L, d->moderation_distance);
    else if (strcmp(k, "assignment") == 0) lua_pushstring(L, assignment_names[d->assignment]);
    else if (strcmp(k, "motion") == 0) lua_pushstring(L, motion_names[d->motion]);
    else if (strcmp(k, "slot_count") == 0) lua_pushinteger(L, steer_formation_slot_count(world, lf->id));
    else if (strcmp(k, "members") == 0) {
        int n = steer_formation_member_count(world, lf->id);
        lua_getiuservalue(L, 1, FORM_UV_CORE);
        lua_createtable(L, n, 0);
        for (int m = 0; m < n; ++m) {
            steer_lua__push_agent(L, -2, steer_formation_member_at(world, lf->id, m));
            lua_rawseti(L, -2, m + 1);
        }
    } else {
        return luaL_error(L, "steer.Formation has no property '%s'", k);
    }
    return 1;
}

// data[key] = the value at 3, with a guard that puts the old value back if
// the Lua functions raise when they are evaluated with it
static lguard *replace_data(lua_State *L, const char *key)
{
    lguard *g = push_guard(L, 1, GUARD_RESTORE);
    g->key = key;
    get_data(L, 1, key);
    lua_setiuservalue(L, -2, 2);
    lua_pushvalue(L, 3);
    set_data(L, 1, key);
    return g;
}

static int formation_newindex(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_settop(L, 3);
    const char *k = luaL_checkstring(L, 2);
    steer_lua__check_mutable(L, lf->core);
    steer_world *world = lf->core->world;
    steer_formation_def d = *steer_formation_get_def(world, lf->id);
    laux_where w = laux_property(STEER_LUA_FORMATION, k);
    lguard *guard = NULL;
    if (strcmp(k, "pattern") == 0) {
        check_pattern(L, w, 3);
        guard = replace_data(L, "pattern");
    } else if (strcmp(k, "slot_roles") == 0) {
        if (!lua_isnil(L, 3) && !lua_istable(L, 3) && !lua_isfunction(L, 3))
            laux_error(L, w, "must be a list of role names or a function", 3);
        guard = replace_data(L, "slot_roles");
    } else if (strcmp(k, "costs") == 0) {
        if (!lua_isnil(L, 3) && !lua_istable(L, 3) && !lua_isfunction(L, 3))
            laux_error(L, w, "must be a table costs[member_role][slot_role] or a function", 3);
        guard = replace_data(L, "costs");
    } else if (strcmp(k, "leader") == 0) {
        steer_agent_id id = steer_null_agent;
        if (!lua_isnil(L, 3)) id = check_member_agent(L, w, 3, lf->core)->id;
        const char *phrase = steer_formation_check_leader(world, lf->id, id);
        if (phrase != NULL) laux_error_plain(L, w, phrase);
        d.leader = id;
        if (!steer_formation_set_def(world, lf->id, &d)) return luaL_error(L, "not enough memory");
        lua_pushvalue(L, 3);
        set_data(L, 1, "leader");
        return 0;
    } else if (strcmp(k, "spacing") == 0) {
        d.spacing = (float)laux_number(L, w, 3, LAUX_POSITIVE);
    } else if (strcmp(k, "distance_weight") == 0) {
        d.distance_weight = (float)laux_number(L, w, 3, LAUX_NONNEGATIVE);
    } else if (strcmp(k, "moderation_distance") == 0) {
        d.moderation_distance = (float)laux_number(L, w, 3, LAUX_POSITIVE);
    } else if (strcmp(k, "assignment") == 0) {
        d.assignment = (steer_formation_assignment)laux_enum(L, w, 3, assignment_names);
    } else if (strcmp(k, "motion") == 0) {
        d.motion = (steer_formation_motion)laux_enum(L, w, 3, motion_names);
    } else {
        return luaL_error(L, "steer.Formation has no property '%s'", k);
    }
    if (!steer_formation_set_def(world, lf->id, &d)) return luaL_error(L, "not enough memory");
    sync(L, 1, w);
    if (guard != NULL) guard->armed = false;
    return 0;
}

static int formation_tostring(lua_State *L)
{
    lformation *lf = luaL_checkudata(L, 1, STEER_LUA_FORMATION);
    if (lf->core == NULL || lf->core->world == NULL || !steer_formation_is_valid(lf->core->world, lf->id)) {
        lua_pushliteral(L, "steer.Formation (destroyed)");
        return 1;
    }
    lua_pushfstring(L, "steer.Formation (%d members)", steer_formation_member_count(lf->core->world, lf->id));
    return 1;
}

static const luaL_Reg formation_methods[] = {
    {"add", formation_add},
    {"anchor", formation_anchor},
    {"behaviour", formation_behaviour},
    {"destroy", formation_destroy},
    {"followed", formation_followed},
    {"reassign", formation_reassign},
    {"remove", formation_remove},
    {"slot_holder", formation_slot_holder},
    {"slot_of", formation_slot_of},
    {"slot_target", formation_slot_target},
    {"total_cost", formation_total_cost},
    {NULL, NULL},
};

static const luaL_Reg formation_meta[] = {
    {"__newindex", formation_newindex},
    {"__tostring", formation_tostring},
    {NULL, NULL},
};

void steer_lua__open_formation(lua_State *L)
{
    laux_new_class(L, STEER_LUA_FORMATION, formation_meta);
    luaL_newlib(L, formation_methods);
    laux_push_set(L, formation_props);
    lua_pushcclosure(L, formation_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_pushcfunction(L, formation_new);
    lua_setfield(L, -2, "formation");
}
