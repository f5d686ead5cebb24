/* Regular expressions compiled within a bound (base/regex_bounded.h). glibc's regcomp has no
 * limit of its own and the pattern's meaning is the library's to read, not ours, so the bound
 * is on what compiling it costs: a child process compiles it first under a memory limit. */
#include "base/regex_bounded.h"
#include "common/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Seconds of CPU the trial may take: a backstop only, memory runs out long before. */
#define COMPILE_CPU_SECONDS 30

enum trial { FITS, TOO_LARGE, NO_TRIAL };

/* The private writable memory the process has now (what RLIMIT_DATA counts), in bytes. */
static long data_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long size, resident, shared, text, lib, data = 0;
	int got = f && fscanf(f, "%lu %lu %lu %lu %lu %lu", &size, &resident, &shared, &text, &lib, &data) == 6;
	if (f)
		fclose(f);
	return got ? (long)data * sysconf(_SC_PAGESIZE) : -1;
}

static void limit(int resource, rlim_t want)
{
	struct rlimit r;
	if (getrlimit(resource, &r) == 0) {
		r.rlim_cur = r.rlim_max != RLIM_INFINITY && r.rlim_max < want ? r.rlim_max : want;
		setrlimit(resource, &r);
	}
}

/* Compiles pattern in a child under the limit: FITS when it compiled there (or failed for a
 * reason of its own, which the caller's regcomp then words), TOO_LARGE when it ran out. */
static enum trial try_compile(const char *pattern, int cflags)
{
	long now = data_bytes();
	if (now < 0)
		return NO_TRIAL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return NO_TRIAL;
	if (pid == 0) {
		/* A sanitizer's report of the failed allocation is not ours to show. */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		limit(RLIMIT_DATA, (rlim_t)now + REGEX_MAX_COMPILE_BYTES);
		limit(RLIMIT_CPU, COMPILE_CPU_SECONDS);
		regex_t re;
		int rc = regcomp(&re, pattern, cflags);
		_exit(rc == REG_ESPACE ? 2 : 0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return NO_TRIAL;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? FITS : TOO_LARGE;
}

/* The pattern as a sentence shows it: its first 80 bytes, never cut inside a character. */
static int shown_length(const char *pattern, const char **more)
{
	size_t n = strlen(pattern), keep = utf8_cut(pattern, n, 80);
	*more = keep < n ? "..." : "";
	return (int)keep;
}

int regex_compile_bounded(regex_t *re, const char *pattern, int cflags, const char *what,
			  struct tb_error *e)
{
	const char *more;
	int shown = shown_length(pattern, &more);
	if (strlen(pattern) > REGEX_MAX_LENGTH)
		return tb_fail(e, TB_R_CONFIG_INVALID,
			       "%s \"%.*s%s\" is %zu bytes long, more than the %d a regular expression "
			       "may have here; use a shorter one",
			       what, shown, pattern, more, strlen(pattern), REGEX_MAX_LENGTH);
	enum trial t = try_compile(pattern, cflags);
	if (t == NO_TRIAL)
		return tb_fail_errno_as(e, TB_R_FAILED,
					"cannot compile %s \"%.*s%s\" within a memory limit", what, shown,
					pattern, more);
	if (t == TOO_LARGE)
		return tb_fail(e, TB_R_CONFIG_INVALID,
			       "%s \"%.*s%s\" needs more than %ld MiB to compile (each repetition "
			       "count is expanded in memory); use smaller counts such as {1,100}, or "
			       "+ and * instead",
			       what, shown, pattern, more, REGEX_MAX_COMPILE_BYTES >> 20);
	int rc = regcomp(re, pattern, cflags);
	if (rc != 0) {
		char why[128];
		regerror(rc, re, why, sizeof why);
		return tb_fail(e, TB_R_CONFIG_INVALID,
			       "%s \"%.*s%s\" is not an extended regular expression (%s); correct it",
			       what, shown, pattern, more, why);
	}
	return TB_OK;
}
