/* What tb_fail_errno records for an errno (ctl/base/error.h): the errno may name the reason
 * more precisely than the row the caller gave, and the exit code is always the recorded row's
 * (of the errno's id, the row with the caller's exit code where there is one); a file that is
 * not there is not-found only where the caller gave a catch-all (io-error, failed), a row it
 * chose for the case (damaged for a part of the store) stays. And a failure passed on keeps
 * its reason and exit code whole. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/error.h"

/* The id and exit code tb_fail_errno records for r with errno set to errnum. */
static const char *raised(enum tb_reason r, int errnum, int *code)
{
	static struct tb_error e;
	tb_error_clear(&e);
	errno = errnum;
	*code = tb_fail_errno(&e, r, "cannot read %s", "x");
	assert_int_equal(*code, e.code);
	return tb_error_reason(&e);
}

static void test_a_missing_file_is_not_found_where_the_row_was_a_catch_all(void **state)
{
	int code;
	assert_string_equal(raised(TB_R_IO_ERROR, ENOENT, &code), "not-found");
	assert_int_equal(code, TB_EFAIL);
	assert_string_equal(raised(TB_R_FAILED, ENOENT, &code), "not-found");
	assert_int_equal(code, TB_EFAIL);
	/* a row chosen for the case says more */
	assert_string_equal(raised(TB_R_DAMAGED, ENOENT, &code), "damaged");
	assert_int_equal(code, TB_EVERIFY);
	assert_string_equal(raised(TB_R_STATE_CORRUPT, ENOENT, &code), "state-corrupt");
}

static void test_errnos_that_name_their_reason_carry_its_exit_code(void **state)
{
	int code;
	assert_string_equal(raised(TB_R_IO_ERROR, ENOMEM, &code), "out-of-memory");
	assert_int_equal(code, TB_EFAIL);
	assert_string_equal(raised(TB_R_IO_ERROR, ENOSPC, &code), "no-space");
	/* permission has one row, exit 1: a version's file the system refuses is not a refusal of
	 * the release (4) */
	assert_string_equal(raised(TB_R_DAMAGED, EACCES, &code), "permission");
	assert_int_equal(code, TB_EFAIL);
	/* too-large has a row for each: a configuration's (2), a release's file (4) */
	assert_string_equal(raised(TB_R_USAGE, E2BIG, &code), "too-large");
	assert_int_equal(code, TB_EUSAGE);
	assert_string_equal(raised(TB_R_MANIFEST_INVALID, E2BIG, &code), "too-large");
	assert_int_equal(code, TB_EVERIFY);
	assert_string_equal(raised(TB_R_IO_ERROR, EIO, &code), "io-error");
	assert_string_equal(raised(TB_R_IO_ERROR, ENOTDIR, &code), "io-error");
}

static void test_a_failure_passed_on_keeps_its_reason_and_code(void **state)
{
	struct tb_error inner = {0}, outer = {0};
	tb_fail(&inner, TB_R_ABI_MISMATCH, "a symbol version is missing");
	assert_int_equal(tb_fail_again(&outer, &inner, "cannot be exported: %s", inner.msg), TB_EVERIFY);
	assert_string_equal(tb_error_reason(&outer), "abi-mismatch");
	assert_string_equal(outer.msg, "cannot be exported: a symbol version is missing");
}

static void test_a_failure_passed_on_from_none_is_the_catch_all(void **state)
{
	struct tb_error none = {0}, outer = {0};
	assert_int_equal(tb_fail_again(&outer, &none, "the check failed"), TB_EFAIL);
	assert_string_equal(tb_error_reason(&outer), "failed");
}

static void test_every_rows_exit_code_is_the_tables(void **state)
{
	for (int i = 0; i < TB_REASON_COUNT; i++) {
		struct tb_error e = {0};
		enum tb_reason r = tb_reason_with_code((enum tb_reason)i, tb_reasons[i].code);
		assert_int_equal(r, i); /* no two rows of an id carry one code */
		if (tb_reasons[i].code == TB_OK)
			continue; /* the reason of an action, not of a failure */
		errno = 0;
		assert_int_equal(tb_fail_errno_as(&e, r, "x"), tb_reasons[i].code);
		assert_int_equal(e.code, tb_reason_code(e.reason));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_missing_file_is_not_found_where_the_row_was_a_catch_all),
		cmocka_unit_test(test_errnos_that_name_their_reason_carry_its_exit_code),
		cmocka_unit_test(test_a_failure_passed_on_keeps_its_reason_and_code),
		cmocka_unit_test(test_a_failure_passed_on_from_none_is_the_catch_all),
		cmocka_unit_test(test_every_rows_exit_code_is_the_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
