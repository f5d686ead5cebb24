/* libFuzzer target: an installation's global override (flatpak's GKeyFile) through the edit
 * that puts our key in and takes it out (docs/design.md §17, "From the session"). Whatever
 * comes in, what goes out is a key file that edits back, and taking ours out of what we put
 * in leaves no key of ours. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flatpak/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0, m = 0;
	char *on = flatpak_override_edit((const char *)data, size, 1, &n);
	if (on) {
		char *off = flatpak_override_edit(on, n, 0, &m);
		if (!off)
			abort(); /* what we wrote must be ours to take out */
		free(off);
		free(on);
	}
	free(flatpak_override_edit((const char *)data, size, 0, &m));
	return 0;
}
