/* The symbol versions an ELF file defines and the ones it needs from each library
 * (SHT_GNU_verdef, SHT_GNU_verneed), with libelf: what a library's ABI offers and what a
 * driver asks of it (GLIBC_2.34 of libc.so.6, GLIBCXX_3.4.32 of libstdc++.so.6). Every
 * count in the file is hostile and capped. */
#ifndef TB_ELFVERSIONS_H
#define TB_ELFVERSIONS_H

#include <stddef.h>

#include "base/error.h"

/* One version needed: the library (its DT_NEEDED name) and the version's name. */
struct elf_vneed {
	char *file, *name;
};

struct elf_versions {
	int is_elf;             /* 0: not an ELF file (nothing else filled) */
	char **defs;            /* the version names the file defines (its own SONAME's too) */
	size_t n_defs;
	struct elf_vneed *needs;
	size_t n_needs;
};

/* Reads the versions of one file (name is used in sentences). TB_OK with is_elf 0 for a
 * file that is not ELF; TB_EVERIFY ("damaged") for an ELF file libelf cannot read. */
int elf_read_versions_file(const char *name, const char *path, struct elf_versions *v,
			   struct tb_error *e);
int elf_read_versions_memory(const char *name, const void *data, size_t len,
			     struct elf_versions *v, struct tb_error *e);
void elf_versions_free(struct elf_versions *v);
/* 1 when the file defines the version name. */
int elf_versions_defines(const struct elf_versions *v, const char *name);

#endif
