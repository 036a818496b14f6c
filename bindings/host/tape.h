// tape.h: the tape, a host's record of its run (docs/embedding.md, "Record
// and replay"), and the outside world as the script sees it. A leaf under
// the host: it writes what the host did and what the script got from
// outside, and in a replay hands the script the recorded values instead of
// the outside world's. The replay reads a recording, drives the host
// through steer/host.h and gives the tape its values through this header.
// Not installed.
#ifndef STEER_HOST_TAPE_H
#define STEER_HOST_TAPE_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

#include "steer/host.h"

#define HOST_PATH_MAX 1024
#define HOST_ERROR_MAX 1024

/// The first line of a recording: the format's version (2: input lines
/// carry the pressed and released edges).
#define STEER_HOST__TAPE_MAGIC "steerrec 2"
#define STEER_HOST__TAPE_FORMAT 2

/// Kinds of values a script gets from outside.
typedef enum steer_host__value_kind {
    STEER_HOST__VALUE_READ,  ///< the text of a file (or its absence)
    STEER_HOST__VALUE_CLOCK, ///< os.clock()
    STEER_HOST__VALUE_TIME,  ///< os.time() (and os.date() of the current time)
    STEER_HOST__VALUE_SEED   ///< math.randomseed() without arguments
} steer_host__value_kind;

/// One value the script got from outside, as recorded.
typedef struct steer_host__value {
    steer_host__value_kind kind;
    int line;          ///< in the recording, for messages
    int blob;          ///< read: index of the text, -1 when the file was missing
    const char *path;  ///< read
    double number;     ///< clock
    long long integer; ///< time
    long long seed[2]; ///< seed
} steer_host__value;

/// The text of a file, stored once however often it is read.
typedef struct steer_host__blob {
    const char *data;
    size_t len;
} steer_host__blob;

/// The recorded values a replay hands the tape (the replay owns them): the
/// script gets them in order instead of the outside world's.
typedef struct steer_host__playback {
    const steer_host__value *values;
    int value_count;
    int value_next;                ///< the next value the script may ask for
    const steer_host__blob *blobs;
    bool diverged;                 ///< the script asked for something else than recorded
    char message[HOST_ERROR_MAX];  ///< what it asked for and what was recorded
} steer_host__playback;

/* ---- recording (the writer) -------------------------------------------------------- */
/// A load, reload or reset happened (its result rc): record it with the
/// world hash after it. path: the script, for a load.
void steer_host__tape_event(steer_host *host, const char *event, int rc, const char *path);
/// A frame ran with this dt and input: record it.
void steer_host__tape_frame(steer_host *host, float dt, const steer_host_input *input);
/// End a recording, if any (steer_host_destroy).
void steer_host__tape_destroy(steer_host *host);

/* ---- the outside world ---------------------------------------------------------------- */
/// Read a file for the script: pushes its text and returns true, or returns
/// false when it cannot be opened (raises on a read error, naming `name`).
/// Recording: the text goes to the recording; replay: it comes from there.
bool steer_host__read_file(lua_State *L, const char *path, const char *name);
/// Replace os.clock, os.time, os.date and math.randomseed of the global
/// tables with versions a recording captures (before environments copy them).
void steer_host__wrap_outside(lua_State *L);

/* ---- replay (the values) ---------------------------------------------------------------- */
/// From now on the host's script gets its outside values from playback (NULL:
/// from the outside world again). Borrowed: it must outlive its use.
void steer_host__tape_play(steer_host *host, steer_host__playback *playback);
/// How messages name a kind of value ("os.clock()", ...).
const char *steer_host__value_name(steer_host__value_kind kind);
/// Grow a realloc'd array to hold need items of size bytes; false when
/// memory ran out (the array is unchanged).
bool steer_host__grow(void **items, int *cap, int need, size_t size);

#endif
