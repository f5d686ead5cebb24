/* How the engine reports progress without knowing where it goes (terminal bar, JSON lines,
 * nothing): the command line supplies the callbacks. */
#ifndef TB_PROGRESS_H
#define TB_PROGRESS_H

#include <stdint.h>

struct tb_progress {
	/* op: "download", "unpack", "verify"; total 0 when unknown. */
	void (*bytes)(void *ctx, const char *op, const char *file, uint64_t done, uint64_t total);
	/* A smoke test finished (status pass/fail/skip) or started (status "run"). */
	void (*test)(void *ctx, const char *name, const char *status);
	/* The operation on file is complete. */
	void (*done)(void *ctx, const char *op, const char *file);
	void *ctx;
	/* A new step of the command began (a state name of docs/design.md §9: "downloading",
	 * "smoke-testing", …); percent is the whole command's. */
	void (*step)(void *ctx, const char *step, int percent);
	/* A long run of like items moved on: done of total (op "suite": a suite's tests on one
	 * side, name "piglit-cl:store"); total 0 when unknown. */
	void (*count)(void *ctx, const char *op, const char *name, uint64_t done, uint64_t total);
	/* The command waits (--wait) for another process: what for, a sentence, said once. */
	void (*wait)(void *ctx, const char *sentence);
};

/* Null-safe calls, so engine code can pass a NULL progress. */
void progress_bytes(const struct tb_progress *p, const char *op, const char *file,
		    uint64_t done, uint64_t total);
void progress_test(const struct tb_progress *p, const char *name, const char *status);
void progress_done(const struct tb_progress *p, const char *op, const char *file);
void progress_step(const struct tb_progress *p, const char *step);
void progress_wait(const struct tb_progress *p, const char *sentence);
void progress_count(const struct tb_progress *p, const char *op, const char *name,
		    uint64_t done, uint64_t total);

#endif
