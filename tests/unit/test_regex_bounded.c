/* Regular expressions compiled within a bound: what glibc's regcomp would grow without limit
 * for is refused in one sentence, what a filter of test names needs compiles as ever. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/regex_bounded.h"

static void compiles(const char *pattern, const char *matches)
{
	struct tb_error e = {0};
	regex_t re;
	assert_int_equal(regex_compile_bounded(&re, pattern, REG_EXTENDED | REG_NOSUB, "--subtests", &e), TB_OK);
	assert_int_equal(regexec(&re, matches, 0, NULL, 0), 0);
	regfree(&re);
}

static const char *refused(const char *pattern)
{
	static struct tb_error e;
	memset(&e, 0, sizeof e);
	regex_t re;
	assert_int_equal(regex_compile_bounded(&re, pattern, REG_EXTENDED | REG_NOSUB, "--subtests", &e), TB_EFAIL);
	assert_string_equal(tb_error_reason(&e), "config-invalid");
	return e.msg;
}

static void test_filters_of_names_compile(void **state)
{
	compiles("pass_|fixed", "fake/pass_a");
	compiles("^(basic|api)/[a-z_]+(_[0-9]+)?$", "basic/hostptr_3");
	compiles("a{1,255}b", "aaab");
	compiles("(x{1,30}){1,30}", "xxx");
}

/* What the review found: glibc's regcomp grows past 16 GB. Refused within the bound, and the
 * tool itself never comes near it (its own peak stays far below). */
static void test_repetitions_that_would_grow_without_bound(void **state)
{
	const char *msg = refused("a{1,32000}{1,32000}");
	assert_non_null(strstr(msg, "--subtests \"a{1,32000}{1,32000}\" needs more than 64 MiB to compile"));
	assert_non_null(strstr(msg, "use smaller counts"));
	refused("a{1,32000}");
	refused("((((a{1,30}){1,30}){1,30}){1,30})");
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	assert_true(u.ru_maxrss < 64 * 1024); /* KiB: this process never compiled them */
}

static void test_too_long(void **state)
{
	char *p = malloc(REGEX_MAX_LENGTH + 2);
	memset(p, 'a', REGEX_MAX_LENGTH + 1);
	p[REGEX_MAX_LENGTH + 1] = '\0';
	const char *msg = refused(p);
	assert_non_null(strstr(msg, "is 1025 bytes long, more than the 1024"));
	assert_true(strlen(msg) < 300); /* the pattern shown cut */
	free(p);
}

static void test_not_a_regular_expression(void **state)
{
	const char *msg = refused("(");
	assert_non_null(strstr(msg, "--subtests \"(\" is not an extended regular expression ("));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filters_of_names_compile),
		cmocka_unit_test(test_repetitions_that_would_grow_without_bound),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_not_a_regular_expression),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
