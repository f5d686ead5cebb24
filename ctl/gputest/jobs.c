/* Worker threads over a queue of pieces: each worker runs its children under the one
 * supervisor (gputest/child.c), so time limits and signals work as for a single child. */
#include "gputest/jobs.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "gputest/child.h"

int jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

struct queue {
	pthread_mutex_t lock;
	size_t next, n;
	int failed;
	int (*piece)(void *ctx, size_t i, int worker, struct tb_error *e);
	void *ctx;
	int *rcs;               /* by piece */
	struct tb_error *errors; /* by piece */
};

struct worker {
	struct queue *q;
	int index;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct queue *q = w->q;
	for (;;) {
		pthread_mutex_lock(&q->lock);
		size_t i = q->failed ? q->n : q->next++;
		pthread_mutex_unlock(&q->lock);
		if (i >= q->n)
			return NULL;
		int rc = q->piece(q->ctx, i, w->index, &q->errors[i]);
		q->rcs[i] = rc;
		if (rc) {
			pthread_mutex_lock(&q->lock);
			q->failed = 1;
			pthread_mutex_unlock(&q->lock);
		}
	}
}

int jobs_run(size_t n, int jobs, int (*piece)(void *ctx, size_t i, int worker, struct tb_error *e),
	     void *ctx, struct tb_error *e)
{
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > n)
		jobs = n ? (int)n : 1;
	struct queue q = {.n = n, .piece = piece, .ctx = ctx, .rcs = xcalloc(n + 1, sizeof *q.rcs),
			  .errors = xcalloc(n + 1, sizeof *q.errors)};
	pthread_mutex_init(&q.lock, NULL);
	struct worker *ws = xcalloc((size_t)jobs, sizeof *ws);
	pthread_t *threads = xcalloc((size_t)jobs, sizeof *threads);
	int started = 0;
	/* One worker is this thread: a run of one job has no thread at all. */
	for (int k = 1; k < jobs; k++) {
		ws[k] = (struct worker){&q, k};
		if (pthread_create(&threads[k], NULL, work, &ws[k]) != 0)
			break;
		started = k;
	}
	ws[0] = (struct worker){&q, 0};
	work(&ws[0]);
	/* The others' children may still run: a signal now is theirs to see (their polls
	 * unblock it), and must not end us before their groups are gone. */
	sigset_t old;
	child_block_interrupts(&old);
	for (int k = 1; k <= started; k++)
		pthread_join(threads[k], NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	int rc = TB_OK;
	for (size_t i = 0; i < n && !rc; i++)
		if (q.rcs[i]) {
			rc = q.rcs[i];
			if (e && !e->code)
				*e = q.errors[i];
		}
	pthread_mutex_destroy(&q.lock);
	free(q.rcs);
	free(q.errors);
	free(ws);
	free(threads);
	return rc;
}

/* ---- progress under a lock ---- */

#define LOCKED(lp) ((struct locked_progress *)(lp))
#define WITH_LOCK(ctx, call)                                                                   \
	do {                                                                                   \
		struct locked_progress *lp_ = (ctx);                                           \
		pthread_mutex_lock(lp_->lock);                                                  \
		call;                                                                          \
		pthread_mutex_unlock(lp_->lock);                                                \
	} while (0)

static void locked_test(void *ctx, const char *name, const char *status)
{
	WITH_LOCK(ctx, progress_test(LOCKED(ctx)->to, name, status));
}

/* Under the lock: whether done moves name's count on (and records it). */
static int count_moves(struct locked_progress *lp, const char *name, uint64_t done)
{
	for (int i = 0; i < LOCKED_PROGRESS_NAMES; i++) {
		if (!lp->last[i].name[0])
			snprintf(lp->last[i].name, sizeof lp->last[i].name, "%s", name);
		else if (strncmp(lp->last[i].name, name, sizeof lp->last[i].name - 1))
			continue;
		if (done <= lp->last[i].done)
			return 0; /* overtaken by another worker's count, or no move */
		lp->last[i].done = done;
		return 1;
	}
	return 1; /* more names than kept: passed on as they come */
}

static void locked_count(void *ctx, const char *op, const char *name, uint64_t done, uint64_t total)
{
	WITH_LOCK(ctx, if (count_moves(lp_, name, done)) progress_count(LOCKED(ctx)->to, op, name, done, total));
}

void locked_progress_init(struct locked_progress *lp, const struct tb_progress *to)
{
	memset(lp, 0, sizeof *lp);
	lp->to = to;
	lp->lock = xmalloc(sizeof(pthread_mutex_t));
	pthread_mutex_init(lp->lock, NULL);
	lp->p = (struct tb_progress){.test = locked_test, .count = locked_count, .ctx = lp};
}

void locked_progress_free(struct locked_progress *lp)
{
	if (!lp->lock)
		return;
	pthread_mutex_destroy(lp->lock);
	free(lp->lock);
	lp->lock = NULL;
}
