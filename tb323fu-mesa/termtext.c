/* Escaping text for terminals (see termtext.h). */
#include "termtext.h"

static const char hex[] = "0123456789abcdef";

size_t term_escape(char *out, size_t cap, const char *in, int keep_newlines)
{
	size_t o = 0;
	if (!cap)
		return 0;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		unsigned c = *p;
		/* U+0080..U+009F (C2 80..C2 9F) are controls too: 8-bit CSI and OSC. */
		int c1 = c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
		int plain = !c1 && (c >= 0x20 || (c == '\n' && keep_newlines)) && c != 0x7f;
		size_t need = plain ? 1 : 4;
		if (o + need >= cap)
			break;
		if (plain) {
			out[o++] = (char)c;
			continue;
		}
		if (c1)
			c = *++p;
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
	return o;
}
