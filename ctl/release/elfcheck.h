/* ELF checks of an unpacked release (docs/design.md §4 step 5), with libelf. */
#ifndef TB_ELFCHECK_H
#define TB_ELFCHECK_H

#include "release/elffacts.h"
#include "store/manifest.h"
#include "base/error.h"

struct elf_report {
	/* A DT_NEEDED library is only found in the release's lib/ and RUNPATH does not reach it:
	 * the env files must set LD_LIBRARY_PATH. */
	int needs_ld_library_path;
	/* The highest GLIBC_x.y any ELF file of the release needs, e.g. "2.34" ("" when none). */
	char glibc_floor[32];
};

/* Checks every ELF file of the tree at root (an unpacked release, MANIFEST in it) against
 * this host. TB_EVERIFY with a sentence naming the file and the problem. */
int elf_check_tree(const char *root, const struct manifest *m, struct elf_report *r,
		   struct tb_error *e);

/* The parts below are the pieces of elf_check_tree, open for doctor and the unit tests (a
 * made-up host). */

/* The host a tree is checked against. */
struct elf_host {
	char arch[64];      /* uname -m, for sentences */
	int elf_class;      /* ELFCLASS32 / ELFCLASS64 */
	int machine;        /* EM_* */
	char glibc[32];     /* the running glibc, e.g. "2.41" */
	char **lib_dirs;    /* the system's library directories, in search order */
	size_t n_lib_dirs;
	const char *who;    /* the system in sentences ("org.freedesktop.Platform//24.08");
			     * NULL: this system */
};
/* This machine: uname -m, gnu_get_libc_version(), /etc/ld.so.conf and the default dirs. */
int elf_host_detect(struct elf_host *h, struct tb_error *e);
void elf_host_free(struct elf_host *h);

/* Where the dynamic linker of h finds a library by name in the system's directories (an ELF
 * file of the host's class and machine), or NULL. */
char *elf_find_system_library(const struct elf_host *h, const char *name);

int elf_check_tree_on_host(const char *root, const struct manifest *m, const struct elf_host *h,
			   struct elf_report *r, struct tb_error *e);

#endif
