// runtime.h: what every class of the module needs (not installed): the
// world's core, the step protocol around engine calls that run Lua, one
// proxy cache, one option and property reader driven by the engine's
// reflected tables. Classes include this and nothing of each other.
#ifndef STEER_RUNTIME_H
#define STEER_RUNTIME_H

#include "compat.h" // first: the version shim
#include "laux.h"
#include "steer/steer.h"
#include "steer/steer_lua.h"

#define STEER_LUA_WORLD "steer.World"
#define STEER_LUA_AGENT "steer.Agent"
#define STEER_LUA_PATH "steer.Path"
#define STEER_LUA_SHAPE "steer.Shape"
#define STEER_LUA_FORMATION "steer.Formation"

/* ---- the core ------------------------------------------------------------------- */

/// What the proxies of a world share with it: it outlives the world proxy,
/// so a proxy of a collected or closed world finds `world == NULL` and
/// raises instead of touching freed memory. Full userdata, no metatable.
typedef struct lcore {
    steer_world *world; ///< NULL once closed
    int busy;           ///< inside world:step or get_steering: destroying must wait
    bool close_pending; ///< the world proxy was collected while busy
    bool drawing;       ///< inside world:draw: its callbacks may not change the world
    /// Why the world may not change now (a formation's functions run, a
    /// host prepares a reload: steer_lua_freeze_world), or NULL.
    const char *frozen;
    bool owned;         ///< destroyed with the proxy (false: the host's world)
    /// a host's world: scripts may not change its settings (integrator,
    /// cell_size, resolve_contacts) unless the host allows it
    bool settings_locked;
    uint32_t serial; ///< tells cores apart in the proxy cache's keys
    struct lnav *nav; ///< the shapes mirrored for navigation (nav_sync.c), NULL until used
} lcore;

/// Uservalues of a core: the Lua values the world's agents keep, by stored
/// id (steer_lua__stored_id; the first CORE_UV_AGENT_TABLES), then the
/// formations' proxies and the world's own values.
enum {
    CORE_UV_STEERING = 1, ///< behaviour userdata: mirrors the C references
    CORE_UV_ROLE = 2,     ///< the host's role of an agent (a string)
    CORE_UV_TAG = 3,      ///< tag strings
    CORE_UV_ANCHOR = 4,   ///< proxies handed to Lua behaviours, kept while the agent lives
    CORE_UV_DATA = 5,     ///< agent.data: a table of plain values
    CORE_UV_AGENT_TABLES = 5,
    /// the proxy of each formation made through Lua, by stored formation id,
    /// kept while it lives (its Lua values live in the proxy)
    CORE_UV_FORMATIONS = 6,
    CORE_UV_WORLD = 7, ///< the world's own values: world.data
    CORE_UV_COUNT = 7
};

/// steer.World: uservalue 1 is the core.
typedef struct lworld {
    lcore *core;
} lworld;

/// Handles of objects a world owns: the core (uservalue 1) and the id.
typedef struct lagent {
    lcore *core;
    steer_agent_id id;
} lagent;
typedef struct lshape {
    lcore *core;
    steer_shape_id id;
} lshape;
/// steer.Formation: uservalue 2 is a table of the Lua values behind it.
typedef struct lformation {
    lcore *core;
    steer_formation_id id;
} lformation;

/// Every behaviour class: holds one reference to the C behaviour.
typedef struct lbehaviour {
    steer_behaviour *b; ///< NULL only before creation succeeded or after __gc
} lbehaviour;

/// Uservalues of a behaviour: the Lua values behind its C references, so
/// the garbage collector sees what the engine holds.
enum {
    BEH_UV_FN = 1,       ///< steer.behaviour: the Lua function
    BEH_UV_TARGET = 2,   ///< agent proxy or {x, y}
    BEH_UV_PATH = 3,     ///< steer.Path (reciprocal_avoidance: its preferred child)
    BEH_UV_CHILDREN = 4, ///< list of child behaviour userdata
    BEH_UV_COUNT = 4
};

/// steer.Path: holds one reference.
typedef struct lpath {
    steer_path *path;
} lpath;

/// Push what the spawn hook (steer_lua_set_spawn_hook) gives the agent at
/// agent_idx spawned with the role at role_idx: its two results (a
/// behaviour or nil, a colour or nil), or nil, nil when no hook is set.
/// The world of core is frozen while the hook runs; its errors propagate.
void steer_lua__push_spawn_steering(lua_State *L, lcore *core, int agent_idx, int role_idx);

/// Push a new world proxy and its core (the proxy at -1, its core as uservalue 1).
lworld *steer_lua__new_world(lua_State *L);
/// Destroy (or detach) the world of the core at core_idx.
void steer_lua__close_core(lua_State *L, int core_idx);
/// The core of the steer.World at arg (raises when closed).
lcore *steer_lua__check_world(lua_State *L, int arg);
/// Raise unless the world may be changed now (not closed, not stepping).
void steer_lua__check_mutable(lua_State *L, lcore *core);

/* ---- the step protocol ------------------------------------------------------------- */

/// A call into the engine that may call Lua behaviours back (world:step,
/// get_steering): where to find the Lua state and what went wrong.
typedef struct lstep {
    lua_State *L;
    lcore *core;
    int core_idx;       ///< stack index of the core userdata
    int handler_idx;    ///< message handler (traceback)
    int proxies_idx;    ///< the proxy cache
    int error_idx;      ///< first error value (nil when none)
    uint64_t agent_key; ///< the engine's key of the agent whose Lua behaviour runs (0: none)
    int error_kind;     ///< 0 none, else a LSTEP_ERR_* code
    int bad_type;       ///< LSTEP_ERR_RESULT: type of the bad result
    struct lstep *prev;
} lstep;

enum { LSTEP_ERR_LUA = 1, LSTEP_ERR_RESULT, LSTEP_ERR_NONFINITE, LSTEP_ERR_LOST };

/// The innermost engine call in progress on this thread (NULL outside).
extern _Thread_local lstep *steer_lua__active;

/// Prepare an engine call that may run Lua behaviours; core at core_idx.
void steer_lua__step_begin(lua_State *L, lstep *s, int core_idx);
/// Finish it: raise the first error of a Lua behaviour, if any.
void steer_lua__step_end(lua_State *L, lstep *s);
/// Record a failed Lua behaviour call (the error value at -1 for
/// LSTEP_ERR_LUA); the stack goes back to top.
steer_callback_result steer_lua__step_failed(lstep *s, int kind, int top);

/* ---- one proxy per object ------------------------------------------------------------ */

/// Kinds of world-owned objects with proxies.
typedef enum lkind { LKIND_AGENT, LKIND_SHAPE, LKIND_FORMATION, LKIND_COUNT } lkind;

/// The cache's key of a world-owned object (core, kind, slot index).
static inline lua_Integer steer_lua__proxy_key(const lcore *core, lkind kind, uint32_t index)
{
    return (lua_Integer)(((uint64_t)core->serial << 34) | ((uint64_t)index << 2) | (uint64_t)kind);
}
/// Push the one proxy of a world-owned object (cached, or new: the stored
/// id of steer_agent_id_store and its kin); core userdata at core_idx.
void *steer_lua__push_handle(lua_State *L, int core_idx, lkind kind, uint64_t id);
/// Push a new proxy of an object about to be created (null id), so that
/// running out of memory leaves nothing half-made; attach it once created.
void *steer_lua__new_handle(lua_State *L, int core_idx, lkind kind);
/// Give the new proxy at idx its id and cache it.
void steer_lua__attach_handle(lua_State *L, int idx, lkind kind, uint64_t id);
/// Agents, the common case.
void steer_lua__push_agent(lua_State *L, int core_idx, steer_agent_id id);
/// Push the proxy of a C behaviour (the cached one, or a new one with its own reference).
void steer_lua__push_behaviour(lua_State *L, steer_behaviour *b);
/// Remember the behaviour proxy at -1 as its C object's.
void steer_lua__cache_behaviour(lua_State *L, lbehaviour *lb);
/// The class of a behaviour type, from its reflected name: "steer.Arrive",
/// "steer.LookWhereYouAreGoing" (written into buf).
const char *steer_lua__behaviour_class(steer_behaviour_type type, char *buf, size_t size);
#define STEER_LUA_CLASS_SIZE 48

/* ---- checks of proxies --------------------------------------------------------------- */

/// An agent userdata or NULL (no liveness check).
lagent *steer_lua__test_agent(lua_State *L, int idx);
/// Raise unless a proxy refers to a live agent of an open world.
void steer_lua__check_alive(lua_State *L, const lagent *a);
/// A live agent at arg (raises "attempt to use a removed agent").
lagent *steer_lua__check_agent(lua_State *L, int arg);
/// Raise unless the value at idx is plain (what a snapshot can save): nil,
/// a boolean, a number, a string, or a table of them without a metatable,
/// keyed by strings, numbers or booleans, with no cycle. The message names
/// w and the path of the first value that is not ("data.squad[2] is a
/// steer.Agent").
void steer_lua__check_plain(lua_State *L, steer_laux_where w, int idx);
/// Push t[key] of the table at tidx, creating an empty table there first
/// when it holds none (agent.data, world.data).
void steer_lua__push_data(lua_State *L, int tidx, lua_Integer key);
/// Push the proxy of a formation made through Lua, or nil (core at core_idx).
void steer_lua__push_formation(lua_State *L, int core_idx, steer_formation_id id);
/// Forget the Lua-side data of an agent being removed.
void steer_lua__forget_agent(lua_State *L, int core_idx, steer_agent_id id);
/// Set an agent's behaviour (value at idx: behaviour or nil); core at core_idx.
void steer_lua__set_steering(lua_State *L, int core_idx, steer_agent_id id, int idx, bool keep_memory);
/// An agent's index in the core's tables: its stored id (steer_agent_id_store;
/// not its key, steer_agent_get_key, which names its random stream).
static inline lua_Integer steer_lua__stored_id(steer_agent_id id) { return (lua_Integer)steer_agent_id_store(id); }

/// A behaviour userdata (any class) or NULL.
lbehaviour *steer_lua__test_behaviour(lua_State *L, int idx);
lbehaviour *steer_lua__check_behaviour(lua_State *L, int arg);

/// A steer.Path or NULL.
lpath *steer_lua__test_path(lua_State *L, int idx);
/// world:path{...} and steer.path{...}: a new steer.Path from the table at arg.
int steer_lua__new_path(lua_State *L, int arg);
/// Push a new steer.Path made from a valid definition (1 result).
int steer_lua__push_path(lua_State *L, const steer_path_def *def);

/* ---- one reader of options and properties ----------------------------------------------- */

/// Push a name table for a definition's reflected fields: name -> light
/// userdata (the steer_field_info), then extras[i] -> i. live_only: only
/// the fields a live object takes. prefix: a nested table's fields
/// ("anchor."), keyed by their full names; NULL: the top level's.
void steer_lua__push_def_names(lua_State *L, steer_def_type def, bool live_only, const char *prefix,
                               const char *const *extras);
/// The same for a behaviour type's parameters (light userdata: the steer_param_info).
void steer_lua__push_param_names(lua_State *L, steer_behaviour_type type, const char *const *extras);

/// What the reader does with a name of the extras (code: its index), the
/// value at vidx; false: not an option here ("unknown field").
typedef bool steer_lua_extra_fn(lua_State *L, void *context, int code, steer_laux_where w, int vidx);

/// How to read an options table.
typedef struct steer_lua_reader {
    int arg;                 ///< argument number, for messages
    const char *prefix;      ///< a nested table's names ("anchor."), or NULL
    bool list;               ///< keys 1..#t are the caller's (a list part)
    void *def;               ///< a definition's fields go here (steer_def_set_field) ...
    steer_behaviour_def *behaviour; ///< ... or a behaviour's parameters
    uint64_t given;          ///< behaviour parameters given (bit i: parameter i)
    steer_lua_extra_fn *extra;
    void *context;
} steer_lua_reader;

/// Read the options table at tidx: every key must be in the name table at
/// names_idx (else "unknown field"); fields are checked and stored, extras
/// go to r->extra.
void steer_lua__read_options(lua_State *L, int tidx, int names_idx, steer_lua_reader *r);

/// Push the table registered under key, or build it (build pushes it) and
/// register it: name tables are made once per Lua state.
void steer_lua__push_memo(lua_State *L, const void *key, void (*build)(lua_State *L));

/// Look up the key at kidx in the name table at names_idx: its extra code
/// (>= 0); -1 when absent; -2 for a field or parameter, whose info is then
/// pushed (light userdata).
int steer_lua__lookup(lua_State *L, int names_idx, int kidx);

/// Check the value at vidx for a field and store it in def.
void steer_lua__read_field(lua_State *L, steer_laux_where w, int vidx, void *def, const steer_field_info *f);
/// Push a field of def (live float fields as the shortest float, the others as numbers).
void steer_lua__push_field(lua_State *L, const void *def, const steer_field_info *f);
/// Check the value at vidx for a behaviour parameter; returns what
/// steer_param_set takes (-1 inherits a limit, -2 unsets an optional value).
/// Cross-field rules are checked against def when given.
double steer_lua__check_param(lua_State *L, steer_laux_where w, int vidx, const steer_param_info *p,
                              const steer_behaviour_def *def);
/// Push a behaviour parameter: nil for an inherited limit or unset value, names for enums.
void steer_lua__push_param(lua_State *L, const steer_behaviour_def *def, const steer_param_info *p);

/// The index of the string at vidx among choices (NULL-terminated), or -1.
int steer_lua__choice(lua_State *L, int vidx, const char *const *choices);

/// steer.options(kind) -> list of {name =, type =, rule =, unit =, min =,
/// max =, choices =, live =, reflected =}: every option of steer.world{},
/// world:spawn{} or steer.formation{} ("world", "agent", "formation"), the
/// reflected fields then the binding's own (options.c).
int steer_lua__options(lua_State *L);

/// The options a constructor takes besides the reflected fields, and the
/// properties an object has besides them (NULL-terminated, in the order of
/// their codes): the parsers' name tables and steer.options read the same.
extern const char *const steer_lua__world_options[];      ///< steer.world{} (wrap_world.c)
extern const char *const steer_lua__world_properties[];   ///< steer.World (wrap_world.c)
extern const char *const steer_lua__spawn_options[];      ///< world:spawn{} (wrap_world.c)
extern const char *const steer_lua__agent_properties[];   ///< steer.Agent (wrap_agent.c)
extern const char *const steer_lua__formation_options[];  ///< steer.formation{} (wrap_formation.c)
extern const char *const steer_lua__anchor_options[];     ///< its anchor table, "anchor.x" (wrap_formation.c)
extern const char *const steer_lua__formation_properties[]; ///< steer.Formation (wrap_formation.c)
extern const char *const steer_lua__pattern_names[];      ///< a formation's named patterns (formation_sync.c)

/// The filter table at arg (nil or absent: none), the last argument: a
/// ray's {mask =, agents =, ignore =, z =, height =}, a query's the same
/// without agents (ray_filter.c). Raises on anything else.
void steer_lua__read_ray_filter(lua_State *L, int arg, bool ray, steer_ray_filter *filter);

#endif
