/* The two sides of a comparison (docs/design.md §10): a version's build from the store, run
 * through `tb323fu-mesa run --version V`, and the distribution's Mesa, run through
 * `tb323fu-mesa distro`. */
#ifndef TB_SIDE_H
#define TB_SIDE_H

#include "child.h"
#include "smoke_run.h"
#include "store.h"

enum side { SIDE_STORE, SIDE_DISTRO };

/* "store" or "distribution": the key of a side in results. */
const char *side_name(enum side side);

/* The command line that runs cmd on one side, with the variables in env ("KEY=VALUE", NULL
 * terminated, may be NULL) set for cmd. The distribution's side gets RUSTICL_ENABLE=
 * rusticl_enable too: `distro` clears it, and the distribution's rusticl offers no device
 * without it (NULL: not set). Free with smoke_free_argv. */
char **side_argv(const struct store *s, const char *version, enum side side,
		 const char *rusticl_enable, char *const env[], char *const cmd[],
		 struct tb_error *e);

/* Called with each line the command writes to stdout (without the newline). */
typedef void (*side_line_fn)(void *ctx, const char *line);

/* What runs on a side, for its time limit: seconds a run may take before its whole process
 * group is stopped, $TB323FU_MESA_BENCH_TIMEOUT or $TB323FU_MESA_PIGLIT_TIMEOUT, else
 * SIDE_BENCH_SECONDS or SIDE_PIGLIT_SECONDS (docs/design.md §10). */
enum side_job { SIDE_JOB_BENCH, SIDE_JOB_PIGLIT };
#define SIDE_BENCH_SECONDS (30 * 60)
#define SIDE_PIGLIT_SECONDS (6 * 60 * 60)
int side_time_limit(enum side_job job);

/* Runs argv in cwd (NULL: here), hands its stdout to line one line at a time, keeps the end
 * of its stderr in tail; *status is the wait status. The child's group is stopped (SIGTERM,
 * then SIGKILL) after job's time limit, which fails (*timed_out says so), or on SIGTERM,
 * SIGINT or SIGHUP to us, which fails with reason interrupted. TB_OK when it ran to its end. */
int side_run(char *const argv[], const char *cwd, enum side_job job, side_line_fn line,
	     void *ctx, int *status, int *timed_out, struct child_tail *tail, struct tb_error *e);

#endif
