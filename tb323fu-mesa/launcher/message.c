/* Error sentences without stdio (see message.h). */
#include "launcher/message.h"
#include "common/termtext.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static void vsay(const char *first, va_list ap)
{
	char buf[8192];
	size_t len = 0;
	const char *prefix = "tb323fu-mesa: ";
	/* Names a user or a store file gave (a command, a path, a version) are shown, never
	 * obeyed by the terminal. */
	for (const char *s = prefix; s; s = (s == prefix ? first : va_arg(ap, const char *)))
		len += term_escape(buf + len, sizeof buf - 1 - len, s, 0);
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
