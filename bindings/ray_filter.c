// ray_filter.c: the filter table of world:raycast and world:query (layers,
// a vertical band, an agent to skip), read into a steer_ray_filter.
#include "classes.h"
#include "runtime.h"

#include <math.h>

// A ray filter's options (a query's: all but agents).
static const char *const filter_extras[] = {"mask", "ignore", "z", "height", "agents", NULL};
enum { FILTER_MASK, FILTER_IGNORE, FILTER_Z, FILTER_HEIGHT, FILTER_AGENTS };
static const char *const query_filter_extras[] = {"mask", "ignore", "z", "height", NULL};
static void build_filter_options(lua_State *L) { steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, filter_extras); }
static void build_query_filter_options(lua_State *L)
{
    steer_lua__push_def_names(L, STEER_DEF_TYPE_COUNT, false, NULL, query_filter_extras);
}
static const char filter_options_key = 0, query_filter_options_key = 0;

typedef struct filter_reading {
    steer_ray_filter *filter;
    bool band;       ///< z or height given
    float z, height; ///< the band [z, z + height]
} filter_reading;

static bool filter_extra(lua_State *L, void *context, int code, steer_laux_where w, int vidx)
{
    filter_reading *f = context;
    if (code == FILTER_MASK) {
        f->filter->mask = steer_laux_bits(L, w, vidx);
    } else if (code == FILTER_AGENTS) {
        f->filter->include_agents = steer_laux_boolean(L, w, vidx);
    } else if (code == FILTER_Z || code == FILTER_HEIGHT) {
        f->band = true;
        if (code == FILTER_Z) f->z = (float)steer_laux_number(L, w, vidx, LAUX_FINITE);
        else f->height = (float)steer_laux_number(L, w, vidx, LAUX_NONNEGATIVE);
    } else {
        lagent *a = steer_lua__test_agent(L, vidx);
        if (a == NULL) steer_laux_error(L, w, "must be an agent", vidx);
        f->filter->ignore = a->id;
    }
    return true;
}

// The filter table at arg (nil or absent: none), the last argument: a
// ray's {mask =, agents =, ignore =, z =, height =}, a query's the same
// without agents. z and height give the band [z, z + height] (either
// alone: the other 0).
void steer_lua__read_ray_filter(lua_State *L, int arg, bool ray, steer_ray_filter *filter)
{
    if (lua_gettop(L) > arg) luaL_argerror(L, arg + 1, "no argument expected after the filter table");
    if (lua_isnoneornil(L, arg)) return;
    luaL_checktype(L, arg, LUA_TTABLE);
    int top = lua_gettop(L);
    if (ray) steer_lua__push_memo(L, &filter_options_key, build_filter_options);
    else steer_lua__push_memo(L, &query_filter_options_key, build_query_filter_options);
    filter_reading f = {filter, false, 0.0f, 0.0f};
    steer_lua_reader r = {.arg = arg, .extra = filter_extra, .context = &f};
    steer_lua__read_options(L, arg, lua_gettop(L), &r);
    if (f.band) {
        filter->z_min = f.z;
        filter->z_max = f.z + f.height;
        if (!isfinite(filter->z_max)) steer_laux_error_plain(L, steer_laux_field(arg, "height"), "must keep z + height finite");
    }
    lua_settop(L, top);
}
