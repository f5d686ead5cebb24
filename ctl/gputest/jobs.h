/* Independent pieces of a suite run on several cores (docs/design.md §10): a fixed number of
 * workers take the next piece until none is left or one fails. */
#ifndef TB_JOBS_H
#define TB_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/progress.h"

/* The workers a suite runs when none are asked for: the cores this process may use, at
 * least 1 and at most JOBS_MAX. */
#define JOBS_MAX 64
int jobs_default(void);

/* Runs piece(ctx, i, worker, e) for i in [0, n) on `jobs` workers (worker in [0, jobs)),
 * each piece once, in any order; the pieces must not share state but through what they
 * lock. Once a piece fails no new one starts; the first failure (by piece index) is copied
 * into e and returned. SIGTERM, SIGINT and SIGHUP reach the workers' children as they do a
 * single child's (gputest/child.h): the caller's thread keeps them blocked while it waits. */
int jobs_run(size_t n, int jobs, int (*piece)(void *ctx, size_t i, int worker, struct tb_error *e),
	     void *ctx, struct tb_error *e);

/* A tb_progress that forwards a suite's events (test and count) to another under a lock, for
 * pieces that report from several workers at once. A count is passed on only when it moves
 * its name's count forward: one that another worker's overtook is dropped. */
#define LOCKED_PROGRESS_NAMES 8
struct locked_progress {
	struct tb_progress p;
	const struct tb_progress *to;
	void *lock; /* a pthread_mutex_t */
	struct {
		char name[64];
		uint64_t done;
	} last[LOCKED_PROGRESS_NAMES]; /* the last count passed on, by name */
};
void locked_progress_init(struct locked_progress *lp, const struct tb_progress *to);
void locked_progress_free(struct locked_progress *lp);

#endif
