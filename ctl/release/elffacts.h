/* Reading what one ELF file says about itself (docs/design.md §4 step 5), with libelf; the
 * checks against a host are elfcheck.h's. Open for doctor, the unit tests and the fuzz target. */
#ifndef TB_ELFFACTS_H
#define TB_ELFFACTS_H

#include <elf.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

/* The loader entry points a Vulkan and an OpenCL driver export. */
#define ELF_VULKAN_ENTRY "vk_icdGetInstanceProcAddr"
#define ELF_OPENCL_ENTRY "clIcdGetPlatformIDsKHR"
/* And what glvnd's EGL and GLX dispatchers call in a vendor library, and GBM's own entry. */
#define ELF_EGL_VENDOR_ENTRY "__egl_Main"
#define ELF_GLX_VENDOR_ENTRY "__glx_Main"
#define ELF_GBM_ENTRY "gbm_create_device"

/* What one file says about itself. */
struct elf_facts {
	int is_elf;           /* 0: not an ELF file, nothing else is filled */
	int elf_class;        /* ELFCLASS32 / ELFCLASS64 */
	int machine;          /* EM_* */
	int type;             /* ET_* */
	char **needed;        /* DT_NEEDED names, in order */
	size_t n_needed;
	char *runpath;        /* DT_RUNPATH or NULL */
	char *rpath;          /* DT_RPATH or NULL */
	char glibc_floor[32]; /* highest glibc the version needs ask for ("" when none) */
	char glibc_floor_name[64]; /* the version name behind it, e.g. GLIBC_2.34 */
	int exports_vulkan_entry; /* vk_icdGetInstanceProcAddr defined in the dynamic symbols */
	int exports_opencl_entry; /* clIcdGetPlatformIDsKHR likewise */
	int exports_egl_vendor_entry, exports_glx_vendor_entry, exports_gbm_entry; /* likewise */
};
/* Reads one file (name is used in sentences). TB_OK with is_elf 0 for a file that is not
 * ELF; TB_EVERIFY for an ELF file libelf cannot read. */
int elf_read_facts_file(const char *name, const char *path, struct elf_facts *f,
			struct tb_error *e);
int elf_read_facts_memory(const char *name, const void *data, size_t len, struct elf_facts *f,
			  struct tb_error *e);
void elf_facts_free(struct elf_facts *f);

/* Compares dot-separated numeric versions ("2.34" < "2.41" < "2.41.1"); <0, 0, >0. */
int glibc_version_compare(const char *a, const char *b);
/* "aarch64", "x86_64", "i386", …, or "machine N". */
const char *elf_machine_name(int machine, int elf_class, char *buf, size_t size);

/* A file the dynamic linker would take for a library of this class and machine: a regular
 * ELF file whose header says so. Only the header is read. */
int elf_file_matches(const char *path, int elf_class, int machine);

/* No section a reader looks at (versions, dynamic entries, symbols, their strings) is bigger
 * than this in a real library (libLLVM's .dynstr is a few MiB). */
#define ELF_SECTION_MAX ((uint64_t)64 << 20)

/* A file handed to libelf: a regular file only, opened without waiting (O_NONBLOCK, then
 * fstat: a FIFO or a device is refused, never waited on or read), and its size, against
 * which every section is bounded before libelf reads it (a sparse file whose section claims
 * gigabytes would otherwise be read whole into memory). elf is NULL for a file libelf does
 * not take (not ELF). */
struct elf_file {
	int fd;
	Elf *elf;
	uint64_t size;
};
/* TB_OK, or TB_EVERIFY ("damaged") naming name when it cannot be read or is not a regular file. */
int elf_file_open(const char *name, const char *path, struct elf_file *f, struct tb_error *e);
void elf_file_close(struct elf_file *f);
/* TB_OK when the section's bytes and those of its string table (sh_link) lie within a file
 * of size bytes and are at most ELF_SECTION_MAX each: checked before elf_getdata and
 * elf_strptr read them. TB_EVERIFY ("damaged") naming name otherwise. */
int elf_section_bounded(Elf *elf, const GElf_Shdr *sh, uint64_t size, const char *name,
			struct tb_error *e);

/* The readers' shared steps over libelf's handles (elfversions.c reads with them too): a
 * damaged file's refusal (TB_EVERIFY, "damaged", naming name), and each version an
 * SHT_GNU_verneed section needs (size: the file's, which bounds the sections read), fn(ctx, library it is needed of or NULL, version name), the
 * chains' counts and offsets checked. */
int elf_damaged(const char *name, struct tb_error *e);
typedef void (*elf_version_need_fn)(void *ctx, const char *file, const char *version);
int elf_each_version_need(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t size,
			  elf_version_need_fn fn, void *ctx, const char *name, struct tb_error *e);

#endif
