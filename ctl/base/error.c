#include "base/error.h"
#include "common/exitcode.h"
#include "common/reasons.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The reason an errno names more precisely than the caller's (tb_fail_errno), else r. A file
 * that is not there is not-found only where r is a catch-all (io-error, failed): a row the
 * caller chose for it (damaged for a part of the store) says more. */
static enum tb_reason reason_of_errno(int errnum, enum tb_reason r)
{
	switch (errnum) {
	case ENOENT:
		return r == TB_R_IO_ERROR || r == TB_R_FAILED ? TB_R_NOT_FOUND_LOCAL : r;
	case ENOMEM:
		return TB_R_OUT_OF_MEMORY;
	case ENOSPC:
	case EDQUOT:
		return TB_R_NO_SPACE;
	case EACCES:
	case EPERM:
		return TB_R_PERMISSION;
	case EROFS:
		return TB_R_READ_ONLY;
	case EINTR:
		return TB_R_INTERRUPTED;
	case E2BIG:
		return TB_R_TOO_LARGE;
	default:
		return r;
	}
}

/* Records r, its exit code taken from the table (tb_fail_again: the earlier failure's, which
 * came from the table too), so the code always is the reason's row's. */
static int vfail(struct tb_error *e, enum tb_reason r, int errnum, const char *fmt, va_list ap)
{
	int code = tb_reason_code(r);
	if (!e || e->code)
		return e ? e->code : code;
	e->code = code;
	e->reason = r;
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	if (errnum) {
		size_t len = strlen(e->msg);
		/* read_small_file's refusals read better in words than as strerror's. */
		const char *why = errnum == E2BIG    ? "the file is larger than this tool reads"
				  : errnum == ESPIPE ? "not a regular file"
						     : strerror(errnum);
		snprintf(e->msg + len, sizeof e->msg - len, ": %s", why);
	}
	return code;
}

int (tb_fail)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(e, r, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int (tb_fail_errno)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(e, tb_reason_with_code(reason_of_errno(errnum, r), tb_reason_code(r)), errnum, fmt, ap);
	va_end(ap);
	return rc;
}

int (tb_fail_errno_as)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(e, r, errnum, fmt, ap);
	va_end(ap);
	return rc;
}

int tb_fail_again(struct tb_error *e, const struct tb_error *from, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(e, from->reason, 0, fmt, ap);
	va_end(ap);
	return rc;
}

const char *tb_error_reason(const struct tb_error *e)
{
	return e && e->code ? tb_reason_id(e->reason) : "";
}

int tb_error_is(const struct tb_error *e, enum tb_reason r)
{
	return e && e->code && tb_reason_same(e->reason, r);
}

volatile sig_atomic_t tb_interrupted;

const char *tb_interrupted_name(void)
{
	int sig = tb_interrupted;
	return sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}

int tb_check_interrupted(struct tb_error *e, const char *what)
{
	if (!tb_interrupted)
		return TB_OK;
	return tb_fail(e, TB_R_INTERRUPTED,
		       "interrupted by %s while %s; nothing was changed, run the command again to finish it",
		       tb_interrupted_name(), what);
}

void tb_error_clear(struct tb_error *e)
{
	e->code = 0;
	e->reason = TB_R_FAILED;
	e->msg[0] = '\0';
}
