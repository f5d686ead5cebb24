/* tb323fu-ctl mesa smoke [VERSION] [--tests a,b,…] [--deqp PATH --caselist FILE]
 * [--suite piglit-cl|opencl-cts|dEQP-VK|dEQP-GLES2|dEQP-GLES3|dEQP-EGL … [--all]]: the smoke
 * tests of docs/design.md §7 (all, or the chosen ones) against an installed version, a dEQP case
 * list under the same environment, or a suite on the store's build and the distribution's Mesa
 * (§10). */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_compare.h"
#include "gputest/suite_cts.h"
#include "gputest/deqp_cases.h"
#include "gputest/suite_deqp.h"
#include "gputest/qpa.h"
#include "gputest/suite.h"

/* The dEQP suites, for sentences. */
#define DEQP_SUITES "dEQP-VK, dEQP-GLES2, dEQP-GLES3, dEQP-EGL"
#include "base/error.h"
#include "base/alloc.h"
#include "base/text.h"
#include "common/smoketests.h"
#include "cli/command.h"
#include "cmd/commands.h"

struct smoke_opts {
	const char *version, *tests, *suite, *profile, *filter, *deqp, *caselist;
	const char *subtests, *cts; /* --suite opencl-cts */
	const char *groups, *fraction; /* the dEQP suites */
	int budget; /* seconds, 0: cts_budget or deqp_budget of mesa.conf */
	int jobs;   /* 0: suite_jobs of mesa.conf, else the number of cores */
	int all; /* every test in a suite's table, not only those that differ */
};

/* The human table: one line a test. */
static void print_tests(json_object *res)
{
	json_object *tests;
	if (!json_object_object_get_ex(res, "tests", &tests))
		return;
	size_t n = json_object_array_length(tests);
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tests, i), *v;
		const char *name = json_object_object_get_ex(t, "name", &v) ? json_object_get_string(v) : "";
		const char *status = json_object_object_get_ex(t, "status", &v) ? json_object_get_string(v) : "";
		int64_t ms = json_object_object_get_ex(t, "ms", &v) ? json_object_get_int64(v) : 0;
		const char *detail = json_object_object_get_ex(t, "detail", &v) ? json_object_get_string(v) : "";
		/* details come from drivers (device names, loader errors): shown, not obeyed */
		char *line = xasprintf("%-12s %-4s %6lld ms  %s", name, status, (long long)ms, detail);
		char *shown = term_text(line, 0);
		printf("%s\n", shown);
		free(shown);
		free(line);
	}
}

/* Moves the result's keys into the command's JSON object. */
static void adopt_fields(struct outcome *o, json_object *res)
{
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_foreach(res, key, val)
		json_object_object_add(o->fields, key, json_object_get(val));
}

static int run_deqp(struct cli *c, struct store *s, const char *version, const char *deqp,
		    const char *caselist, struct outcome *o)
{
	const struct deqp_kind *k = NULL;
	struct tb_error e = {0};
	struct qpa_parser q;
	qpa_parser_init(&q);
	int rc = suite_deqp_store_side(s, version, deqp, caselist, c->progress, &q, &e);
	if (rc) {
		qpa_parser_free(&q);
		return outcome_fail(o, &e);
	}
	if (q.n)
		k = deqp_kind_of_case(q.cases[0].name);
	const char *name = k ? k->name : "dEQP";
	json_object *res = qpa_result_json(&q, version);
	size_t counts[QPA_KINDS];
	qpa_count(&q, counts);
	if (cli_tables(c))
		print_tests(res);
	adopt_fields(o, res);
	json_object_put(res);
	size_t failed = counts[QPA_FAIL] + counts[QPA_CRASH] + counts[QPA_TIMEOUT] + counts[QPA_OTHER];
	char *summary = xasprintf(
		"%zu Pass, %zu Fail, %zu NotSupported, %zu QualityWarning, %zu CompatibilityWarning, "
		"%zu Crash, %zu Timeout, %zu other",
		counts[QPA_PASS], counts[QPA_FAIL], counts[QPA_NOT_SUPPORTED],
		counts[QPA_QUALITY_WARNING], counts[QPA_COMPATIBILITY_WARNING], counts[QPA_CRASH],
		counts[QPA_TIMEOUT], counts[QPA_OTHER]);
	if (failed) {
		tb_fail(&e, TB_R_SUITE_REGRESSION, "%s on Mesa %s: %zu of %zu cases failed (%s)", name,
			version, failed, q.n, summary);
		rc = outcome_fail(o, &e);
	} else {
		outcome_say(o, "%s on Mesa %s: no case failed (%s)", name, version, summary);
	}
	free(summary);
	qpa_parser_free(&q);
	return rc;
}

/* Results in the order people read them; any other after, by name. */
static int result_rank(const char *result)
{
	static const char *const order[] = {"pass", "warn", "fail", "crash", "timeout", "skip",
					    "dmesg-warn", "dmesg-fail", "incomplete", "notrun",
					    "missing"};
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		if (!strcmp(result, order[i]))
			return (int)i;
	return (int)(sizeof order / sizeof *order);
}

static int cmp_results(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = result_rank(x), ry = result_rank(y);
	return rx != ry ? rx - ry : strcmp(x, y);
}

static int count_of(json_object *counts, const char *side, const char *result)
{
	json_object *c, *n;
	return json_object_object_get_ex(counts, side, &c) && json_object_object_get_ex(c, result, &n)
		       ? json_object_get_int(n)
		       : 0;
}

/* How many tests gave each result on each side: a line a result, then the total. */
static void print_totals(json_object *res)
{
	json_object *counts, *tests;
	if (!json_object_object_get_ex(res, "counts", &counts))
		return;
	const char *names[64];
	size_t n = 0;
	const char *sides[] = {"store", "distribution"};
	for (int s = 0; s < 2; s++) {
		json_object *side;
		if (!json_object_object_get_ex(counts, sides[s], &side))
			continue;
		json_object_object_foreach(side, result, v) {
			(void)v;
			int seen = 0;
			for (size_t i = 0; i < n && !seen; i++)
				seen = !strcmp(names[i], result);
			if (!seen && n < sizeof names / sizeof *names)
				names[n++] = result;
		}
	}
	qsort(names, n, sizeof *names, cmp_results);
	printf("%-14s %8s %13s\n", "", "store", "distribution");
	for (size_t i = 0; i < n; i++) {
		/* results are piglit's words: shown, not obeyed */
		char *shown = term_text(names[i], 0);
		printf("%-14s %8d %13d\n", shown, count_of(counts, "store", names[i]),
		       count_of(counts, "distribution", names[i]));
		free(shown);
	}
	int total = json_object_object_get_ex(res, "tests", &tests) ? json_object_get_int(tests) : 0;
	printf("%-14s %8d %13d\n\n", "tests", total, total);
}

/* The suite's table: the totals, then a line a test whose results differ between the sides
 * (every test with all), regressions and fixes marked. */
static void print_suite(json_object *res, int all)
{
	json_object *list;
	if (!json_object_object_get_ex(res, "results", &list))
		return;
	print_totals(res);
	size_t n = json_object_array_length(list), differ = 0, rows = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(list, i), *name, *a, *b;
		json_object_object_get_ex(t, "name", &name);
		json_object_object_get_ex(t, "store", &a);
		json_object_object_get_ex(t, "distribution", &b);
		const char *sa = json_object_get_string(a), *sb = json_object_get_string(b);
		int same = !strcmp(sa, sb);
		differ += !same;
		if (same && !all)
			continue;
		if (rows++ == 0)
			printf("%-60s %-10s %s\n", "test", "store", "distribution");
		int pa = suite_result_passes(sa), pb = suite_result_passes(sb);
		char *line = xasprintf("%-60s %-10s %-12s%s", json_object_get_string(name), sa, sb,
				       pb && !pa ? " regression" : pa && !pb ? " fixed" : "");
		char *shown = term_text(line, 0);
		printf("%s\n", shown);
		free(shown);
		free(line);
	}
	if (!differ)
		printf("no test gave different results on the two sides%s\n",
		       all ? "" : " (--all lists every test)");
	else if (!all)
		printf("%zu of %zu tests gave different results on the two sides (--all lists every test)\n",
		       differ, n);
}

static int run_suite(struct cli *c, struct store *s, const char *version,
		     const struct smoke_opts *a, struct outcome *o)
{
	struct tb_error e = {0};
	struct suite_outcome so;
	json_object *res = NULL;
	const struct suite *su = suite_find(a->suite);
	const char *suite = su->name;
	struct suite_options chosen = {
		.profile = a->profile, .filter = a->filter,
		.tests = a->tests, .subtests = a->subtests, .cts = a->cts,
		.deqp = a->deqp, .groups = a->groups, .caselist = a->caselist, .fraction = a->fraction,
		.budget = a->budget, .jobs = a->jobs,
	};
	int rc = su->run(s, version, &chosen, &c->cfg, c->progress, &so, &res, &e);
	if (rc)
		return outcome_fail(o, &e);
	if (cli_tables(c))
		print_suite(res, a->all);
	outcome_str(o, "suite", suite);
	adopt_fields(o, res);
	char *note = suite_run_notes(su, res);
	json_object_put(res);
	if (so.regressions) {
		char *file = store_smoke_file(s, version);
		tb_fail(&e, TB_R_SUITE_REGRESSION,
			"Mesa %s regressed in %d of %d %s tests against the distribution's Mesa: %s "
			"(the full result is in %s%s)",
			version, so.regressions, so.tests, suite, so.names, file, note);
		free(file);
		free(note);
		return outcome_fail(o, &e);
	}
	if (so.partial) /* a narrowed run is said, and recorded, as partial, never pass */
		outcome_say(o, "Mesa %s passes every %s test the distribution's Mesa passes among the %d that ran; a partial run (%s), recorded as partial, not as the whole suite%s%s",
			    version, suite, so.tests, so.ran,
			    so.distro_cached ? "; the distribution's results came from the cache" : "", note);
	else
		outcome_say(o, "Mesa %s passes every %s test the distribution's Mesa passes (%d tests%s%s)",
			    version, suite, so.tests,
			    so.distro_cached ? "; the distribution's results came from the cache" : "", note);
	free(note);
	return TB_OK;
}

static int run_smoke(struct cli *c, struct store *s, const char *version, const char *tests,
		     struct outcome *o)
{
	struct tb_error e = {0};
	struct smoke_outcome so;
	if (smoke_run_tests(s, version, tests, c->progress, &so, &e))
		return outcome_fail(o, &e);
	json_object *res = smoke_read_result(s, version);
	if (res) {
		if (cli_tables(c))
			print_tests(res);
		adopt_fields(o, res);
		json_object_put(res);
	}
	if (so.failed) {
		char *file = store_smoke_file(s, version);
		tb_fail(&e, TB_R_SMOKE_FAILED, "Mesa %s failed %d of %d smoke tests (%s); the full result is in %s",
			version, so.failed, so.passed + so.failed + so.skipped, so.first_failure, file);
		free(file);
		return outcome_fail(o, &e);
	}
	outcome_say(o, "Mesa %s passed its smoke tests (%d passed, %d skipped)", version, so.passed,
		    so.skipped);
	return TB_OK;
}

static int cmd_smoke_check(const void *opts, struct outcome *o)
{
	const struct smoke_opts *a = opts;
	const struct suite *su = a->suite ? suite_find(a->suite) : NULL;
	const char *suite = su ? su->name : NULL, *deqp = a->deqp, *tests = a->tests;
	unsigned takes = su ? su->options : 0;
	int is_cts = (takes & SUITE_OPT_CTS) != 0;
	if ((a->subtests || a->cts) && !is_cts)
		return cli_usage(o, "--subtests and --cts go with --suite opencl-cts");
	if ((a->budget || a->jobs) && !(takes & SUITE_OPT_RUN))
		return cli_usage(o, "--budget and --jobs go with --suite opencl-cts or a dEQP suite (" DEQP_SUITES ")");
	if ((a->groups || a->fraction) && !(takes & SUITE_OPT_DEQP))
		return cli_usage(o, "--groups and --fraction go with a dEQP suite (" DEQP_SUITES ")");
	if (suite && !(takes & SUITE_OPT_DEQP) && (deqp || a->caselist))
		return cli_usage(o, "--deqp and --caselist go with a dEQP suite (" DEQP_SUITES "), not %s", suite);
	if ((a->profile || a->filter) && !(takes & SUITE_OPT_PIGLIT))
		return cli_usage(o, "--profile and --filter go with --suite piglit-cl");
	if (a->all && !suite)
		return cli_usage(o, "--all lists every test of a suite: it goes with --suite");
	if (!suite && !deqp != !a->caselist)
		return cli_usage(o, "--deqp and --caselist go together (or with a dEQP suite)");
	if (a->groups && a->caselist)
		return cli_usage(o, "--groups and --caselist both choose the cases: give one");
	char *bad = a->groups && strcmp(a->groups, "quick") ? deqp_groups_invalid(a->groups) : NULL;
	if (bad) {
		const struct deqp_kind *k = deqp_kind_find(suite);
		int rc = cli_usage(o, "--groups: \"%.80s\" is no %s group (as %.*s, or quick for %s)", bad,
				   k->name, (int)strcspn(k->groups, ","), k->groups, k->quick);
		free(bad);
		return rc;
	}
	unsigned n, k;
	const char *why = a->fraction ? deqp_fraction_parse(a->fraction, &n, &k) : NULL;
	if (why)
		return cli_usage(o, "%s", why);
	bad = tests && is_cts ? cts_tests_invalid(tests) : NULL;
	if (bad) {
		int rc = cli_usage(o, "--tests: \"%s\" is no name of an OpenCL-CTS test binary "
				   "(basic for test_basic; the default set: %s)", bad, CTS_DEFAULT_TESTS);
		free(bad);
		return rc;
	}
	bad = tests && !is_cts ? smoke_tests_unknown(tests) : NULL;
	if (bad) {
		int rc = cli_usage(o, "--tests: no smoke test is named \"%s\" (the tests: "
				   SMOKE_TEST_LIST ")", bad);
		free(bad);
		return rc;
	}
	if (tests && suite && !is_cts)
		return cli_usage(o, "--tests chooses smoke tests or OpenCL-CTS binaries; it does not go with --suite %s",
				 suite);
	if (tests && deqp)
		return cli_usage(o, "--tests chooses smoke tests; it does not go with --deqp");
	return TB_OK;
}

static int cmd_smoke(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct smoke_opts *a = opts;
	char *chosen = cli_pick_version(s, a->version, o);
	if (!chosen)
		return o->code;
	if (cli_pin_version(c, s, chosen, o)) { /* read, not changed: writers go on (§3) */
		free(chosen);
		return o->code;
	}
	int rc;
	if (a->suite)
		rc = run_suite(c, s, chosen, a, o);
	else if (a->deqp)
		rc = run_deqp(c, s, chosen, a->deqp, a->caselist, o);
	else
		rc = run_smoke(c, s, chosen, a->tests, o);
	free(chosen);
	return rc;
}

static const struct cli_option smoke_options[] = {
	CLI_LIST("--tests", "LIST", struct smoke_opts, tests,
		 "run only these of the smoke tests (" SMOKE_TEST_LIST "); with --suite opencl-cts the CTS binaries (basic,api…)"),
	CLI_CHOICE("--suite", "SUITE", SUITE_CHOICES, struct smoke_opts, suite,
		   "piglit-cl, opencl-cts, dEQP-VK, dEQP-GLES2, dEQP-GLES3 or dEQP-EGL (in lowercase the same)"),
	CLI_CHOICE("--profile", "quick|full", "quick|full", struct smoke_opts, profile,
		   "piglit's profile (with --suite piglit-cl)"),
	CLI_STRING("--filter", "REGEX", struct smoke_opts, filter,
		   "only piglit's tests that match (with --suite piglit-cl)"),
	CLI_STRING("--subtests", "REGEX", struct smoke_opts, subtests,
		   "only the OpenCL-CTS sub-tests whose BINARY/SUB-TEST matches (with --suite opencl-cts)"),
	CLI_INT("--budget", "SECONDS", 1, 7 * 86400, struct smoke_opts, budget,
		"stop an OpenCL-CTS or dEQP run after this long, saying what did not run"),
	CLI_INT("--jobs", "N", 1, 64, struct smoke_opts, jobs,
		"run this many OpenCL-CTS or dEQP processes at once (default: the cores)"),
	CLI_LIST("--groups", "LIST", struct smoke_opts, groups,
		 "the dEQP suite's groups (dEQP-VK: compute,synchronization,synchronization2,memory_model, quick: "
		 "api.smoke,info; the GL ones: info,functional, quick: info and functional.prerequisite)"),
	CLI_STRING("--fraction", "N[/K]", struct smoke_opts, fraction,
		   "every N-th case from the K-th on (with a dEQP suite)"),
	CLI_STRING("--cts", "DIR", struct smoke_opts, cts,
		   "the OpenCL-CTS binaries (default cts_dir of mesa.conf, else build-recipes/opencl-cts's)"),
	CLI_STRING("--deqp", "PATH", struct smoke_opts, deqp,
		   "the dEQP binary or its directory (default deqp_dir of mesa.conf for dEQP-VK, deqp_gl_dir for "
		   "the GL ones, else their recipe's: build-recipes/deqp-vk, build-recipes/deqp-gl); "
		   "without --suite, run it over --caselist on the store's build alone"),
	CLI_STRING("--caselist", "FILE", struct smoke_opts, caselist,
		   "dEQP cases to run, one name a line (instead of --groups)"),
	CLI_FLAG("--all", struct smoke_opts, all,
		 "a suite's table lists every test, not only those whose results differ"),
	CLI_END,
};

const struct cli_command smoke_command = {
	.name = "smoke",
	.args = "[VERSION] [--tests LIST | --suite SUITE [OPTIONS] | --deqp PATH --caselist FILE]",
	.summary = "run the smoke tests against a version (default current)",
	.example = "tb323fu-ctl mesa smoke 2026.10.06",
	.options = smoke_options,
	.opts_size = sizeof(struct smoke_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct smoke_opts, version),
	.open = OPEN_READER, /* a pin, no store lock: on, off, rollback go on meanwhile */
	.writes = 1,
	.check = cmd_smoke_check,
	.run = cmd_smoke,
};
