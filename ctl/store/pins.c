/* Pins of versions by readers (pins.h). */
#include "store/pins.h"
#include "store/layout.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "common/storelayout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOLDER_MAX 300

/* .pins/, reached as the layout says (made when make): NULL when a link or a file stands
 * there, and then nothing is pinned or read through it. */
static char *pins_dir(const struct store *s, int make)
{
	struct tb_error ignored = {0};
	return store_reach_dir(s, STORE_PINS, make, &ignored);
}

static int open_lock(const struct store *s, const char *version, int create)
{
	char *path = store_path(s, "%s/%s", STORE_PINS, version);
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	free(path);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void pin_take(const struct store *s, const char *version, const char *what, struct pin *p)
{
	*p = (struct pin){.lock_fd = -1, .holder_fd = -1};
	char *dir = pins_dir(s, 1);
	int made = dir != NULL;
	free(dir);
	if (!made)
		return;
	p->lock_fd = open_lock(s, version, 1);
	if (p->lock_fd < 0)
		p->lock_fd = open_lock(s, version, 0);
	/* waits only for a writer removing it right now */
	if (p->lock_fd < 0 || flock(p->lock_fd, LOCK_SH) != 0) {
		pin_release(p);
		return;
	}
	p->holder = store_path(s, "%s/%s@%ld", STORE_PINS, version, (long)getpid());
	unlink(p->holder);
	p->holder_fd = open(p->holder, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (p->holder_fd < 0 || flock(p->holder_fd, LOCK_EX | LOCK_NB) != 0) {
		free(p->holder);
		p->holder = NULL;
		if (p->holder_fd >= 0)
			close(p->holder_fd);
		p->holder_fd = -1;
		return; /* pinned all the same, only not named */
	}
	char line[HOLDER_MAX];
	int n = snprintf(line, sizeof line, "%ld %s\n", (long)getpid(), what ? what : "");
	/* a line that cannot be written leaves the pin without its name, still held */
	ssize_t w = n > 0 ? write(p->holder_fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) : 0;
	(void)w;
}

void pin_release(struct pin *p)
{
	if (p->holder) {
		unlink(p->holder);
		free(p->holder);
	}
	if (p->holder_fd >= 0)
		close(p->holder_fd);
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	*p = (struct pin){.lock_fd = -1, .holder_fd = -1};
}

/* A holder file's reader, when it still lives (its lock is held): its line, else NULL. A
 * stale one (a reader killed) is removed. */
static char *live_holder(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		unlink(path); /* nobody holds it: a reader that was killed */
		close(fd);
		return NULL;
	}
	char buf[HOLDER_MAX];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return xstrdup(buf);
}

/* Calls fn for every live holder of version (NULL: of any version). */
static void each_holder(const struct store *s, const char *version,
			void (*fn)(void *ctx, const char *line), void *ctx)
{
	char *dir = pins_dir(s, 0);
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	if (!d) {
		free(dir);
		return;
	}
	size_t vlen = version ? strlen(version) : 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		/* <v>@<pid>: "@" is no character of a version name, so the lock file <v> is never
		 * taken for a holder */
		const char *n = de->d_name, *at = strchr(n, '@');
		if (n[0] == '.' || !at || !at[1] || strspn(at + 1, "0123456789") != strlen(at + 1))
			continue;
		if (version && ((size_t)(at - n) != vlen || strncmp(n, version, vlen)))
			continue;
		char *path = xasprintf("%s/%s", dir, n);
		char *line = live_holder(path);
		if (line)
			fn(ctx, line);
		free(line);
		free(path);
	}
	closedir(d);
	free(dir);
}

/* "PID COMMAND" as "pid PID (tb323fu-ctl COMMAND)": the process, not a command to type. */
static void add_holder(void *ctx, const char *line)
{
	struct strbuf *sb = ctx;
	char *sp = strchr(line, ' ');
	if (sb->len)
		sb_append(sb, ", ");
	if (sp && sp[1])
		sb_appendf(sb, "pid %.*s (tb323fu-ctl %.200s)", (int)(sp - line), line, sp + 1);
	else
		sb_appendf(sb, "pid %.20s", line);
}

char *pin_holders(const struct store *s, const char *version)
{
	struct strbuf sb = {0};
	each_holder(s, version, add_holder, &sb);
	char *out = sb.len ? xstrdup(sb.buf) : NULL;
	sb_free(&sb);
	return out;
}

int pin_exclude(const struct store *s, const char *version, int wait, const struct tb_progress *p,
		int *fd, struct tb_error *e)
{
	*fd = open_lock(s, version, 0);
	if (*fd < 0)
		return TB_OK; /* never pinned */
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return TB_OK;
	char *who = pin_holders(s, version);
	char *sentence = xasprintf("Mesa %s is being read by %s", version, who ? who : "another process");
	free(who);
	int rc = TB_OK;
	if (!wait) {
		rc = tb_fail(e, TB_R_BUSY, "busy: %s; nothing was changed; try again when it is done, or pass --wait", sentence);
	} else {
		char *waiting = xasprintf("waiting: %s", sentence);
		progress_wait(p, waiting);
		free(waiting);
		if (flock(*fd, LOCK_EX) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot wait for the readers of Mesa %s", version);
	}
	free(sentence);
	if (rc) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

void pin_forget(const struct store *s, const char *version)
{
	char *path = store_path(s, "%s/%s", STORE_PINS, version);
	unlink(path);
	free(path);
}

struct alive {
	long pid;
	int found;
};

static void match_pid(void *ctx, const char *line)
{
	struct alive *a = ctx;
	if (strtol(line, NULL, 10) == a->pid)
		a->found = 1;
}

int pin_reader_alive(const struct store *s, long pid)
{
	struct alive a = {pid, 0};
	each_holder(s, NULL, match_pid, &a);
	return a.found;
}
