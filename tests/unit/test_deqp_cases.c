/* What chooses the dEQP-VK cases and judges them: case lists and their bounds, fractions,
 * expected failures applied to a comparison, and the job runner's order and first failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/fs.h"
#include "gputest/deqp_cases.h"
#include "gputest/expected.h"
#include "gputest/jobs.h"
#include "gputest/suite_compare.h"
#include "tmpdir.h"

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	char *path = NULL;
	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void a_case_list_keeps_order_and_takes_a_name_once(void **state)
{
	(void)state;
	char *dir = test_mkdtemp("deqp-cases");
	char *p = write_tmp(dir, "l", "# c\n  dEQP-VK.a.b_1 \r\n\ndEQP-VK.a.c\ndEQP-VK.a.b_1\n");
	struct deqp_cases c;
	struct tb_error e = {0};
	assert_int_equal(deqp_cases_read(&c, &deqp_vk_kind, p, &e), TB_OK);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.names[0], "dEQP-VK.a.b_1");
	assert_string_equal(c.names[1], "dEQP-VK.a.c");
	assert_int_equal(c.duplicates, 1);
	deqp_cases_free(&c);
	free(p);
	remove_tree(dir);
	free(dir);
}

static void a_case_list_refuses_what_is_no_name(void **state)
{
	(void)state;
	static const char *const bad[] = {"dEQP-VK.a.*\n", "dEQP-GLES2.a\n", "dEQP-VK.a..b\n",
					  "dEQP-VK.a b\n", "dEQP-VK.$(x)\n", ""};
	char *dir = test_mkdtemp("deqp-cases");
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *p = write_tmp(dir, "l", bad[i]);
		struct deqp_cases c;
		struct tb_error e = {0};
		assert_int_equal(deqp_cases_read(&c, &deqp_vk_kind, p, &e), TB_EUSAGE);
		assert_int_equal(c.n, 0);
		free(p);
	}
	/* a line longer than any case name, without reading it whole */
	char *long_line = calloc(70000, 1);
	memset(long_line, 'a', 69998);
	memcpy(long_line, "dEQP-VK.", 8);
	long_line[69998] = '\n';
	char *p = write_tmp(dir, "l", long_line);
	struct deqp_cases c;
	struct tb_error e = {0};
	assert_int_equal(deqp_cases_read(&c, &deqp_vk_kind, p, &e), TB_EUSAGE);
	assert_non_null(strstr(e.msg, "longer than 512 bytes"));
	free(p);
	free(long_line);
	remove_tree(dir);
	free(dir);
}

static void a_case_list_takes_only_its_modules_names(void **state)
{
	(void)state;
	char *dir = test_mkdtemp("deqp-cases");
	char *p = write_tmp(dir, "l", "dEQP-GLES2.info.vendor\ndEQP-GLES2.functional.prerequisite.read_pixels\n");
	struct deqp_cases c;
	struct tb_error e = {0};
	assert_int_equal(deqp_cases_read(&c, &deqp_gles2_kind, p, &e), TB_OK);
	assert_int_equal(c.n, 2);
	deqp_cases_free(&c);
	free(p);
	static const char *const bad[] = {"dEQP-VK.info.vendor\n", "dEQP-GLES20.info.vendor\n",
					  "dEQP-GLES3.info.vendor\n", "dEQP-GLES2\n"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		p = write_tmp(dir, "l", bad[i]);
		tb_error_clear(&e);
		assert_int_equal(deqp_cases_read(&c, &deqp_gles2_kind, p, &e), TB_EUSAGE);
		assert_non_null(strstr(e.msg, "is no dEQP-GLES2 case name"));
		assert_non_null(strstr(e.msg, "as dEQP-GLES2.info.renderer"));
		free(p);
	}
	remove_tree(dir);
	free(dir);
}

static void fractions_are_every_nth_from_the_kth(void **state)
{
	(void)state;
	unsigned n = 0, k = 0;
	assert_null(deqp_fraction_parse("3/2", &n, &k));
	assert_int_equal(n, 3);
	assert_int_equal(k, 2);
	assert_null(deqp_fraction_parse("5", &n, &k));
	assert_int_equal(k, 1);
	static const char *const bad[] = {"0", "2/3", "3/0", "", "x", "3/", "1000001", "-2", "3/2x", "99999999999999999999"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_non_null(deqp_fraction_parse(bad[i], &n, &k));

	struct deqp_cases c = {.n = 7, .names = calloc(7, sizeof(char *))};
	for (int i = 0; i < 7; i++)
		assert_true(asprintf(&c.names[i], "dEQP-VK.x.c%d", i) > 0);
	deqp_cases_fraction(&c, 3, 2);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.names[0], "dEQP-VK.x.c1");
	assert_string_equal(c.names[1], "dEQP-VK.x.c4");
	deqp_cases_free(&c);
}

static void groups_are_paths_of_words(void **state)
{
	(void)state;
	assert_null(deqp_groups_invalid("compute,api.smoke,synchronization2"));
	char *bad = deqp_groups_invalid("compute,../x");
	assert_string_equal(bad, "../x");
	free(bad);
	bad = deqp_groups_invalid("compute,,info");
	assert_string_equal(bad, "");
	free(bad);
	bad = deqp_groups_invalid("a.");
	assert_string_equal(bad, "a.");
	free(bad);
}

static void expected_failures_are_read_line_by_line(void **state)
{
	(void)state;
	char *dir = test_mkdtemp("deqp-expected");
	char *p = write_tmp(dir, "f", "# known\ndEQP-VK.a.b,Fail\ndEQP-VK.a.c,Crash\r\ndEQP-VK.a.d,Timeout\ndEQP-VK.a.e,Flake\n");
	json_object *m = json_object_new_object();
	struct tb_error e = {0};
	assert_int_equal(expected_read_file(p, m, &e), TB_OK);
	assert_string_equal(json_object_to_json_string_ext(m, JSON_C_TO_STRING_PLAIN),
			    "{\"dEQP-VK.a.b\":\"fail\",\"dEQP-VK.a.c\":\"crash\",\"dEQP-VK.a.d\":\"timeout\",\"dEQP-VK.a.e\":\"flaky\"}");
	json_object_put(m);
	free(p);
	static const char *const bad[] = {"dEQP-VK.a,Pass\n", "dEQP-VK.a\n", "dEQP-VK.a;b,Fail\n", ",Fail\n"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		p = write_tmp(dir, "f", bad[i]);
		m = json_object_new_object();
		tb_error_clear(&e);
		assert_int_equal(expected_read_file(p, m, &e), TB_EFAIL);
		assert_non_null(strstr(e.msg, "line 1 of the expected failures"));
		json_object_put(m);
		free(p);
	}
	m = json_object_new_object();
	tb_error_clear(&e);
	char *none = NULL;
	assert_true(asprintf(&none, "%s/none", dir) > 0);
	assert_int_equal(expected_read_file(none, m, &e), TB_OK);
	assert_int_equal(json_object_object_length(m), 0);
	json_object_put(m);
	free(none);
	remove_tree(dir);
	free(dir);
}

static void expected_failures_are_no_regressions(void **state)
{
	(void)state;
	json_object *mine = json_tokener_parse("{\"a\":\"fail\",\"b\":\"crash\",\"c\":\"pass\",\"d\":\"fail\",\"e\":\"timeout\"}");
	json_object *theirs = json_tokener_parse("{\"a\":\"pass\",\"b\":\"pass\",\"c\":\"pass\",\"d\":\"pass\",\"e\":\"pass\"}");
	/* a: as listed; b: listed as Fail but crashed, so it counts; c: listed, passes now;
	 * e: flaky takes anything */
	json_object *expected = json_tokener_parse("{\"a\":\"fail\",\"b\":\"fail\",\"c\":\"fail\",\"e\":\"flaky\"}");
	json_object *cmp = suite_compare(mine, theirs);
	suite_apply_expected(cmp, expected);
	json_object *v;
	json_object_object_get_ex(cmp, "regressions", &v);
	assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), "[\"b\",\"d\"]");
	json_object_object_get_ex(cmp, "expected", &v);
	assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), "[\"a\",\"e\"]");
	json_object_object_get_ex(cmp, "expected_fixed", &v);
	assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), "[\"c\"]");
	assert_int_equal(suite_regressions(cmp, NULL, 0), 2);
	json_object_put(cmp);
	json_object_put(mine);
	json_object_put(theirs);
	json_object_put(expected);
}

struct tally {
	int ran[100];
	int fail_at;
};

static int piece(void *ctx, size_t i, int worker, struct tb_error *e)
{
	struct tally *t = ctx;
	assert_true(worker >= 0 && worker < 4);
	__atomic_add_fetch(&t->ran[i], 1, __ATOMIC_SEQ_CST);
	if ((int)i == t->fail_at)
		return tb_fail(e, TB_R_FAILED, "piece %zu failed", i);
	return TB_OK;
}

static void jobs_run_each_piece_once_and_report_the_first_failure(void **state)
{
	(void)state;
	struct tally t = {.fail_at = -1};
	struct tb_error e = {0};
	assert_int_equal(jobs_run(100, 4, piece, &t, &e), TB_OK);
	for (int i = 0; i < 100; i++)
		assert_int_equal(t.ran[i], 1);
	struct tally f = {.fail_at = 7};
	assert_int_equal(jobs_run(100, 1, piece, &f, &e), TB_EFAIL);
	assert_string_equal(e.msg, "piece 7 failed");
	for (int i = 8; i < 100; i++)
		assert_int_equal(f.ran[i], 0); /* one job: nothing after the failure starts */
	struct tb_error clean = {0};
	assert_int_equal(jobs_run(0, 2, piece, &t, &clean), TB_OK);
	assert_true(jobs_default() >= 1 && jobs_default() <= JOBS_MAX);
}

struct seen {
	char log[256];
};

static void on_count(void *ctx, const char *op, const char *name, uint64_t done, uint64_t total)
{
	struct seen *s = ctx;
	size_t len = strlen(s->log);
	snprintf(s->log + len, sizeof s->log - len, "%s %s %llu/%llu;", op, name, (unsigned long long)done,
		 (unsigned long long)total);
}

static void a_locked_count_never_goes_back(void **state)
{
	(void)state;
	struct seen s = {{0}};
	struct tb_progress to = {.count = on_count, .ctx = &s};
	struct locked_progress lp;
	locked_progress_init(&lp, &to);
	progress_count(&lp.p, "suite", "x:store", 5, 9);
	progress_count(&lp.p, "suite", "x:store", 3, 9); /* another worker's, overtaken */
	progress_count(&lp.p, "suite", "x:distribution", 3, 9);
	progress_count(&lp.p, "suite", "x:store", 5, 9); /* no move */
	progress_count(&lp.p, "suite", "x:store", 9, 9);
	locked_progress_free(&lp);
	assert_string_equal(s.log, "suite x:store 5/9;suite x:distribution 3/9;suite x:store 9/9;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_case_list_keeps_order_and_takes_a_name_once),
		cmocka_unit_test(a_case_list_refuses_what_is_no_name),
		cmocka_unit_test(a_case_list_takes_only_its_modules_names),
		cmocka_unit_test(fractions_are_every_nth_from_the_kth),
		cmocka_unit_test(groups_are_paths_of_words),
		cmocka_unit_test(expected_failures_are_read_line_by_line),
		cmocka_unit_test(expected_failures_are_no_regressions),
		cmocka_unit_test(jobs_run_each_piece_once_and_report_the_first_failure),
		cmocka_unit_test(a_locked_count_never_goes_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
