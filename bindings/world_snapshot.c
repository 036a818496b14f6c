// world_snapshot.c: world:snapshot() and steer.world_from_snapshot (issue
// 26; docs/lua-api.md, Snapshots). The engine saves the world; the script's
// own state travels in the snapshot's host bytes: the agents' roles, tags
// and data, world.data, and the plain values behind the formations made
// through Lua. Behaviours written in Lua are saved by name
// (steer.behaviour{ name =, fn = }) and re-bound from the restoring side's
// table of functions. A restored world gets its proxies as a world made in
// Lua has them (the behaviours' Lua mirrors, the formations' proxies).
//
// Host bytes: "STEERLUA", a u32 version (2), then six values: the role
// table, the tag table, the data table (all by stored agent id), the
// world's own table, the formations' Lua values by stored formation id, and
// the navigation's state (nav_sync.c: the planner's version, nav_bounds and
// the shapes as given, from which the restored world's navigation is made
// again, so restored plans stand and new ones are the same routes).
// A value: 'n' nil, 't'/'f' booleans, 'i' integer (8 bytes), 'd' double
// (its 8 bytes), 's' u32 length and bytes, 'T' u32 count and that many key,
// value pairs (keys sorted: booleans, numbers, strings, so a table gives the
// same bytes whatever its history), 'A' an agent by stored id (8 bytes).
// Little-endian whatever the machine.
#include "classes.h"
#include "formation_sync.h"
#include "nav_sync.h"
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

#define HOST_MAGIC "STEERLUA"
#define HOST_VERSION 2u
#define MAX_DEPTH 64

/* ---- bytes out ----------------------------------------------------------------------- */

// A growing buffer in a userdata whose __gc frees it, so a Lua error on the
// way leaks nothing.
typedef struct sbuf {
    unsigned char *p;
    size_t n, cap;
} sbuf;

static const char sbuf_meta_key = 0; // registry: the buffers' metatable (no class of the module)

static int sbuf_gc(lua_State *L)
{
    sbuf *b = lua_touserdata(L, 1);
    free(b->p);
    b->p = NULL;
    return 0;
}

static sbuf *sbuf_new(lua_State *L)
{
    sbuf *b = lua_newuserdatauv(L, sizeof *b, 0);
    memset(b, 0, sizeof *b);
    steer_compat_set_private_metatable(L, &sbuf_meta_key, "__gc", sbuf_gc);
    return b;
}

static void put(lua_State *L, sbuf *b, const void *bytes, size_t n)
{
    if (b->cap - b->n < n) {
        size_t cap = b->cap > 0 ? b->cap : 256;
        while (cap - b->n < n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (p == NULL) luaL_error(L, "not enough memory");
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, bytes, n);
    b->n += n;
}

static void put_u8(lua_State *L, sbuf *b, unsigned char c) { put(L, b, &c, 1); }

static void put_u64(lua_State *L, sbuf *b, uint64_t v, int bytes)
{
    unsigned char w[8];
    for (int i = 0; i < bytes; ++i) w[i] = (unsigned char)(v >> (8 * i));
    put(L, b, w, (size_t)bytes);
}

/* ---- values out --------------------------------------------------------------------- */

typedef struct skey {
    int rank; // 0 boolean, 1 number, 2 string
    double number;
    size_t len;
    const char *s;
    int at; // its index in the key list
} skey;

static int key_order(const void *pa, const void *pb)
{
    const skey *a = pa, *b = pb;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->rank < 2) return a->number < b->number ? -1 : a->number > b->number ? 1 : 0;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    if (c != 0) return c;
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

static void put_value(lua_State *L, sbuf *b, int idx, int depth, const lcore *core);

// Whether put_value saves the value at idx as itself (entries that would be
// nil are left out, so a restored table saves to the same bytes).
static bool savable(lua_State *L, int idx, int depth, const lcore *core)
{
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
    case LUA_TNUMBER:
    case LUA_TSTRING: return true;
    case LUA_TTABLE: return depth < MAX_DEPTH;
    case LUA_TUSERDATA: {
        const lagent *a = core != NULL ? steer_lua__test_agent(L, idx) : NULL;
        return a != NULL && a->core == core;
    }
    default: return false;
    }
}

static void put_table(lua_State *L, sbuf *b, int idx, int depth, const lcore *core)
{
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, 8, "snapshot: tables nested too deep");
    lua_newtable(L);
    int keys = lua_gettop(L);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        bool kept = savable(L, -1, depth + 1, core);
        lua_pop(L, 1);
        int t = lua_type(L, -1);
        if (kept && (t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING)) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, keys, ++n);
        }
    }
    skey *k = lua_newuserdatauv(L, sizeof *k * (size_t)(n > 0 ? n : 1), 0);
    for (int i = 0; i < n; ++i) {
        lua_rawgeti(L, keys, i + 1);
        int t = lua_type(L, -1);
        k[i] = (skey){t == LUA_TBOOLEAN ? 0 : t == LUA_TNUMBER ? 1 : 2, 0.0, 0, NULL, i + 1};
        if (t == LUA_TBOOLEAN) k[i].number = lua_toboolean(L, -1);
        else if (t == LUA_TNUMBER) k[i].number = lua_tonumber(L, -1);
        else k[i].s = lua_tolstring(L, -1, &k[i].len); // kept alive by the key list
        lua_pop(L, 1);
    }
    qsort(k, (size_t)n, sizeof *k, key_order);
    put_u8(L, b, 'T');
    put_u64(L, b, (uint64_t)n, 4);
    for (int i = 0; i < n; ++i) {
        lua_rawgeti(L, keys, k[i].at);
        put_value(L, b, -1, depth + 1, core);
        lua_rawget(L, idx);
        put_value(L, b, -1, depth + 1, core);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

// The value at idx: plain values as they are; agents of core by id (core
// NULL: none); anything else (functions, behaviours, paths) as nil.
static void put_value(lua_State *L, sbuf *b, int idx, int depth, const lcore *core)
{
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: put_u8(L, b, lua_toboolean(L, idx) ? 't' : 'f'); return;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            put_u8(L, b, 'i');
            put_u64(L, b, (uint64_t)lua_tointeger(L, idx), 8);
        } else {
            double d = lua_tonumber(L, idx);
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            put_u8(L, b, 'd');
            put_u64(L, b, bits, 8);
        }
        return;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len > 0xffffffffu) luaL_error(L, "snapshot: a string is too long");
        put_u8(L, b, 's');
        put_u64(L, b, (uint64_t)len, 4);
        put(L, b, s, len);
        return;
    }
    case LUA_TTABLE:
        if (depth < MAX_DEPTH) {
            put_table(L, b, idx, depth, core);
            return;
        }
        break;
    case LUA_TUSERDATA: {
        const lagent *a = core != NULL ? steer_lua__test_agent(L, idx) : NULL;
        if (a != NULL && a->core == core) {
            put_u8(L, b, 'A');
            put_u64(L, b, steer_agent_id_store(a->id), 8);
            return;
        }
        break;
    }
    default: break;
    }
    put_u8(L, b, 'n');
}

/* ---- world:snapshot ------------------------------------------------------------------ */

// Check every entry of the table at tidx (agent.data by id) is plain.
static void check_data(lua_State *L, int tidx, steer_laux_where w)
{
    lua_pushnil(L);
    while (lua_next(L, tidx) != 0) {
        steer_lua__check_plain(L, w, lua_gettop(L));
        lua_pop(L, 1);
    }
}

// world:snapshot() -> string
static int world_snapshot(lua_State *L)
{
    lcore *core = steer_lua__check_world(L, 1);
    if (steer_world_is_stepping(core->world)) return luaL_error(L, "world:snapshot: not during a step");
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1); // 2: core
    sbuf *b = sbuf_new(L);      // 3
    put(L, b, HOST_MAGIC, 8);
    put_u64(L, b, HOST_VERSION, 4);
    static const int uvs[] = {CORE_UV_ROLE, CORE_UV_TAG, CORE_UV_DATA, CORE_UV_WORLD};
    for (int i = 0; i < 4; ++i) {
        lua_getiuservalue(L, 2, uvs[i]);
        if (uvs[i] == CORE_UV_DATA) check_data(L, lua_gettop(L), steer_laux_property(STEER_LUA_AGENT, "data"));
        if (uvs[i] == CORE_UV_WORLD) check_data(L, lua_gettop(L), steer_laux_property(STEER_LUA_WORLD, "data"));
        put_value(L, b, -1, 0, NULL);
        lua_pop(L, 1);
    }
    // the formations' Lua values (functions, behaviours and paths are not saved)
    lua_newtable(L); // 4
    lua_getiuservalue(L, 2, CORE_UV_FORMATIONS);
    lua_pushnil(L);
    while (lua_next(L, 5) != 0) {
        const lformation *lf = luaL_testudata(L, -1, STEER_LUA_FORMATION);
        if (lf != NULL && steer_formation_is_valid(core->world, lf->id)) {
            lua_pushvalue(L, -2);
            lua_getiuservalue(L, -2, FORM_UV_DATA);
            lua_rawset(L, 4);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    put_value(L, b, 4, 0, core);
    steer_lua__nav_push_state(L, core);
    put_value(L, b, lua_gettop(L), 0, NULL);
    lua_pop(L, 1);
    steer_snapshot_def def = steer_default_snapshot_def();
    def.host_data = b->p;
    def.host_size = b->n;
    steer_snapshot_error error;
    size_t size = 0;
    steer_world_snapshot(core->world, &def, NULL, 0, &size, &error);
    if (size == 0) return luaL_error(L, "world:snapshot: %s", error.message);
    void *out = lua_newuserdatauv(L, size, 0);
    if (!steer_world_snapshot(core->world, &def, out, size, &size, &error))
        return luaL_error(L, "world:snapshot: %s", error.message);
    lua_pushlstring(L, out, size);
    return 1;
}

/* ---- values in ------------------------------------------------------------------------ */

typedef struct sread {
    const unsigned char *p;
    size_t n, at;
} sread;

static int damaged(lua_State *L) { return luaL_error(L, "steer.world_from_snapshot: the script's state in the snapshot is damaged"); }

static uint64_t get_u64(lua_State *L, sread *r, int bytes)
{
    if (r->n - r->at < (size_t)bytes) damaged(L);
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= (uint64_t)r->p[r->at + (size_t)i] << (8 * i);
    r->at += (size_t)bytes;
    return v;
}

// Push the next value; agents through the core at core_idx.
static void get_value(lua_State *L, sread *r, int depth, int core_idx)
{
    if (depth > MAX_DEPTH) damaged(L);
    luaL_checkstack(L, 4, "snapshot: tables nested too deep");
    int tag = (int)get_u64(L, r, 1);
    switch (tag) {
    case 'n': lua_pushnil(L); return;
    case 't': lua_pushboolean(L, 1); return;
    case 'f': lua_pushboolean(L, 0); return;
    case 'i': lua_pushinteger(L, (lua_Integer)get_u64(L, r, 8)); return;
    case 'd': {
        uint64_t bits = get_u64(L, r, 8);
        double d;
        memcpy(&d, &bits, sizeof d);
        lua_pushnumber(L, d);
        return;
    }
    case 's': {
        size_t len = (size_t)get_u64(L, r, 4);
        if (r->n - r->at < len) damaged(L);
        lua_pushlstring(L, (const char *)r->p + r->at, len);
        r->at += len;
        return;
    }
    case 'T': {
        uint64_t count = get_u64(L, r, 4);
        if (count > (r->n - r->at) / 2) damaged(L);
        lua_createtable(L, 0, (int)count);
        for (uint64_t i = 0; i < count; ++i) {
            get_value(L, r, depth + 1, core_idx);
            if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1)))
                damaged(L);
            get_value(L, r, depth + 1, core_idx);
            lua_rawset(L, -3);
        }
        return;
    }
    case 'A': {
        steer_agent_id id = steer_agent_id_load(get_u64(L, r, 8));
        lcore *core = lua_touserdata(L, core_idx);
        if (steer_agent_is_valid(core->world, id)) steer_lua__push_agent(L, core_idx, id);
        else lua_pushnil(L);
        return;
    }
    default: damaged(L);
    }
}

/* ---- steer.world_from_snapshot ----------------------------------------------------------- */

typedef struct resolve_context {
    lua_State *L;
    int bindings_idx; // 0: none given
} resolve_context;

// The engine asks for a Lua behaviour by name: bindings[name] must be a
// function (raw lookups only: nothing here may raise through the engine).
static bool resolve(const char *name, steer_behaviour_def *def, void *context)
{
    const resolve_context *c = context;
    if (c->bindings_idx == 0) return false;
    lua_State *L = c->L;
    if (!lua_checkstack(L, 2)) return false;
    lua_pushstring(L, name);
    lua_rawget(L, c->bindings_idx);
    bool found = lua_isfunction(L, -1);
    lua_pop(L, 1);
    return found && steer_lua__callback_def(def);
}

// True the first time b is seen in the walk whose table is at seen_idx.
static bool first_visit(lua_State *L, int seen_idx, const steer_behaviour *b)
{
    bool seen = lua_rawgetp(L, seen_idx, b) != LUA_TNIL;
    lua_pop(L, 1);
    if (seen) return false;
    lua_pushboolean(L, 1);
    lua_rawsetp(L, seen_idx, b);
    return true;
}

// Push the proxy of a restored behaviour with the Lua values behind it (the
// function of a Lua behaviour, target agent, path, children), so the
// garbage collector and the getters see what a behaviour made in Lua shows.
// seen_idx: the behaviours already mirrored.
static void mirror(lua_State *L, int core_idx, int bindings_idx, int seen_idx, steer_behaviour *b)
{
    luaL_checkstack(L, 8, "snapshot: behaviour trees nested too deep");
    steer_lua__push_behaviour(L, b);
    int p = lua_gettop(L);
    if (!first_visit(L, seen_idx, b)) return;
    steer_behaviour_type type = steer_behaviour_get_type(b);
    const steer_behaviour_def *def = steer_behaviour_get_def(b);
    unsigned inputs = steer_behaviour_type_inputs(type);
    if (type == STEER_CALLBACK) {
        steer_lua__callback_adopt(b);
        const char *name = steer_behaviour_get_name(b);
        if (name != NULL && bindings_idx != 0) {
            lua_getfield(L, bindings_idx, name);
            lua_setiuservalue(L, p, BEH_UV_FN);
        }
    }
    if ((inputs & STEER_INPUT_TARGET) && def->target.kind == STEER_TARGET_AGENT) {
        lcore *core = lua_touserdata(L, core_idx);
        if (steer_agent_is_valid(core->world, def->target.agent)) {
            steer_lua__push_agent(L, core_idx, def->target.agent);
            lua_setiuservalue(L, p, BEH_UV_TARGET);
        }
    }
    if ((inputs & STEER_INPUT_PATH) && def->path != NULL) {
        lpath *lp = lua_newuserdatauv(L, sizeof *lp, 0);
        lp->path = NULL;
        luaL_setmetatable(L, STEER_LUA_PATH);
        lp->path = steer_path_retain(def->path);
        lua_setiuservalue(L, p, BEH_UV_PATH);
    }
    if (inputs & (STEER_INPUT_CHILDREN | STEER_INPUT_PREFERRED)) {
        int n = steer_behaviour_child_count(b);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; ++i) {
            mirror(L, core_idx, bindings_idx, seen_idx, steer_behaviour_get_child(b, i).behaviour);
            lua_rawseti(L, -2, i + 1);
        }
        if (inputs & STEER_INPUT_PREFERRED) lua_rawgeti(L, -1, 1);
        else lua_pushvalue(L, -1);
        lua_setiuservalue(L, p, (inputs & STEER_INPUT_PREFERRED) ? BEH_UV_PATH : BEH_UV_CHILDREN);
        lua_pop(L, 1);
    }
}

// The script's state from the host bytes into the core at core_idx.
static void restore_host(lua_State *L, int core_idx, const void *host, size_t size)
{
    if (size == 0) return; // a snapshot taken in C: no script state
    sread r = {host, size, 0};
    if (size < 12 || memcmp(host, HOST_MAGIC, 8) != 0) damaged(L);
    r.at = 8;
    uint32_t version = (uint32_t)get_u64(L, &r, 4);
    if (version != HOST_VERSION)
        luaL_error(L, "steer.world_from_snapshot: the script's state has version %d, this module reads %d",
                   (int)version, (int)HOST_VERSION);
    static const int uvs[] = {CORE_UV_ROLE, CORE_UV_TAG, CORE_UV_DATA, CORE_UV_WORLD};
    for (int i = 0; i < 4; ++i) {
        get_value(L, &r, 0, core_idx);
        if (!lua_istable(L, -1)) damaged(L);
        lua_setiuservalue(L, core_idx, uvs[i]);
    }
    get_value(L, &r, 0, core_idx);
    if (!lua_istable(L, -1)) damaged(L);
    int forms = lua_gettop(L);
    lcore *core = lua_touserdata(L, core_idx);
    lua_getiuservalue(L, core_idx, CORE_UV_FORMATIONS);
    lua_pushnil(L);
    while (lua_next(L, forms) != 0) {
        if (!lua_isinteger(L, -2) || !lua_istable(L, -1)) damaged(L);
        uint64_t stored = (uint64_t)lua_tointeger(L, -2);
        if (steer_formation_is_valid(core->world, steer_formation_id_load(stored))) {
            steer_lua__new_handle(L, core_idx, LKIND_FORMATION);
            lua_pushvalue(L, -2);
            lua_setiuservalue(L, -2, FORM_UV_DATA);
            steer_lua__attach_handle(L, -1, LKIND_FORMATION, stored);
            lua_rawseti(L, forms + 1, (lua_Integer)stored);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    // the navigation, made again from the shapes as given
    get_value(L, &r, 0, core_idx);
    if (r.at != r.n) damaged(L);
    steer_lua__nav_load_state(L, core, -1);
    lua_pop(L, 1);
}

// The Lua mirrors of the agents' behaviours of the world at world_idx.
static void mirror_agents(lua_State *L, int core_idx, int bindings_idx)
{
    lcore *core = lua_touserdata(L, core_idx);
    lua_newtable(L); // behaviours mirrored
    int seen = lua_gettop(L);
    lua_getiuservalue(L, core_idx, CORE_UV_STEERING);
    int n = steer_world_agent_count(core->world);
    for (int i = 0; i < n; ++i) {
        steer_agent_id id = steer_world_agent_at(core->world, i);
        steer_behaviour *b = steer_agent_get_behaviour(core->world, id);
        if (b == NULL) continue;
        mirror(L, core_idx, bindings_idx, seen, b);
        lua_rawseti(L, seen + 1, steer_lua__stored_id(id));
    }
    lua_pop(L, 2);
}

steer_world *steer_lua_restore_world(lua_State *L, const void *bytes, size_t size, int bindings_index,
                                     const steer_restore_def *def, steer_snapshot_error *error)
{
    resolve_context rc = {L, bindings_index != 0 ? lua_absindex(L, bindings_index) : 0};
    steer_restore_def d = def != NULL ? *def : steer_default_restore_def();
    d.resolve = resolve;
    d.resolve_context = &rc;
    return steer_world_restore(bytes, size, &d, error);
}

void steer_lua_restore_state(lua_State *L, int world_index, const void *bytes, size_t size, int bindings_index)
{
    world_index = lua_absindex(L, world_index);
    if (bindings_index != 0) bindings_index = lua_absindex(L, bindings_index);
    steer_lua__check_world(L, world_index);
    steer_snapshot_error error;
    const void *host = NULL;
    size_t host_size = 0;
    if (!steer_snapshot_host_data(bytes, size, &host, &host_size, &error))
        luaL_error(L, "steer.world_from_snapshot: %s", error.message);
    lua_getiuservalue(L, world_index, 1);
    int core_idx = lua_gettop(L);
    restore_host(L, core_idx, host, host_size);
    mirror_agents(L, core_idx, bindings_index);
    lua_pop(L, 1);
}

// Walk the behaviour at idx: bindings[name] = fn for each named Lua behaviour.
static void collect(lua_State *L, int bindings_idx, int seen_idx, steer_behaviour *b)
{
    luaL_checkstack(L, 4, "behaviour trees nested too deep");
    if (!first_visit(L, seen_idx, b)) return;
    const char *name = steer_behaviour_get_name(b);
    if (steer_behaviour_get_type(b) == STEER_CALLBACK && name != NULL) {
        steer_lua__push_behaviour(L, b);
        lua_getiuservalue(L, -1, BEH_UV_FN);
        if (lua_isfunction(L, -1)) lua_setfield(L, bindings_idx, name);
        else lua_pop(L, 1);
        lua_pop(L, 1);
    }
    int n = steer_behaviour_child_count(b);
    for (int i = 0; i < n; ++i) collect(L, bindings_idx, seen_idx, steer_behaviour_get_child(b, i).behaviour);
}

void steer_lua_pushbindings(lua_State *L, int index)
{
    index = lua_absindex(L, index);
    lua_newtable(L);
    int bindings = lua_gettop(L);
    lua_newtable(L);
    if (lua_istable(L, index)) {
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            lbehaviour *lb = steer_lua__test_behaviour(L, -1);
            if (lb != NULL) collect(L, bindings, bindings + 1, lb->b);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

// steer.world_from_snapshot(s [, bindings [, options]]) -> world; bindings
// maps the names of Lua behaviours to functions; options: {workers = n}.
static int world_from_snapshot(lua_State *L)
{
    size_t size;
    const char *bytes = luaL_checklstring(L, 1, &size);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
    int workers = 1;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 3) != 0) {
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "workers") != 0) {
                const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : steer_laux_describe(L, -1);
                return luaL_error(L, "bad argument #3 to 'world_from_snapshot' (unknown field '%s')", k);
            }
        }
        lua_getfield(L, 3, "workers");
        if (!lua_isnil(L, -1)) {
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > STEER_MAX_WORKERS)
                steer_laux_error(L, steer_laux_field(3, "workers"), "must be an integer in [1, 64]", -1);
            workers = (int)lua_tointeger(L, -1);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, 3);
    int bindings_idx = lua_istable(L, 2) ? 2 : 0;
    steer_snapshot_error error;
    steer_restore_def def = steer_default_restore_def();
    def.worker_count = workers;
    lworld *lw = steer_lua__new_world(L); // 4
    steer_world *world = steer_lua_restore_world(L, bytes, size, bindings_idx, &def, &error);
    if (world == NULL) return luaL_error(L, "steer.world_from_snapshot: %s", error.message);
    lw->core->world = world;
    lw->core->owned = true;
    steer_lua_restore_state(L, 4, bytes, size, bindings_idx);
    // navigate and world:move_group plan through the restored navigation
    steer_lua__nav_attach(lw->core);
    return 1;
}

void steer_lua__open_snapshot(lua_State *L)
{
    lua_pushcfunction(L, world_from_snapshot);
    lua_setfield(L, -2, "world_from_snapshot");
    // world:snapshot joins steer.World's methods (as wrap_nav.c's do)
    luaL_getmetatable(L, STEER_LUA_WORLD);
    lua_getfield(L, -1, "__index");
    if (lua_getupvalue(L, -1, 1) == NULL) lua_pushnil(L);
    if (lua_istable(L, -1)) {
        lua_pushcfunction(L, world_snapshot);
        lua_setfield(L, -2, "snapshot");
    }
    lua_pop(L, 3);
}
