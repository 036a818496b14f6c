// tasks.h: the step's loops split across workers (tasks.c): the embedder's
// task callbacks (steer_world_def.enqueue_task, finish_task) or the built-in
// pthreads pool.
#ifndef STEER_TASKS_H
#define STEER_TASKS_H

#include "core.h"

typedef struct task_pool task_pool;

/// What one worker of the built-in pool has done since the pool started:
/// tasks it looked for pieces of, pieces and items it ran, pauses spent
/// spinning while it waited (for a task, or worker 0 for the others'
/// pieces), and times it gave up spinning and slept.
typedef struct task_counts {
    long tasks, pieces, items, spins, sleeps;
} task_counts;

/// Start workers - 1 threads (the calling thread is worker 0); NULL when
/// they could not be started.
task_pool *steer__tasks_pool_create(int workers);
/// Stop and join the threads, free the pool.
void steer__tasks_pool_destroy(task_pool *pool);
/// The built-in pool's task callbacks (user_context is the pool): enqueue
/// wakes the threads, finish runs pieces on the calling thread too, then
/// waits for the threads.
void *steer__tasks_pool_enqueue(steer_task_fn *task, int item_count, int min_range, void *task_context, void *pool);
void steer__tasks_pool_finish(void *user_task, void *pool);
/// The counts of worker 0..workers - 1 (all zero for another index).
void steer__tasks_pool_counts(const task_pool *pool, int worker, task_counts *out);

struct steer_world;
/// Run task over [0, count) on the world's workers and return when every
/// piece has run. Inline on the calling thread (as worker 0) with one
/// worker or fewer than 2 * min_range items. Each piece runs under the
/// mid-step guard of its thread (steer__evaluating).
void steer__tasks_parallel_for(struct steer_world *w, steer_task_fn *task, int count, int min_range, void *context);

#endif
