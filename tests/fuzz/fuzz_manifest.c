/* libFuzzer: the MANIFEST parser; what it accepts must survive a format/parse round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct manifest m;
	struct tb_error e = {0};
	if (manifest_parse((const char *)data, size, &m, &e) != TB_OK)
		return 0;
	char *text = manifest_format(&m);
	struct manifest again;
	struct tb_error e2 = {0};
	if (manifest_parse(text, strlen(text), &again, &e2) != TB_OK)
		abort(); /* pack and install would disagree */
	if (again.n_files != m.n_files || again.n_links != m.n_links)
		abort();
	manifest_free(&again);
	free(text);
	manifest_free(&m);
	return 0;
}
