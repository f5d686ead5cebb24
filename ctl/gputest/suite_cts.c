/* OpenCL-CTS through both sides.
 *
 * Each binary is asked for its sub-tests (`--list`), then runs the chosen ones in one process
 * per side with CL_CONFORMANCE_RESULTS_FILENAME, whose JSON gives each sub-test's result. The
 * harness writes that file only at its end: when a process crashes or hangs, its sub-tests
 * run again one per process, so that the one that crashed or hung is named and the others
 * keep their results. CL_DEVICE_TYPE=all on both sides: the stand-in's device is a CPU, which
 * the harness's default type (GPU) would not find, and each side sees one platform anyway
 * (the launcher's vendor file). -w is the harness's reduced ("wimpy") mode, which every
 * binary built on the common harness offers. */
#include "gputest/suite_cts.h"
#include "store/cts.h"

#include <errno.h>
#include <glib.h>
#include <json-c/json.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputest/child.h"
#include "gputest/jobs.h"
#include "base/config.h"
#include "base/regex_bounded.h"
#include "base/trusted_path.h"
#include "store/jsonfile.h"
#include "store/manifest.h"
#include "gputest/side.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_cache.h"
#include "gputest/suite_compare.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/text.h"

#define SUITE_NAME "opencl-cts"
#define RESULTS_MAX_BYTES ((size_t)4 << 20)
#define NAME_MAX_LEN 128

char *cts_default_dir(const struct store *s)
{
	char *installed = store_cts_suite_path(s, CTS_OPENCL);
	return installed ? installed : recipe_cache_dir("opencl-cts");
}

/* A binary's or a sub-test's name: what goes into a path and onto a command line. */
static int valid_name(const char *s, size_t len)
{
	if (len == 0 || len > NAME_MAX_LEN)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

char *cts_tests_invalid(const char *tests)
{
	return list_first_invalid(tests, valid_name);
}

/* ---- a binary and its sub-tests ---- */

struct cts_binary {
	char *name;  /* "basic" */
	char *path;  /* the real path of test_basic */
	char *cwd;   /* its directory: some binaries read data files beside them */
	char **subs; /* the chosen sub-tests */
	size_t n_subs;
	size_t duplicates, cut; /* of its --list: names listed again, names past the bound */
	char stopped[256];      /* the first of its processes stopped at its output or memory
				 * bound, and which: "" none */
};

static void binary_free(struct cts_binary *b)
{
	free(b->name);
	free(b->path);
	free(b->cwd);
	for (size_t i = 0; i < b->n_subs; i++)
		free(b->subs[i]);
	free(b->subs);
}

static int binary_find(const char *dir, const char *name, struct cts_binary *b, struct tb_error *e)
{
	memset(b, 0, sizeof *b);
	char *flat = xasprintf("%s/test_%s", dir, name), *tree = xasprintf("%s/%s/test_%s", dir, name, name);
	const char *given = flat;
	char *real = realpath(flat, NULL);
	if (!real)
		real = realpath(tree, NULL), given = tree;
	struct stat st;
	int rc = TB_OK;
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode) || access(real, X_OK) != 0) {
		rc = tb_fail(e, TB_R_PROGRAM_MISSING,
			     "no OpenCL-CTS binary test_%s in %s; install the CTS release (`tb323fu-ctl "
			     "mesa cts update`), build the suite with build-recipes/opencl-cts, or name the "
			     "directory of its binaries with --cts DIR or cts_dir in mesa.conf",
			     name, dir);
		free(real);
	} else if ((rc = trusted_program_path(given, "the OpenCL-CTS binary", e)) != TB_OK) {
		free(real);
	} else {
		b->name = xstrdup(name);
		b->path = real;
		b->cwd = xstrdup(real);
		*strrchr(b->cwd, '/') = '\0';
	}
	free(flat);
	free(tree);
	return rc;
}

struct listing {
	struct cts_binary *b;
	const char *name;
	regex_t *re;
	size_t seen, lines;
	GHashTable *known; /* the names seen, each once */
	enum { LIST_ON, LIST_LINES, LIST_NAMES } full; /* a bound was reached: the binary is stopped */
};

/* `--list` writes each sub-test's name on a line of its own, after a tab. A binary names a
 * few hundred; one that goes on past CTS_MAX_LIST_LINES lines is stopped there and what it
 * named after is cut (and said); a name listed again counts once. One that names more than
 * CTS_MAX_SUBTESTS different sub-tests is no OpenCL-CTS binary: it is stopped and refused. */
static void on_list_line(void *ctx, const char *line)
{
	struct listing *l = ctx;
	if (l->full)
		return;
	if (++l->lines > CTS_MAX_LIST_LINES) {
		l->b->cut++;
		l->full = LIST_LINES;
		return;
	}
	if (line[0] != '\t' || !valid_name(line + 1, strlen(line + 1)))
		return;
	if (g_hash_table_contains(l->known, line + 1)) {
		l->b->duplicates++;
		return;
	}
	if (g_hash_table_size(l->known) >= CTS_MAX_SUBTESTS) {
		l->b->cut++;
		l->full = LIST_NAMES;
		return;
	}
	g_hash_table_add(l->known, g_strdup(line + 1));
	l->seen++;
	char *full = xasprintf("%s/%s", l->name, line + 1);
	if (!l->re || regexec(l->re, full, 0, NULL, 0) == 0) {
		l->b->subs = xrealloc(l->b->subs, (l->b->n_subs + 1) * sizeof *l->b->subs);
		l->b->subs[l->b->n_subs++] = xstrdup(line + 1);
	}
	free(full);
}

static int listing_full(void *ctx)
{
	return ((struct listing *)ctx)->full;
}

static int binary_list(struct cts_binary *b, regex_t *re, struct tb_error *e)
{
	char *argv[] = {b->path, "--list", NULL};
	struct child c;
	int rc = child_start(&c, argv, b->cwd, e);
	if (rc)
		return rc;
	struct listing l = {.b = b, .name = b->name, .re = re,
			    .known = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
	struct child_tail tail = {0};
	struct child_watch w = {.line = on_list_line, .err_tail = &tail, .ctx = &l, .tick = listing_full,
				.tick_ms = 100, .deadline = now_seconds() + smoke_timeout_seconds()};
	int status = 0, end = child_supervise(&c, &w, &status);
	g_hash_table_destroy(l.known);
	if (end == CHILD_INTERRUPTED)
		return tb_check_interrupted(e, "OpenCL-CTS listed its tests");
	if (l.full == LIST_NAMES) /* distinct names without end: whatever it runs will not end either */
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       "%s --list went on past %d different sub-tests and was stopped there; is it "
			       "an OpenCL-CTS test binary? (one names a few hundred)",
			       b->path, CTS_MAX_SUBTESTS);
	if (l.full && l.seen)
		return TB_OK; /* the same names again: what it named so far stands, the rest is counted */
	char bound[160];
	child_bound_said(&c, bound, sizeof bound);
	if (c.bound == CHILD_BOUND_TIME) /* a real binary lists at once: one that goes on is broken */
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       "%s --list did not end within %d s (named %zu sub-tests by then); is it an "
			       "OpenCL-CTS test binary? ($TB323FU_MESA_SMOKE_TIMEOUT sets the bound)",
			       b->path, smoke_timeout_seconds(), l.seen);
	if (c.bound != CHILD_BOUND_NONE)
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       "%s --list was stopped: %s (named %zu sub-tests by then); is it an "
			       "OpenCL-CTS test binary?",
			       b->path, bound, l.seen);
	if (end != CHILD_EXITED || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !l.seen) {
		char how[160];
		child_describe_status(status, how, sizeof how);
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       "%s --list named no sub-test (%s); is it an OpenCL-CTS test binary?",
			       b->path, end == CHILD_TIMED_OUT ? "it did not end" : how);
	}
	return TB_OK;
}

/* ---- one process of a binary on one side ---- */

/* What the workers share (gputest/jobs.c runs binaries at once). */
struct cts_shared {
	int out_of_budget;   /* atomically */
	size_t done[2];      /* atomically */
	struct locked_progress lp;
};

/* One worker's run: each binary runs in one worker, its processes one after another. */
struct cts_run {
	struct store *s;
	const char *version;
	const struct cts_request *r;
	const char *workdir;
	double budget_end;   /* 0: none */
	struct cts_shared *sh;
	int retrying;        /* a second run of regressions: no progress counts */
	json_object *flaky;  /* sub-tests whose result changed when run again */
	char *stopped;       /* the running binary's: a process stopped at a bound */
	size_t total;
	size_t live[2];      /* sub-tests the running process has said it finished */
	size_t live_max;     /* how many it runs */
	char *const *subs;   /* which */
	size_t began;        /* the one it began last (live_max: none) */
	enum side running;
};

static int over_budget(const struct cts_run *run)
{
	return __atomic_load_n(&run->sh->out_of_budget, __ATOMIC_SEQ_CST);
}

static void mark_over_budget(struct cts_run *run)
{
	__atomic_store_n(&run->sh->out_of_budget, 1, __ATOMIC_SEQ_CST);
}

/* Progress for one side: the binaries done by every worker, plus what this worker's running
 * process has finished (added: n finished for good). */
static void report(struct cts_run *run, enum side side, size_t finished, size_t live)
{
	if (run->retrying)
		return;
	size_t done = __atomic_add_fetch(&run->sh->done[side], finished, __ATOMIC_SEQ_CST) + live;
	char label[64];
	snprintf(label, sizeof label, SUITE_NAME ":%s", side_name(side));
	progress_count(&run->sh->lp.p, "suite", label, done, run->total);
}

/* The harness says "NAME..." as a sub-test begins and "NAME passed", "NAME FAILED" or "NAME
 * test not supported" as it ends: where to split a process that crashed, and the count while
 * a binary runs, never a result (those come from its JSON). */
static void on_run_line(void *ctx, const char *line)
{
	static const char *const ends[] = {" passed", " FAILED", " test not supported",
					   " test currently not implemented"};
	struct cts_run *run = ctx;
	size_t len = strlen(line);
	/* "NAME..." as one begins (the harness flushes it) */
	if (len > 3 && !strcmp(line + len - 3, "...")) {
		for (size_t i = 0; i < run->live_max; i++)
			if (strlen(run->subs[i]) == len - 3 && !strncmp(run->subs[i], line, len - 3))
				run->began = i;
		return;
	}
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		size_t el = strlen(ends[i]);
		if (len > el && !strcmp(line + len - el, ends[i]) && valid_name(line, len - el)) {
			if (run->live[run->running] < run->live_max)
				run->live[run->running]++;
			report(run, run->running, 0, run->live[run->running]);
			return;
		}
	}
}

static int binary_timeout(void)
{
	const char *v = getenv("TB323FU_MESA_CTS_TIMEOUT");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*end && n > 0 && n <= 7 * 86400)
			return (int)n;
	}
	return CTS_BINARY_SECONDS;
}

/* The harness's results file → {sub-test: "pass"|"fail"|"skip"}, or NULL. */
static json_object *read_results(const char *path)
{
	json_object *o = json_file_read_object(path, RESULTS_MAX_BYTES), *res;
	json_object *map = NULL;
	if (o && json_object_object_get_ex(o, "results", &res) &&
	    json_object_is_type(res, json_type_object)) {
		map = json_object_new_object();
		json_object_object_foreach(res, name, v) {
			const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
			const char *result = !strcmp(s, "pass") || !strcmp(s, "fail") || !strcmp(s, "skip")
						     ? s
						     : "missing";
			json_object_object_add(map, name, json_object_new_string(result));
		}
	}
	json_object_put(o);
	return map;
}

static void set_result(json_object *map, const char *bin, const char *sub, const char *result)
{
	char *key = xasprintf("%s/%s", bin, sub);
	json_object_object_add(map, key, json_object_new_string(result));
	free(key);
}

/* PROC_BOUNDED: stopped at its output or memory bound (child.h), said in run->stopped. */
enum proc_end { PROC_RESULTS, PROC_CRASHED, PROC_HUNG, PROC_NO_RESULTS, PROC_BUDGET, PROC_BOUNDED };

/* Runs subs[0..n) of b in one process on side; their results into map when it wrote them;
 * *began is the index of the sub-test it began last (n: none). */
static int run_process(struct cts_run *run, enum side side, const struct cts_binary *b,
		       char *const subs[], size_t n, json_object *map, enum proc_end *how,
		       size_t *began, struct tb_error *e)
{
	char *file = xasprintf("%s/%s-%s.json", run->workdir, side_name(side), b->name);
	unlink(file);
	char *var = xasprintf("CL_CONFORMANCE_RESULTS_FILENAME=%s", file);
	char *env[] = {"CL_DEVICE_TYPE=all", var, NULL};
	char **cmd = xcalloc(n + 3, sizeof *cmd);
	cmd[0] = b->path;
	cmd[1] = "-w";
	for (size_t i = 0; i < n; i++)
		cmd[i + 2] = subs[i];
	char **argv = side_argv(run->s, run->version, side, NULL, env, cmd, e);
	free(cmd);
	free(var);
	struct child c;
	int rc = argv ? child_start(&c, argv, b->cwd, e) : TB_EFAIL;
	side_free_argv(argv);
	if (rc) {
		free(file);
		return rc;
	}
	double deadline = now_seconds() + binary_timeout();
	int by_budget = run->budget_end > 0 && run->budget_end < deadline;
	run->running = side;
	run->live[side] = 0;
	run->live_max = n;
	run->subs = subs;
	run->began = n;
	struct child_watch w = {.deadline = by_budget ? run->budget_end : deadline,
				.line = on_run_line, .ctx = run};
	int status = 0, end = child_supervise(&c, &w, &status);
	if (end == CHILD_INTERRUPTED) {
		free(file);
		return tb_check_interrupted(e, "OpenCL-CTS ran");
	}
	*began = run->began;
	json_object *got = end == CHILD_EXITED ? read_results(file) : NULL;
	free(file);
	if (end == CHILD_TIMED_OUT && (c.bound == CHILD_BOUND_OUTPUT || c.bound == CHILD_BOUND_MEMORY)) {
		*how = PROC_BOUNDED;
		if (run->stopped && !run->stopped[0]) {
			char bound[160];
			child_bound_said(&c, bound, sizeof bound);
			snprintf(run->stopped, sizeof ((struct cts_binary *)0)->stopped, "test_%s on %s was stopped: %s",
				 b->name, side == SIDE_STORE ? "the store's side" : "the distribution's side", bound);
		}
	} else if (end == CHILD_TIMED_OUT)
		*how = by_budget ? PROC_BUDGET : PROC_HUNG;
	else if (got)
		*how = PROC_RESULTS;
	else if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 128))
		*how = PROC_CRASHED;
	else
		*how = PROC_NO_RESULTS;
	if (got) {
		for (size_t i = 0; i < n; i++) {
			json_object *v;
			set_result(map, b->name, subs[i],
				   json_object_object_get_ex(got, subs[i], &v) ? json_object_get_string(v) : "missing");
		}
		json_object_put(got);
	}
	return TB_OK;
}

static void count_done(struct cts_run *run, enum side side, size_t n)
{
	report(run, side, n, 0);
}

static const char *end_result(enum proc_end how)
{
	return how == PROC_CRASHED ? "crash" : how == PROC_HUNG ? "timeout" : "fail";
}

/* subs[0..n) of b on side into map, in as few processes as it takes. A process that crashes
 * or hangs without its results is split at the sub-test the harness had begun last: those
 * before it run again together, it alone, those after it together; when it named none, each
 * runs alone. over_budget(run) says when the budget ran out first. */
static int run_subs(struct cts_run *run, enum side side, const struct cts_binary *b,
		    char *const subs[], size_t n, json_object *map, struct tb_error *e)
{
	enum proc_end how = PROC_NO_RESULTS;
	size_t began = n;
	int rc = run_process(run, side, b, subs, n, map, &how, &began, e);
	if (rc || how == PROC_RESULTS)
		return rc;
	if (how == PROC_BUDGET) {
		mark_over_budget(run);
		return TB_OK;
	}
	/* stopped at its output or memory bound before it began a sub-test: no sub-test alone
	 * would end otherwise (a binary that writes without end), so none runs again */
	if (n == 1 || how == PROC_NO_RESULTS || (how == PROC_BOUNDED && began >= n)) {
		for (size_t i = 0; i < n; i++)
			set_result(map, b->name, subs[i], end_result(how));
		return TB_OK;
	}
	if (began >= n) {
		for (size_t i = 0; i < n && !rc && !over_budget(run); i++)
			rc = run_subs(run, side, b, &subs[i], 1, map, e);
		return rc;
	}
	if (began > 0)
		rc = run_subs(run, side, b, subs, began, map, e);
	if (!rc && !over_budget(run))
		rc = run_subs(run, side, b, &subs[began], 1, map, e);
	if (!rc && !over_budget(run) && began + 1 < n)
		rc = run_subs(run, side, b, &subs[began + 1], n - began - 1, map, e);
	return rc;
}

/* b's sub-tests on one side into map; *complete is 0 when the budget ran out first. */
static int run_side(struct cts_run *run, enum side side, const struct cts_binary *b,
		    json_object *map, int *complete, struct tb_error *e)
{
	*complete = 0;
	if (run->budget_end > 0 && now_seconds() >= run->budget_end) {
		mark_over_budget(run);
		return TB_OK;
	}
	int rc = run_subs(run, side, b, b->subs, b->n_subs, map, e);
	if (rc || over_budget(run))
		return rc;
	count_done(run, side, b->n_subs);
	*complete = 1;
	return TB_OK;
}

/* The distribution's results of b: what it depends on is the binary, the sub-tests, the
 * driver selection and the distribution's Mesa. */
static char *distro_cache(const struct cts_run *run, const struct cts_binary *b,
			  const char *rusticl_enable)
{
	size_t len = 1;
	for (size_t i = 0; i < b->n_subs; i++)
		len += strlen(b->subs[i]) + 1;
	char *subs = xcalloc(len, 1);
	for (size_t i = 0; i < b->n_subs; i++) {
		strcat(subs, b->subs[i]);
		strcat(subs, " ");
	}
	const char *parts[] = {b->name, subs, "-w CL_DEVICE_TYPE=all", rusticl_enable ? rusticl_enable : ""};
	const char *programs[] = {b->path};
	char *path = suite_cache_path(run->s, SUITE_NAME, parts, 4, programs, 1);
	free(subs);
	return path;
}

/* b's sub-tests that pass in theirs and not in mine (but for a timeout, which took the whole
 * per-binary time already) into subs; how many. */
static size_t regressed(const struct cts_binary *b, json_object *mine, json_object *theirs, char **subs)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n_subs; i++) {
		char *key = xasprintf("%s/%s", b->name, b->subs[i]);
		json_object *ours, *distro;
		if (json_object_object_get_ex(mine, key, &ours) && json_object_object_get_ex(theirs, key, &distro) &&
		    suite_result_passes(json_object_get_string(distro)) &&
		    !suite_result_passes(json_object_get_string(ours)) &&
		    strcmp(json_object_get_string(ours), "timeout"))
			subs[n++] = b->subs[i];
		free(key);
	}
	return n;
}

/* Runs subs[0..n) once more on side (in one process, split as run_subs splits); those whose
 * result now differs in passing from the first run's go into results as the second run gave
 * them, and their names into run->flaky. */
static int run_again(struct cts_run *run, enum side side, const struct cts_binary *b, char **subs,
		     size_t n, json_object *results, struct tb_error *e)
{
	json_object *second = json_object_new_object();
	run->retrying = 1;
	int rc = run_subs(run, side, b, subs, n, second, e);
	run->retrying = 0;
	json_object_object_foreach(second, key, v) {
		json_object *first;
		if (rc || over_budget(run) || !json_object_object_get_ex(results, key, &first) ||
		    suite_result_passes(json_object_get_string(v)) == suite_result_passes(json_object_get_string(first)))
			continue;
		json_object_object_add(results, key, json_object_get(v));
		json_object_array_add(run->flaky, json_object_new_string(key));
	}
	json_object_put(second);
	return rc;
}

/* Some sub-tests fail now and then between identical builds (events/event_enqueue_marker and
 * vectors/vec_align_array were seen to, on either side), so a regression must hold twice: one
 * that passes with the distribution's Mesa and not with ours runs again on our side, and when
 * it still does not pass there, again on the distribution's. Where the second run changed a
 * result, that result stands and the sub-test is named flaky. */
static int retry_regressions(struct cts_run *run, const struct cts_binary *b, json_object *mine,
			     json_object *theirs, struct tb_error *e)
{
	char **subs = xcalloc(b->n_subs + 1, sizeof *subs);
	size_t n = regressed(b, mine, theirs, subs);
	int rc = n ? run_again(run, SIDE_STORE, b, subs, n, mine, e) : TB_OK;
	if (!rc && n && !over_budget(run)) {
		n = regressed(b, mine, theirs, subs);
		if (n)
			rc = run_again(run, SIDE_DISTRO, b, subs, n, theirs, e);
	}
	free(subs);
	return rc;
}

/* Moves b's results from one into all. */
static void merge(json_object *all, json_object *one)
{
	json_object_object_foreach(one, k, v)
		json_object_object_add(all, k, json_object_get(v));
}

static int run_binary(struct cts_run *run, const struct cts_binary *b, const char *rusticl_enable,
		      json_object *store_map, json_object *distro_map, int *cached, struct tb_error *e)
{
	json_object *mine = json_object_new_object(), *theirs = NULL;
	int complete = 0;
	int rc = run_side(run, SIDE_STORE, b, mine, &complete, e);
	char *cache = distro_cache(run, b, rusticl_enable);
	if (!rc && complete) {
		theirs = suite_cache_read(cache);
		*cached = theirs != NULL;
		if (theirs) {
			count_done(run, SIDE_DISTRO, b->n_subs);
		} else {
			theirs = json_object_new_object();
			rc = run_side(run, SIDE_DISTRO, b, theirs, &complete, e);
			if (!rc && complete)
				suite_cache_write(run->s, cache, SUITE_NAME, theirs);
		}
	}
	if (!rc && complete)
		rc = retry_regressions(run, b, mine, theirs, e);
	/* a binary counts only when both sides ran it to its end */
	if (!rc && complete) {
		merge(store_map, mine);
		merge(distro_map, theirs);
	}
	free(cache);
	json_object_put(mine);
	json_object_put(theirs);
	return rc;
}

/* ---- the run ---- */

static int binaries_open(const struct cts_request *r, const char *dir, regex_t *re,
			 struct cts_binary **out, size_t *n_out, size_t *subs, struct tb_error *e)
{
	const char *tests = r->tests && *r->tests ? r->tests : CTS_DEFAULT_TESTS;
	char *bad = cts_tests_invalid(tests);
	if (bad) {
		int rc = tb_fail(e, TB_R_CONFIG_INVALID,
				 "\"%s\" is no name of an OpenCL-CTS test binary (basic for test_basic)", bad);
		free(bad);
		return rc;
	}
	struct cts_binary *bins = NULL;
	size_t n = 0;
	*subs = 0;
	int rc = TB_OK;
	for (const char *p = tests; !rc;) {
		size_t len = strcspn(p, ",");
		char *name = strndup(p, len);
		bins = xrealloc(bins, (n + 1) * sizeof *bins);
		rc = binary_find(dir, name, &bins[n], e);
		if (!rc) {
			rc = binary_list(&bins[n], re, e);
			*subs += bins[n].n_subs;
			n++;
		}
		free(name);
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!rc && *subs == 0)
		rc = tb_fail(e, TB_R_CONFIG_INVALID,
			     "no sub-test of %s matches --subtests \"%s\" (names are BINARY/SUB-TEST, as in "
			     "basic/hostptr)",
			     tests, r->subtests ? r->subtests : "");
	*out = bins;
	*n_out = n;
	return rc;
}

/* The binaries as pieces of work: each binary's two sides, its retries and its results are
 * its own; merged in the binaries' order afterwards. */
struct cts_pieces {
	struct cts_run *workers; /* by worker */
	struct cts_binary *bins;
	const char *rusticl_enable;
	json_object **mine, **theirs, **flaky; /* by binary */
	int *cached;
};

static int run_piece(void *ctx, size_t i, int worker, struct tb_error *e)
{
	struct cts_pieces *p = ctx;
	struct cts_run *run = &p->workers[worker];
	if (!p->bins[i].n_subs || over_budget(run))
		return TB_OK; /* none chosen (with no names the binary would run all), or no time */
	p->mine[i] = json_object_new_object();
	p->theirs[i] = json_object_new_object();
	p->flaky[i] = json_object_new_array();
	run->flaky = p->flaky[i];
	run->stopped = p->bins[i].stopped;
	return run_binary(run, &p->bins[i], p->rusticl_enable, p->mine[i], p->theirs[i], &p->cached[i], e);
}

static int run_all(struct cts_run *base, struct cts_binary *bins, size_t n, const char *rusticl_enable,
		   struct suite_outcome *out, json_object **result, struct tb_error *e)
{
	json_object *store_map = json_object_new_object(), *distro_map = json_object_new_object();
	json_object *not_run = json_object_new_array(), *ran = json_object_new_array();
	json_object *flaky = json_object_new_array();
	int jobs = base->r->jobs > 0 ? base->r->jobs : jobs_default();
	struct cts_pieces p = {.workers = xcalloc((size_t)jobs, sizeof *p.workers), .bins = bins,
			       .rusticl_enable = rusticl_enable, .mine = xcalloc(n + 1, sizeof *p.mine),
			       .theirs = xcalloc(n + 1, sizeof *p.theirs), .flaky = xcalloc(n + 1, sizeof *p.flaky),
			       .cached = xcalloc(n + 1, sizeof *p.cached)};
	for (int k = 0; k < jobs; k++)
		p.workers[k] = *base;
	int all_cached = 1;
	progress_test(base->r->progress, SUITE_NAME ":store", "run");
	int rc = jobs_run(n, jobs, run_piece, &p, e);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!bins[i].n_subs)
			continue;
		if (!p.mine[i] || !json_object_object_length(p.mine[i])) {
			json_object_array_add(not_run, json_object_new_string(bins[i].name));
			continue;
		}
		json_object_array_add(ran, json_object_new_string(bins[i].name));
		all_cached &= p.cached[i];
		merge(store_map, p.mine[i]);
		merge(distro_map, p.theirs[i]);
		for (size_t k = 0; k < json_object_array_length(p.flaky[i]); k++)
			json_object_array_add(flaky, json_object_get(json_object_array_get_idx(p.flaky[i], k)));
	}
	progress_test(base->r->progress, SUITE_NAME ":store", progress_outcome(rc));
	if (!rc) {
		out->distro_cached = all_cached && json_object_array_length(ran) > 0;
		json_object *extra = json_object_new_object();
		json_object_object_add(extra, "binaries", ran);
		json_object_object_add(extra, "not_run", not_run);
		json_object_object_add(extra, "flaky", json_object_get(flaky));
		json_object_object_add(extra, "subtests",
				       json_object_new_string(base->r->subtests ? base->r->subtests : ""));
		json_object_object_add(extra, "budget", json_object_new_int(base->r->budget));
		json_object_object_add(extra, "jobs", json_object_new_int(jobs));
		size_t cut = 0, duplicates = 0;
		for (size_t i = 0; i < n; i++) {
			cut += bins[i].cut;
			duplicates += bins[i].duplicates;
		}
		json_object_object_add(extra, "cut", json_object_new_int64((int64_t)cut));
		json_object_object_add(extra, "duplicates", json_object_new_int64((int64_t)duplicates));
		json_object_object_add(extra, "distribution_cached", json_object_new_boolean(out->distro_cached));
		if (base->r->tests && *base->r->tests)
			suite_partial(extra, "only the binaries --tests %s names", base->r->tests);
		if (base->r->subtests && *base->r->subtests)
			suite_partial(extra, "only the sub-tests --subtests %s selects", base->r->subtests);
		if (json_object_array_length(not_run))
			suite_partial(extra, "the budget of %d s left %zu binaries not run", base->r->budget,
				      json_object_array_length(not_run));
		if (cut)
			suite_partial(extra, "%zu sub-tests were left out", cut);
		for (size_t i = 0; i < n; i++)
			if (bins[i].stopped[0])
				suite_partial(extra, "%s", bins[i].stopped);
		rc = suite_record(base->s, base->version, SUITE_NAME, store_map, distro_map, NULL, extra,
				  base->r->progress, out, result, e);
		json_object_put(extra);
	} else {
		json_object_put(ran);
		json_object_put(not_run);
	}
	for (size_t i = 0; i < n; i++) {
		json_object_put(p.mine[i]);
		json_object_put(p.theirs[i]);
		json_object_put(p.flaky[i]);
	}
	free(p.mine);
	free(p.theirs);
	free(p.flaky);
	free(p.cached);
	free(p.workers);
	json_object_put(flaky);
	json_object_put(store_map);
	json_object_put(distro_map);
	return rc;
}

int suite_cts_run(struct store *s, const char *version, const struct cts_request *r,
		  struct suite_outcome *out, json_object **result, struct tb_error *e)
{
	struct manifest m;
	int rc = suite_opencl_begin(s, version, "OpenCL-CTS", out, result, &m, e);
	if (rc)
		return rc;
	regex_t re;
	int have_re = r->subtests && *r->subtests;
	if (have_re && regex_compile_bounded(&re, r->subtests, REG_EXTENDED | REG_NOSUB, "--subtests", e)) {
		manifest_free(&m);
		return e->code;
	}
	char *dir = r->dir && *r->dir ? xstrdup(r->dir) : cts_default_dir(s);
	struct cts_binary *bins = NULL;
	size_t n = 0, subs = 0;
	rc = binaries_open(r, dir, have_re ? &re : NULL, &bins, &n, &subs, e);
	char *workdir = rc ? NULL : temp_dir_make("tb323fu-cts", "OpenCL-CTS's results", e);
	if (!rc && !workdir)
		rc = TB_EFAIL;
	else if (!rc) {
		struct cts_shared sh = {0};
		locked_progress_init(&sh.lp, r->progress);
		struct cts_run run = {.s = s, .version = version, .r = r, .workdir = workdir, .total = subs,
				      .budget_end = r->budget > 0 ? now_seconds() + r->budget : 0, .sh = &sh};
		rc = run_all(&run, bins, n, m.rusticl_enable, out, result, e);
		locked_progress_free(&sh.lp);
		remove_tree(workdir);
	}
	free(workdir);
	for (size_t i = 0; i < n; i++)
		binary_free(&bins[i]);
	free(bins);
	free(dir);
	if (have_re)
		regfree(&re);
	manifest_free(&m);
	return rc;
}

/* smoke --suite opencl-cts's choices over cts_dir, cts_tests, cts_budget and suite_jobs; after an
 * install, smoke_suite_filter chooses the sub-tests. */
static int run_entry(struct store *s, const char *version, const struct suite_options *o,
		     const struct config *cfg, const struct tb_progress *p, struct suite_outcome *out,
		     json_object **result, struct tb_error *e)
{
	struct cts_request r = {
		.dir = o && o->cts ? o->cts : cfg->cts_dir,
		.tests = o && o->tests ? o->tests : cfg->cts_tests,
		.subtests = o ? o->subtests : cfg->smoke_suite_filter,
		.budget = o && o->budget ? o->budget : (int)cfg->cts_budget,
		.jobs = o && o->jobs ? o->jobs : (int)cfg->suite_jobs,
		.progress = p,
	};
	return suite_cts_run(s, version, &r, out, result, e);
}

/* "; the budget of N s ran out, so these did not run: a, b" and what a bounded --list left
 * out. */
static void run_notes(struct strbuf *sb, json_object *res)
{
	json_object *budget = NULL, *cut;
	json_object_object_get_ex(res, "budget", &budget);
	char *ran_out = xasprintf("; the budget of %d s ran out, so these did not run: ", json_object_get_int(budget));
	suite_append_names(sb, res, "not_run", ran_out);
	free(ran_out);
	if (json_object_object_get_ex(res, "cut", &cut) && json_object_get_int64(cut))
		sb_appendf(sb, "; a binary's --list went on past %d lines, and what it named after was "
			   "left out", CTS_MAX_LIST_LINES);
}

const struct suite opencl_cts_suite = {
	.name = SUITE_NAME,
	.units = "OpenCL-CTS sub-tests",
	.options = SUITE_OPT_CTS | SUITE_OPT_RUN,
	.run = run_entry,
	.notes = run_notes,
};
