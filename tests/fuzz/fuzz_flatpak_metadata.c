/* libFuzzer target: an installed runtime's metadata (and an export's marker) through their
 * GKeyFile readers (docs/design.md §17). The first byte chooses which. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flatpak/export.h"
#include "flatpak/runtime.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	if (data[0] & 1) {
		struct flatpak_export x = {0};
		flatpak_marker_read(text, len, &x);
		free(x.version);
		free(x.branch);
		free(x.store);
	} else {
		struct flatpak_runtime r = {.branch = "24.08"};
		struct tb_error e = {0};
		flatpak_metadata_read("metadata", text, len, &r, &e);
		free(r.gl_dir);
		free(r.gl_version);
	}
	return 0;
}
