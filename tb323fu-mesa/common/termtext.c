/* Escaping text for terminals (see termtext.h). */
#include "common/termtext.h"
#include "common/utf8.h"

#include <stdint.h>

static const char hex[] = "0123456789abcdef";

/* How many bytes at p go out as they are (0: p[0] is shown as \xNN). */
static size_t plain_len(const unsigned char *p, int keep_newlines)
{
	if (*p < 0x80)
		return (*p >= 0x20 || (*p == '\n' && keep_newlines)) && *p != 0x7f;
	/* NUL-terminated: utf8_len stops at the NUL, which is no continuation byte. */
	int n = utf8_len(p, SIZE_MAX);
	/* U+0080..U+009F (C2 80..C2 9F) are controls too: 8-bit CSI and OSC. A byte that is
	 * no character (a lone 0x9b) is shown: a terminal in 8-bit mode obeys it. */
	if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f)
		return 0;
	return (size_t)n;
}

size_t term_escape(char *out, size_t cap, const char *in, int keep_newlines)
{
	size_t o = 0;
	if (!cap)
		return 0;
	for (const unsigned char *p = (const unsigned char *)in; *p;) {
		size_t n = plain_len(p, keep_newlines);
		if (o + (n ? n : 4) >= cap)
			break;
		if (n) {
			for (size_t i = 0; i < n; i++)
				out[o++] = (char)*p++;
			continue;
		}
		unsigned c = *p++;
		if (c == 0xc2 && *p >= 0x80 && *p <= 0x9f)
			c = *p++; /* an encoded C1 control: its code point */
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
	return o;
}
