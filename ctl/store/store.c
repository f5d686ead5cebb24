#include "store/store.h"
#include "store/layout.h"
#include "store/running.h"
#include "store/pins.h"
#include "store/manifest.h"
#include "base/testhook.h"
#include "store/txn.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "common/storepath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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
	/* No ':' either: it separates the entries of LD_LIBRARY_PATH and VK_DRIVER_FILES, so a
	 * store path with one would add a relative (working-directory) entry. */
	return strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-@,=%") == strlen(path);
}

static int unsafe_store(const char *path, struct tb_error *e)
{
	return tb_fail(e, TB_R_USAGE,
		       "the store path %s has characters the session files cannot carry (blanks, quotes, $ or :); choose a path of letters, digits and ._-/",
		       path);
}

/* ---- what each part of the store must be (docs/design.md §3) ----
 * Whoever can write the store could plant a symbolic link where a directory or file belongs
 * (versions, .lock, icd/versions/<v>) and make a writer create files elsewhere. Writers check
 * every part under the lock and refuse a store that is not as they left it. */

static int kind_of(mode_t m)
{
	return S_ISDIR(m) ? PART_DIR : S_ISREG(m) ? PART_FILE : S_ISLNK(m) ? PART_LINK : 0;
}

#define wrong_part store_part_refuse

/* rel (relative to the store) is absent or one of the kinds in want. */
static int part_is(int rootfd, const char *root, const char *rel, int want, struct tb_error *e)
{
	struct stat st;
	if (fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? TB_OK : tb_fail_errno(e, TB_R_IO_ERROR, "cannot inspect %s/%s", root, rel);
	return kind_of(st.st_mode) & want ? TB_OK : wrong_part(root, rel, kind_of(st.st_mode), want, e);
}

/* The store's folder rel, opened without following a link: *d NULL (and TB_OK) when it is
 * not there. */
static int part_dir_open(int rootfd, const char *root, const char *rel, DIR **d, struct tb_error *e)
{
	*d = NULL;
	int fd = openat(rootfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? TB_OK : tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s/%s", root, rel);
	*d = fdopendir(fd);
	if (!*d) {
		close(fd);
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s/%s", root, rel);
	}
	return TB_OK;
}

/* Every entry of the directory rel is one of the kinds in want; the entries of those that are
 * directories are of the kinds in inner (0: not looked into). Dot files (a writer's
 * temporaries and staging trees, removed under the lock) are skipped. */
static int entries_are(int rootfd, const char *root, const char *rel, int want, int inner,
		       struct tb_error *e)
{
	DIR *d = NULL;
	int rc = part_dir_open(rootfd, root, rel, &d, e);
	if (rc || !d)
		return rc;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *sub = xasprintf("%s/%s", rel, de->d_name);
		struct stat st;
		if (fstatat(rootfd, sub, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			int k = kind_of(st.st_mode);
			if (!(k & want))
				rc = wrong_part(root, sub, k, want, e);
			else if (k == PART_DIR && inner)
				rc = entries_are(rootfd, root, sub, inner, 0, e);
		}
		free(sub);
	}
	closedir(d);
	return rc;
}

/* In each icd/versions/<v>/: a link at the Vulkan ICD file goes at the writer's takeover,
 * which writes the version's files anew (helper/takeover.c); the OpenCL folder is written into,
 * so it must be the store's own. */
static int version_icd_parts(int rootfd, const char *root, struct tb_error *e)
{
	DIR *d = NULL;
	int rc = part_dir_open(rootfd, root, STORE_ICD_VERSIONS, &d, e);
	if (rc || !d)
		return rc;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *ocl = xasprintf(STORE_ICD_VERSIONS "/%s/" STORE_OPENCL_SUBDIR, de->d_name);
		char *other = xasprintf(STORE_ICD_VERSIONS "/%s", de->d_name);
		struct stat st;
		/* only the version's folders are looked into (entries_are said the rest) */
		if (fstatat(rootfd, other, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
			rc = part_is(rootfd, root, ocl, PART_DIR, e);
		free(ocl);
		free(other);
	}
	closedir(d);
	return rc;
}

static int store_check_parts(const struct store *s, struct tb_error *e)
{
	int rootfd = open(s->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open the store %s", s->root);
	/* the folders and links of the layout (docs/design.md §3) and the files every commit
	 * replaces by rename (a link planted there goes then, its target untouched:
	 * store_planted_links); a file only some commands write (marked, app-rules) is looked at
	 * by those, as they reach it (store_reach_file) */
	static const char *const renamed[] = {STORE_CURRENT_ENV, STORE_CURRENT_GL_ENV, STORE_CURRENT_ZINK_ENV};
	int rc = TB_OK;
	for (size_t i = 0; !rc && i < store_layout_count; i++) {
		const struct store_part *p = &store_layout[i];
		if (!strchr(p->path, '*') && p->kind != PART_FILE)
			rc = part_is(rootfd, s->root, p->path, p->kind, e);
	}
	for (size_t i = 0; !rc && i < sizeof renamed / sizeof *renamed; i++)
		rc = part_is(rootfd, s->root, renamed[i], PART_FILE | PART_LINK, e);
	if (!rc)
		rc = entries_are(rootfd, s->root, STORE_VERSIONS, PART_DIR, 0, e);
	if (!rc) /* icd/versions/<v>/{turnip.json,opencl/} */
		rc = entries_are(rootfd, s->root, STORE_ICD_VERSIONS, PART_DIR, PART_FILE | PART_LINK | PART_DIR, e);
	if (!rc)
		rc = version_icd_parts(rootfd, s->root, e);
	/* Elsewhere only links and special files are refused: files are replaced by rename,
	 * which never follows a link, but a directory written into must be the store's own. */
	if (!rc) /* env/: files, and links planted at them: env/current.env is replaced at the next
		  * commit, a version's env file by the writer's takeover (helper/takeover.c) */
		rc = entries_are(rootfd, s->root, STORE_ENV_DIR, PART_FILE | PART_LINK | PART_DIR, 0, e);
	if (!rc)
		rc = entries_are(rootfd, s->root, STORE_SMOKE_DIR, PART_FILE | PART_DIR, 0, e);
	if (!rc) /* releases.json, partial downloads, <tag>/SHA256SUMS */
		rc = entries_are(rootfd, s->root, STORE_CACHE_DIR, PART_FILE | PART_DIR, PART_FILE | PART_DIR, e);
	close(rootfd);
	return rc;
}

/* The writer's half of opening: the store's directories made (the root first, then each
 * folder of the layout inside it, never through a planted link), the root resolved where
 * the reader's half could not resolve it yet (the store was not there). */
static int store_make(struct store *s, const char *dir, struct tb_error *e)
{
	if (!session_safe(dir))
		return unsafe_store(dir, e);
	/* Installed files must be readable by every user whatever the writer's umask. */
	umask(022);
	int rc = mkdir_p(dir, 0755, e);
	if (rc)
		return rc;
	char real[PATH_MAX];
	if (!s->resolved) {
		if (!realpath(dir, real))
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open the store %s", dir);
		free(s->root);
		s->root = xstrdup(real);
		s->resolved = 1;
	}
	if (!session_safe(s->root))
		return unsafe_store(s->root, e);
	static const char *const subdirs[] = {STORE_DIRS};
	for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
		/* made as the layout says: never inside what a planted link reaches */
		char *p = store_reach_dir(s, subdirs[i], 1, e);
		if (!p)
			return e->code;
		free(p);
	}
	return TB_OK;
}

int store_open(struct store *s, const char *dir, int create, struct tb_error *e)
{
	memset(s, 0, sizeof *s);
	s->lock_fd = -1;
	if (create)
		return store_make(s, dir, e);
	char real[PATH_MAX];
	if (realpath(dir, real))
		s->root = xstrdup(real), s->resolved = 1;
	else if (errno == ENOENT)
		s->root = xstrdup(dir); /* a reader of a store that does not exist yet */
	else
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open the store %s", dir);
	return TB_OK;
}

int store_open_writer(struct store *s, const char *dir, struct tb_error *e)
{
	return s->root ? store_make(s, dir, e) : store_open(s, dir, 1, e);
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
static DIR *open_dir_nofollow(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* A temporary of a reader that lives (.NAME.tmp.<pid>, the pid pinning a version): not a
 * leftover; readers take no store lock (docs/design.md §3, "Pins"). */
static int reader_temporary(const struct store *s, const char *n)
{
	const char *t = strstr(n, ".tmp.");
	if (!t || !t[5] || strspn(t + 5, "0123456789") != strlen(t + 5))
		return 0;
	return pin_reader_alive(s, strtol(t + 5, NULL, 10));
}

static void remove_leftovers(const struct store *s, const char *dir)
{
	DIR *d = open_dir_nofollow(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t len = strlen(n);
		if (n[0] == '.' && len > 4 && (strstr(n, ".tmp.") || !strcmp(n + len - 4, ".tmp")) &&
		    !reader_temporary(s, n)) {
			char *p = path_join(dir, n);
			remove_tree(p);
			free(p);
		}
	}
	closedir(d);
}

/* The same in each directory below dir (icd/versions/<v>/, cache/<tag>/): a killed writer
 * may have been writing a version's ICD files or a release's SHA256SUMS there. */
static void remove_leftovers_below(const struct store *s, const char *dir)
{
	DIR *d = open_dir_nofollow(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		/* a link is never followed: open_dir_nofollow refuses it */
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		char *p = path_join(dir, de->d_name);
		remove_leftovers(s, p);
		free(p);
	}
	closedir(d);
}

/* Temporaries of older builds that wrote the running record without a dot name. */
static void remove_old_temporaries(const struct store *s)
{
	static const char *const names[] = {"running.tmp", "last-operation.tmp"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char *p = path_join(s->root, names[i]);
		unlink(p); /* a link goes, never what it points at */
		free(p);
	}
}

void store_remove_gl_env(const struct store *s, const char *version)
{
	static const char *const suffixes[] = {STORE_GL_SUFFIX, STORE_ZINK_SUFFIX};
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		char *p = store_path(s, STORE_ENV_DIR "/%s%s", version, suffixes[i]);
		unlink(p); /* a link goes, never what it points at */
		free(p);
	}
}

/* env/<v>.env, icd/versions/<v>/ and smoke/<v>.json of a version whose tree is gone (deleted
 * by hand, by the Open Device Helper's own clean-up, or a remove killed half way): the
 * launcher would select a driver that is not there, and a later install of the same version
 * would show the old one's smoke result as its own. */
static void remove_orphan_selections(const struct store *s)
{
	char *dir = path_join(s->root, STORE_ENV_DIR);
	DIR *d = open_dir_nofollow(dir);
	free(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len <= 4 || strcmp(de->d_name + len - 4, ".env"))
			continue;
		char *v = xasprintf("%.*s", (int)(len - 4), de->d_name);
		if (version_name_ok(v) && !store_has_version(s, v)) {
			char *env = store_env_path(s, v), *icd = store_icd_dir(s, v);
			char *smoke = store_smoke_file(s, v);
			unlink(smoke);
			remove_tree(icd);
			store_remove_gl_env(s, v);
			unlink(env); /* last: the env file is what this sweep finds a gone version by */
			free(env);
			free(icd);
			free(smoke);
		}
		free(v);
	}
	closedir(d);
}

int store_lock(struct store *s, int wait, struct tb_error *e)
{
	char *path = path_join(s->root, STORE_LOCK);
	/* O_NOFOLLOW: a planted .lock link must not make us create or lock a file elsewhere. */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	free(path);
	struct stat st;
	if (fd < 0 && errno == ELOOP)
		return wrong_part(s->root, STORE_LOCK, PART_LINK, PART_FILE, e);
	if (fd < 0 && errno == EISDIR)
		return wrong_part(s->root, STORE_LOCK, PART_DIR, PART_FILE, e);
	if (fd < 0)
		return tb_fail_errno_as(e, TB_R_PERMISSION, "cannot open the store's lock in %s (run as the store's owner, e.g. with sudo)", s->root);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int k = fstat(fd, &st) == 0 ? kind_of(st.st_mode) : 0;
		close(fd);
		return wrong_part(s->root, STORE_LOCK, k, PART_FILE, e);
	}
	int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
	if (!locked && errno == EWOULDBLOCK) {
		/* the holder named, as apt names the process that holds its lock */
		char *who = running_holder(s->root);
		if (!wait) {
			close(fd);
			int rc = tb_fail(e, TB_R_BUSY, "busy: %s is changing the store %s; try again when it is done, or pass --wait", who, s->root);
			free(who);
			return rc;
		}
		char *sentence = xasprintf("waiting for the store's lock, held by %s", who);
		running_wait_notice(sentence); /* once */
		free(sentence);
		free(who);
		locked = flock(fd, LOCK_EX) == 0;
	}
	if (!locked) {
		close(fd);
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot lock the store %s", s->root);
	}
	s->lock_fd = fd;
	/* who holds it, at once, for a writer that finds it taken (running_holder): the running
	 * record, live while this open file is marked (ctl/store/running.c) */
	if (s->publish) {
		struct flock mark = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		(void)fcntl(fd, F_OFD_SETLK, &mark);
		running_attach(s->root, fd);
	}
	int rc = store_check_parts(s, e);
	if (rc) {
		close(fd);
		s->lock_fd = -1;
		return rc;
	}
	/* a commit a killed writer left half done is finished before its temporaries go */
	txn_recover(s);
	static const char *const dirs[] = {"", STORE_DIRS, STORE_CTS};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char *p = path_join(s->root, dirs[i]);
		remove_leftovers(s, p);
		free(p);
	}
	static const char *const parents[] = {STORE_ICD_VERSIONS, STORE_CACHE_DIR};
	for (size_t i = 0; i < sizeof parents / sizeof *parents; i++) {
		char *p = path_join(s->root, parents[i]);
		remove_leftovers_below(s, p);
		free(p);
	}
	remove_old_temporaries(s);
	remove_orphan_selections(s);
	testhook_pause("locked");
	return TB_OK;
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
	if (strncmp(buf, STORE_VERSIONS "/", strlen(STORE_VERSIONS "/")) ||
	    !version_name_ok(buf + strlen(STORE_VERSIONS "/")))
		return NULL;
	return xstrdup(buf + 9);
}

char *store_current(const struct store *s)
{
	return link_version(s, STORE_CURRENT);
}

char *store_previous(const struct store *s)
{
	return link_version(s, STORE_PREVIOUS);
}

int store_set_link(struct store *s, const char *link, const char *version, struct tb_error *e)
{
	char *p = path_join(s->root, link);
	int rc = TB_OK;
	if (!version) {
		if (unlink(p) != 0 && errno != ENOENT)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", p);
	} else {
		char *target = store_version_rel(version);
		rc = atomic_symlink(target, p, e);
		free(target);
	}
	free(p);
	return rc;
}

/* A tree of a folder of trees (versions/, cts/): a version's name (checked where it entered)
 * with a MANIFEST in it. */
static int has_tree(const struct store *s, const char *dir, const char *version)
{
	/* a CTS tree is a folder of the store's own: a link planted there is none (store/layout.h);
	 * a version's folder that is a link is still named, for verify to say it is one (§3) */
	char *rel = xasprintf("%s/%s", dir, version);
	struct tb_error refused = {0};
	char *tree = strcmp(dir, STORE_CTS) ? path_join(s->root, rel) : store_reach_dir(s, rel, 0, &refused);
	free(rel);
	if (!tree)
		return 0;
	char *p = path_join(tree, STORE_MANIFEST);
	int ok = access(p, F_OK) == 0;
	free(p);
	free(tree);
	return ok;
}

int store_has_version(const struct store *s, const char *version)
{
	return has_tree(s, STORE_VERSIONS, version);
}

int store_version_gone(const struct store *s, const char *version)
{
	if (!version)
		return 0;
	struct stat st;
	char *p = store_manifest_path(s, version);
	int gone = lstat(p, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
	free(p);
	return gone;
}

char *store_planted_links(const struct store *s)
{
	static const char *const rewritten[] = {STORE_ENV_CONF, STORE_FLATPAK_CONF, STORE_STATE, STORE_CURRENT_VULKAN_ICD,
						STORE_CURRENT_OPENCL_ICD, STORE_CURRENT_ENV, STORE_CURRENT_GL_ENV,
						STORE_CURRENT_ZINK_ENV, STORE_CURRENT_EGL_VENDOR};
	struct strbuf sb = {0};
	for (size_t i = 0; i < sizeof rewritten / sizeof *rewritten; i++) {
		char *p = path_join(s->root, rewritten[i]);
		char target[PATH_MAX];
		ssize_t n = readlink(p, target, sizeof target - 1);
		free(p);
		if (n < 0)
			continue;
		target[n] = '\0';
		sb_appendf(&sb, "%s%s (a link to %.200s)", sb.len ? ", " : "", rewritten[i], target);
	}
	return sb.buf;
}

static int newest_first(const void *a, const void *b)
{
	return -version_compare(*(char *const *)a, *(char *const *)b);
}

char **store_versions(const struct store *s, size_t *n)
{
	return store_trees(s, STORE_VERSIONS, n);
}

char **store_trees(const struct store *s, const char *folder, size_t *n)
{
	*n = 0;
	struct tb_error refused = {0};
	char *dir = store_reach_dir(s, folder, 0, &refused);
	DIR *d = dir ? open_dir_nofollow(dir) : NULL;
	free(dir);
	if (!d)
		return NULL;
	size_t cap = 0;
	char **list = NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		/* a folder's names come from whoever wrote there: checked here, where they enter */
		if (!version_name_ok(de->d_name) || !has_tree(s, folder, de->d_name))
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
	char *p = store_version_dir(s, version);
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	free(p);
	return fd < 0 ? 0 : tree_bytes(fd);
}
