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
// evaluation, integration): between them a waiting thread spins this many
// times before it sleeps, so handing over a loop costs no system call (on
// a virtual machine a futex wake costs tens of microseconds). 4096 pauses
// are about 85 microseconds on the project's machine (a pause's length
// varies by CPU); a thread that finds nothing to do by then sleeps.
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

struct task_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; ///< a new task, or quit
    pthread_cond_t done; ///< the last thread finished its pieces
    pool_thread *threads;
    int thread_count;
    // the task being run: written under the lock before generation changes
    steer_task_fn *task;
    void *context;
    int count, piece;
    atomic_int next; ///< first item not yet claimed
    /// threads still claiming pieces of this task (changed under the lock,
    /// read without it by the spinning thread calling finish)
    atomic_int running;
    /// bumped (under the lock, release) after a task's fields are written;
    /// a spinning worker that sees it change (acquire) sees the fields
    atomic_uint generation;
    atomic_bool quit;
};

// Claim pieces until none is left. Pieces are claimed in any order by any
// worker: the split decides speed only.
static void run_pieces(task_pool *p, int worker)
{
    for (;;) {
        int start = atomic_fetch_add_explicit(&p->next, p->piece, memory_order_relaxed);
        if (start >= p->count) return;
        int end = p->count - start > p->piece ? start + p->piece : p->count;
        p->task(start, end, worker, p->context);
    }
}

static void *thread_main(void *arg)
{
    pool_thread *t = arg;
    task_pool *p = t->pool;
    unsigned seen = 0;
    for (;;) {
        unsigned g = atomic_load_explicit(&p->generation, memory_order_acquire);
        for (int spins = 0; g == seen && spins < SPIN_LIMIT && !atomic_load(&p->quit); ++spins) {
            spin_pause();
            g = atomic_load_explicit(&p->generation, memory_order_acquire);
        }
        if (g == seen) {
            pthread_mutex_lock(&p->lock);
            while ((g = atomic_load(&p->generation)) == seen && !atomic_load(&p->quit))
                pthread_cond_wait(&p->wake, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load(&p->quit)) break;
        seen = g;
        run_pieces(p, t->worker);
        pthread_mutex_lock(&p->lock);
        // (no system call when the thread calling finish spins rather than waits)
        if (atomic_fetch_sub(&p->running, 1) == 1) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

task_pool *steer__tasks_pool_create(int workers)
{
    task_pool *p = steer__alloc(sizeof *p);
    if (p == NULL) return NULL;
    memset(p, 0, sizeof *p);
    p->threads = steer__alloc(sizeof *p->threads * (size_t)(workers - 1));
    if (p->threads == NULL) {
        steer__free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    atomic_init(&p->running, 0);
    atomic_init(&p->generation, 0);
    atomic_init(&p->quit, false);
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
    const int workers = p->thread_count + 1;
    // about four pieces a worker: a worker slowed by the machine's other
    // load leaves its share to the others
    int piece = (item_count + 4 * workers - 1) / (4 * workers);
    if (piece < min_range) piece = min_range;
    if (piece < 1) piece = 1;
    pthread_mutex_lock(&p->lock);
    p->task = task;
    p->context = task_context;
    p->count = item_count;
    p->piece = piece;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    atomic_store(&p->running, p->thread_count);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    // (no system call when every worker is spinning rather than asleep)
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return p;
}

void steer__tasks_pool_finish(void *user_task, void *pool)
{
    (void)pool;
    task_pool *p = user_task;
    run_pieces(p, 0);
    for (int spins = 0; atomic_load(&p->running) > 0 && spins < SPIN_LIMIT; ++spins) spin_pause();
    if (atomic_load(&p->running) == 0) {
        // the workers' writes happen before their decrement (seq_cst): visible now
        return;
    }
    pthread_mutex_lock(&p->lock);
    while (atomic_load(&p->running) > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
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
