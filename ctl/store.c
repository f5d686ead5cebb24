#include "store.h"
#include "manifest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The env files carry the store's path into environment.d and sh, which would read blanks,
 * quotes or $ differently: a writer refuses such a store up front. */
static int session_safe(const char *path)
{
	return strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-@,:=%") == strlen(path);
}

static int unsafe_store(const char *path, struct tb_error *e)
{
	return tb_fail(e, TB_EUSAGE, "the store path %s has characters the session files cannot carry; choose a path of letters, digits and ._-/", path);
}

int store_open(struct store *s, const char *dir, int create, struct tb_error *e)
{
	memset(s, 0, sizeof *s);
	s->lock_fd = -1;
	if (!dir || !*dir)
		dir = getenv("TB323FU_MESA_DIR");
	if (!dir || !*dir)
		dir = STORE_DEFAULT_DIR;
	if (create && !session_safe(dir))
		return unsafe_store(dir, e);
	if (create) {
		/* Installed files must be readable by every user whatever the writer's umask. */
		umask(022);
		int rc = mkdir_p(dir, 0755, e);
		if (rc)
			return rc;
	}
	char real[PATH_MAX];
	if (realpath(dir, real))
		s->root = xstrdup(real);
	else if (errno == ENOENT && !create)
		s->root = xstrdup(dir); /* a reader of a store that does not exist yet */
	else
		return tb_fail_errno(e, TB_EFAIL, "cannot open the store %s", dir);
	if (create && !session_safe(s->root))
		return unsafe_store(s->root, e);
	if (create) {
		static const char *const subdirs[] = {"versions", "icd", "icd/opencl", "icd/versions",
						      "env", "smoke", "cache"};
		for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
			char *p = path_join(s->root, subdirs[i]);
			int rc = mkdir_p(p, 0755, e);
			free(p);
			if (rc)
				return rc;
		}
	}
	return TB_OK;
}

void store_close(struct store *s)
{
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s->root);
	memset(s, 0, sizeof *s);
	s->lock_fd = -1;
}

/* Temporaries and staging trees of a writer that was killed: safe to remove under the lock. */
static void remove_leftovers(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t len = strlen(n);
		if (n[0] == '.' && len > 4 && (strstr(n, ".tmp.") || !strcmp(n + len - 4, ".tmp"))) {
			char *p = path_join(dir, n);
			remove_tree(p);
			free(p);
		}
	}
	closedir(d);
}

int store_lock(struct store *s, int wait, struct tb_error *e)
{
	char *path = path_join(s->root, ".lock");
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (fd < 0)
		return tb_fail_errno_why(e, TB_EFAIL, "permission", "cannot open the store's lock in %s (run as the store's owner, e.g. with sudo)", s->root);
	if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
		int busy = errno == EWOULDBLOCK;
		close(fd);
		if (busy)
			return tb_fail_why(e, TB_EBUSY, "busy", "busy: another tb323fu-ctl is changing the store %s; try again when it is done, or pass --wait", s->root);
		return tb_fail_errno(e, TB_EFAIL, "cannot lock the store %s", s->root);
	}
	s->lock_fd = fd;
	static const char *const dirs[] = {"", "versions", "icd", "icd/opencl", "icd/versions", "env",
					   "smoke", "cache"};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char *p = path_join(s->root, dirs[i]);
		remove_leftovers(p);
		free(p);
	}
	return TB_OK;
}

char *store_path(const struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *rel = xvasprintf(fmt, ap);
	va_end(ap);
	char *p = path_join(s->root, rel);
	free(rel);
	return p;
}

static char *link_version(const struct store *s, const char *link)
{
	char *p = path_join(s->root, link);
	char buf[PATH_MAX];
	ssize_t n = readlink(p, buf, sizeof buf - 1);
	free(p);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if (strncmp(buf, "versions/", 9) || !version_is_valid(buf + 9))
		return NULL;
	return xstrdup(buf + 9);
}

char *store_current(const struct store *s)
{
	return link_version(s, "current");
}

char *store_previous(const struct store *s)
{
	return link_version(s, "previous");
}

int store_set_link(struct store *s, const char *link, const char *version, struct tb_error *e)
{
	char *p = path_join(s->root, link);
	int rc = TB_OK;
	if (!version) {
		if (unlink(p) != 0 && errno != ENOENT)
			rc = tb_fail_errno(e, TB_EFAIL, "cannot remove %s", p);
	} else {
		char *target = xasprintf("versions/%s", version);
		rc = atomic_symlink(target, p, e);
		free(target);
	}
	free(p);
	return rc;
}

int store_has_version(const struct store *s, const char *version)
{
	if (!version_is_valid(version))
		return 0;
	char *p = store_path(s, "versions/%s/MANIFEST", version);
	int ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

static int newest_first(const void *a, const void *b)
{
	return -version_compare(*(char *const *)a, *(char *const *)b);
}

char **store_versions(const struct store *s, size_t *n)
{
	*n = 0;
	char *dir = path_join(s->root, "versions");
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return NULL;
	size_t cap = 0;
	char **list = NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!version_is_valid(de->d_name) || !store_has_version(s, de->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			list = xrealloc(list, cap * sizeof *list);
		}
		list[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(list, *n, sizeof *list, newest_first);
	return list;
}

void store_free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static uint64_t tree_bytes(int dirfd)
{
	uint64_t total = 0;
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return 0;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		struct stat st;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
		else if (S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				total += tree_bytes(fd);
		}
	}
	closedir(d);
	return total;
}

uint64_t store_version_bytes(const struct store *s, const char *version)
{
	char *p = store_path(s, "versions/%s", version);
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	free(p);
	return fd < 0 ? 0 : tree_bytes(fd);
}
