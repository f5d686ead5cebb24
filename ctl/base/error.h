/* Failures as the engine reports them: an exit code (common/exitcode.h), a stable reason id
 * and one sentence (docs/design.md §5, §9, §11). A failure is raised by its reason alone, a
 * row of the one table (common/reasons.h), which gives its id, exit code and class:
 *
 *	return tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed", v);
 *
 * A misspelt reason does not compile, nor does an exit code where the reason goes. */
#ifndef TB_ERROR_H
#define TB_ERROR_H

#include <signal.h>

#include "common/exitcode.h"
#include "common/reasons.h"

/* The first failure wins: later calls keep the original sentence. code is TB_OK while
 * nothing failed; then reason names the row the failure was raised with, or the one its errno
 * said (tb_fail_errno), and code is always that row's exit code: the table gives it, no
 * caller does (docs/design.md §9). */
struct tb_error {
	int code;
	enum tb_reason reason;
	char msg[1024];
};

/* Each takes its reason through a macro that refuses anything but an enum tb_reason
 * (TB_REASON_ARG); the functions are called as (tb_fail)(…) there, so their names stay
 * plain for grep and ctags. All return the exit code recorded (or the one already there). */

/* Records r (its id and exit code) and the sentence (printf format) unless an error is already
 * set. */
int (tb_fail)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define tb_fail(e, r, ...) (tb_fail)((e), TB_REASON_ARG(r), __VA_ARGS__)

/* Like tb_fail, appending ": strerror(errno)"; the errno may name the reason more precisely
 * than r: ENOSPC and EDQUOT no-space, EACCES and EPERM permission, EROFS read-only, EINTR
 * interrupted, E2BIG too-large, ENOMEM out-of-memory, and ENOENT not-found where r is
 * TB_R_IO_ERROR or TB_R_FAILED. Of that id, the row that carries r's exit code where it has
 * one (too-large for a configuration: 2), else its own row and exit code (permission for a
 * configuration that cannot be read: 1). */
int (tb_fail_errno)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define tb_fail_errno(e, r, ...) (tb_fail_errno)((e), TB_REASON_ARG(r), __VA_ARGS__)

/* Like tb_fail_errno, with r whatever the errno is. */
int (tb_fail_errno_as)(struct tb_error *e, enum tb_reason r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define tb_fail_errno_as(e, r, ...) (tb_fail_errno_as)((e), TB_REASON_ARG(r), __VA_ARGS__)

/* An earlier failure passed on in a new sentence (which may quote from->msg): its reason (and
 * so its exit code); failed when from holds none. */
int tb_fail_again(struct tb_error *e, const struct tb_error *from, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The reason id of a failure ("hash-mismatch"); "" for success. */
const char *tb_error_reason(const struct tb_error *e);
/* Whether e failed with r's id (either row of an id that has two). */
int tb_error_is(const struct tb_error *e, enum tb_reason r);
void tb_error_clear(struct tb_error *e);

/* SIGTERM, SIGINT or SIGHUP arrived (the signal's number, 0 when none): the command line
 * sets it from its handler; long engine loops (unpacking, transfers) stop at the next step,
 * clean up as for any failure and say what was interrupted. */
extern volatile sig_atomic_t tb_interrupted;
/* TB_R_INTERRUPTED ("…while WHAT; …") once a signal arrived, else TB_OK. */
int tb_check_interrupted(struct tb_error *e, const char *what);
/* The signal that interrupted the command, for a sentence: "SIGINT (Ctrl-C)", "SIGHUP" or
 * "SIGTERM". */
const char *tb_interrupted_name(void);

#endif
