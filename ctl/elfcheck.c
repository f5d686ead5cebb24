/* Placeholder until the ELF checks land. */
#include "elfcheck.h"

#include <string.h>

int elf_check_tree(const char *root, const struct manifest *m, struct elf_report *r,
		   struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	return TB_OK;
}
