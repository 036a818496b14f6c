// wrap_behaviour.c: one class per behaviour type (steer.Seek, steer.Arrive,
// steer.Blend, ...), its options and properties read through the engine's
// reflected parameter table and type inputs, so the option list is never
// written twice; the combinators; and behaviours written in Lua
// (steer.behaviour).
//
// A behaviour userdata holds one C reference. Agents and combinators hold
// their own, so a behaviour lives while anything uses it. The userdata's
// uservalues mirror what the C object refers to (target agent, path,
// children, Lua function) so the garbage collector sees it too.
#include "classes.h"
#include "formation_sync.h"
#include "runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const char steer_lua__behaviour_mark;
static const char names_key = 0; // registry: each type's name table, by type

// What a class has besides its reflected parameters (codes of its name table).
static const char *const extra_names[] = {"type", "target", "path", "children", "fn", "preferred", NULL};
enum { X_TYPE, X_TARGET, X_PATH, X_CHILDREN, X_FN, X_PREFERRED };
// The type input each extra stands for (type: every class).
static const unsigned extra_inputs[] = {0, STEER_INPUT_TARGET, STEER_INPUT_PATH, STEER_INPUT_CHILDREN,
                                        STEER_INPUT_CALLBACK, STEER_INPUT_PREFERRED};

static bool takes(steer_behaviour_type t, unsigned input) { return (steer_behaviour_type_inputs(t) & input) != 0; }

// "steer.Arrive" (in a buffer of the caller's)
#define CLASS(t, buf) steer_lua__behaviour_class((t), (buf), sizeof(buf))

// The phrase of a tree limit, as Lua words a self-containing one.
static const char *tree_phrase(const char *phrase)
{
    return strcmp(phrase, "would contain itself") == 0 ? "a behaviour cannot contain itself" : phrase;
}

/* ---- reciprocal_avoidance's preferred behaviour ----------------------------------------- */

// Check the value at vidx as the `preferred` child of self (NULL: a new
// reciprocal_avoidance), tree limits included; the message names w.
static steer_behaviour *check_preferred(lua_State *L, steer_laux_where w, int vidx, const steer_behaviour *self)
{
    lbehaviour *lb = steer_lua__test_behaviour(L, vidx);
    if (lb == NULL) steer_laux_error(L, w, "must be a behaviour", vidx);
    steer_child child = {lb->b, 1.0f};
    char buf[200];
    const char *phrase = steer_behaviour_check_children(self, &child, 1, buf, sizeof buf);
    if (phrase != NULL) {
        steer_laux_error_plain(L, w, tree_phrase(phrase));
    }
    return lb->b;
}

/* ---- proxies -------------------------------------------------------------------------- */

// A new, empty proxy of a type's class (pushed); the C object comes next.
static lbehaviour *new_proxy(lua_State *L, steer_behaviour_type type)
{
    char cname[STEER_LUA_CLASS_SIZE];
    lbehaviour *lb = lua_newuserdatauv(L, sizeof *lb, BEH_UV_COUNT);
    lb->b = NULL;
    luaL_setmetatable(L, CLASS(type, cname));
    return lb;
}

// Push the name table of a type: its parameters and extras.
static void push_names(lua_State *L, steer_behaviour_type type)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key);
    lua_rawgeti(L, -1, type);
    lua_remove(L, -2);
}

/* ---- targets and paths -------------------------------------------------------------------- */

// Check a target value (agent or point) for type t; fills *out.
static void check_target(lua_State *L, steer_laux_where w, int vidx, steer_behaviour_type t, steer_target *out)
{
    memset(out, 0, sizeof *out);
    lagent *a = steer_lua__test_agent(L, vidx);
    if (a != NULL) {
        steer_lua__check_alive(L, a);
        out->kind = STEER_TARGET_AGENT;
        out->agent = a->id;
        return;
    }
    if (t == STEER_ALIGN) steer_laux_error(L, w, "must be an agent (align to a fixed angle with 'orientation')", vidx);
    if (lua_type(L, vidx) != LUA_TTABLE) steer_laux_error(L, w, "must be an agent or a point {x, y}", vidx);
    out->kind = STEER_TARGET_POINT;
    steer_laux_point(L, w, vidx, &out->point.x, &out->point.y);
}

// Push the Lua value to remember for a target: the agent proxy, or a new {x, y}.
static void push_target_value(lua_State *L, int vidx, const steer_target *t)
{
    if (t->kind == STEER_TARGET_AGENT) {
        lua_pushvalue(L, vidx);
        return;
    }
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, steer_laux_float_value(t->point.x));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, steer_laux_float_value(t->point.y));
    lua_rawseti(L, -2, 2);
}

/* ---- children --------------------------------------------------------------------------- */

// The names of a blend item {behaviour, weight = w} besides [1].
static const char *const item_names[] = {"weight", NULL};
static void build_item_names(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, item_names); }
static const char item_names_key = 0;

// Read the list part of the table at arg (items 1..n) as children of the
// combinator self (NULL: a new one). Pushes the list of child userdata and
// returns the C array (in a userdata below it). Blend items are behaviours
// or {behaviour, weight = w}. The engine's tree limits are checked here, so
// the message names the argument or property.
static steer_child *check_children(lua_State *L, int arg, const char *tname, steer_behaviour_type type,
                                   const steer_behaviour *self, int *count)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    if (n > 1 << 20) luaL_argerror(L, arg, "too many children");
    steer_child *c = lua_newuserdatauv(L, sizeof *c * (size_t)(n > 0 ? n : 1), 0);
    lua_createtable(L, (int)n, 0);
    int list = lua_gettop(L);
    char name[48];
    for (lua_Integer i = 1; i <= n; ++i) {
        snprintf(name, sizeof name, "%s[%d]", tname != NULL ? "children" : "", (int)i);
        steer_laux_where w = tname != NULL ? steer_laux_property(tname, name) : steer_laux_field(arg, name);
        lua_rawgeti(L, arg, i);
        float weight = 1.0f;
        if (type == STEER_BLEND && lua_type(L, -1) == LUA_TTABLE) {
            // {behaviour, weight = w}: nothing else
            int item = lua_gettop(L);
            steer_lua__push_memo(L, &item_names_key, build_item_names);
            lua_pushnil(L);
            while (lua_next(L, item) != 0) {
                lua_pop(L, 1);
                bool ok = (lua_isinteger(L, -1) && lua_tointeger(L, -1) == 1) || steer_lua__lookup(L, item + 1, -1) == 0;
                if (!ok) {
                    const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : steer_laux_describe(L, -1);
                    steer_laux_error_plain(L, w, lua_pushfstring(L, "has an unknown field '%s'", k));
                }
            }
            lua_pop(L, 1);
            lua_getfield(L, item, "weight");
            if (!lua_isnil(L, -1)) {
                char wname[64];
                snprintf(wname, sizeof wname, "%s.weight", name);
                steer_laux_where ww = tname != NULL ? steer_laux_property(tname, wname) : steer_laux_field(arg, wname);
                weight = (float)steer_laux_number(L, ww, -1, LAUX_FINITE);
            }
            lua_pop(L, 1);
            lua_rawgeti(L, item, 1);
            lua_remove(L, item);
            // the entry's own behaviour is its [1]
            size_t len = strlen(name);
            snprintf(name + len, sizeof name - len, "[1]");
            if (steer_lua__test_behaviour(L, -1) == NULL) steer_laux_error(L, w, "must be a behaviour", -1);
        }
        lbehaviour *lb = steer_lua__test_behaviour(L, -1);
        if (lb == NULL)
            steer_laux_error(L, w, type == STEER_BLEND ? "must be a behaviour or {behaviour, weight = w}" : "must be a behaviour", -1);
        c[i - 1].behaviour = lb->b;
        c[i - 1].weight = weight;
        lua_rawseti(L, list, i);
    }
    char buf[200];
    const char *phrase = steer_behaviour_check_children(self, c, (int)n, buf, sizeof buf);
    if (phrase != NULL) {
        phrase = tree_phrase(phrase);
        steer_laux_where w = tname != NULL ? steer_laux_property(tname, "children") : steer_laux_arg(arg);
        steer_laux_error_plain(L, w, phrase);
    }
    *count = (int)n;
    return c;
}

/* ---- constructors ------------------------------------------------------------------------ */

// After every option is read: the cross-field rules (slow_radius >=
// target_radius), the options given first so the message names them.
static void cross_check(lua_State *L, int arg, const steer_behaviour_def *def, uint64_t given)
{
    char buf[128];
    int n = steer_behaviour_param_count(def->type);
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            if (((given >> i) & 1) != (pass == 0 ? 1u : 0u)) continue;
            const steer_param_info *p = steer_behaviour_param(def->type, i);
            if (!steer_param_is_set(def, p)) continue;
            double v = steer_param_get(def, p);
            const char *phrase = steer_param_check(def, p, v, buf, sizeof buf);
            if (phrase == NULL) continue;
            // the value as the user wrote it: 0.2, not 0.200000003
            double shown = steer_laux_float_value((float)v);
            if (shown == floor(shown) && fabs(shown) < 9.0e15) lua_pushinteger(L, (lua_Integer)shown);
            else lua_pushnumber(L, shown);
            steer_laux_error(L, steer_laux_field(arg, p->name), phrase, -1);
        }
    }
}

// The constructor's extras: what the type takes besides numbers (the
// values go to slots 2 and 3 of behaviour_new's stack).
typedef struct new_context {
    steer_behaviour_type type;
    steer_behaviour_def *def;
    steer_child *preferred;
} new_context;

static bool new_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    new_context *c = context;
    if (code == X_TARGET) {
        check_target(L, w, vidx, c->type, &c->def->target);
        push_target_value(L, vidx, &c->def->target);
        lua_replace(L, 2);
    } else if (code == X_PATH) {
        lpath *lp = steer_lua__test_path(L, vidx);
        if (lp == NULL) steer_laux_error(L, w, "must be a path (world:path{...})", vidx);
        c->def->path = lp->path;
        lua_pushvalue(L, vidx);
        lua_replace(L, 3);
    } else if (code == X_PREFERRED) {
        // kept with the path's slot: a reciprocal_avoidance has no path
        c->preferred->behaviour = check_preferred(L, w, vidx, NULL);
        lua_pushvalue(L, vidx);
        lua_replace(L, 3);
    } else {
        return false; // type, children, fn: not options
    }
    return true;
}

// steer.seek{target = agent or {x, y}, ...} and every other engine behaviour:
// one options table; upvalue 1 is the type, upvalue 2 its name table.
static int behaviour_new(lua_State *L)
{
    steer_behaviour_type type = (steer_behaviour_type)lua_tointeger(L, lua_upvalueindex(1));
    steer_behaviour_def def = steer_default_behaviour_def(type);
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_pushnil(L); // 2: target value
    lua_pushnil(L); // 3: path
    steer_child preferred = {NULL, 1.0f};
    new_context c = {type, &def, &preferred};
    steer_lua_reader r = {.arg = 1, .behaviour = &def, .extra = new_extra, .context = &c};
    steer_lua__read_options(L, 1, lua_upvalueindex(2), &r);
    cross_check(L, 1, &def, r.given);
    if (takes(type, STEER_INPUT_PREFERRED)) {
        lua_getfield(L, 1, "preferred");
        if (preferred.behaviour == NULL) steer_laux_error(L, steer_laux_field(1, "preferred"), "must be a behaviour", -1);
        lua_pop(L, 1);
        def.children = &preferred;
        def.child_count = 1;
    }
    lbehaviour *lb = new_proxy(L, type); // 4
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, 4, BEH_UV_TARGET);
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 4, BEH_UV_PATH);
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) return luaL_error(L, "not enough memory");
    steer_lua__cache_behaviour(L, lb);
    return 1;
}

// steer.blend{ {behaviour, weight = w}, ..., max_acceleration = ... } and
// steer.priority{ b1, b2, ..., epsilon = 1e-3 }
static int combinator_new(lua_State *L, steer_behaviour_type type)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    steer_behaviour_def def = steer_default_behaviour_def(type);
    push_names(L, type); // 2
    steer_lua_reader r = {.arg = 1, .list = true, .behaviour = &def};
    steer_lua__read_options(L, 1, 2, &r);
    lua_settop(L, 1);
    cross_check(L, 1, &def, r.given);
    int count;
    steer_child *children = check_children(L, 1, NULL, type, NULL, &count); // 2: array, 3: list
    def.children = children;
    def.child_count = count;
    lbehaviour *lb = new_proxy(L, type); // 4
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 4, BEH_UV_CHILDREN);
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) return luaL_error(L, "not enough memory");
    steer_lua__cache_behaviour(L, lb);
    return 1;
}

int steer_lua__blend_new(lua_State *L) { return combinator_new(L, STEER_BLEND); }
int steer_lua__priority_new(lua_State *L) { return combinator_new(L, STEER_PRIORITY); }

/* ---- behaviours written in Lua -------------------------------------------------------------- */

/// Context of a Lua behaviour: its C object, to find its proxy (and the
/// function in it) in the proxy cache.
typedef struct lcallback {
    steer_behaviour *self;
} lcallback;

static void callback_release(void *context) { steer_free(context); }
static steer_callback_result lua_callback(steer_world *world, steer_agent_id agent, float dt, steer_steering *out,
                                          void *context);

// steer.behaviour(function(agent, dt) return lx, ly, angular end) -> behaviour;
// steer.behaviour{ name = "hunt", fn = function ... end } names it (a
// snapshot saves it by name; steer.world_from_snapshot re-binds it).
int steer_lua__lua_behaviour_new(lua_State *L)
{
    const char *name = NULL;
    if (lua_istable(L, 1)) {
        lua_settop(L, 1);
        lua_pushnil(L);
        while (lua_next(L, 1) != 0) {
            lua_pop(L, 1);
            bool known = lua_type(L, -1) == LUA_TSTRING && (strcmp(lua_tostring(L, -1), "name") == 0 ||
                                                            strcmp(lua_tostring(L, -1), "fn") == 0);
            if (!known && !(lua_isinteger(L, -1) && lua_tointeger(L, -1) == 1)) {
                const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : steer_laux_describe(L, -1);
                return luaL_error(L, "bad argument #1 to 'behaviour' (unknown field '%s')", k);
            }
        }
        lua_getfield(L, 1, "name"); // 2
        if (lua_type(L, 2) != LUA_TSTRING || lua_rawlen(L, 2) == 0 || lua_rawlen(L, 2) > STEER_MAX_BEHAVIOUR_NAME)
            steer_laux_error(L, steer_laux_field(1, "name"), "must be a non-empty string of at most 255 bytes", 2);
        name = lua_tostring(L, 2);
        lua_getfield(L, 1, "fn"); // 3
        if (lua_isnil(L, 3)) {
            lua_pop(L, 1);
            lua_rawgeti(L, 1, 1);
        }
        if (!lua_isfunction(L, 3)) steer_laux_error(L, steer_laux_field(1, "fn"), "must be a function", 3);
        lua_replace(L, 1);
    }
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int top = lua_gettop(L) > 2 ? 2 : lua_gettop(L); // the name string stays referenced
    lua_settop(L, top);
    lbehaviour *lb = new_proxy(L, STEER_CALLBACK);
    int proxy = lua_gettop(L);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, proxy, BEH_UV_FN);
    steer_behaviour_def def = steer_default_behaviour_def(STEER_CALLBACK);
    if (!steer_lua__callback_def(&def)) return luaL_error(L, "not enough memory");
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) {
        def.release(def.context);
        return luaL_error(L, "not enough memory");
    }
    steer_lua__callback_adopt(lb->b);
    if (name != NULL && !steer_behaviour_set_name(lb->b, name)) return luaL_error(L, "not enough memory");
    steer_lua__cache_behaviour(L, lb);
    return 1;
}

bool steer_lua__callback_def(steer_behaviour_def *def)
{
    lcallback *cb = steer_alloc(sizeof *cb);
    if (cb == NULL) return false;
    cb->self = NULL;
    def->callback = lua_callback;
    def->context = cb;
    def->release = callback_release;
    return true;
}

void steer_lua__callback_adopt(steer_behaviour *b)
{
    const steer_behaviour_def *def = steer_behaviour_get_def(b);
    if (def->callback == lua_callback) ((lcallback *)def->context)->self = b;
}

// Slow path of a call (protected): make the agent's proxy and keep it while
// the agent lives, so later calls find it. Arguments: core, index, generation.
static int make_agent_proxy(lua_State *L)
{
    steer_agent_id id = {(uint32_t)lua_tointeger(L, 2), (uint32_t)lua_tointeger(L, 3)};
    steer_lua__push_agent(L, 1, id);
    lua_getiuservalue(L, 1, CORE_UV_ANCHOR);
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, -2);
        lua_rawseti(L, -2, steer_lua__stored_id(id));
    }
    lua_pop(L, 1);
    return 1;
}

// Called by the engine from inside world:step or get_steering (never a Lua
// error across engine frames: everything that can fail runs under pcall).
static steer_callback_result lua_callback(steer_world *world, steer_agent_id agent, float dt,
                                          steer_steering *out, void *context)
{
    lstep *s = steer_lua__active;
    if (s == NULL || s->core->world != world) return STEER_CALLBACK_ERROR; // not called through Lua
    lua_State *L = s->L;
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8)) return STEER_CALLBACK_ERROR;
    const lcallback *cb = context;
    if (lua_rawgetp(L, s->proxies_idx, cb->self) != LUA_TUSERDATA) return steer_lua__step_failed(s, LSTEP_ERR_LOST, top);
    lua_getiuservalue(L, -1, BEH_UV_FN);
    lua_remove(L, -2);
    // the agent's proxy: cached, or made under protection
    bool found = false;
    if (lua_rawgeti(L, s->proxies_idx, steer_lua__proxy_key(s->core, LKIND_AGENT, agent.index)) == LUA_TUSERDATA) {
        const lagent *a = lua_touserdata(L, -1);
        found = a->core == s->core && steer_agent_id_equal(a->id, agent);
    }
    if (!found) {
        lua_pop(L, 1);
        lua_pushcfunction(L, make_agent_proxy);
        lua_pushvalue(L, s->core_idx);
        lua_pushinteger(L, agent.index);
        lua_pushinteger(L, agent.generation);
        if (lua_pcall(L, 3, 1, s->handler_idx) != LUA_OK) return steer_lua__step_failed(s, LSTEP_ERR_LUA, top);
    }
    lua_pushnumber(L, dt);
    s->agent_key = steer_agent_get_key(world, agent);
    int status = lua_pcall(L, 2, 3, s->handler_idx);
    s->agent_key = 0;
    if (status != LUA_OK) return steer_lua__step_failed(s, LSTEP_ERR_LUA, top);
    // results: nil (no steering), or lx, ly[, angular]
    int t1 = lua_type(L, -3), t2 = lua_type(L, -2), t3 = lua_type(L, -1);
    if (t1 == LUA_TNIL) {
        lua_settop(L, top);
        return STEER_CALLBACK_NONE;
    }
    if (t1 != LUA_TNUMBER || t2 != LUA_TNUMBER || (t3 != LUA_TNUMBER && t3 != LUA_TNIL)) {
        s->bad_type = t1 != LUA_TNUMBER ? t1 : t2 != LUA_TNUMBER ? t2 : t3;
        return steer_lua__step_failed(s, LSTEP_ERR_RESULT, top);
    }
    out->linear.x = (float)lua_tonumber(L, -3);
    out->linear.y = (float)lua_tonumber(L, -2);
    out->angular = t3 == LUA_TNUMBER ? (float)lua_tonumber(L, -1) : 0.0f;
    if (!steer_vec2_is_finite(out->linear) || !steer_is_finite(out->angular))
        return steer_lua__step_failed(s, LSTEP_ERR_NONFINITE, top);
    lua_settop(L, top);
    return STEER_CALLBACK_STEERING;
}

/* ---- methods ------------------------------------------------------------------------------ */

// behaviour:get_steering(agent [, dt = 1/60]) -> lx, ly, angular, or nil
// when the behaviour asks for no steering (the notes' getSteering)
static int behaviour_get_steering(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    lagent *a = steer_lua__check_agent(L, 2);
    float dt = lua_isnoneornil(L, 3) ? 1.0f / 60.0f : steer_laux_check_float(L, 3, LAUX_NONNEGATIVE);
    lua_settop(L, 3);
    steer_lua__charge_step(L, a->core->world);
    lua_getiuservalue(L, 2, 1); // 4: core
    lstep s;
    steer_steering out;
    steer_lua__step_begin(L, &s, 4);
    bool has = steer_behaviour_get_steering(lb->b, a->core->world, a->id, dt, &out);
    steer_lua__step_end(L, &s);
    if (!has) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, out.linear.x);
    lua_pushnumber(L, out.linear.y);
    lua_pushnumber(L, out.angular);
    return 3;
}

/* ---- properties --------------------------------------------------------------------------- */

static void push_children(lua_State *L, int self, const lbehaviour *lb)
{
    int n = steer_behaviour_child_count(lb->b);
    bool blend = steer_behaviour_get_type(lb->b) == STEER_BLEND;
    lua_getiuservalue(L, self, BEH_UV_CHILDREN);
    int mirror = lua_gettop(L);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; ++i) {
        steer_child c = steer_behaviour_get_child(lb->b, i);
        bool same = false;
        if (lua_istable(L, mirror)) {
            lua_rawgeti(L, mirror, i + 1);
            lbehaviour *m = steer_lua__test_behaviour(L, -1);
            same = m != NULL && m->b == c.behaviour;
            if (!same) lua_pop(L, 1);
        }
        if (!same) steer_lua__push_behaviour(L, c.behaviour);
        if (blend) {
            lua_createtable(L, 1, 1);
            lua_insert(L, -2);
            lua_rawseti(L, -2, 1);
            steer_laux_push_float(L, c.weight);
            lua_setfield(L, -2, "weight");
        }
        lua_rawseti(L, -2, i + 1);
    }
}

static int no_property(lua_State *L, steer_behaviour_type type)
{
    char cname[STEER_LUA_CLASS_SIZE];
    return luaL_error(L, "%s has no property '%s'", CLASS(type, cname), luaL_tolstring(L, 2, NULL));
}

static int behaviour_index(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; // a method
    steer_behaviour_type type = steer_behaviour_get_type(lb->b);
    // the class's name table (class_names) answers "is there one?"
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code == -2) {
        steer_lua__push_param(L, steer_behaviour_get_def(lb->b), lua_touserdata(L, -1));
    } else if (code == X_TYPE) {
        lua_pushstring(L, steer_behaviour_type_name(type));
    } else if (code == X_TARGET) {
        const steer_target *t = &steer_behaviour_get_def(lb->b)->target;
        lua_getiuservalue(L, 1, BEH_UV_TARGET);
        // a behaviour made in C has no Lua value: rebuild a point
        if (lua_isnil(L, -1) && t->kind == STEER_TARGET_POINT) push_target_value(L, 0, t);
    } else if (code == X_PATH) {
        lua_getiuservalue(L, 1, BEH_UV_PATH);
    } else if (code == X_CHILDREN) {
        push_children(L, 1, lb);
    } else if (code == X_FN) {
        lua_getiuservalue(L, 1, BEH_UV_FN);
    } else if (code == X_PREFERRED) {
        // the Lua value kept, or the proxy of a child set from C
        steer_behaviour *c = steer_behaviour_get_child(lb->b, 0).behaviour;
        lua_getiuservalue(L, 1, BEH_UV_PATH);
        lbehaviour *m = steer_lua__test_behaviour(L, -1);
        if (m == NULL || m->b != c) {
            lua_pop(L, 1);
            steer_lua__push_behaviour(L, c);
        }
    } else {
        return no_property(L, type);
    }
    return 1;
}

// While a world steps, behaviours stay as they are (the engine refuses it
// too): a structural change could free what is being evaluated, and a
// parameter changed halfway would give agents evaluated before and after it
// different behaviours, so the result would depend on agent order.
static void check_not_stepping(lua_State *L, const char *what)
{
    if (steer_lua__active != NULL) luaL_error(L, "attempt to change the %s of a behaviour while a world is stepping", what);
}

static void set_children(lua_State *L, lbehaviour *lb, steer_behaviour_type type)
{
    char cname[STEER_LUA_CLASS_SIZE];
    steer_laux_where w = steer_laux_property(CLASS(type, cname), "children");
    if (lua_type(L, 3) != LUA_TTABLE) steer_laux_error(L, w, "must be a list of behaviours", 3);
    // the list is checked like the constructor's
    lua_settop(L, 3);
    int count;
    steer_child *c = check_children(L, 3, cname, type, lb->b, &count); // 4: array, 5: list
    if (!steer_behaviour_set_children(lb->b, c, count)) luaL_error(L, "not enough memory");
    lua_pushvalue(L, 5);
    lua_setiuservalue(L, 1, BEH_UV_CHILDREN);
}

static int behaviour_newindex(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    lua_settop(L, 3);
    steer_behaviour_type type = steer_behaviour_get_type(lb->b);
    char tname[STEER_LUA_CLASS_SIZE];
    CLASS(type, tname);
    const char *k = lua_tostring(L, 2);
    if (k == NULL) return no_property(L, type);
    steer_laux_where w = steer_laux_property(tname, k);
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2); // 4: a parameter's info
    if (code == X_TYPE) return luaL_error(L, "property 'type' of %s is read-only", tname);
    if (code == -1 || code == X_FN) return luaL_error(L, "%s has no property '%s'", tname, k);
    check_not_stepping(L, k);
    if (code == -2) {
        const steer_param_info *p = lua_touserdata(L, 4);
        double v = steer_lua__check_param(L, w, 3, p, steer_behaviour_get_def(lb->b));
        steer_behaviour_set_param(lb->b, p, v);
    } else if (code == X_TARGET) {
        steer_target t;
        memset(&t, 0, sizeof t);
        if (!lua_isnil(L, 3)) {
            check_target(L, w, 3, type, &t);
            push_target_value(L, 3, &t);
        } else {
            lua_pushnil(L);
        }
        steer_behaviour_set_target(lb->b, t);
        lua_setiuservalue(L, 1, BEH_UV_TARGET);
    } else if (code == X_PATH) {
        lpath *lp = lua_isnil(L, 3) ? NULL : steer_lua__test_path(L, 3);
        if (lp == NULL && !lua_isnil(L, 3)) steer_laux_error(L, w, "must be a path or nil", 3);
        lua_pushvalue(L, 3);
        lua_setiuservalue(L, 1, BEH_UV_PATH);
        steer_behaviour_set_path(lb->b, lp != NULL ? lp->path : NULL);
    } else if (code == X_CHILDREN) {
        set_children(L, lb, type);
    } else {
        steer_child child = {check_preferred(L, w, 3, lb->b), 1.0f};
        if (!steer_behaviour_set_children(lb->b, &child, 1)) luaL_error(L, "not enough memory");
        lua_pushvalue(L, 3);
        lua_setiuservalue(L, 1, BEH_UV_PATH);
    }
    return 0;
}

static int behaviour_gc(lua_State *L)
{
    lbehaviour *lb = lua_touserdata(L, 1);
    // only this userdata's reference: agents and combinators keep theirs
    if (lb != NULL && lb->b != NULL) steer_behaviour_release(lb->b);
    if (lb != NULL) lb->b = NULL;
    return 0;
}

// steer.Arrive{slow_radius=3, target_radius=0.5, time_to_target=0.1, target={4, 0}}
static int behaviour_tostring(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    steer_behaviour_type type = steer_behaviour_get_type(lb->b);
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    char cname[STEER_LUA_CLASS_SIZE];
    luaL_addstring(&buf, CLASS(type, cname));
    luaL_addchar(&buf, '{');
    bool first = true;
    int n = steer_behaviour_param_count(type);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(type, i);
        steer_lua__push_param(L, steer_behaviour_get_def(lb->b), p);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            continue;
        }
        const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1))
                                                      : luaL_tolstring(L, -1, NULL);
        lua_pushfstring(L, "%s%s=%s", first ? "" : ", ", p->name, v);
        lua_replace(L, -3);
        lua_pop(L, 1);
        luaL_addvalue(&buf);
        first = false;
    }
    const steer_target *t = &steer_behaviour_get_def(lb->b)->target;
    if (takes(type, STEER_INPUT_TARGET) && t->kind == STEER_TARGET_POINT) {
        lua_pushfstring(L, "%starget={%f, %f}", first ? "" : ", ", (LUAI_UACNUMBER)steer_laux_float_value(t->point.x),
                        (LUAI_UACNUMBER)steer_laux_float_value(t->point.y));
        luaL_addvalue(&buf);
        first = false;
    } else if (takes(type, STEER_INPUT_TARGET) && t->kind == STEER_TARGET_AGENT) {
        lua_pushfstring(L, "%starget=agent", first ? "" : ", ");
        luaL_addvalue(&buf);
        first = false;
    }
    if (takes(type, STEER_INPUT_CHILDREN)) {
        lua_pushfstring(L, "%s%d children", first ? "" : ", ", steer_behaviour_child_count(lb->b));
        luaL_addvalue(&buf);
    }
    luaL_addchar(&buf, '}');
    luaL_pushresult(&buf);
    return 1;
}

// Push the name table of a type's class: its reflected parameters, `type`,
// and what its inputs add (target, path, children, fn, preferred).
// behaviour_index answers only these: a new property the binding adds goes
// here too (and in bindings/meta/steer.meta.lua, or lua.annotations fails).
static void class_names(lua_State *L, steer_behaviour_type t)
{
    steer_lua__push_param_names(L, t, NULL);
    for (int x = 0; extra_names[x] != NULL; ++x) {
        if (x != X_TYPE && !takes(t, extra_inputs[x])) continue;
        lua_pushinteger(L, x);
        lua_setfield(L, -2, extra_names[x]);
    }
}

static const luaL_Reg behaviour_methods[] = {
    {"get_steering", behaviour_get_steering},
    {NULL, NULL},
};

static const luaL_Reg behaviour_meta[] = {
    {"__gc", behaviour_gc},
    {"__tostring", behaviour_tostring},
    {NULL, NULL},
};

void steer_lua__open_behaviour(lua_State *L)
{
    luaL_newlib(L, behaviour_methods);
    int methods = lua_gettop(L);
    lua_createtable(L, STEER_BEHAVIOUR_TYPE_COUNT, 0);
    int names = lua_gettop(L);
    char cname[STEER_LUA_CLASS_SIZE];
    for (int t = 0; t < STEER_BEHAVIOUR_TYPE_COUNT; ++t) {
        steer_behaviour_type type = (steer_behaviour_type)t;
        class_names(L, type);
        lua_pushvalue(L, -1);
        lua_rawseti(L, names, t);
        steer_laux_new_class(L, CLASS(type, cname), behaviour_meta);
        lua_pushvalue(L, methods);
        lua_pushvalue(L, -3);
        lua_pushcclosure(L, behaviour_index, 2);
        lua_setfield(L, -2, "__index");
        lua_pushvalue(L, methods);
        lua_pushvalue(L, -3);
        lua_pushcclosure(L, behaviour_newindex, 2);
        lua_setfield(L, -2, "__newindex");
        lua_pushboolean(L, 1);
        lua_rawsetp(L, -2, &steer_lua__behaviour_mark);
        lua_pop(L, 1);
        // the constructor, under the type's snake_case name; the others
        // (children, a Lua function, a formation) have their own
        if (takes(type, STEER_INPUT_CHILDREN | STEER_INPUT_CALLBACK | STEER_INPUT_FORMATION)) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushinteger(L, t);
        lua_insert(L, -2);
        lua_pushcclosure(L, behaviour_new, 2);
        lua_setfield(L, methods - 1, steer_behaviour_type_name(type));
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &names_key);
    lua_pop(L, 1);
}
