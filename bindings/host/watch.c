// watch.c: noticing that a script changed, and which files make a version.
// inotify on the directories of the running version's files, or stat
// polling on (mtime ns, size, inode) of each file; either way a change is
// applied once nothing has changed for the debounce time, and a change that
// is not ready yet (the editor is still writing) is tried again a few
// times. Editors that write a new file and rename it over the old one, and
// editors that truncate and rewrite in place, both end in an event we watch
// (IN_MOVED_TO, IN_CLOSE_WRITE) or a new stat key.
#define _GNU_SOURCE
#include "host_internal.h"

#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// How often a change that is not ready yet (an empty script, a chunk that
// ends early) is tried again, a debounce period apart, before it is given
// up (until the next change) or reported.
#define WATCH_RETRIES 3

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int steer_host__watch_start(steer_host *host)
{
    host_watch *w = &host->watch;
    w->backend = STEER_HOST_WATCH_NONE;
    w->fd = -1;
    steer_host_watch want = host->def.watch;
    if (want == STEER_HOST_WATCH_AUTO || want == STEER_HOST_WATCH_INOTIFY) {
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w->fd >= 0) {
            w->backend = STEER_HOST_WATCH_INOTIFY;
            return 0;
        }
        if (want == STEER_HOST_WATCH_INOTIFY) return -1;
    }
    if (want != STEER_HOST_WATCH_NONE) w->backend = STEER_HOST_WATCH_POLL;
    return 0;
}

void steer_host__watch_stop(steer_host *host)
{
    if (host->watch.fd >= 0) close(host->watch.fd);
    host->watch.fd = -1;
}

static void stat_key(host_file *f)
{
    struct stat st;
    if (stat(f->path, &st) != 0) {
        f->mtime_ns = -1;
        f->size = -1;
        f->inode = 0;
        return;
    }
    f->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    f->size = (int64_t)st.st_size;
    f->inode = (uint64_t)st.st_ino;
}

static void watch_files(steer_host *host, const char *const *paths, int count)
{
    host_watch *w = &host->watch;
    if (w->backend == STEER_HOST_WATCH_INOTIFY) {
        // a fresh descriptor drops the watches of the previous version
        int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd >= 0) {
            close(w->fd);
            w->fd = fd;
        }
    }
    w->file_count = 0;
    for (int i = 0; i < count && i < HOST_WATCH_FILES; ++i) {
        host_file *f = &w->files[w->file_count];
        size_t n = strlen(paths[i]);
        if (n >= sizeof f->path) continue;
        memcpy(f->path, paths[i], n + 1);
        stat_key(f);
        ++w->file_count;
        if (w->backend == STEER_HOST_WATCH_INOTIFY) {
            char dir[HOST_PATH_MAX];
            const char *slash = strrchr(f->path, '/');
            if (slash == NULL)
                memcpy(dir, ".", 2);
            else if (slash == f->path)
                memcpy(dir, "/", 2);
            else {
                memcpy(dir, f->path, (size_t)(slash - f->path));
                dir[slash - f->path] = '\0';
            }
            // the same directory again returns the same watch
            inotify_add_watch(w->fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE);
        }
    }
}

// A name an edit of a script could produce: *.lua, not a dot-file (editor
// swap and probe files), not a backup.
static bool relevant(const char *name)
{
    size_t n = strlen(name);
    if (n < 5 || name[0] == '.' || name[n - 1] == '~') return false;
    return strcmp(name + n - 4, ".lua") == 0;
}

static void seen(host_watch *w, double now)
{
    w->pending = true;
    w->pending_since = now;
    w->retries = 0;
}

bool steer_host__watch_ready(steer_host *host)
{
    host_watch *w = &host->watch;
    if (w->backend == STEER_HOST_WATCH_NONE) return false;
    double now = now_seconds();
    if (w->backend == STEER_HOST_WATCH_INOTIFY) {
        _Alignas(struct inotify_event) char buf[4096];
        for (;;) {
            ssize_t n = read(w->fd, buf, sizeof buf);
            if (n <= 0) break;
            for (char *p = buf; p < buf + n;) {
                const struct inotify_event *e = (const struct inotify_event *)p;
                if ((e->mask & IN_Q_OVERFLOW) || (e->len > 0 && relevant(e->name))) seen(w, now);
                p += sizeof *e + e->len;
            }
        }
    } else {
        for (int i = 0; i < w->file_count; ++i) {
            host_file *f = &w->files[i];
            host_file now_key = *f;
            stat_key(&now_key);
            if (now_key.mtime_ns != f->mtime_ns || now_key.size != f->size || now_key.inode != f->inode) {
                *f = now_key;
                seen(w, now);
            }
        }
    }
    return w->pending && now - w->pending_since >= (double)host->def.debounce_ms * 1e-3;
}

// The pending change is done with (applied, reported or given up).
static void done(host_watch *w)
{
    w->pending = false;
    w->retries = 0;
}

// A change not ready yet: true when it will be tried again a debounce
// period from now, false when it is given up.
static bool retry(host_watch *w)
{
    if (w->retries < WATCH_RETRIES) {
        ++w->retries;
        w->pending_since = now_seconds();
        return true;
    }
    done(w);
    return false;
}

bool steer_host__watch_script_ready(steer_host *host)
{
    struct stat st;
    if (stat(host->path, &st) == 0 && st.st_size > 0) return true;
    retry(&host->watch);
    return false;
}

bool steer_host__watch_applied(steer_host *host, bool failed)
{
    if (failed && strstr(host->error, "<eof>") != NULL && retry(&host->watch)) return false;
    done(&host->watch);
    return failed;
}

/* ---- the files of a version ------------------------------------------------------------ */

void steer_host__watch_begin_version(lua_State *L, steer_host *host)
{
    lua_newtable(L);
    steer_host__set_field(L, host, HOST_F_FILES);
}

void steer_host__watch_remember(lua_State *L, const char *path)
{
    steer_host__push_field(L, steer_host__of(L), HOST_F_FILES);
    lua_pushstring(L, path);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
}

int steer_host__watch_version(lua_State *L)
{
    steer_host *h = steer_host__of(L);
    steer_host__push_field(L, h, HOST_F_FILES);
    int list = lua_gettop(L);
    const char *paths[HOST_WATCH_FILES];
    int n = 0;
    for (int i = 1; n < HOST_WATCH_FILES && lua_rawgeti(L, list, i) == LUA_TSTRING; ++i)
        paths[n++] = lua_tostring(L, -1);
    watch_files(h, paths, n);
    return 0;
}
