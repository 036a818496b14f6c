/// steer/steer_lua.h: the Lua 5.4 bindings, for hosts that embed Lua.
///
/// `luaopen_steer` opens the `steer` module (docs/lua-api.md). Hosts link the
/// static library `steer::lua` (plus their own Lua); stock Lua interpreters
/// load the same code as the C module `steer.so`.
#ifndef STEER_STEER_LUA_H
#define STEER_STEER_LUA_H

#include <lua.h>

#include "steer/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Open the module: pushes the `steer` table (use with luaL_requiref).
int luaopen_steer(lua_State *L);

/// The engine world behind the steer.World at `index`, or NULL when the value
/// is not a world or the world is closed. Borrowed: the Lua value owns it.
/// Step it with steer_world_step only while no agent uses a Lua behaviour
/// (those need `world:step`, which calls into Lua safely).
steer_world *steer_lua_toworld(lua_State *L, int index);

/// Push a steer.World proxy for a world the host owns (`steer.world{}` is the
/// Lua way to create one). Collecting the proxy never destroys it; call
/// steer_lua_close_world before destroying it so the proxies stop using it.
/// Scripts cannot close such a world (`world:close()` raises "attempt to
/// close a world owned by its host"), nor change its settings (integrator,
/// cell_size, resolve_contacts) unless steer_lua_allow_world_settings says so.
void steer_lua_pushworld(lua_State *L, steer_world *world);
/// Snapshots (docs/lua-api.md, Snapshots). Push a table name -> function of
/// the named Lua behaviours (steer.behaviour{ name =, fn = }) reachable from
/// the behaviours among the values of the table at index (a script's roles;
/// role functions are not called).
void steer_lua_pushbindings(lua_State *L, int index);
/// A new world from a snapshot (world:snapshot()), its Lua behaviours
/// re-bound through the table name -> function at bindings_index (0: none);
/// NULL with error set (a name the bindings lack is named). def: the
/// restoring side's choices (may be NULL); its resolver is the module's.
/// Then push a proxy of it (steer_lua_pushworld, or own it) and call
/// steer_lua_restore_state.
steer_world *steer_lua_restore_world(lua_State *L, const void *bytes, size_t size, int bindings_index,
                                     const steer_restore_def *def, steer_snapshot_error *error);
/// The script's state of the snapshot (roles, tags, data, world.data, the
/// formations' values, the behaviours' Lua values) into the proxy of the
/// world restored from it at world_index. Raises on damaged bytes.
void steer_lua_restore_state(lua_State *L, int world_index, const void *bytes, size_t size, int bindings_index);
/// Let scripts change the settings of the host's world at index (or not).
void steer_lua_allow_world_settings(lua_State *L, int index, bool allow);
/// Freeze the world of the steer.World at index while reason is not NULL:
/// scripts may read it, but every change (spawn, remove, set_position,
/// properties, steering, formations, step, ...) raises "attempt to modify a
/// world while <reason>" (reason: a static string, kept). NULL thaws it.
/// Hosts freeze their world while they prepare a reload.
void steer_lua_freeze_world(lua_State *L, int index, const char *reason);
/// Detach a proxy from its world (the proxy's agents then raise as closed).
/// Owned worlds (from `steer.world{}`) are destroyed.
void steer_lua_close_world(lua_State *L, int index);

/* ---- for programs that drive scripts (a game loop, a script runner) ------------ */

/// world:step(dt) from C for the steer.World at world_index: Lua behaviours
/// run under the same protocol (protected, errors raised after the step as
/// world:step raises them). dt in seconds, 0 <= dt <= 10000. Raises on a
/// closed world or a world already stepping.
void steer_lua_step(lua_State *L, int world_index, float dt);

/// True when the value at index is a steer behaviour (steer.seek{}, ...).
bool steer_lua_isbehaviour(lua_State *L, int index);

/// Push the one steer.Agent proxy of the agent id of the world whose
/// steer.World is at world_index (the cached proxy, or a new one).
void steer_lua_pushagent(lua_State *L, int world_index, steer_agent_id id);

/// Push the role of the agent id (`world:spawn{role = ...}`, `agent.role`)
/// of the world at world_index: a string, or nil when it has none. Returns
/// the pushed value's type (LUA_TSTRING or LUA_TNIL).
int steer_lua_pushrole(lua_State *L, int world_index, steer_agent_id id);

/// Set the steering of the steer.Agent at agent_index to the behaviour at
/// behaviour_index (or nil), keeping the agent's memory node by node where
/// the trees match (hot reload). Raises when the values are not an agent and
/// a behaviour or nil, while the world steps, or when memory runs out,
/// always before changing anything; replacing the steering of an agent that
/// has one never allocates. Does nothing for a removed agent.
void steer_lua_set_steering(lua_State *L, int agent_index, int behaviour_index);

/// The spawn hook: a function (agent, role) -> behaviour or nil [, colour]
/// that `world:spawn{role = name}` calls when the spawn gives a role and no
/// steering; a behaviour it returns becomes the agent's steering (anything
/// else but nil raises "the behaviour of role 'name' is not a behaviour"),
/// a colour '#rrggbb' the agent's colour unless the spawn gave one. While it
/// runs the spawning world is frozen: changing it (removing, spawning,
/// moving, retuning, recolouring agents) or closing it raises "attempt to
/// modify a world while a role function gives a spawned agent its
/// behaviour"; its errors propagate from world:spawn (the agent stays,
/// without steering). One per Lua state, for every world of it. Sets it to
/// the value at index (a function, or nil for none).
void steer_lua_set_spawn_hook(lua_State *L, int index);

/// The work hook: a function (units) the module calls before engine work a
/// script causes outside the Lua VM, so a host can charge it to the
/// script's budget: a formation's assignment (units as
/// steer_formation_pending_work, about members x columns^2 for an optimal
/// one) before the read, change or step that runs it. It may raise; nothing
/// is half done then. One per Lua state. Sets it to the value at index (a
/// function, or nil for none).
void steer_lua_set_work_hook(lua_State *L, int index);

/* ---- for tools that check values themselves ------------------------------------ */

/// Write a number as the shortest text that reads back as the same float
/// (-3, 0.1, 1e+10): how the module and its tools show a float. Returns out.
const char *steer_lua_format_float(double value, char *out, size_t size);

/// Read a colour as the module reads `agent.color`: "#rrggbb" (hex digits,
/// either case) gives 0xRRGGBBff in out and true; anything else false.
bool steer_lua_parse_color(const char *text, uint32_t *out);

/// The message Lua gives for a bad option value, for hosts that check values
/// themselves (the viewer's tuner): "bad argument #<arg> to '<function>'
/// (field '<field>' <phrase>, got <value>)", the value written by
/// steer_lua_format_float. Returns the length it needs (as snprintf).
size_t steer_lua_bad_argument(char *out, size_t size, int arg, const char *function, const char *field,
                              const char *phrase, double value);

#ifdef __cplusplus
}
#endif

#endif
