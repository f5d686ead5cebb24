/* Error sentences without stdio (see message.h). */
#include "message.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static void vsay(const char *first, va_list ap)
{
	char buf[8192];
	size_t len = 0;
	const char *prefix = "tb323fu-mesa: ";
	for (const char *s = prefix; s; s = (s == prefix ? first : va_arg(ap, const char *))) {
		size_t n = strlen(s);
		if (n > sizeof buf - 1 - len)
			n = sizeof buf - 1 - len;
		memcpy(buf + len, s, n);
		len += n;
	}
	buf[len++] = '\n';
	for (size_t done = 0; done < len;) {
		ssize_t r = write(STDERR_FILENO, buf + done, len - done);
		if (r <= 0)
			break;
		done += (size_t)r;
	}
}

void say_error(const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	vsay(first, ap);
	va_end(ap);
}

int fail(int code, const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	vsay(first, ap);
	va_end(ap);
	return code;
}
