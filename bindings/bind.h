// bind.h: the module's private header under its old name, for the script
// host until it uses only steer/steer_lua.h (see runtime.h).
#ifndef STEER_BIND_H
#define STEER_BIND_H

#include "runtime.h"

/// The former name of steer_lua__stored_id (a stored id, not the agent's key).
static inline lua_Integer steer_lua__agent_key(steer_agent_id id) { return steer_lua__stored_id(id); }

#endif
