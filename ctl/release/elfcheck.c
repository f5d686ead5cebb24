/* ELF checks of a release tree against this host (docs/design.md §4 step 5), with libelf's gelf API:
 * machine and class, the glibc floor from the version needs, every DT_NEEDED resolved, the
 * drivers' loader entry points. */
#include "release/elfcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <gnu/libc-version.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ldpaths.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/host.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

#define VULKAN_ENTRY "vk_icdGetInstanceProcAddr"
#define OPENCL_ENTRY "clIcdGetPlatformIDsKHR"
/* Guards against hostile counts in version-need chains and dynamic sections. */
#define ELF_MAX_ENTRIES (1 << 20)
/* Release paths are at most 255 bytes, so trees are shallow; a deeper one is not a release. */
#define TREE_MAX_DEPTH 64

static void elf_init(void)
{
	static int done;
	if (!done) {
		elf_version(EV_CURRENT);
		done = 1;
	}
}

/* ---- versions and names ---- */

int glibc_version_compare(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = 0, y = 0;
		while (*a >= '0' && *a <= '9') {
			if (x < 1000000)
				x = x * 10 + (unsigned long)(*a - '0');
			a++;
		}
		while (*b >= '0' && *b <= '9') {
			if (y < 1000000)
				y = y * 10 + (unsigned long)(*b - '0');
			b++;
		}
		if (x != y)
			return x < y ? -1 : 1;
		/* Skip the separator (or anything that is not a digit). */
		while (*a && (*a < '0' || *a > '9'))
			a++;
		while (*b && (*b < '0' || *b > '9'))
			b++;
	}
	return 0;
}

const char *elf_machine_name(int machine, int elf_class, char *buf, size_t size)
{
	const char *name = NULL;
	switch (machine) {
	case EM_X86_64: name = elf_class == ELFCLASS32 ? "x32" : "x86_64"; break;
	case EM_AARCH64: name = elf_class == ELFCLASS32 ? "aarch64 (ILP32)" : "aarch64"; break;
	case EM_386: name = "i386"; break;
	case EM_ARM: name = "arm"; break;
	case EM_RISCV: name = elf_class == ELFCLASS32 ? "riscv32" : "riscv64"; break;
	case EM_PPC64: name = "ppc64"; break;
	case EM_PPC: name = "ppc"; break;
	case EM_S390: name = elf_class == ELFCLASS32 ? "s390" : "s390x"; break;
	case EM_LOONGARCH: name = "loongarch64"; break;
	case EM_MIPS: name = "mips"; break;
	}
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "machine %d", machine);
	return buf;
}

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

/* ---- reading one file ---- */

static void set_floor(char *floor, size_t floor_size, char *floor_name, size_t name_size,
		      const char *version, const char *name)
{
	if (floor[0] && glibc_version_compare(version, floor) <= 0)
		return;
	snprintf(floor, floor_size, "%s", version);
	snprintf(floor_name, name_size, "%s", name);
}

/* GLIBC_x.y[.z] names a glibc release; GLIBC_ABI_DT_RELR means the object uses packed
 * relative relocations, which the dynamic linker understands from 2.36 on. */
static void note_version_need(struct elf_facts *f, const char *name)
{
	if (strncmp(name, "GLIBC_", 6) != 0)
		return;
	const char *v = name + 6;
	if (strcmp(v, "ABI_DT_RELR") == 0) {
		set_floor(f->glibc_floor, sizeof f->glibc_floor, f->glibc_floor_name,
			  sizeof f->glibc_floor_name, "2.36", name);
		return;
	}
	if (!(v[0] >= '0' && v[0] <= '9'))
		return; /* GLIBC_PRIVATE and the like: not a release number */
	for (const char *p = v; *p; p++) {
		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			return;
	}
	if (strlen(v) >= sizeof f->glibc_floor)
		return;
	set_floor(f->glibc_floor, sizeof f->glibc_floor, f->glibc_floor_name,
		  sizeof f->glibc_floor_name, v, name);
}

static int damaged(const char *name, struct tb_error *e)
{
	int err = elf_errno();
	return tb_fail_why(e, TB_EVERIFY, "damaged",
		       "%s is a damaged ELF file (%s); rebuild the release or download it again",
		       name, err ? elf_errmsg(err) : "its section table is cut short");
}

static int read_version_needs(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_facts *f,
			      const char *name, struct tb_error *e)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return damaged(name, e);
	size_t off = 0;
	for (size_t i = 0; i < sh->sh_info && i < ELF_MAX_ENTRIES; i++) {
		GElf_Verneed vn;
		if (off > INT_MAX || !gelf_getverneed(d, (int)off, &vn))
			return damaged(name, e);
		size_t aux = off + vn.vn_aux;
		for (size_t j = 0; j < vn.vn_cnt; j++) {
			GElf_Vernaux va;
			if (aux > INT_MAX || !gelf_getvernaux(d, (int)aux, &va))
				return damaged(name, e);
			const char *vname = elf_strptr(elf, sh->sh_link, va.vna_name);
			if (vname)
				note_version_need(f, vname);
			if (va.vna_next == 0)
				break;
			aux += va.vna_next;
		}
		if (vn.vn_next == 0)
			break;
		off += vn.vn_next;
	}
	return TB_OK;
}

static int read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_facts *f,
			const char *name, struct tb_error *e)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return damaged(name, e);
	size_t entsize = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
	size_t count = entsize ? d->d_size / entsize : 0;
	for (size_t i = 0; i < count && i < ELF_MAX_ENTRIES; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn))
			return damaged(name, e);
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
			continue;
		const char *s = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (!s)
			return damaged(name, e);
		if (dyn.d_tag == DT_NEEDED) {
			f->needed = xrealloc(f->needed, (f->n_needed + 1) * sizeof *f->needed);
			f->needed[f->n_needed++] = xstrdup(s);
		} else if (dyn.d_tag == DT_RUNPATH && !f->runpath) {
			f->runpath = xstrdup(s);
		} else if (dyn.d_tag == DT_RPATH && !f->rpath) {
			f->rpath = xstrdup(s);
		}
	}
	return TB_OK;
}

static int read_dynamic_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
				struct elf_facts *f, const char *name, struct tb_error *e)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return damaged(name, e);
	size_t entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	size_t count = entsize ? d->d_size / entsize : 0;
	for (size_t i = 1; i < count && i < ELF_MAX_ENTRIES * 8; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			return damaged(name, e);
		if (sym.st_shndx == SHN_UNDEF || sym.st_name == 0)
			continue;
		int bind = GELF_ST_BIND(sym.st_info);
		if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
			continue;
		const char *s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!s)
			continue;
		if (strcmp(s, VULKAN_ENTRY) == 0)
			f->exports_vulkan_entry = 1;
		else if (strcmp(s, OPENCL_ENTRY) == 0)
			f->exports_opencl_entry = 1;
	}
	return TB_OK;
}

static int has_dynamic_segment(Elf *elf)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (size_t i = 0; i < n && i < ELF_MAX_ENTRIES; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_DYNAMIC)
			return 1;
	}
	return 0;
}

static int read_facts(Elf *elf, const char *name, struct elf_facts *f, struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	if (elf_kind(elf) != ELF_K_ELF)
		return TB_OK;
	f->is_elf = 1;
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return damaged(name, e);
	f->elf_class = gelf_getclass(elf);
	f->machine = eh.e_machine;
	f->type = eh.e_type;

	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return damaged(name, e);
	int has_dynamic = 0;
	size_t seen = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		seen++;
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return damaged(name, e);
		int rc = TB_OK;
		if (sh.sh_type == SHT_GNU_verneed) {
			rc = read_version_needs(elf, scn, &sh, f, name, e);
		} else if (sh.sh_type == SHT_DYNAMIC && !has_dynamic) {
			has_dynamic = 1;
			rc = read_dynamic(elf, scn, &sh, f, name, e);
		} else if (sh.sh_type == SHT_DYNSYM) {
			rc = read_dynamic_symbols(elf, scn, &sh, f, name, e);
		}
		if (rc)
			return rc;
	}
	/* libelf shows no sections at all when the table lies beyond the end of the file. */
	size_t shnum;
	if (elf_getshdrnum(elf, &shnum) != 0 || (shnum > 1 && seen < shnum - 1) ||
	    (eh.e_shoff != 0 && eh.e_shnum > 1 && seen == 0))
		return damaged(name, e);
	if (!has_dynamic && has_dynamic_segment(elf))
		return tb_fail_why(e, TB_EVERIFY, "damaged",
			       "%s has a dynamic segment but no section table, so the libraries it "
			       "needs cannot be checked; rebuild it without removing its section headers",
			       name);
	return TB_OK;
}

int elf_read_facts_memory(const char *name, const void *data, size_t len, struct elf_facts *f,
			  struct tb_error *e)
{
	elf_init();
	memset(f, 0, sizeof *f);
	/* libelf may convert in place: give it a private copy. */
	char *copy = xmalloc(len);
	memcpy(copy, data, len);
	Elf *elf = elf_memory(copy, len);
	int rc = TB_OK;
	if (elf) {
		rc = read_facts(elf, name, f, e);
		elf_end(elf);
	}
	free(copy);
	return rc;
}

int elf_read_facts_file(const char *name, const char *path, struct elf_facts *f,
			struct tb_error *e)
{
	elf_init();
	memset(f, 0, sizeof *f);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tb_fail_errno(e, TB_EVERIFY, "cannot read %s", name);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int rc = TB_OK;
	if (elf) {
		rc = read_facts(elf, name, f, e);
		elf_end(elf);
	}
	close(fd);
	return rc;
}

void elf_facts_free(struct elf_facts *f)
{
	for (size_t i = 0; i < f->n_needed; i++)
		free(f->needed[i]);
	free(f->needed);
	free(f->runpath);
	free(f->rpath);
	memset(f, 0, sizeof *f);
}

/* A file the dynamic linker would take for a library of this host: ELF, same class and
 * machine. Only the header is read. */
static int is_loadable_here(const char *path, const struct elf_host *h)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int ok = 0;
	GElf_Ehdr eh;
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh))
		ok = gelf_getclass(elf) == h->elf_class && eh.e_machine == h->machine;
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

char *elf_find_system_library(const struct elf_host *h, const char *name)
{
	elf_init();
	for (size_t i = 0; i < h->n_lib_dirs; i++) {
		char *candidate = path_join(h->lib_dirs[i], name);
		if (is_loadable_here(candidate, h))
			return candidate;
		free(candidate);
	}
	return NULL;
}

/* ---- the host ---- */

int elf_host_detect(struct elf_host *h, struct tb_error *e)
{
	elf_init();
	memset(h, 0, sizeof *h);
	snprintf(h->arch, sizeof h->arch, "%s", host_arch());
	if (!machine_of_arch(h->arch, &h->elf_class, &h->machine)) {
		/* An architecture the table does not know: our own executable is native. */
		struct elf_facts self;
		struct tb_error ignored = {0};
		if (elf_read_facts_file("/proc/self/exe", "/proc/self/exe", &self, &ignored) ||
		    !self.is_elf) {
			elf_facts_free(&self);
			return tb_fail(e, TB_EFAIL,
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

enum found_where { FOUND_NOWHERE, FOUND_VIA_SEARCH_PATH, FOUND_SYSTEM, FOUND_RELEASE_LIB };

struct tree_check {
	const char *root;      /* normalised absolute path of the tree */
	const struct manifest *m;
	const struct elf_host *h;
	struct elf_report *r;
	char *lib_dir;         /* root/lib */
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
			found = is_loadable_here(candidate, c->h);
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
			rc = tb_fail_why(e, TB_EVERIFY, "runpath-unsafe",
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
				       const char *origin, const char *needed)
{
	if (strchr(needed, '/')) {
		/* A path, not a name: the dynamic linker opens exactly that. */
		return needed[0] == '/' && is_loadable_here(needed, c->h) ? FOUND_SYSTEM
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
	char *candidate = path_join(c->lib_dir, needed);
	int found = is_loadable_here(candidate, c->h);
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
		rc = tb_fail_why(e, TB_EVERIFY, "arch-mismatch",
			     "%s is built for %s, this system is %s; install the release built for %s",
			     rel, elf_machine_name(f.machine, f.elf_class, theirs, sizeof theirs),
			     h->arch, h->arch);
		goto out;
	}
	if (f.elf_class != h->elf_class) {
		rc = tb_fail_why(e, TB_EVERIFY, "arch-mismatch",
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
			rc = tb_fail_why(e, TB_EVERIFY, "glibc-too-old",
				     "%s needs glibc %s (%s), this system has %s; use a release built "
				     "for this system's glibc",
				     rel, f.glibc_floor, f.glibc_floor_name, h->glibc);
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
			switch (resolve_needed(c, &f, origin, f.needed[i])) {
			case FOUND_VIA_SEARCH_PATH:
			case FOUND_SYSTEM:
				break;
			case FOUND_RELEASE_LIB:
				c->r->needs_ld_library_path = 1;
				break;
			case FOUND_NOWHERE:
				rc = tb_fail_why(e, TB_EVERIFY, "library-unresolved",
					     "%s needs %s, which this system does not have; install it "
					     "or use a release that ships it in lib/",
					     rel, f.needed[i]);
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
		return tb_fail_why(e, TB_EVERIFY, "unsafe-archive", "%s is nested too deeply for a release", rel_dir);
	struct dirent **names;
	int n = scandir(dir, &names, not_dot_entries, alphasort);
	if (n < 0)
		return tb_fail_errno(e, TB_EVERIFY, "cannot list %s", rel_dir[0] ? rel_dir : dir);
	int rc = TB_OK;
	for (int i = 0; i < n; i++) {
		if (!rc) {
			char *path = path_join(dir, names[i]->d_name);
			char *rel = rel_dir[0] ? xasprintf("%s/%s", rel_dir, names[i]->d_name)
					       : xstrdup(names[i]->d_name);
			struct stat st;
			if (lstat(path, &st) != 0)
				rc = tb_fail_errno(e, TB_EVERIFY, "cannot inspect %s", rel);
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

static int check_driver(const struct tree_check *c, const char *lib, const char *api,
			const char *entry, int vulkan, struct tb_error *e)
{
	if (!lib || !*lib)
		return tb_fail_why(e, TB_EVERIFY, "driver-entry-missing", "the MANIFEST names no %s driver library", api);
	char *path = path_join(c->root, lib);
	char *real = realpath(path, NULL);
	int rc = TB_OK;
	struct stat st;
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = tb_fail_why(e, TB_EVERIFY, "driver-entry-missing",
			     "the %s driver %s named in the MANIFEST is missing from the release; "
			     "fix the release's MANIFEST or its files",
			     api, lib);
	} else if (!path_is_inside(real, c->root)) {
		rc = tb_fail_why(e, TB_EVERIFY, "driver-entry-missing", "the %s driver %s points outside the release", api, lib);
	} else {
		struct elf_facts f;
		rc = elf_read_facts_file(lib, real, &f, e);
		if (!rc && !f.is_elf)
			rc = tb_fail_why(e, TB_EVERIFY, "driver-entry-missing",
				     "the %s driver %s is not an ELF library; fix the release", api,
				     lib);
		else if (!rc && !(vulkan ? f.exports_vulkan_entry : f.exports_opencl_entry))
			rc = tb_fail_why(e, TB_EVERIFY, "driver-entry-missing",
				     "the %s driver %s does not export %s, so the %s loader cannot use "
				     "it; fix the release",
				     api, lib, entry, api);
		elf_facts_free(&f);
	}
	free(real);
	free(path);
	return rc;
}

int elf_check_tree_on_host(const char *root, const struct manifest *m, const struct elf_host *h,
			   struct elf_report *r, struct tb_error *e)
{
	elf_init();
	memset(r, 0, sizeof *r);
	char *real_root = realpath(root, NULL);
	if (!real_root)
		return tb_fail_errno(e, TB_EVERIFY, "cannot open the release tree %s", root);
	struct tree_check c = {
		.root = real_root,
		.m = m,
		.h = h,
		.r = r,
		.lib_dir = path_join(real_root, "lib"),
	};
	int rc = walk(&c, real_root, "", 0, e);
	if (!rc && m && m->has_vulkan)
		rc = check_driver(&c, m->vulkan_lib, "Vulkan", VULKAN_ENTRY, 1, e);
	if (!rc && m && m->has_opencl)
		rc = check_driver(&c, m->opencl_lib, "OpenCL", OPENCL_ENTRY, 0, e);
	free(c.lib_dir);
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
