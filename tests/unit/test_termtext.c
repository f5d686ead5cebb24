/* Text on its way to a terminal: control characters are shown, never obeyed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/termtext.h"
#include "base/text.h"

static void test_escapes_and_clipboard_writes(void **state)
{
	char *s = term_text("26.3\x1b]52;c;aGk=\x07 \x1b[2J\rok", 1);
	assert_string_equal(s, "26.3\\x1b]52;c;aGk=\\x07 \\x1b[2J\\x0dok");
	free(s);
}

static void test_newlines_tabs_and_del(void **state)
{
	char *s = term_text("a\nb\tc\x7f", 1);
	assert_string_equal(s, "a\nb\\x09c\\x7f");
	free(s);
	s = term_text("a\nb", 0);
	assert_string_equal(s, "a\\x0ab");
	free(s);
}

static void test_c1_controls_but_not_other_utf8(void **state)
{
	/* U+009B (8-bit CSI) is a control; é and ✓ are text. */
	char *s = term_text("\xc2\x9b" "31m caf\xc3\xa9 \xe2\x9c\x93", 0);
	assert_string_equal(s, "\\x9b31m caf\xc3\xa9 \xe2\x9c\x93");
	free(s);
}

static void test_cut_short_but_terminated(void **state)
{
	char out[6];
	size_t n = term_escape(out, sizeof out, "ab\x1b" "cdef", 0);
	/* "ab" fits, "\x1b" (4 bytes) does not: the output stops before it. */
	assert_int_equal(n, 2);
	assert_string_equal(out, "ab");
	assert_int_equal(term_escape(out, 1, "abc", 0), 0);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes_and_clipboard_writes),
		cmocka_unit_test(test_newlines_tabs_and_del),
		cmocka_unit_test(test_c1_controls_but_not_other_utf8),
		cmocka_unit_test(test_cut_short_but_terminated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
