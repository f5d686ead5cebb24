/* The piglit-cl suite tier of the smoke tests (docs/design.md §10): piglit's OpenCL tests through
 * `run --version V` and through `distro`, compared test by test. */
#ifndef TB_SUITE_PIGLIT_H
#define TB_SUITE_PIGLIT_H

#include "base/config.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

struct json_object;

struct suite_request {
	const char *profile; /* "quick" (piglit's quick_cl, the default) or "full" (cl) */
	const char *filter;  /* a regular expression for piglit's -t, or NULL for all */
	const struct tb_progress *progress;
};

struct suite_outcome {
	int tests, regressions;
	int distro_cached;   /* the distribution's side came from the cache */
	char names[512];     /* "a, b, c": the first regressions */
};

/* Runs the suite on both sides (the distribution's side once per distribution Mesa, profile and
 * filter; then from cache/suites/), writes the comparison to smoke/<v>.json's "suites"
 * section and returns it in *result (json_object_put it; may be NULL). TB_OK when both sides
 * ran: look at out->regressions. */
int suite_piglit_run(struct store *s, const char *version, const struct suite_request *r,
		     struct suite_outcome *out, struct json_object **result, struct tb_error *e);

/* The suite mesa.conf asks for after every install (smoke_suite, smoke_suite_profile,
 * smoke_suite_filter): TB_OK when none is asked for or it has no regression; TB_ESMOKE with
 * reason suite-regression naming them; another code when it could not run. */
int suite_after_install(struct store *s, const char *version, const struct config *cfg,
			const struct tb_progress *p, struct tb_error *e);

/* The verdict of smoke/<v>.json's suites: "none", "pass" or "regressions". */
const char *suite_last_result(const struct store *s, const char *version);

#endif
