/* Running a dEQP binary (dEQP-VK, dEQP-GLES2, dEQP-GLES3, dEQP-EGL) over a case list and counting
 * its QPA log (docs/design.md §7, optional part of `smoke`). */
#ifndef TB_DEQP_H
#define TB_DEQP_H

#include <stddef.h>

#include "base/error.h"
#include "base/progress.h"
#include "gputest/deqp_cases.h"
#include "gputest/qpa.h"

struct deqp_request {
	char *const *prefix;  /* run through this (the launcher …run --version V), or NULL */
	const struct deqp_kind *kind; /* its module; NULL: the module of the list's first case */
	const char *deqp;     /* the binary; it runs in its own directory with the module's options */
	const char *caselist; /* one case name a line */
	const char *workdir;  /* an empty private directory for the logs */
	int case_timeout;     /* seconds one case may take before the run is killed */
	double deadline;      /* now_seconds() at which the whole run stops (a budget); 0: none */
	int *out_of_budget;   /* set when the deadline stopped it: the cases left did not run */
	const struct tb_progress *progress;
};

/* Runs the case list, restarting after the case that crashed or hung, and collects every
 * case into q (qpa_parser_init'd by the caller). TB_OK when it ran; an error when dEQP could
 * not be started at all. A process that logs far more cases than the list has is stopped
 * there (what it logged beyond the list is no result). When the deadline passes, the
 * running process is stopped, *out_of_budget set and the open case dropped: q has the cases
 * that finished. */
int deqp_run(const struct deqp_request *r, struct qpa_parser *q, struct tb_error *e);

#endif
