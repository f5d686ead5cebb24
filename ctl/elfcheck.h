/* ELF checks of an unpacked release (DESIGN §4 step 5), with libelf. */
#ifndef TB_ELFCHECK_H
#define TB_ELFCHECK_H

#include "manifest.h"

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

#endif
