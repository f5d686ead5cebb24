#include "base/text.h"

#include <ctype.h>
#include <string.h>

#include "base/alloc.h"
#include "common/termtext.h"

char *next_line(char **cursor)
{
	char *line = *cursor;
	if (!line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = NULL;
	}
	size_t n = strlen(line);
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

void hex_encode(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

char *term_text(const char *s, int keep_newlines)
{
	size_t cap = 4 * strlen(s) + 1;
	char *out = xmalloc(cap);
	term_escape(out, cap, s, keep_newlines);
	return out;
}

char *text_copy_checked(const char *text, size_t len, size_t max)
{
	if (len > max || memchr(text, '\0', len))
		return NULL;
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return copy;
}

char *list_first_invalid(const char *list, int (*valid)(const char *s, size_t len))
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		if (!valid(p, len))
			return strndup(p, len);
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}
