/* <store>/marked (docs/design.md §12, "The store remembers"): what writers write reads back
 * the same; every way the file can be hostile (not JSON, other keys, a version that is a
 * path, an unknown reason, a control character or bytes that are not UTF-8 in the sentence,
 * a digest that is not sha256, too many marks) reads as no marks; setting, replacing and
 * clearing a mark; the oldest go beyond the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/marks.h"
#include "base/alloc.h"
#include "base/strbuf.h"

static void assert_refused(const char *text)
{
	struct marks m;
	if (marks_parse(text, strlen(text), &m) != -1)
		fail_msg("read as whole: %s", text);
	assert_int_equal(m.n, 0);
}

#define ONE(v, r, w, d, s, f) "{\"version\":\"" v "\",\"reason\":\"" r "\",\"why\":\"" w "\",\"digest\":\"" d "\",\"size\":" s ",\"refused\":" f "}"
#define DIGEST "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_round_trip(void **state)
{
	(void)state;
	const char *text = "{\"marked\":[" ONE("2026.11.15", "rolled-back", "the user rolled back from it", "", "0", "false") ","
			   ONE("2027.01.05", "hash-mismatch", "does not match — its SHA256SUMS", DIGEST, "12345", "true") "]}";
	struct marks m;
	assert_int_equal(marks_parse(text, strlen(text), &m), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.v[1].reason, "hash-mismatch");
	assert_int_equal(m.v[1].refused, 1);
	assert_int_equal(m.v[1].size, 12345);
	char *again = marks_format(&m);
	struct marks n;
	assert_int_equal(marks_parse(again, strlen(again), &n), 0);
	assert_int_equal(n.n, 2);
	assert_string_equal(n.v[1].why, "does not match — its SHA256SUMS");
	assert_string_equal(n.v[1].digest, DIGEST);
	free(again);
	marks_free(&n);
	marks_free(&m);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_refused("");
	assert_refused("[]");
	assert_refused("{\"marked\":[]} x");
	assert_refused("{\"marked\":[],\"more\":1}");
	assert_refused("{\"marked\":[" ONE("../../etc", "rolled-back", "w", "", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "no-such-reason", "w", "", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "a\\u001bb", "", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "a\\u0000b", "", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "a\xff" "b", "", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "w", "sha1:abc", "0", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "w", "", "-1", "false") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "w", "", "0", "1") "]}");
	assert_refused("{\"marked\":[" ONE("2026.1.1", "rolled-back", "w", "", "0", "false") ","
		       ONE("2026.1.1", "smoke-failed", "w", "", "0", "false") "]}");
	/* more than the cap */
	struct strbuf sb = {0};
	sb_append(&sb, "{\"marked\":[");
	for (int i = 0; i <= MARKS_MAX; i++)
		sb_appendf(&sb, "%s" ONE("2026.1.%d", "rolled-back", "w", "", "0", "false"), i ? "," : "", i);
	sb_append(&sb, "]}");
	assert_refused(sb.buf);
	sb_free(&sb);
}

static void test_set_clear_cap(void **state)
{
	(void)state;
	struct marks m = {0};
	assert_int_equal(marks_set(&m, "../x", "rolled-back", "w", "", 0, 0), -1);
	assert_int_equal(marks_set(&m, "2026.1.1", "rolled-back", "w", "", 0, 0), 0);
	assert_int_equal(marks_set(&m, "2026.1.1", "smoke-failed", "line\nbreak", "", 0, 0), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].reason, "smoke-failed");
	assert_string_equal(m.v[0].why, "line break");
	/* a sentence cut to the cap never ends inside a character */
	char *long_why = xcalloc(MARK_WHY_MAX + 32, 1);
	memset(long_why, 'a', MARK_WHY_MAX - 1);
	strcat(long_why, "é and more");
	assert_int_equal(marks_set(&m, "2026.1.2", "rolled-back", long_why, "", 0, 0), 0);
	assert_int_equal(strlen(marks_find(&m, "2026.1.2")->why), MARK_WHY_MAX - 1);
	free(long_why);
	for (int i = 0; i < MARKS_MAX + 3; i++) {
		char v[32];
		snprintf(v, sizeof v, "2027.1.%d", i);
		marks_set(&m, v, "rolled-back", "w", "", 0, 0);
	}
	assert_int_equal(m.n, MARKS_MAX);
	assert_null(marks_find(&m, "2026.1.1")); /* the oldest went */
	assert_int_equal(marks_clear(&m, "2027.1.5"), 1);
	assert_int_equal(marks_clear(&m, "2027.1.5"), 0);
	char *text = marks_format(&m);
	struct marks n;
	assert_int_equal(marks_parse(text, strlen(text), &n), 0);
	assert_int_equal(n.n, MARKS_MAX - 1);
	free(text);
	marks_free(&n);
	marks_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_set_clear_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
