// navigate.h: the navigate behaviour's per-agent plan (navigate.c). A plan
// lives with its agent (the world's `plan` column) or with a formation's
// anchor; it is made in the step's serial prepare stage through the world's
// planner (steer_planner: the engine links no planner) and read, and its
// progress advanced, by the agent's own evaluation on any worker.
#ifndef STEER_NAVIGATE_H
#define STEER_NAVIGATE_H

#include "eval.h"

/// Route points a plan holds; a longer route is followed to its 64th point
/// and planned again from there.
#define STEER_PLAN_POINTS 64

typedef struct nav_plan {
    const steer_behaviour *node; ///< the navigate node it was made for (compare only)
    steer_vec2 goal;             ///< where the route leads
    steer_vec2 order;            ///< the agent's own goal (steer_agent_set_goal), when has_order
    bool has_order;
    uint32_t group;   ///< the move_group order that set `order` (0: none): its units may exchange goals
    int swap;         ///< prepare's scratch: the dense index of the unit to exchange with, or -1
    bool partial; ///< the route was longer than STEER_PLAN_POINTS
    bool stuck;
    uint8_t status; ///< steer_plan_status
    int count, next;
    int replans;
    uint64_t version; ///< the planner's version when it was made
    float radius;     ///< clearance it was made with
    float retry;      ///< seconds until a failed plan is tried again
    float best;       ///< the least remaining length seen
    float stall;      ///< seconds since it last fell by the progress step
    float remaining;
    steer_vec2 points[STEER_PLAN_POINTS];
    float rest[STEER_PLAN_POINTS]; ///< route length from point k to the goal
    char message[128];
} nav_plan;

/// Free a plan (NULL ignored).
void steer__navigate_free(nav_plan *plan);
/// A fresh plan (zeroed), or NULL when memory ran out.
nav_plan *steer__navigate_new(void);
/// The agent's behaviour was replaced: keep the plan for the new tree's
/// navigate node when keep_memory (a hot reload), else start afresh.
void steer__navigate_behaviour_changed(nav_plan *plan, const steer_behaviour *b, bool keep_memory);
/// Bring one plan up to date for `node` (the first navigate node of the
/// tree) at position `pos`; *plan is allocated when NULL (serial stage).
/// default_radius: the clearance when the node sets none; mask: the layers
/// whose shapes the plan goes round (the agent's own mask).
void steer__navigate_update(struct steer_world *w, nav_plan **plan, const steer_behaviour *node, steer_vec2 pos,
                            float default_radius, uint32_t mask, float dt);
/// Prepare stage: every agent whose tree navigates (AGENT_NAVIGATES).
void steer__navigate_prepare(struct steer_world *w, float dt);
/// The navigate node's steering (evaluate.c's node table).
bool steer__navigate_steer(eval_ctx *ctx, const steer_behaviour *b, steer_steering *out);

#endif
