/* libFuzzer: the terminal escaper on any bytes: what comes out is valid UTF-8, holds no
 * control character (but the newlines it was asked to keep), fits 4 bytes an input byte, and
 * is cut short cleanly in a small buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/termtext.h"
#include "common/utf8.h"

static void check(const char *out, size_t n, int keep_newlines)
{
	if (strlen(out) != n || !utf8_valid(out, n))
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		if ((c < 0x20 && !(c == '\n' && keep_newlines)) || c == 0x7f)
			abort();
		if (c == 0xc2 && (unsigned char)out[i + 1] >= 0x80 && (unsigned char)out[i + 1] <= 0x9f)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > 4096)
		return 0;
	int keep = data[0] & 1;
	char *in = malloc(size);
	memcpy(in, data + 1, size - 1);
	in[size - 1] = '\0';
	size_t len = strlen(in);
	size_t cap = 4 * len + 1;
	char *out = malloc(cap);
	size_t n = term_escape(out, cap, in, keep);
	check(out, n, keep);
	char small[7];
	check(small, term_escape(small, sizeof small, in, keep), keep);
	free(out);
	free(in);
	return 0;
}
