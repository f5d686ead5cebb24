/* UTF-8 checks (see utf8.h). */
#include "common/utf8.h"

int utf8_len(const unsigned char *s, size_t avail)
{
	int n;
	unsigned min, cp;
	if (!avail)
		return 0;
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
	if ((size_t)n > avail)
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

size_t utf8_cut(const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		int n = utf8_len(p + i, len - i);
		size_t step = n ? (size_t)n : 1;
		if (i + step > max)
			break;
		i += step;
	}
	return i;
}

int utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		int n = utf8_len(p + i, len - i);
		if (!n)
			return 0;
		i += (size_t)n;
	}
	return 1;
}
