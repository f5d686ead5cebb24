/* The piglit-cl suite tier of the smoke tests (docs/design.md §10): piglit's OpenCL tests through
 * `run --version V` and through `distro`, compared test by test. */
#ifndef TB_SUITE_PIGLIT_H
#define TB_SUITE_PIGLIT_H

#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"
#include "gputest/suite.h"

struct json_object;

struct suite_request {
	const char *profile; /* "quick" (piglit's quick_cl, the default) or "full" (cl) */
	const char *filter;  /* a regular expression for piglit's -t, or NULL for all */
	const struct tb_progress *progress;
};

/* Runs the suite on both sides (the distribution's side once per distribution Mesa, profile and
 * filter; then from cache/suites/), writes the comparison to smoke/<v>.json's "suites"
 * section and returns it in *result (json_object_put it; may be NULL). TB_OK when both sides
 * ran: look at out->regressions. The registry's entry is piglit_cl_suite (gputest/suite.h). */
int suite_piglit_run(struct store *s, const char *version, const struct suite_request *r,
		     struct suite_outcome *out, struct json_object **result, struct tb_error *e);

#endif
