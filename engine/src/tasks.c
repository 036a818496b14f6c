// tasks.c: the built-in worker pool and the one way the step runs a loop on
// its workers. Results never depend on how a loop is split: every piece
// writes only its own items, from start-of-step data.
#include "tasks.h"
#include "world.h"

#include <pthread.h>
#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// A step runs its loops back to back (grid keys, bucket sorts, proxies,
// flags, evaluation, integration): between them a waiting thread spins this
// many times before it sleeps, so handing over a loop costs no system call
// (on a virtual machine a futex wake costs tens of microseconds). 4096
// pauses are about 85 microseconds on the project's machine (a pause's
// length varies by CPU); a thread that finds nothing to do by then sleeps.
enum { SPIN_LIMIT = 1 << 12 };

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

typedef struct pool_thread {
    task_pool *pool;
    int worker; ///< 1..thread_count: worker 0 is the thread calling finish
    pthread_t thread;
} pool_thread;

/// What one worker did (steer__tasks_pool_counts; a sleep is counted as
/// the worker goes to sleep): written by that worker
/// only, read by anyone (relaxed atomics: figures, not synchronisation).
typedef struct worker_counts {
    atomic_long tasks; ///< tasks it looked for pieces of
    atomic_long pieces, items, spins, sleeps;
    /// (a cache line each worker: the pool is allocated without an
    /// alignment above malloc's, so padding rather than _Alignas)
    char pad[64 - 5 * sizeof(atomic_long) % 64];
} worker_counts;

/// The claim word: the task's generation in the high 32 bits, the first
/// item not yet claimed in the low 32.
#define CLAIM_GENERATION(v) ((unsigned)((v) >> 32))
#define CLAIM_NEXT(v) ((int)(uint32_t)(v))
/// The next item while enqueue writes a task's fields: past any count, so
/// no claim is made from it. Without it a worker late for the task before
/// could read the new count beside the old, exhausted claim word and claim
/// an item of the new task under the old generation.
#define CLAIM_CLOSED 0x7fffffff

struct task_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; ///< a new task, or quit
    pthread_cond_t done; ///< the last item of the task ran
    pool_thread *threads;
    int thread_count;
    // The task being run: written by enqueue between closing the claim word
    // (the new generation, CLAIM_CLOSED) and opening it (release). A worker
    // reads task and context only under a claim of that generation, which
    // finish waits for: they cannot change meanwhile. count and min_range
    // size a claim before it is made (a late worker may read the next
    // task's: release and acquire, so that one that does sees the claim
    // word closed and its claim fails), hence atomics.
    steer_task_fn *task;
    void *context;
    atomic_int count, min_range;
    char pad0[64];
    atomic_ullong claim;
    char pad1[64];
    /// items of the current task that have run (finish waits for count)
    atomic_int finished;
    /// threads asleep on `wake` (enqueue broadcasts only when some are)
    atomic_int sleepers;
    atomic_bool quit;
    char pad2[64];
    worker_counts counts[STEER_MAX_WORKERS];
};

static void count_add(atomic_long *c, long n)
{
    // one writer: no locked instruction needed
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

// Claim pieces of task `generation` until none is left, and run them. A
// piece is a share of what is left (guided self-scheduling: large pieces
// first, min_range ones at the end, so a worker slowed by the machine's
// other load holds up little), claimed in any order by any worker: the
// split decides speed only. A worker that comes late (the task done, or a
// newer one published) claims nothing: the claim word's generation differs
// or no item is left, and finish never waits for it.
static void run_pieces(task_pool *p, int worker, unsigned generation)
{
    worker_counts *c = &p->counts[worker];
    const int split = 2 * (p->thread_count + 1);
    unsigned long long v = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        if (CLAIM_GENERATION(v) != generation) break;
        const int next = CLAIM_NEXT(v), count = atomic_load_explicit(&p->count, memory_order_acquire);
        if (next >= count) break;
        int size = (count - next) / split;
        const int least = atomic_load_explicit(&p->min_range, memory_order_acquire);
        if (size < least) size = least;
        if (size > count - next) size = count - next;
        // (acq_rel: a claim passes on what the claims before it acquired,
        // the task's fields among them, as well as reading them)
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + (unsigned long long)size, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue; // v holds the word now
        p->task(next, next + size, worker, p->context);
        // counted before the items are: finish returns with the counts true
        count_add(&c->pieces, 1);
        count_add(&c->items, size);
        // (the piece's writes happen before its count: finish sees both)
        if (atomic_fetch_add_explicit(&p->finished, size, memory_order_acq_rel) + size == count) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
        v = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
    count_add(&c->tasks, 1);
}

// A task newer than the one seen, its fields written.
static bool task_open(unsigned long long v, unsigned seen)
{
    return CLAIM_GENERATION(v) != seen && CLAIM_NEXT(v) != CLAIM_CLOSED;
}

static void *thread_main(void *arg)
{
    pool_thread *t = arg;
    task_pool *p = t->pool;
    worker_counts *c = &p->counts[t->worker];
    unsigned seen = 0;
    for (;;) {
        unsigned long long v = atomic_load_explicit(&p->claim, memory_order_acquire);
        int spins = 0;
        for (; !task_open(v, seen) && spins < SPIN_LIMIT && !atomic_load(&p->quit); ++spins) {
            spin_pause();
            v = atomic_load_explicit(&p->claim, memory_order_acquire);
        }
        count_add(&c->spins, spins);
        if (!task_open(v, seen) && !atomic_load(&p->quit)) {
            // counted as asleep before the last look at the claim word: an
            // enqueue either published before that look, or sees the count
            // and wakes this thread (both sides sequentially consistent)
            pthread_mutex_lock(&p->lock);
            atomic_fetch_add(&p->sleepers, 1);
            count_add(&c->sleeps, 1);
            while (!task_open(v = atomic_load(&p->claim), seen) && !atomic_load(&p->quit))
                pthread_cond_wait(&p->wake, &p->lock);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load(&p->quit)) break;
        seen = CLAIM_GENERATION(v);
        run_pieces(p, t->worker, seen);
    }
    return NULL;
}

task_pool *steer__tasks_pool_create(int workers)
{
    if (workers < 1 || workers > STEER_MAX_WORKERS) return NULL;
    task_pool *p = steer__alloc(sizeof *p);
    if (p == NULL) return NULL;
    memset(p, 0, sizeof *p);
    p->threads = steer__alloc(sizeof *p->threads * (size_t)(workers > 1 ? workers - 1 : 1));
    if (p->threads == NULL) {
        steer__free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->count, 0);
    atomic_init(&p->min_range, 1);
    atomic_init(&p->claim, 0);
    atomic_init(&p->finished, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->quit, false);
    for (int k = 0; k < STEER_MAX_WORKERS; ++k) {
        worker_counts *c = &p->counts[k];
        atomic_init(&c->tasks, 0);
        atomic_init(&c->pieces, 0);
        atomic_init(&c->items, 0);
        atomic_init(&c->spins, 0);
        atomic_init(&c->sleeps, 0);
    }
    for (int i = 0; i < workers - 1; ++i) {
        p->threads[i] = (pool_thread){p, i + 1, 0};
        if (pthread_create(&p->threads[i].thread, NULL, thread_main, &p->threads[i]) != 0) {
            steer__tasks_pool_destroy(p); // stops the ones started
            return NULL;
        }
        ++p->thread_count;
    }
    return p;
}

void steer__tasks_pool_destroy(task_pool *p)
{
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->thread_count; ++i) pthread_join(p->threads[i].thread, NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    steer__free(p->threads);
    steer__free(p);
}

void *steer__tasks_pool_enqueue(steer_task_fn *task, int item_count, int min_range, void *task_context, void *pool)
{
    task_pool *p = pool;
    // only this thread (the one calling finish) writes the claim word's
    // generation, and no piece of the task before is still running
    const unsigned generation = CLAIM_GENERATION(atomic_load_explicit(&p->claim, memory_order_relaxed)) + 1;
    // closed first: a worker still looking at the task before claims
    // nothing once it can see any of the fields below
    atomic_store(&p->claim, (unsigned long long)generation << 32 | CLAIM_CLOSED);
    p->task = task;
    p->context = task_context;
    atomic_store_explicit(&p->count, item_count > 0 ? item_count : 0, memory_order_release);
    atomic_store_explicit(&p->min_range, min_range > 1 ? min_range : 1, memory_order_release);
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    atomic_store(&p->claim, (unsigned long long)generation << 32); // opens it: publishes the fields above
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    return p;
}

void steer__tasks_pool_finish(void *user_task, void *pool)
{
    (void)pool;
    task_pool *p = user_task;
    worker_counts *c = &p->counts[0];
    run_pieces(p, 0, CLAIM_GENERATION(atomic_load_explicit(&p->claim, memory_order_relaxed)));
    // wait for the pieces other workers still run, not for the workers: one
    // asleep or descheduled that claimed nothing holds up nothing
    const int count = atomic_load_explicit(&p->count, memory_order_relaxed);
    int spins = 0;
    for (; atomic_load_explicit(&p->finished, memory_order_acquire) < count && spins < SPIN_LIMIT; ++spins)
        spin_pause();
    count_add(&c->spins, spins);
    if (atomic_load_explicit(&p->finished, memory_order_acquire) >= count) return; // their writes are visible now
    count_add(&c->sleeps, 1);
    pthread_mutex_lock(&p->lock);
    while (atomic_load(&p->finished) < count) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void steer__tasks_pool_counts(const task_pool *p, int worker, task_counts *out)
{
    memset(out, 0, sizeof *out);
    if (p == NULL || worker < 0 || worker > p->thread_count) return;
    const worker_counts *c = &p->counts[worker];
    out->tasks = atomic_load_explicit(&c->tasks, memory_order_relaxed);
    out->pieces = atomic_load_explicit(&c->pieces, memory_order_relaxed);
    out->items = atomic_load_explicit(&c->items, memory_order_relaxed);
    out->spins = atomic_load_explicit(&c->spins, memory_order_relaxed);
    out->sleeps = atomic_load_explicit(&c->sleeps, memory_order_relaxed);
}

/* ---- the step's loops ------------------------------------------------------------ */

typedef struct guarded_task {
    steer_task_fn *task;
    void *context;
} guarded_task;

// On every worker thread, a piece runs as the step does on its own thread:
// behaviours and paths may not change meanwhile (the mid-step guard).
static void run_guarded(int start, int end, int worker, void *context)
{
    const guarded_task *g = context;
    ++steer__evaluating;
    g->task(start, end, worker, g->context);
    --steer__evaluating;
}

void steer__tasks_parallel_for(steer_world *w, steer_task_fn *task, int count, int min_range, void *context)
{
    if (count <= 0) return;
    if (w->def.worker_count <= 1 || count < 2 * min_range) {
        task(0, count, 0, context);
        return;
    }
    guarded_task g = {task, context};
    void *handle = w->def.enqueue_task(run_guarded, count, min_range, &g, w->def.user_task_context);
    if (handle != NULL) w->def.finish_task(handle, w->def.user_task_context);
}
