/* One pass over the tarball: hash it, unpack it into a staging tree, check every entry
 * against the rules of docs/design.md §4 and the MANIFEST, then move the tree into place. */
#include "release/release.h"
#include "store/layout.h"
#include "release/kind.h"
#include "store/envfiles.h"
#include "release/elfcheck.h"
#include "base/hash.h"
#include "store/manifest.h"
#include "release/inflater.h"
#include "release/sums.h"
#include "base/testhook.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/host.h"

#include <archive.h>
#include <archive_entry.h>
#include "base/lazy_archive.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MiB (1024ULL * 1024)
/* Written data goes to the disk in steps of this size while unpacking goes on, so the wait
 * for it before the tree is made visible is short. */
#define WRITEBACK_STEP (8 * MiB)

void unpack_limits_default(struct unpack_limits *l)
{
	l->max_files = 10000;
	l->max_file_bytes = 512 * MiB;
	l->max_total_bytes = 2048 * MiB;
	l->ratio_free_bytes = 64 * MiB;
	l->max_ratio = 100;
}

/* What the archive held, to be compared with the MANIFEST once it is known. */
struct seen_file {
	char *path;
	char sha256[65];
	uint64_t size;
	unsigned mode;
};

struct seen_link {
	char *path;
	char *target;
};

struct unpack {
	const struct release_request *req;
	struct unpack_limits limits;
	const char *name;          /* asset name, for messages and progress */
	int fd;                    /* the tarball */
	uint64_t tar_size;
	uint64_t read_bytes;       /* compressed bytes read so far */
	uint64_t unpacked_bytes;
	/* Reads, hashes (unless the caller hashed it already) and inflates the tarball on a
	 * second thread while this one reads the tar, hashes each file and writes it. */
	struct inflater *inflater;
	unsigned char *buf;        /* INFLATER_SLOT bytes of a file on their way to the disk */
	int staging_fd;            /* the staging directory */
	char *staging;
	char *manifest_text;
	size_t manifest_len;
	struct seen_file *files;
	size_t n_files, cap_files;
	struct seen_link *links;
	size_t n_links, cap_links;
	uint64_t entries;
};

/* The tar, inflated by the second thread from exactly the bytes it hashed. */
static ssize_t read_tar(struct archive *a, void *data, const void **out)
{
	struct unpack *u = data;
	if (tb_interrupted) {
		archive_set_error(a, EINTR, "interrupted");
		return -1;
	}
	size_t len;
	const unsigned char *block = inflater_next(u->inflater, &len, &u->read_bytes);
	if (!block) {
		archive_set_error(a, errno, "%s", inflater_error(u->inflater));
		return -1;
	}
	progress_bytes(u->req->progress, "unpack", u->name, u->read_bytes, u->tar_size, 0);
	*out = block;
	return (ssize_t)len;
}

static int refuse(struct tb_error *e, const struct unpack *u, enum tb_reason why, const char *fmt,
		  const char *what)
{
	return tb_fail(e, why, fmt, u->name, what);
}

/* Creates the parent directories of rel inside the staging tree. No symbolic links exist in
 * the staging tree while files are written (they are made last), so nothing can redirect. */
static int make_parents(struct unpack *u, const char *rel, struct tb_error *e)
{
	char *p = xstrdup(rel);
	int rc = TB_OK;
	for (char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		struct stat st;
		if (mkdirat(u->staging_fd, p, 0755) == 0)
			;
		else if (errno == ENOTDIR || (errno == EEXIST &&
					      (fstatat(u->staging_fd, p, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
					       !S_ISDIR(st.st_mode))))
			rc = tb_fail(e, TB_R_UNSAFE_ARCHIVE,
				     "%s is refused: %s is both a file or link and a directory in it",
				     u->name, p);
		else if (errno != EEXIST)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s/%s", u->staging, p);
		*s = '/';
		if (rc)
			break;
	}
	free(p);
	return rc;
}

static int write_failed(struct tb_error *e, const struct unpack *u, const char *rel)
{
	if (errno == ENOSPC || errno == EDQUOT)
		return tb_fail(e, TB_R_NO_SPACE, "the disk is full while unpacking %s (%s); free some space (partial downloads in cache/, versions not in use: `tb323fu-ctl mesa list`, then `tb323fu-ctl mesa remove VERSION`) and try again; nothing was changed",
			       u->name, rel);
	return tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s/%s", u->staging, rel);
}

static int extract_file(struct unpack *u, struct archive *a, struct archive_entry *ent,
			const char *rel, struct tb_error *e)
{
	int rc = make_parents(u, rel, e);
	if (rc)
		return rc;
	int fd = openat(u->staging_fd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: the archive holds %s twice", rel);
		if (errno == EISDIR || errno == ENOTDIR || errno == ELOOP)
			return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s is both a file and a directory in it", rel);
		return write_failed(e, u, rel);
	}
	uint64_t size = 0, written_back = 0;
	struct sha256_stream *hash = sha256_begin();
	unsigned char *data = u->buf;
	for (;;) {
		if (size - written_back >= WRITEBACK_STEP) {
			sync_file_range(fd, (off_t)written_back, (off_t)(size - written_back), SYNC_FILE_RANGE_WRITE);
			written_back = size;
		}
		ssize_t n = archive_read_data(a, data, INFLATER_SLOT);
		if (n == 0)
			break;
		if (n < 0 && tb_interrupted) {
			char *what = xasprintf("unpacking %s (at %s)", u->name, rel);
			rc = tb_check_interrupted(e, what);
			free(what);
			break;
		}
		if (n < 0) {
			rc = tb_fail(e, TB_R_DAMAGED, "%s is damaged or cut short (%s); download it again", u->name,
				     archive_error_string(a));
			break;
		}
		size += (uint64_t)n;
		u->unpacked_bytes += (uint64_t)n;
		if (size > u->limits.max_file_bytes) {
			rc = refuse(e, u, TB_R_TOO_LARGE, "%s is refused: %s is larger than the per-file limit", rel);
			break;
		}
		if (u->unpacked_bytes > u->limits.max_total_bytes) {
			rc = refuse(e, u, TB_R_TOO_LARGE, "%s is refused: it unpacks to more than the total limit (at %s)", rel);
			break;
		}
		if (u->unpacked_bytes > u->limits.ratio_free_bytes &&
		    u->unpacked_bytes / (u->read_bytes ? u->read_bytes : 1) > u->limits.max_ratio) {
			rc = refuse(e, u, TB_R_BOMB, "%s is refused: it expands more than 100 times (a decompression bomb?) at %s", rel);
			break;
		}
		sha256_add(hash, data, (size_t)n);
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(fd, data + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				rc = write_failed(e, u, rel);
				break;
			}
			off += w;
		}
		if (rc)
			break;
	}
	char hex[65];
	sha256_end(hash, hex);
	if (rc == TB_OK && size > written_back)
		sync_file_range(fd, (off_t)written_back, 0, SYNC_FILE_RANGE_WRITE);
	if (rc == TB_OK && close(fd) != 0)
		rc = write_failed(e, u, rel);
	else if (rc != TB_OK)
		close(fd);
	if (rc)
		return rc;
	if (u->n_files == u->cap_files) {
		u->cap_files = u->cap_files ? u->cap_files * 2 : 64;
		u->files = xrealloc(u->files, u->cap_files * sizeof *u->files);
	}
	struct seen_file *f = &u->files[u->n_files++];
	f->path = xstrdup(rel);
	memcpy(f->sha256, hex, sizeof f->sha256);
	f->size = size;
	f->mode = archive_entry_perm(ent) & 0777;
	return TB_OK;
}

static int read_manifest(struct unpack *u, struct archive *a, struct tb_error *e)
{
	if (u->manifest_text)
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: the archive holds %s twice", "MANIFEST");
	size_t cap = 4096;
	u->manifest_text = xmalloc(cap);
	for (;;) {
		if (u->manifest_len + 1 >= cap) {
			if (cap > MANIFEST_MAX_BYTES + 1)
				return refuse(e, u, TB_R_MANIFEST_INVALID, "%s is refused: its %s is larger than 1 MiB", "MANIFEST");
			cap *= 2;
			u->manifest_text = xrealloc(u->manifest_text, cap);
		}
		ssize_t n = archive_read_data(a, u->manifest_text + u->manifest_len, cap - u->manifest_len - 1);
		if (n < 0)
			return tb_fail(e, TB_R_DAMAGED, "%s is damaged or cut short (%s); download it again",
				       u->name, archive_error_string(a));
		if (n == 0)
			break;
		u->manifest_len += (size_t)n;
	}
	u->manifest_text[u->manifest_len] = '\0';
	return TB_OK;
}

static int take_entry(struct unpack *u, struct archive *a, struct archive_entry *ent,
		      struct tb_error *e)
{
	const char *name = archive_entry_pathname(ent);
	if (!name)
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: an entry has no %s", "name");
	if (++u->entries > u->limits.max_files + 64)
		return refuse(e, u, TB_R_TOO_LARGE, "%s is refused: it holds more than the limit of %s entries", "10,000");
	mode_t type = archive_entry_filetype(ent);
	if (archive_entry_hardlink(ent))
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s is a hard link", name);
	if (archive_entry_mode(ent) & (S_ISUID | S_ISGID | S_ISVTX))
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s has a setuid, setgid or sticky bit", name);
	if (!strcmp(name, "MANIFEST")) {
		if (type != AE_IFREG)
			return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s is not a regular file", name);
		return read_manifest(u, a, e);
	}
	if (strncmp(name, "tree/", 5) != 0)
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: unexpected entry \"%.200s\" (only MANIFEST and tree/… belong in a release)", name);
	char *rel = xstrdup(name + 5);
	size_t len = strlen(rel);
	int rc = TB_OK;
	if (type == AE_IFDIR) {
		while (len && rel[len - 1] == '/')
			rel[--len] = '\0';
		/* "tree/" itself, or a directory whose path is as safe as a file's would be */
		if (len && (!release_path_is_safe(rel) && strcmp(rel, "lib") && strcmp(rel, "share")))
			rc = refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: unsafe path \"%.200s\"", name);
		else if (len) {
			rc = make_parents(u, rel, e);
			if (!rc && mkdirat(u->staging_fd, rel, 0755) != 0 && errno != EEXIST)
				rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s/%s", u->staging, rel);
		}
	} else if (!release_path_is_safe(rel)) {
		rc = refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: unsafe path \"%.200s\"", name);
	} else if (type == AE_IFREG) {
		if (u->n_files >= u->limits.max_files)
			rc = refuse(e, u, TB_R_TOO_LARGE, "%s is refused: it holds more than the limit of %s files", "10,000");
		else
			rc = extract_file(u, a, ent, rel, e);
	} else if (type == AE_IFLNK) {
		const char *target = archive_entry_symlink(ent);
		if (!target || !link_target_is_safe(rel, target))
			rc = refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: the symbolic link %s points out of the tree", name);
		else {
			if (u->n_links == u->cap_links) {
				u->cap_links = u->cap_links ? u->cap_links * 2 : 16;
				u->links = xrealloc(u->links, u->cap_links * sizeof *u->links);
			}
			u->links[u->n_links].path = xstrdup(rel);
			u->links[u->n_links].target = xstrdup(target);
			u->n_links++;
		}
	} else {
		rc = refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s is a device, FIFO or socket", name);
	}
	free(rel);
	return rc;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct seen_file *)a)->path, ((const struct seen_file *)b)->path);
}

/* Every file and link matches the MANIFEST; nothing missing, nothing extra. */
static int match_manifest(struct unpack *u, const struct manifest *m, struct tb_error *e)
{
	for (size_t i = 0; i < u->n_files; i++) {
		const struct seen_file *f = &u->files[i];
		const struct manifest_file *mf = manifest_find_file(m, f->path);
		if (!mf)
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: %s is not listed in its MANIFEST", f->path);
		if (mf->size != f->size)
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: %s has a different size than its MANIFEST says", f->path);
		if (strcmp(mf->sha256, f->sha256))
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: %s has a different SHA-256 than its MANIFEST says", f->path);
		if (mf->mode != f->mode)
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: %s has a different mode than its MANIFEST says", f->path);
	}
	if (u->n_files != m->n_files) {
		if (u->n_files)
			qsort(u->files, u->n_files, sizeof *u->files, by_path);
		for (size_t i = 0; i < m->n_files; i++) {
			struct seen_file key = {.path = m->files[i].path};
			if (!u->n_files || !bsearch(&key, u->files, u->n_files, sizeof key, by_path))
				return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: %s is listed in its MANIFEST but missing", m->files[i].path);
		}
		return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: %s", "it holds a file twice");
	}
	for (size_t i = 0; i < u->n_links; i++) {
		const struct manifest_link *ml = manifest_find_link(m, u->links[i].path);
		if (!ml)
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: the symbolic link %s is not declared in its MANIFEST", u->links[i].path);
		if (strcmp(ml->target, u->links[i].target))
			return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: the symbolic link %s points elsewhere than its MANIFEST says", u->links[i].path);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(u->links[j].path, u->links[i].path))
				return refuse(e, u, TB_R_UNSAFE_ARCHIVE, "%s is refused: the archive holds %s twice", u->links[i].path);
	}
	if (u->n_links != m->n_links)
		for (size_t i = 0; i < m->n_links; i++) {
			size_t j;
			for (j = 0; j < u->n_links && strcmp(u->links[j].path, m->links[i].path); j++)
				;
			if (j == u->n_links)
				return refuse(e, u, TB_R_MANIFEST_MISMATCH, "%s is refused: the link %s is listed in its MANIFEST but missing", m->links[i].path);
		}
	return TB_OK;
}

static int sync_at(struct unpack *u, const char *rel, int flags, struct tb_error *e)
{
	int fd = openat(u->staging_fd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | flags);
	if (fd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s/%s", u->staging, rel);
	int rc = fsync(fd) == 0 ? TB_OK : write_failed(e, u, rel);
	close(fd);
	return rc;
}

/* The tree must be on disk before the rename makes it visible: its files (whose data mostly
 * went while unpacking), then its directories, which hold the names and links. Only this
 * tree: a sync of the whole file system would wait for every other program's writes too. */
static int sync_tree(struct unpack *u, const struct manifest *m, struct tb_error *e)
{
	int rc = TB_OK;
	for (size_t i = 0; !rc && i < m->n_files; i++)
		rc = sync_at(u, m->files[i].path, 0, e);
	/* Each directory once: the parents of every file and link. */
	char **dirs = NULL;
	size_t n_dirs = 0;
	for (size_t i = 0; i < m->n_files + m->n_links; i++) {
		char *dir = xstrdup(i < m->n_files ? m->files[i].path : m->links[i - m->n_files].path);
		for (char *slash; (slash = strrchr(dir, '/'));) {
			*slash = '\0';
			size_t j = 0;
			while (j < n_dirs && strcmp(dirs[j], dir))
				j++;
			if (j == n_dirs) {
				dirs = xrealloc(dirs, (n_dirs + 1) * sizeof *dirs);
				dirs[n_dirs++] = xstrdup(dir);
			}
		}
		free(dir);
	}
	for (size_t j = 0; j < n_dirs; j++) {
		if (!rc)
			rc = sync_at(u, dirs[j], O_DIRECTORY, e);
		free(dirs[j]);
	}
	free(dirs);
	if (!rc && fsync(u->staging_fd) != 0)
		rc = write_failed(e, u, ".");
	return rc;
}

static int finish_tree(struct unpack *u, const struct manifest *m, struct tb_error *e)
{
	for (size_t i = 0; i < m->n_files; i++)
		if (fchmodat(u->staging_fd, m->files[i].path, m->files[i].mode, 0) != 0)
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot set the mode of %s", m->files[i].path);
	for (size_t i = 0; i < m->n_links; i++) {
		int rc = make_parents(u, m->links[i].path, e);
		if (rc)
			return rc;
		if (symlinkat(m->links[i].target, u->staging_fd, m->links[i].path) != 0) {
			if (errno == EEXIST || errno == ENOTDIR)
				return tb_fail(e, TB_R_UNSAFE_ARCHIVE,
					       "%s is refused: the link %s stands where the release also has files",
					       u->name, m->links[i].path);
			return tb_fail_errno(e, TB_R_IO_ERROR, "cannot create the link %s", m->links[i].path);
		}
	}
	int mfd = openat(u->staging_fd, "MANIFEST", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (mfd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s/MANIFEST", u->staging);
	ssize_t w = write(mfd, u->manifest_text, u->manifest_len);
	if (w != (ssize_t)u->manifest_len || fsync(mfd) != 0) {
		close(mfd);
		return write_failed(e, u, "MANIFEST");
	}
	close(mfd);
	return sync_tree(u, m, e);
}

static void unpack_free(struct unpack *u)
{
	for (size_t i = 0; i < u->n_files; i++)
		free(u->files[i].path);
	for (size_t i = 0; i < u->n_links; i++) {
		free(u->links[i].path);
		free(u->links[i].target);
	}
	free(u->files);
	free(u->links);
	free(u->manifest_text);
	free(u->buf);
	free(u->staging);
	if (u->staging_fd >= 0)
		close(u->staging_fd);
	if (u->fd >= 0)
		close(u->fd);
}

static int expected_sha256(const struct release_request *r, const char *name, char hex[65],
			   struct tb_error *e)
{
	if (r->known_sha256)
		return TB_OK;
	if (!r->expect_sha256)
		return tb_fail(e, TB_R_SUMS_INVALID, "no SHA256SUMS for %s: pass --sums FILE (the release's SHA256SUMS)", name);
	snprintf(hex, 65, "%s", r->expect_sha256);
	return TB_OK;
}

static int stream_archive(struct unpack *u, struct tb_error *e)
{
	struct archive *a = archive_read_new();
	archive_read_support_format_tar(a); /* inflated already */
	int rc = TB_OK;
	char *what = xasprintf("unpacking %s", u->name);
	if (archive_read_open(a, u, NULL, read_tar, NULL) != ARCHIVE_OK) {
		if (!(rc = tb_check_interrupted(e, what)))
			rc = tb_fail(e, TB_R_UNSAFE_ARCHIVE, "%s is not a release tarball: %s", u->name, archive_error_string(a));
		goto out;
	}
	for (;;) {
		struct archive_entry *ent;
		int r = archive_read_next_header(a, &ent);
		if (r == ARCHIVE_EOF)
			break;
		if ((rc = tb_check_interrupted(e, what)))
			break;
		if (r != ARCHIVE_OK) {
			rc = tb_fail(e, TB_R_DAMAGED, "%s is damaged: %s; download it again", u->name,
				     archive_error_string(a) ? archive_error_string(a) : "unreadable entry");
			break;
		}
		rc = take_entry(u, a, ent, e);
		if (rc)
			break;
		testhook_pause("unpacking");
	}
out:
	free(what);
	archive_read_free(a);
	return rc;
}

static const struct release_kind *unpack_kind(const struct release_request *r)
{
	return r->kind ? r->kind : &release_kind_mesa;
}

/* versions/<v>, or cts/<v> for a CTS release. */
static char *kind_dir(const struct store *s, const struct release_kind *k, const char *version)
{
	return store_path(s, "%s/%s", k->store_dir, version);
}

static int check_installed(const struct store *s, const struct release_kind *k, const char *version,
			   int hash, int offline, struct tb_error *e);

/* versions/.<v>.tmp becomes versions/<v>. A whole tree already there stays (installed trees
 * never change under running programs); a damaged one is exchanged with the new tree in one
 * step and then removed. */
static int move_into_place(struct store *s, struct unpack *u, const char *version,
			   struct tb_error *e)
{
	const struct release_kind *k = unpack_kind(u->req);
	char *final = kind_dir(s, k, version);
	int rc = TB_OK;
	struct tb_error damage = {0};
	enum release_placed placed = RELEASE_NEW;
	if (!path_exists(final)) {
		if (rename(u->staging, final) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot move the new tree to %s", final);
	} else if (check_installed(s, k, version, 1, 0, &damage) == TB_OK) {
		remove_tree(u->staging);
		placed = RELEASE_KEPT;
	} else if (renameat2(AT_FDCWD, u->staging, AT_FDCWD, final, RENAME_EXCHANGE) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot replace the damaged %s", final);
	} else {
		remove_tree(u->staging); /* now the damaged tree */
		placed = RELEASE_REPAIRED;
	}
	if (!rc && u->req->placed)
		*u->req->placed = placed;
	if (!rc) {
		char *versions = store_path(s, "%s", k->store_dir);
		fsync_dir(versions);
		free(versions);
	}
	free(final);
	return rc;
}

int release_unpack(struct store *s, const struct release_request *r, char **version_out,
		   struct tb_error *e)
{
	struct unpack u = {.req = r, .fd = -1, .staging_fd = -1};
	struct manifest m = {0};
	int have_manifest = 0;
	if (r->limits)
		u.limits = *r->limits;
	else
		unpack_limits_default(&u.limits);
	u.name = r->asset_name ? r->asset_name : (strrchr(r->tarball, '/') ? strrchr(r->tarball, '/') + 1 : r->tarball);
	/* the libraries unpacking needs, loaded before anything is made: one that cannot be
	 * loaded leaves no staging tree behind */
	int rc = lazylib_load(&lazy_libarchive, e);
	if (!rc)
		rc = lazylib_load(&lazy_libcrypto, e);
	if (rc)
		return rc;
	char expect[65] = "";
	rc = expected_sha256(r, u.name, expect, e);
	if (rc)
		return rc;
	/* O_NONBLOCK: a FIFO must not hang the command while it holds the lock. */
	u.fd = open(r->tarball, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (u.fd < 0 || fstat(u.fd, &st) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", r->tarball);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		/* A device (/dev/zero) never ends: only a file on disk is a release. */
		rc = tb_fail(e, TB_R_UNSAFE_ARCHIVE,
			     "%s is not a regular file (a device, FIFO or directory); pass the release tarball itself",
			     r->tarball);
		goto out;
	}
	u.tar_size = (uint64_t)st.st_size;
	if (r->known_size && r->known_size != u.tar_size) {
		rc = tb_fail(e, TB_R_SIZE_MISMATCH, "%s has %llu bytes, the release says %llu; download it again",
			     u.name, (unsigned long long)u.tar_size, (unsigned long long)r->known_size);
		goto out;
	}
	u.inflater = inflater_start(u.fd, u.tar_size, !r->known_sha256);
	u.buf = xmalloc(INFLATER_SLOT);
	if (!u.inflater) {
		rc = tb_fail_errno(e, TB_R_FAILED, "cannot start a thread to check %s", u.name);
		goto out;
	}

	const struct release_kind *kind = unpack_kind(r);
	u.staging = store_path(s, "%s/.%s" STORE_STAGING_SUFFIX, kind->store_dir,
			       r->expect_version ? r->expect_version : "incoming");
	/* versions/ or cts/, made when missing, never through a link (docs/design.md §3) */
	char *kind_root = store_reach_dir(s, kind->store_dir, 1, e);
	rc = kind_root ? TB_OK : e->code;
	free(kind_root);
	if (rc)
		goto out;
	remove_tree(u.staging);
	if (mkdir(u.staging, 0755) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s", u.staging);
		goto out;
	}
	u.staging_fd = open(u.staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (u.staging_fd < 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s", u.staging);
		goto out;
	}

	rc = stream_archive(&u, e);
	progress_done(r->progress, "unpack", u.name);
	if (rc)
		goto out;
	/* It hashes the rest (tar padding), so the hash covers the whole file. */
	char got[65];
	if (inflater_finish(u.inflater, got) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", r->tarball);
		goto out;
	}
	if (!r->known_sha256) {
		if (strcmp(got, expect)) {
			rc = tb_fail(e, TB_R_HASH_MISMATCH, "%s does not match its SHA256SUMS (damaged or altered on the way); nothing was changed: fetch the tarball again, with the SHA256SUMS of the same release; if it fails the same way again, the release itself is wrong: choose another version and tell the release's publisher", u.name);
			goto out;
		}
	}
	if (!u.manifest_text) {
		rc = tb_fail(e, TB_R_MANIFEST_INVALID, "%s is refused: it has no MANIFEST", u.name);
		goto out;
	}
	rc = manifest_parse(u.manifest_text, u.manifest_len, &m, e);
	if (rc) {
		char why[sizeof e->msg];
		memcpy(why, e->msg, sizeof why);
		snprintf(e->msg, sizeof e->msg, "%.200s is refused: %.800s", u.name, why);
		goto out;
	}
	have_manifest = 1;
	if (m.kind != kind->manifest) {
		const char *other = m.kind == MANIFEST_CTS ? "cts install-local" : "install-local";
		rc = tb_fail(e, TB_R_MANIFEST_INVALID,
			     "%s is refused: it is a %s release, not a %s release; nothing was changed: install it with `tb323fu-ctl mesa %s FILE`",
			     u.name, m.kind == MANIFEST_CTS ? "CTS" : "Mesa", kind->what, other);
		goto out;
	}
	if (r->expect_version && strcmp(m.version, r->expect_version)) {
		rc = tb_fail(e, TB_R_TAG_MISMATCH,
			     "%s is refused: its MANIFEST says version %s, the release (its name or signed tag) is %s, so it is another release's tarball; nothing was changed: for %s fetch the tarball of release %s itself (%s %s); for %s, fetch release %s (%s %s)",
			     u.name, m.version, r->expect_version, r->expect_version, r->expect_version,
			     kind->fetch, r->expect_version, m.version, m.version, kind->fetch, m.version);
		goto out;
	}
	if (strcmp(m.arch, host_arch())) {
		rc = tb_fail(e, TB_R_ARCH_MISMATCH, "%s is refused: it is built for %s, this system is %s",
			     u.name, m.arch, host_arch());
		goto out;
	}
	rc = match_manifest(&u, &m, e);
	if (!rc)
		rc = finish_tree(&u, &m, e);
	if (rc)
		goto out;
	struct elf_report report;
	rc = elf_check_tree(u.staging, &m, &report, e);
	if (rc)
		goto out;

	testhook_pause("unpacked");
	/* Its files for the loaders first: a version is never visible without them (a CTS
	 * release has no drivers, so none). */
	if (m.kind == MANIFEST_MESA)
		rc = envfiles_write_version(s, &m, report.needs_ld_library_path || m.ld_library_path, e);
	if (!rc)
		testhook_pause("version-files");
	if (!rc)
		rc = move_into_place(s, &u, m.version, e);
	if (!rc)
		testhook_pause("placed");
	if (!rc && version_out)
		*version_out = xstrdup(m.version);
out:
	/* On a failure this stops the hashing thread before the staging tree goes. */
	inflater_free(u.inflater);
	u.inflater = NULL;
	if (rc && u.staging)
		remove_tree(u.staging);
	if (have_manifest)
		manifest_free(&m);
	unpack_free(&u);
	return rc;
}

/* Files in the tree that the MANIFEST does not list. */
static void find_extras(const char *root, const char *rel, const struct manifest *m,
			struct strbuf *bad, int *count)
{
	char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = rel[0] ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		if (!rel[0] && !strcmp(sub, "MANIFEST")) {
			free(sub);
			continue;
		}
		if (de->d_type == DT_DIR)
			find_extras(root, sub, m, bad, count);
		else if (!manifest_find_file(m, sub) && !manifest_find_link(m, sub)) {
			sb_appendf(bad, "%s%s (not in the MANIFEST)", (*count)++ ? ", " : "", sub);
		}
		free(sub);
	}
	closedir(d);
}

/* hash: re-hash every file; else only its presence, type, mode and size. offline: the
 * release source does not offer the version, so only its tarball repairs it. */
static int check_installed(const struct store *s, const struct release_kind *k, const char *version,
			   int hash, int offline, struct tb_error *e)
{
	int cts = k == &release_kind_cts;
	char *root = kind_dir(s, k, version);
	struct stat there;
	if (cts ? lstat(root, &there) != 0 : !store_has_version(s, version)) {
		free(root);
		return cts ? tb_fail(e, TB_R_NOT_INSTALLED, "CTS %s is not installed (tb323fu-ctl mesa cts list)", version)
			   : tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed (tb323fu-ctl mesa list)", version);
	}
	struct stat top;
	if (lstat(root, &top) == 0 && !S_ISDIR(top.st_mode)) {
		/* a tree elsewhere, however like ours, is not what the store unpacked and checked,
		 * and whoever may write there changes what programs load */
		char target[512] = "";
		ssize_t n = S_ISLNK(top.st_mode) ? readlink(root, target, sizeof target - 1) : -1;
		target[n > 0 ? n : 0] = '\0';
		char *repair = cts ? xasprintf("install it again (`tb323fu-ctl mesa cts update --to %s`)", version)
			       : offline ? xstrdup("install-local its tarball again (`tb323fu-ctl mesa install-local FILE`)")
				       : xasprintf("install it again (`tb323fu-ctl mesa install %s`)", version);
		int rc = tb_fail(e, TB_R_DAMAGED,
				 "%s %s is damaged: %s is %s%s%s, not the tree the store unpacked, so nothing "
				 "there was checked; move it out of the store (rm %s) and %s",
				 k->what, version, root, S_ISLNK(top.st_mode) ? "a symbolic link" : "not a folder",
				 *target ? " to " : "", target, root, repair);
		free(repair);
		free(root);
		return rc;
	}
	struct manifest m;
	int rc = manifest_load(root, &m, e);
	if (rc) {
		free(root);
		return rc == TB_EFAIL ? rc : tb_fail(e, TB_R_DAMAGED, "the MANIFEST of %s %s is damaged", k->what, version);
	}
	struct strbuf bad = {0};
	int count = 0;
	for (size_t i = 0; i < m.n_files; i++) {
		char *p = path_join(root, m.files[i].path);
		char hex[65];
		unsigned long long size;
		struct stat st;
		const char *why = NULL;
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
			why = "missing";
		else if ((st.st_mode & 07777) != m.files[i].mode)
			why = "mode changed";
		else if ((uint64_t)st.st_size != m.files[i].size)
			why = "content changed";
		else if (hash && sha256_file(p, hex, &size) != 0)
			why = "unreadable";
		else if (hash && (size != m.files[i].size || strcmp(hex, m.files[i].sha256)))
			why = "content changed";
		if (why)
			sb_appendf(&bad, "%s%s (%s)", count++ ? ", " : "", m.files[i].path, why);
		free(p);
	}
	for (size_t i = 0; i < m.n_links; i++) {
		char *p = path_join(root, m.links[i].path);
		char buf[512];
		ssize_t n = readlink(p, buf, sizeof buf - 1);
		if (n < 0 || (buf[n] = '\0', strcmp(buf, m.links[i].target)))
			sb_appendf(&bad, "%s%s (link changed)", count++ ? ", " : "", m.links[i].path);
		free(p);
	}
	find_extras(root, "", &m, &bad, &count);
	if (count && cts)
		rc = tb_fail(e, TB_R_DAMAGED, "CTS %s is damaged: %s; install it again with `tb323fu-ctl mesa cts update --to %s` (or from its tarball on disk: `tb323fu-ctl mesa cts install-local FILE`)",
			     version, bad.buf, version);
	else if (count && offline)
		rc = tb_fail(e, TB_R_DAMAGED, "Mesa %s is damaged: %s; the release list does not offer it (installed from a tarball on disk?), so repair it from its tarball with `tb323fu-ctl mesa verify --repair %s --from FILE`",
			     version, bad.buf, version);
	else if (count)
		rc = tb_fail(e, TB_R_DAMAGED, "Mesa %s is damaged: %s; repair it with `tb323fu-ctl mesa verify --repair %s` (or from its tarball on disk: `tb323fu-ctl mesa verify --repair %s --from FILE`)",
			     version, bad.buf, version, version);
	sb_free(&bad);
	manifest_free(&m);
	free(root);
	return rc;
}

int release_verify_installed(const struct store *s, const char *version, struct tb_error *e)
{
	return check_installed(s, &release_kind_mesa, version, 1, 0, e);
}

int release_verify_offline(const struct store *s, const char *version, struct tb_error *e)
{
	return check_installed(s, &release_kind_mesa, version, 1, 1, e);
}

int release_check_present(const struct store *s, const char *version, struct tb_error *e)
{
	return check_installed(s, &release_kind_mesa, version, 0, 0, e);
}

int release_verify_kind(const struct store *s, const struct release_kind *k, const char *version,
			int hash, struct tb_error *e)
{
	return check_installed(s, k, version, hash, 0, e);
}

int release_check_installed(const struct store *s, const char *version, const struct elf_host *h,
			    struct elf_report *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	char *tree = store_version_dir(s, version);
	struct manifest m;
	int rc = manifest_load(tree, &m, e);
	if (!rc) {
		rc = h ? elf_check_tree_on_host(tree, &m, h, r, e) : elf_check_tree(tree, &m, r, e);
		manifest_free(&m);
	}
	free(tree);
	return rc;
}
