// formation.h: formations (formation.c), world-owned objects addressed by
// generation-checked ids. The step updates them before the evaluation pass
// (members gone, reassignment, anchor motion, slot targets) so that
// evaluation only reads them; rigid formations place their members after
// integration.
#ifndef STEER_FORMATION_H
#define STEER_FORMATION_H

#include "core.h"

struct steer_formations;
struct eval_ctx;

/// Before the evaluation pass: drop members that were removed, reassign
/// where membership changed, move anchors, compute every member's slot
/// target. Allocates nothing (room is reserved when members join).
void steer__formations_update(steer_world *w, float dt);
/// After integration: rigid formations put their members on their slots,
/// parents before the formations their members lead.
void steer__formations_place(steer_world *w);
/// Free every formation of a world.
void steer__formations_destroy(struct steer_formations *f);
/// STEER_FORMATION_SLOT: arrive at and align to the agent's slot target.
bool steer__eval_formation_slot(struct eval_ctx *ctx, const steer_behaviour_def *d, steer_steering *out);

#endif
