/* dEQP-VK on both sides: the runner of deqp.c twice, then the same comparison as piglit's. */
#include "trial/suite_deqp.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trial/deqp.h"
#include "store/manifest.h"
#include "trial/side.h"
#include "trial/smoke_run.h"
#include "trial/suite_compare.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

#define SUITE_NAME "deqp-vk"

static int run_side(struct store *s, const char *version, enum side side, const char *deqp,
		    const char *caselist, const struct tb_progress *p, json_object **map,
		    struct tb_error *e)
{
	const char *tmp = getenv("TMPDIR");
	char *workdir = path_join(tmp && *tmp ? tmp : "/tmp", "tb323fu-deqp.XXXXXX");
	if (!mkdtemp(workdir)) {
		int rc = tb_fail_errno_why(e, TB_EFAIL, "failed",
					   "cannot create a temporary directory for the dEQP logs");
		free(workdir);
		return rc;
	}
	char *const none[] = {NULL};
	char **prefix = side_argv(s, version, side, NULL, NULL, none, e);
	struct qpa_parser q;
	qpa_parser_init(&q);
	int rc = TB_EFAIL;
	char label[64];
	snprintf(label, sizeof label, SUITE_NAME ":%s", side_name(side));
	progress_test(p, label, "run");
	if (prefix) {
		struct deqp_request r = {
			.prefix = prefix,
			.deqp = deqp,
			.caselist = caselist,
			.workdir = workdir,
			.case_timeout = smoke_timeout_seconds(),
			.progress = side == SIDE_STORE ? p : NULL,
		};
		rc = deqp_run(&r, &q, e);
	}
	progress_test(p, label, rc ? "fail" : "pass");
	if (!rc) {
		*map = json_object_new_object();
		for (size_t i = 0; i < q.n; i++)
			json_object_object_add(*map, q.cases[i].name,
					       json_object_new_string(qpa_kind_status(q.cases[i].kind)));
	}
	qpa_parser_free(&q);
	smoke_free_argv(prefix);
	remove_tree(workdir);
	free(workdir);
	return rc;
}

int suite_deqp_run(struct store *s, const char *version, const char *deqp,
		   const char *caselist, const struct tb_progress *p, struct suite_outcome *out,
		   json_object **result, struct tb_error *e)
{
	memset(out, 0, sizeof *out);
	*result = NULL;
	json_object *store_map = NULL, *distro_map = NULL;
	int rc = run_side(s, version, SIDE_STORE, deqp, caselist, p, &store_map, e);
	if (!rc)
		rc = run_side(s, version, SIDE_DISTRO, deqp, caselist, p, &distro_map, e);
	if (!rc) {
		json_object *cmp = suite_compare(store_map, distro_map);
		json_object *tests;
		json_object_object_get_ex(cmp, "tests", &tests);
		out->tests = json_object_get_int(tests);
		out->regressions = suite_regressions(cmp, out->names, sizeof out->names);
		rc = smoke_record_set(s, version, "suites", SUITE_NAME, json_object_get(cmp), e);
		*result = cmp;
	}
	json_object_put(store_map);
	json_object_put(distro_map);
	return rc;
}
