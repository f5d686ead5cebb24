/* libFuzzer target: whatever a release ships as a file goes through the ELF reader. */
#include <stddef.h>
#include <stdint.h>

#include "release/elffacts.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_facts f;
	struct tb_error e = {0};
	elf_read_facts_memory("lib/fuzz.so", data, size, &f, &e);
	elf_facts_free(&f);
	return 0;
}
