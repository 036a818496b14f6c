// world_lookup.c: the world's lookups for scripts: world:find{...},
// world:agents{...} and world:formations() (by key, role and tag; state
// across reload, docs/embedding.md). Methods of steer.World kept apart from
// wrap_world.c, which registers them.
#include "classes.h"
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

/* ---- lookups: by key, role and tag ------------------------------------------------- */

/// What world:find and world:agents{...} match (unset fields match all).
typedef struct agent_filter {
    bool by_key;
    uint64_t key;
    int role, tag; ///< stack indices of the strings, 0: any
} agent_filter;

// Read {key =, role =, tag =} at arg into f (the strings stay at arg's fields).
static void read_filter(lua_State *L, int arg, agent_filter *f)
{
    memset(f, 0, sizeof *f);
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (k == NULL || (strcmp(k, "key") != 0 && strcmp(k, "role") != 0 && strcmp(k, "tag") != 0))
            steer_laux_unknown_field(L, arg, -2);
        lua_pop(L, 1);
    }
    if (lua_getfield(L, arg, "key") != LUA_TNIL) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
            steer_laux_error(L, steer_laux_field(arg, "key"), "must be a positive integer", -1);
        f->by_key = true;
        f->key = (uint64_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    static const char *const names[] = {"role", "tag"};
    for (int i = 0; i < 2; ++i) {
        if (lua_getfield(L, arg, names[i]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (lua_type(L, -1) != LUA_TSTRING) steer_laux_error(L, steer_laux_field(arg, names[i]), "must be a string", -1);
        *(i == 0 ? &f->role : &f->tag) = lua_gettop(L); // kept on the stack
    }
}

// Does the agent match? roles and tags: the core's tables at roles, tags.
static bool filter_match(lua_State *L, const agent_filter *f, lcore *core, steer_agent_id id, int roles, int tags)
{
    if (f->by_key && steer_agent_get_key(core->world, id) != f->key) return false;
    lua_Integer stored = steer_lua__stored_id(id);
    const int idx[2] = {f->role, f->tag}, tables[2] = {roles, tags};
    for (int i = 0; i < 2; ++i) {
        if (idx[i] == 0) continue;
        lua_rawgeti(L, tables[i], stored);
        bool same = lua_rawequal(L, -1, idx[i]);
        lua_pop(L, 1);
        if (!same) return false;
    }
    return true;
}

// world:find{ key =, role =, tag = } -> the matching agent with the lowest
// key (then the lowest storage slot), or nil. O(agents).
int steer_lua__world_find(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_settop(L, 2);
    agent_filter f;
    read_filter(L, 2, &f);
    lua_getiuservalue(L, 1, 1);
    int core_idx = lua_gettop(L);
    lua_getiuservalue(L, core_idx, CORE_UV_ROLE);
    lua_getiuservalue(L, core_idx, CORE_UV_TAG);
    int roles = core_idx + 1, tags = core_idx + 2;
    steer_agent_id best = steer_null_agent;
    uint64_t best_key = 0, best_slot = 0;
    for (int i = 0, n = steer_world_agent_count(core->world); i < n; ++i) {
        steer_agent_id id = steer_world_agent_at(core->world, i);
        if (!filter_match(L, &f, core, id, roles, tags)) continue;
        uint64_t key = steer_agent_get_key(core->world, id), slot = steer_agent_id_store(id) >> 32;
        if (steer_agent_id_is_null(best) || key < best_key || (key == best_key && slot < best_slot)) {
            best = id;
            best_key = key;
            best_slot = slot;
        }
    }
    if (steer_agent_id_is_null(best)) lua_pushnil(L);
    else steer_lua__push_agent(L, core_idx, best);
    return 1;
}

// The agents() iterator: upvalues world, core, the next dense index, and
// the filter's role, tag and key (nil: any).
// Descending, so removing the current agent (swap-remove) skips nothing.
static int agents_next(lua_State *L)
{
    lcore *core = lua_touserdata(L, lua_upvalueindex(2));
    if (core->world == NULL) return luaL_error(L, "attempt to use a closed world");
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    int count = steer_world_agent_count(core->world);
    if (i >= count) i = count - 1;
    agent_filter f = {.role = lua_isnil(L, lua_upvalueindex(4)) ? 0 : lua_upvalueindex(4),
                      .tag = lua_isnil(L, lua_upvalueindex(5)) ? 0 : lua_upvalueindex(5),
                      .by_key = !lua_isnil(L, lua_upvalueindex(6)),
                      .key = (uint64_t)lua_tointeger(L, lua_upvalueindex(6))};
    bool filtered = f.role != 0 || f.tag != 0 || f.by_key;
    if (filtered) {
        lua_getiuservalue(L, lua_upvalueindex(2), CORE_UV_ROLE);
        lua_getiuservalue(L, lua_upvalueindex(2), CORE_UV_TAG);
    }
    int top = lua_gettop(L);
    for (; i >= 0; --i) {
        steer_agent_id id = steer_world_agent_at(core->world, (int)i);
        if (filtered && !filter_match(L, &f, core, id, top - 1, top)) continue;
        lua_pushinteger(L, i - 1);
        lua_replace(L, lua_upvalueindex(3));
        steer_lua__push_agent(L, lua_upvalueindex(2), id);
        return 1;
    }
    lua_pushinteger(L, -1);
    lua_replace(L, lua_upvalueindex(3));
    return 0;
}

// world:agents([{ role =, tag =, key = }]) -> iterator over the live agents
// (that match): for agent in world:agents{ role = "guard" } do
int steer_lua__world_agents(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    agent_filter f = {0};
    if (!lua_isnoneornil(L, 2)) {
        lua_settop(L, 2);
        read_filter(L, 2, &f);
    }
    int role = f.role, tag = f.tag;
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_pushinteger(L, steer_world_agent_count(core->world) - 1);
    if (role != 0) lua_getfield(L, 2, "role"); else lua_pushnil(L);
    if (tag != 0) lua_getfield(L, 2, "tag"); else lua_pushnil(L);
    if (f.by_key) lua_pushinteger(L, (lua_Integer)f.key); else lua_pushnil(L);
    lua_pushcclosure(L, agents_next, 6);
    return 1;
}

static int compare_ids(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// world:formations() -> list of the live formations made through Lua, in
// the order of their ids (a reload finds its squads here)
int steer_lua__world_formations(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, 2, CORE_UV_FORMATIONS); // 3
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) {
        lua_pop(L, 1);
        ++n;
    }
    // ids in order (a table's traversal order is not deterministic)
    uint64_t *ids = lua_newuserdatauv(L, (n > 0 ? n : 1) * sizeof *ids, 0); // 4
    size_t live = 0;
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) {
        lformation *lf = luaL_testudata(L, -1, STEER_LUA_FORMATION);
        lua_pop(L, 1);
        if (lf != NULL && live < n && steer_formation_is_valid(core->world, lf->id))
            ids[live++] = (uint64_t)lua_tointeger(L, -1);
    }
    qsort(ids, live, sizeof *ids, compare_ids);
    lua_createtable(L, (int)live, 0); // 5
    for (size_t i = 0; i < live; ++i) {
        lua_rawgeti(L, 3, (lua_Integer)ids[i]);
        lua_rawseti(L, 5, (lua_Integer)i + 1);
    }
    return 1;
}


