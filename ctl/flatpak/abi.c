/* A version's ELF needs against a Flatpak runtime branch's own files (flatpak/abi.h),
 * with the release checker (release/elfcheck.h) and the symbol versions of
 * release/elfversions.h. */
#include "flatpak/abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fs.h"
#include "base/ldpaths.h"
#include "common/flatpakname.h"
#include "release/elfcheck.h"
#include "release/elffacts.h"
#include "release/elfversions.h"

/* The runtime's library directories, in the order its dynamic linker searches them: the
 * folder its GL extension point sits in (lib/x86_64-linux-gnu), then lib64 and lib. */
static char **runtime_lib_dirs(const struct flatpak_runtime *r, size_t *n)
{
	char **v = xcalloc(4, sizeof *v);
	size_t k = 0;
	const char *slash = r->gl_dir ? strrchr(r->gl_dir, '/') : NULL;
	if (slash)
		v[k++] = xasprintf("%s/%.*s", r->files, (int)(slash - r->gl_dir), r->gl_dir);
	v[k++] = path_join(r->files, "lib/" FLATPAK_TRIPLET);
	v[k++] = path_join(r->files, "lib64");
	v[k++] = path_join(r->files, "lib");
	*n = k;
	return v;
}

static void free_dirs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int flatpak_runtime_glibc(const struct flatpak_runtime *r, char *out, size_t n, struct tb_error *e)
{
	out[0] = '\0';
	size_t nd;
	char **dirs = runtime_lib_dirs(r, &nd);
	char *libc = NULL;
	struct tb_error refused = {0}; /* the first libc.so.6 there that could not be read */
	for (size_t i = 0; i < nd && !libc; i++) {
		char *p = path_join(dirs[i], "libc.so.6");
		struct elf_versions v;
		struct tb_error why = {0};
		int rc = elf_read_versions_file(p, p, &v, &why);
		if (rc == TB_OK && v.is_elf) {
			libc = p;
			for (size_t k = 0; k < v.n_defs; k++) {
				const char *d = v.defs[k];
				if (strncmp(d, "GLIBC_", 6) || d[6] < '0' || d[6] > '9' || strlen(d + 6) >= n)
					continue;
				if (!out[0] || glibc_version_compare(d + 6, out) > 0)
					snprintf(out, n, "%s", d + 6);
			}
		} else {
			if (rc && path_exists(p) && !refused.code)
				refused = why;
			free(p);
		}
		elf_versions_free(&v);
	}
	free_dirs(dirs, nd);
	free(libc);
	if (!out[0] && refused.code)
		return tb_fail_again(e, &refused, "%s//%s's C library cannot be read: %s",
				     FLATPAK_RUNTIME, r->branch, refused.msg);
	if (!out[0])
		return tb_fail(e, TB_R_LIBRARY_UNRESOLVED,
			       "%s//%s has no libc.so.6 that names its glibc in %s; reinstall the runtime",
			       FLATPAK_RUNTIME, r->branch, r->files);
	return TB_OK;
}

/* Where a library a file needs is found: the release's own lib/ first (the extension's
 * lib/ is on the sandbox's search path), then GL's folder (an export links its libraries
 * into lib/), then the runtime's. */
static char *provider(const struct elf_host *h, const struct manifest *m, const char *tree,
		      const char *name)
{
	char *lib = xasprintf("%s/lib/%s", tree, name);
	if (elf_file_matches(lib, h->elf_class, h->machine))
		return lib;
	free(lib);
	if (m->has_gl) {
		lib = xasprintf("%s/%s/%s", tree, m->gl_lib_dir, name);
		if (elf_file_matches(lib, h->elf_class, h->machine))
			return lib;
		free(lib);
	}
	return elf_find_system_library(h, name);
}

/* Every version file (a path of the MANIFEST) needs is defined where its library is. */
static int check_versions(const struct elf_host *h, const struct manifest *m, const char *tree,
			  const char *rel, struct tb_error *e)
{
	char *path = path_join(tree, rel);
	struct elf_versions v;
	int rc = elf_read_versions_file(rel, path, &v, e);
	for (size_t i = 0; !rc && v.is_elf && i < v.n_needs; i++) {
		const struct elf_vneed *need = &v.needs[i];
		char *lib = provider(h, m, tree, need->file);
		if (!lib)
			continue; /* the DT_NEEDED check has said it already */
		struct elf_versions d;
		struct tb_error ignored = {0};
		if (elf_read_versions_file(lib, lib, &d, &ignored) == TB_OK && d.is_elf &&
		    !elf_versions_defines(&d, need->name))
			rc = tb_fail(e, TB_R_ABI_MISMATCH,
				     "%s needs %s of %s, which %s's %s does not define; use a release built for that runtime",
				     rel, need->name, need->file, h->who, need->file);
		elf_versions_free(&d);
		free(lib);
	}
	elf_versions_free(&v);
	free(path);
	return rc;
}

int flatpak_abi_check(const char *tree, const struct manifest *m, const char *version,
		      const struct flatpak_runtime *r, struct tb_error *e)
{
	struct elf_host h;
	struct tb_error inner = {0};
	int rc = elf_host_detect(&h, &inner);
	if (rc)
		goto out;
	ld_paths_free(h.lib_dirs, h.n_lib_dirs);
	h.lib_dirs = runtime_lib_dirs(r, &h.n_lib_dirs);
	char who[160];
	snprintf(who, sizeof who, "%s//%s", FLATPAK_RUNTIME, r->branch);
	h.who = who;
	rc = flatpak_runtime_glibc(r, h.glibc, sizeof h.glibc, &inner);
	struct elf_report rep;
	if (!rc)
		rc = elf_check_tree_on_host(tree, m, &h, &rep, &inner);
	for (size_t i = 0; !rc && i < m->n_files; i++)
		rc = check_versions(&h, m, tree, m->files[i].path, &inner);
	free_dirs(h.lib_dirs, h.n_lib_dirs);
	h.lib_dirs = NULL;
out:
	if (rc)
		/* inner's reason and so its exit code (failed when the check recorded none) */
		rc = tb_fail_again(e, &inner, "Mesa %s cannot be exported for %s//%s: %s", version,
				   FLATPAK_RUNTIME, r->branch, inner.msg);
	return rc;
}
