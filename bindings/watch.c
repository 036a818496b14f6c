// watch.c: noticing that a script changed. inotify on the directories of
// the running version's files, or stat polling on (mtime ns, size, inode)
// of each file; either way a change is applied once nothing has changed for
// the debounce time. Editors that write a new file and rename it over the
// old one, and editors that truncate and rewrite in place, both end in an
// event we watch (IN_MOVED_TO, IN_CLOSE_WRITE) or a new stat key.
#define _GNU_SOURCE
#include "host_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// "Not ready" (empty file, chunk ending early) retries before giving up
// until the next change.
#define WATCH_RETRIES 4

double host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int host_watch_start(steer_host *host)
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

void host_watch_stop(steer_host *host)
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

void host_watch_files(steer_host *host, const char *const *paths, int count)
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

bool host_watch_ready(steer_host *host)
{
    host_watch *w = &host->watch;
    if (w->backend == STEER_HOST_WATCH_NONE) return false;
    double now = host_now();
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

void host_watch_done(steer_host *host, bool not_ready)
{
    host_watch *w = &host->watch;
    if (not_ready && ++w->retries < WATCH_RETRIES) {
        w->pending_since = host_now();
        return;
    }
    w->pending = false;
    w->retries = 0;
}
