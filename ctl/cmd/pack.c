/* `pack`: a release (tarball with MANIFEST and tree/, and SHA256SUMS) from a staged tree. */
#include "cli/cli.h"
#include "base/hash.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/host.h"

#include <archive.h>
#include <archive_entry.h>
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

struct staged {
	struct manifest m;
	int keep_links; /* links stay links; otherwise each is stored as a copy of its target */
	size_t cap_files, cap_links;
	char **dirs;
	size_t n_dirs, cap_dirs;
};

static int add_file(struct staged *st, const char *sub, const char *full, mode_t mode,
		    struct tb_error *e)
{
	if (st->m.n_files == st->cap_files) {
		st->cap_files = st->cap_files ? st->cap_files * 2 : 64;
		st->m.files = xrealloc(st->m.files, st->cap_files * sizeof *st->m.files);
	}
	struct manifest_file *f = &st->m.files[st->m.n_files];
	unsigned long long size;
	if (sha256_file(full, f->sha256, &size) != 0)
		return tb_fail_errno(e, TB_EFAIL, "cannot read %s", full);
	f->path = xstrdup(sub);
	f->size = size;
	f->mode = (mode & 0111) ? 0755 : 0644;
	st->m.n_files++;
	return TB_OK;
}

/* The Open Device Helper's channel takes no links (docs/design.md §13): by default a link
 * inside the tree is stored as a copy of the file it names. */
static int add_link_as_copy(const char *stage, const char *sub, const char *full,
			    struct staged *st, struct tb_error *e)
{
	char target[PATH_MAX];
	ssize_t n = readlink(full, target, sizeof target - 1);
	if (n < 0)
		return tb_fail_errno(e, TB_EFAIL, "cannot read %s", full);
	target[n] = '\0';
	struct stat sb;
	if (!link_target_is_safe(sub, target))
		return tb_fail_why(e, TB_EUSAGE, "usage", "%s: the link %s -> %s leaves the tree; make it relative and inside", stage, sub, target);
	if (stat(full, &sb) != 0 || !S_ISREG(sb.st_mode))
		return tb_fail_why(e, TB_EUSAGE, "usage", "%s: the link %s -> %s does not name a file; fix it, or keep links with --keep-links", stage, sub, target);
	return add_file(st, sub, full, sb.st_mode, e);
}

static int walk(const char *stage, const char *rel, struct staged *st, struct tb_error *e)
{
	char *dir = path_join(stage, rel);
	DIR *d = opendir(dir);
	if (!d) {
		int r = errno == ENOENT ? TB_OK : tb_fail_errno(e, TB_EFAIL, "cannot read %s", dir);
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
			rc = tb_fail_errno(e, TB_EFAIL, "cannot read %s", full);
		else if (!release_path_is_safe(sub))
			rc = tb_fail(e, TB_EUSAGE, "%s: the path %s is not allowed in a release (characters [A-Za-z0-9._@+-])", stage, sub);
		else if (S_ISDIR(sb.st_mode))
			rc = walk(stage, sub, st, e);
		else if (S_ISLNK(sb.st_mode) && !st->keep_links)
			rc = add_link_as_copy(stage, sub, full, st, e);
		else if (S_ISREG(sb.st_mode))
			rc = add_file(st, sub, full, sb.st_mode, e);
		else if (S_ISLNK(sb.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(full, target, sizeof target - 1);
			if (n < 0)
				rc = tb_fail_errno(e, TB_EFAIL, "cannot read %s", full);
			else {
				target[n] = '\0';
				if (!link_target_is_safe(sub, target))
					rc = tb_fail(e, TB_EUSAGE, "%s: the link %s -> %s leaves the tree; make it relative and inside", stage, sub, target);
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
			rc = tb_fail(e, TB_EUSAGE, "%s: %s is not a file, directory or link", stage, sub);
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
		     const char *link_target, const char *file, struct tb_error *e)
{
	struct archive_entry *ent = archive_entry_new();
	archive_entry_set_pathname(ent, name);
	archive_entry_set_filetype(ent, type);
	archive_entry_set_perm(ent, mode);
	archive_entry_set_size(ent, (la_int64_t)size);
	archive_entry_set_mtime(ent, 0, 0); /* reproducible */
	archive_entry_set_uname(ent, "root");
	archive_entry_set_gname(ent, "root");
	if (link_target)
		archive_entry_set_symlink(ent, link_target);
	int rc = TB_OK;
	if (archive_write_header(a, ent) != ARCHIVE_OK)
		rc = tb_fail(e, TB_EFAIL, "cannot write %s: %s", name, archive_error_string(a));
	if (!rc && file) {
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			rc = tb_fail_errno(e, TB_EFAIL, "cannot read %s", file);
		static char buf[1 << 16];
		ssize_t n;
		while (!rc && (n = read(fd, buf, sizeof buf)) > 0)
			if (archive_write_data(a, buf, (size_t)n) != n)
				rc = tb_fail(e, TB_EFAIL, "cannot write %s: %s", name, archive_error_string(a));
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

static int write_tarball(const struct staged *st, const char *stage, const char *text,
			 const char *path, const char *compress, char hex[65], struct tb_error *e)
{
	char *tmp = xasprintf("%s.tmp", path);
	struct sink sink = {open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), sha256_begin()};
	if (sink.fd < 0) {
		sha256_end(sink.h, hex);
		int r = tb_fail_errno(e, TB_EFAIL, "cannot write %s", tmp);
		free(tmp);
		return r;
	}
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	if (!strcmp(compress, "zst"))
		archive_write_add_filter_zstd(a);
	else if (!strcmp(compress, "xz"))
		archive_write_add_filter_xz(a);
	else
		archive_write_add_filter_gzip(a);
	archive_write_set_bytes_in_last_block(a, 1);
	int rc = TB_OK;
	if (archive_write_open(a, &sink, NULL, sink_write, NULL) != ARCHIVE_OK)
		rc = tb_fail(e, TB_EFAIL, "cannot write %s: %s", path, archive_error_string(a));
	/* MANIFEST first, so a reader knows the release before its files. */
	if (!rc)
		rc = add_entry(a, "MANIFEST", AE_IFREG, 0644, strlen(text), NULL, NULL, e);
	if (!rc && archive_write_data(a, text, strlen(text)) != (la_ssize_t)strlen(text))
		rc = tb_fail(e, TB_EFAIL, "cannot write %s", path);
	for (size_t i = 0; !rc && i < st->n_dirs; i++) {
		char *name = xasprintf("tree/%s/", st->dirs[i]);
		rc = add_entry(a, name, AE_IFDIR, 0755, 0, NULL, NULL, e);
		free(name);
	}
	for (size_t i = 0; !rc && i < st->m.n_files; i++) {
		const struct manifest_file *f = &st->m.files[i];
		char *name = xasprintf("tree/%s", f->path);
		char *full = path_join(stage, f->path);
		rc = add_entry(a, name, AE_IFREG, f->mode, f->size, NULL, full, e);
		free(name);
		free(full);
	}
	for (size_t i = 0; !rc && i < st->m.n_links; i++) {
		char *name = xasprintf("tree/%s", st->m.links[i].path);
		rc = add_entry(a, name, AE_IFLNK, 0777, 0, st->m.links[i].target, NULL, e);
		free(name);
	}
	if (archive_write_close(a) != ARCHIVE_OK && !rc)
		rc = tb_fail(e, TB_EFAIL, "cannot write %s: %s", path, archive_error_string(a));
	archive_write_free(a);
	if (!rc && fsync(sink.fd) != 0)
		rc = tb_fail_errno(e, TB_EFAIL, "cannot write %s", path);
	close(sink.fd);
	sha256_end(sink.h, hex);
	if (!rc && rename(tmp, path) != 0)
		rc = tb_fail_errno(e, TB_EFAIL, "cannot write %s", path);
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

static const char *const pack_usage =
	"usage: pack --stage DIR --version V [--arch A] [--commit C] [--base B] [--mesa-version M] "
	"[--drivers vulkan,opencl] [--vulkan-lib P] [--vulkan-api X.Y.Z] [--vulkan-driver-id N] "
	"[--opencl-lib P] [--rusticl-enable D] [--ld-library-path lib] [--min-glibc X.Y] "
	"[--compress gz|zst|xz] [--keep-links] OUTDIR";

/* Why the Open Device Helper's channel as it is would not take this release (its rules:
 * docs/design.md §13), or NULL when it would. */
static const char *helper_channel_gap(const struct staged *st, const char *version,
				      const char *compress, size_t manifest_len)
{
	if (strcmp(compress, "gz"))
		return "it reads only .tar.gz";
	if (st->m.n_links)
		return "it takes no links (pack without --keep-links)";
	if (st->m.n_files + 1 > 64)
		return "it takes at most 64 files";
	if (manifest_len > 16 * 1024)
		return "it takes a MANIFEST of at most 16 KiB";
	if (strlen(version) > 40 || strspn(version, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+-") != strlen(version))
		return "it takes versions of at most 40 letters, digits, '.', '+' and '-'";
	for (size_t i = 0; i < st->m.n_files; i++)
		if (strlen(st->m.files[i].path) > 200)
			return "it takes paths of at most 200 bytes";
	return NULL;
}

COMMAND(pack)
{
	const char *stage = NULL, *outdir = NULL, *compress = "gz";
	struct { const char *opt; const char *val; } opts[] = {
		{"--version", NULL}, {"--arch", NULL}, {"--commit", NULL}, {"--base", NULL},
		{"--mesa-version", NULL}, {"--drivers", NULL}, {"--vulkan-lib", NULL},
		{"--vulkan-api", NULL}, {"--vulkan-driver-id", NULL}, {"--opencl-lib", NULL},
		{"--rusticl-enable", NULL}, {"--ld-library-path", NULL}, {"--min-glibc", NULL},
	};
	enum { VERSION, ARCH, COMMIT, BASE, MESA, DRIVERS, VKLIB, VKAPI, VKID, CLLIB, RUSTICL, LDLP, GLIBC, NOPTS };
	struct tb_error e = {0};
	struct staged st = {0};
	for (int i = 1; i < argc; i++) {
		int taken = 0;
		if (i + 1 < argc) {
			if (!strcmp(argv[i], "--stage"))
				stage = argv[++i], taken = 1;
			else if (!strcmp(argv[i], "--compress"))
				compress = argv[++i], taken = 1;
			for (int k = 0; !taken && k < NOPTS; k++)
				if (!strcmp(argv[i], opts[k].opt))
					opts[k].val = argv[++i], taken = 1;
		}
		if (!taken && !strcmp(argv[i], "--keep-links"))
			st.keep_links = 1, taken = 1;
		if (!taken && argv[i][0] != '-' && !outdir)
			outdir = argv[i], taken = 1;
		if (!taken)
			return tb_fail(&e, TB_EUSAGE, "%s", pack_usage), outcome_fail(o, &e);
	}
	if (!stage || !outdir || !opts[VERSION].val || (strcmp(compress, "gz") && strcmp(compress, "zst") && strcmp(compress, "xz")))
		return tb_fail(&e, TB_EUSAGE, "%s", pack_usage), outcome_fail(o, &e);

	/* The MANIFEST text is built from the options, then parsed back: pack and install apply
	 * the very same rules. */
	struct strbuf head = {0};
	sb_appendf(&head, "format=1\nversion=%s\narch=%s\n", opts[VERSION].val, opts[ARCH].val ? opts[ARCH].val : host_arch());
	static const char *const keys[] = {[COMMIT] = "commit", [BASE] = "base", [MESA] = "mesa_version",
					   [DRIVERS] = "drivers", [VKLIB] = "vulkan_lib", [VKAPI] = "vulkan_api",
					   [VKID] = "vulkan_driver_id", [CLLIB] = "opencl_lib",
					   [RUSTICL] = "rusticl_enable", [LDLP] = "ld_library_path", [GLIBC] = "min_glibc"};
	/* drivers always written: the helper's channel refuses a MANIFEST without it */
	if (!opts[DRIVERS].val)
		opts[DRIVERS].val = "vulkan,opencl";
	for (int k = COMMIT; k < NOPTS; k++) {
		if (opts[k].val && strchr(opts[k].val, '\n'))
			return tb_fail(&e, TB_EUSAGE, "%s must be one line", opts[k].opt), outcome_fail(o, &e);
		if (opts[k].val)
			sb_appendf(&head, "%s=%s\n", keys[k], opts[k].val);
	}
	int rc = TB_OK;
	if (!is_directory(stage))
		rc = tb_fail(&e, TB_EUSAGE, "%s is not a directory", stage);
	if (!rc)
		rc = walk(stage, "lib", &st, &e);
	if (!rc)
		rc = walk(stage, "share", &st, &e);
	if (!rc && !st.m.n_files)
		rc = tb_fail(&e, TB_EUSAGE, "%s has no files under lib/ or share/", stage);
	if (st.n_dirs)
		qsort(st.dirs, st.n_dirs, sizeof *st.dirs, by_string);
	struct strbuf text = {0};
	sb_append(&text, head.buf);
	for (size_t i = 0; !rc && i < st.m.n_files; i++)
		sb_appendf(&text, "file %s %o %llu %s\n", st.m.files[i].sha256, st.m.files[i].mode,
			   (unsigned long long)st.m.files[i].size, st.m.files[i].path);
	for (size_t i = 0; !rc && i < st.m.n_links; i++)
		sb_appendf(&text, "link %s %s\n", st.m.links[i].path, st.m.links[i].target);
	struct manifest check;
	if (!rc) {
		rc = manifest_parse(text.buf, text.len, &check, &e);
		if (rc)
			rc = TB_EUSAGE; /* the staged tree or the options do not make a valid release */
		else
			manifest_free(&check);
	}
	char *tarball = NULL, *name = NULL;
	if (!rc)
		rc = mkdir_p(outdir, 0755, &e);
	if (!rc) {
		name = xasprintf("tb323fu-mesa-%s-%s.tar.%s", opts[VERSION].val,
				 opts[ARCH].val ? opts[ARCH].val : host_arch(), compress);
		tarball = path_join(outdir, name);
		char hex[65];
		rc = write_tarball(&st, stage, text.buf, tarball, compress, hex, &e);
		if (!rc) {
			char *sums = path_join(outdir, "SHA256SUMS");
			char *line = xasprintf("%s  %s\n", hex, name);
			rc = atomic_write_file(sums, line, strlen(line), 0644, &e);
			free(line);
			free(sums);
			outcome_str(o, "version", opts[VERSION].val);
			outcome_str(o, "file", tarball);
			outcome_str(o, "sha256", hex);
			outcome_int(o, "files", (int64_t)st.m.n_files);
			const char *gap = helper_channel_gap(&st, opts[VERSION].val, compress, text.len);
			outcome_bool(o, "helper_channel", !gap);
			outcome_say(o, "packed Mesa %s into %s (%zu files); sign it with `minisign -S -m %s/SHA256SUMS -t tag:mesa-%s`%s%s",
				    opts[VERSION].val, tarball, st.m.n_files, outdir, opts[VERSION].val,
				    gap ? "\nthe Open Device Helper's channel as it is refuses this release: " : "",
				    gap ? gap : "");
		}
	}
	if (rc)
		outcome_fail(o, &e);
	for (size_t i = 0; i < st.n_dirs; i++)
		free(st.dirs[i]);
	free(st.dirs);
	st.m.version = st.m.arch = NULL;
	manifest_free(&st.m);
	sb_free(&head);
	sb_free(&text);
	free(tarball);
	free(name);
	return rc;
}
