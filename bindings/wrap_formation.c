// wrap_formation.c: steer.formation{...} and the steer.Formation class
// (docs/lua-api.md, Formations). One proxy per formation; the formation
// itself belongs to the world (collecting the proxy does not destroy it).
// Its numeric options and properties are the reflected formation
// definition's fields.
//
// Lua functions (a pattern, slot roles, costs) never run in the engine's
// step: the bindings evaluate them whenever the formation's shape changes
// (members added or removed through the proxy, pattern, spacing, roles or
// costs set) and hand the engine the results as tables of slots and costs.
// Uservalue 1 is the world's core; uservalue 2 a table of the Lua values
// behind the formation (pattern, slot_roles, costs, leader, anchor target
// and path, the member behaviour).
#include "classes.h"
#include "formation_sync.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static lformation *check_formation(lua_State *L, int arg)
{
    lformation *lf = luaL_checkudata(L, arg, STEER_LUA_FORMATION);
    if (lf->core == NULL || lf->core->world == NULL) luaL_error(L, "attempt to use a closed world");
    if (!steer_formation_is_valid(lf->core->world, lf->id)) luaL_error(L, "attempt to use a destroyed formation");
    return lf;
}

// Charge the assignment the formation's next read runs (its pending work)
// to the work hook, before the read: a host counts it in the script's budget.
static void charge(lua_State *L, const lformation *lf)
{
    steer_lua__charge_work(L, steer_formation_pending_work(lf->core->world, lf->id));
}

/* ---- checks of option values -------------------------------------------------------- */

// A live agent of the formation's world (value at vidx).
static lagent *check_member_agent(lua_State *L, steer_laux_where w, int vidx, lcore *core)
{
    lagent *a = steer_lua__test_agent(L, vidx);
    if (a == NULL) steer_laux_error(L, w, "must be an agent", vidx);
    if (a->core == NULL || a->core->world == NULL || !steer_agent_is_valid(a->core->world, a->id))
        steer_laux_error_plain(L, w, "must be a live agent, got a removed agent");
    if (core != NULL && a->core != core) steer_laux_error_plain(L, w, "must be an agent of the formation's world");
    return a;
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
        steer_lua__formation_set(L, -2, g->key);
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
    steer_compat_set_private_metatable(L, &guard_key, "__close", guard_close);
    lua_pushvalue(L, fidx);
    lua_setiuservalue(L, -2, 1);
    lua_toclose(L, -1);
    return g;
}

/* ---- the constructor ---------------------------------------------------------------- */

// Options besides the definition's fields (the anchor's: full names).
const char *const steer_lua__formation_options[] = {"pattern", "leader", "anchor", "members", "slot_roles",
                                               "costs", "world", "steering", NULL};
const char *const steer_lua__anchor_options[] = {"anchor.target", "anchor.path", "anchor.steering", NULL};
enum { ANCHOR_TARGET, ANCHOR_PATH, ANCHOR_STEERING };

static void build_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_FORMATION, false, NULL, steer_lua__formation_options); }
static void build_anchor_options(lua_State *L)
{
    steer_lua__push_def_names(L, STEER_DEF_FORMATION, false, "anchor.", steer_lua__anchor_options);
}
static const char options_key = 0, anchor_options_key = 0;

typedef struct anchor_context {
    steer_formation_def *def;
    int fidx;
} anchor_context;

static bool anchor_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    anchor_context *c = context;
    steer_formation_def *def = c->def;
    if (code == ANCHOR_TARGET) {
        lagent *a = steer_lua__test_agent(L, vidx);
        if (a != NULL) {
            // of the formation's world (an id means nothing in another)
            check_member_agent(L, w, vidx, ((lformation *)lua_touserdata(L, c->fidx))->core);
            def->anchor_target.kind = STEER_TARGET_AGENT;
            def->anchor_target.agent = a->id;
        } else if (lua_type(L, vidx) == LUA_TTABLE) {
            def->anchor_target.kind = STEER_TARGET_POINT;
            steer_laux_point(L, w, vidx, &def->anchor_target.point.x, &def->anchor_target.point.y);
        } else {
            steer_laux_error(L, w, "must be an agent or a point {x, y}", vidx);
        }
        lua_pushvalue(L, vidx);
        steer_lua__formation_set(L, c->fidx, "anchor_target");
    } else if (code == ANCHOR_PATH) {
        lpath *lp = steer_lua__test_path(L, vidx);
        if (lp == NULL) steer_laux_error(L, w, "must be a path (world:path{...})", vidx);
        def->anchor_path = lp->path;
        lua_pushvalue(L, vidx);
        steer_lua__formation_set(L, c->fidx, "anchor_path");
    } else {
        lbehaviour *lb = steer_lua__test_behaviour(L, vidx);
        if (lb == NULL) steer_laux_error(L, w, "must be a behaviour", vidx);
        if (!steer_formation_can_steer_anchor(lb->b))
            steer_laux_error_plain(L, w, "must not contain a Lua behaviour or a formation slot");
        def->anchor_behaviour = lb->b;
        lua_pushvalue(L, vidx);
        steer_lua__formation_set(L, c->fidx, "anchor_steering");
    }
    return true;
}

// anchor = { x =, y =, orientation =, target = agent or {x, y}, path = or steering = behaviour,
//   max_speed =, max_acceleration =, max_rotation = }
static void check_anchor(lua_State *L, int arg, int vidx, steer_formation_def *def, int fidx)
{
    vidx = lua_absindex(L, vidx);
    if (lua_type(L, vidx) != LUA_TTABLE)
        steer_laux_error(L, steer_laux_field(arg, "anchor"), "must be a table {x =, y =, target = or path =}", vidx);
    steer_lua__push_memo(L, &anchor_options_key, build_anchor_options);
    anchor_context c = {def, fidx};
    steer_lua_reader r = {.arg = arg, .prefix = "anchor.", .def = def, .extra = anchor_extra, .context = &c};
    steer_lua__read_options(L, vidx, lua_gettop(L), &r);
    lua_pop(L, 1);
}

// The world keeps the proxy of a formation made through Lua while the
// formation lives (world:formations, agent.formation; the Lua values behind
// the formation are the proxy's); keep false: forget it. Core at core_idx,
// the proxy at -1 when keeping.
static void keep_proxy(lua_State *L, int core_idx, steer_formation_id id, bool keep)
{
    core_idx = lua_absindex(L, core_idx);
    int proxy = lua_gettop(L);
    lua_getiuservalue(L, core_idx, CORE_UV_FORMATIONS);
    if (keep) lua_pushvalue(L, proxy);
    else lua_pushnil(L);
    lua_rawseti(L, -2, (lua_Integer)steer_formation_id_store(id));
    lua_pop(L, 1);
}

// Add the agent at vidx as a member (reporting errors against w).
static void add_member(lua_State *L, int fidx, int vidx, steer_laux_where w)
{
    fidx = lua_absindex(L, fidx);
    vidx = lua_absindex(L, vidx);
    lformation *lf = lua_touserdata(L, fidx);
    lagent *a = check_member_agent(L, w, vidx, lf->core);
    steer_world *world = lf->core->world;
    // checked first: no engine assert is reachable from Lua
    const char *phrase = steer_formation_check_add(world, lf->id, a->id);
    steer_formation_id other = steer_agent_get_formation(world, a->id);
    if (phrase != NULL && !steer_formation_id_is_null(other) && !steer_formation_id_equal(other, lf->id))
        phrase = "is already a member of another formation (agent.formation: remove it there first, "
                 "agent.formation:remove(agent); after a reload, world:formations() has the old one)";
    if (phrase != NULL) steer_laux_error_plain(L, w, phrase);
    if (!steer_formation_add(world, lf->id, a->id, 0)) luaL_error(L, "not enough memory");
}

static void push_formation_behaviour(lua_State *L, int fidx);

// Give members without steering the formation's behaviour.
static void default_steering(lua_State *L, int fidx, steer_agent_id a)
{
    lformation *lf = lua_touserdata(L, fidx);
    if (steer_agent_get_behaviour(lf->core->world, a) != NULL) return;
    if (steer_lua__formation_get(L, fidx, "steering") == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
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
static void check_forbidden(lua_State *L, int fidx, steer_laux_where w)
{
    lformation *lf = lua_touserdata(L, fidx);
    steer_world *world = lf->core->world;
    int n = steer_formation_member_count(world, lf->id), slots = steer_formation_slot_count(world, lf->id);
    for (int m = 0; m < n; ++m) {
        steer_agent_id a = steer_formation_member_at(world, lf->id, m);
        // (a member removed from the world leaves at the next step)
        if (slots == 0 || !steer_agent_is_valid(world, a) || steer_formation_allowed_slots(world, lf->id, a) > 0)
            continue;
        lua_getiuservalue(L, fidx, FORM_UV_CORE);
        steer_lua__formation_member_role(L, -1, a);
        const char *role = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(none)";
        steer_formation_destroy(world, lf->id); // nothing half-made stays behind
        steer_laux_error_plain(L, w, lua_pushfstring(L, "forbid every slot to a member with role '%s'", role));
    }
}

// steer.formation{pattern =, leader = or anchor =, members =, spacing =, slot_roles =,
//   costs =, distance_weight =, assignment =, motion =, moderation_distance =, world =} -> formation
int steer_lua__formation_new(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    // unknown fields first
    steer_lua__push_memo(L, &options_key, build_options); // 2
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        if (steer_lua__lookup(L, 2, -2) == -1) steer_laux_unknown_field(L, 1, -2);
        lua_settop(L, 3);
    }
    lua_settop(L, 1);
    // the world: from the leader, the members, or world =
    lcore *core = NULL;
    int core_idx = 0;
    if (lua_getfield(L, 1, "leader") != LUA_TNIL) {
        lagent *a = check_member_agent(L, steer_laux_field(1, "leader"), -1, NULL);
        core = a->core;
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else if (lua_getfield(L, 1, "members"), lua_type(L, -1) == LUA_TTABLE && lua_rawgeti(L, -1, 1) != LUA_TNIL) {
        lagent *a = check_member_agent(L, steer_laux_field(1, "members[1]"), -1, NULL);
        core = a->core;
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else if (lua_getfield(L, 1, "world") != LUA_TNIL) {
        if (luaL_testudata(L, -1, STEER_LUA_WORLD) == NULL) steer_laux_error(L, steer_laux_field(1, "world"), "must be a world", -1);
        core = steer_lua__check_world(L, lua_gettop(L));
        lua_getiuservalue(L, -1, 1);
        core_idx = lua_gettop(L);
    } else {
        return luaL_argerror(L, 1, "needs a leader, members or a world");
    }
    steer_lua__check_mutable(L, core);
    steer_formation_def def = steer_default_formation_def();
    lformation *lf = steer_lua__new_handle(L, core_idx, LKIND_FORMATION);
    const int fidx = lua_gettop(L);
    lua_newtable(L);
    lua_setiuservalue(L, fidx, FORM_UV_DATA);
    // options into the definition and the data table
    if (lua_getfield(L, 1, "pattern") != LUA_TNIL) {
        steer_lua__formation_check_pattern(L, steer_laux_field(1, "pattern"), -1);
        steer_lua__formation_set(L, fidx, "pattern");
    } else {
        lua_pushliteral(L, "line");
        steer_lua__formation_set(L, fidx, "pattern");
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "leader") != LUA_TNIL) {
        lagent *a = check_member_agent(L, steer_laux_field(1, "leader"), -1, core);
        def.leader = a->id;
        steer_lua__formation_set(L, fidx, "leader");
    } else lua_pop(L, 1);
    if (lua_getfield(L, 1, "anchor") != LUA_TNIL) {
        if (!steer_agent_id_is_null(def.leader)) steer_laux_error_plain(L, steer_laux_field(1, "anchor"), "cannot be given with a leader");
        check_anchor(L, 1, -1, &def, fidx);
    }
    lua_pop(L, 1);
    // the numbers and choices: the live fields of the definition
    for (int i = 0; i < steer_def_field_count(STEER_DEF_FORMATION); ++i) {
        const steer_field_info *f = steer_def_field(STEER_DEF_FORMATION, i);
        if (f->live && lua_getfield(L, 1, f->name) != LUA_TNIL)
            steer_lua__read_field(L, steer_laux_field(1, f->name), -1, &def, f);
        if (f->live) lua_pop(L, 1);
    }
    int t = lua_getfield(L, 1, "slot_roles");
    if (t != LUA_TNIL && t != LUA_TTABLE && t != LUA_TFUNCTION)
        steer_laux_error(L, steer_laux_field(1, "slot_roles"), "must be a list of role names or a function", -1);
    steer_lua__formation_set(L, fidx, "slot_roles");
    lua_getfield(L, 1, "costs");
    steer_lua__formation_check_costs(L, steer_laux_field(1, "costs"), -1);
    steer_lua__formation_set(L, fidx, "costs");
    if (lua_getfield(L, 1, "steering") != LUA_TNIL) steer_laux_boolean(L, steer_laux_field(1, "steering"), -1);
    steer_lua__formation_set(L, fidx, "steering");
    // members are checked before anything is created
    int members = 0;
    if (lua_getfield(L, 1, "members") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE) steer_laux_error(L, steer_laux_field(1, "members"), "must be a list of agents", -1);
        members = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, members);
        for (lua_Integer i = 1; i <= n; ++i) {
            char name[32];
            snprintf(name, sizeof name, "members[%d]", (int)i);
            lua_rawgeti(L, members, i);
            check_member_agent(L, steer_laux_field(1, name), -1, core);
            lua_pop(L, 1);
        }
    }
    def.member_capacity = members ? (int)lua_rawlen(L, members) : 0;
    steer_formation_id id = steer_formation_create(core->world, &def);
    if (steer_formation_id_is_null(id)) return luaL_error(L, "not enough memory");
    steer_lua__attach_handle(L, fidx, LKIND_FORMATION, steer_formation_id_store(id));
    lguard *guard = push_guard(L, fidx, GUARD_DESTROY);
    if (members) {
        lua_Integer n = (lua_Integer)lua_rawlen(L, members);
        for (lua_Integer i = 1; i <= n; ++i) {
            char name[32];
            snprintf(name, sizeof name, "members[%d]", (int)i);
            lua_rawgeti(L, members, i);
            add_member(L, fidx, -1, steer_laux_field(1, name));
            lua_pop(L, 1);
        }
    }
    steer_lua__formation_sync(L, fidx, steer_laux_field(1, NULL));
    check_forbidden(L, fidx, steer_laux_field(1, "costs"));
    // the first assignment now, charged where the script asked for it (a
    // budget error leaves no formation behind)
    charge(L, lf);
    steer_formation_reassign(core->world, lf->id);
    guard->armed = false;
    lua_pushvalue(L, fidx);
    keep_proxy(L, core_idx, id, true);
    lua_pop(L, 1);
    for (int m = 0; m < steer_formation_member_count(core->world, lf->id); ++m)
        default_steering(L, fidx, steer_formation_member_at(core->world, lf->id, m));
    lua_pushvalue(L, fidx);
    return 1;
}

/* ---- methods ---------------------------------------------------------------------------- */

static void push_formation_behaviour(lua_State *L, int fidx)
{
    fidx = lua_absindex(L, fidx);
    if (steer_lua__formation_get(L, fidx, "behaviour") != LUA_TNIL) return;
    lua_pop(L, 1);
    lformation *lf = lua_touserdata(L, fidx);
    steer_behaviour_def d = steer_default_behaviour_def(STEER_FORMATION_SLOT);
    d.formation = lf->id;
    steer_behaviour *b = steer_behaviour_create(&d);
    if (b == NULL) luaL_error(L, "not enough memory");
    steer_lua__push_behaviour(L, b); // the proxy holds its own reference
    steer_behaviour_release(b);
    lua_pushvalue(L, -1);
    steer_lua__formation_set(L, fidx, "behaviour");
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
    add_member(L, 1, 2, steer_laux_arg(2));
    lagent *a = lua_touserdata(L, 2);
    // the Lua functions see the new member count; if one raises, the guard
    // takes the member out again
    lguard *guard = push_guard(L, 1, GUARD_REMOVE);
    guard->agent = a->id;
    steer_lua__formation_sync(L, 1, steer_laux_arg(2));
    guard->armed = false;
    steer_world *world = lf->core->world;
    if (steer_formation_slot_count(world, lf->id) > 0 && steer_formation_allowed_slots(world, lf->id, a->id) == 0) {
        lua_getiuservalue(L, 1, FORM_UV_CORE);
        steer_lua__formation_member_role(L, -1, a->id);
        const char *role = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(none)";
        lua_pushstring(L, role);
        steer_formation_remove(world, lf->id, a->id);
        steer_lua__formation_sync(L, 1, steer_laux_arg(2));
        return steer_laux_error_plain(L, steer_laux_arg(2), lua_pushfstring(L, "has role '%s', forbidden in every slot", lua_tostring(L, -1)));
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
    if (was) steer_lua__formation_sync(L, 1, steer_laux_arg(2));
    lua_pushboolean(L, was);
    return 1;
}

// f:slot_of(agent) -> slot index (1-based), or nil
static int formation_slot_of(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    charge(L, lf);
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
    charge(L, lf);
    lua_Integer i = luaL_checkinteger(L, 2);
    int n = steer_formation_slot_count(lf->core->world, lf->id);
    if (i < 1 || i > n) return luaL_argerror(L, 2, lua_pushfstring(L, "slot must be in 1..%d, got " STEER_LUA_IFMT, n, STEER_LUA_IARG(i)));
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
    charge(L, lf);
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
    charge(L, lf);
    lua_pushnumber(L, steer_formation_total_cost(lf->core->world, lf->id));
    return 1;
}

// f:reassign(): assign again now (kept when no better: ties never swap)
static int formation_reassign(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    steer_lua__check_mutable(L, lf->core);
    // a full assignment, whether one was due or not
    steer_world *world = lf->core->world;
    double n = steer_formation_member_count(world, lf->id), s = steer_formation_slot_count(world, lf->id);
    double cols = s > n ? s : n;
    steer_lua__charge_work(L, steer_formation_get_def(world, lf->id)->assignment == STEER_ASSIGN_ORDERED ? n * s
                                                                                                       : n * cols * cols);
    steer_formation_reassign(world, lf->id);
    return 0;
}

// f:followed(agent) -> the agent it follows (emergent: a member or the leader), or nil
static int formation_followed(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    charge(L, lf);
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
    lua_getiuservalue(L, 1, FORM_UV_CORE);
    keep_proxy(L, -1, lf->id, false);
    steer_formation_destroy(lf->core->world, lf->id);
    return 0;
}

/* ---- properties -------------------------------------------------------------------------- */

// Properties besides the live fields of the definition (upvalue 2 of
// __index holds them all, so tools can list them).
const char *const steer_lua__formation_properties[] = {"pattern", "slot_roles", "costs", "leader", "members", "slot_count", NULL};
enum { PROP_PATTERN, PROP_SLOT_ROLES, PROP_COSTS, PROP_LEADER, PROP_MEMBERS, PROP_SLOT_COUNT };

static int formation_index(lua_State *L)
{
    lformation *lf = check_formation(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; // a method
    const char *k = luaL_checkstring(L, 2);
    steer_world *world = lf->core->world;
    const steer_formation_def *d = steer_formation_get_def(world, lf->id);
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == -2) {
        steer_lua__push_field(L, d, lua_touserdata(L, -1));
    } else if (code == PROP_PATTERN || code == PROP_SLOT_ROLES || code == PROP_COSTS) {
        steer_lua__formation_get(L, 1, k);
    } else if (code == PROP_LEADER) {
        if (steer_agent_id_is_null(d->leader) || !steer_agent_is_valid(world, d->leader)) lua_pushnil(L);
        else {
            lua_getiuservalue(L, 1, FORM_UV_CORE);
            steer_lua__push_agent(L, -1, d->leader);
        }
    } else if (code == PROP_SLOT_COUNT) {
        lua_pushinteger(L, steer_formation_slot_count(world, lf->id));
    } else if (code == PROP_MEMBERS) {
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
    steer_lua__formation_get(L, 1, key);
    lua_setiuservalue(L, -2, 2);
    lua_pushvalue(L, 3);
    steer_lua__formation_set(L, 1, key);
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
    steer_laux_where w = steer_laux_property(STEER_LUA_FORMATION, k);
    lguard *guard = NULL;
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == -2) {
        steer_lua__read_field(L, w, 3, &d, lua_touserdata(L, -1));
        lua_settop(L, 3);
    } else if (code == PROP_PATTERN) {
        steer_lua__formation_check_pattern(L, w, 3);
        guard = replace_data(L, "pattern");
    } else if (code == PROP_SLOT_ROLES) {
        if (!lua_isnil(L, 3) && !lua_istable(L, 3) && !lua_isfunction(L, 3))
            steer_laux_error(L, w, "must be a list of role names or a function", 3);
        guard = replace_data(L, "slot_roles");
    } else if (code == PROP_COSTS) {
        steer_lua__formation_check_costs(L, w, 3);
        guard = replace_data(L, "costs");
    } else if (code == PROP_LEADER) {
        steer_agent_id id = steer_null_agent;
        if (!lua_isnil(L, 3)) id = check_member_agent(L, w, 3, lf->core)->id;
        const char *phrase = steer_formation_check_leader(world, lf->id, id);
        if (phrase != NULL) steer_laux_error_plain(L, w, phrase);
        d.leader = id;
        if (!steer_formation_set_def(world, lf->id, &d)) return luaL_error(L, "not enough memory");
        lua_pushvalue(L, 3);
        steer_lua__formation_set(L, 1, "leader");
        return 0;
    } else {
        return luaL_error(L, "steer.Formation has no property '%s'", k);
    }
    if (!steer_formation_set_def(world, lf->id, &d)) return luaL_error(L, "not enough memory");
    steer_lua__formation_sync(L, 1, w);
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
    {"__tostring", formation_tostring},
    {NULL, NULL},
};

void steer_lua__open_formation(lua_State *L)
{
    steer_laux_new_class(L, STEER_LUA_FORMATION, formation_meta);
    luaL_newlib(L, formation_methods);
    steer_lua__push_def_names(L, STEER_DEF_FORMATION, true, NULL, steer_lua__formation_properties);
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, formation_index, 2);
    lua_setfield(L, -4, "__index");
    lua_pushcclosure(L, formation_newindex, 2);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
}
