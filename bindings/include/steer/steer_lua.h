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
/// Let scripts change the settings of the host's world at index (or not).
void steer_lua_allow_world_settings(lua_State *L, int index, bool allow);
/// Detach a proxy from its world (the proxy's agents then raise as closed).
/// Owned worlds (from `steer.world{}`) are destroyed.
void steer_lua_close_world(lua_State *L, int index);

/// Write a number as the shortest text that reads back as the same float
/// (-3, 0.1, 1e+10): how the module and its tools show a float. Returns out.
const char *steer_lua_format_float(double value, char *out, size_t size);

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
