#include "base/error.h"
#include "common/exitcode.h"
#include "common/reasons.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *reason_of_errno(int errnum)
{
	switch (errnum) {
	case ENOSPC:
	case EDQUOT:
		return "no-space";
	case EACCES:
	case EPERM:
		return "permission";
	case EROFS:
		return "read-only";
	case EINTR:
		return "interrupted";
	case E2BIG:
		return "too-large";
	default:
		return NULL;
	}
}

static int vfail(struct tb_error *e, int code, const char *reason, int errnum, const char *fmt,
		 va_list ap)
{
	if (!e || e->code)
		return e ? e->code : code;
	e->code = code;
	/* only an id of the table reaches --json and the helper; an unknown one (a mistake the
	 * id check of the tests finds) is reported as failed, not passed on */
	e->reason = reason ? reason : reason_of_errno(errnum);
	if (e->reason && tb_reason_find(e->reason) < 0)
		e->reason = tb_reasons[TB_R_FAILED].id;
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

int tb_fail(struct tb_error *e, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfail(e, code, NULL, 0, fmt, ap);
	va_end(ap);
	return r;
}

int tb_fail_errno(struct tb_error *e, int code, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;
	va_start(ap, fmt);
	int r = vfail(e, code, NULL, errnum, fmt, ap);
	va_end(ap);
	return r;
}

int tb_fail_why(struct tb_error *e, int code, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfail(e, code, reason, 0, fmt, ap);
	va_end(ap);
	return r;
}

int tb_fail_errno_why(struct tb_error *e, int code, const char *reason, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;
	va_start(ap, fmt);
	int r = vfail(e, code, reason, errnum, fmt, ap);
	va_end(ap);
	return r;
}

const char *tb_error_reason(const struct tb_error *e)
{
	if (!e || !e->code)
		return "";
	if (e->reason)
		return e->reason;
	switch (e->code) {
	case TB_EUSAGE:
		return "usage";
	case TB_EBUSY:
		return "busy";
	case TB_EVERIFY:
		return "manifest-invalid";
	case TB_ENET:
		return "network";
	case TB_ESMOKE:
		return "smoke-failed";
	default:
		return "failed";
	}
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
	return tb_fail_why(e, TB_EFAIL, "interrupted",
			   "interrupted by %s while %s; nothing was changed, run the command again to finish it",
			   tb_interrupted_name(), what);
}

void tb_error_clear(struct tb_error *e)
{
	e->code = 0;
	e->reason = NULL;
	e->msg[0] = '\0';
}
