/* Shared helpers of the engine: errors with exit codes, paths, atomic files. */
#ifndef TB_UTIL_H
#define TB_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit codes of docs/design.md §5; an engine function returns one of them. */
enum {
	TB_OK = 0,
	TB_EFAIL = 1,
	TB_EUSAGE = 2,
	TB_EBUSY = 3,
	TB_EVERIFY = 4,
	TB_ENET = 5,
	TB_ESMOKE = 6,
};

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

/* Allocation that never returns NULL: out of memory aborts with a message. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
char *path_join(const char *dir, const char *name);

/* A growable string. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_append(struct strbuf *sb, const char *s);
void sb_appendf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct strbuf *sb);

/* mkdir -p with the given mode for the directories it creates. */
int mkdir_p(const char *path, mode_t mode, struct tb_error *e);
/* rm -rf that never follows symbolic links; a missing path is fine. */
int remove_tree(const char *path);
int path_exists(const char *path);
int is_directory(const char *path);

/* Writes a temporary in the same directory, fsyncs it, renames it over path, fsyncs the
 * directory: readers see the old or the new content, never a half one. */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
		      struct tb_error *e);
/* Replaces (or creates) the symbolic link path -> target by rename. */
int atomic_symlink(const char *target, const char *path, struct tb_error *e);
int fsync_dir(const char *dir);

/* Reads a whole small regular file (at most max bytes, NUL-terminated); NULL with errno set
 * on failure: E2BIG when larger than max, ESPIPE when it is not a regular file (a FIFO, a
 * device: never waited on, never read). tb_fail_errno words both for people. */
char *read_small_file(const char *path, size_t max, size_t *len_out);
/* The same for a file of the store that is only ever replaced by rename: a symbolic link
 * there was planted and is not followed (ELOOP). */
char *read_small_file_nofollow(const char *path, size_t max, size_t *len_out);

/* Walks a text in place: returns the line at *cursor without its newline (and a trailing \r)
 * and moves *cursor past it; NULL once the text is used up. */
char *next_line(char **cursor);

/* Strips leading and trailing blanks in place; returns the first non-blank character. */
char *trim(char *s);

/* s for a terminal: control characters shown as \xNN, never obeyed (newlines kept when
 * keep_newlines). Every sentence and progress line goes through it where it is printed; JSON
 * output does not. Free the result. */
char *term_text(const char *s, int keep_newlines);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void hex_encode(const unsigned char *in, size_t n, char *out);

/* Host facts. */
const char *host_arch(void); /* uname -m */

#endif
