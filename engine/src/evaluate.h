// evaluate.h: where evaluations start: an agent of the step, a preview of
// one behaviour for an agent, a body that is not an agent (a formation's
// anchor). Every one goes through the same node dispatch (eval.h).
#ifndef STEER_EVALUATE_H
#define STEER_EVALUATE_H

#include "eval.h"

/// Evaluate agent i's behaviour into its output slot (w->out), advancing its
/// memory and random stream, with the scratch of the worker running it.
/// False when a callback behaviour failed.
bool steer__evaluate_agent(struct steer_world *w, const eval_view *view, eval_scratch *scratch, int i, float dt);
/// Evaluate b for agent i on copies of its memory and stream (get_steering).
bool steer__evaluate_preview(struct steer_world *w, const steer_behaviour *b, int i, float dt, steer_steering *out,
                             bool record_trace);

/// A body that is not an agent: its state at the start of the step, its
/// limits, its behaviour memory and random stream (a formation's anchor).
typedef struct eval_body {
    steer_kinematic state;
    steer_limits limits;
    float *memory; ///< STEER_MAX_TREE_MEMORY floats
    uint64_t *rng;
    struct nav_plan *plan; ///< its navigate plan, or NULL
} eval_body;
/// Evaluate b for a body, as for an agent that no neighbour gather excludes,
/// with worker 0's scratch; a missing or non-finite linear output is zero.
steer_steering steer__evaluate_body(struct steer_world *w, const steer_behaviour *b, const eval_body *body, float dt);

#endif
