/* The release tarball written from a staged tree (ctl/release/packwriter.h). */
#include "release/packwriter.h"
#include "base/hash.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/testhook.h"

#include <archive.h>
#include <archive_entry.h>
#include "base/lazy_archive.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int add_file(struct pack_tree *st, const char *sub, const char *full, mode_t mode,
		    struct tb_error *e)
{
	if (st->m.n_files == st->cap_files) {
		st->cap_files = st->cap_files ? st->cap_files * 2 : 64;
		st->m.files = xrealloc(st->m.files, st->cap_files * sizeof *st->m.files);
	}
	struct manifest_file *f = &st->m.files[st->m.n_files];
	unsigned long long size;
	if (sha256_file(full, f->sha256, &size) != 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", full);
	f->path = xstrdup(sub);
	f->size = size;
	f->mode = (mode & 0111) ? 0755 : 0644;
	st->m.n_files++;
	return TB_OK;
}

/* The Open Device Helper's channel takes no links (docs/design.md §13): by default a link
 * inside the tree is stored as a copy of the file it names. */
static int add_link_as_copy(const char *stage, const char *sub, const char *full,
			    struct pack_tree *st, struct tb_error *e)
{
	char target[PATH_MAX];
	ssize_t n = readlink(full, target, sizeof target - 1);
	if (n < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", full);
	target[n] = '\0';
	struct stat sb;
	if (!link_target_is_safe(sub, target))
		return tb_fail(e, TB_R_USAGE, "%s: the link %s -> %s leaves the tree; make it relative and inside", stage, sub, target);
	if (stat(full, &sb) != 0 || !S_ISREG(sb.st_mode))
		return tb_fail(e, TB_R_USAGE, "%s: the link %s -> %s does not name a file; fix it, or keep links with --keep-links", stage, sub, target);
	return add_file(st, sub, full, sb.st_mode, e);
}

int pack_tree_walk(const char *stage, const char *rel, struct pack_tree *st, struct tb_error *e)
{
	char *dir = path_join(stage, rel);
	DIR *d = opendir(dir);
	if (!d) {
		int r = errno == ENOENT ? TB_OK : tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", dir);
		free(dir);
		return r;
	}
	if (st->n_dirs == st->cap_dirs) {
		st->cap_dirs = st->cap_dirs ? st->cap_dirs * 2 : 16;
		st->dirs = xrealloc(st->dirs, st->cap_dirs * sizeof *st->dirs);
	}
	st->dirs[st->n_dirs++] = xstrdup(rel);
	int rc = TB_OK;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = xasprintf("%s/%s", rel, de->d_name);
		char *full = path_join(stage, sub);
		struct stat sb;
		if (lstat(full, &sb) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", full);
		else if (!release_path_is_safe(sub))
			rc = tb_fail(e, TB_R_USAGE, "%s: the path %s is not allowed in a release (characters [A-Za-z0-9._@+-])", stage, sub);
		else if (S_ISDIR(sb.st_mode))
			rc = pack_tree_walk(stage, sub, st, e);
		else if (S_ISLNK(sb.st_mode) && !st->keep_links)
			rc = add_link_as_copy(stage, sub, full, st, e);
		else if (S_ISREG(sb.st_mode))
			rc = add_file(st, sub, full, sb.st_mode, e);
		else if (S_ISLNK(sb.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(full, target, sizeof target - 1);
			if (n < 0)
				rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", full);
			else {
				target[n] = '\0';
				if (!link_target_is_safe(sub, target))
					rc = tb_fail(e, TB_R_USAGE, "%s: the link %s -> %s leaves the tree; make it relative and inside", stage, sub, target);
				else {
					if (st->m.n_links == st->cap_links) {
						st->cap_links = st->cap_links ? st->cap_links * 2 : 16;
						st->m.links = xrealloc(st->m.links, st->cap_links * sizeof *st->m.links);
					}
					st->m.links[st->m.n_links].path = xstrdup(sub);
					st->m.links[st->m.n_links].target = xstrdup(target);
					st->m.n_links++;
				}
			}
		} else {
			rc = tb_fail(e, TB_R_USAGE, "%s: %s is not a file, directory or link", stage, sub);
		}
		free(sub);
		free(full);
	}
	closedir(d);
	free(dir);
	return rc;
}

struct sink {
	int fd;
	struct sha256_stream *h;
};

static la_ssize_t sink_write(struct archive *a, void *data, const void *buf, size_t n)
{
	struct sink *s = data;
	const char *p = buf;
	for (size_t left = n; left;) {
		ssize_t w = write(s->fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			archive_set_error(a, errno, "write error");
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	sha256_add(s->h, buf, n);
	return (la_ssize_t)n;
}

static int add_entry(struct archive *a, const char *name, mode_t type, unsigned mode, uint64_t size,
		     const char *link_target, const char *file, int64_t mtime, struct tb_error *e)
{
	struct archive_entry *ent = archive_entry_new();
	archive_entry_set_pathname(ent, name);
	archive_entry_set_filetype(ent, type);
	archive_entry_set_perm(ent, mode);
	archive_entry_set_size(ent, (la_int64_t)size);
	/* reproducible: the same time, owner and group on every entry, whoever packs it when */
	archive_entry_set_mtime(ent, (time_t)mtime, 0);
	archive_entry_set_uid(ent, 0);
	archive_entry_set_gid(ent, 0);
	archive_entry_set_uname(ent, "root");
	archive_entry_set_gname(ent, "root");
	if (link_target)
		archive_entry_set_symlink(ent, link_target);
	int rc = TB_OK;
	if (archive_write_header(a, ent) != ARCHIVE_OK)
		rc = tb_fail(e, TB_R_IO_ERROR, "cannot write %s: %s", name, archive_error_string(a));
	if (!rc && file) {
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", file);
		static char buf[1 << 16];
		ssize_t n;
		while (!rc && (n = read(fd, buf, sizeof buf)) > 0)
			if (archive_write_data(a, buf, (size_t)n) != n)
				rc = tb_fail(e, TB_R_IO_ERROR, "cannot write %s: %s", name, archive_error_string(a));
		if (fd >= 0)
			close(fd);
	}
	archive_entry_free(ent);
	return rc;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int file_by_path(const void *a, const void *b)
{
	return strcmp(((const struct manifest_file *)a)->path, ((const struct manifest_file *)b)->path);
}

static int link_by_path(const void *a, const void *b)
{
	return strcmp(((const struct manifest_link *)a)->path, ((const struct manifest_link *)b)->path);
}

/* readdir's order is the file system's: sorted by path (bytes), the MANIFEST and the tarball
 * list the same tree in the same order on every machine. */
void pack_tree_sort(struct pack_tree *st)
{
	if (st->n_dirs)
		qsort(st->dirs, st->n_dirs, sizeof *st->dirs, by_string);
	if (st->m.n_files)
		qsort(st->m.files, st->m.n_files, sizeof *st->m.files, file_by_path);
	if (st->m.n_links)
		qsort(st->m.links, st->m.n_links, sizeof *st->m.links, link_by_path);
}

/* The compression filter with every setting that changes its bytes fixed: the level, one
 * thread (xz's and zstd's multi-threaded output differs from single-threaded), and for gzip no
 * time or name in its header. */
static int add_filter(struct archive *a, const char *compress)
{
	if (!strcmp(compress, "zst"))
		return archive_write_add_filter_zstd(a) != ARCHIVE_OK ||
		       archive_write_set_filter_option(a, "zstd", "compression-level", "19") != ARCHIVE_OK ||
		       archive_write_set_filter_option(a, "zstd", "threads", "1") != ARCHIVE_OK;
	if (!strcmp(compress, "xz"))
		return archive_write_add_filter_xz(a) != ARCHIVE_OK ||
		       archive_write_set_filter_option(a, "xz", "compression-level", "6") != ARCHIVE_OK ||
		       archive_write_set_filter_option(a, "xz", "threads", "1") != ARCHIVE_OK;
	const char *level = testhook_gzip_level(); /* the tests' stand-ins: 1 */
	return archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	       archive_write_set_filter_option(a, "gzip", "compression-level", level ? level : "9") != ARCHIVE_OK ||
	       archive_write_set_filter_option(a, "gzip", "timestamp", NULL) != ARCHIVE_OK;
}

void pack_tree_free(struct pack_tree *st)
{
	for (size_t i = 0; i < st->n_dirs; i++)
		free(st->dirs[i]);
	free(st->dirs);
	st->m.version = st->m.arch = NULL; /* never set: the MANIFEST text has them */
	manifest_free(&st->m);
}

int pack_write_tarball(const struct pack_tree *st, const char *stage, const char *text,
		       const char *path, const char *compress, int64_t mtime, char hex[65],
		       struct tb_error *e)
{
	/* The output folder may be writable by others: the temporary is the atomic writer's. */
	struct atomic_out out;
	int opened = atomic_out_open(&out, path, 0644, e);
	if (opened)
		return opened;
	struct sink sink = {out.fd, sha256_begin()};
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	archive_write_set_bytes_in_last_block(a, 1);
	int rc = TB_OK;
	if (add_filter(a, compress))
		rc = tb_fail(e, TB_R_FAILED, "cannot write %s: %s compression: %s", path, compress, archive_error_string(a));
	if (!rc && archive_write_open(a, &sink, NULL, sink_write, NULL) != ARCHIVE_OK)
		rc = tb_fail(e, TB_R_IO_ERROR, "cannot write %s: %s", path, archive_error_string(a));
	/* MANIFEST first, so a reader knows the release before its files. */
	if (!rc)
		rc = add_entry(a, "MANIFEST", AE_IFREG, 0644, strlen(text), NULL, NULL, mtime, e);
	if (!rc && archive_write_data(a, text, strlen(text)) != (la_ssize_t)strlen(text))
		rc = tb_fail(e, TB_R_IO_ERROR, "cannot write %s", path);
	for (size_t i = 0; !rc && i < st->n_dirs; i++) {
		char *name = xasprintf("tree/%s/", st->dirs[i]);
		rc = add_entry(a, name, AE_IFDIR, 0755, 0, NULL, NULL, mtime, e);
		free(name);
	}
	for (size_t i = 0; !rc && i < st->m.n_files; i++) {
		const struct manifest_file *f = &st->m.files[i];
		char *name = xasprintf("tree/%s", f->path);
		char *full = path_join(stage, f->path);
		rc = add_entry(a, name, AE_IFREG, f->mode, f->size, NULL, full, mtime, e);
		free(name);
		free(full);
	}
	for (size_t i = 0; !rc && i < st->m.n_links; i++) {
		char *name = xasprintf("tree/%s", st->m.links[i].path);
		rc = add_entry(a, name, AE_IFLNK, 0777, 0, st->m.links[i].target, NULL, mtime, e);
		free(name);
	}
	if (archive_write_close(a) != ARCHIVE_OK && !rc)
		rc = tb_fail(e, TB_R_IO_ERROR, "cannot write %s: %s", path, archive_error_string(a));
	archive_write_free(a);
	sha256_end(sink.h, hex);
	if (rc)
		atomic_out_abort(&out);
	else
		rc = atomic_out_commit(&out, 1, e);
	return rc;
}
