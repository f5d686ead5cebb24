/* The dEQP suites through both sides: dEQP-VK, and the surfaceless GL modules dEQP-GLES2,
 * dEQP-GLES3 and dEQP-EGL, told apart by their module (gputest/deqp_cases.h) alone.
 *
 * The cases come from the binary (its stdout-caselist run mode) or a case list, cut to a
 * fraction, and run in batches: one dEQP process a batch and a side, its results read from
 * its QPA log as it grows (gputest/deqp.c, which also starts a new process after a case that
 * crashed or hung). Batches run on several workers at once (gputest/jobs.c): each batch's
 * store side and then its distribution side, so that a batch that finished counts whole
 * whatever the budget does to the others. */
#include "gputest/suite_deqp.h"
#include "store/cts.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/config.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "base/trusted_path.h"
#include "common/envvars.h"
#include "store/manifest.h"
#include "gputest/deqp.h"
#include "gputest/deqp_cases.h"
#include "gputest/expected.h"
#include "gputest/jobs.h"
#include "gputest/qpa.h"
#include "gputest/side.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_cache.h"
#include "gputest/suite_compare.h"

/* The most cases one process runs: a crash costs a new process, not the batch's results. */
#define BATCH_MAX 500
/* Batches a worker gets at least, so that the workers finish close together. */
#define BATCHES_PER_JOB 4
/* The not-run cases named in the result; the rest are counted. */
#define NOT_RUN_NAMED 20
/* What every run passes dEQP beyond its case list and log: part of the cache key. */
#define RUN_OPTIONS "--deqp-log-images=disable --deqp-log-shader-sources=disable --deqp-shadercache=disable"

static int is_gl(const struct deqp_kind *k)
{
	return !strcmp(k->api, "GL");
}

char *deqp_default_path(const struct store *s, const struct deqp_kind *k)
{
	char *installed = is_gl(k) ? NULL : store_cts_suite_path(s, CTS_DEQP_VK);
	if (installed)
		return installed;
	char *dir = recipe_cache_dir(k->recipe);
	char *path = *k->subdir ? xasprintf("%s/%s/%s", dir, k->subdir, k->binary) : path_join(dir, k->binary);
	free(dir);
	return path;
}

/* ---- a plan: names in batches, and what each batch gave ---- */

enum plan_sides { PLAN_BOTH, PLAN_STORE, PLAN_DISTRO };

struct plan {
	char **names; /* not owned */
	size_t n, batch, n_batches;
	enum plan_sides sides;
	json_object **mine, **theirs; /* by batch; NULL when the batch did not finish */
	json_object **fresh;          /* by batch: the distribution's results that were run, not cached */
};

static void plan_init(struct plan *p, char **names, size_t n, enum plan_sides sides, int jobs)
{
	size_t per = (n + (size_t)jobs * BATCHES_PER_JOB - 1) / ((size_t)jobs * BATCHES_PER_JOB);
	*p = (struct plan){.names = names, .n = n, .sides = sides,
			   .batch = per < 1 ? 1 : per > BATCH_MAX ? BATCH_MAX : per};
	p->n_batches = (n + p->batch - 1) / p->batch;
	p->mine = xcalloc(p->n_batches + 1, sizeof *p->mine);
	p->theirs = xcalloc(p->n_batches + 1, sizeof *p->theirs);
	p->fresh = xcalloc(p->n_batches + 1, sizeof *p->fresh);
}

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n_batches; i++) {
		json_object_put(p->mine[i]);
		json_object_put(p->theirs[i]);
		json_object_put(p->fresh[i]);
	}
	free(p->mine);
	free(p->theirs);
	free(p->fresh);
}

/* ---- the run ---- */

struct deqp_suite {
	struct store *s;
	const char *version;
	const struct deqp_suite_request *r;
	const struct deqp_kind *kind; /* r's module */
	char *deqp;           /* its real path */
	char *workdir;
	char **prefix[2];     /* the launcher's argv for each side */
	/* the distribution's ICD file (the GL modules: its EGL vendor file) and its library ("": none) */
	char *distro_icd, *distro_lib;
	json_object *cached;  /* the distribution's results from earlier runs; read only while jobs run */
	double budget_end;    /* 0: none */
	int out_of_budget;    /* atomically */
	int retrying;         /* a second run: no progress counts */
	struct plan *plan;
	struct locked_progress lp;
	size_t done[2], total; /* atomically */
	unsigned round;       /* plans run so far: each gets its own log folders */
};

static void count_done(struct deqp_suite *run, enum side side, size_t n)
{
	if (run->retrying)
		return;
	size_t now = __atomic_add_fetch(&run->done[side], n, __ATOMIC_SEQ_CST);
	char label[64];
	snprintf(label, sizeof label, "%s:%s", run->kind->name, side_name(side));
	progress_count(&run->lp.p, "suite", label, now, run->total);
}

/* One dEQP process (and those after a crash or hang) over caselist through prefix, its logs
 * in dir, each case within the smoke tests' time limit: gputest/deqp.c's deqp_run. */
static int run_log(char *const *prefix, const struct deqp_kind *kind, const char *deqp,
		   const char *caselist, const char *dir, double deadline, int *out_of_budget,
		   const struct tb_progress *p, struct qpa_parser *q, struct tb_error *e)
{
	struct deqp_request req = {
		.prefix = prefix,
		.kind = kind,
		.deqp = deqp,
		.caselist = caselist,
		.workdir = dir,
		.case_timeout = smoke_timeout_seconds(),
		.deadline = deadline,
		.out_of_budget = out_of_budget,
		.progress = p,
	};
	return deqp_run(&req, q, e);
}

/* names[0..n) on one side into *map ({name: result}); *complete is 0 when the budget stopped
 * the process first (then *map is NULL). */
static int run_cases(struct deqp_suite *run, enum side side, char *const names[], size_t n,
		     size_t batch, json_object **map, int *complete, struct tb_error *e)
{
	*map = NULL;
	*complete = 0;
	if (__atomic_load_n(&run->out_of_budget, __ATOMIC_SEQ_CST))
		return TB_OK;
	char *dir = xasprintf("%s/r%u-b%zu-%s", run->workdir, run->round, batch, side_name(side));
	char *list = path_join(dir, "cases.txt");
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++)
		sb_appendf(&sb, "%s\n", names[i]);
	int rc = mkdir(dir, 0700) == 0 ? TB_OK
				       : tb_fail_errno_as(e, TB_R_IO_ERROR, "cannot make %s for %s's logs", dir,
							  run->kind->name);
	if (!rc)
		rc = atomic_write_file(list, sb.buf, sb.len, 0600, e);
	sb_free(&sb);
	struct qpa_parser q;
	qpa_parser_init(&q);
	int out_of_budget = 0;
	if (!rc)
		rc = run_log(run->prefix[side], run->kind, run->deqp, list, dir, run->budget_end,
			     &out_of_budget, NULL, &q, e);
	if (!rc && out_of_budget) {
		__atomic_store_n(&run->out_of_budget, 1, __ATOMIC_SEQ_CST);
	} else if (!rc) {
		/* the batch's cases only, each once: a log may name others */
		json_object *logged = json_object_new_object();
		for (size_t i = 0; i < q.n; i++)
			json_object_object_add(logged, q.cases[i].name,
					       json_object_new_string(qpa_kind_result(q.cases[i].kind)));
		*map = json_object_new_object();
		for (size_t i = 0; i < n; i++) {
			json_object *v;
			json_object_object_add(*map, names[i],
					       json_object_object_get_ex(logged, names[i], &v)
						       ? json_object_get(v)
						       : json_object_new_string("missing"));
		}
		json_object_put(logged);
		*complete = 1;
	}
	qpa_parser_free(&q);
	remove_tree(dir);
	free(dir);
	free(list);
	return rc;
}

/* One batch of the plan: our side, then the distribution's for what the cache lacks. */
static int run_batch(void *ctx, size_t i, int worker, struct tb_error *e)
{
	(void)worker;
	struct deqp_suite *run = ctx;
	struct plan *p = run->plan;
	size_t from = i * p->batch, n = p->n - from < p->batch ? p->n - from : p->batch;
	char **names = p->names + from;
	json_object *mine = NULL, *theirs = NULL, *fresh = NULL;
	int complete = 1, rc = TB_OK;
	if (p->sides != PLAN_DISTRO) {
		rc = run_cases(run, SIDE_STORE, names, n, i, &mine, &complete, e);
		if (!rc && complete)
			count_done(run, SIDE_STORE, n);
	}
	if (!rc && complete && p->sides != PLAN_STORE) {
		theirs = json_object_new_object();
		char **todo = xcalloc(n + 1, sizeof *todo);
		size_t n_todo = 0;
		for (size_t k = 0; k < n; k++) {
			json_object *v;
			if (p->sides == PLAN_BOTH && run->cached &&
			    json_object_object_get_ex(run->cached, names[k], &v))
				json_object_object_add(theirs, names[k], json_object_get(v));
			else
				todo[n_todo++] = names[k];
		}
		if (n_todo)
			rc = run_cases(run, SIDE_DISTRO, todo, n_todo, i, &fresh, &complete, e);
		if (!rc && complete && fresh) {
			json_object_object_foreach(fresh, name, v)
				json_object_object_add(theirs, name, json_object_get(v));
		}
		if (!rc && complete)
			count_done(run, SIDE_DISTRO, n);
		free(todo);
	}
	if (rc || !complete) {
		json_object_put(mine);
		json_object_put(theirs);
		json_object_put(fresh);
		return rc;
	}
	p->mine[i] = mine;
	p->theirs[i] = theirs;
	p->fresh[i] = fresh;
	return TB_OK;
}

static int run_plan(struct deqp_suite *run, struct plan *p, int jobs, struct tb_error *e)
{
	run->plan = p;
	int rc = jobs_run(p->n_batches, jobs, run_batch, run, e);
	run->plan = NULL;
	run->round++;
	return rc;
}

/* ---- after both sides: regressions must hold twice ---- */

/* The names whose result passes in theirs and not in mine, but for a timeout (it took its
 * whole limit already) and for the expected failures: copies, as the maps change when they
 * run again (names_free them). */
static size_t regressed(json_object *mine, json_object *theirs, json_object *expected, char ***out)
{
	size_t n = 0;
	char **names = xcalloc((size_t)json_object_object_length(mine) + 1, sizeof *names);
	json_object_object_foreach(mine, name, v) {
		json_object *t, *want;
		const char *ours = json_object_get_string(v);
		if (json_object_object_get_ex(theirs, name, &t) && suite_result_passes(json_object_get_string(t)) &&
		    !suite_result_passes(ours) && strcmp(ours, "timeout") &&
		    !(expected && json_object_object_get_ex(expected, name, &want) &&
		      expected_matches(json_object_get_string(want), ours)))
			names[n++] = xstrdup(name);
	}
	*out = names;
	return n;
}

/* Runs names once more on one side; where passing changed, the second result replaces the
 * first in results and the name goes to flaky (once). */
static int run_again(struct deqp_suite *run, enum plan_sides sides, char **names, size_t n, int jobs,
		     json_object *results, json_object *flaky, struct tb_error *e)
{
	struct plan p;
	plan_init(&p, names, n, sides, jobs);
	run->retrying = 1;
	int rc = run_plan(run, &p, jobs, e);
	run->retrying = 0;
	for (size_t b = 0; !rc && b < p.n_batches; b++) {
		json_object *second = sides == PLAN_STORE ? p.mine[b] : p.fresh[b];
		if (!second)
			continue; /* the budget ran out: the first results stand */
		json_object_object_foreach(second, name, v) {
			json_object *first;
			if (!json_object_object_get_ex(results, name, &first) ||
			    suite_result_passes(json_object_get_string(v)) ==
				    suite_result_passes(json_object_get_string(first)))
				continue;
			int named = 0;
			for (size_t k = 0; k < json_object_array_length(flaky) && !named; k++)
				named = !strcmp(json_object_get_string(json_object_array_get_idx(flaky, k)), name);
			if (!named)
				json_object_array_add(flaky, json_object_new_string(name));
			json_object_object_add(results, name, json_object_get(v));
		}
	}
	plan_free(&p);
	return rc;
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int retry_regressions(struct deqp_suite *run, int jobs, json_object *mine, json_object *theirs,
			     json_object *expected, json_object *flaky, struct tb_error *e)
{
	char **names;
	size_t n = regressed(mine, theirs, expected, &names);
	int rc = n ? run_again(run, PLAN_STORE, names, n, jobs, mine, flaky, e) : TB_OK;
	names_free(names, n);
	if (rc || !n)
		return rc;
	n = regressed(mine, theirs, expected, &names);
	if (n)
		rc = run_again(run, PLAN_DISTRO, names, n, jobs, theirs, flaky, e);
	names_free(names, n);
	return rc;
}

/* ---- setting up ---- */

/* The binary: --deqp PATH, or a directory holding it (or SUBDIR/binary, as the recipe's folder
 * does), else the recipe's. */
static char *binary_find(const struct store *s, const struct deqp_kind *k, const char *given,
			 struct tb_error *e)
{
	char *path = given && *given ? xstrdup(given) : deqp_default_path(s, k);
	if (is_directory(path)) {
		char *in = path_join(path, k->binary);
		if (*k->subdir && !path_exists(in)) {
			free(in);
			in = xasprintf("%s/%s/%s", path, k->subdir, k->binary);
		}
		free(path);
		path = in;
	}
	char *real = realpath(path, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode) || access(real, X_OK) != 0) {
		tb_fail(e, TB_R_PROGRAM_MISSING,
			"no %s binary at %s; %sbuild it with build-recipes/%s, or name it (or its "
			"directory) with --deqp or %s in mesa.conf", k->name, path,
			is_gl(k) ? "" : "install the CTS release (`tb323fu-ctl mesa cts update`), ",
			k->recipe, is_gl(k) ? "deqp_gl_dir" : "deqp_dir");
		free(real);
		real = NULL;
	} else {
		char *what = xasprintf("the %s binary", k->name);
		if (trusted_program_path(path, what, e) != TB_OK) {
			free(real);
			real = NULL;
		}
		free(what);
	}
	free(path);
	return real;
}

/* The side's command line, the distribution's with the system's ICD file of the same
 * driver (the GL modules: the EGL vendor file of the same vendor library), so that both sides
 * compare one driver. */
static int prefixes_make(struct deqp_suite *run, const struct manifest *m, struct tb_error *e)
{
	char *const none[] = {NULL};
	run->prefix[SIDE_STORE] = side_argv(run->s, run->version, SIDE_STORE, NULL, NULL, none, e);
	if (!run->prefix[SIDE_STORE])
		return TB_EFAIL;
	if (is_gl(run->kind)) {
		char *vendor = side_distro_egl_vendor(m, e);
		if (!vendor)
			return TB_EFAIL;
		char *env[] = {xasprintf(ENV_EGL_VENDOR_FILES "=%s", vendor), NULL};
		run->prefix[SIDE_DISTRO] = side_argv(run->s, run->version, SIDE_DISTRO, NULL, env, none, e);
		free(env[0]);
		char *lib = vulkan_icd_library(vendor);
		run->distro_icd = vendor;
		run->distro_lib = lib ? suite_system_library(lib) : NULL;
		if (!run->distro_lib)
			run->distro_lib = xstrdup("");
		free(lib);
		return run->prefix[SIDE_DISTRO] ? TB_OK : TB_EFAIL;
	}
	struct side_drivers d = {0};
	int rc = side_drivers_find(run->s, m, SIDE_DISTRO, &d, e);
	if (rc)
		return rc;
	char **env = side_drivers_env(&d);
	run->prefix[SIDE_DISTRO] = side_argv(run->s, run->version, SIDE_DISTRO, NULL, env, none, e);
	side_free_argv(env);
	char *lib = d.vulkan_icd ? vulkan_icd_library(d.vulkan_icd) : NULL;
	run->distro_icd = xstrdup(d.vulkan_icd ? d.vulkan_icd : "");
	run->distro_lib = xstrdup(lib && lib[0] == '/' ? lib : "");
	free(lib);
	side_drivers_free(&d);
	return run->prefix[SIDE_DISTRO] ? TB_OK : TB_EFAIL;
}

static int cases_get(const struct deqp_suite_request *r, const char *deqp, struct deqp_cases *c,
		     struct tb_error *e)
{
	int rc = r->caselist && *r->caselist ? deqp_cases_read(c, r->kind, r->caselist, e)
					     : deqp_cases_list(c, r->kind, deqp, r->groups, e);
	if (!rc)
		deqp_cases_fraction(c, r->fraction_n, r->fraction_k ? r->fraction_k : 1);
	if (!rc && !c->n)
		rc = tb_fail(e, TB_R_CONFIG_INVALID, "the fraction %u/%u of the cases keeps none of them",
			     r->fraction_n, r->fraction_k);
	return rc;
}

/* ---- recording ---- */

static json_object *names_array(char **names, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

static json_object *extra_keys(const struct deqp_suite *run, const struct deqp_cases *c, int jobs,
			       json_object *flaky, char **not_run, size_t n_not_run, int all_cached)
{
	const struct deqp_suite_request *r = run->r;
	json_object *x = json_object_new_object();
	json_object_object_add(x, "groups", json_object_new_string(r->caselist && *r->caselist ? ""
							  : r->groups && *r->groups ? r->groups : r->kind->groups));
	json_object_object_add(x, "caselist", json_object_new_string(r->caselist ? r->caselist : ""));
	char fraction[32];
	snprintf(fraction, sizeof fraction, "%u/%u", r->fraction_n > 1 ? r->fraction_n : 1,
		 r->fraction_n > 1 && r->fraction_k ? r->fraction_k : 1);
	json_object_object_add(x, "fraction", json_object_new_string(fraction));
	json_object_object_add(x, "cases", json_object_new_int64((int64_t)c->n));
	json_object_object_add(x, "duplicates", json_object_new_int64((int64_t)c->duplicates));
	json_object_object_add(x, "cut", json_object_new_int64((int64_t)c->cut));
	json_object_object_add(x, "budget", json_object_new_int(r->budget));
	json_object_object_add(x, "jobs", json_object_new_int(jobs));
	json_object_object_add(x, "not_run_count", json_object_new_int64((int64_t)n_not_run));
	json_object_object_add(x, "not_run", names_array(not_run, n_not_run < NOT_RUN_NAMED ? n_not_run : NOT_RUN_NAMED));
	json_object_object_add(x, "flaky", json_object_get(flaky));
	json_object_object_add(x, "distribution_cached", json_object_new_boolean(all_cached));
	if (r->caselist && *r->caselist)
		suite_partial(x, "only the cases of --caselist %s", r->caselist);
	else if (r->groups && *r->groups)
		suite_partial(x, "only the groups --groups %s names", r->groups);
	if (r->fraction_n > 1)
		suite_partial(x, "--fraction %s: every %u-th case", fraction, r->fraction_n);
	if (n_not_run)
		suite_partial(x, "the budget of %d s left %zu cases not run", r->budget, n_not_run);
	if (c->cut)
		suite_partial(x, "%zu listed cases were left out", c->cut);
	return x;
}

/* The first plan's batches into the two maps; the cases of batches that did not finish into
 * not_run; the distribution's new results into the cache. */
static void gather(struct deqp_suite *run, struct plan *p, json_object *mine, json_object *theirs,
		   char ***not_run, size_t *n_not_run, int *all_cached)
{
	*not_run = xcalloc(p->n + 1, sizeof **not_run);
	*n_not_run = 0;
	*all_cached = p->n_batches > 0;
	for (size_t b = 0; b < p->n_batches; b++) {
		if (!p->mine[b]) {
			size_t from = b * p->batch;
			for (size_t k = from; k < p->n && k < from + p->batch; k++)
				(*not_run)[(*n_not_run)++] = p->names[k];
			continue;
		}
		json_object_object_foreach(p->mine[b], n1, v1)
			json_object_object_add(mine, n1, json_object_get(v1));
		json_object_object_foreach(p->theirs[b], n2, v2)
			json_object_object_add(theirs, n2, json_object_get(v2));
		if (p->fresh[b] && json_object_object_length(p->fresh[b])) {
			*all_cached = 0;
			if (!run->cached)
				run->cached = json_object_new_object();
			json_object_object_foreach(p->fresh[b], n3, v3)
				json_object_object_add(run->cached, n3, json_object_get(v3));
		}
	}
	if (!json_object_object_length(mine))
		*all_cached = 0;
}

static int run_all(struct deqp_suite *run, struct deqp_cases *c, int jobs, json_object *expected,
		   const char *cache_path, struct suite_outcome *out, json_object **result,
		   struct tb_error *e)
{
	const struct tb_progress *p = run->r->progress;
	struct plan first;
	plan_init(&first, c->names, c->n, PLAN_BOTH, jobs);
	run->total = c->n;
	char *label = xasprintf("%s:store", run->kind->name);
	progress_test(p, label, "run");
	int rc = run_plan(run, &first, jobs, e);
	json_object *mine = json_object_new_object(), *theirs = json_object_new_object();
	json_object *flaky = json_object_new_array();
	char **not_run = NULL;
	size_t n_not_run = 0;
	int all_cached = 0;
	if (!rc) {
		gather(run, &first, mine, theirs, &not_run, &n_not_run, &all_cached);
		if (!all_cached && run->cached)
			suite_cache_write(run->s, cache_path, run->kind->name, run->cached);
		rc = retry_regressions(run, jobs, mine, theirs, expected, flaky, e);
	}
	progress_test(p, label, progress_outcome(rc));
	free(label);
	if (!rc) {
		out->distro_cached = all_cached;
		json_object *extra = extra_keys(run, c, jobs, flaky, not_run, n_not_run, all_cached);
		rc = suite_record(run->s, run->version, run->kind->name, mine, theirs, expected, extra, p,
				  out, result, e);
		json_object_put(extra);
	}
	free(not_run);
	json_object_put(flaky);
	json_object_put(mine);
	json_object_put(theirs);
	plan_free(&first);
	return rc;
}

static char *cache_path_of(const struct deqp_suite *run)
{
	struct strbuf options = {0};
	sb_append(&options, RUN_OPTIONS);
	for (size_t i = 0; run->kind->options[i]; i++)
		sb_appendf(&options, " %s", run->kind->options[i]);
	const char *parts[] = {options.buf};
	const char *programs[] = {run->deqp, run->distro_icd, run->distro_lib};
	char *path = suite_cache_path(run->s, run->kind->name, parts, 1, programs,
				      run->distro_lib[0] ? 3 : 2);
	sb_free(&options);
	return path;
}

int suite_deqp_run(struct store *s, const char *version, const struct deqp_suite_request *r,
		   struct suite_outcome *out, json_object **result, struct tb_error *e)
{
	memset(out, 0, sizeof *out);
	if (result)
		*result = NULL;
	struct manifest m;
	int rc = store_load_manifest(s, version, &m, e);
	if (rc)
		return rc;
	struct deqp_suite run = {.s = s, .version = version, .r = r, .kind = r->kind,
				 .budget_end = r->budget > 0 ? now_seconds() + r->budget : 0};
	locked_progress_init(&run.lp, r->progress);
	int jobs = r->jobs > 0 ? r->jobs : jobs_default();
	json_object *expected = NULL;
	char *cache = NULL;
	struct deqp_cases c = {0};
	const struct deqp_kind *k = r->kind;
	if (is_gl(k) ? !m.has_gl : !m.has_vulkan)
		rc = tb_fail(e, TB_R_FAILED, "Mesa %s ships no %s: %s has nothing to test", version,
			     is_gl(k) ? "GL" : "Vulkan driver", k->name);
	if (!rc && !(run.deqp = binary_find(s, k, r->deqp, e)))
		rc = TB_EFAIL;
	if (!rc)
		rc = expected_load(s, version, k->name, r->confdir, &expected, e);
	if (!rc)
		rc = prefixes_make(&run, &m, e);
	if (!rc)
		rc = cases_get(r, run.deqp, &c, e);
	char *logs = xasprintf("%s's logs", k->name);
	if (!rc && !(run.workdir = temp_dir_make("tb323fu-deqp", logs, e)))
		rc = TB_EFAIL;
	free(logs);
	if (!rc) {
		cache = cache_path_of(&run);
		run.cached = suite_cache_read(cache);
		rc = run_all(&run, &c, jobs, expected, cache, out, result, e);
	}
	if (run.workdir)
		remove_tree(run.workdir);
	free(run.workdir);
	free(cache);
	free(run.distro_icd);
	free(run.distro_lib);
	json_object_put(run.cached);
	json_object_put(expected);
	deqp_cases_free(&c);
	side_free_argv(run.prefix[SIDE_STORE]);
	side_free_argv(run.prefix[SIDE_DISTRO]);
	free(run.deqp);
	locked_progress_free(&run.lp);
	manifest_free(&m);
	return rc;
}

int suite_deqp_store_side(struct store *s, const char *version, const char *deqp,
			  const char *caselist, const struct tb_progress *p, struct qpa_parser *q,
			  struct tb_error *e)
{
	char *dir = temp_dir_make("tb323fu-deqp", "the dEQP logs", e);
	if (!dir)
		return e->code;
	char *const none[] = {NULL};
	char **prefix = side_launch_argv(s, version, SIDE_STORE, none, e);
	int rc = prefix ? run_log(prefix, NULL, deqp, caselist, dir, 0, NULL, p, q, e) : TB_EFAIL;
	remove_tree(dir);
	free(dir);
	side_free_argv(prefix);
	return rc;
}

/* smoke --suite MODULE's choices over deqp_dir (dEQP-VK) or deqp_gl_dir (the GL modules),
 * deqp_groups (not with --caselist), deqp_fraction, deqp_budget and suite_jobs; after an
 * install, mesa.conf's alone. */
static int run_entry(const struct deqp_kind *k, struct store *s, const char *version,
		     const struct suite_options *o, const struct config *cfg,
		     const struct tb_progress *p, struct suite_outcome *out, json_object **result,
		     struct tb_error *e)
{
	unsigned n = 1, kth = 1;
	const char *frac = o && o->fraction ? o->fraction : cfg->deqp_fraction;
	const char *bad = frac && *frac ? deqp_fraction_parse(frac, &n, &kth) : NULL;
	if (bad)
		return o ? tb_fail(e, TB_R_USAGE, "%s", bad)
			 : tb_fail(e, TB_R_CONFIG_INVALID, "deqp_fraction in mesa.conf: %s", bad);
	char *confdir = config_dir(cfg);
	struct deqp_suite_request r = {
		.kind = k,
		.deqp = o && o->deqp ? o->deqp : is_gl(k) ? cfg->deqp_gl_dir : cfg->deqp_dir,
		.groups = o && o->groups ? o->groups : o && o->caselist ? NULL : cfg->deqp_groups,
		.caselist = o ? o->caselist : NULL,
		.fraction_n = n,
		.fraction_k = kth,
		.budget = o && o->budget ? o->budget : (int)cfg->deqp_budget,
		.jobs = o && o->jobs ? o->jobs : (int)cfg->suite_jobs,
		.confdir = confdir,
		.progress = p,
	};
	int rc = suite_deqp_run(s, version, &r, out, result, e);
	free(confdir);
	return rc;
}

/* "; N listed cases were left out …" when the list was bounded, how many cases the budget
 * left out, and the expected failures that failed or now pass. */
static void run_notes(const struct deqp_kind *k, struct strbuf *sb, json_object *res)
{
	json_object *v;
	int64_t cut = json_object_object_get_ex(res, "cut", &v) ? json_object_get_int64(v) : 0;
	if (cut)
		sb_appendf(sb, "; %lld listed cases were left out (over the list's bounds, or not %s names)",
			   (long long)cut, k->name);
	int64_t not_run = json_object_object_get_ex(res, "not_run_count", &v) ? json_object_get_int64(v) : 0;
	json_object *budget = NULL;
	json_object_object_get_ex(res, "budget", &budget);
	if (not_run)
		sb_appendf(sb, "; the budget of %d s ran out, so %lld cases did not run", json_object_get_int(budget),
			   (long long)not_run);
	size_t expected = json_object_object_get_ex(res, "expected", &v) ? json_object_array_length(v) : 0;
	if (expected)
		sb_appendf(sb, "; %zu failed as the version's expected failures say", expected);
	suite_append_names(sb, res, "expected_fixed", "; these pass though listed as expected failures: ");
}

/* Each module's entry in the registry: its runner and notes with the module bound. The names
 * are the modules' (tests/unit/test_suite.c checks that they agree). */
#define DEQP_SUITE(id, name_, alias_)                                                               \
	static int deqp_##id##_run(struct store *s, const char *version, const struct suite_options *o, \
				   const struct config *cfg, const struct tb_progress *p,              \
				   struct suite_outcome *out, json_object **result, struct tb_error *e)  \
	{                                                                                           \
		return run_entry(&deqp_##id##_kind, s, version, o, cfg, p, out, result, e);          \
	}                                                                                           \
	static void deqp_##id##_notes(struct strbuf *sb, json_object *res)                          \
	{                                                                                           \
		run_notes(&deqp_##id##_kind, sb, res);                                               \
	}                                                                                           \
	const struct suite deqp_##id##_suite = {                                                    \
		.name = name_,                                                                      \
		.alias = alias_,                                                                    \
		.units = name_ " cases",                                                            \
		.options = SUITE_OPT_DEQP | SUITE_OPT_RUN,                                          \
		.run = deqp_##id##_run,                                                             \
		.notes = deqp_##id##_notes,                                                         \
	}

DEQP_SUITE(vk, "dEQP-VK", "deqp-vk");
DEQP_SUITE(gles2, "dEQP-GLES2", "deqp-gles2");
DEQP_SUITE(gles3, "dEQP-GLES3", "deqp-gles3");
DEQP_SUITE(egl, "dEQP-EGL", "deqp-egl");
