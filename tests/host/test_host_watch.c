// The watcher: inotify and polling, an editor that renames a new file over
// the script and one that rewrites it in place, modules, empty files, files
// that are not scripts. Bounded polling loops, no sleeps for a race.
#include "host_test.h"

static void script(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n,
             "local steer = require 'steer'\n"
             "local lib = require 'lib'\n"
             "return { roles = { m = steer.seek{ target = { 5, 0 } } },\n"
             "  setup = function(world) world:spawn{ role = 'm' } end,\n"
             "  update = function() print('%s' .. lib.tag) end }\n",
             tag);
}

static void run_watch(steer_host_watch backend, bool rename_writer, const char *name)
{
    test_log log;
    steer_host *h = test_host(&log, backend);
    CHECK(h != NULL);
    if (h == NULL) return;
    CHECK(steer_host_watch_backend(h) == backend);
    const char *dir = test_dir(name);
    const char *path = test_path(dir, "main.lua");
    const char *lib = test_path(dir, "lib.lua");
    void (*write)(const char *, const char *) = rename_writer ? write_by_rename : write_in_place;
    char text[1024];
    script(text, sizeof text, "v1");
    write_in_place(lib, "return { tag = '-a' }\n");
    write_in_place(path, text);
    CHECK(steer_host_load(h, path) == 0);
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "v1-a") == 0);

    // the script changes
    script(text, sizeof text, "v2");
    write(path, text);
    CHECK(wait_for_version(h, 2));
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "v2-a") == 0);

    // a module changes
    write(lib, "return { tag = '-b' }\n");
    CHECK(wait_for_version(h, 3));
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "v2-b") == 0);

    // a broken save is reported once, the old version keeps running
    write(path, "return { roles = { m = }\n");
    for (int i = 0; i < 2000 && log.lines[STEER_HOST_LOG_ERROR] == 0; ++i) {
        steer_host_update(h, 1.0f / 60.0f, NULL);
        sleep_ms(5);
    }
    CHECK(log.lines[STEER_HOST_LOG_ERROR] == 1);
    CHECK(log_has(&log, "main.lua:1:") || log_has(&log, "main.lua:2:"));
    CHECK(steer_host_version(h) == 3);
    CHECK(strcmp(log.last_print, "v2-b") == 0);

    // an empty file (an editor between truncating and writing) is not ready,
    // not an error; the full text that follows is applied
    write_in_place(path, "");
    for (int i = 0; i < 40; ++i) {
        steer_host_update(h, 1.0f / 60.0f, NULL);
        sleep_ms(5);
    }
    CHECK(log.lines[STEER_HOST_LOG_ERROR] == 1);
    script(text, sizeof text, "v4");
    write(path, text);
    CHECK(wait_for_version(h, 4));
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "v4-b") == 0);
    CHECK(steer_world_agent_count(steer_host_world(h)) == 1);
    steer_host_destroy(h);
}

static void test_inotify_rename(void) { run_watch(STEER_HOST_WATCH_INOTIFY, true, "inotify_rename"); }
static void test_inotify_in_place(void) { run_watch(STEER_HOST_WATCH_INOTIFY, false, "inotify_in_place"); }
static void test_poll_rename(void) { run_watch(STEER_HOST_WATCH_POLL, true, "poll_rename"); }
static void test_poll_in_place(void) { run_watch(STEER_HOST_WATCH_POLL, false, "poll_in_place"); }

// Files that are not scripts do not reload (dot-files, backups, probes).
// A failed first load keeps watching: a syntax error, then the fixed save,
// loads it (setup runs); a missing script loads once it is written.
static void run_first_load(steer_host_watch backend, const char *name)
{
    test_log log;
    steer_host *h = test_host(&log, backend);
    CHECK(h != NULL);
    if (h == NULL) return;
    const char *dir = test_dir(name);
    const char *path = test_path(dir, "main.lua");
    const char *lib = test_path(dir, "lib.lua");
    write_in_place(lib, "return { tag = '-a' }\n");
    write_in_place(path, "return { roles = { m = }\n");
    CHECK(steer_host_load(h, path) == -1);
    CHECK(steer_host_version(h) == 0);
    char text[1024];
    script(text, sizeof text, "v1");
    write_by_rename(path, text);
    CHECK(wait_for_version(h, 1));
    CHECK(steer_world_agent_count(steer_host_world(h)) == 1);
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "v1-a") == 0);
    steer_host_destroy(h);

    h = test_host(&log, backend);
    const char *later = test_path(dir, "later.lua");
    remove(later);
    CHECK(steer_host_load(h, later) == -1);
    CHECK(log_has(&log, "cannot open"));
    script(text, sizeof text, "later");
    write_in_place(later, text);
    CHECK(wait_for_version(h, 1));
    steer_host_update(h, 1.0f / 60.0f, NULL);
    CHECK(strcmp(log.last_print, "later-a") == 0);
    steer_host_destroy(h);
}

static void test_first_load_inotify(void) { run_first_load(STEER_HOST_WATCH_INOTIFY, "first_inotify"); }
static void test_first_load_poll(void) { run_first_load(STEER_HOST_WATCH_POLL, "first_poll"); }

static void test_ignored_files(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_INOTIFY);
    const char *dir = test_dir("ignored");
    const char *path = test_path(dir, "main.lua");
    char text[1024];
    write_in_place(test_path(dir, "lib.lua"), "return { tag = '' }\n");
    script(text, sizeof text, "v1");
    write_in_place(path, text);
    CHECK(steer_host_load(h, path) == 0);
    write_in_place(test_path(dir, "notes.txt"), "x");
    write_in_place(test_path(dir, ".main.lua.swp"), "x");
    write_in_place(test_path(dir, "main.lua~"), "x");
    write_in_place(test_path(dir, "4913"), "x");
    // well past the debounce time: still version 1
    for (int i = 0; i < 30; ++i) {
        steer_host_update(h, 1.0f / 60.0f, NULL);
        sleep_ms(5);
    }
    CHECK(steer_host_version(h) == 1);
    steer_host_destroy(h);
}

int main(void)
{
    RUN(test_inotify_rename);
    RUN(test_inotify_in_place);
    RUN(test_poll_rename);
    RUN(test_poll_in_place);
    RUN(test_ignored_files);
    RUN(test_first_load_inotify);
    RUN(test_first_load_poll);
    return TEST_RESULT();
}
