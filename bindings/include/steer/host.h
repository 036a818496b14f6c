/// steer/host.h: the script host, what a game, a modding tool, the headless
/// runner `steer-run` and the viewer embed (docs/embedding.md).
///
/// A host owns one Lua state, one world and one script. The script is a Lua
/// file returning `{ roles = {...}, setup = fn(world), update = fn(world, dt,
/// input), on_reload = fn(world) }`. Agents spawned with `role = "name"`
/// follow `roles[name]` of the current version; a reload swaps the roles and
/// keeps every agent's state and memory, or keeps the last good version.
/// Scripts run sandboxed by default, with a memory cap and an instruction
/// budget per callback. Not thread-safe: one host per thread.
#ifndef STEER_HOST_H
#define STEER_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "steer/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A script host (opaque).
typedef struct steer_host steer_host;

/// Kinds of log lines.
typedef enum steer_host_log_level {
    STEER_HOST_LOG_PRINT,   ///< `print` from the script (no prefix)
    STEER_HOST_LOG_INFO,    ///< reload applied, watcher backend
    STEER_HOST_LOG_WARNING, ///< a role removed by a reload, ...
    STEER_HOST_LOG_ERROR    ///< `file:line: message` of a failed load or callback
} steer_host_log_level;

/// Receives one whole line (no trailing newline). NULL in the def: silent.
typedef void steer_host_log_fn(void *context, steer_host_log_level level, const char *line);

/// Test hook: return true to make this allocation of the Lua allocator fail.
typedef bool steer_host_alloc_fail_fn(void *context, size_t size);

/// How the host notices that the script changed.
typedef enum steer_host_watch {
    STEER_HOST_WATCH_NONE,    ///< only steer_host_reload
    STEER_HOST_WATCH_AUTO,    ///< inotify, else polling
    STEER_HOST_WATCH_INOTIFY, ///< inotify on the script's directories (fails without it)
    STEER_HOST_WATCH_POLL     ///< stat polling on (mtime ns, size, inode) of the script's files
} steer_host_watch;

/// Keys of steer_host_input.keys (bit i = key i), seen by Lua as input.keys.name.
typedef enum steer_host_key {
    STEER_HOST_KEY_UP, STEER_HOST_KEY_DOWN, STEER_HOST_KEY_LEFT, STEER_HOST_KEY_RIGHT,
    STEER_HOST_KEY_SPACE, STEER_HOST_KEY_ENTER, STEER_HOST_KEY_ESCAPE, STEER_HOST_KEY_SHIFT,
    STEER_HOST_KEY_A, ///< A..Z follow in order, then 0..9
    STEER_HOST_KEY_0 = STEER_HOST_KEY_A + 26,
    STEER_HOST_KEY_COUNT = STEER_HOST_KEY_0 + 10
} steer_host_key;

/// One frame's input. Lua sees `input.x`, `input.y` (mouse in world units),
/// `input.buttons` (bit 0 left, 1 right, 2 middle) and `input.keys.up`,
/// `input.keys.a`, `input.keys["1"]` (booleans): the levels when the frame
/// ran. The edges since the frame before, `input.pressed` and
/// `input.released`, have the same shape (`input.pressed.keys.space`,
/// `input.released.buttons & 1`): a key or button that went down (up) at
/// least once in between, so a click shorter than a frame is seen (pressed
/// and released, buttons 0) and holding a key presses it once. The embedder
/// accumulates the edges from its events and clears them after each
/// steer_host_update (the viewer does; docs/embedding.md, "Input").
typedef struct steer_host_input {
    float mouse_x, mouse_y; ///< world units
    uint32_t buttons;       ///< bitmask
    uint64_t keys;          ///< bit STEER_HOST_KEY_* set while held
    uint32_t buttons_pressed, buttons_released; ///< went down / up since the last update
    uint64_t keys_pressed, keys_released;       ///< went down / up since the last update
} steer_host_input;

/// What a script asked of the embedder's camera with `camera{ ... }`: a
/// presentation request, not part of the run (never recorded). A host
/// without a camera callback (steer-run) checks the call and ignores it.
typedef struct steer_host_camera {
    bool fit;        ///< camera{ fit = true }: frame every agent, shape and path now
    bool has_center; ///< camera{ x =, y = }: the point at the centre (world units)
    float x, y;
    bool has_zoom;   ///< camera{ zoom = }: pixels per metre (positive)
    float zoom;
    bool has_span;   ///< camera{ span = }: metres across the view's smaller side (positive)
    float span;
} steer_host_camera;

/// Receives a script's camera request (during the callback that asked).
typedef void steer_host_camera_fn(void *context, const steer_host_camera *camera);

/// How the instruction budget counts (docs/embedding.md, "Instructions").
typedef enum steer_host_budget_mode {
    /// The default: no count hook while a callback runs within its time
    /// slice (watchdog_slice_us); one that overruns it has its instructions
    /// counted from then on, against the whole budget. Full speed; a
    /// callback within the budget is never stopped, one over it is stopped
    /// at a point that depends on timing (or not at all when it ends first).
    STEER_HOST_BUDGET_WATCHDOG,
    /// A count hook on every instruction of every callback: a callback over
    /// the budget stops at the same instruction every run (lockstep;
    /// replays always run so). Lua code runs about half as fast.
    STEER_HOST_BUDGET_EXACT
} steer_host_budget_mode;

/// How to create a host; start from steer_host_default_def().
typedef struct steer_host_def {
    bool trusted;                ///< false (default): the sandbox; true: every standard library
    /// bytes the Lua state and the engine memory its scripts make (agents,
    /// behaviours, paths, formations) may hold together (default 64 MiB; 0: no cap)
    size_t memory_cap;
    int64_t instruction_budget;  ///< Lua instructions per callback (default 10 000 000; 0: none)
    steer_host_budget_mode budget_mode; ///< default STEER_HOST_BUDGET_WATCHDOG
    /// watchdog mode: microseconds a callback runs before its instructions
    /// are counted (default 50 000; armed after one to two slices); 0: from
    /// its first instruction
    int watchdog_slice_us;
    const char *script_root;     ///< root for require/loadfile (NULL: the script's directory)
    steer_world_def world;       ///< the world's definition (seed, ...)
    steer_host_watch watch;      ///< default STEER_HOST_WATCH_NONE
    int debounce_ms;             ///< quiet time after a change before reloading (default 100)
    steer_host_log_fn *log;      ///< log lines (NULL: none)
    void *log_context;           ///< passed to log
    steer_host_alloc_fail_fn *alloc_fail; ///< tests only (NULL in programs)
    void *alloc_fail_context;    ///< passed to alloc_fail
    steer_host_camera_fn *camera; ///< a script's camera{...} (NULL: checked, then ignored)
    void *camera_context;        ///< passed to camera
} steer_host_def;

/// The defaults: sandboxed, 64 MiB, 10 million instructions counted by the
/// watchdog after a 50 ms slice, no watcher.
steer_host_def steer_host_default_def(void);

/// Create a host with an empty world and no script; NULL when memory ran out
/// or the def is invalid.
steer_host *steer_host_create(const steer_host_def *def);
/// Destroy the host, its Lua state, its world and its watcher. NULL is fine.
void steer_host_destroy(steer_host *host);

/// Load a script: on success the world is replaced by a fresh one and
/// `setup(world)` runs; returns 0. On failure returns -1, keeps whatever ran
/// before and sets last_error (`file:line: message`). When no script ran
/// before, the host keeps the path: the watcher loads it at the next good
/// save, and steer_host_reload and steer_host_reset load it.
int steer_host_load(steer_host *host, const char *path);
/// Reload the current script now (the watcher does this by itself): a
/// transaction that either swaps the roles and keeps every agent, or keeps
/// the last good version and returns -1 with last_error set.
int steer_host_reload(steer_host *host);
/// One frame: apply a pending change seen by the watcher, call the script's
/// `update(world, dt, input)` (input may be NULL), then step the world by dt
/// (0 <= dt <= 10000) the way `world:step` does. Returns 0, or -1 when the
/// update or a Lua behaviour raised (reported once per distinct message per
/// simulated second; the next frame runs normally).
int steer_host_update(steer_host *host, float dt, const steer_host_input *input);
/// Apply a change the watcher has seen now, without a frame: what
/// steer_host_update does first, for an embedder that is paused (the
/// viewer), so a save shows at once. Returns 1 when a reload ran (0 when
/// there was nothing to apply; a failed reload is logged as ever and
/// leaves the running version). Recorded like the watcher's reloads.
int steer_host_poll(steer_host *host);
/// A fresh world, then `setup(world)` of the current version. 0 or -1.
int steer_host_reset(steer_host *host);
/// Stop the script code running now, budget or not: its next instruction
/// (or the pattern matcher's next step) raises "interrupted", and the call
/// into the host that runs it returns -1 with that error; the calls after
/// it run normally. Async-signal-safe: call it from a SIGINT or SIGTERM
/// handler (steer-run does). C work in progress (a step, an assignment)
/// finishes first.
void steer_host_interrupt(steer_host *host);

/// The last error, `file:line: message`, or NULL when none (cleared by a
/// successful load, reload or reset). Valid until the next call on the host.
const char *steer_host_last_error(const steer_host *host);
/// The host's world, for the embedder's queries and drawing (do not destroy
/// it, step it or change it while a script callback runs). Changes on load
/// and reset.
steer_world *steer_host_world(const steer_host *host);
/// Successful loads and reloads so far (the version of the script running).
int steer_host_version(const steer_host *host);
/// Bytes the Lua state holds now.
size_t steer_host_memory(const steer_host *host);
/// The watcher backend in use: STEER_HOST_WATCH_NONE, _INOTIFY or _POLL.
steer_host_watch steer_host_watch_backend(const steer_host *host);

/* ---- record and replay (docs/embedding.md, "Record and replay") ---------------- */

/// Record the run from here on to the file at path: the host's definition,
/// every load, reload (the watcher's too) and reset with its result, every
/// frame's dt and input, the text of every file the script reads through
/// the host (the script, require, loadfile, dofile), what os.clock, os.time,
/// os.date and math.randomseed() gave it, and the world hash after each
/// load, reload and reset and every hash_every frames (1: every frame, so a
/// replay names the first frame that differs). Call before the first
/// steer_host_load. Returns 0, or -1 with last_error set (a script already
/// loaded, already recording, hash_every < 1, the file cannot be created).
int steer_host_record(steer_host *host, const char *path, int hash_every);
/// Finish the recording: the frames not yet written and the final hash;
/// close the file. 0, or -1 with last_error set when a write failed.
/// steer_host_destroy finishes a recording too. A recording cut short (the
/// program crashed) still replays up to its last complete line.
int steer_host_record_end(steer_host *host);

/// Save the world and the script's state (roles, tags, data, world.data;
/// Lua behaviours by name, steer.behaviour{ name =, fn = }) to the file at
/// path, as world:snapshot() writes them (docs/lua-api.md, Snapshots;
/// steer.world_from_snapshot reads it back). 0, or -1 with last_error set
/// (no script loaded, an unnamed Lua behaviour, the file cannot be written).
int steer_host_snapshot(steer_host *host, const char *path);
/// Load the script at path with its world restored from the snapshot file
/// at snapshot instead of a fresh world: setup is not run; the script's
/// roles re-bind its Lua behaviours by name (the named ones among their
/// behaviours); the worker count is the host def's. As steer_host_load
/// otherwise (0, or -1 with last_error set: the snapshot cannot be read, is
/// refused, or names a behaviour the roles do not provide). Not while
/// recording.
int steer_host_load_snapshot(steer_host *host, const char *path, const char *snapshot);

/// A replay of a recording (opaque): a host of its own, driven by the file.
typedef struct steer_replay steer_replay;

/// How to open a replay; start from steer_replay_default_options().
typedef struct steer_replay_options {
    steer_host_log_fn *log; ///< the replayed script's log lines (NULL: none)
    void *log_context;      ///< passed to log
    /// Workers of the replay's world (0: as recorded). Any count gives the
    /// same bits, so a replay with another count checks that too.
    int worker_count;
    /// A recording is input from elsewhere (a bug report's attachment): it
    /// runs sandboxed, and one recorded with a trusted host (every standard
    /// library: io, os.execute) is refused unless this is true.
    bool trusted;
    /// The replayer's budgets. The replay's host takes the recorded ones
    /// where they are tighter and these where the recording's are looser
    /// (0, none, is the loosest): a recording never loosens them.
    size_t memory_cap;          ///< default: the host's (64 MiB)
    int64_t instruction_budget; ///< default: the host's (10 000 000)
    /// The largest recording read (bytes; default 256 MiB, 0: no limit).
    size_t max_file_size;
} steer_replay_options;

/// No log, the recorded worker count, untrusted, the host's default budgets,
/// recordings up to 256 MiB.
steer_replay_options steer_replay_default_options(void);
/// Read a recording and make its host with the recorded definition. NULL
/// when the file cannot be read or is malformed, with `file:line: message`
/// in error (error_size bytes at most; error may be NULL).
steer_replay *steer_replay_open(const char *path, const steer_replay_options *options, char *error,
                                size_t error_size);
/// Replay up to and including the next frame (and the loads, reloads and
/// resets before it). Returns 1 when a frame ran and matched the recording,
/// 0 at the end of the recording (the final hash matched), -1 when the
/// replay diverged: a hash differs, a call returned something else, or the
/// script read another file or asked for a value the recording does not
/// have next (steer_replay_error, steer_replay_divergent_frame). After 0 or
/// -1 every call returns the same.
int steer_replay_step(steer_replay *replay);
/// Frames replayed so far.
long steer_replay_frame(const steer_replay *replay);
/// Frames in the recording.
long steer_replay_frame_count(const steer_replay *replay);
/// The frame where the replay first differed (frame k: after the k-th
/// update; 0: the load or a reset before the first frame), -1 when none.
/// With hash_every > 1, the world may have differed since the frame after
/// the last check.
long steer_replay_divergent_frame(const steer_replay *replay);
/// What differed, `frame F (what, line L): ...`, or NULL.
const char *steer_replay_error(const steer_replay *replay);
/// The replay's host: query and draw its world between steps; do not load,
/// reload, reset or update it yourself.
steer_host *steer_replay_host(const steer_replay *replay);
/// Close the replay and destroy its host. NULL is fine.
void steer_replay_close(steer_replay *replay);

#ifdef __cplusplus
}
#endif

#endif
