/* Runs tb323fu-mesa-smoke against one installed version (docs/design.md §7). */
#ifndef TB_SMOKE_RUN_H
#define TB_SMOKE_RUN_H

#include <sys/types.h>

#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

struct json_object;

struct smoke_outcome {
	int passed, failed, skipped;
	/* "vk.driver: <detail>" of the first failed test, "" when none failed. */
	char first_failure[512];
};

/* Runs the smoke tests of version as a child under exactly the environment of
 * `tb323fu-mesa run --version V`, with a time limit, reports each test to progress and writes
 * smoke/<v>.json. TB_OK when the tests ran (look at o->failed); an error code when they could
 * not run at all. */
int smoke_run_version(struct store *s, const char *version, const struct tb_progress *p,
		      struct smoke_outcome *o, struct tb_error *e);
/* The same with only the tests named in tests ("vk.loader,cl.kernel"; NULL: all of them);
 * the others are reported as skipped. */
int smoke_run_tests(struct store *s, const char *version, const char *tests,
		    const struct tb_progress *p, struct smoke_outcome *o, struct tb_error *e);
/* NULL when every name of the comma-separated list is a smoke test, else the first bad
 * name (free it). */
char *smoke_tests_unknown(const char *tests);
/* The last result of a version: "pass", "fail" or "none". */
const char *smoke_last_result(const struct store *s, const char *version);
/* smoke/<v>.json as written by smoke_run_version, or NULL (json_object_put it). */
struct json_object *smoke_read_result(const struct store *s, const char *version);

/* Sets key of smoke/<v>.json (or key.name when name is given: "suites", "piglit-cl"),
 * keeping the rest of the file; takes over value's reference. The smoke tests' own runs keep
 * the "suites" and "bench" sections too. */
int smoke_record_set(struct store *s, const char *version, const char *key, const char *name,
		     struct json_object *value, struct tb_error *e);

/* Seconds a smoke run (or one dEQP case) may take before it is killed:
 * $TB323FU_MESA_SMOKE_TIMEOUT, else 60. */
int smoke_timeout_seconds(void);



#endif
