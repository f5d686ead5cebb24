/* Runs tb323fu-mesa-smoke against one installed version (DESIGN §7). */
#ifndef TB_SMOKE_RUN_H
#define TB_SMOKE_RUN_H

#include "progress.h"
#include "store.h"

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
/* The last result of a version: "pass", "fail" or "none". */
const char *smoke_last_result(const struct store *s, const char *version);

#endif
