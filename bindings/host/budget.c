// budget.c: the instruction budget. Its count hook adds up the Lua
// instructions of a callback (every HOOK_STEP) and raises past the budget;
// in the exact mode (STEER_HOST_BUDGET_EXACT) it is on from the start.
//
// The default mode (STEER_HOST_BUDGET_WATCHDOG): Lua 5.4 sends every
// instruction through its hook check while any count hook is set, whatever
// the count, so a hook on every callback doubles the cost of pure-Lua code. Here the count hook is off while a
// callback runs, and a thread of the host's, woken every time slice, asks
// for it when the same callback is still running at two wakes in a row:
// it sends WATCHDOG_SIGNAL to the host's thread, whose handler arms the
// count hook on the Lua thread (main state or coroutine) running now, as
// lua.c's Ctrl-C handler does (lua_sethook may be called asynchronously,
// from a signal handler; never from another thread: in Lua 5.4 it walks
// the running thread's call list). From then on the callback's
// instructions count against its budget as in the exact mode; the end of
// the callback disarms it.
//
// What the two threads share: `seq` (odd while a callback runs; written by
// the host's thread) and `request` (the callback the watchdog asks to arm;
// written by the watchdog); `armed` and `current` belong to the host's
// thread and its signal handler. The handler arms only when the request
// names the callback running now, so a late signal never arms another one.
#define _GNU_SOURCE
#include "host_internal.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lualib.h>

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the watchdog's counters must be lock-free (read in a signal handler)");

// The host whose callback runs on this thread now (set at a callback's
// start, cleared at its end): what the signal handler arms.
static _Thread_local steer_host *running_host;

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static struct sigaction previous_action;
static bool handler_installed;

// Instructions between two calls of the count hook while under budget.
#define HOOK_STEP 1000

/* ---- the count hook ---------------------------------------------------------------------- */

static void budget_hook(lua_State *L, lua_Debug *ar);

void steer_host__budget_arm(lua_State *L) { lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP); }

void steer_host__budget_arm_now(lua_State *L) { lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1); }

bool steer_host__budget_hooked(lua_State *L) { return lua_gethook(L) == budget_hook; }

int steer_host__budget_exceeded(lua_State *L, steer_host *h, int level, const char *extra)
{
    // (the watchdog mode takes the hook off at the callback's end)
    h->watchdog.armed = 1;
    if (lua_gethookcount(L) != 1) lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    lua_Debug where;
    if (lua_getstack(L, level, &where) && lua_getinfo(L, "Sl", &where) && where.currentline > 0)
        lua_pushfstring(L, "%s:%d: ", where.short_src, where.currentline);
    else
        lua_pushliteral(L, "");
    lua_pushfstring(L, "instruction budget exceeded in %s (%I instructions%s)", h->scope,
                    (LUAI_UACINT)h->def.instruction_budget, extra);
    lua_concat(L, 2);
    return lua_error(L);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    steer_host *h = steer_host__of(L);
    int count = lua_gethookcount(L);
    if (h->scope == NULL || h->def.instruction_budget <= 0) return;
    h->used += count;
    if (h->used > h->def.instruction_budget) {
        // where: the running function (level 0 inside a hook), not its caller
        steer_host__budget_exceeded(L, h, 0, "");
    } else if (count != HOOK_STEP) {
        // a thread left at 1 by an earlier callback's overrun
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
    }
}

void steer_host__budget_begin(steer_host *host, const char *scope)
{
    host->scope = scope;
    host->used = 0;
    if (host->def.budget_mode == STEER_HOST_BUDGET_WATCHDOG && host->def.instruction_budget > 0)
        steer_host__watchdog_begin(host);
}

void steer_host__budget_end(steer_host *host)
{
    host->scope = NULL;
    if (host->def.budget_mode == STEER_HOST_BUDGET_WATCHDOG && host->def.instruction_budget > 0)
        steer_host__watchdog_end(host);
}

void steer_host__budget_closing(steer_host *host)
{
    if (host->def.instruction_budget <= 0) return;
    host->scope = "closing the state";
    host->used = 0;
    host->watchdog.armed = 1;
    steer_host__budget_arm(host->L);
}

/* ---- on the host's thread -------------------------------------------------------------------- */

// The handler: arm the count hook of the callback running now, when the
// watchdog asked for it; any other delivery of the signal goes to the
// handler that was there before.
static void on_signal(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    steer_host *h = running_host;
    bool ours = false;
    if (h != NULL) {
        uint64_t seq = atomic_load(&h->watchdog.seq);
        uint64_t asked = atomic_load(&h->watchdog.request);
        ours = asked != h->watchdog.answered;
        h->watchdog.answered = asked;
        if (ours && (seq & 1) && asked == seq && !h->watchdog.armed) {
            h->watchdog.armed = 1;
            steer_host__budget_arm(h->watchdog.current);
        }
    }
    if (!ours) {
        if ((previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_sigaction != NULL)
            previous_action.sa_sigaction(sig, info, context);
        else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN &&
                 previous_action.sa_handler != NULL)
            previous_action.sa_handler(sig);
    }
    errno = saved_errno;
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    handler_installed = sigaction(WATCHDOG_SIGNAL, &sa, &previous_action) == 0;
}

// Whether the hook at L is the budget's (not an interrupt's, not a trusted
// script's own debug.sethook).
static void disarm(lua_State *L)
{
    if (steer_host__budget_hooked(L)) lua_sethook(L, NULL, 0, 0);
}

lua_State *steer_host__watchdog_enter(steer_host *h, lua_State *co)
{
    lua_State *was = h->watchdog.current;
    h->watchdog.current = co;
    if (h->def.instruction_budget <= 0) return was;
    if (h->scope != NULL && h->used > h->def.instruction_budget) {
        // over budget (in the coroutine that returns): raise at once here
        // too, as in the thread that went over, so that resume cannot
        // swallow the error
        h->watchdog.armed = 1;
        steer_host__budget_arm_now(co);
        return was;
    }
    if (h->def.budget_mode != STEER_HOST_BUDGET_WATCHDOG) return was;
    // (the handler may run between any two lines: it arms `current`, now co)
    if (!h->watchdog.armed && steer_host__budget_hooked(co)) {
        // armed in an earlier callback (or inherited from an armed creator)
        lua_sethook(co, NULL, 0, 0);
    }
    if (h->watchdog.armed && !steer_host__budget_hooked(co)) steer_host__budget_arm(co);
    return was;
}

/* ---- the watchdog thread ------------------------------------------------------------------------ */

static void *watchdog_main(void *arg)
{
    steer_host *h = arg;
    host_watchdog *w = &h->watchdog;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        int64_t ns = (int64_t)until.tv_nsec + (int64_t)h->def.watchdog_slice_us * 1000;
        until.tv_sec += (time_t)(ns / 1000000000);
        until.tv_nsec = (long)(ns % 1000000000);
        while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) != ETIMEDOUT) {
        }
        if (w->stop) break;
        uint64_t seq = atomic_load(&w->seq);
        // the same callback at two wakes: it has run for one slice at least
        if ((seq & 1) && seq == seen && atomic_load(&w->request) != seq) {
            atomic_store(&w->request, seq);
            pthread_kill(w->target, WATCHDOG_SIGNAL);
        }
        seen = seq;
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

void steer_host__watchdog_stop(steer_host *h)
{
    host_watchdog *w = &h->watchdog;
    if (running_host == h) running_host = NULL;
    if (!w->running) return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    w->running = false;
}

// Start the watchdog for callbacks on this thread; false when it cannot run.
static bool watchdog_start(steer_host *h)
{
    host_watchdog *w = &h->watchdog;
    pthread_once(&handler_once, install_handler);
    if (!handler_installed) return false;
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return false;
    bool ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&w->wake, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok) return false;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        pthread_cond_destroy(&w->wake);
        return false;
    }
    w->stop = false;
    w->target = pthread_self();
    // the watchdog takes no signal: a process's SIGINT goes to the embedder's threads
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ok = pthread_create(&w->thread, NULL, watchdog_main, h) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!ok) {
        pthread_mutex_destroy(&w->lock);
        pthread_cond_destroy(&w->wake);
        return false;
    }
    w->running = true;
    return true;
}

/* ---- callbacks ------------------------------------------------------------------------------------ */

void steer_host__watchdog_end(steer_host *h)
{
    host_watchdog *w = &h->watchdog;
    uint64_t seq = atomic_load_explicit(&w->seq, memory_order_relaxed);
    if (seq & 1) atomic_store(&w->seq, seq + 1);
    // (a signal from here on finds seq even: ignored)
    if (w->armed) {
        w->armed = 0;
        disarm(h->L);
    }
    running_host = NULL;
}

void steer_host__watchdog_begin(steer_host *h)
{
    host_watchdog *w = &h->watchdog;
    steer_host__watchdog_end(h);
    if (h->def.watchdog_slice_us == 0) {
        // no slice: counted from the first instruction (tests; as exact)
        w->armed = 1;
        steer_host__budget_arm(w->current);
        return;
    }
    if (w->running && !pthread_equal(w->target, pthread_self())) steer_host__watchdog_stop(h);
    if (!w->running && !watchdog_start(h)) {
        // no thread or no signal: the exact mode from now on, said once
        h->def.budget_mode = STEER_HOST_BUDGET_EXACT;
        steer_host__log(h, STEER_HOST_LOG_WARNING,
                        "the budget's watchdog cannot start (thread or signal): counting every instruction");
        steer_host__budget_arm(h->L);
        return;
    }
    running_host = h;
    atomic_store(&w->seq, atomic_load_explicit(&w->seq, memory_order_relaxed) + 1);
}

/* ---- coroutines ------------------------------------------------------------------------------------ */

// coroutine.resume and coroutine.wrap as Lua 5.4's, also keeping
// `current`, the Lua thread running now, for the handler (and arming or
// disarming the thread resumed, so a coroutine created or armed in another
// callback counts exactly when this one is armed). In both modes, so that
// errors read the same.

// Resume co with the narg values at the top of L: the count of values
// moved to L, or -1 with the error at the top of L.
static int resume(lua_State *L, lua_State *co, int narg)
{
    steer_host *h = steer_host__of(L);
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    lua_State *was = steer_host__watchdog_enter(h, co);
    int nres = 0;
    int status = lua_resume(co, L, narg, &nres);
    steer_host__watchdog_enter(h, was);
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_xmove(co, L, 1);
        return -1;
    }
    if (!lua_checkstack(L, nres + 1)) {
        lua_pop(co, nres);
        lua_pushliteral(L, "too many results to resume");
        return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
}

// Close co's pending to-be-closed variables (their __close run in co).
static int close_thread(lua_State *L, lua_State *co)
{
    steer_host *h = steer_host__of(L);
    lua_State *was = steer_host__watchdog_enter(h, co);
#if LUA_VERSION_RELEASE_NUM >= 50406
    int status = lua_closethread(co, L);
#else
    int status = lua_resetthread(co);
#endif
    steer_host__watchdog_enter(h, was);
    return status;
}

static int co_resume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    int n = resume(L, co, lua_gettop(L) - 1);
    lua_pushboolean(L, n >= 0);
    lua_insert(L, n >= 0 ? -(n + 1) : -2);
    return n >= 0 ? n + 1 : 2;
}

// The function coroutine.wrap returns (upvalue: the coroutine).
static int co_wrapped(lua_State *L)
{
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int n = resume(L, co, lua_gettop(L));
    if (n >= 0) return n;
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        // an error in the coroutine: close its to-be-closed variables
        status = close_thread(L, co);
        lua_xmove(co, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

// coroutine.close(co): a suspended or dead coroutine closed here, its
// __close handlers counted as the coroutine's.
static int co_close(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    lua_Debug ar;
    int status = lua_status(co);
    if (co == L || (status == LUA_OK && lua_getstack(co, 0, &ar)))
        return luaL_error(L, "cannot close a %s coroutine", co == L ? "running" : "normal");
    status = close_thread(L, co);
    if (status == LUA_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_xmove(co, L, 1);
    return 2;
}

static int co_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, co_wrapped, 1);
    return 1;
}

void steer_host__watchdog_open(lua_State *L)
{
    steer_host__of(L)->watchdog.current = L;
    static const luaL_Reg coroutine_functions[] = {
        {"resume", co_resume},
        {"wrap", co_wrap},
        {"close", co_close},
        {NULL, NULL},
    };
    lua_getglobal(L, LUA_COLIBNAME);
    luaL_setfuncs(L, coroutine_functions, 0);
    lua_pop(L, 1);
}
