/* piglit's OpenCL suite on the store's build and on the distribution's Mesa.
 *
 * Both sides run `piglit run` under the launcher, so every test process piglit starts inherits
 * the side's environment. PIGLIT_CL_PLATFORM=rusticl keeps each side on its rusticl: the
 * distribution may register other OpenCL platforms (Clover on older Mesa) whose results say
 * nothing about ours. Results come from piglit's json backend, uncompressed. */
#include "gputest/suite_piglit.h"
#include "base/jsontext.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "store/jsonfile.h"
#include "store/manifest.h"
#include "base/programs.h"
#include "gputest/side.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_cache.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/trusted_path.h"

#define SUITE_NAME "piglit-cl"
#define RESULTS_MAX_BYTES ((size_t)256 << 20)

static const char *piglit_profile(const char *profile)
{
	return profile && !strcmp(profile, "full") ? "cl" : "quick_cl";
}

static char *distro_cache_path(const struct store *s, const char *piglit,
			       const struct suite_request *r, const char *rusticl_enable)
{
	const char *parts[] = {piglit_profile(r->profile), r->filter ? r->filter : "",
			       rusticl_enable ? rusticl_enable : ""};
	const char *programs[] = {piglit};
	return suite_cache_path(s, SUITE_NAME, parts, 3, programs, 1);
}

/* ---- one side ---- */

/* piglit's results.json → {name: result}. */
static json_object *read_results(const char *dir)
{
	char *path = path_join(dir, "results.json");
	json_object *o = json_file_read_object(path, RESULTS_MAX_BYTES), *tests;
	free(path);
	if (!o || !json_object_object_get_ex(o, "tests", &tests) ||
	    !json_object_is_type(tests, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	json_object *map = json_object_new_object();
	json_object_object_foreach(tests, name, t) {
		json_object *res;
		const char *result = json_object_object_get_ex(t, "result", &res) &&
					     json_object_is_type(res, json_type_string)
				     ? json_object_get_string(res)
				     : "missing";
		json_object_object_add(map, name, json_object_new_string(result));
	}
	json_object_put(o);
	return map;
}

/* piglit's quiet log writes "[done/total] pass: N, … Running Test(s): …" a line while it runs
 * (a line each, not a tty): the side's progress. */
struct side_progress {
	const struct tb_progress *progress;
	const char *label;
};

static void on_log_line(void *ctx, const char *line)
{
	const struct side_progress *sp = ctx;
	unsigned done, total;
	if (sscanf(line, "[%u/%u]", &done, &total) == 2 && done <= total)
		progress_count(sp->progress, "suite", sp->label, done, total);
}

static int run_side(struct store *s, const char *version, enum side side, const char *piglit,
		    const struct suite_request *r, const char *rusticl_enable, const char *workdir,
		    json_object **map, struct tb_error *e)
{
	char *results = xasprintf("%s/%s", workdir, side_name(side));
	char timeout[16];
	snprintf(timeout, sizeof timeout, "%d", smoke_timeout_seconds());
	char *env[] = {"PIGLIT_COMPRESSION=none", "PIGLIT_CL_PLATFORM=rusticl", NULL};
	char *cmd[16];
	int n = 0;
	cmd[n++] = (char *)piglit;
	cmd[n++] = "run";
	cmd[n++] = (char *)piglit_profile(r->profile);
	cmd[n++] = "--overwrite";
	cmd[n++] = "--log-level";
	cmd[n++] = "quiet";
	cmd[n++] = "--timeout";
	cmd[n++] = timeout;
	if (r->filter && *r->filter) {
		cmd[n++] = "--include-tests";
		cmd[n++] = (char *)r->filter;
	}
	cmd[n++] = results;
	cmd[n] = NULL;
	char label[64];
	snprintf(label, sizeof label, SUITE_NAME ":%s", side_name(side));
	progress_test(r->progress, label, "run");
	char **argv = side_argv(s, version, side, rusticl_enable, env, cmd, e);
	int rc = argv ? TB_OK : TB_EFAIL, status = 0, timed_out = 0;
	struct child_tail tail = {0};
	struct side_progress sp = {r->progress, label};
	if (!rc)
		rc = side_run(argv, NULL, SIDE_JOB_PIGLIT, on_log_line, &sp, &status, &timed_out, &tail, e);
	side_free_argv(argv);
	if (!rc) {
		*map = read_results(results);
		if (!*map) {
			char how[160], last[200];
			child_describe_status(status, how, sizeof how);
			child_tail_last_line(&tail, last, sizeof last);
			rc = tb_fail(e, TB_R_PROGRAM_FAILED,
				     "piglit on the %s side left no results (%s%s%s); try `piglit run %s` by hand",
				     side == SIDE_STORE ? "store's" : "distribution's", how,
				     last[0] ? ": " : "", last, piglit_profile(r->profile));
		}
	}
	progress_test(r->progress, label, progress_outcome(rc));
	free(results);
	return rc;
}

int suite_piglit_run(struct store *s, const char *version, const struct suite_request *r,
		     struct suite_outcome *out, json_object **result, struct tb_error *e)
{
	struct manifest m;
	int rc = suite_opencl_begin(s, version, "piglit-cl", out, result, &m, e);
	if (rc)
		return rc;
	char *piglit = find_program("piglit", "TB323FU_MESA_PIGLIT");
	if (!piglit) {
		manifest_free(&m);
		return tb_fail(e, TB_R_PROGRAM_MISSING,
			       "piglit is not installed (apt-get install piglit), or set TB323FU_MESA_PIGLIT");
	}
	if (trusted_program_path(piglit, "piglit", e) != TB_OK) {
		free(piglit);
		manifest_free(&m);
		return e->code;
	}
	char *workdir = temp_dir_make("tb323fu-suite", "piglit's results", e);
	if (!workdir) {
		free(piglit);
		manifest_free(&m);
		return e->code;
	}
	json_object *store_map = NULL, *distro_map = NULL;
	rc = run_side(s, version, SIDE_STORE, piglit, r, m.rusticl_enable, workdir, &store_map, e);
	char *cache = distro_cache_path(s, piglit, r, m.rusticl_enable);
	if (!rc) {
		distro_map = suite_cache_read(cache);
		out->distro_cached = distro_map != NULL;
		if (!distro_map) {
			rc = run_side(s, version, SIDE_DISTRO, piglit, r, m.rusticl_enable, workdir,
				      &distro_map, e);
			if (!rc)
				suite_cache_write(s, cache, SUITE_NAME, distro_map);
		} else {
			progress_test(r->progress, SUITE_NAME ":distribution", "skip");
		}
	}
	remove_tree(workdir);
	if (!rc) {
		json_object *extra = json_object_new_object();
		json_object_object_add(extra, "profile", json_object_new_string(r->profile ? r->profile : "quick"));
		json_object_object_add(extra, "filter", json_object_new_string(r->filter ? r->filter : ""));
		json_object_object_add(extra, "distribution_cached", json_object_new_boolean(out->distro_cached));
		if (r->filter && *r->filter)
			suite_partial(extra, "only the tests --filter %s selects", r->filter);
		rc = suite_record(s, version, SUITE_NAME, store_map, distro_map, NULL, extra, r->progress,
				  out, result, e);
		json_object_put(extra);
	}
	json_object_put(store_map);
	json_object_put(distro_map);
	free(cache);
	free(workdir);
	free(piglit);
	manifest_free(&m);
	return rc;
}

/* smoke --suite piglit-cl takes only its own --profile and --filter; after an install,
 * smoke_suite_profile and smoke_suite_filter. */
static int run_entry(struct store *s, const char *version, const struct suite_options *o,
		     const struct config *cfg, const struct tb_progress *p, struct suite_outcome *out,
		     json_object **result, struct tb_error *e)
{
	struct suite_request r = {
		.profile = o ? o->profile : cfg->smoke_suite_profile,
		.filter = o ? o->filter : cfg->smoke_suite_filter,
		.progress = p,
	};
	return suite_piglit_run(s, version, &r, out, result, e);
}

const struct suite piglit_cl_suite = {
	.name = SUITE_NAME,
	.units = "piglit-cl tests",
	.options = SUITE_OPT_PIGLIT,
	.run = run_entry,
};
