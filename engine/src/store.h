// store.h: the agent store: generation-checked slots over dense per-agent
// columns (the fields of struct steer_world in world.h). The columns are
// described once, in a table (store.c), which growing, freeing, permuting
// and swap-removal all walk.
#ifndef STEER_STORE_H
#define STEER_STORE_H

#include "world.h"

/// Dense index of a live id, or -1.
int steer__store_dense(const steer_world *w, steer_agent_id id);
/// The id of a dense index.
steer_agent_id steer__store_id_of(const steer_world *w, int dense);
/// Room for `capacity` agents in every column (outside the step only).
bool steer__store_reserve(steer_world *w, int capacity);
/// Free every column and the slots.
void steer__store_free(steer_world *w);
/// A new agent at the end of the columns (its fields unset) and its slot;
/// the columns must have room for it. False when memory ran out.
bool steer__store_add(steer_world *w, uint32_t *slot, int *dense);
/// Remove the agent at dense index i (of id `id`): the last agent moves
/// into the hole; the slot's generation is bumped.
void steer__store_remove(steer_world *w, steer_agent_id id, int i);
/// Move every agent to dense index k where order[k] held it; order then
/// becomes the identity. Handles are unchanged. On the world's workers.
void steer__store_reorder(steer_world *w, uint32_t *order);

#endif
