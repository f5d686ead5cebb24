/* ELF checks of a release tree against this host (docs/design.md §4 step 5), on the facts
 * release/elffacts.c reads: machine and class, the glibc floor, every DT_NEEDED resolved, the
 * drivers' loader entry points. */
#include "release/elfcheck.h"

#include <dirent.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ldpaths.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/host.h"

/* Release paths are at most 255 bytes, so trees are shallow; a deeper one is not a release. */
#define TREE_MAX_DEPTH 64

/* ---- the host ---- */

/* The ELF class and machine of the programs this kernel runs natively, from uname -m. */
static int machine_of_arch(const char *arch, int *elf_class, int *machine)
{
	static const struct {
		const char *arch;
		int elf_class, machine;
	} table[] = {
		{"x86_64", ELFCLASS64, EM_X86_64},
		{"aarch64", ELFCLASS64, EM_AARCH64},
		{"arm64", ELFCLASS64, EM_AARCH64},
		{"i386", ELFCLASS32, EM_386},
		{"i486", ELFCLASS32, EM_386},
		{"i586", ELFCLASS32, EM_386},
		{"i686", ELFCLASS32, EM_386},
		{"armv7l", ELFCLASS32, EM_ARM},
		{"armv8l", ELFCLASS32, EM_ARM},
		{"riscv64", ELFCLASS64, EM_RISCV},
		{"ppc64le", ELFCLASS64, EM_PPC64},
		{"ppc64", ELFCLASS64, EM_PPC64},
		{"s390x", ELFCLASS64, EM_S390},
		{"loongarch64", ELFCLASS64, EM_LOONGARCH},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(arch, table[i].arch) == 0) {
			*elf_class = table[i].elf_class;
			*machine = table[i].machine;
			return 1;
		}
	}
	return 0;
}

char *elf_find_system_library(const struct elf_host *h, const char *name)
{
	for (size_t i = 0; i < h->n_lib_dirs; i++) {
		char *candidate = path_join(h->lib_dirs[i], name);
		if (elf_file_matches(candidate, h->elf_class, h->machine))
			return candidate;
		free(candidate);
	}
	return NULL;
}

int elf_host_detect(struct elf_host *h, struct tb_error *e)
{
	memset(h, 0, sizeof *h);
	snprintf(h->arch, sizeof h->arch, "%s", host_arch());
	if (!machine_of_arch(h->arch, &h->elf_class, &h->machine)) {
		/* An architecture the table does not know: our own executable is native. */
		struct elf_facts self;
		struct tb_error ignored = {0};
		if (elf_read_facts_file("/proc/self/exe", "/proc/self/exe", &self, &ignored) ||
		    !self.is_elf) {
			elf_facts_free(&self);
			return tb_fail(e, TB_R_FAILED,
				       "cannot tell which ELF machine this %s system runs", h->arch);
		}
		h->elf_class = self.elf_class;
		h->machine = self.machine;
		elf_facts_free(&self);
	}
	snprintf(h->glibc, sizeof h->glibc, "%s", gnu_get_libc_version());
	h->lib_dirs = ld_system_dirs(NULL, h->arch, &h->n_lib_dirs);
	return TB_OK;
}

void elf_host_free(struct elf_host *h)
{
	ld_paths_free(h->lib_dirs, h->n_lib_dirs);
	h->lib_dirs = NULL;
	h->n_lib_dirs = 0;
}

/* ---- resolving what a file needs ---- */

/* Lexically normalises an absolute path (no symbolic links followed): "." and ".." and
 * repeated slashes go. */
static char *normalize_path(const char *path)
{
	size_t len = strlen(path);
	char *out = xmalloc(len + 2);
	size_t o = 0;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else {
			out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p += n;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

static int path_is_inside(const char *path, const char *root)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

enum found_where { FOUND_NOWHERE, FOUND_VIA_SEARCH_PATH, FOUND_SYSTEM, FOUND_RELEASE_LIB, FOUND_GL_LIB };

struct tree_check {
	const char *root;      /* normalised absolute path of the tree */
	const struct manifest *m;
	const struct elf_host *h;
	struct elf_report *r;
	char *lib_dir;         /* root/lib */
	char *gl_dir;          /* root/<gl_lib_dir> of a release with GL, else NULL */
};

/* Searches the RUNPATH (or, without one, RPATH) of a file: $ORIGIN entries inside the
 * release, absolute entries on the system. */
static int found_in_search_path(const struct tree_check *c, const char *search_path,
				const char *origin, const char *needed)
{
	if (!search_path)
		return 0;
	char *copy = xstrdup(search_path);
	int found = 0;
	char *save = NULL;
	for (char *entry = strtok_r(copy, ":", &save); entry && !found;
	     entry = strtok_r(NULL, ":", &save)) {
		char *dir = NULL;
		int in_release = 0;
		if (strncmp(entry, "$ORIGIN", 7) == 0 && (entry[7] == '/' || entry[7] == '\0')) {
			dir = xasprintf("%s%s", origin, entry + 7);
			in_release = 1;
		} else if (strncmp(entry, "${ORIGIN}", 9) == 0 &&
			   (entry[9] == '/' || entry[9] == '\0')) {
			dir = xasprintf("%s%s", origin, entry + 9);
			in_release = 1;
		} else if (entry[0] == '/' && !strchr(entry, '$')) {
			dir = xstrdup(entry);
		} else {
			continue; /* relative to the working directory, or $LIB/$PLATFORM: unreliable */
		}
		char *norm = normalize_path(dir);
		free(dir);
		/* $ORIGIN/../.. must not reach out of the release into the store or beyond. */
		if (!in_release || path_is_inside(norm, c->root)) {
			char *candidate = path_join(norm, needed);
			found = elf_file_matches(candidate, c->h->elf_class, c->h->machine);
			free(candidate);
		}
		free(norm);
	}
	free(copy);
	return found;
}

/* The directory an $ORIGIN entry names, or NULL when the entry does not start with $ORIGIN
 * (or ${ORIGIN}) followed by '/' or its end, or uses another substitution. */
static char *origin_entry_dir(const char *entry, const char *origin)
{
	const char *rest = NULL;
	if (!strncmp(entry, "$ORIGIN", 7) && (entry[7] == '/' || !entry[7]))
		rest = entry + 7;
	else if (!strncmp(entry, "${ORIGIN}", 9) && (entry[9] == '/' || !entry[9]))
		rest = entry + 9;
	if (!rest || strchr(rest, '$'))
		return NULL;
	char *dir = xasprintf("%s%s", origin, rest);
	char *norm = normalize_path(dir);
	free(dir);
	return norm;
}

static int is_system_dir(const struct elf_host *h, const char *entry)
{
	if (entry[0] != '/' || strchr(entry, '$'))
		return 0;
	char *norm = normalize_path(entry);
	int found = 0;
	for (size_t i = 0; i < h->n_lib_dirs && !found; i++) {
		char *d = normalize_path(h->lib_dirs[i]);
		found = !strcmp(d, norm);
		free(d);
	}
	free(norm);
	return found;
}

/* Every entry of a RUNPATH or RPATH is $ORIGIN-based and stays inside the release, or is one
 * of the system's library directories. Anything else (an empty entry or a relative one, which
 * the dynamic linker takes from the working directory; an absolute directory elsewhere;
 * $LIB or $PLATFORM) lets whoever can write there put code into every program that loads
 * the release. */
static int check_search_path(const struct tree_check *c, const char *rel, const char *kind,
			     const char *search_path, const char *origin, struct tb_error *e)
{
	if (!search_path)
		return TB_OK;
	int rc = TB_OK;
	const char *p = search_path;
	for (;;) {
		size_t n = strcspn(p, ":");
		char *entry = strndup(p, n);
		char *dir = origin_entry_dir(entry, origin);
		int ok = dir ? path_is_inside(dir, c->root) : *entry && is_system_dir(c->h, entry);
		if (!ok)
			rc = tb_fail(e, TB_R_RUNPATH_UNSAFE,
				     "%s has the %s entry \"%.200s\", which reaches outside the release; only $ORIGIN-based directories inside it and the system's library directories may be searched; fix the release's link flags",
				     rel, kind, entry);
		free(dir);
		free(entry);
		if (rc || !p[n])
			break;
		p += n + 1;
	}
	return rc;
}

static enum found_where resolve_needed(const struct tree_check *c, const struct elf_facts *f,
				       const char *rel, const char *origin, const char *needed)
{
	if (strchr(needed, '/')) {
		/* A path, not a name: the dynamic linker opens exactly that. */
		return needed[0] == '/' && elf_file_matches(needed, c->h->elf_class, c->h->machine) ? FOUND_SYSTEM
									  : FOUND_NOWHERE;
	}
	/* The dynamic linker ignores DT_RPATH when DT_RUNPATH is present. */
	if (found_in_search_path(c, f->runpath ? f->runpath : f->rpath, origin, needed))
		return FOUND_VIA_SEARCH_PATH;
	char *system_copy = elf_find_system_library(c->h, needed);
	int in_system = system_copy != NULL;
	free(system_copy);
	if (in_system)
		return FOUND_SYSTEM;
	/* GL's own libraries are found by name in its folder, which the GL variables put on
	 * LD_LIBRARY_PATH (docs/design.md §4): for the files under that folder. */
	size_t gl_len = c->gl_dir ? strlen(c->m->gl_lib_dir) : 0;
	if (gl_len && !strncmp(rel, c->m->gl_lib_dir, gl_len) && rel[gl_len] == '/') {
		char *in_gl = path_join(c->gl_dir, needed);
		int there = elf_file_matches(in_gl, c->h->elf_class, c->h->machine);
		free(in_gl);
		if (there)
			return FOUND_GL_LIB;
	}
	char *candidate = path_join(c->lib_dir, needed);
	int found = elf_file_matches(candidate, c->h->elf_class, c->h->machine);
	free(candidate);
	return found ? FOUND_RELEASE_LIB : FOUND_NOWHERE;
}

/* ---- the checks of one file ---- */

static int check_file(struct tree_check *c, const char *rel, const char *path,
		      struct tb_error *e)
{
	struct elf_facts f;
	int rc = elf_read_facts_file(rel, path, &f, e);
	if (rc || !f.is_elf) {
		elf_facts_free(&f);
		return rc;
	}
	const struct elf_host *h = c->h;
	char mine[48], theirs[48];
	if (f.machine != h->machine) {
		rc = tb_fail(e, TB_R_ARCH_MISMATCH,
			     "%s is built for %s, this system is %s; install the release built for %s",
			     rel, elf_machine_name(f.machine, f.elf_class, theirs, sizeof theirs),
			     h->arch, h->arch);
		goto out;
	}
	if (f.elf_class != h->elf_class) {
		rc = tb_fail(e, TB_R_ARCH_MISMATCH,
			     "%s is a %d-bit %s file, this system runs %d-bit %s programs; install the "
			     "release built for %s",
			     rel, f.elf_class == ELFCLASS32 ? 32 : 64,
			     elf_machine_name(f.machine, f.elf_class, theirs, sizeof theirs),
			     h->elf_class == ELFCLASS32 ? 32 : 64,
			     elf_machine_name(h->machine, h->elf_class, mine, sizeof mine), h->arch);
		goto out;
	}
	if (f.glibc_floor[0]) {
		if (h->glibc[0] && glibc_version_compare(f.glibc_floor, h->glibc) > 0) {
			rc = tb_fail(e, TB_R_GLIBC_TOO_OLD,
				     "%s needs glibc %s (%s), %s has %s; use a release built "
				     "for %s glibc",
				     rel, f.glibc_floor, f.glibc_floor_name, h->who ? h->who : "this system",
				     h->glibc, h->who ? "that" : "this system's");
			goto out;
		}
		if (!c->r->glibc_floor[0] ||
		    glibc_version_compare(f.glibc_floor, c->r->glibc_floor) > 0)
			snprintf(c->r->glibc_floor, sizeof c->r->glibc_floor, "%s", f.glibc_floor);
	}
	if (f.n_needed || f.runpath || f.rpath) {
		char *origin_raw = xstrdup(path);
		char *slash = strrchr(origin_raw, '/');
		if (slash)
			*slash = '\0';
		char *origin = normalize_path(origin_raw);
		free(origin_raw);
		rc = check_search_path(c, rel, "RUNPATH", f.runpath, origin, e);
		if (!rc)
			rc = check_search_path(c, rel, "RPATH", f.rpath, origin, e);
		for (size_t i = 0; i < f.n_needed && !rc; i++) {
			switch (resolve_needed(c, &f, rel, origin, f.needed[i])) {
			case FOUND_VIA_SEARCH_PATH:
			case FOUND_SYSTEM:
			case FOUND_GL_LIB:
				break;
			case FOUND_RELEASE_LIB:
				c->r->needs_ld_library_path = 1;
				break;
			case FOUND_NOWHERE:
				rc = tb_fail(e, TB_R_LIBRARY_UNRESOLVED,
					     "%s needs %s, which %s does not have; install it "
					     "or use a release that ships it in lib/",
					     rel, f.needed[i], h->who ? h->who : "this system");
				break;
			}
		}
		free(origin);
	}
out:
	elf_facts_free(&f);
	return rc;
}

static int not_dot_entries(const struct dirent *d)
{
	return strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0;
}

/* Every regular file under dir, in name order (so the first problem named is stable);
 * symbolic links are not followed: their targets are files of the tree themselves. */
static int walk(struct tree_check *c, const char *dir, const char *rel_dir, int depth,
		struct tb_error *e)
{
	if (depth > TREE_MAX_DEPTH)
		return tb_fail(e, TB_R_UNSAFE_ARCHIVE, "%s is nested too deeply for a release", rel_dir);
	struct dirent **names;
	int n = scandir(dir, &names, not_dot_entries, alphasort);
	if (n < 0)
		return tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot list %s", rel_dir[0] ? rel_dir : dir);
	int rc = TB_OK;
	for (int i = 0; i < n; i++) {
		if (!rc) {
			char *path = path_join(dir, names[i]->d_name);
			char *rel = rel_dir[0] ? xasprintf("%s/%s", rel_dir, names[i]->d_name)
					       : xstrdup(names[i]->d_name);
			struct stat st;
			if (lstat(path, &st) != 0)
				rc = tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot inspect %s", rel);
			else if (S_ISDIR(st.st_mode))
				rc = walk(c, path, rel, depth + 1, e);
			else if (S_ISREG(st.st_mode))
				rc = check_file(c, rel, path, e);
			free(path);
			free(rel);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The loaders' libraries a MANIFEST names, each with the entry its loader calls. */
enum driver_kind { DRIVER_VULKAN, DRIVER_OPENCL, DRIVER_EGL, DRIVER_GLX, DRIVER_GBM };
static const struct {
	const char *api, *entry, *loader;
} driver_kinds[] = {
	[DRIVER_VULKAN] = {"Vulkan driver", ELF_VULKAN_ENTRY, "the Vulkan loader"},
	[DRIVER_OPENCL] = {"OpenCL driver", ELF_OPENCL_ENTRY, "the OpenCL loader"},
	[DRIVER_EGL] = {"EGL vendor library", ELF_EGL_VENDOR_ENTRY, "glvnd's libEGL"},
	[DRIVER_GLX] = {"GLX vendor library", ELF_GLX_VENDOR_ENTRY, "glvnd's libGLX"},
	[DRIVER_GBM] = {"GBM library", ELF_GBM_ENTRY, "a GBM program"},
};

static int exports_entry(const struct elf_facts *f, enum driver_kind kind)
{
	switch (kind) {
	case DRIVER_VULKAN: return f->exports_vulkan_entry;
	case DRIVER_OPENCL: return f->exports_opencl_entry;
	case DRIVER_EGL: return f->exports_egl_vendor_entry;
	case DRIVER_GLX: return f->exports_glx_vendor_entry;
	case DRIVER_GBM: return f->exports_gbm_entry;
	}
	return 0;
}

static int check_driver(const struct tree_check *c, const char *lib, enum driver_kind kind,
			struct tb_error *e)
{
	const char *api = driver_kinds[kind].api, *entry = driver_kinds[kind].entry;
	if (!lib || !*lib)
		return tb_fail(e, TB_R_DRIVER_ENTRY_MISSING, "the MANIFEST names no %s", api);
	char *path = path_join(c->root, lib);
	char *real = realpath(path, NULL);
	int rc = TB_OK;
	struct stat st;
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = tb_fail(e, TB_R_DRIVER_ENTRY_MISSING,
			     "the %s %s named in the MANIFEST is missing from the release; "
			     "fix the release's MANIFEST or its files",
			     api, lib);
	} else if (!path_is_inside(real, c->root)) {
		rc = tb_fail(e, TB_R_DRIVER_ENTRY_MISSING, "the %s %s points outside the release", api, lib);
	} else {
		struct elf_facts f;
		rc = elf_read_facts_file(lib, real, &f, e);
		if (!rc && !f.is_elf)
			rc = tb_fail(e, TB_R_DRIVER_ENTRY_MISSING,
				     "the %s %s is not an ELF library; fix the release", api,
				     lib);
		else if (!rc && !exports_entry(&f, kind))
			rc = tb_fail(e, TB_R_DRIVER_ENTRY_MISSING,
				     "the %s %s does not export %s, so %s cannot use "
				     "it; fix the release",
				     api, lib, entry, driver_kinds[kind].loader);
		elf_facts_free(&f);
	}
	free(real);
	free(path);
	return rc;
}

int elf_check_tree_on_host(const char *root, const struct manifest *m, const struct elf_host *h,
			   struct elf_report *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	char *real_root = realpath(root, NULL);
	if (!real_root)
		return tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot open the release tree %s", root);
	struct tree_check c = {
		.root = real_root,
		.m = m,
		.h = h,
		.r = r,
		.lib_dir = path_join(real_root, "lib"),
		.gl_dir = m && m->has_gl ? path_join(real_root, m->gl_lib_dir) : NULL,
	};
	int rc = walk(&c, real_root, "", 0, e);
	if (!rc && m && m->has_vulkan)
		rc = check_driver(&c, m->vulkan_lib, DRIVER_VULKAN, e);
	if (!rc && m && m->has_opencl)
		rc = check_driver(&c, m->opencl_lib, DRIVER_OPENCL, e);
	if (!rc && m && m->has_gl)
		rc = check_driver(&c, m->egl_vendor_lib, DRIVER_EGL, e);
	if (!rc && m && m->has_gl)
		rc = check_driver(&c, m->gbm_lib, DRIVER_GBM, e);
	if (!rc && m && m->has_gl && m->glx_vendor_lib)
		rc = check_driver(&c, m->glx_vendor_lib, DRIVER_GLX, e);
	free(c.lib_dir);
	free(c.gl_dir);
	free(real_root);
	return rc;
}

int elf_check_tree(const char *root, const struct manifest *m, struct elf_report *r,
		   struct tb_error *e)
{
	struct elf_host h;
	memset(r, 0, sizeof *r);
	int rc = elf_host_detect(&h, e);
	if (rc)
		return rc;
	rc = elf_check_tree_on_host(root, m, &h, r, e);
	elf_host_free(&h);
	return rc;
}
