/* libFuzzer target: a file a release ships, or a runtime's library, through the reader of
 * symbol versions (the Flatpak ABI check). */
#include <stddef.h>
#include <stdint.h>

#include "release/elfversions.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_versions v;
	struct tb_error e = {0};
	elf_read_versions_memory("lib/fuzz.so", data, size, &v, &e);
	elf_versions_free(&v);
	return 0;
}
