/* What tb_fail_errno records for an errno (ctl/base/error.h): the errno may name the reason
 * more precisely than the row the caller gave, the exit code stays that row's; a file that is
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

static void test_errnos_that_name_their_reason_keep_the_rows_exit_code(void **state)
{
	int code;
	assert_string_equal(raised(TB_R_IO_ERROR, ENOMEM, &code), "out-of-memory");
	assert_int_equal(code, TB_EFAIL);
	assert_string_equal(raised(TB_R_IO_ERROR, ENOSPC, &code), "no-space");
	assert_string_equal(raised(TB_R_DAMAGED, EACCES, &code), "permission");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_missing_file_is_not_found_where_the_row_was_a_catch_all),
		cmocka_unit_test(test_errnos_that_name_their_reason_keep_the_rows_exit_code),
		cmocka_unit_test(test_a_failure_passed_on_keeps_its_reason_and_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
