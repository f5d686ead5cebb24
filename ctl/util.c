#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../tb323fu-mesa/termtext.h"

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
	e->reason = reason ? reason : reason_of_errno(errnum);
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

int tb_check_interrupted(struct tb_error *e, const char *what)
{
	int sig = tb_interrupted;
	if (!sig)
		return TB_OK;
	return tb_fail_why(e, TB_EFAIL, "interrupted",
			   "interrupted by %s while %s; nothing was changed, run the command again to finish it",
			   sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGHUP ? "SIGHUP" : "SIGTERM", what);
}

void tb_error_clear(struct tb_error *e)
{
	e->code = 0;
	e->reason = NULL;
	e->msg[0] = '\0';
}

static void out_of_memory(void)
{
	fputs("out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		out_of_memory();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

void sb_append(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

void sb_appendf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_append(sb, s);
	free(s);
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int mkdir_p(const char *path, mode_t mode, struct tb_error *e)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, mode) != 0 && errno != EEXIST) {
				int r = tb_fail_errno(e, TB_EFAIL, "cannot create %s", p);
				free(p);
				return r;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	if (!is_directory(path))
		return tb_fail(e, TB_EFAIL, "%s exists and is not a directory", path);
	return TB_OK;
}

static int remove_at(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (remove_at(fd, de->d_name) != 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int remove_tree(const char *path)
{
	return remove_at(AT_FDCWD, path);
}

int path_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

int is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = fsync(fd);
	close(fd);
	return r;
}

static char *dir_of(const char *path)
{
	char *d = xstrdup(path);
	char *slash = strrchr(d, '/');
	if (!slash) {
		free(d);
		return xstrdup(".");
	}
	if (slash == d)
		slash[1] = '\0';
	else
		*slash = '\0';
	return d;
}

/* A temporary name beside path, unique per process. */
static char *temp_beside(const char *path)
{
	char *dir = dir_of(path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *t = xasprintf("%s/.%s.tmp.%ld", dir, base, (long)getpid());
	free(dir);
	return t;
}

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
		      struct tb_error *e)
{
	char *tmp = temp_beside(path);
	int rc = TB_OK;
	/* A fresh file: never one planted under the temporary's name (a link, a hard link). */
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0) {
		rc = tb_fail_errno(e, TB_EFAIL, "cannot write %s", path);
		goto out;
	}
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = tb_fail_errno(e, TB_EFAIL, "cannot write %s (is the disk full?)", path);
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		rc = tb_fail_errno(e, TB_EFAIL, "cannot write %s", path);
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	if (rename(tmp, path) != 0) {
		rc = tb_fail_errno(e, TB_EFAIL, "cannot replace %s", path);
		unlink(tmp);
		goto out;
	}
	char *dir = dir_of(path);
	fsync_dir(dir);
	free(dir);
out:
	free(tmp);
	return rc;
}

int atomic_symlink(const char *target, const char *path, struct tb_error *e)
{
	char *tmp = temp_beside(path);
	unlink(tmp);
	int rc = TB_OK;
	if (symlink(target, tmp) != 0)
		rc = tb_fail_errno(e, TB_EFAIL, "cannot create link %s", path);
	else if (rename(tmp, path) != 0) {
		rc = tb_fail_errno(e, TB_EFAIL, "cannot replace link %s", path);
		unlink(tmp);
	} else {
		char *dir = dir_of(path);
		fsync_dir(dir);
		free(dir);
	}
	free(tmp);
	return rc;
}

static char *read_small(const char *path, size_t max, size_t *len_out, int flags)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	if (fd < 0)
		return NULL;
	struct stat st;
	int err = fstat(fd, &st) != 0	   ? errno
		  : S_ISDIR(st.st_mode)	   ? EISDIR
		  : !S_ISREG(st.st_mode)	   ? ESPIPE
		  : (uint64_t)st.st_size > max ? E2BIG
					   : 0;
	if (err) {
		close(fd);
		errno = err;
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap) {
			if (cap > max + 1) {
				free(buf);
				close(fd);
				errno = E2BIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(buf);
			close(fd);
			errno = E2BIG;
			return NULL;
		}
	}
	close(fd);
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

char *read_small_file(const char *path, size_t max, size_t *len_out)
{
	return read_small(path, max, len_out, 0);
}

char *read_small_file_nofollow(const char *path, size_t max, size_t *len_out)
{
	return read_small(path, max, len_out, O_NOFOLLOW);
}

char *next_line(char **cursor)
{
	char *line = *cursor;
	if (!line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = NULL;
	}
	size_t n = strlen(line);
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

void hex_encode(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

const char *host_arch(void)
{
	static char arch[65];
	if (!arch[0]) {
		struct utsname u;
		if (uname(&u) == 0)
			snprintf(arch, sizeof arch, "%s", u.machine);
	}
	return arch;
}

char *term_text(const char *s, int keep_newlines)
{
	size_t cap = 4 * strlen(s) + 1;
	char *out = xmalloc(cap);
	term_escape(out, cap, s, keep_newlines);
	return out;
}
