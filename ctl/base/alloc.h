/* Allocation that never returns NULL: out of memory aborts with a message. */
#ifndef TB_ALLOC_H
#define TB_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* dir/name, allocated. */
char *path_join(const char *dir, const char *name);

#endif
