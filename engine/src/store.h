// store.h: the agent store: generation-checked slots over dense per-agent
// columns (the fields of struct steer_world in world.h). The columns are
// described once, in a table (store.c), which growing, freeing, permuting
// and swap-removal all walk.
#ifndef STEER_STORE_H
#define STEER_STORE_H

#include "world.h"

/// A per-agent column as snapshots see it (store.c's table).
typedef struct store_column_info {
    const char *name; ///< its field in struct steer_world ("state", "limits", ...)
    size_t size;      ///< bytes of one element
    /// 1, 2, 4 or 8: an element is made of words of this size (written
    /// little-endian by snapshots); 0: a pointer
    int word;
    bool moves; ///< agent state (false: scratch of a stage, not saved)
} store_column_info;

/// The columns, in the table's order.
int steer__store_column_count(void);
const store_column_info *steer__store_column_info(int c);
/// Column c's array (count elements of info.size bytes).
char *steer__store_column_data(const steer_world *w, int c);

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
/// The step's settling states (rest_next) cleared and the agents' marks
/// (rest_held) set again from their states in `rest` (world.h): after the
/// columns moved (the reorder) or were restored (a snapshot), the step's
/// buffer is not theirs. Reads `settling` (0: every state is 0).
void steer__store_remark_rest(steer_world *w);

#endif
