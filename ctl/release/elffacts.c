/* What an ELF file says about itself, read with libelf's gelf API: class, machine and type,
 * DT_NEEDED, RUNPATH/RPATH, the glibc floor from the version needs, the loader entry points.
 * Every count in the file is hostile and capped. */
#include "release/elffacts.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/alloc.h"

/* Guards against hostile counts in version-need chains and dynamic sections. */
#define ELF_MAX_ENTRIES (1 << 20)

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

int elf_damaged(const char *name, struct tb_error *e)
{
	int err = elf_errno();
	return tb_fail(e, TB_R_DAMAGED,
		       "%s is a damaged ELF file (%s); rebuild the release or download it again",
		       name, err ? elf_errmsg(err) : "its section table is cut short");
}

static int one_section_bounded(const GElf_Shdr *sh, uint64_t size, const char *name,
			       struct tb_error *e)
{
	if (sh->sh_type == SHT_NOBITS)
		return TB_OK;
	if (sh->sh_size > ELF_SECTION_MAX || sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
		return tb_fail(e, TB_R_DAMAGED,
			       "%s is a damaged ELF file (a section claims %llu bytes at offset %llu of a "
			       "file of %llu, and at most %llu MiB within the file are read); replace it "
			       "with the file its release, package or Flatpak runtime ships",
			       name, (unsigned long long)sh->sh_size, (unsigned long long)sh->sh_offset,
			       (unsigned long long)size, (unsigned long long)(ELF_SECTION_MAX >> 20));
	return TB_OK;
}

int elf_section_bounded(Elf *elf, const GElf_Shdr *sh, uint64_t size, const char *name,
			struct tb_error *e)
{
	int rc = one_section_bounded(sh, size, name, e);
	if (rc)
		return rc;
	GElf_Shdr strings;
	Elf_Scn *scn = elf_getscn(elf, sh->sh_link);
	if (!scn || !gelf_getshdr(scn, &strings))
		return elf_damaged(name, e);
	return one_section_bounded(&strings, size, name, e);
}

int elf_file_open(const char *name, const char *path, struct elf_file *f, struct tb_error *e)
{
	elf_init();
	f->elf = NULL;
	f->size = 0;
	/* O_NONBLOCK: a FIFO's open must not wait for a writer; it is refused below. */
	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0)
		return tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read %s", name);
	struct stat st;
	if (fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(f->fd);
		f->fd = -1;
		return tb_fail(e, TB_R_DAMAGED,
			       "%s is not a regular file (a FIFO, a device or a folder stands where a "
			       "library belongs); replace it with the file its release, package or Flatpak "
			       "runtime ships",
			       name);
	}
	f->size = (uint64_t)st.st_size;
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	return TB_OK;
}

void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

int elf_each_version_need(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t size,
			  elf_version_need_fn fn, void *ctx, const char *name, struct tb_error *e)
{
	int bounded = elf_section_bounded(elf, sh, size, name, e);
	if (bounded)
		return bounded;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return elf_damaged(name, e);
	size_t off = 0;
	for (size_t i = 0; i < sh->sh_info && i < ELF_MAX_ENTRIES; i++) {
		GElf_Verneed vn;
		if (off > INT_MAX || !gelf_getverneed(d, (int)off, &vn))
			return elf_damaged(name, e);
		const char *file = elf_strptr(elf, sh->sh_link, vn.vn_file);
		size_t aux = off + vn.vn_aux;
		for (size_t j = 0; j < vn.vn_cnt; j++) {
			GElf_Vernaux va;
			if (aux > INT_MAX || !gelf_getvernaux(d, (int)aux, &va))
				return elf_damaged(name, e);
			const char *vname = elf_strptr(elf, sh->sh_link, va.vna_name);
			if (vname)
				fn(ctx, file, vname);
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

static void note_need(void *ctx, const char *file, const char *version)
{
	(void)file;
	note_version_need(ctx, version);
}

static int read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t size, struct elf_facts *f,
			const char *name, struct tb_error *e)
{
	int bounded = elf_section_bounded(elf, sh, size, name, e);
	if (bounded)
		return bounded;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return elf_damaged(name, e);
	size_t entsize = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
	size_t count = entsize ? d->d_size / entsize : 0;
	for (size_t i = 0; i < count && i < ELF_MAX_ENTRIES; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn))
			return elf_damaged(name, e);
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
			continue;
		const char *s = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (!s)
			return elf_damaged(name, e);
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

static int read_dynamic_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t size,
				struct elf_facts *f, const char *name, struct tb_error *e)
{
	int bounded = elf_section_bounded(elf, sh, size, name, e);
	if (bounded)
		return bounded;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return elf_damaged(name, e);
	size_t entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	size_t count = entsize ? d->d_size / entsize : 0;
	for (size_t i = 1; i < count && i < ELF_MAX_ENTRIES * 8; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			return elf_damaged(name, e);
		if (sym.st_shndx == SHN_UNDEF || sym.st_name == 0)
			continue;
		int bind = GELF_ST_BIND(sym.st_info);
		if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
			continue;
		const char *s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!s)
			continue;
		if (strcmp(s, ELF_VULKAN_ENTRY) == 0)
			f->exports_vulkan_entry = 1;
		else if (strcmp(s, ELF_OPENCL_ENTRY) == 0)
			f->exports_opencl_entry = 1;
		else if (strcmp(s, ELF_EGL_VENDOR_ENTRY) == 0)
			f->exports_egl_vendor_entry = 1;
		else if (strcmp(s, ELF_GLX_VENDOR_ENTRY) == 0)
			f->exports_glx_vendor_entry = 1;
		else if (strcmp(s, ELF_GBM_ENTRY) == 0)
			f->exports_gbm_entry = 1;
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

static int read_facts(Elf *elf, uint64_t size, const char *name, struct elf_facts *f,
		      struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	if (elf_kind(elf) != ELF_K_ELF)
		return TB_OK;
	f->is_elf = 1;
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return elf_damaged(name, e);
	f->elf_class = gelf_getclass(elf);
	f->machine = eh.e_machine;
	f->type = eh.e_type;

	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return elf_damaged(name, e);
	int has_dynamic = 0;
	size_t seen = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		seen++;
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return elf_damaged(name, e);
		int rc = TB_OK;
		if (sh.sh_type == SHT_GNU_verneed) {
			rc = elf_each_version_need(elf, scn, &sh, size, note_need, f, name, e);
		} else if (sh.sh_type == SHT_DYNAMIC && !has_dynamic) {
			has_dynamic = 1;
			rc = read_dynamic(elf, scn, &sh, size, f, name, e);
		} else if (sh.sh_type == SHT_DYNSYM) {
			rc = read_dynamic_symbols(elf, scn, &sh, size, f, name, e);
		}
		if (rc)
			return rc;
	}
	/* libelf shows no sections at all when the table lies beyond the end of the file. */
	size_t shnum;
	if (elf_getshdrnum(elf, &shnum) != 0 || (shnum > 1 && seen < shnum - 1) ||
	    (eh.e_shoff != 0 && eh.e_shnum > 1 && seen == 0))
		return elf_damaged(name, e);
	if (!has_dynamic && has_dynamic_segment(elf))
		return tb_fail(e, TB_R_DAMAGED,
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
		rc = read_facts(elf, len, name, f, e);
		elf_end(elf);
	}
	free(copy);
	return rc;
}

int elf_read_facts_file(const char *name, const char *path, struct elf_facts *f,
			struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	struct elf_file ef;
	int rc = elf_file_open(name, path, &ef, e);
	if (rc)
		return rc;
	if (ef.elf)
		rc = read_facts(ef.elf, ef.size, name, f, e);
	elf_file_close(&ef);
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

int elf_file_matches(const char *path, int elf_class, int machine)
{
	struct elf_file ef;
	struct tb_error ignored = {0};
	if (elf_file_open(path, path, &ef, &ignored))
		return 0;
	int ok = 0;
	GElf_Ehdr eh;
	if (ef.elf && elf_kind(ef.elf) == ELF_K_ELF && gelf_getehdr(ef.elf, &eh))
		ok = gelf_getclass(ef.elf) == elf_class && eh.e_machine == machine;
	elf_file_close(&ef);
	return ok;
}
