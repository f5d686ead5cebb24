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

/* Runs argv in cwd (NULL: here), hands its stdout to line one line at a time, keeps the end
 * of its stderr in tail; *status is the wait status. timeout: seconds before the whole
 * process group is killed (0: none), *timed_out says so. TB_OK when it ran. */
int side_run(char *const argv[], const char *cwd, int timeout, side_line_fn line, void *ctx,
	     int *status, int *timed_out, struct child_tail *tail, struct tb_error *e);

#endif
