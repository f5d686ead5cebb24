#include "base/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/strbuf.h"

int mkdir_p(const char *path, mode_t mode, struct tb_error *e)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, mode) != 0 && errno != EEXIST) {
				int r = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s", p);
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
		return tb_fail(e, TB_R_IO_ERROR, "%s exists and is not a directory", path);
	return TB_OK;
}

int mkdir_below(const char *base, const char *rel, mode_t mode, struct tb_error *e)
{
	int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s", base);
	char *r = xstrdup(rel);
	struct strbuf done = {0};
	sb_appendf(&done, "%s", base);
	int rc = TB_OK;
	for (char *save = NULL, *level = strtok_r(r, "/", &save); level && !rc;
	     level = strtok_r(NULL, "/", &save)) {
		sb_appendf(&done, "/%s", level);
		if (mkdirat(fd, level, mode) != 0 && errno != EEXIST) {
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s", done.buf);
			break;
		}
		int next = openat(fd, level, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			struct stat st;
			if (fstatat(fd, level, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
				rc = tb_fail(e, TB_R_NOT_OURS,
					     "%s is a symbolic link where a folder of ours belongs; nothing was "
					     "written through it: remove it (rm %s) and run the command again",
					     done.buf, done.buf);
			else if (errno == ENOTDIR)
				rc = tb_fail(e, TB_R_NOT_OURS,
					     "%s is a file where a folder of ours belongs; move it away and run "
					     "the command again", done.buf);
			else
				rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s", done.buf);
			break;
		}
		close(fd);
		fd = next;
	}
	close(fd);
	free(r);
	sb_free(&done);
	return rc;
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

/* A temporary name beside path, unique per process (links: symlink(2) never follows). */
static char *temp_beside(const char *path)
{
	char *dir = dir_of(path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *t = xasprintf("%s/.%s.tmp.%ld", dir, base, (long)getpid());
	free(dir);
	return t;
}

int atomic_out_open(struct atomic_out *o, const char *path, mode_t mode, struct tb_error *e)
{
	char *dir = dir_of(path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	o->tmp = xasprintf("%s/.%s.tmp.XXXXXX", dir, base);
	free(dir);
	o->path = xstrdup(path);
	o->mode = mode;
	/* mkostemp: O_CREAT|O_EXCL under a name no one can guess ahead; O_NOFOLLOW besides. */
	o->fd = mkostemp(o->tmp, O_CLOEXEC | O_NOFOLLOW);
	if (o->fd < 0) {
		int r = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", path);
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return r;
	}
	return TB_OK;
}

int atomic_out_write(struct atomic_out *o, const void *data, size_t len, struct tb_error *e)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(o->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s (is the disk full?)", o->path);
		p += n;
		len -= (size_t)n;
	}
	return TB_OK;
}

void atomic_out_abort(struct atomic_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	o->fd = -1;
}

int atomic_out_commit(struct atomic_out *o, int sync, struct tb_error *e)
{
	int rc = TB_OK;
	if (fchmod(o->fd, o->mode) != 0 || (sync && fsync(o->fd) != 0))
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", o->path);
	if (close(o->fd) != 0 && !rc)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s (is the disk full?)", o->path);
	o->fd = -1;
	if (!rc && rename(o->tmp, o->path) != 0)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot replace %s", o->path);
	if (rc) {
		atomic_out_abort(o);
		return rc;
	}
	if (sync) {
		char *dir = dir_of(o->path);
		fsync_dir(dir);
		free(dir);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return TB_OK;
}

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
		      struct tb_error *e)
{
	struct atomic_out o;
	int rc = atomic_out_open(&o, path, mode, e);
	if (rc)
		return rc;
	rc = atomic_out_write(&o, data, len, e);
	if (rc) {
		atomic_out_abort(&o);
		return rc;
	}
	return atomic_out_commit(&o, 1, e);
}

int atomic_symlink(const char *target, const char *path, struct tb_error *e)
{
	char *tmp = temp_beside(path);
	unlink(tmp);
	int rc = TB_OK;
	if (symlink(target, tmp) != 0)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create link %s", path);
	else if (rename(tmp, path) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot replace link %s", path);
		unlink(tmp);
	} else {
		char *dir = dir_of(path);
		fsync_dir(dir);
		free(dir);
	}
	free(tmp);
	return rc;
}

/* 0 when fd is a regular file of at most max bytes, else why (EISDIR, ESPIPE: a FIFO or a
 * device, E2BIG, or fstat's errno). */
static int regular_within(int fd, uint64_t max)
{
	struct stat st;
	return fstat(fd, &st) != 0	   ? errno
	       : S_ISDIR(st.st_mode)	   ? EISDIR
	       : !S_ISREG(st.st_mode)	   ? ESPIPE
	       : (uint64_t)st.st_size > max ? E2BIG
					    : 0;
}

static char *read_small(const char *path, size_t max, size_t *len_out, int flags)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	if (fd < 0)
		return NULL;
	int err = regular_within(fd, max);
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

FILE *fopen_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	int err = regular_within(fd, UINT64_MAX);
	int flags = err ? 0 : fcntl(fd, F_GETFL);
	if (!err && (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0))
		err = errno;
	FILE *f = err ? NULL : fdopen(fd, "re");
	if (!f) {
		if (!err)
			err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

char *read_small_file(const char *path, size_t max, size_t *len_out)
{
	return read_small(path, max, len_out, 0);
}

char *read_small_file_nofollow(const char *path, size_t max, size_t *len_out)
{
	return read_small(path, max, len_out, O_NOFOLLOW);
}

char *temp_dir_make(const char *name, const char *what, struct tb_error *e)
{
	const char *tmp = getenv("TMPDIR");
	char *leaf = xasprintf("%s.XXXXXX", name);
	char *path = path_join(tmp && *tmp ? tmp : "/tmp", leaf);
	free(leaf);
	if (mkdtemp(path))
		return path;
	tb_fail_errno_as(e, TB_R_IO_ERROR, "cannot create a temporary directory for %s", what);
	free(path);
	return NULL;
}
