// host_internal.h: what the files of the script host share: the host
// object, the host table in the Lua registry, and the services each floor
// offers the floors above it (logging and the error slot; the tape and the
// outside world; change detection; the sandbox). The host reaches the
// module only through steer/steer_lua.h. Not installed.
#ifndef STEER_HOST_INTERNAL_H
#define STEER_HOST_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#include "steer/host.h"
#include "tape.h"

#define HOST_WATCH_FILES 64
#define HOST_RECENT_ERRORS 16

/// A file of the running version, as the polling watcher last saw it.
typedef struct host_file {
    char path[HOST_PATH_MAX];
    int64_t mtime_ns;
    int64_t size;
    uint64_t inode;
} host_file;

/// Change detection.
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

/// The signal the budget's watchdog sends to the host's thread.
#define WATCHDOG_SIGNAL SIGURG

/// The budget's watchdog (budget.c): seq and request are shared with its
/// thread; the rest belongs to the host's thread and its signal handler.
typedef struct host_watchdog {
    _Atomic uint64_t seq;     ///< odd while a callback runs (the host's thread writes it)
    _Atomic uint64_t request; ///< the seq the watchdog asked to arm (its thread writes it)
    uint64_t answered;        ///< the last request the handler saw
    volatile sig_atomic_t armed;  ///< the count hook is on in this callback
    lua_State *volatile current;  ///< the Lua thread running now (main state or a coroutine)
    bool running;             ///< the thread is started (for target)
    bool stop;                ///< under lock: the thread ends
    pthread_t thread, target; ///< the watchdog; the host's thread it signals
    pthread_mutex_t lock;
    pthread_cond_t wake;
} host_watchdog;

/// A recording being written (the tape's).
typedef struct steer_host__tape steer_host__tape;

struct steer_host {
    steer_host_def def;
    steer_host__tape *tape;         ///< the recording being written, or NULL
    steer_host__playback *playback; ///< a replay's recorded values (not owned), or NULL
    lua_State *L;
    steer_world *world;
    int table_ref; ///< registry ref of the host table (fields below, preallocated)
    size_t bytes;  ///< bytes held by the Lua state
    /// Lua's bytes and the engine's (what the host's calls into Lua make it
    /// allocate), under memory_cap together
    steer_memory_account account;
    // instruction budget of the callback in progress
    int64_t used;
    volatile sig_atomic_t interrupted; ///< steer_host_interrupt was called (until the call in progress ends)
    host_watchdog watchdog; ///< the default mode's (STEER_HOST_BUDGET_WATCHDOG)
    const char *scope; ///< "update", "setup", "role 'guard'", "a Lua behaviour", ...
    char scope_buf[96]; ///< the name of a role function's scope
    char path[HOST_PATH_MAX]; ///< the script (empty before the first load)
    char root[HOST_PATH_MAX]; ///< script root, no trailing slash
    char name[HOST_PATH_MAX]; ///< the script as errors name it (its path under the root)
    char error[HOST_ERROR_MAX];
    bool has_error;
    int version;
    /// the first load failed: path, root and name keep the script, which
    /// the watcher, a reload or a reset tries to load again
    bool load_pending;
    bool setup_failed; ///< the last setup raised (a reload does not run it)
    double sim_time; ///< simulated seconds (sum of dt), the error clock
    host_recent recent[HOST_RECENT_ERRORS];
    int recent_next;
    host_watch watch;
    /// steer_host_load_snapshot: the snapshot the load restores its world
    /// from (setup not run); NULL otherwise
    const void *restore_bytes;
    size_t restore_size;
    /// ... and how the load makes that world (snapshot.c's, so host.c does
    /// not call into the file that calls it)
    void (*restore_world)(lua_State *L, steer_host *h, steer_world **out);
};

/// Fields of the host table (registry), all present from creation on so that
/// replacing them never allocates.
#define HOST_F_WORLD "world"     ///< the world proxy
#define HOST_F_SCRIPT "script"   ///< the running version's table
#define HOST_F_ENV "env"         ///< its environment
#define HOST_F_STEER "steer"     ///< the steer module
#define HOST_F_INPUT "input"     ///< the input table handed to update
#define HOST_F_FILES "files"     ///< files of the version being loaded (list)

/// Push host[field].
static inline void steer_host__push_field(lua_State *L, steer_host *h, const char *field)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->table_ref);
    lua_getfield(L, -1, field);
    lua_remove(L, -2);
}

/// host[field] = the value at -1 (popped). Fields exist from creation on.
static inline void steer_host__set_field(lua_State *L, steer_host *h, const char *field)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->table_ref);
    lua_insert(L, -2);
    lua_setfield(L, -2, field);
    lua_pop(L, 1);
}

/// Load the script at path with its world restored from host->restore_bytes
/// (set by the caller) instead of a fresh one and setup (host.c).
int steer_host__load_restoring(steer_host *host, const char *path);


/* ---- the host of a state, logging and the error slot ------------------------------------ */
/// The host of a Lua state (its allocator's user data).
steer_host *steer_host__of(lua_State *L);
/// Push t[name] without metamethods (a script's tables may have any): no
/// script code runs outside a callback's budget.
static inline int steer_host__raw_field(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, name);
    return lua_rawget(L, idx);
}

/// t[name] = the value at -1 (popped), without metamethods.
static inline void steer_host__raw_set_field(lua_State *L, int idx, const char *name)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, name);
    lua_insert(L, -2);
    lua_rawset(L, idx);
}

/// camera{ x =, y =, zoom =, span =, fit = }: the scripts' camera request (io.c).
int steer_host__camera(lua_State *L);
/// Push a new input table: x, y, buttons, keys, pressed and released (io.c).
void steer_host__new_input(lua_State *L);
/// Fill the input table at index with in (reused every frame; io.c).
void steer_host__fill_input(lua_State *L, int input, const steer_host_input *in);
/// Write a log line (printf format), whole.
void steer_host__log(steer_host *host, steer_host_log_level level, const char *fmt, ...);
/// last_error = msg (its first line).
void steer_host__set_error(steer_host *host, const char *msg);

/* ---- change detection and the reload's files ------------------------------------------ */
/// Start watching with the def's backend; returns 0 or -1 (INOTIFY unavailable).
int steer_host__watch_start(steer_host *host);
/// Close the inotify descriptor.
void steer_host__watch_stop(steer_host *host);
/// A version starts loading: its list of files is empty.
void steer_host__watch_begin_version(lua_State *L, steer_host *host);
/// A file of the version being loaded (remembered before it loads: a file
/// that fails to load is still part of the version).
void steer_host__watch_remember(lua_State *L, const char *path);
/// Watch the files the version just committed loaded, forgetting those of
/// the previous version. A lua_CFunction for a protected call (its argument
/// is ignored; the host is the state's).
int steer_host__watch_version(lua_State *L);
/// True when a change is ready to apply (seen, debounced). Cheap.
bool steer_host__watch_ready(steer_host *host);
/// Before applying a ready change: false when the script is not ready yet
/// (empty or missing: an editor between truncating and writing), the change
/// then tried again later or dropped.
bool steer_host__watch_script_ready(steer_host *host);
/// The change was applied (failed: with host->error set). Returns true when
/// a failure is to be reported now, false when it will be tried again (a
/// chunk cut short, still being written).
bool steer_host__watch_applied(steer_host *host, bool failed);

/* ---- the sandbox ------------------------------------------------------------------------ */
/// The allocator of the host's Lua state (cap, count, test failures).
void *steer_host__alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// The account's reclaim (steer_memory_account): a full collection of the
/// script's Lua state before an engine allocation is refused for the cap.
void steer_host__reclaim(steer_memory_account *account, size_t needed, void *context);
/// Open the libraries (all when trusted; otherwise those the sandbox copies
/// from), the steer module, the string metatable guard. Protected call.
int steer_host__open_libs(lua_State *L);
/// Push a fresh environment for a new version (sandbox or trusted).
void steer_host__push_env(lua_State *L, steer_host *host);
/// Load a text chunk from a file under the root into env at env_idx; pushes
/// the function. Raises `name:line: message` on failure (name: the path
/// under the root). Records the file.
void steer_host__load_file(lua_State *L, const char *path, int env_idx);
/// Over budget: from now on every instruction of this thread raises, so a
/// pcall loop (or a coroutine) cannot swallow the error and carry on.
/// Raises "where: instruction budget exceeded in <scope> (<budget>
/// instructions<extra>)", where: the Lua function at level (0: the one
/// running, in a hook; 1: the caller of a C function).
int steer_host__budget_exceeded(lua_State *L, steer_host *host, int level, const char *extra);
/// Put the sandbox's string.find, match, gmatch and gsub (match.c: their
/// steps count against the budget) in the string library (sandboxed hosts).
void steer_host__open_matcher(lua_State *L, steer_host *host);
/// Around a protected call into Lua: the engine's allocations charged to the
/// host's account; after it, the interrupt over and, on failure (the message
/// at -1), last_error set, naming memory_cap when the engine hit it.
steer_memory_account *steer_host__call_begin(steer_host *host);
void steer_host__call_end(steer_host *host, int status, steer_memory_account *was);
/// Raise "interrupted" when steer_host_interrupt was called.
void steer_host__check_interrupt(lua_State *L, steer_host *host);
/// After a call into Lua: an interrupt is over, the budget's hook back.
void steer_host__interrupt_end(steer_host *host);
/// Arm the budget's count hook on the Lua thread L (async-signal-safe).
void steer_host__budget_arm(lua_State *L);
/// ... with a count of 1: the budget is spent, L raises at its next instruction.
void steer_host__budget_arm_now(lua_State *L);
/// A callback of its own for the finalisers lua_close runs (a trusted
/// script's; hooks on from the first instruction, in either mode).
void steer_host__budget_closing(steer_host *host);
/// Whether the hook of the Lua thread L is the budget's.
bool steer_host__budget_hooked(lua_State *L);
/// Start a callback scope with a fresh instruction budget.
void steer_host__budget_begin(steer_host *host, const char *scope);
/// End it (the hook stays installed; counting restarts at the next begin).
void steer_host__budget_end(steer_host *host);


/* ---- the budget's watchdog (budget.c) ------------------------------------------------ */
/// Put the host's coroutine.resume and coroutine.wrap in the coroutine
/// library (they keep track of the Lua thread running). Before any
/// environment copies it.
void steer_host__watchdog_open(lua_State *L);
/// A callback starts (watchdog mode): its count hook off, the watchdog
/// watching it (started on the first call, and again when the host's
/// thread changed); a slice of 0 arms the hook at once.
void steer_host__watchdog_begin(steer_host *h);
/// The callback ends: the watchdog stops watching, the hook is off.
void steer_host__watchdog_end(steer_host *h);
/// The Lua thread co runs from now on (a resume, and the return from it):
/// armed when the callback is, disarmed otherwise. Returns the one before.
lua_State *steer_host__watchdog_enter(steer_host *h, lua_State *co);
/// End the watchdog's thread (steer_host_destroy).
void steer_host__watchdog_stop(steer_host *h);

#endif
