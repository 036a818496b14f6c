// host_internal.h: what host.c (versions, frames), sandbox.c (environments,
// allocator, budget) and watch.c (change detection) share. Not installed.
#ifndef STEER_HOST_INTERNAL_H
#define STEER_HOST_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "steer/host.h"

#define HOST_PATH_MAX 1024
#define HOST_ERROR_MAX 1024
#define HOST_WATCH_FILES 64
#define HOST_RECENT_ERRORS 16

/// A file of the running version, as the polling watcher last saw it.
typedef struct host_file {
    char path[HOST_PATH_MAX];
    int64_t mtime_ns;
    int64_t size;
    uint64_t inode;
} host_file;

/// Change detection (watch.c).
typedef struct host_watch {
    steer_host_watch backend; ///< NONE, INOTIFY or POLL in use
    int fd;                   ///< inotify descriptor, -1 when none
    host_file files[HOST_WATCH_FILES];
    int file_count;
    bool pending;         ///< a change was seen and not yet applied
    double pending_since; ///< monotonic seconds of the last change seen
    int retries;          ///< "not ready" retries of the pending change
} host_watch;

/// An error already reported, for the once-per-second rule.
typedef struct host_recent {
    uint64_t hash;
    double time;
} host_recent;

/// A recording being written or replayed (record.c).
typedef struct host_tape host_tape;

struct steer_host {
    steer_host_def def;
    host_tape *tape; ///< NULL, the recording being written, or the replay's (not owned)
    lua_State *L;
    steer_world *world;
    int table_ref; ///< registry ref of the host table (fields below, preallocated)
    size_t bytes;  ///< bytes held by the Lua state
    // instruction budget of the callback in progress
    int64_t used;
    const char *scope; ///< "update", "setup", "role 'guard'", "a Lua behaviour", ...
    char scope_buf[96]; ///< the name of a role function's scope
    char path[HOST_PATH_MAX]; ///< the script (empty before the first load)
    char root[HOST_PATH_MAX]; ///< script root, no trailing slash
    char name[HOST_PATH_MAX]; ///< the script as errors name it (its path under the root)
    char error[HOST_ERROR_MAX];
    bool has_error;
    int version;
    double sim_time; ///< simulated seconds (sum of dt), the error clock
    host_recent recent[HOST_RECENT_ERRORS];
    int recent_next;
    host_watch watch;
};

/// Fields of the host table (registry), all present from creation on so that
/// replacing them never allocates.
#define HOST_F_WORLD "world"     ///< the world proxy
#define HOST_F_SCRIPT "script"   ///< the running version's table
#define HOST_F_ENV "env"         ///< its environment
#define HOST_F_STEER "steer"     ///< the steer module
#define HOST_F_INPUT "input"     ///< the input table handed to update
#define HOST_F_FILES "files"     ///< files of the version being loaded (list)

/* sandbox.c */
/// The allocator of the host's Lua state (cap, count, test failures).
void *host_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// Open the libraries (all when trusted; otherwise those the sandbox copies
/// from), the steer module, the string metatable guard. Protected call.
int host_open_libs(lua_State *L);
/// Push a fresh environment for a new version (sandbox or trusted).
void host_push_env(lua_State *L, steer_host *host);
/// Load a text chunk from a file under the root into env at env_idx; pushes
/// the function. Raises `name:line: message` on failure (name: the path
/// under the root). Records the file.
void host_load_file(lua_State *L, const char *path, int env_idx);
/// Start a callback scope with a fresh instruction budget.
void host_budget_begin(steer_host *host, const char *scope);
/// End it (the hook stays installed; counting restarts at the next begin).
void host_budget_end(steer_host *host);
/// The host of a Lua state.
steer_host *host_of(lua_State *L);

/* watch.c */
/// Start watching with the def's backend; returns 0 or -1 (INOTIFY unavailable).
int host_watch_start(steer_host *host);
/// Forget the files and watches of the previous version, watch these.
void host_watch_files(steer_host *host, const char *const *paths, int count);
/// True when a change is ready to apply (seen, debounced). Cheap.
bool host_watch_ready(steer_host *host);
/// The change was applied or reported: clear it. not_ready: retry later.
void host_watch_done(steer_host *host, bool not_ready);
/// Close the inotify descriptor.
void host_watch_stop(steer_host *host);
/// Monotonic seconds.
double host_now(void);

/* host.c */
/// Write a log line (printf format), whole.
void host_log(steer_host *host, steer_host_log_level level, const char *fmt, ...);
/// last_error = msg (its first line).
void host_set_error(steer_host *host, const char *msg);

/* record.c */
/// Read a file for the script: pushes its text and returns true, or returns
/// false when it cannot be opened (raises on a read error, naming `name`).
/// Recording: the text goes to the recording; replay: it comes from there.
bool host_read_file(lua_State *L, const char *path, const char *name);
/// Replace os.clock, os.time, os.date and math.randomseed of the global
/// tables with versions a recording captures (before environments copy them).
void host_wrap_outside(lua_State *L);
/// A load, reload or reset happened (its result rc): record it with the
/// world hash after it. path: the script, for a load.
void host_tape_event(steer_host *host, const char *event, int rc, const char *path);
/// A frame ran with this dt and input: record it.
void host_tape_frame(steer_host *host, float dt, const steer_host_input *input);
/// True while the host records / replays.
bool host_recording(const steer_host *host);
bool host_replaying(const steer_host *host);
/// End a recording (steer_host_destroy).
void host_tape_destroy(steer_host *host);

#endif
