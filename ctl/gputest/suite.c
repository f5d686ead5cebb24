/* The registry of suites, and what every suite's caller shares: the run after an install, the
 * sentence's notes, the verdict shown by list. */
#include "gputest/suite.h"

#include <json-c/json.h>
#include <string.h>

#include "base/alloc.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_compare.h"

static const struct suite *const suites[] = {&piglit_cl_suite, &opencl_cts_suite, &deqp_vk_suite,
					    &deqp_gles2_suite, &deqp_gles3_suite, &deqp_egl_suite};

const struct suite *suite_next(size_t *i)
{
	return *i < sizeof suites / sizeof *suites ? suites[(*i)++] : NULL;
}

const struct suite *suite_find(const char *name)
{
	size_t i = 0;
	for (const struct suite *su; (su = suite_next(&i));)
		if (!strcmp(name, su->name) || (su->alias && !strcmp(name, su->alias)))
			return su;
	return NULL;
}

char *suite_run_notes(const struct suite *su, json_object *result)
{
	struct strbuf sb = {0};
	if (su->notes)
		su->notes(&sb, result);
	suite_append_names(&sb, result, "flaky",
			   "; these gave another result when run again, so they are no regressions: ");
	return sb.buf ? sb.buf : xstrdup("");
}

int suite_after_install(struct store *s, const char *version, const struct config *cfg,
			const struct tb_progress *p, struct tb_error *e)
{
	if (!cfg->smoke_suite || !*cfg->smoke_suite || !strcmp(cfg->smoke_suite, "none"))
		return TB_OK;
	const struct suite *su = suite_find(cfg->smoke_suite);
	if (!su)
		return tb_fail(e, TB_R_CONFIG_INVALID, "smoke_suite in mesa.conf names no suite (%s)",
			       SUITE_CHOICES);
	struct suite_outcome out;
	int rc = su->run(s, version, NULL, cfg, p, &out, NULL, e);
	if (!rc && out.regressions)
		rc = tb_fail(e, TB_R_SUITE_REGRESSION,
			     "%d of %d %s pass with the distribution's Mesa and not with Mesa %s: %s",
			     out.regressions, out.tests, su->units, version, out.names);
	return rc;
}

const char *suite_last_result(const struct store *s, const char *version)
{
	json_object *o = smoke_read_result(s, version), *suites_done;
	const char *verdict = "none";
	if (o && json_object_object_get_ex(o, "suites", &suites_done) &&
	    json_object_is_type(suites_done, json_type_object)) {
		/* regressions over partial (a narrowed run, §10) over pass */
		json_object_object_foreach(suites_done, name, res) {
			(void)name;
			json_object *partial;
			int narrowed = json_object_object_get_ex(res, "partial", &partial) &&
				       json_object_array_length(partial) > 0;
			if (suite_regressions(res, NULL, 0))
				verdict = "regressions";
			else if (narrowed && strcmp(verdict, "regressions"))
				verdict = "partial";
			else if (!strcmp(verdict, "none"))
				verdict = "pass";
		}
	}
	json_object_put(o);
	return verdict;
}
