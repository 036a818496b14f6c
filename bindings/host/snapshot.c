// snapshot.c: steer_host_snapshot, the script host's world saved to a file
// through the module's world:snapshot() (issue 26), so the script's state
// (roles, tags, data; Lua behaviours by name) is in it too.
#include <stdio.h>
#include <stdlib.h>

#include "host_internal.h"
#include "steer/steer_lua.h"

#include <lauxlib.h>

// Protected: arguments host (light userdata), path. Saves or raises.
static int p_snapshot(lua_State *L)
{
    steer_host *h = lua_touserdata(L, 1);
    const char *path = lua_tostring(L, 2);
    steer_host__push_field(L, h, HOST_F_WORLD);
    if (!lua_isuserdata(L, -1)) return luaL_error(L, "no world to save (the script is not loaded)");
    lua_getfield(L, -1, "snapshot");
    lua_insert(L, -2);
    lua_call(L, 1, 1);
    size_t size;
    const char *bytes = lua_tolstring(L, -1, &size);
    FILE *f = fopen(path, "wb");
    if (f == NULL) return luaL_error(L, "cannot create %s", path);
    bool ok = fwrite(bytes, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    if (!ok) return luaL_error(L, "cannot write %s", path);
    return 0;
}

int steer_host_snapshot(steer_host *host, const char *path)
{
    lua_State *L = host->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, p_snapshot);
    lua_pushlightuserdata(L, host);
    lua_pushstring(L, path);
    int rc = lua_pcall(L, 2, 0, 0);
    if (rc != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        steer_host__set_error(host, msg != NULL ? msg : "snapshot failed");
    }
    lua_settop(L, top);
    return rc == LUA_OK ? 0 : -1;
}

// Inside steer_host_load_snapshot's load (protected; raises): the world
// restored from host->restore_bytes, the new version's roles re-binding its
// Lua behaviours by name, into *out (set before anything after the restore
// can raise: the load destroys it on failure); its proxy pushed.
static void restore_world(lua_State *L, steer_host *h, steer_world **out)
{
    steer_host__push_field(L, h, "new_script");
    steer_host__raw_field(L, -1, "roles");
    steer_lua_pushbindings(L, -1);
    int bindings = lua_gettop(L);
    steer_restore_def d = steer_default_restore_def();
    d.worker_count = h->def.world.worker_count > 0 ? h->def.world.worker_count : 1;
    steer_snapshot_error e;
    *out = steer_lua_restore_world(L, h->restore_bytes, h->restore_size, bindings, &d, &e);
    if (*out == NULL) luaL_error(L, "%s", e.message);
    steer_lua_pushworld(L, *out); // the caller destroys *out if anything below raises
    steer_lua_restore_state(L, -1, h->restore_bytes, h->restore_size, bindings);
    lua_replace(L, bindings - 2);
    lua_settop(L, bindings - 2);
}

int steer_host_load_snapshot(steer_host *host, const char *path, const char *snapshot)
{
    if (host->tape != NULL) {
        steer_host__set_error(host, "a run from a snapshot cannot be recorded");
        return -1;
    }
    FILE *f = snapshot != NULL ? fopen(snapshot, "rb") : NULL;
    if (f == NULL) {
        char msg[HOST_PATH_MAX + 64];
        snprintf(msg, sizeof msg, "cannot open the snapshot %s", snapshot != NULL ? snapshot : "(null)");
        steer_host__set_error(host, msg);
        return -1;
    }
    char *bytes = NULL;
    size_t size = 0, cap = 0;
    bool ok = true;
    for (;;) {
        if (cap - size < 65536) {
            char *p = realloc(bytes, cap + 65536 + cap / 2);
            if (p == NULL) {
                ok = false;
                break;
            }
            bytes = p;
            cap += 65536 + cap / 2;
        }
        size_t n = fread(bytes + size, 1, cap - size, f);
        size += n;
        if (n == 0) break;
    }
    ok = ok && !ferror(f);
    fclose(f);
    if (!ok) {
        free(bytes);
        steer_host__set_error(host, "cannot read the snapshot");
        return -1;
    }
    host->restore_bytes = bytes;
    host->restore_size = size;
    host->restore_world = restore_world;
    int rc = steer_host__load_restoring(host, path);
    host->restore_bytes = NULL;
    host->restore_size = 0;
    free(bytes);
    return rc;
}
