/* OpenCL-CTS on the store's build and on the distribution's Mesa, compared sub-test by sub-test
 * (docs/design.md §10). */
#ifndef TB_SUITE_CTS_H
#define TB_SUITE_CTS_H

#include "base/progress.h"
#include "store/store.h"
#include "gputest/suite.h"

struct json_object;

/* The test binaries run when none are chosen (test_NAME for each NAME). */
#define CTS_DEFAULT_TESTS                                                                        \
	"basic,api,compiler,events,atomics,c11_atomics,commonfns,integer_ops,relationals,vectors,"  \
	"workgroups,subgroups,buffers,printf"
/* The most sub-tests one binary's --list may name, and the most lines it may print: a
 * binary names a few hundred. */
#define CTS_MAX_SUBTESTS 16384
#define CTS_MAX_LIST_LINES 262144
/* Seconds one process of a test binary may take: $TB323FU_MESA_CTS_TIMEOUT, else this. */
#define CTS_BINARY_SECONDS (60 * 60)

struct cts_request {
	const char *dir;      /* the binaries: DIR/test_NAME or DIR/NAME/test_NAME; NULL: the default */
	const char *tests;    /* "basic,api,…"; NULL or "": CTS_DEFAULT_TESTS */
	const char *subtests; /* an extended regular expression over "NAME/SUB-TEST"; NULL: all */
	int budget;           /* seconds for the whole run, 0: no limit */
	int jobs;             /* binaries run at once, 0: jobs_default() */
	const struct tb_progress *progress;
};

/* The folder of the binaries when none is named (allocated): OpenCL-CTS's of the store's
 * current CTS release (cts/current, docs/design.md §13) when it has one, else where
 * build-recipes/opencl-cts leaves its links for this machine:
 * ${TB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tb323fu-mesa}/opencl-cts/MACHINE. */
struct store;
char *cts_default_dir(const struct store *s);

/* NULL when tests is a valid comma-separated list of binary names, else the first bad name
 * (free it). */
char *cts_tests_invalid(const char *tests);

/* Runs the chosen binaries, each through `run --version V` and then through `distro` (taken
 * from cache/suites/ when the same binary ran the same sub-tests with the same distribution
 * Mesa), writes the comparison to smoke/<v>.json's suites."opencl-cts" and returns it in
 * *result (json_object_put it; may be NULL). Beyond the comparison's keys it has "binaries",
 * "subtests", "budget", "jobs", "cut" and "duplicates" (of the binaries' --list: names past
 * the bound, names listed again), "not_run" (the binaries the budget left out), "flaky" (sub-tests whose
 * result changed when run again, where the second result stands) and
 * "distribution_cached". TB_OK when the sides ran: look at out->regressions. The registry's
 * entry is opencl_cts_suite (gputest/suite.h). */
int suite_cts_run(struct store *s, const char *version, const struct cts_request *r,
		  struct suite_outcome *out, struct json_object **result, struct tb_error *e);

#endif
