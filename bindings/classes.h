// classes.h: what each class of the module gives the module table (its
// class registration and its constructors), for the module to list them
// all in one place.
#ifndef STEER_CLASSES_H
#define STEER_CLASSES_H

#include <lua.h>
#include <stdbool.h>

#include "steer/steer.h"

/// Register a class (metatable, methods, properties); leave the stack as it was
/// (steer_lua__open_behaviour also adds a constructor per reflected behaviour
/// type to the module table at -1).
void steer_lua__open_world(lua_State *L);
void steer_lua__open_agent(lua_State *L);
void steer_lua__open_shape(lua_State *L);
void steer_lua__open_path(lua_State *L);
void steer_lua__open_behaviour(lua_State *L);
void steer_lua__open_formation(lua_State *L);

/// Constructors.
int steer_lua__world_new(lua_State *L);
/// world:find, world:agents, world:formations (world_lookup.c)
int steer_lua__world_find(lua_State *L);
int steer_lua__world_agents(lua_State *L);
int steer_lua__world_formations(lua_State *L);
int steer_lua__path_new(lua_State *L);
int steer_lua__formation_new(lua_State *L);
int steer_lua__blend_new(lua_State *L);
int steer_lua__priority_new(lua_State *L);
int steer_lua__lua_behaviour_new(lua_State *L);
/// A behaviour written in Lua, made in C (a snapshot's, re-bound by name):
/// fill def's callback, context and release (false: out of memory); once
/// the behaviour exists, adopt it so its calls find its proxy (whose
/// BEH_UV_FN holds the function). Behaviours of other callbacks are left.
bool steer_lua__callback_def(steer_behaviour_def *def);
void steer_lua__callback_adopt(steer_behaviour *b);
/// Snapshots (world_snapshot.c): steer.world_from_snapshot in the module
/// table at -1, world:snapshot added to steer.World's methods.
void steer_lua__open_snapshot(lua_State *L);
/// Navigation (wrap_nav.c): the steer.FlowField class, steer.follow_flow_field,
/// and world:find_path, world:flow_field added to steer.World's methods
/// (after steer_lua__open_world).
void steer_lua__open_nav(lua_State *L);
int steer_lua__world_find_path(lua_State *L);
int steer_lua__world_flow_field(lua_State *L);
int steer_lua__world_move_group(lua_State *L);
int steer_lua__follow_flow_field_new(lua_State *L);

#endif
