/* Error sentences without stdio (see message.h). */
#include "launcher/message.h"
#include "launcher/jsonout.h"
#include "common/exitcode.h"
#include "common/termtext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int json_mode, json_answered;

void message_json(int on)
{
	json_mode = on;
}

void message_json_answered(void)
{
	json_answered = 1;
}

int message_json_on(void)
{
	return json_mode;
}

/* The failure object of --json: the sentence as it was given (JSON escapes what needs it). */
static void json_failure(const char *reason, const char *first, va_list ap)
{
	char text[8192];
	size_t len = 0;
	text[0] = '\0';
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);
		if (n > sizeof text - 1 - len)
			n = sizeof text - 1 - len;
		memcpy(text + len, s, n);
		len += n;
	}
	text[len] = '\0';
	fputs("{\"ok\":false,\"message\":", stdout);
	json_string(stdout, text);
	fputs(",\"reason\":", stdout);
	json_string(stdout, reason);
	fputs("}\n", stdout);
	fflush(stdout);
	json_answered = 1;
}

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

static int vfail(int code, const char *reason, const char *first, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	if (json_mode && !json_answered)
		json_failure(reason ? reason : code == TB_EUSAGE ? "usage" : "failed", first, again);
	va_end(again);
	vsay(first, ap);
	return code;
}

int fail(int code, const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	int rc = vfail(code, NULL, first, ap);
	va_end(ap);
	return rc;
}

int fail_because(int code, const char *reason, const char *first, ...)
{
	va_list ap;
	va_start(ap, first);
	int rc = vfail(code, reason, first, ap);
	va_end(ap);
	return rc;
}
