/* JSON strings for the launcher's --json output (see jsonout.h). */
#include "jsonout.h"

/* Length of the valid UTF-8 sequence starting at s, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n;
	unsigned min;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p++, f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			int n = utf8_len(p);
			if (n == 0) {
				fputs("\\ufffd", f);
				p++;
			} else {
				fwrite(p, 1, (size_t)n, f);
				p += n;
			}
		}
	}
	fputc('"', f);
}
