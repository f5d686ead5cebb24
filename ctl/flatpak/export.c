/* Writing, listing and removing a version's Flatpak GL extension (flatpak/export.h). */
#include "flatpak/export.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "common/flatpakname.h"
#include "common/ident.h"
#include "flatpak/abi.h"
#include "flatpak/runtime.h"
#include "store/envfiles.h"
#include "store/manifest.h"

#define MARK_GROUP "TB323FU Mesa Export"
#define NAME_MAX_LEN 128

/* --- the marker --- */

int flatpak_marker_read(const char *text, size_t len, struct flatpak_export *x)
{
	if (len > FLATPAK_MARKER_MAX || memchr(text, '\0', len))
		return 0;
	GKeyFile *kf = g_key_file_new();
	int ours = 0;
	if (g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, NULL)) {
		gchar *mark = g_key_file_get_string(kf, MARK_GROUP, "Mark", NULL);
		gchar *v = g_key_file_get_string(kf, MARK_GROUP, "Version", NULL);
		gchar *b = g_key_file_get_string(kf, MARK_GROUP, "Branch", NULL);
		gchar *st = g_key_file_get_string(kf, MARK_GROUP, "Store", NULL);
		ours = mark && !strcmp(mark, TB_IDENT_MARK) && v && b && st;
		if (ours) {
			x->version = xstrdup(v);
			x->branch = xstrdup(b);
			x->store = xstrdup(st);
		}
		g_free(mark);
		g_free(v);
		g_free(b);
		g_free(st);
	}
	g_key_file_free(kf);
	return ours;
}

static char *marker_text(const char *version, const char *branch, const char *store)
{
	GKeyFile *kf = g_key_file_new();
	g_key_file_set_comment(kf, NULL, NULL,
			       " written by tb323fu-ctl mesa flatpak export; removed by tb323fu-ctl mesa flatpak unexport",
			       NULL);
	g_key_file_set_string(kf, MARK_GROUP, "Mark", TB_IDENT_MARK);
	g_key_file_set_string(kf, MARK_GROUP, "Version", version);
	g_key_file_set_string(kf, MARK_GROUP, "Branch", branch);
	g_key_file_set_string(kf, MARK_GROUP, "Store", store);
	gchar *data = g_key_file_to_data(kf, NULL, NULL);
	char *out = xstrdup(data);
	g_free(data);
	g_key_file_free(kf);
	return out;
}

/* 1 when dir is a folder (not a link) whose marker is ours; fills x. */
static int ours_at(const char *dir, struct flatpak_export *x)
{
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	char *p = path_join(dir, FLATPAK_MARKER_FILE);
	size_t len = 0;
	char *text = read_small_file_nofollow(p, FLATPAK_MARKER_MAX, &len);
	int ours = text && flatpak_marker_read(text, len, x);
	free(text);
	free(p);
	return ours;
}

/* --- writing one --- */

static int copy_file(const char *from, const char *to, mode_t mode, struct tb_error *e)
{
	int in = open(from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", from);
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
	int rc = out < 0 ? tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", to) : TB_OK;
	char buf[65536];
	while (!rc) {
		ssize_t k = read(in, buf, sizeof buf);
		if (k < 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", from);
		if (k <= 0)
			break;
		for (ssize_t w = 0; !rc && w < k;) {
			ssize_t d = write(out, buf + w, (size_t)(k - w));
			if (d < 0)
				rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", to);
			else
				w += d;
		}
	}
	if (out >= 0 && fchmod(out, mode) != 0 && !rc)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", to);
	if (out >= 0 && close(out) != 0 && !rc)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", to);
	close(in);
	return rc;
}

static int parent_dirs(const char *path, struct tb_error *e)
{
	char *d = xstrdup(path);
	char *slash = strrchr(d, '/');
	int rc = TB_OK;
	if (slash) {
		*slash = '\0';
		rc = mkdir_p(d, 0755, e);
	}
	free(d);
	return rc;
}

/* The version's files into tmp: a hard link into the store's tree where the file system
 * and the kernel's link rules allow it, else a copy; the MANIFEST's links as links. */
static int put_files(const char *tree, const struct manifest *m, const char *tmp,
		     struct flatpak_export *x, struct tb_error *e)
{
	int rc = TB_OK;
	for (size_t i = 0; !rc && i < m->n_files; i++) {
		const struct manifest_file *f = &m->files[i];
		char *from = path_join(tree, f->path), *to = path_join(tmp, f->path);
		rc = parent_dirs(to, e);
		if (!rc && link(from, to) == 0) {
			x->linked++;
		} else if (!rc && !(rc = copy_file(from, to, f->mode, e))) {
			x->copied++;
		}
		x->bytes += f->size;
		free(from);
		free(to);
	}
	for (size_t i = 0; !rc && i < m->n_links; i++) {
		char *to = path_join(tmp, m->links[i].path);
		rc = parent_dirs(to, e);
		if (!rc && symlink(m->links[i].target, to) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", to);
		free(to);
	}
	return rc;
}

static int write_text(const char *path, const char *text, struct tb_error *e)
{
	int rc = parent_dirs(path, e);
	return rc ? rc : atomic_write_file(path, text, strlen(text), 0644, e);
}

/* The loaders' files, naming the libraries where the sandbox mounts the extension:
 * /usr/<the runtime's GL directory>/<name>/lib/…. */
static int put_loader_files(const struct manifest *m, const struct flatpak_runtime *r,
			    const char *name, const char *tmp, struct tb_error *e)
{
	char *mount = xasprintf("/usr/%s/%s", r->gl_dir, name);
	int rc = TB_OK;
	if (m->has_vulkan) {
		char *lib = path_join(mount, m->vulkan_lib);
		char *json = envfiles_icd_json(lib, m->vulkan_api);
		char *p = xasprintf("%s/" FLATPAK_VULKAN_DIR "/%s.json", tmp, name);
		rc = write_text(p, json, e);
		free(p);
		free(json);
		free(lib);
	}
	if (!rc && m->has_opencl) {
		char *line = xasprintf("%s/%s\n", mount, m->opencl_lib);
		char *p = xasprintf("%s/" FLATPAK_OPENCL_DIR "/%s.icd", tmp, name);
		rc = write_text(p, line, e);
		free(p);
		free(line);
	}
	free(mount);
	return rc;
}

/* 1 when the tree (its MANIFEST) has path, or something below it. */
static int tree_has(const struct manifest *m, const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < m->n_files + m->n_links; i++) {
		const char *p = i < m->n_files ? m->files[i].path : m->links[i - m->n_files].path;
		if (!strncmp(p, path, n) && (p[n] == '\0' || p[n] == '/'))
			return 1;
	}
	return 0;
}

/* A link lib/<base> in tmp to the release's path to (a path under lib/), unless the tree has
 * lib/<base> already. */
static int lib_link(const struct manifest *m, const char *tmp, const char *base, const char *to,
		    struct tb_error *e)
{
	char *at = xasprintf("lib/%s", base);
	int rc = TB_OK;
	if (!strncmp(to, "lib/", 4) && !tree_has(m, at)) { /* the MANIFEST's GL keys name paths under lib/ */
		char *link_path = path_join(tmp, at);
		if (symlink(to + strlen("lib/"), link_path) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", link_path);
		free(link_path);
	}
	free(at);
	return rc;
}

/* A release's GL where a GL extension has it, so that the runtime's loaders take it as they
 * take its `default` extension's: glvnd's EGL vendor file in glvnd/egl_vendor.d naming the
 * vendor library where the sandbox mounts it; in lib/ (on the sandbox's library path), a
 * link to each library of GL's folder, so GBM, glapi or libgallium and the GLX vendor are
 * found by their sonames; lib/dri and lib/gbm, links to the DRI drivers' and GBM's backends'
 * folders. flatpak merges glvnd/egl_vendor.d, lib/dri and lib/gbm of the active extensions,
 * the first extension's file of a name winning, and an unmanaged extension (ours) comes
 * before an installed one (the runtime's `default`): the version's files of those names are
 * the ones the sandbox's loaders see. */
static int put_gl_files(const struct manifest *m, const struct flatpak_runtime *r,
			const char *name, const char *tmp, struct tb_error *e)
{
	char *lib = xasprintf("/usr/%s/%s/%s", r->gl_dir, name, m->egl_vendor_lib);
	char *json = envfiles_egl_vendor_json(lib);
	char *p = xasprintf("%s/" FLATPAK_EGL_VENDOR_DIR "/" FLATPAK_EGL_VENDOR_FILE, tmp);
	int rc = write_text(p, json, e);
	free(p);
	free(json);
	free(lib);
	char *lib_dir = path_join(tmp, "lib");
	if (!rc)
		rc = mkdir_p(lib_dir, 0755, e);
	free(lib_dir);
	size_t n = strlen(m->gl_lib_dir);
	for (size_t i = 0; !rc && i < m->n_files + m->n_links; i++) {
		const char *f = i < m->n_files ? m->files[i].path : m->links[i - m->n_files].path;
		if (!strncmp(f, m->gl_lib_dir, n) && f[n] == '/' && !strchr(f + n + 1, '/') &&
		    !strncmp(f + n + 1, "lib", 3))
			rc = lib_link(m, tmp, f + n + 1, f, e);
	}
	if (!rc)
		rc = lib_link(m, tmp, FLATPAK_DRI_DIR + strlen("lib/"), m->gl_drivers_dir, e);
	if (!rc && m->gbm_backends_dir)
		rc = lib_link(m, tmp, FLATPAK_GBM_DIR + strlen("lib/"), m->gbm_backends_dir, e);
	return rc;
}

static void export_clear(struct flatpak_export *x)
{
	free(x->path);
	free(x->name);
	free(x->version);
	free(x->branch);
	free(x->store);
}

int flatpak_version_exported(const char *store, const char *version)
{
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(store, 0, &n);
	int found = 0;
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(v[i].version, version);
	flatpak_exports_free(v, n);
	return found;
}

void flatpak_exports_free(struct flatpak_export *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		export_clear(&v[i]);
	free(v);
}

/* The folder of name's extension for runtime r in inst. */
static char *export_dir(const char *inst, const char *name, const struct flatpak_runtime *r)
{
	return xasprintf("%s/extension/%s.%s/%s/%s", inst, FLATPAK_GL_POINT, name, r->arch,
			 r->gl_version);
}

static int write_one(const struct store *s, const char *version, const struct manifest *m,
		     const char *name, const struct flatpak_runtime *r, const char *inst,
		     struct flatpak_export *x, struct tb_error *e)
{
	char *tree = store_version_dir(s, version);
	x->path = export_dir(inst, name, r);
	x->name = xstrdup(name);
	x->version = xstrdup(version);
	x->branch = xstrdup(r->branch);
	x->store = xstrdup(s->root);
	char *tmp = xasprintf("%s.tmp.%ld", x->path, (long)getpid());
	char *slash = strrchr(tmp, '/');
	/* .<version>.tmp.<pid>: a name flatpak never looks up */
	char *hidden = xasprintf("%.*s/.%s", (int)(slash - tmp), tmp, slash + 1);
	free(tmp);
	tmp = hidden;
	struct flatpak_export old = {0};
	/* extension/, the extension's folder and the architecture's, each made or opened
	 * without following a link planted there */
	char *levels = xasprintf("extension/%s.%s/%s", FLATPAK_GL_POINT, name, r->arch);
	int rc = mkdir_below(inst, levels, 0755, e);
	free(levels);
	int exists = !rc && (access(x->path, F_OK) == 0 || errno != ENOENT);
	if (rc)
		;
	else if (exists && !ours_at(x->path, &old))
		rc = tb_fail(e, TB_R_NOT_OURS,
			     "%s is there and was not written by this tool; nothing was changed there (move it away to export)",
			     x->path);
	else if (exists && strcmp(old.store, s->root))
		rc = tb_fail(e, TB_R_NOT_OURS,
			     "%s is the export of the store %s; nothing was changed there (tb323fu-ctl --store %s mesa flatpak unexport %s removes it)",
			     x->path, old.store, old.store, version);
	export_clear(&old);
	if (!rc) {
		remove_tree(tmp); /* a killed export's, or a link planted there: never followed */
		if (mkdir(tmp, 0755) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create %s", tmp);
	}
	if (!rc)
		rc = put_files(tree, m, tmp, x, e);
	if (!rc)
		rc = put_loader_files(m, r, name, tmp, e);
	if (!rc && m->has_gl)
		rc = put_gl_files(m, r, name, tmp, e);
	x->gl = m->has_gl;
	char *mark = rc ? NULL : marker_text(version, r->branch, s->root);
	if (!rc) {
		char *p = path_join(tmp, FLATPAK_MARKER_FILE);
		rc = write_text(p, mark, e);
		free(p);
	}
	free(mark);
	if (!rc && exists) {
		/* a running application keeps the files it opened: the two folders trade places */
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, x->path, RENAME_EXCHANGE) != 0)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot replace %s", x->path);
	} else if (!rc && rename(tmp, x->path) != 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", x->path);
	}
	remove_tree(tmp);
	free(tmp);
	free(tree);
	return rc;
}

static int find_branch(const struct flatpak_runtime *v, size_t n, const char *branch)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].branch, branch))
			return (int)i;
	return -1;
}

static int no_runtime(const struct flatpak_runtime *v, size_t n, const char *branch,
		      struct tb_error *e)
{
	if (!n)
		return tb_fail(e, TB_R_NO_RUNTIME,
			       "no branch of %s is installed for %s, so no Flatpak application could use an export; install one (flatpak install flathub %s//24.08)",
			       FLATPAK_RUNTIME, flatpak_arch(), FLATPAK_RUNTIME);
	struct strbuf have = {0};
	for (size_t i = 0; i < n; i++)
		sb_appendf(&have, "%s%s", i ? ", " : "", v[i].branch);
	int rc = tb_fail(e, TB_R_NO_RUNTIME, "%s//%s is not installed (installed: %s); nothing was exported",
			 FLATPAK_RUNTIME, branch, have.buf);
	sb_free(&have);
	return rc;
}

int flatpak_export(const struct store *s, const char *version, const char *branch, int user,
		   struct flatpak_export **done, size_t *n, struct tb_error *e)
{
	*done = NULL;
	*n = 0;
	char name[NAME_MAX_LEN];
	if (!flatpak_export_name(version, name, sizeof name))
		return tb_fail(e, TB_R_USAGE,
			       "Mesa %s cannot be named as a Flatpak extension (a '+' in its version); nothing was exported",
			       version);
	struct manifest m;
	int rc = store_load_manifest(s, version, &m, e);
	if (rc)
		return rc;
	size_t nr;
	struct flatpak_runtime *rts = flatpak_runtimes_find(&nr);
	int only = branch ? find_branch(rts, nr, branch) : -1;
	if (!nr || (branch && only < 0))
		rc = no_runtime(rts, nr, branch, e);
	char *tree = store_version_dir(s, version);
	/* every branch passes before anything is written */
	for (size_t i = 0; !rc && i < nr; i++)
		if (only < 0 || (size_t)only == i)
			rc = flatpak_abi_check(tree, &m, version, &rts[i], e);
	char *inst = rc ? NULL : flatpak_installation_dir(user);
	if (!rc && !inst)
		rc = tb_fail(e, TB_R_FAILED, "there is no home directory for the user's Flatpak installation (set HOME)");
	if (!rc && !user && access(inst, W_OK) != 0 && errno != ENOENT)
		rc = tb_fail(e, TB_R_PERMISSION,
			     "the system's Flatpak installation %s needs root to write: run it with sudo, or export into your own with --user; nothing was exported",
			     inst);
	for (size_t i = 0; !rc && i < nr; i++) {
		if (only >= 0 && (size_t)only != i)
			continue;
		*done = xrealloc(*done, (*n + 1) * sizeof **done);
		struct flatpak_export *x = &(*done)[(*n)++];
		memset(x, 0, sizeof *x);
		x->user = user;
		rc = write_one(s, version, &m, name, &rts[i], inst, x, e);
	}
	free(inst);
	free(tree);
	flatpak_runtimes_free(rts, nr);
	manifest_free(&m);
	return rc;
}

/* --- finding and removing ours --- */

static void list_in(int user, const char *store, struct flatpak_export **v, size_t *n)
{
	char *inst = flatpak_installation_dir(user);
	if (!inst)
		return;
	char *ext = path_join(inst, "extension");
	const char *prefix = FLATPAK_GL_POINT "." FLATPAK_NAME_PREFIX;
	struct dirent **tops = NULL;
	int k = scandir(ext, &tops, NULL, alphasort);
	for (int i = 0; i < k; i++) {
		const char *t = tops[i]->d_name;
		if (!strncmp(t, prefix, strlen(prefix))) {
			char *archdir = xasprintf("%s/%s/%s", ext, t, flatpak_arch());
			struct dirent **vers = NULL;
			int kv = scandir(archdir, &vers, NULL, alphasort);
			for (int j = 0; j < kv; j++) {
				struct flatpak_export x = {0};
				char *dir = path_join(archdir, vers[j]->d_name);
				if (vers[j]->d_name[0] != '.' && ours_at(dir, &x) &&
				    (!store || !strcmp(store, x.store))) {
					x.path = dir;
					dir = NULL;
					x.name = xstrdup(t + strlen(FLATPAK_GL_POINT "."));
					x.user = user;
					*v = xrealloc(*v, (*n + 1) * sizeof **v);
					(*v)[(*n)++] = x;
				} else {
					export_clear(&x);
				}
				free(dir);
				free(vers[j]);
			}
			free(vers);
			free(archdir);
		}
		free(tops[i]);
	}
	free(tops);
	free(ext);
	free(inst);
}

struct flatpak_export *flatpak_exports_list(const char *store, int user_only, size_t *n)
{
	struct flatpak_export *v = NULL;
	*n = 0;
	list_in(1, store, &v, n);
	if (!user_only)
		list_in(0, store, &v, n);
	return v;
}

/* Removes one export and the folders above it that it leaves empty. */
static int remove_one(const struct flatpak_export *x, struct tb_error *e)
{
	char *doomed = xasprintf("%s.removing.%ld", x->path, (long)getpid());
	char *slash = strrchr(doomed, '/');
	char *hidden = xasprintf("%.*s/.%s", (int)(slash - doomed), doomed, slash + 1);
	free(doomed);
	int rc = TB_OK;
	if (rename(x->path, hidden) != 0)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", x->path);
	else
		remove_tree(hidden);
	free(hidden);
	char *up = xstrdup(x->path);
	for (int i = 0; i < 2; i++) {
		char *s = strrchr(up, '/');
		if (!s)
			break;
		*s = '\0';
		if (rmdir(up) != 0)
			break;
	}
	free(up);
	return rc;
}

int flatpak_unexport(const struct store *s, const char *version, const char *branch, int user,
		     size_t *removed, struct tb_error *e)
{
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, user, &n);
	int rc = TB_OK;
	*removed = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].user != user || (version && strcmp(version, v[i].version)) ||
		    (branch && strcmp(branch, v[i].branch)))
			continue;
		rc = remove_one(&v[i], e);
		if (!rc)
			(*removed)++;
	}
	flatpak_exports_free(v, n);
	return rc;
}

static void export_named(const struct flatpak_export *x, struct strbuf *names)
{
	sb_appendf(names, "%s%s.%s//%s (%s)", names->len ? ", " : "", FLATPAK_GL_POINT, x->name, x->branch,
		   x->user ? "user" : "system");
}

void flatpak_unexport_gone(const struct store *s, const char *version, struct strbuf *removed)
{
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, 0, &n);
	for (size_t i = 0; i < n; i++) {
		struct tb_error ignored = {0};
		if (!strcmp(v[i].version, version) && remove_one(&v[i], &ignored) == TB_OK && removed)
			export_named(&v[i], removed);
	}
	flatpak_exports_free(v, n);
}

void flatpak_exports_named(const struct store *s, const char *version, struct strbuf *names)
{
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, 0, &n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].version, version))
			export_named(&v[i], names);
	flatpak_exports_free(v, n);
}
