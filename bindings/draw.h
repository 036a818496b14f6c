// draw.h: the debug draw and the traces for Lua (world:draw, agent:trace_tree),
// for the steer.World and steer.Agent classes.
#ifndef STEER_LUA_DRAW_H
#define STEER_LUA_DRAW_H

#include "runtime.h"

/// world:draw{ segment = fn, ..., flags = {...} }
int steer_lua__world_draw(lua_State *L);
/// agent:trace_tree() -> the last traced evaluation as a tree, or nil
int steer_lua__agent_trace_tree(lua_State *L);

#endif
