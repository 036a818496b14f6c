// bind.h: what the binding files share (not installed). One file per
// userdata family: wrap_world.c, wrap_agent.c, wrap_behaviour.c,
// wrap_path.c, wrap_shape.c; checkers in laux.c; the module in steer_lua.c.
#ifndef STEER_BIND_H
#define STEER_BIND_H

#include <lauxlib.h>
#include <lua.h>

#include "laux.h"
#include "steer/steer.h"
#include "steer/steer_lua.h"

#define STEER_LUA_WORLD "steer.World"
#define STEER_LUA_AGENT "steer.Agent"
#define STEER_LUA_PATH "steer.Path"
#define STEER_LUA_SHAPE "steer.Shape"

/// What agent proxies share with their world: it outlives the world proxy,
/// so a proxy of a collected or closed world finds `world == NULL` and
/// raises instead of touching freed memory. Full userdata, no metatable.
typedef struct lcore {
    steer_world *world; ///< NULL once closed
    int busy;           ///< inside world:step or get_steering: destroying must wait
    bool close_pending; ///< the world proxy was collected while busy
    bool owned;         ///< destroyed with the proxy (false: the host's world)
    /// a host's world: scripts may not change its settings (integrator,
    /// cell_size, resolve_contacts) unless the host allows it
    bool settings_locked;
} lcore;

/// Uservalues of a core: Lua-side tables of the world.
enum {
    CORE_UV_AGENTS = 1,   ///< agent proxies by slot index (weak values)
    CORE_UV_STEERING = 2, ///< behaviour userdata by agent key: mirrors the C references
    CORE_UV_ROLE = 3,     ///< role strings by agent key
    CORE_UV_TAG = 4,      ///< tag strings by agent key
    CORE_UV_ANCHOR = 5,   ///< proxies handed to Lua behaviours, kept while the agent lives
    CORE_UV_SHAPES = 6,   ///< shape proxies by slot index (weak values)
    CORE_UV_COUNT = 6
};

/// steer.World: uservalue 1 is the core.
typedef struct lworld {
    lcore *core;
} lworld;

/// steer.Agent: borrows; uservalue 1 is the core (never the world proxy).
typedef struct lagent {
    lcore *core;
    steer_agent_id id;
} lagent;

/// Every behaviour class: holds one reference to the C behaviour.
typedef struct lbehaviour {
    steer_behaviour *b; ///< NULL only before creation succeeded or after __gc
} lbehaviour;

/// Uservalues of a behaviour: the Lua values behind its C references, so
/// the garbage collector sees what the engine holds.
enum {
    BEH_UV_FN = 1,       ///< steer.behaviour: the Lua function
    BEH_UV_TARGET = 2,   ///< agent proxy or {x, y}
    BEH_UV_PATH = 3,     ///< steer.Path
    BEH_UV_CHILDREN = 4, ///< list of child behaviour userdata
    BEH_UV_COUNT = 4
};

/// steer.Path: holds one reference.
typedef struct lpath {
    steer_path *path;
} lpath;

/// steer.Shape: a shape id in a world; uservalue 1 is the core.
typedef struct lshape {
    lcore *core;
    steer_shape_id id;
} lshape;

/// A call into the engine that may call Lua behaviours back (world:step,
/// get_steering): where to find the Lua state and what went wrong.
typedef struct lstep {
    lua_State *L;
    lcore *core;
    int core_idx;      ///< stack index of the core userdata
    int handler_idx;   ///< message handler (traceback)
    int agents_idx;    ///< the core's agent proxy cache
    int behaviours_idx; ///< the behaviour proxy cache
    int error_idx;     ///< first error value (nil when none)
    uint64_t agent_key; ///< key of the agent whose Lua behaviour runs (0: none)
    int error_kind;    ///< 0 none, else a LSTEP_ERR_* code
    int bad_type;      ///< LSTEP_ERR_RESULT: type of the bad result
    struct lstep *prev;
} lstep;

enum { LSTEP_ERR_LUA = 1, LSTEP_ERR_RESULT, LSTEP_ERR_NONFINITE, LSTEP_ERR_LOST };

/// The innermost engine call in progress on this thread (NULL outside).
extern _Thread_local lstep *steer_lua__active;

/* ---- module pieces (each pushes nothing and leaves the module table at -1) --- */
void steer_lua__open_world(lua_State *L);
void steer_lua__open_agent(lua_State *L);
void steer_lua__open_behaviour(lua_State *L);
void steer_lua__open_path(lua_State *L);
void steer_lua__open_shape(lua_State *L);
void steer_lua__open_formation(lua_State *L);

/* ---- worlds ------------------------------------------------------------------ */
/// The core of a proxy's uservalue 1 (agents, shapes, worlds) pushed.
lcore *steer_lua__check_world(lua_State *L, int arg);
/// Raise unless the world may be changed now (not closed, not stepping).
void steer_lua__check_mutable(lua_State *L, lcore *core);
/// Prepare an engine call that may run Lua behaviours; core at core_idx.
void steer_lua__step_begin(lua_State *L, lstep *s, int core_idx);
/// Finish it: raise the first error of a Lua behaviour, if any.
void steer_lua__step_end(lua_State *L, lstep *s);
/// Key of an agent in the core's tables.
static inline lua_Integer steer_lua__agent_key(steer_agent_id id)
{
    return (lua_Integer)(((uint64_t)id.index << 32) | id.generation);
}

/// Push what the spawn hook (steer_lua_set_spawn_hook) gives the agent at
/// agent_idx spawned with the role at role_idx: its result, or nil when no
/// hook is set.
void steer_lua__push_spawn_steering(lua_State *L, int agent_idx, int role_idx);

/* ---- agents ------------------------------------------------------------------ */
/// Push the one proxy of an agent; core userdata at core_idx.
void steer_lua__push_agent(lua_State *L, int core_idx, steer_agent_id id);
/// A live agent at arg (raises "attempt to use a removed agent").
lagent *steer_lua__check_agent(lua_State *L, int arg);
/// An agent userdata or NULL (no liveness check).
lagent *steer_lua__test_agent(lua_State *L, int idx);
/// Raise unless a proxy refers to a live agent of an open world.
void steer_lua__check_alive(lua_State *L, const lagent *a);
/// Forget the Lua-side data of an agent being removed.
void steer_lua__forget_agent(lua_State *L, int core_idx, steer_agent_id id);
/// Set an agent's behaviour (value at idx: behaviour or nil); core at core_idx.
void steer_lua__set_steering(lua_State *L, int core_idx, steer_agent_id id, int idx,
                             bool keep_memory);

/* ---- behaviours -------------------------------------------------------------- */
lbehaviour *steer_lua__test_behaviour(lua_State *L, int idx);
lbehaviour *steer_lua__check_behaviour(lua_State *L, int arg);
/// Push the proxy of a C behaviour (the cached one, or a new one).
void steer_lua__push_behaviour(lua_State *L, steer_behaviour *b);
/// The engine callback of steer.behaviour.
steer_callback_result steer_lua__callback(steer_world *world, steer_agent_id agent, float dt,
                                          steer_steering *out, void *context);

/* ---- paths and shapes ---------------------------------------------------------- */
lpath *steer_lua__check_path(lua_State *L, int arg);
/// world:path{...} and steer.path{...}: a new steer.Path from the table at arg.
int steer_lua__new_path(lua_State *L, int arg);
/// Push a shape proxy; core at core_idx.
void steer_lua__push_shape(lua_State *L, int core_idx, steer_shape_id id);

#endif
