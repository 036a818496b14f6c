// host_test.h: what the script host's tests share: scripts written to a
// directory under the build tree (never /tmp), the two ways editors save,
// and a log that remembers what the host said.
#ifndef STEER_HOST_TEST_H
#define STEER_HOST_TEST_H

#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "steer/host.h"
#include "test.h"

#ifndef HOST_TEST_DIR
#error "HOST_TEST_DIR must name a directory under the build tree"
#endif

/// A fresh directory HOST_TEST_DIR/name (the files a test wrote before are
/// overwritten as it goes).
static const char *test_dir(const char *name)
{
    static char dir[512];
    // mkdir -p HOST_TEST_DIR
    snprintf(dir, sizeof dir, "%s", HOST_TEST_DIR);
    for (char *p = dir + 1; *p != '\0'; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
    mkdir(HOST_TEST_DIR, 0755);
    snprintf(dir, sizeof dir, "%s/%s", HOST_TEST_DIR, name);
    mkdir(dir, 0755);
    return dir;
}

static const char *test_path(const char *dir, const char *file)
{
    static char path[4][600];
    static int next;
    next = (next + 1) % 4;
    snprintf(path[next], sizeof path[next], "%s/%s", dir, file);
    return path[next];
}

/// An editor that truncates and rewrites the file in place.
static void write_in_place(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/// An editor that writes a new file and renames it over the old one.
static inline void write_by_rename(const char *path, const char *text)
{
    char tmp[700];
    const char *slash = strrchr(path, '/');
    snprintf(tmp, sizeof tmp, "%.*s/.%s.swp", (int)(slash - path), path, slash + 1);
    write_in_place(tmp, text);
    if (rename(tmp, path) != 0) {
        perror("rename");
        exit(2);
    }
}

/// Everything the host logged.
typedef struct test_log {
    char text[1 << 16];
    size_t len;
    int lines[4]; ///< by level
    char last_print[256];
} test_log;

static void test_log_fn(void *context, steer_host_log_level level, const char *line)
{
    test_log *log = context;
    ++log->lines[level];
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%d %s\n", (int)level, line);
    if (n > 0 && log->len + (size_t)n < sizeof log->text) log->len += (size_t)n;
    if (level == STEER_HOST_LOG_PRINT) snprintf(log->last_print, sizeof log->last_print, "%s", line);
}

static inline bool log_has(const test_log *log, const char *s) { return strstr(log->text, s) != NULL; }

static inline void log_clear(test_log *log) { memset(log, 0, sizeof *log); }

/// The default definition with the log (cleared) as its log.
static inline steer_host_def logged_def(test_log *log)
{
    steer_host_def def = steer_host_default_def();
    def.log = test_log_fn;
    def.log_context = log;
    log_clear(log);
    return def;
}

/// A host with a log and a small budget (broken versions fail fast).
static inline steer_host *test_host(test_log *log, steer_host_watch watch)
{
    steer_host_def def = logged_def(log);
    def.instruction_budget = 200000;
    def.memory_cap = (size_t)32 << 20;
    def.watch = watch;
    def.debounce_ms = 20;
    return steer_host_create(&def);
}

static inline void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/// Frames until the host runs version `version`, polling every 5 ms for at
/// most 10 s (a generous bound; the host is expected within ~debounce).
static inline bool wait_for_version(steer_host *host, int version)
{
    for (int i = 0; i < 2000; ++i) {
        steer_host_update(host, 1.0f / 60.0f, NULL);
        if (steer_host_version(host) >= version) return true;
        sleep_ms(5);
    }
    return false;
}

#endif
