/* A growable string. */
#ifndef TB_STRBUF_H
#define TB_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_append(struct strbuf *sb, const char *s);
void sb_appendf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct strbuf *sb);

#endif
