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
static const char *store_given;

void message_store(const char *given)
{
	store_given = given && *given ? given : NULL;
}

/* Appends s to out (len of cap used, always terminated), as far as it fits. */
static void put(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
	if (n > cap - 1 - *len)
		n = cap - 1 - *len;
	memcpy(out + *len, s, n);
	*len += n;
	out[*len] = '\0';
}

/* The sentence's pieces joined into out, each "tb323fu-ctl mesa" with the --store given. */
static void join(char *out, size_t cap, const char *first, va_list ap)
{
	static const char cmd[] = "tb323fu-ctl mesa";
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-=,:@%";
	size_t len = 0;
	out[0] = '\0';
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		const char *at;
		while (store_given && (at = strstr(s, cmd))) {
			put(out, cap, &len, s, (size_t)(at - s));
			put(out, cap, &len, "tb323fu-ctl --store ", 20);
			size_t n = strlen(store_given);
			if (strspn(store_given, plain) == n) {
				put(out, cap, &len, store_given, n);
			} else {
				put(out, cap, &len, "'", 1);
				for (const char *c = store_given; *c; c++)
					put(out, cap, &len, *c == '\'' ? "'\\''" : c, *c == '\'' ? 4 : 1);
				put(out, cap, &len, "'", 1);
			}
			put(out, cap, &len, " mesa", 5);
			s = at + sizeof cmd - 1;
		}
		put(out, cap, &len, s, strlen(s));
	}
}

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
	join(text, sizeof text, first, ap);
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
	char text[8192], buf[8192];
	size_t len = 0;
	join(text, sizeof text, first, ap);
	/* Names a user or a store file gave (a command, a path, a version) are shown, never
	 * obeyed by the terminal. */
	len += term_escape(buf + len, sizeof buf - 1 - len, "tb323fu-mesa: ", 0);
	len += term_escape(buf + len, sizeof buf - 1 - len, text, 0);
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

int (fail)(enum tb_reason reason, const char *first, ...)
{
	va_list ap, again;
	va_start(ap, first);
	va_copy(again, ap);
	if (json_mode && !json_answered)
		json_failure(tb_reason_id(reason), first, again);
	va_end(again);
	vsay(first, ap);
	va_end(ap);
	return tb_reason_code(reason);
}
