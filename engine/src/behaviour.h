// behaviour.h: the behaviour object (behaviour.c) and the shape of the trees
// it builds.
//
// Behaviours form a directed acyclic graph: a combinator holds its children,
// and a child may be shared by several combinators (or several times by one).
// Each node knows its parents, so that changing a combinator's children
// updates the shape of every tree containing it, in time linear in the
// number of its ancestors, and refuses a change that would break a limit
// (STEER_MAX_TREE_DEPTH, STEER_MAX_TREE_NODES, STEER_MAX_TREE_MEMORY) or
// make a node contain itself.
//
// Memory layout: the tree as evaluated is the graph unfolded (a node shared
// twice is evaluated twice, and has two places). A stateful node's memory is
// at a fixed offset of the agent's memory: a leaf's block starts at its base;
// a combinator's child i starts at base + the memory of children 0..i-1.
// Which branches run never moves another node's memory.
#ifndef STEER_BEHAVIOUR_H
#define STEER_BEHAVIOUR_H

#include "core.h"

/// One parent link: the combinator, and which of its children points here.
typedef struct parent_link {
    struct steer_behaviour *parent;
    int child; ///< index in parent->children
} parent_link;

struct steer_behaviour {
    int refcount;
    bool overrides;          ///< any of the four limit overrides is set
    /// a blend whose children are all separation, cohesion or alignment
    /// nodes without limit overrides: evaluated as one kernel
    /// (steer__group_blend); kept by set_children and by a child's set_param
    bool neighbour_blend;
    steer_behaviour_def def; ///< children points at `children` below
    steer_child *children;
    int *link_of;            ///< children[i] is children[i].behaviour->parents[link_of[i]]
    parent_link *parents;
    int parent_count, parent_capacity;
    // the unfolded tree below this node (this node included)
    int height;   ///< levels (1 for a leaf)
    int nodes;    ///< nodes (saturates past STEER_MAX_TREE_NODES)
    int memory;   ///< floats of per-agent memory
    bool avoids;  ///< a reciprocal_avoidance node is in the tree (the step flags avoiding agents)
    /// The unfolded tree holds a callback (STEER_CALLBACK) node: agents
    /// running it are evaluated on the thread calling the step (step.c).
    bool has_callback;
    char *name;     ///< steer_behaviour_set_name (owned), or NULL
    /// The first navigate node of the unfolded tree in evaluation order
    /// (this node when it is one), or NULL: the node an agent's plan serves.
    const struct steer_behaviour *nav;
    /// navigate nodes in the unfolded tree (a shared one once per use): at
    /// most 1, an agent holds one plan (a tree with more is refused)
    int navs;
    uint32_t mark;  ///< scratch of graph walks (behaviour.c)
    int walk_index; ///< scratch of graph walks
};

/// Floats of per-agent memory a node of this type needs itself.
/// What a value breaking a parameter rule is told ("must be a positive
/// number"), or NULL when v keeps the rule (v finite).
const char *steer__behaviour_rule_phrase(steer_param_rule rule, double v);
int steer__behaviour_type_memory(steer_behaviour_type type);

/// Counts the changes of a combinator's children (steer_behaviour_set_children,
/// and the children a new combinator is made with), the only changes that
/// move a tree's `avoids`, `nav` or `has_callback`: a world whose agents
/// kept their behaviours since it last read those from their trees, at the
/// same count, need not read them again (step.c, flag_avoiders).
uint32_t steer__behaviour_shape_epoch(void);

/// Copy the memory of the tree `from` (at from_mem) into the tree `to` (at
/// to_mem) node by node: a node at the same place with the same type keeps
/// its memory; every other node is left as it is in to_mem (zero it
/// first). The blocks must not overlap.
void steer__behaviour_copy_memory(const steer_behaviour *from, const float *from_mem, const steer_behaviour *to,
                        float *to_mem);

#endif
