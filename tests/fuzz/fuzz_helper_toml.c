/* libFuzzer: the helper.toml reader on any bytes: it never crashes, and it either reads the
 * text (values of the right kinds) or gives a sentence with every value unset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helper/helper_toml_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	struct helper_kernel k;
	int rc = helper_kernel_read((const char *)data, size, "helper.toml", &k);
	if (rc == 0 && k.problem)
		abort();
	if (rc && (k.channel || k.require_signature != -1 || k.n_public_keys))
		abort();
	if (k.channel && strcmp(k.channel, "stable") && strcmp(k.channel, "testing"))
		abort();
	if (k.require_signature < -1 || k.require_signature > 1 || k.n_public_keys > HELPER_TOML_MAX_KEYS)
		abort();
	for (int i = 0; i < k.n_public_keys; i++)
		if (!k.public_keys[i][0])
			abort();
	helper_kernel_free(&k);
	return 0;
}
