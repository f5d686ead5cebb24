/* libFuzzer: SHA256SUMS lookup and the configuration parser (both line-oriented texts). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "release/sums.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[65];
	struct tb_error e = {0};
	sums_lookup_text((const char *)data, size, "tb323fu-mesa-1-x86_64.tar.gz", hex, &e);

	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct config c;
	config_defaults(&c);
	tb_error_clear(&e);
	config_parse(&c, text, "fuzz.conf", &e);
	config_free(&c);
	free(text);
	return 0;
}
