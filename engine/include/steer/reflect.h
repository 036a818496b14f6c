/// steer/reflect.h: the definitions described as data, for hosts that read
/// and write them by name (the Lua bindings, a viewer's tuner, a generator
/// of annotations). Behaviour parameters are reflected in steer.h
/// (steer_behaviour_param); this header adds the world, agent and formation
/// definitions and what a behaviour type takes besides numbers.
#ifndef STEER_REFLECT_H
#define STEER_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "types.h"

STEER_EXTERN_C_BEGIN

/// A reflected definition struct.
typedef enum steer_def_type {
    STEER_DEF_WORLD,     ///< steer_world_def
    STEER_DEF_AGENT,     ///< steer_agent_def
    STEER_DEF_FORMATION, ///< steer_formation_def
    STEER_DEF_TYPE_COUNT
} steer_def_type;

/// Kind of a reflected definition field.
typedef enum steer_field_kind {
    STEER_FIELD_FLOAT,  ///< float: the rule, then [min, max] when min < max
    STEER_FIELD_BOOL,   ///< bool
    STEER_FIELD_ENUM,   ///< int-sized enum; `choices` names its values
    STEER_FIELD_INT,    ///< int in [min, max]
    STEER_FIELD_UINT64, ///< uint64_t; min 1: positive, else any integer (taken modulo 2^64)
    STEER_FIELD_BITS,   ///< uint32_t bit set (layers, masks): an integer in [0, 2^32 - 1]
} steer_field_kind;

/// A field of a definition struct.
typedef struct steer_field_info {
    const char *name;           ///< as in the Lua API; a nested table's fields are "table.field"
    steer_field_kind kind;
    steer_param_rule rule;      ///< FLOAT: its range rule
    double min, max;            ///< FLOAT (when min < max), INT, UINT64 (min): the range
    const char *const *choices; ///< ENUM: names, NULL-terminated, in enum order
    const char *unit;           ///< documentation: "m", "s", "rad", ...
    /// A live object takes it (a property of the object, not only an option
    /// of its constructor): steer_world_apply_def, steer_agent_apply_def,
    /// steer_formation_set_def.
    bool live;
    size_t offset;              ///< where it is in the struct (the engine's business: use get/set)
} steer_field_info;

/// Fields of a definition struct, in the order of the struct.
STEER_API int steer_def_field_count(steer_def_type type);
STEER_API const steer_field_info *steer_def_field(steer_def_type type, int i);
/// The field of a definition by name, or NULL.
STEER_API const steer_field_info *steer_def_find_field(steer_def_type type, const char *name);
/// Read a field of a definition (of the field's type) as a number: bools
/// 0/1, enums their index; UINT64 as a double (steer_def_get_integer is exact).
STEER_API double steer_def_get_field(const void *def, const steer_field_info *field);
/// Write a field (FLOAT, BOOL, ENUM, INT); no check (steer_field_check first).
STEER_API void steer_def_set_field(void *def, const steer_field_info *field, double value);
/// INT, UINT64 and BITS fields, exactly.
STEER_API int64_t steer_def_get_integer(const void *def, const steer_field_info *field);
STEER_API void steer_def_set_integer(void *def, const steer_field_info *field, int64_t value);
/// Is value acceptable for the field (finite number of the float range for
/// FLOAT; a whole number for INT and UINT64; one in [0, 2^32 - 1] for
/// BITS)? Returns NULL, or the phrase a
/// message puts after the field's name ("must be in [0.001, 1e9]"), in buf
/// or static.
STEER_API const char *steer_field_check(const steer_field_info *field, double value, char *buf, size_t size);

/// Write a limit as messages show it, into buf: whole numbers below 1e6 as
/// they are ("64", "10000"), large powers of two as "2^28", the rest with two
/// significant digits and a bare exponent ("0.001", "1e9", "3.4e38").
STEER_API const char *steer_format_limit(double value, char *buf, size_t size);

/// A live world's settings as a definition (the default definition with its
/// integrator, cell size, contact flags and worker count).
STEER_API void steer_world_get_def(const steer_world *world, steer_world_def *def);
/// Give a live world the `live` fields of def that differ from its own.
STEER_API void steer_world_apply_def(steer_world *world, const steer_world_def *def);
/// A live agent as a definition (state, limits, flags, layers, extent,
/// priority, key, behaviour, user data).
STEER_API void steer_agent_get_def(const steer_world *world, steer_agent_id agent, steer_agent_def *def);
/// Give a live agent the `live` fields of def that differ from its own
/// (limits, kinematic, face_velocity, layer, mask, z, height, priority).
STEER_API void steer_agent_apply_def(steer_world *world, steer_agent_id agent, const steer_agent_def *def);

/// A behaviour parameter of a definition being built (steer_behaviour_param):
/// bools 0/1, enums their index, an inherited limit -1.
STEER_API double steer_param_get(const steer_behaviour_def *def, const steer_param_info *param);
/// Write one, unchecked (steer_param_check first): a LIMIT below 0 inherits
/// the agent's (-1), an OPTIONAL value below -1 unsets it.
STEER_API void steer_param_set(steer_behaviour_def *def, const steer_param_info *param, double value);
/// False for an inherited LIMIT and an unset OPTIONAL value; true otherwise.
STEER_API bool steer_param_is_set(const steer_behaviour_def *def, const steer_param_info *param);

/// What a behaviour type takes besides its numeric parameters.
typedef enum steer_behaviour_input {
    STEER_INPUT_TARGET = 1 << 0,    ///< a target (an agent or a point)
    STEER_INPUT_PATH = 1 << 1,      ///< a path (follow_path)
    STEER_INPUT_CHILDREN = 1 << 2,  ///< a list of children (blend, priority)
    STEER_INPUT_PREFERRED = 1 << 3, ///< one child behaviour (reciprocal_avoidance)
    STEER_INPUT_CALLBACK = 1 << 4,  ///< a host function (steer.behaviour)
    STEER_INPUT_FORMATION = 1 << 5, ///< a formation (made by the formation, not by hand)
} steer_behaviour_input;

/// The steer_behaviour_input flags of a type.
STEER_API unsigned steer_behaviour_type_inputs(steer_behaviour_type type);

STEER_EXTERN_C_END

#endif
