/* The QPA reader: every status, logs cut anywhere, crashes and terminations, hostile lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "gputest/child.h"
#include "gputest/qpa.h"
#include "gputest/smoke_run.h"

static const char *const full_log =
	"#sessionInfo releaseName git-1234\n"
	"#sessionInfo targetName \"Surfaceless\"\n"
	"\n"
	"#beginSession\n"
	"#beginTestCaseResult dEQP-VK.compute.basic.empty_shader\n"
	"<?xml version=\"1.0\"?>\n"
	"<TestCaseResult Version=\"0.3.4\" CasePath=\"dEQP-VK.compute.basic.empty_shader\" CaseType=\"SelfValidate\">\n"
	"\t<Number Name=\"TestDuration\" Description=\"Test case duration in microseconds\" Tag=\"Time\" Unit=\"us\">12345</Number>\n"
	"\t<Result StatusCode=\"Pass\">Pass</Result>\n"
	"</TestCaseResult>\n"
	"\n"
	"#endTestCaseResult\n"
	"\n"
	"#beginTestCaseResult dEQP-VK.compute.basic.fail\n"
	"<TestCaseResult Version=\"0.3.4\" CasePath=\"dEQP-VK.compute.basic.fail\" CaseType=\"SelfValidate\">\n"
	"\t<Result StatusCode=\"Fail\">Got 3 &lt; 4 &amp; &quot;x&quot; &apos;y&apos; &gt;</Result>\n"
	"</TestCaseResult>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.ns\n"
	"\t<Result StatusCode=\"NotSupported\">Feature not supported</Result>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.qw\n"
	"\t<Result StatusCode=\"QualityWarning\">Low precision</Result>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.cw\n"
	"\t<Result StatusCode=\"CompatibilityWarning\">Deprecated</Result>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.waived\n"
	"\t<Result StatusCode=\"Waiver\">Waived</Result>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.resource\n"
	"\t<Result StatusCode=\"ResourceError\">Out of memory</Result>\n"
	"#endTestCaseResult\n"
	"#beginTestCaseResult dEQP-VK.a.watchdog\n"
	"#terminateTestCaseResult Timeout\n"
	"#beginTestCaseResult dEQP-VK.a.crashed\n"
	"#terminateTestCaseResult Crash\n"
	"#beginTestCaseResult dEQP-VK.a.noresult\n"
	"#endTestCaseResult\n"
	"#endSession\n";

static void parse_in_chunks(struct qpa_parser *q, const char *text, size_t chunk)
{
	qpa_parser_init(q);
	size_t len = strlen(text);
	for (size_t i = 0; i < len; i += chunk)
		qpa_parser_feed(q, text + i, len - i < chunk ? len - i : chunk);
	qpa_parser_finish(q, QPA_CRASH, "process died");
}

static void every_status_is_counted(void **state)
{
	struct qpa_parser q;
	parse_in_chunks(&q, full_log, 1 << 20);
	assert_int_equal(q.n, 10);
	size_t c[QPA_KINDS];
	qpa_count(&q, c);
	assert_int_equal(c[QPA_PASS], 1);
	assert_int_equal(c[QPA_FAIL], 2); /* fail and noresult */
	assert_int_equal(c[QPA_NOT_SUPPORTED], 2); /* NotSupported and Waiver */
	assert_int_equal(c[QPA_QUALITY_WARNING], 1);
	assert_int_equal(c[QPA_COMPATIBILITY_WARNING], 1);
	assert_int_equal(c[QPA_CRASH], 1);
	assert_int_equal(c[QPA_TIMEOUT], 1);
	assert_int_equal(c[QPA_OTHER], 1);
	assert_string_equal(q.cases[0].name, "dEQP-VK.compute.basic.empty_shader");
	assert_int_equal(q.cases[0].ms, 12);
	assert_string_equal(q.cases[1].detail, "Got 3 < 4 & \"x\" 'y' >");
	assert_string_equal(q.cases[6].code, "ResourceError");
	assert_string_equal(qpa_kind_status(q.cases[3].kind), "pass");
	assert_string_equal(qpa_kind_status(q.cases[2].kind), "skip");
	assert_string_equal(qpa_kind_status(q.cases[7].kind), "fail");
	qpa_parser_free(&q);
}

static void chunk_boundaries_do_not_matter(void **state)
{
	struct qpa_parser whole;
	parse_in_chunks(&whole, full_log, 1 << 20);
	static const size_t sizes[] = {1, 2, 3, 7, 64};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct qpa_parser q;
		parse_in_chunks(&q, full_log, sizes[s]);
		assert_int_equal(q.n, whole.n);
		for (size_t i = 0; i < q.n; i++) {
			assert_string_equal(q.cases[i].name, whole.cases[i].name);
			assert_int_equal(q.cases[i].kind, whole.cases[i].kind);
			assert_string_equal(q.cases[i].detail ? q.cases[i].detail : "",
					    whole.cases[i].detail ? whole.cases[i].detail : "");
		}
		qpa_parser_free(&q);
	}
	qpa_parser_free(&whole);
}

static void a_case_that_never_ends_gets_the_callers_verdict(void **state)
{
	struct qpa_parser q;
	qpa_parser_init(&q);
	const char *log = "#beginTestCaseResult dEQP-VK.x.hang\n<TestCaseResult>\n\t<Text>working";
	qpa_parser_feed(&q, log, strlen(log));
	assert_int_equal(q.open, 1);
	qpa_parser_finish(&q, QPA_TIMEOUT, "no result within 5 s");
	assert_int_equal(q.n, 1);
	assert_int_equal(q.cases[0].kind, QPA_TIMEOUT);
	assert_string_equal(q.cases[0].detail, "no result within 5 s");
	assert_int_equal(q.open, 0);
	qpa_parser_free(&q);
}

static void a_new_case_before_the_end_means_the_last_one_crashed(void **state)
{
	struct qpa_parser q;
	qpa_parser_init(&q);
	const char *log = "#beginTestCaseResult dEQP-VK.x.a\r\n"
			  "<Result StatusCode=\"Pass\">Pass</Result>\r\n"
			  "#beginTestCaseResult dEQP-VK.x.b\r\n"
			  "<Result StatusCode=\"Pass\">Pass</Result>\r\n"
			  "#endTestCaseResult\r\n";
	qpa_parser_feed(&q, log, strlen(log));
	qpa_parser_finish(&q, QPA_CRASH, "");
	assert_int_equal(q.n, 2);
	assert_int_equal(q.cases[0].kind, QPA_CRASH);
	assert_int_equal(q.cases[1].kind, QPA_PASS);
	assert_string_equal(q.cases[1].name, "dEQP-VK.x.b");
	qpa_parser_free(&q);
}

static void hostile_lines_are_harmless(void **state)
{
	struct qpa_parser q;
	qpa_parser_init(&q);
	/* Markers that are only prefixes, results outside cases, an empty name, a huge line. */
	const char *junk = "#beginTestCaseResultX dEQP-VK.no\n"
			   "<Result StatusCode=\"Fail\">outside</Result>\n"
			   "#endTestCaseResult\n"
			   "#beginTestCaseResult   \n"
			   "#terminateTestCaseResult Crash\n"
			   "#beginTestCaseResult dEQP-VK.long\n"
			   "<Result StatusCode=\"Pass\n"
			   "<Result StatusCode=\"Fa\x01il<>&amp\">\x02 text</Result>\n";
	qpa_parser_feed(&q, junk, strlen(junk));
	size_t big = 300000;
	char *line = malloc(big + 1);
	memset(line, 'A', big);
	memcpy(line, "<Result StatusCode=\"Pass\">", 26);
	line[big] = '\n';
	qpa_parser_feed(&q, line, big + 1);
	free(line);
	const char *end = "#endTestCaseResult\n";
	qpa_parser_feed(&q, end, strlen(end));
	qpa_parser_finish(&q, QPA_CRASH, "");
	assert_int_equal(q.n, 1);
	assert_string_equal(q.cases[0].name, "dEQP-VK.long");
	assert_int_equal(q.cases[0].kind, QPA_PASS); /* the start of the over-long line counts */
	assert_true(strlen(q.cases[0].detail) <= 400);
	qpa_parser_free(&q);
}

static void the_result_json_has_the_smoke_format(void **state)
{
	struct qpa_parser q;
	parse_in_chunks(&q, full_log, 1 << 20);
	json_object *o = qpa_result_json(&q, "2026.10.06"), *v;
	assert_true(json_object_object_get_ex(o, "version", &v));
	assert_string_equal(json_object_get_string(v), "2026.10.06");
	assert_true(json_object_object_get_ex(o, "passed", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(o, "failed", &v));
	assert_int_equal(json_object_get_int(v), 5);
	assert_true(json_object_object_get_ex(o, "skipped", &v));
	assert_int_equal(json_object_get_int(v), 2);
	assert_true(json_object_object_get_ex(o, "tests", &v));
	assert_int_equal(json_object_array_length(v), 10);
	json_object *t = json_object_array_get_idx(v, 3), *f;
	assert_true(json_object_object_get_ex(t, "detail", &f));
	assert_string_equal(json_object_get_string(f), "QualityWarning: Low precision");
	assert_true(json_object_object_get_ex(o, "counts", &v));
	assert_true(json_object_object_get_ex(v, "Timeout", &f));
	assert_int_equal(json_object_get_int(f), 1);
	json_object_put(o);
	qpa_parser_free(&q);
}

static void tail_keeps_the_last_line(void **state)
{
	struct child_tail t = {0};
	child_tail_add(&t, "first\nsecond\n", 13);
	char big[6000];
	memset(big, 'x', sizeof big);
	big[sizeof big - 1] = '\n';
	child_tail_add(&t, big, sizeof big);
	child_tail_add(&t, "the last\tone\n\n", 14);
	char out[64];
	child_tail_last_line(&t, out, sizeof out);
	assert_string_equal(out, "the last one");
	assert_true(t.len <= sizeof t.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_status_is_counted),
		cmocka_unit_test(chunk_boundaries_do_not_matter),
		cmocka_unit_test(a_case_that_never_ends_gets_the_callers_verdict),
		cmocka_unit_test(a_new_case_before_the_end_means_the_last_one_crashed),
		cmocka_unit_test(hostile_lines_are_harmless),
		cmocka_unit_test(the_result_json_has_the_smoke_format),
		cmocka_unit_test(tail_keeps_the_last_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
