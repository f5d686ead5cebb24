/* Every bench kept (ctl/gputest/bench_history.c) on fixed inputs: the bounds (50 runs a version,
 * 500 in all, the oldest going first), the reader of the file (hostile runs left out, strings
 * bounded), the lines --history shows (the whole or one figure, a version's alone), the last
 * run of each version in release order, and when the newest version benched slower than the
 * one before it. The file's reader is fuzzed by tests/fuzz/fuzz_bench_history.c. */
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gputest/bench_history.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "tmpdir.h"

/* bench_run's result, as far as the history reads it: the whole ratio with its interval, and
 * one figure "Throughput" of the same ratio. */
static json_object *result(double ratio, const char *verdict)
{
	char *text = xasprintf(
		"{\"command\":\"stand-in\",\"rounds\":10,\"ratio\":%g,\"interval\":[%g,%g],\"verdict\":\"%s\","
		"\"rounds_needed\":null,\"figures_in_whole\":1,"
		"\"sides\":{\"store\":{\"opencl_vendor\":\"/s/rusticl.icd\",\"vulkan_icd\":null},"
		"\"distribution\":{\"opencl_vendor\":\"/etc/OpenCL/vendors/rusticl.icd\",\"vulkan_icd\":null}},"
		"\"failures\":[],\"figures\":[{\"name\":\"Throughput\",\"unit\":\"GB/s\",\"ratio\":%g,"
		"\"interval\":[%g,%g],\"verdict\":\"%s\",\"store\":{\"median\":%g,\"values\":[1,2]},"
		"\"distribution\":{\"median\":100}}]}",
		ratio, ratio * 0.98, ratio * 1.02, verdict, ratio, ratio * 0.98, ratio * 1.02, verdict, ratio * 100);
	json_object *o = json_tokener_parse(text);
	free(text);
	return o;
}

static json_object *entry(const char *version, double ratio, const char *verdict)
{
	json_object *r = result(ratio, verdict);
	json_object *e = bench_history_entry(version, "26.2.0", r, 1796000000);
	json_object_put(r);
	return e;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static void an_entry_keeps_what_the_run_said(void **state)
{
	json_object *e = entry("2026.08.02", 0.7, "slower");
	assert_non_null(e);
	assert_string_equal(str(e, "version"), "2026.08.02");
	assert_string_equal(str(e, "time"), "2026-11-30T00:53:20Z");
	assert_string_equal(str(e, "verdict"), "slower");
	assert_string_equal(str(e, "mesa_version"), "26.2.0");
	json_object *f = json_object_array_get_idx(json_object_object_get(e, "figures"), 0);
	assert_string_equal(str(f, "name"), "Throughput");
	assert_true(json_object_get_double(json_object_object_get(f, "store")) == 70);
	assert_true(json_object_get_double(json_object_object_get(f, "distribution")) == 100);
	/* the per-round values stay in smoke/<v>.json, not in the history */
	assert_false(json_object_object_get_ex(f, "values", NULL));
	assert_string_equal(str(json_object_object_get(json_object_object_get(e, "sides"), "store"), "version"),
			    "2026.08.02");
	json_object_put(e);
}

/* 62 runs of one version keep its newest 50. */
static void a_version_keeps_its_newest_fifty(void **state)
{
	json_object *runs = json_object_new_array();
	for (int i = 0; i < 62; i++)
		bench_history_append(runs, entry("2026.08.02", 1 + i / 100.0, "faster"));
	assert_int_equal(json_object_array_length(runs), BENCH_HISTORY_PER_VERSION);
	/* the first kept is the 13th appended */
	assert_true(json_object_get_double(json_object_object_get(json_object_array_get_idx(runs, 0), "ratio")) == 1.12);
	json_object_put(runs);
}

/* 11 versions of 50 runs: 500 kept, the oldest version's gone first. */
static void five_hundred_in_all(void **state)
{
	json_object *runs = json_object_new_array();
	char v[32];
	for (int k = 0; k < 11; k++)
		for (int i = 0; i < 50; i++) {
			snprintf(v, sizeof v, "2026.%02d.01", k + 1);
			bench_history_append(runs, entry(v, 1, "same"));
		}
	assert_int_equal(json_object_array_length(runs), BENCH_HISTORY_MAX);
	assert_string_equal(str(json_object_array_get_idx(runs, 0), "version"), "2026.02.01");
	/* written and read again: the same 500 */
	char *text = bench_history_format(runs);
	json_object *again = bench_history_parse(text, strlen(text));
	assert_non_null(again);
	assert_int_equal(json_object_array_length(again), BENCH_HISTORY_MAX);
	assert_true(strlen(text) < ((size_t)2 << 20));
	free(text);
	json_object_put(again);
	json_object_put(runs);
}

static void the_reader_leaves_hostile_runs_out(void **state)
{
	static const char *const not_history[] = {"", "[]", "{\"runs\":{}}", "{\"runs\":[", "null", "{\"runs\":[]} x"};
	for (size_t i = 0; i < sizeof not_history / sizeof *not_history; i++)
		assert_null(bench_history_parse(not_history[i], strlen(not_history[i])));
	const char *text = "{\"runs\":[1,{\"version\":\"../x\",\"time\":\"t\"},{\"version\":\"2026.08.02\"},"
			   "{\"version\":\"2026.08.02\",\"time\":\"t\",\"ratio\":-1,\"interval\":[2,1],"
			   "\"verdict\":\"better\",\"rounds\":1e9,\"figures\":[{\"unit\":\"x\"},{\"name\":7}]},"
			   "{\"version\":\"2026.08.03\",\"time\":\"t\",\"ratio\":1e999}]}";
	json_object *runs = bench_history_parse(text, strlen(text));
	assert_non_null(runs);
	/* the two with a version's name and a time, their bad numbers and names left out */
	assert_int_equal(json_object_array_length(runs), 2);
	assert_null(json_object_object_get(json_object_array_get_idx(runs, 1), "ratio"));
	json_object *r = json_object_array_get_idx(runs, 0);
	assert_null(json_object_object_get(r, "ratio"));
	assert_null(json_object_object_get(r, "interval"));
	assert_null(json_object_object_get(r, "verdict"));
	assert_null(json_object_object_get(r, "rounds"));
	assert_int_equal(json_object_array_length(json_object_object_get(r, "figures")), 0);
	json_object_put(runs);
	/* a long command is cut to the bound, at a character's start */
	char *long_text = xasprintf("{\"runs\":[{\"version\":\"2026.08.02\",\"time\":\"t\",\"command\":\"%0500d\\u00e9\"}]}", 0);
	runs = bench_history_parse(long_text, strlen(long_text));
	assert_int_equal(strlen(str(json_object_array_get_idx(runs, 0), "command")), BENCH_HISTORY_TEXT_MAX);
	json_object_put(runs);
	free(long_text);
}

/* Six versions, the figure 30 % lower from the fourth. */
static json_object *six_versions(void)
{
	json_object *runs = json_object_new_array();
	char v[32];
	for (int k = 0; k < 6; k++) {
		snprintf(v, sizeof v, "2026.0%d.01", k + 1);
		bench_history_append(runs, entry(v, k < 3 ? 2.0 : 1.4, "faster"));
	}
	return runs;
}

static void lines_of_a_version_or_a_figure(void **state)
{
	json_object *runs = six_versions();
	bench_history_append(runs, entry("2026.02.01", 2.1, "faster"));
	json_object *all = bench_history_select(runs, NULL, NULL);
	assert_int_equal(json_object_array_length(all), 7);
	json_object *one = bench_history_select(runs, "2026.02.01", "Throughput");
	assert_int_equal(json_object_array_length(one), 2);
	assert_string_equal(str(json_object_array_get_idx(one, 1), "figure"), "Throughput");
	assert_true(json_object_get_double(json_object_object_get(json_object_array_get_idx(one, 1), "ratio")) == 2.1);
	json_object *none = bench_history_select(runs, NULL, "Latency");
	assert_int_equal(json_object_array_length(none), 0);
	/* the last run of each version, in release order */
	json_object *latest = bench_history_latest(all);
	assert_int_equal(json_object_array_length(latest), 6);
	assert_string_equal(str(json_object_array_get_idx(latest, 0), "version"), "2026.01.01");
	assert_true(json_object_get_double(json_object_object_get(json_object_array_get_idx(latest, 1), "ratio")) == 2.1);
	json_object_put(latest);
	json_object_put(none);
	json_object_put(one);
	json_object_put(all);
	json_object_put(runs);
}

static void the_newest_slower_than_the_one_before(void **state)
{
	json_object *runs = six_versions();
	char *before = NULL;
	double a = 0, b = 0;
	assert_int_equal(bench_history_slower(runs, "2026.04.01", &before, &a, &b), 1);
	assert_string_equal(before, "2026.03.01");
	assert_true(a == 1.4 && b == 2.0);
	free(before);
	/* the fifth against the fourth: the same, nothing said */
	assert_int_equal(bench_history_slower(runs, "2026.05.01", &before, &a, &b), 0);
	assert_null(before);
	/* a version never benched: nothing said */
	assert_int_equal(bench_history_slower(runs, "2026.09.01", &before, &a, &b), 0);
	/* within the noise floor of the one before: nothing said */
	bench_history_append(runs, entry("2026.07.01", 1.38, "faster"));
	assert_int_equal(bench_history_slower(runs, "2026.07.01", &before, &a, &b), 0);
	json_object_put(runs);
}

/* Recorded in a store: the file in place, read back, no temporary left. */
static void recorded_in_the_store(void **state)
{
	char *dir = test_mkdtemp("bench-history");
	struct store s = {.root = dir, .lock_fd = -1};
	struct tb_error e = {0};
	for (int i = 0; i < 3; i++)
		assert_int_equal(bench_history_record(&s, entry("2026.08.02", 1.5, "faster"), &e), 0);
	json_object *runs = bench_history_load(&s);
	assert_int_equal(json_object_array_length(runs), 3);
	json_object_put(runs);
	char *cmd = xasprintf("test \"$(ls -A '%s')\" = " STORE_BENCH_HISTORY, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	remove_tree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_entry_keeps_what_the_run_said),
		cmocka_unit_test(a_version_keeps_its_newest_fifty),
		cmocka_unit_test(five_hundred_in_all),
		cmocka_unit_test(the_reader_leaves_hostile_runs_out),
		cmocka_unit_test(lines_of_a_version_or_a_figure),
		cmocka_unit_test(the_newest_slower_than_the_one_before),
		cmocka_unit_test(recorded_in_the_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
