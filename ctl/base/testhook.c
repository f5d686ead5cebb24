/* A writer stopped at a named point for a test (docs/design.md §14): the test reads the point
 * from a FIFO and kills the writer there, so that what a kill leaves is not left to timing. */
#include "base/testhook.h"
#include "base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAUSE_VAR "TB323FU_TEST_PAUSE"
#define GZIP_LEVEL_VAR "TB323FU_TEST_GZIP_LEVEL"

/* The FIFO of spec when spec names point, else NULL. */
static const char *fifo_for(const char *spec, const char *point)
{
	size_t n = strlen(point);
	return spec && !strncmp(spec, point, n) && spec[n] == ':' && spec[n + 1] ? spec + n + 1 : NULL;
}

/* The FIFO opened for writing, or -1. It is looked at without being opened (O_PATH: no
 * device's open is ever run, no link followed) and must be a FIFO of the caller; then that
 * same inode is opened through /proc, which blocks until the test reads. */
static int open_caller_fifo(const char *path)
{
	int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	struct stat st;
	int fd = -1;
	if (fstat(pfd, &st) == 0 && S_ISFIFO(st.st_mode) && st.st_uid == getuid() && getuid() == geteuid()) {
		char self[64];
		snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
		fd = open(self, O_WRONLY | O_CLOEXEC);
	}
	close(pfd);
	return fd;
}

/* Until the reader closes its end (POLLERR on a pipe's write end) or a signal comes. A signal
 * caught between the write above and the poll (its handler sets tb_interrupted) would not
 * interrupt a poll that begins after it: the flag is looked at every tenth of a second. */
static void wait_for_reader_gone(int fd)
{
	struct pollfd p = {.fd = fd, .events = 0};
	while (!tb_interrupted && poll(&p, 1, 100) == 0)
		;
}

void testhook_pause(const char *point)
{
	static int paused;
	const char *fifo = fifo_for(getenv(PAUSE_VAR), point);
	if (paused || !fifo)
		return;
	int fd = open_caller_fifo(fifo);
	if (fd < 0)
		return;
	paused = 1;
	/* a reader already gone must not end the writer with SIGPIPE */
	struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, &old);
	char line[128];
	int len = snprintf(line, sizeof line, "%s\n", point);
	if (write(fd, line, (size_t)len) == len)
		wait_for_reader_gone(fd);
	sigaction(SIGPIPE, &old, NULL);
	close(fd);
}

unsigned long long testhook_bound(const char *name, unsigned long long normal)
{
	char var[96];
	snprintf(var, sizeof var, "TB323FU_TEST_%s", name);
	const char *v = getenv(var);
	if (!v || !*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 18)
		return normal;
	unsigned long long n = strtoull(v, NULL, 10);
	return n > 0 && n < normal ? n : normal;
}

const char *testhook_gzip_level(void)
{
	const char *v = getenv(GZIP_LEVEL_VAR);
	return v && v[0] >= '1' && v[0] <= '9' && !v[1] ? v : NULL;
}
