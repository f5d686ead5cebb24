/* JSON strings for the launcher's --json output (see jsonout.h). */
#include "launcher/jsonout.h"
#include "common/utf8.h"

#include <string.h>

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);
	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p++, f);
			left--;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			left--;
		} else {
			int n = utf8_len(p, left);
			if (n == 0) {
				fputs("\\ufffd", f);
				p++, left--;
			} else {
				fwrite(p, 1, (size_t)n, f);
				p += n, left -= (size_t)n;
			}
		}
	}
	fputc('"', f);
}
