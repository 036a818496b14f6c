// A world the host pushes to Lua (steer_lua_pushworld) stays the host's:
// scripts cannot close it, nor change its settings unless the host allows.
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "../c/test.h"
#include "lua_state.h"

// Run chunk with the host's world as the global `world`; return the error
// message (static buffer) or NULL when it ran.
static const char *run(lua_State *L, const char *chunk)
{
    static char message[256];
    if (luaL_dostring(L, chunk) == LUA_OK) return NULL;
    strncpy(message, lua_tostring(L, -1), sizeof message - 1);
    message[sizeof message - 1] = '\0';
    lua_pop(L, 1);
    return message;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void host_world_refuses_close_and_settings(void)
{
    steer_world_def d = steer_default_world_def();
    steer_world *w = steer_world_create(&d);
    lua_State *L = new_state(w);

    const char *e = run(L, "world:close()");
    CHECK(e != NULL && ends_with(e, "attempt to close a world owned by its host"));
    e = run(L, "world.cell_size = 2");
    CHECK(e != NULL && ends_with(e, "attempt to change 'cell_size' of a world owned by its host"));
    e = run(L, "world.integrator = 'newton'");
    CHECK(e != NULL && ends_with(e, "attempt to change 'integrator' of a world owned by its host"));
    CHECK(steer_world_get_cell_size(w) == 4.0f);
    // the world still works for the script
    CHECK(run(L, "world:spawn{ x = 1 }; world:step(0.1); assert(world:count() == 1)") == NULL);

    lua_getglobal(L, "world");
    steer_lua_allow_world_settings(L, -1, true);
    lua_pop(L, 1);
    CHECK(run(L, "world.cell_size = 2") == NULL);
    CHECK(steer_world_get_cell_size(w) == 2.0f);
    // still not closable: the host owns it
    CHECK(run(L, "world:close()") != NULL);

    lua_getglobal(L, "world");
    steer_lua_close_world(L, -1);
    lua_pop(L, 1);
    e = run(L, "world:spawn{}");
    CHECK(e != NULL && ends_with(e, "attempt to use a closed world"));
    lua_close(L);
    CHECK(steer_world_agent_count(w) == 1);
    steer_world_destroy(w);
}

int main(void)
{
    RUN(host_world_refuses_close_and_settings);
    return TEST_RESULT();
}
