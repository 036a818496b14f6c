// The sandbox: every escape attempt ends in a clean error and a live host
// whose world still steps.
#include "host_test.h"

#include "steer/steer.h"

static const float DT = 1.0f / 60.0f;

static const struct {
    const char *code;   // runs once, in update
    const char *expect; // in last_error
} escapes[] = {
    {"io.open('/etc/passwd')", "global 'io'"},
    {"os.execute('true')", "field 'execute'"},
    {"os.exit(1)", "field 'exit'"},
    {"os.getenv('HOME')", "field 'getenv'"},
    {"assert(load('\\27LuaT\\0\\25\\147\\r\\n\\26\\n'))", "attempt to load a binary chunk"},
    {"assert(load(function() return nil end))", "only string chunks"},
    {"string.dump(print)", "field 'dump'"},
    {"('x').dump(print)", "field 'dump'"},
    {"debug.sethook(print, 'l')", "field 'sethook'"},
    {"debug.getregistry()", "field 'getregistry'"},
    {"package.loadlib('libc.so.6', 'system')", "global 'package'"},
    {"require 'lfs'", "module 'lfs' not found under the script root"},
    {"require '..main'", "not found under the script root"},
    {"loadfile('/etc/passwd')", "is not a path under the script root"},
    {"dofile('../x.lua')", "is not a path under the script root"},
    {"collectgarbage('stop')", "only \"count\" is allowed"},
    {"setmetatable({}, { __gc = function() end })", "__gc is not allowed in the sandbox"},
    {"getmetatable('').__index = {}", "attempt to index a boolean value"},
    {"while true do end", "instruction budget exceeded in update"},
    {"while true do pcall(function() while true do end end) end", "instruction budget exceeded in update"},
    {"coroutine.wrap(function() while true do end end)()", "instruction budget exceeded in update"},
    {"while true do pcall(coroutine.wrap(function() while true do end end)) end", "instruction budget exceeded"},
    {"local s = string.rep('x', 1 << 30)", "not enough memory"},
    {"local t = {} for i = 1, 1e9 do t[i] = i end", ""},
    {"local t = {} while true do t[#t + 1] = {} end", ""},
    {"local function f() return 1 + f() end f()", ""},
    // the pattern matcher's steps count against the budget (they ran for
    // ever in C, under the 64 KiB subject guard there was)
    {"('a'):rep(2000):find(('a*'):rep(12) .. 'b')", "instruction budget exceeded in update "
                                                    "(200000 instructions; each step of the pattern matcher counts as one)"},
    {"('a'):rep(8000):find('.-.-.-.-b')", "each step of the pattern matcher counts as one"},
    {"for _ in ('a'):rep(8000):gmatch('.-.-.-.-b') do end", "each step of the pattern matcher counts as one"},
    {"string.gsub(('a'):rep(8000), '.-.-.-b', '')", "each step of the pattern matcher counts as one"},
    {"string.match(('a'):rep(1 << 20), 'a*b')", "each step of the pattern matcher counts as one"},
    {"pcall(string.find, ('a'):rep(8000), '.-.-.-.-b') print('swallowed')", "instruction budget exceeded in update"},
};

static void test_escapes(void)
{
    const char *dir = test_dir("escapes");
    const char *path = test_path(dir, "main.lua");
    char text[4096];
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; ++i) {
        test_log log;
        steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
        snprintf(text, sizeof text,
                 "local steer = require 'steer'\n"
                 "local done = false\n"
                 "return { roles = { m = steer.seek{ target = { 50, 0 } } },\n"
                 "  setup = function(world) world:spawn{ role = 'm' } end,\n"
                 "  update = function(world, dt, input)\n"
                 "    if done then return end\n"
                 "    done = true\n"
                 "    %s\n"
                 "  end }\n",
                 escapes[i].code);
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == 0);
        CHECK(steer_host_update(h, DT, NULL) == -1);
        const char *e = steer_host_last_error(h);
        bool ok = e != NULL && strstr(e, escapes[i].expect) != NULL;
        CHECK(ok);
        if (!ok) fprintf(stderr, "  %s\n  got: %s\n", escapes[i].code, e ? e : "(no error)");
        // alive: the next frame runs normally and the world steps
        CHECK(steer_host_update(h, DT, NULL) == 0);
        steer_world *w = steer_host_world(h);
        CHECK(steer_world_step_count(w) == 2);
        CHECK(steer_agent_get_position(w, steer_world_agent_at(w, 0)).x > 0);
        CHECK(steer_host_memory(h) <= ((size_t)32 << 20));
        steer_host_destroy(h);
    }
}

// A host with a budget of 200,000 instructions counted the given way.
static steer_host *budget_host(test_log *log, bool trusted, steer_host_budget_mode mode, int slice_us)
{
    steer_host_def def = logged_def(log);
    def.instruction_budget = 200000;
    def.trusted = trusted;
    def.budget_mode = mode;
    def.watchdog_slice_us = slice_us;
    return steer_host_create(&def);
}

// The budget's modes stop the same runaways with the same error, word for
// word: the exact count; the watchdog with a slice of 0 (its hook armed at
// the callback's start: the overrun path without waiting for a clock); and
// the watchdog with a 1 ms slice (armed by its thread's signal: when it
// fires changes how long the runaway ran, not what is reported). Frame 1
// prepares, frame 2 runs away, frame 3 runs normally. A runaway __gc needs
// a trusted host (the sandbox refuses __gc).
static void test_budget_modes(void)
{
    static const struct {
        const char *prepare, *run;
        bool trusted;
        const char *expect;
    } runaways[] = {
        {"", "while true do end", false, "main.lua:6: instruction budget exceeded in update (200000 instructions)"},
        {"t = {} for i = 1, 100 do t[i] = i end",
         "local s = 0 while true do for i = 1, #t do s = s + t[i] end end", false,
         "instruction budget exceeded in update (200000 instructions)"},
        // a coroutine made in an earlier frame (no hook inherited), resumed now
        {"co = coroutine.create(function() while true do end end)", "coroutine.resume(co)", false,
         "main.lua:7: instruction budget exceeded in update (200000 instructions)"},
        {"", "coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)()", false,
         "instruction budget exceeded in update (200000 instructions)"},
        {"", "while true do pcall(coroutine.wrap(function() while true do end end)) end", false,
         "main.lua:6: instruction budget exceeded in update (200000 instructions)"},
        // a __close handler that loops, run by coroutine.close in the coroutine
        {"co = coroutine.create(function() local x <close> = setmetatable({}, { __close = function() "
         "while true do end end }) coroutine.yield() end) coroutine.resume(co)",
         "coroutine.close(co)", false, "main.lua:7: instruction budget exceeded in update (200000 instructions)"},
        {"", "('a'):rep(8000):find('.-.-.-.-b')", false,
         "main.lua:6: instruction budget exceeded in update (200000 instructions; each step of the pattern "
         "matcher counts as one)"},
        {"", "setmetatable({}, { __gc = function() while true do end end }) collectgarbage() print('after')", true,
         "main.lua:6: instruction budget exceeded in update (200000 instructions)"},
    };
    static const struct {
        steer_host_budget_mode mode;
        int slice_us;
    } modes[] = {{STEER_HOST_BUDGET_EXACT, 0}, {STEER_HOST_BUDGET_WATCHDOG, 0}, {STEER_HOST_BUDGET_WATCHDOG, 1000}};
    const char *dir = test_dir("budget_modes");
    const char *path = test_path(dir, "main.lua");
    char text[1024];
    for (size_t i = 0; i < sizeof runaways / sizeof runaways[0]; ++i) {
        char first[1024] = "";
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
            test_log log;
            steer_host *h = budget_host(&log, runaways[i].trusted, modes[m].mode, modes[m].slice_us);
            snprintf(text, sizeof text,
                     "local frames, co = 0, nil\n"
                     "return { update = function(world)\n"
                     "  frames = frames + 1\n"
                     "  if frames == 1 then\n"
                     "    %s\n"
                     "  elseif frames == 2 then %s end\n"
                     "end }\n",
                     runaways[i].prepare, runaways[i].run);
            write_in_place(path, text);
            CHECK(steer_host_load(h, path) == 0);
            CHECK(steer_host_update(h, DT, NULL) == 0);
            CHECK(steer_host_update(h, DT, NULL) == -1);
            const char *e = steer_host_last_error(h);
            bool ok = e != NULL && strstr(e, runaways[i].expect) != NULL;
            CHECK(ok);
            if (!ok) fprintf(stderr, "  mode %zu: %s\n  got: %s\n", m, runaways[i].run, e ? e : "(no error)");
            if (e != NULL && m == 0) snprintf(first, sizeof first, "%s", e);
            bool same = e != NULL && strcmp(e, first) == 0;
            CHECK(same);
            if (!same) fprintf(stderr, "  mode %zu: %s\n  exact mode: %s\n", m, e ? e : "(no error)", first);
            CHECK(steer_host_update(h, DT, NULL) == 0);
            CHECK(steer_host_update(h, DT, NULL) == 0);
            steer_host_destroy(h);
        }
    }
}

// A callback within its budget is never stopped, armed or not: 100,000
// instructions under a budget of 200,000 run in every mode; 300,000 stop in
// the exact mode and the watchdog's armed from the start (with a 1 ms
// slice, they may end before it is armed: the watchdog counts no more than
// the exact mode does).
static void test_budget_within(void)
{
    const char *dir = test_dir("budget_within");
    const char *path = test_path(dir, "main.lua");
    static const int slices[] = {-1, 0, 1000};
    for (size_t m = 0; m < sizeof slices / sizeof slices[0]; ++m) {
        for (int over = 0; over < 2; ++over) {
            test_log log;
            bool exact = slices[m] < 0;
            steer_host_budget_mode mode = exact ? STEER_HOST_BUDGET_EXACT : STEER_HOST_BUDGET_WATCHDOG;
            steer_host *h = budget_host(&log, false, mode, exact ? 0 : slices[m]);
            char text[256];
            // 2 instructions a turn (ADD, FORLOOP)
            snprintf(text, sizeof text,
                     "return { update = function() local s = 0 for i = 1, %d do s = s + i end print(s > 0) end }\n",
                     over ? 150000 : 50000);
            write_in_place(path, text);
            CHECK(steer_host_load(h, path) == 0);
            for (int f = 0; f < 3; ++f) {
                int rc = steer_host_update(h, DT, NULL);
                if (over && slices[m] != 1000) CHECK(rc == -1);
                if (!over) CHECK(rc == 0);
            }
            steer_host_destroy(h);
        }
    }
}

// A trusted script's finaliser that loops, left for lua_close when the host
// is destroyed, is stopped by the budget of closing the state (it hung).
static void test_runaway_gc_at_close(void)
{
    const char *dir = test_dir("gc_at_close");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local keep = setmetatable({}, {\n"
                         "  __gc = function() print('finalising') while true do end end })\n"
                         "return { update = function() return keep end }\n");
    for (int exact = 0; exact < 2; ++exact) {
        test_log log;
        steer_host *h = budget_host(&log, true, exact ? STEER_HOST_BUDGET_EXACT : STEER_HOST_BUDGET_WATCHDOG, 50000);
        CHECK(steer_host_load(h, path) == 0);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(!log_has(&log, "finalising"));
        steer_host_destroy(h);
        // (it ran, and destroy returned)
        CHECK(strcmp(log.last_print, "finalising") == 0);
    }
}

// The watchdog takes its hook off at the callback's end: after a frame
// stopped by the budget (a formation's assignment refused for its cost
// arms the hook at once, no clock involved), the next frame runs without
// one (a trusted script sees it with debug.gethook); the exact mode keeps
// its hook on.
static void test_watchdog_disarms(void)
{
    const char *dir = test_dir("watchdog_disarms");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local frames = 0\n"
                         "return { update = function(world)\n"
                         "  frames = frames + 1\n"
                         "  if frames == 1 then local ms = {} for i = 1, 300 do ms[i] = world:spawn{ x = i } end\n"
                         "    steer.formation{ members = ms } end\n"
                         "  print(tostring(debug.gethook()))\n"
                         "end }\n");
    for (int exact = 0; exact < 2; ++exact) {
        test_log log;
        // (a slice never reached here)
        steer_host *h = budget_host(&log, true, exact ? STEER_HOST_BUDGET_EXACT : STEER_HOST_BUDGET_WATCHDOG,
                                    60 * 1000 * 1000);
        CHECK(steer_host_load(h, path) == 0);
        CHECK(steer_host_update(h, DT, NULL) == -1);
        CHECK(strstr(steer_host_last_error(h), "a formation's assignment here would take") != NULL);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(strcmp(log.last_print, exact ? "external hook" : "nil") == 0);
        if (strcmp(log.last_print, exact ? "external hook" : "nil") != 0) fprintf(stderr, "  got %s\n", log.last_print);
        steer_host_destroy(h);
    }
}

// The sandbox's pattern matcher (match.c) gives what Lua's gives: ~3,000
// random and hand-picked patterns against 9 subjects through find (with init
// and plain), match, gmatch and gsub (string, table and function
// replacements, a limit), errors included, digested in a sandboxed host and
// a trusted one (Lua's own string library).
static void test_matcher_agrees_with_lua(void)
{
    static const char *script =
        "local out = {}\n"
        "local function rec(...)\n"
        "  local t = {}\n"
        "  for i = 1, select('#', ...) do t[i] = tostring((select(i, ...))) end\n"
        "  out[#out + 1] = table.concat(t, ',')\n"
        "end\n"
        "local toks = { 'a', 'b', '.', '%a', '%d', '[ab]', '[^a]', '*', '+', '-', '?', '(', ')', '()', '%1', '^',\n"
        "  '$', '%b()', '%f[%w]', '[a-c]', '%', '[]]', '[%]]', '%s', '%W', 'x', ' ' }\n"
        "local subs = { '', 'a', 'aab(c)d 1b', 'hello world from Lua', '((a)(b))', '  x  ', 'abcabc', 'a.b-c',\n"
        "  'THE (quick) fox' }\n"
        "local seed = 7\n"
        "local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end\n"
        "local pats = { 'o', '(o)(r)', '^h', 'd$', '%w+', '(%w+) (%w+)', '()ll()', '%b()', '%f[%a]%a+',\n"
        "  '[%a_][%w_]*', 'a-b', '(a*(.)%w(%s*))', '%d+', '[^%s]+', '.-', '', '^', '$', '(', ')', '%', '[a',\n"
        "  '%g', '(()', '%0', '%f', 'a%', '[]' }\n"
        "for _ = 1, 300 do\n"
        "  local p = {}\n"
        "  for i = 1, rnd(8) do p[i] = toks[rnd(#toks)] end\n"
        "  pats[#pats + 1] = table.concat(p)\n"
        "end\n"
        "local reps = { '%0<%1>', 'x', '%%', '%2', '%', { a = 'A', ['(c)'] = false, b = 1 },\n"
        "  function(a, b) return b and a .. b or nil end }\n"
        "for _, s in ipairs(subs) do\n"
        "  for pi, p in ipairs(pats) do\n"
        "    rec(pcall(string.find, s, p))\n"
        "    rec(pcall(string.find, s, p, 3))\n"
        "    rec(pcall(string.find, s, p, -2, pi % 2 == 0))\n"
        "    rec(pcall(string.match, s, p))\n"
        "    rec(pcall(string.match, s, p, 2))\n"
        "    local ok, it = pcall(string.gmatch, s, p, pi % 3)\n"
        "    for _ = 1, 30 do\n"
        "      local r = table.pack(pcall(it))\n"
        "      rec(table.unpack(r, 1, r.n))\n"
        "      if not r[1] or r[2] == nil then break end\n"
        "    end\n"
        "    rec(pcall(string.gsub, s, p, reps[pi % #reps + 1]))\n"
        "    rec(pcall(string.gsub, s, p, reps[(pi + 3) % #reps + 1], 2))\n"
        "  end\n"
        "end\n"
        "local digest = 0\n"
        "for _, line in ipairs(out) do\n"
        "  for k = 1, #line do digest = (digest * 31 + line:byte(k)) % 4294967296 end\n"
        "end\n"
        "print(#out, digest)\n"
        "return { setup = function() end }\n";
    const char *dir = test_dir("matcher");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, script);
    char got[2][256];
    for (int trusted = 0; trusted <= 1; ++trusted) {
        test_log log;
        steer_host_def def = logged_def(&log);
        def.trusted = trusted;
        def.instruction_budget = 0; // the digest loop is long
        steer_host *h = steer_host_create(&def);
        CHECK(steer_host_load(h, path) == 0);
        snprintf(got[trusted], sizeof got[trusted], "%s", log.last_print);
        steer_host_destroy(h);
    }
    CHECK(atoi(got[0]) > 20000);
    CHECK(strcmp(got[0], got[1]) == 0);
    if (strcmp(got[0], got[1]) != 0) fprintf(stderr, "  sandbox %s, Lua %s\n", got[0], got[1]);
}

// steer_host_interrupt stops a script that runs without a budget (what
// steer-run's SIGINT/SIGTERM handler calls): here the log callback plays the
// signal, arriving while the script prints, before its endless loop.
static steer_host *interrupt_me;
static void interrupting_log(void *context, steer_host_log_level level, const char *line)
{
    test_log_fn(context, level, line);
    if (level == STEER_HOST_LOG_PRINT && strcmp(line, "go") == 0) steer_host_interrupt(interrupt_me);
}

static void test_interrupt_without_budget(void)
{
    static const char *const loops[] = {
        "while true do end",
        "while true do pcall(function() while true do end end) end",
        "local s = ('a'):rep(8000) while true do pcall(string.find, s, '.-.-.-.-b') end",
    };
    const char *dir = test_dir("interrupt");
    const char *path = test_path(dir, "main.lua");
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; ++i) {
        test_log log;
        steer_host_def def = logged_def(&log);
        def.log = interrupting_log;
        def.instruction_budget = 0;
        steer_host *h = interrupt_me = steer_host_create(&def);
        char text[512];
        snprintf(text, sizeof text,
                 "local frames = 0\n"
                 "return { update = function(world)\n"
                 "  frames = frames + 1\n"
                 "  if frames == 2 then print('go') %s end\n"
                 "  print(frames)\n"
                 "end }\n",
                 loops[i]);
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == 0);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(steer_host_update(h, DT, NULL) == -1);
        const char *e = steer_host_last_error(h);
        CHECK(e != NULL && strstr(e, "interrupted") != NULL);
        // the calls after it run normally
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(strcmp(log.last_print, "3") == 0);
        steer_host_destroy(h);
    }
}

// The same attempts while loading: the load fails cleanly.
static void test_escapes_at_load(void)
{
    const char *dir = test_dir("escapes_load");
    const char *path = test_path(dir, "main.lua");
    char text[4096];
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; ++i) {
        test_log log;
        steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
        snprintf(text, sizeof text, "%s\nreturn { setup = function() end }\n", escapes[i].code);
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == -1);
        const char *e = steer_host_last_error(h);
        // the budget names the callback: loading instead of update
        char expect[128];
        snprintf(expect, sizeof expect, "%s", escapes[i].expect);
        char *cb = strstr(expect, "in update");
        if (cb != NULL) memcpy(cb, "in loadin", 9), snprintf(cb + 9, sizeof expect - (size_t)(cb + 9 - expect), "g");
        bool ok = e != NULL && strstr(e, expect) != NULL;
        CHECK(ok);
        if (!ok) fprintf(stderr, "  %s\n  got: %s\n", escapes[i].code, e ? e : "(no error)");
        CHECK(steer_host_version(h) == 0);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        steer_host_destroy(h);
    }
}

// A Lua behaviour that loops: the budget names it; the step still ends.
static void test_behaviour_budget(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("behaviour");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { roles = { spin = steer.behaviour(function() while true do end end) },\n"
                         "  setup = function(world) for i = 1, 3 do world:spawn{ x = i, role = 'spin' } end end }\n");
    CHECK(steer_host_load(h, path) == 0);
    CHECK(steer_host_update(h, DT, NULL) == -1);
    const char *e = steer_host_last_error(h);
    CHECK(e != NULL && strncmp(e, "main.lua:2: instruction budget exceeded in a Lua behaviour", 58) == 0);
    if (e != NULL) printf("  %s\n", e);
    CHECK(steer_world_step_count(steer_host_world(h)) == 1);
    steer_host_destroy(h);
}

// What the sandbox keeps: steer as a global and a module, the safe libraries.
static void test_what_is_there(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("there");
    const char *path = test_path(dir, "main.lua");
    mkdir(test_path(dir, "sub"), 0755);
    write_in_place(path, "assert(steer == require 'steer')\n"
                         "assert(type(os.clock()) == 'number' and os.time() and os.date('%Y'))\n"
                         "assert(type(debug.traceback()) == 'string')\n"
                         "assert(collectgarbage('count') > 0)\n"
                         "assert(load('return 1 + 1')() == 2)\n"
                         "assert(('abc'):find('b') == 2 and math.floor(2.5) == 2 and table.concat({1, 2}) == '12')\n"
                         "assert(getmetatable('') == false)\n"
                         "local f, msg = loadfile('sub')\n" // a directory: nil and a message, as a missing file
                         "assert(f == nil and msg:find('cannot open sub', 1, true), msg)\n"
                         "assert(select('#', loadfile('nothing.lua')) == 2)\n"
                         "local t = setmetatable({}, { __index = function() return 5 end })\n"
                         "assert(t.x == 5 and _G == _ENV)\n"
                         "return { setup = function() print('ok', 1, nil) end }\n");
    CHECK(steer_host_load(h, path) == 0);
    CHECK(steer_host_last_error(h) == NULL);
    CHECK(strcmp(log.last_print, "ok\t1\tnil") == 0);
    steer_host_destroy(h);
}

// Budget errors name setup and on_reload; a host whose setup looped still
// steps, and a reload whose on_reload looped keeps the new version.
static void test_budget_names_callbacks(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("callbacks");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "return { setup = function(world) while true do end end }\n");
    CHECK(steer_host_load(h, path) == -1);
    CHECK(strstr(steer_host_last_error(h), "main.lua:1: instruction budget exceeded in setup") != NULL);
    CHECK(steer_host_update(h, 1.0f / 60.0f, NULL) == 0);
    write_in_place(path, "return { update = function() print('v2') end,\n"
                         "  on_reload = function(world) while true do end end }\n");
    CHECK(steer_host_reload(h) == -1);
    CHECK(strstr(steer_host_last_error(h), "main.lua:2: instruction budget exceeded in on_reload") != NULL);
    CHECK(steer_host_version(h) == 2);
    CHECK(steer_host_update(h, 1.0f / 60.0f, NULL) == 0);
    CHECK(strcmp(log.last_print, "v2") == 0);
    steer_host_destroy(h);
}

// Metatables on the script's table or the input table run no script code
// outside a callback's budget (the host reads and writes them raw).
static void test_metatable_tricks(void)
{
    test_log log;
    steer_host *h = test_host(&log, STEER_HOST_WATCH_NONE);
    const char *dir = test_dir("metatables");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local loop = function() while true do end end\n"
                         "return setmetatable({}, { __index = loop })\n");
    CHECK(steer_host_load(h, path) == -1);
    CHECK(strstr(steer_host_last_error(h), "main.lua: a script must return a table with roles, setup or update") != NULL);
    write_in_place(path, "local loop = function() while true do end end\n"
                         "return { update = function(world, dt, input)\n"
                         "  if getmetatable(input) == nil then\n"
                         "    input.keys = nil; input.x = nil\n"
                         "    setmetatable(input, { __index = loop, __newindex = loop })\n"
                         "    return\n"
                         "  end\n"
                         "  print(input.x, input.keys.up)\n"
                         "end }\n");
    CHECK(steer_host_load(h, path) == 0);
    steer_host_input in = {.mouse_x = 4, .keys = 1};
    CHECK(steer_host_update(h, 1.0f / 60.0f, &in) == 0);
    CHECK(steer_host_update(h, 1.0f / 60.0f, &in) == 0);
    CHECK(strcmp(log.last_print, "4.0\ttrue") == 0);
    steer_host_destroy(h);
}

// Trusted hosts get the standard libraries.
static void test_trusted(void)
{
    test_log log;
    steer_host_def def = logged_def(&log);
    def.trusted = true;
    steer_host *h = steer_host_create(&def);
    const char *dir = test_dir("trusted");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "return { setup = function() print(type(io.open), type(string.dump), type(steer.world)) end }\n");
    CHECK(steer_host_load(h, path) == 0);
    CHECK(strcmp(log.last_print, "function\tfunction\tfunction") == 0);
    steer_host_destroy(h);
}

// The memory cap holds for what a script makes the engine allocate too: a
// 20,000-point table turned into paths that the script keeps ends in a clean
// error naming the cap (the engine grew without bound: 3 GB in a second
// frame), while paths made and dropped again and again are collected.
static void test_engine_memory_cap(void)
{
    static const char *script =
        "local steer = require 'steer'\n"
        "local pts, kept = {}, {}\n"
        "for i = 1, 20000 do pts[i] = { i, i %% 2 } end\n"
        "return { update = function(world, dt, input)\n"
        "  for k = 1, %d do\n"
        "    local p = steer.path(pts)\n"
        "    if %s then kept[#kept + 1] = p end\n"
        "  end\n"
        "  print(#kept)\n"
        "end }\n";
    const char *dir = test_dir("engine_cap");
    const char *path = test_path(dir, "main.lua");
    for (int keep = 0; keep <= 1; ++keep) {
        test_log log;
        steer_host_def def = logged_def(&log);
        def.memory_cap = (size_t)12 << 20;
        steer_host *h = steer_host_create(&def);
        char text[1024];
        snprintf(text, sizeof text, script, keep ? 40 : 60, keep ? "true" : "false");
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == 0);
        int failed = 0;
        for (int frame = 0; frame < 4; ++frame) failed += steer_host_update(h, DT, NULL) != 0;
        const char *e = steer_host_last_error(h);
        if (keep) {
            // 40 paths of 20,000 points a frame, kept: over 12 MiB by the
            // second frame, and every frame after fails
            CHECK(failed >= 3);
            CHECK(e != NULL && strstr(e, "not enough memory (the script's memory, Lua and engine together, "
                                         "reached memory_cap: 12582912 bytes)") != NULL);
        } else {
            CHECK(failed == 0 && e == NULL);
            CHECK(strcmp(log.last_print, "0") == 0);
        }
        // the host goes on: the cap is per host, not a dead end
        write_in_place(path, "return { update = function(world) world:spawn{} end }\n");
        CHECK(steer_host_reload(h) == 0);
        CHECK(steer_host_update(h, DT, NULL) == 0);
        steer_host_destroy(h);
    }
}

// An engine allocation that would pass the cap while the script's Lua
// garbage holds the memory collects the garbage first, as Lua does for its
// own allocations: whether it fits depends on what the script holds, not on
// how far the collector had got. (Before: refused. fuzz_host --seed 8: a
// reset's setup refused while recording succeeded in the replay, whose
// collector was elsewhere, and the replay was not identical.)
static void test_engine_allocation_collects_garbage(void)
{
    const char *dir = test_dir("engine_gc");
    const char *path = test_path(dir, "main.lua");
    write_in_place(path, "local steer = require 'steer'\n"
                         "return { update = function(world)\n"
                         "  local junk = {}\n"
                         "  for i = 1, 10000 do junk[i] = ('x'):rep(1000) .. i end\n" // about 10.5 MB
                         "  junk = nil\n"
                         "  local w = steer.world{ capacity = 30000 }\n"                 // about 6 MB at once
                         "  print('made', w:count())\n"
                         "end }\n");
    test_log log;
    steer_host_def def = logged_def(&log);
    def.memory_cap = (size_t)16 << 20;
    steer_host *h = steer_host_create(&def);
    CHECK(steer_host_load(h, path) == 0);
    for (int frame = 0; frame < 3; ++frame) {
        CHECK(steer_host_update(h, DT, NULL) == 0);
        CHECK(steer_host_last_error(h) == NULL);
        CHECK(strcmp(log.last_print, "made\t0") == 0);
    }
    steer_host_destroy(h);
}

// A formation's assignment (O(n^3), in C) counts against the callback's
// budget, refused before it starts: 1,500 members in setup took 3.6 s
// outside any budget, and adding members one at a time with a read after
// each ran one assignment per member (O(n^4)). Members added without reads
// in between cost one assignment, at the step.
static void test_assignment_budget(void)
{
    static const struct {
        const char *setup;
        int64_t budget;
        const char *expect; // NULL: loads and steps
    } cases[] = {
        {"local ms = {} for i = 1, 1500 do ms[i] = world:spawn{ x = i } end\n"
         "steer.formation{ members = ms }",
         10000000, "main.lua:4: instruction budget exceeded in setup (10000000 instructions; a formation's assignment "
                   "here would take 210937500 more)"},
        {"local f = steer.formation{ world = world }\n"
         "for i = 1, 200 do local a = world:spawn{ x = i } f:add(a) assert(f:slot_of(a)) end",
         200000, "instruction budget exceeded in setup"},
        {"local f = steer.formation{ world = world, pattern = 'grid' }\n"
         "for i = 1, 400 do f:add(world:spawn{ x = i }) end",
         10000000, NULL},
    };
    const char *dir = test_dir("assignment_budget");
    const char *path = test_path(dir, "main.lua");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        test_log log;
        steer_host_def def = logged_def(&log);
        def.instruction_budget = cases[i].budget;
        steer_host *h = steer_host_create(&def);
        char text[1024];
        snprintf(text, sizeof text,
                 "local steer = require 'steer'\n"
                 "return { setup = function(world)\n"
                 "  %s\n"
                 "end }\n",
                 cases[i].setup);
        write_in_place(path, text);
        CHECK(steer_host_load(h, path) == (cases[i].expect != NULL ? -1 : 0));
        const char *e = steer_host_last_error(h);
        bool ok = cases[i].expect != NULL ? e != NULL && strstr(e, cases[i].expect) != NULL : e == NULL;
        CHECK(ok);
        if (!ok) fprintf(stderr, "  case %zu got: %s\n", i, e != NULL ? e : "(no error)");
        // the host goes on (the members' assignment runs at the first step)
        CHECK(steer_host_update(h, DT, NULL) == 0);
        steer_host_destroy(h);
    }
}

int main(void)
{
    RUN(test_escapes);
    RUN(test_escapes_at_load);
    RUN(test_behaviour_budget);
    RUN(test_what_is_there);
    RUN(test_metatable_tricks);
    RUN(test_budget_names_callbacks);
    RUN(test_trusted);
    RUN(test_engine_memory_cap);
    RUN(test_engine_allocation_collects_garbage);
    RUN(test_assignment_budget);
    RUN(test_matcher_agrees_with_lua);
    RUN(test_interrupt_without_budget);
    RUN(test_budget_modes);
    RUN(test_budget_within);
    RUN(test_watchdog_disarms);
    RUN(test_runaway_gc_at_close);
    return TEST_RESULT();
}
