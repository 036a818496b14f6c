// wrap_behaviour.c: one class per behaviour type (steer.Seek, steer.Arrive,
// steer.Blend, ...), built from the engine's reflected parameter table so
// the option list is never written twice; the combinators; and behaviours
// written in Lua (steer.behaviour).
//
// A behaviour userdata holds one C reference. Agents and combinators hold
// their own, so a behaviour lives while anything uses it. The userdata's
// uservalues mirror what the C object refers to (target agent, path,
// children, Lua function) so the garbage collector sees it too.
#include "bind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char steer_lua__behaviours_key = 0; // registry: proxies by C pointer (weak values)
static const char behaviour_mark = 0;     // metatable field: "this is a behaviour class"

static const char *const class_names[STEER_BEHAVIOUR_TYPE_COUNT] = {
    "steer.KinematicSeek", "steer.KinematicFlee", "steer.KinematicArrive", "steer.KinematicWander",
    "steer.Seek", "steer.Flee", "steer.Arrive", "steer.Align", "steer.VelocityMatch", "steer.Pursue",
    "steer.Evade", "steer.Face", "steer.LookWhereYouAreGoing", "steer.Wander", "steer.FollowPath",
    "steer.Separation", "steer.Cohesion", "steer.Alignment", "steer.CollisionAvoidance",
    "steer.ObstacleAvoidance", "steer.Blend", "steer.Priority", "steer.Behaviour",
    "steer.FormationSlot",
};

static bool has_target(steer_behaviour_type t)
{
    switch (t) {
    case STEER_KINEMATIC_SEEK:
    case STEER_KINEMATIC_FLEE:
    case STEER_KINEMATIC_ARRIVE:
    case STEER_SEEK:
    case STEER_FLEE:
    case STEER_ARRIVE:
    case STEER_ALIGN:
    case STEER_VELOCITY_MATCH:
    case STEER_PURSUE:
    case STEER_EVADE:
    case STEER_FACE: return true;
    default: return false;
    }
}

static bool is_combinator(steer_behaviour_type t) { return t == STEER_BLEND || t == STEER_PRIORITY; }

/* ---- proxies -------------------------------------------------------------------------- */

lbehaviour *steer_lua__test_behaviour(lua_State *L, int idx)
{
    lbehaviour *lb = lua_touserdata(L, idx);
    if (lb == NULL || !lua_getmetatable(L, idx)) return NULL;
    bool is = lua_rawgetp(L, -1, &behaviour_mark) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return is && lb->b != NULL ? lb : NULL;
}

lbehaviour *steer_lua__check_behaviour(lua_State *L, int arg)
{
    lbehaviour *lb = steer_lua__test_behaviour(L, arg);
    if (lb == NULL) luaL_typeerror(L, arg, "steer behaviour");
    return lb;
}

// A new, empty proxy of a type's class (pushed); the C object comes next.
static lbehaviour *new_proxy(lua_State *L, steer_behaviour_type type)
{
    lbehaviour *lb = lua_newuserdatauv(L, sizeof *lb, BEH_UV_COUNT);
    lb->b = NULL;
    luaL_setmetatable(L, class_names[type]);
    return lb;
}

// Remember the proxy at -1 as the one of its C object.
static void cache_proxy(lua_State *L, lbehaviour *lb)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &steer_lua__behaviours_key);
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, lb->b);
    lua_pop(L, 1);
}

void steer_lua__push_behaviour(lua_State *L, steer_behaviour *b)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &steer_lua__behaviours_key);
    if (lua_rawgetp(L, -1, b) == LUA_TUSERDATA) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 2);
    // a behaviour the host made in C: a new proxy with its own reference
    lbehaviour *lb = new_proxy(L, steer_behaviour_get_type(b));
    lb->b = steer_behaviour_retain(b);
    cache_proxy(L, lb);
}

/* ---- parameters ------------------------------------------------------------------------- */

static void *field_of(steer_behaviour_def *d, size_t offset) { return (char *)d + offset; }

// Read an option or property value (at vidx) for a parameter. Returns the
// number the engine's set_param takes: -1 inherits a limit, -2 unsets an
// optional value. Cross-field rules are checked against def when given.
static double check_param(lua_State *L, laux_where w, int vidx, const steer_param_info *p,
                          const steer_behaviour_def *def)
{
    char buf[128];
    double v;
    switch (p->kind) {
    case STEER_PARAM_BOOL: return laux_boolean(L, w, vidx) ? 1.0 : 0.0;
    case STEER_PARAM_ENUM: return (double)laux_enum(L, w, vidx, p->choices);
    case STEER_PARAM_LIMIT:
        if (lua_isnil(L, vidx)) return -1.0;
        v = laux_number(L, w, vidx, LAUX_NONNEGATIVE);
        break;
    case STEER_PARAM_OPTIONAL:
        if (lua_isnil(L, vidx)) return -2.0;
        v = laux_number(L, w, vidx, LAUX_FINITE);
        break;
    default: v = laux_number(L, w, vidx, LAUX_FINITE); break;
    }
    const char *phrase = steer_param_check(def, p, v, buf, sizeof buf);
    if (phrase != NULL) laux_error(L, w, phrase, vidx);
    return v;
}

// Store a checked value in a definition (the constructor's path).
static void def_set(steer_behaviour_def *d, const steer_param_info *p, double v)
{
    switch (p->kind) {
    case STEER_PARAM_BOOL: *(bool *)field_of(d, p->offset) = v != 0.0; break;
    case STEER_PARAM_ENUM: *(int *)field_of(d, p->offset) = (int)v; break;
    case STEER_PARAM_OPTIONAL:
        *(bool *)field_of(d, p->flag_offset) = v >= -1.0;
        if (v >= -1.0) *(float *)field_of(d, p->offset) = (float)v;
        break;
    default: *(float *)field_of(d, p->offset) = (float)v; break;
    }
}

// Push a parameter's current value: nil for an inherited limit or an unset
// optional value, names for enums.
static void push_param(lua_State *L, const steer_behaviour *b, const steer_param_info *p)
{
    const steer_behaviour_def *d = steer_behaviour_get_def(b);
    double v = steer_behaviour_get_param(b, p);
    switch (p->kind) {
    case STEER_PARAM_BOOL: lua_pushboolean(L, v != 0.0); break;
    case STEER_PARAM_ENUM: lua_pushstring(L, p->choices[(int)v]); break;
    case STEER_PARAM_LIMIT:
        if (v < 0.0) lua_pushnil(L);
        else laux_push_float(L, (float)v);
        break;
    case STEER_PARAM_OPTIONAL:
        if (!*(const bool *)((const char *)d + p->flag_offset)) lua_pushnil(L);
        else laux_push_float(L, (float)v);
        break;
    default: laux_push_float(L, (float)v); break;
    }
}

/* ---- targets and paths -------------------------------------------------------------------- */

// Check a target value (agent or point) for type t; fills *out.
static void check_target(lua_State *L, laux_where w, int vidx, steer_behaviour_type t, steer_target *out)
{
    memset(out, 0, sizeof *out);
    lagent *a = steer_lua__test_agent(L, vidx);
    if (a != NULL) {
        steer_lua__check_alive(L, a);
        out->kind = STEER_TARGET_AGENT;
        out->agent = a->id;
        return;
    }
    if (t == STEER_ALIGN) laux_error(L, w, "must be an agent (align to a fixed angle with 'orientation')", vidx);
    if (lua_type(L, vidx) != LUA_TTABLE) laux_error(L, w, "must be an agent or a point {x, y}", vidx);
    out->kind = STEER_TARGET_POINT;
    laux_point(L, w, vidx, &out->point.x, &out->point.y);
}

// Push the Lua value to remember for a target: the agent proxy, or a new {x, y}.
static void push_target_value(lua_State *L, int vidx, const steer_target *t)
{
    if (t->kind == STEER_TARGET_AGENT) {
        lua_pushvalue(L, vidx);
        return;
    }
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, laux_float_value(t->point.x));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, laux_float_value(t->point.y));
    lua_rawseti(L, -2, 2);
}

/* ---- children --------------------------------------------------------------------------- */

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
        laux_where w = tname != NULL ? laux_property(tname, name) : laux_field(arg, name);
        lua_rawgeti(L, arg, i);
        float weight = 1.0f;
        if (type == STEER_BLEND && lua_type(L, -1) == LUA_TTABLE) {
            // {behaviour, weight = w}: nothing else
            int item = lua_gettop(L);
            lua_pushnil(L);
            while (lua_next(L, item) != 0) {
                lua_pop(L, 1);
                bool ok = (lua_isinteger(L, -1) && lua_tointeger(L, -1) == 1) ||
                          (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "weight") == 0);
                if (!ok) {
                    const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : laux_describe(L, -1);
                    laux_error_plain(L, w, lua_pushfstring(L, "has an unknown field '%s'", k));
                }
            }
            lua_getfield(L, item, "weight");
            if (!lua_isnil(L, -1)) {
                char wname[64];
                snprintf(wname, sizeof wname, "%s.weight", name);
                laux_where ww = tname != NULL ? laux_property(tname, wname) : laux_field(arg, wname);
                weight = (float)laux_number(L, ww, -1, LAUX_FINITE);
            }
            lua_pop(L, 1);
            lua_rawgeti(L, item, 1);
            lua_remove(L, item);
            // the entry's own behaviour is its [1]
            size_t len = strlen(name);
            snprintf(name + len, sizeof name - len, "[1]");
            if (steer_lua__test_behaviour(L, -1) == NULL) laux_error(L, w, "must be a behaviour", -1);
        }
        lbehaviour *lb = steer_lua__test_behaviour(L, -1);
        if (lb == NULL)
            laux_error(L, w, type == STEER_BLEND ? "must be a behaviour or {behaviour, weight = w}" : "must be a behaviour", -1);
        c[i - 1].behaviour = lb->b;
        c[i - 1].weight = weight;
        lua_rawseti(L, list, i);
    }
    char buf[200];
    const char *phrase = steer_behaviour_check_children(self, c, (int)n, buf, sizeof buf);
    if (phrase != NULL) {
        if (strcmp(phrase, "would contain itself") == 0) phrase = "a behaviour cannot contain itself";
        laux_where w = tname != NULL ? laux_property(tname, "children") : laux_arg(arg);
        laux_error_plain(L, w, phrase);
    }
    *count = (int)n;
    return c;
}

// Check the keys of a combinator's table: the list items and its options.
static void combinator_options(lua_State *L, int arg, steer_behaviour_type type, steer_behaviour_def *def,
                               uint64_t *given)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    lua_pushnil(L);
    while (lua_next(L, arg) != 0) {
        if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n) {
            lua_pop(L, 1);
            continue;
        }
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        const steer_param_info *p = k != NULL ? steer_behaviour_find_param(type, k) : NULL;
        if (p == NULL) laux_unknown_field(L, arg, -2);
        def_set(def, p, check_param(L, laux_field(arg, k), -1, p, NULL));
        for (int i = 0; i < steer_behaviour_param_count(type); ++i) {
            if (steer_behaviour_param(type, i) == p) *given |= 1ull << i;
        }
        lua_pop(L, 1);
    }
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
            double v = p->kind == STEER_PARAM_BOOL ? (*(const bool *)((const char *)def + p->offset) ? 1.0 : 0.0)
                       : p->kind == STEER_PARAM_ENUM ? (double)*(const int *)((const char *)def + p->offset)
                                                     : (double)*(const float *)((const char *)def + p->offset);
            if (p->kind == STEER_PARAM_LIMIT && v < 0.0) continue;
            if (p->kind == STEER_PARAM_OPTIONAL && !*(const bool *)((const char *)def + p->flag_offset)) continue;
            const char *phrase = steer_param_check(def, p, v, buf, sizeof buf);
            if (phrase == NULL) continue;
            // the value as the user wrote it: 0.2, not 0.200000003
            double shown = laux_float_value((float)v);
            if (shown == floor(shown) && fabs(shown) < 9.0e15) lua_pushinteger(L, (lua_Integer)shown);
            else lua_pushnumber(L, shown);
            laux_error(L, laux_field(arg, p->name), phrase, -1);
        }
    }
}

// steer.seek{target = agent or {x, y}, ...} and every other engine behaviour:
// one options table; the upvalue is the type.
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
    uint64_t given = 0;
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (k != NULL && strcmp(k, "target") == 0 && has_target(type)) {
            check_target(L, laux_field(1, k), -1, type, &def.target);
            push_target_value(L, -1, &def.target);
            lua_replace(L, 2);
        } else if (k != NULL && strcmp(k, "path") == 0 && type == STEER_FOLLOW_PATH) {
            lpath *lp = luaL_testudata(L, -1, STEER_LUA_PATH);
            if (lp == NULL) laux_error(L, laux_field(1, k), "must be a path (world:path{...})", -1);
            def.path = lp->path;
            lua_pushvalue(L, -1);
            lua_replace(L, 3);
        } else {
            const steer_param_info *p = k != NULL ? steer_behaviour_find_param(type, k) : NULL;
            if (p == NULL) laux_unknown_field(L, 1, -2);
            def_set(&def, p, check_param(L, laux_field(1, k), -1, p, NULL));
            for (int i = 0; i < steer_behaviour_param_count(type); ++i) {
                if (steer_behaviour_param(type, i) == p) given |= 1ull << i;
            }
        }
        lua_pop(L, 1);
    }
    cross_check(L, 1, &def, given);
    lbehaviour *lb = new_proxy(L, type); // 4
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, 4, BEH_UV_TARGET);
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 4, BEH_UV_PATH);
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) return luaL_error(L, "not enough memory");
    cache_proxy(L, lb);
    return 1;
}

// steer.blend{ {behaviour, weight = w}, ..., max_acceleration = ... } and
// steer.priority{ b1, b2, ..., epsilon = 1e-3 }
static int combinator_new(lua_State *L, steer_behaviour_type type)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    steer_behaviour_def def = steer_default_behaviour_def(type);
    uint64_t given = 0;
    combinator_options(L, 1, type, &def, &given);
    cross_check(L, 1, &def, given);
    int count;
    steer_child *children = check_children(L, 1, NULL, type, NULL, &count); // 2: array, 3: list
    def.children = children;
    def.child_count = count;
    lbehaviour *lb = new_proxy(L, type); // 4
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 4, BEH_UV_CHILDREN);
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) return luaL_error(L, "not enough memory");
    cache_proxy(L, lb);
    return 1;
}

static int blend_new(lua_State *L) { return combinator_new(L, STEER_BLEND); }
static int priority_new(lua_State *L) { return combinator_new(L, STEER_PRIORITY); }

/* ---- behaviours written in Lua -------------------------------------------------------------- */

/// Context of a Lua behaviour: its C object, to find its proxy (and the
/// function in it) in the proxy cache.
typedef struct lcallback {
    steer_behaviour *self;
} lcallback;

static void callback_release(void *context) { steer_free(context); }

// steer.behaviour(function(agent, dt) return lx, ly, angular end) -> behaviour
static int lua_behaviour_new(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lbehaviour *lb = new_proxy(L, STEER_CALLBACK); // 2
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, 2, BEH_UV_FN);
    lcallback *cb = steer_alloc(sizeof *cb);
    if (cb == NULL) return luaL_error(L, "not enough memory");
    steer_behaviour_def def = steer_default_behaviour_def(STEER_CALLBACK);
    def.callback = steer_lua__callback;
    def.context = cb;
    def.release = callback_release;
    lb->b = steer_behaviour_create(&def);
    if (lb->b == NULL) {
        steer_free(cb);
        return luaL_error(L, "not enough memory");
    }
    cb->self = lb->b;
    cache_proxy(L, lb);
    return 1;
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
        lua_rawseti(L, -2, steer_lua__agent_key(id));
    }
    lua_pop(L, 1);
    return 1;
}

static steer_callback_result call_failed(lstep *s, int kind, int top)
{
    lua_State *L = s->L;
    if (s->error_kind == 0) {
        s->error_kind = kind;
        if (kind == LSTEP_ERR_LUA) lua_copy(L, -1, s->error_idx);
    }
    lua_settop(L, top);
    return STEER_CALLBACK_ERROR;
}

// Called by the engine from inside world:step or get_steering (never a Lua
// error across engine frames: everything that can fail runs under pcall).
steer_callback_result steer_lua__callback(steer_world *world, steer_agent_id agent, float dt,
                                          steer_steering *out, void *context)
{
    lstep *s = steer_lua__active;
    if (s == NULL || s->core->world != world) return STEER_CALLBACK_ERROR; // not called through Lua
    lua_State *L = s->L;
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8)) return STEER_CALLBACK_ERROR;
    const lcallback *cb = context;
    if (lua_rawgetp(L, s->behaviours_idx, cb->self) != LUA_TUSERDATA) return call_failed(s, LSTEP_ERR_LOST, top);
    lua_getiuservalue(L, -1, BEH_UV_FN);
    lua_remove(L, -2);
    // the agent's proxy: cached, or made under protection
    bool found = false;
    if (lua_rawgeti(L, s->agents_idx, agent.index) == LUA_TUSERDATA) {
        const lagent *a = lua_touserdata(L, -1);
        found = steer_agent_id_equal(a->id, agent);
    }
    if (!found) {
        lua_pop(L, 1);
        lua_pushcfunction(L, make_agent_proxy);
        lua_pushvalue(L, s->core_idx);
        lua_pushinteger(L, agent.index);
        lua_pushinteger(L, agent.generation);
        if (lua_pcall(L, 3, 1, s->handler_idx) != LUA_OK) return call_failed(s, LSTEP_ERR_LUA, top);
    }
    lua_pushnumber(L, dt);
    s->agent_key = steer_agent_get_key(world, agent);
    int status = lua_pcall(L, 2, 3, s->handler_idx);
    s->agent_key = 0;
    if (status != LUA_OK) return call_failed(s, LSTEP_ERR_LUA, top);
    // results: nil (no steering), or lx, ly[, angular]
    int t1 = lua_type(L, -3), t2 = lua_type(L, -2), t3 = lua_type(L, -1);
    if (t1 == LUA_TNIL) {
        lua_settop(L, top);
        return STEER_CALLBACK_NONE;
    }
    if (t1 != LUA_TNUMBER || t2 != LUA_TNUMBER || (t3 != LUA_TNUMBER && t3 != LUA_TNIL)) {
        s->bad_type = t1 != LUA_TNUMBER ? t1 : t2 != LUA_TNUMBER ? t2 : t3;
        return call_failed(s, LSTEP_ERR_RESULT, top);
    }
    out->linear.x = (float)lua_tonumber(L, -3);
    out->linear.y = (float)lua_tonumber(L, -2);
    out->angular = t3 == LUA_TNUMBER ? (float)lua_tonumber(L, -1) : 0.0f;
    if (!steer_vec2_is_finite(out->linear) || !steer_is_finite(out->angular))
        return call_failed(s, LSTEP_ERR_NONFINITE, top);
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
    float dt = lua_isnoneornil(L, 3) ? 1.0f / 60.0f : laux_check_float(L, 3, LAUX_NONNEGATIVE);
    lua_settop(L, 3);
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
            laux_push_float(L, c.weight);
            lua_setfield(L, -2, "weight");
        }
        lua_rawseti(L, -2, i + 1);
    }
}

static int behaviour_index(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; // a method
    steer_behaviour_type type = steer_behaviour_get_type(lb->b);
    // the class's property set (class_properties) answers "is there one?"
    lua_pushvalue(L, 2);
    const char *k = lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL ? lua_tostring(L, 2) : NULL;
    if (k == NULL) return luaL_error(L, "%s has no property '%s'", class_names[type], luaL_tolstring(L, 2, NULL));
    const steer_param_info *p = steer_behaviour_find_param(type, k);
    if (p != NULL) {
        push_param(L, lb->b, p);
    } else if (strcmp(k, "type") == 0) {
        lua_pushstring(L, steer_behaviour_type_name(type));
    } else if (strcmp(k, "target") == 0 && has_target(type)) {
        const steer_target *t = &steer_behaviour_get_def(lb->b)->target;
        lua_getiuservalue(L, 1, BEH_UV_TARGET);
        // a behaviour made in C has no Lua value: rebuild a point
        if (lua_isnil(L, -1) && t->kind == STEER_TARGET_POINT) push_target_value(L, 0, t);
    } else if (strcmp(k, "path") == 0 && type == STEER_FOLLOW_PATH) {
        lua_getiuservalue(L, 1, BEH_UV_PATH);
    } else if (strcmp(k, "children") == 0 && is_combinator(type)) {
        push_children(L, 1, lb);
    } else if (strcmp(k, "fn") == 0 && type == STEER_CALLBACK) {
        lua_getiuservalue(L, 1, BEH_UV_FN);
    } else {
        return luaL_error(L, "%s has no property '%s'", class_names[type], k);
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
    laux_where w = laux_property(class_names[type], "children");
    if (lua_type(L, 3) != LUA_TTABLE) laux_error(L, w, "must be a list of behaviours", 3);
    // the list is checked like the constructor's
    int count;
    steer_child *c = check_children(L, 3, class_names[type], type, lb->b, &count); // 4: array, 5: list
    if (!steer_behaviour_set_children(lb->b, c, count)) luaL_error(L, "not enough memory");
    lua_pushvalue(L, 5);
    lua_setiuservalue(L, 1, BEH_UV_CHILDREN);
}

static int behaviour_newindex(lua_State *L)
{
    lbehaviour *lb = steer_lua__check_behaviour(L, 1);
    lua_settop(L, 3);
    steer_behaviour_type type = steer_behaviour_get_type(lb->b);
    const char *tname = class_names[type];
    const char *k = lua_tostring(L, 2);
    if (k == NULL) return luaL_error(L, "%s has no property '%s'", tname, luaL_tolstring(L, 2, NULL));
    laux_where w = laux_property(tname, k);
    const steer_param_info *p = steer_behaviour_find_param(type, k);
    bool settable = p != NULL || (strcmp(k, "target") == 0 && has_target(type)) ||
                    (strcmp(k, "path") == 0 && type == STEER_FOLLOW_PATH) ||
                    (strcmp(k, "children") == 0 && is_combinator(type));
    if (settable) check_not_stepping(L, k);
    if (p != NULL) {
        double v = check_param(L, w, 3, p, steer_behaviour_get_def(lb->b));
        steer_behaviour_set_param(lb->b, p, v);
    } else if (strcmp(k, "target") == 0 && has_target(type)) {
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
    } else if (strcmp(k, "path") == 0 && type == STEER_FOLLOW_PATH) {
        lpath *lp = lua_isnil(L, 3) ? NULL : luaL_testudata(L, 3, STEER_LUA_PATH);
        if (lp == NULL && !lua_isnil(L, 3)) laux_error(L, w, "must be a path or nil", 3);
        lua_pushvalue(L, 3);
        lua_setiuservalue(L, 1, BEH_UV_PATH);
        steer_behaviour_set_path(lb->b, lp != NULL ? lp->path : NULL);
    } else if (strcmp(k, "children") == 0 && is_combinator(type)) {
        set_children(L, lb, type);
    } else if (strcmp(k, "type") == 0) {
        return luaL_error(L, "property 'type' of %s is read-only", tname);
    } else {
        return luaL_error(L, "%s has no property '%s'", tname, k);
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
    luaL_addstring(&buf, class_names[type]);
    luaL_addchar(&buf, '{');
    bool first = true;
    int n = steer_behaviour_param_count(type);
    for (int i = 0; i < n; ++i) {
        const steer_param_info *p = steer_behaviour_param(type, i);
        push_param(L, lb->b, p);
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
    if (has_target(type) && t->kind == STEER_TARGET_POINT) {
        lua_pushfstring(L, "%starget={%f, %f}", first ? "" : ", ", (LUAI_UACNUMBER)laux_float_value(t->point.x),
                        (LUAI_UACNUMBER)laux_float_value(t->point.y));
        luaL_addvalue(&buf);
        first = false;
    } else if (has_target(type) && t->kind == STEER_TARGET_AGENT) {
        lua_pushfstring(L, "%starget=agent", first ? "" : ", ");
        luaL_addvalue(&buf);
        first = false;
    }
    if (is_combinator(type)) {
        lua_pushfstring(L, "%s%d children", first ? "" : ", ", steer_behaviour_child_count(lb->b));
        luaL_addvalue(&buf);
    }
    luaL_addchar(&buf, '}');
    luaL_pushresult(&buf);
    return 1;
}

// Push the set of property names of a type's class: its reflected
// parameters, `type`, and what the binding adds (target, path, children, fn).
// behaviour_index answers only these: a new property the binding adds goes
// here too (and in bindings/meta/steer.meta.lua, or lua.annotations fails).
static void class_properties(lua_State *L, steer_behaviour_type t)
{
    static const char *const base[] = {"type", NULL};
    laux_push_set(L, base);
    for (int i = 0; i < steer_behaviour_param_count(t); ++i) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, steer_behaviour_param(t, i)->name);
    }
    const char *extra = has_target(t)             ? "target"
                        : t == STEER_FOLLOW_PATH ? "path"
                        : is_combinator(t)       ? "children"
                        : t == STEER_CALLBACK    ? "fn"
                                                 : NULL;
    if (extra != NULL) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, extra);
    }
}

static const luaL_Reg behaviour_methods[] = {
    {"get_steering", behaviour_get_steering},
    {NULL, NULL},
};

static const luaL_Reg behaviour_meta[] = {
    {"__newindex", behaviour_newindex},
    {"__gc", behaviour_gc},
    {"__tostring", behaviour_tostring},
    {NULL, NULL},
};

void steer_lua__open_behaviour(lua_State *L)
{
    // the proxy cache: C pointer -> userdata, weak values
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &steer_lua__behaviours_key);

    luaL_newlib(L, behaviour_methods);
    int methods = lua_gettop(L);
    for (int t = 0; t < STEER_BEHAVIOUR_TYPE_COUNT; ++t) {
        laux_new_class(L, class_names[t], behaviour_meta);
        lua_pushvalue(L, methods);
        class_properties(L, (steer_behaviour_type)t);
        lua_pushcclosure(L, behaviour_index, 2);
        lua_setfield(L, -2, "__index");
        lua_pushboolean(L, 1);
        lua_rawsetp(L, -2, &behaviour_mark);
        lua_pop(L, 1);
        // the constructor, under the type's snake_case name
        // (a formation_slot behaviour comes from its formation: f:behaviour())
        if (is_combinator((steer_behaviour_type)t) || t == STEER_CALLBACK || t == STEER_FORMATION_SLOT) continue;
        lua_pushinteger(L, t);
        lua_pushcclosure(L, behaviour_new, 1);
        lua_setfield(L, methods - 1, steer_behaviour_type_name((steer_behaviour_type)t));
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, blend_new);
    lua_setfield(L, -2, "blend");
    lua_pushcfunction(L, priority_new);
    lua_setfield(L, -2, "priority");
    lua_pushcfunction(L, lua_behaviour_new);
    lua_setfield(L, -2, "behaviour");
}
