/* The store's layout and the one way to reach its paths (layout.h, docs/design.md §3). */
#include "store/layout.h"
#include "store/store.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_ PART_DIR
#define FILE_ PART_FILE
/* a file every commit (or a writer's takeover) replaces by rename: a link planted there goes
 * then, its target untouched (store_planted_links) */
#define RENAMED (PART_FILE | PART_LINK)

/* The table docs/design.md §3 gives (tests/integration/store_paths.sh holds the two to each
 * other): the more particular rows first, the first that matches wins. */
const struct store_part store_layout[] = {
	{STORE_VERSIONS, DIR_, "a writer"},
	{STORE_VERSIONS "/*", DIR_, "install, update, install-local"},
	{STORE_CURRENT, PART_LINK, "the life cycle's commit"},
	{STORE_PREVIOUS, PART_LINK, "the life cycle's commit"},
	{STORE_ICD_DIR, DIR_, "a writer"},
	{STORE_ICD_OPENCL, DIR_, "a writer"},
	{STORE_ICD_VERSIONS, DIR_, "a writer"},
	{STORE_CURRENT_VULKAN_ICD, RENAMED, "the life cycle's commit"},
	{STORE_CURRENT_EGL_VENDOR, RENAMED, "the life cycle's commit"},
	{STORE_CURRENT_OPENCL_ICD, RENAMED, "the life cycle's commit"},
	{STORE_ICD_VERSIONS "/*", DIR_, "install, a writer's takeover"},
	{STORE_ICD_VERSIONS "/*/" STORE_OPENCL_SUBDIR, DIR_, "install, a writer's takeover"},
	{STORE_ICD_VERSIONS "/*/" STORE_OPENCL_SUBDIR "/*", RENAMED, "install, a writer's takeover"},
	{STORE_ICD_VERSIONS "/*/*", RENAMED, "install, a writer's takeover"},
	{STORE_ENV_DIR, DIR_, "a writer"},
	{STORE_ENV_DIR "/*", RENAMED, "install, the life cycle's commit"},
	{STORE_ENV_CONF, RENAMED, "the life cycle's commit"},
	{STORE_FLATPAK_CONF, RENAMED, "the life cycle's commit"},
	{STORE_STATE, RENAMED, "the life cycle's commit"},
	{STORE_SMOKE_DIR, DIR_, "a writer, smoke"},
	{STORE_SMOKE_DIR "/*", FILE_, "smoke, install"},
	{STORE_SUITES_CACHE, DIR_, "smoke --suite"},
	{STORE_SUITES_CACHE "/*", FILE_, "smoke --suite"},
	{STORE_CACHE_DIR, DIR_, "a writer, smoke, bench"},
	{STORE_CACHE_DIR "/*/*", FILE_, "download, update"},
	{STORE_CACHE_DIR "/*", FILE_ | DIR_, "check, download, update, bench"},
	{STORE_LOCK, FILE_, "every writer"},
	{STORE_JOURNAL, FILE_, "the life cycle's commit"},
	{STORE_RESERVE, FILE_, "a writer"},
	{STORE_RUNNING, FILE_, "a writer"},
	{STORE_LAST_OPERATION, FILE_, "a writer"},
	{STORE_RUNNING_READER "*", FILE_, "smoke, bench"},
	{STORE_PINS, DIR_, "smoke, bench, verify, bisect"},
	{STORE_PINS "/*", FILE_, "smoke, bench, verify, bisect"},
	{STORE_BISECT_DIR, DIR_, "bisect"},
	{STORE_BISECT_LOG, RENAMED, "bisect"},
	{STORE_BENCH_HISTORY, RENAMED, "bench"},
	{STORE_CTS, DIR_, "cts update, cts install-local"},
	{STORE_CTS_CURRENT, PART_LINK, "cts update, cts install-local"},
	{STORE_CTS "/*", DIR_, "cts update, cts install-local"},
	{STORE_APP_RULES, FILE_, "app set, app unset, app clear"},
	{STORE_MARKS, FILE_, "rollback, boot-tick, install, update"},
	{STORE_CRASH_RECORD, FILE_, "crashes, boot-tick"},
};
const size_t store_layout_count = sizeof store_layout / sizeof *store_layout;

const struct store_part *store_part_find(const char *rel)
{
	for (size_t i = 0; i < store_layout_count; i++)
		if (fnmatch(store_layout[i].path, rel, FNM_PATHNAME) == 0)
			return &store_layout[i];
	return NULL;
}

static int kind_of(mode_t m)
{
	return S_ISDIR(m) ? PART_DIR : S_ISREG(m) ? PART_FILE : S_ISLNK(m) ? PART_LINK : 0;
}

const char *part_kind_name(int k)
{
	return k & PART_FILE ? "a file" : k & PART_DIR ? "a directory" : k & PART_LINK ? "a symbolic link" : "a special file";
}

int store_part_refuse(const char *root, const char *rel, int have, int want, struct tb_error *e)
{
	return tb_fail(e, TB_R_DAMAGED_STORE,
		       "the store %s is not as tb323fu-ctl left it: %s is %s where %s belongs; move it out of the store (or remove it) and run the command again",
		       root, rel, part_kind_name(have), part_kind_name(want));
}

/* From dirfd, the level name (rel so far: done) as a folder: made when missing and make;
 * *next the folder opened, or -1 when it is missing. */
static int enter_level(const struct store *s, int dirfd, const char *name, const char *done, int make,
		       int *next, struct tb_error *e)
{
	*next = -1;
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot inspect %s/%s", s->root, done);
		if (!make)
			return TB_OK;
		if (mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST)
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s/%s", s->root, done);
	} else if (!S_ISDIR(st.st_mode)) {
		return store_part_refuse(s->root, done, kind_of(st.st_mode), PART_DIR, e);
	}
	*next = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*next >= 0)
		return TB_OK;
	/* replaced between the look and the open */
	if (errno == ELOOP || errno == ENOTDIR)
		return store_part_refuse(s->root, done, errno == ELOOP ? PART_LINK : 0, PART_DIR, e);
	return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s/%s", s->root, done);
}

/* Walks the folders of rel from the root; *fd the last one's (-1: one is missing), which the
 * caller closes. */
static int walk(const struct store *s, const char *rel, int make, int *fd, struct tb_error *e)
{
	*fd = open(s->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT && !make)
			return TB_OK; /* a reader of a store that does not exist yet */
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open the store %s", s->root);
	}
	char *levels = xstrdup(rel);
	struct strbuf done = {0};
	int rc = TB_OK;
	for (char *save = NULL, *name = strtok_r(levels, "/", &save); name && !rc && *fd >= 0;
	     name = strtok_r(NULL, "/", &save)) {
		sb_appendf(&done, "%s%s", done.len ? "/" : "", name);
		int next;
		rc = enter_level(s, *fd, name, done.buf, make, &next, e);
		close(*fd);
		*fd = next;
	}
	if (rc && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	free(levels);
	sb_free(&done);
	return rc;
}

static int not_in_layout(const char *rel, struct tb_error *e)
{
	return tb_fail(e, TB_R_FAILED, "internal error: %s is no path of the store's layout (docs/design.md §3)", rel);
}

char *store_reach_dir(const struct store *s, const char *rel, int make, struct tb_error *e)
{
	const struct store_part *p = store_part_find(rel);
	if (!p || !(p->kind & PART_DIR)) {
		not_in_layout(rel, e);
		return NULL;
	}
	int fd;
	if (walk(s, rel, make, &fd, e))
		return NULL;
	if (fd >= 0)
		close(fd);
	return path_join(s->root, rel);
}

char *store_reach_file(const struct store *s, const char *rel, int make_dir, struct tb_error *e)
{
	const struct store_part *p = store_part_find(rel);
	if (!p || !(p->kind & PART_FILE)) {
		not_in_layout(rel, e);
		return NULL;
	}
	const char *slash = strrchr(rel, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - rel), rel) : xstrdup("");
	int fd;
	int rc = walk(s, dir, make_dir, &fd, e);
	free(dir);
	if (rc)
		return NULL;
	if (fd >= 0) {
		struct stat st;
		if (fstatat(fd, slash ? slash + 1 : rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !(kind_of(st.st_mode) & p->kind))
			rc = store_part_refuse(s->root, rel, kind_of(st.st_mode), PART_FILE, e);
		close(fd);
	}
	return rc ? NULL : path_join(s->root, rel);
}
