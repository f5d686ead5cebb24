/* Failures as the engine reports them: an exit code (common/exitcode.h), a stable reason id
 * and one sentence (docs/design.md §5, §11). */
#ifndef TB_ERROR_H
#define TB_ERROR_H

#include <signal.h>

#include "common/exitcode.h"

/* The first failure wins: later calls keep the original sentence. reason is one of the
 * stable kebab-case ids of docs/design.md ("hash-mismatch", "busy", …), a static string;
 * NULL means "derive it from code" (tb_error_reason). */
struct tb_error {
	int code;
	const char *reason;
	char msg[1024];
};

/* Records code and sentence (printf format) unless an error is already set; returns code. */
int tb_fail(struct tb_error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Like tb_fail, appending ": strerror(errno)". */
int tb_fail_errno(struct tb_error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a reason id (a string literal from the documented list). */
int tb_fail_why(struct tb_error *e, int code, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int tb_fail_errno_why(struct tb_error *e, int code, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The reason id of a failure: the one recorded, else one that follows from the errno it
 * carried (no-space, permission, read-only) or from its exit code (usage, busy, network,
 * smoke-failed, …); "" for success. */
const char *tb_error_reason(const struct tb_error *e);
void tb_error_clear(struct tb_error *e);

/* SIGTERM, SIGINT or SIGHUP arrived (the signal's number, 0 when none): the command line
 * sets it from its handler; long engine loops (unpacking, transfers) stop at the next step,
 * clean up as for any failure and say what was interrupted. */
extern volatile sig_atomic_t tb_interrupted;
/* TB_EFAIL with reason "interrupted" ("…while WHAT; …") once a signal arrived, else TB_OK. */
int tb_check_interrupted(struct tb_error *e, const char *what);
/* The signal that interrupted the command, for a sentence: "SIGINT (Ctrl-C)", "SIGHUP" or
 * "SIGTERM". */
const char *tb_interrupted_name(void);

#endif
