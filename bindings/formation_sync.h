// formation_sync.h: a formation's Lua values (pattern, slot roles, costs)
// into the engine's tables, for the steer.Formation class.
#ifndef STEER_FORMATION_SYNC_H
#define STEER_FORMATION_SYNC_H

#include "runtime.h"

/// Uservalues of a steer.Formation: the world's core, the table of its Lua values.
enum { FORM_UV_CORE = 1, FORM_UV_DATA = 2 };

/// Push field k of the formation's data table (fidx: the proxy); its type.
int steer_lua__formation_get(lua_State *L, int fidx, const char *k);
/// data[k] = the value at -1 (popped).
void steer_lua__formation_set(lua_State *L, int fidx, const char *k);
/// pattern: a name, a list of offsets {dx, dy[, orientation]}, or a function.
void steer_lua__formation_check_pattern(lua_State *L, steer_laux_where w, int vidx);
/// costs: nil, a function (member, slot) -> number, or a table
/// costs[member_role][slot_role] of role names to numbers in
/// [-STEER_MAX_PARAM, STEER_MAX_PARAM] or math.huge (forbidden); checked
/// whole, so a table changed after it was set is refused at the next sync.
void steer_lua__formation_check_costs(lua_State *L, steer_laux_where w, int vidx);
/// The host's role of a member (agent.role, as kept by world:spawn), pushed.
void steer_lua__formation_member_role(lua_State *L, int core_idx, steer_agent_id id);
/// Recompute what depends on Lua values and the member count, and hand it
/// to the engine. `w` names the place errors are reported against.
void steer_lua__formation_sync(lua_State *L, int fidx, steer_laux_where w);

/// Call the work hook (steer_lua_set_work_hook), if any, with units of
/// engine work about to run for the script (it may raise: call it before
/// the work, where an error leaves nothing half done).
void steer_lua__charge_work(lua_State *L, double units);
/// The work a step or a preview of world does first (the formations'
/// pending assignments), charged.
void steer_lua__charge_step(lua_State *L, steer_world *world);

#endif
