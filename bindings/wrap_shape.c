// wrap_shape.c: steer.Shape, a static shape of a world (walls, circles,
// boxes, polygons). A proxy borrows the shape's id; the world owns the shape.
#include "classes.h"
#include "runtime.h"
#include "nav_sync.h"

#include <math.h>

static const char *const shape_type_names[] = {"segment", "polyline", "circle", "box", "polygon", NULL};

static lshape *check_shape(lua_State *L, int arg)
{
    lshape *s = luaL_checkudata(L, arg, STEER_LUA_SHAPE);
    if (s->core->world == NULL) luaL_error(L, "attempt to use a shape of a closed world");
    if (!steer_shape_is_valid(s->core->world, s->id)) luaL_error(L, "attempt to use a removed shape");
    return s;
}

// shape:remove(): the shape leaves its world
static int shape_remove(lua_State *L)
{
    lshape *s = check_shape(L, 1);
    steer_lua__check_mutable(L, s->core);
    steer_lua__nav_shape_removed(s->core, s->id);
    steer_shape_destroy(s->core->world, s->id);
    return 0;
}

// shape:alive() -> false once removed or its world closed
static int shape_alive(lua_State *L)
{
    lshape *s = luaL_checkudata(L, 1, STEER_LUA_SHAPE);
    lua_pushboolean(L, s->core->world != NULL && steer_shape_is_valid(s->core->world, s->id));
    return 1;
}

// shape:set_category(bits): the same as shape.layer = bits
static int shape_set_category(lua_State *L)
{
    lshape *s = check_shape(L, 1);
    uint32_t bits = steer_laux_bits(L, steer_laux_arg(2), 2);
    steer_lua__check_mutable(L, s->core);
    steer_shape_set_category(s->core->world, s->id, (uint32_t)bits);
    steer_lua__nav_shape_layer(s->core, s->id, bits);
    return 0;
}

/// Properties of steer.Shape (shape_index answers exactly these).
static const char *const shape_props[] = {"type", "layer", "z", "height", NULL};
enum { SHAPE_TYPE, SHAPE_LAYER, SHAPE_Z, SHAPE_HEIGHT };

// shape.type: "segment", "polyline", "circle", "box" or "polygon";
// shape.layer (bits), shape.z, shape.height (m): its layers and vertical extent
static int shape_index(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_SHAPE);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    int code = steer_lua__lookup(L, lua_upvalueindex(2), 2);
    if (code < 0) return luaL_error(L, "steer.Shape has no property '%s'", luaL_tolstring(L, 2, NULL));
    lshape *s = check_shape(L, 1);
    steer_world *w = s->core->world;
    float z, height;
    steer_shape_get_extent(w, s->id, &z, &height);
    switch (code) {
    case SHAPE_TYPE: lua_pushstring(L, shape_type_names[steer_shape_get_type(w, s->id)]); break;
    case SHAPE_LAYER: lua_pushinteger(L, (lua_Integer)steer_shape_get_category(w, s->id)); break;
    case SHAPE_Z: steer_laux_push_float(L, z); break;
    default: steer_laux_push_float(L, height); break;
    }
    return 1;
}

// shape.layer = bits, shape.z = m, shape.height = m (type is read-only)
static int shape_newindex(lua_State *L)
{
    luaL_checkudata(L, 1, STEER_LUA_SHAPE);
    int code = steer_lua__lookup(L, lua_upvalueindex(1), 2);
    if (code <= SHAPE_TYPE) return luaL_error(L, "steer.Shape has no writable property '%s'", luaL_tolstring(L, 2, NULL));
    lshape *s = check_shape(L, 1);
    steer_world *w = s->core->world;
    steer_laux_where where = steer_laux_property(STEER_LUA_SHAPE, lua_tostring(L, 2));
    if (code == SHAPE_LAYER) {
        uint32_t bits = steer_laux_bits(L, where, 3);
        steer_lua__check_mutable(L, s->core);
        steer_shape_set_category(w, s->id, bits);
        steer_lua__nav_shape_layer(s->core, s->id, bits);
        return 0;
    }
    float z, height;
    steer_shape_get_extent(w, s->id, &z, &height);
    if (code == SHAPE_Z) z = (float)steer_laux_number(L, where, 3, LAUX_FINITE);
    else height = (float)steer_laux_number(L, where, 3, LAUX_NONNEGATIVE);
    if (!isfinite(z + height)) steer_laux_error(L, where, "must keep z + height finite", 3);
    steer_lua__check_mutable(L, s->core);
    steer_shape_set_extent(w, s->id, z, height);
    return 0;
}

static int shape_eq(lua_State *L)
{
    lshape *a = luaL_testudata(L, 1, STEER_LUA_SHAPE), *b = luaL_testudata(L, 2, STEER_LUA_SHAPE);
    lua_pushboolean(L, a != NULL && b != NULL && a->core == b->core && steer_shape_id_equal(a->id, b->id));
    return 1;
}

static int shape_tostring(lua_State *L)
{
    lshape *s = luaL_checkudata(L, 1, STEER_LUA_SHAPE);
    if (s->core->world == NULL || !steer_shape_is_valid(s->core->world, s->id))
        lua_pushliteral(L, "steer.Shape{removed}");
    else
        lua_pushfstring(L, "steer.Shape{%s}", shape_type_names[steer_shape_get_type(s->core->world, s->id)]);
    return 1;
}

static const luaL_Reg shape_methods[] = {
    {"alive", shape_alive},
    {"remove", shape_remove},
    {"set_category", shape_set_category},
    {NULL, NULL},
};

static const luaL_Reg shape_meta[] = {
    {"__eq", shape_eq},
    {"__tostring", shape_tostring},
    {NULL, NULL},
};

void steer_lua__open_shape(lua_State *L)
{
    steer_laux_new_class(L, STEER_LUA_SHAPE, shape_meta);
    luaL_newlib(L, shape_methods);
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, shape_props);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, shape_newindex, 1);
    lua_setfield(L, -4, "__newindex");
    lua_pushcclosure(L, shape_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}
