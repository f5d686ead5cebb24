#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void sb_append(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

void sb_appendf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_append(sb, s);
	free(s);
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
