/* Reading the env files of docs/design.md §3 (format described in envfile.h). */
#include "common/envfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int env_name_ok(const char *name, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
		int digit = c >= '0' && c <= '9';
		if (!alpha && !(digit && i > 0))
			return 0;
	}
	return 1;
}

int env_value_ok(const char *value, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)value[i];
		/* Control bytes and blanks split or end a value; the others quote, expand, glob,
		 * redirect or comment in sh (and '~' after ':' is tilde-expanded in assignments). */
		if (c < 0x21 || c == 0x7f || strchr("\"'\\$`;&|<>()~*?[]{}!#", c))
			return 0;
	}
	return 1;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int refuse(struct env_problem *why, unsigned line, const char *what)
{
	why->line = line;
	why->what = what;
	return -1;
}

int envfile_parse(char *text, size_t len, struct env_list *out, struct env_problem *why)
{
	out->count = 0;
	if (memchr(text, '\0', len))
		return refuse(why, 0, "contains a NUL byte");
	text[len] = '\0';

	unsigned lineno = 0;
	char *p = text, *end = text + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		lineno++;
		*eol = '\0';
		if (n == 0 || p[0] == '#') {
			p = eol + 1;
			continue;
		}
		char *eq = memchr(p, '=', n);
		if (!eq)
			return refuse(why, lineno, "is not NAME=VALUE");
		if (!env_name_ok(p, (size_t)(eq - p)))
			return refuse(why, lineno, "does not start with a variable name");
		*eq = '\0';
		char *value = eq + 1;
		size_t vlen = (size_t)(eol - value);
		int prepend = 0;
		if (strcmp(p, "LD_LIBRARY_PATH") == 0 && ends_with(value, vlen, ENVFILE_LD_SUFFIX)) {
			vlen -= strlen(ENVFILE_LD_SUFFIX);
			if (vlen == 0)
				return refuse(why, lineno, "prepends an empty directory");
			value[vlen] = '\0';
			prepend = 1;
		}
		if (!env_value_ok(value, vlen))
			return refuse(why, lineno, "has a value with quoting, expansion or blanks");
		if (out->count == ENVFILE_MAX_VARS)
			return refuse(why, lineno, "is one variable too many");
		out->vars[out->count++] = (struct env_var){
			.name = p, .value = value, .prepend = prepend, .line = lineno};
		p = eol + 1;
	}
	return 0;
}

long envfile_read(const char *path, char *buf, size_t cap)
{
	/* O_NONBLOCK and a regular file only: a FIFO or a device put there must not hang every
	 * launch or feed it endless bytes. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int err = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : ESPIPE;
		close(fd);
		return -err;
	}
	if ((uint64_t)st.st_size >= cap) {
		close(fd);
		return -E2BIG;
	}
	size_t len = 0;
	for (;;) {
		if (len + 1 >= cap) {
			/* Full: it only fits when the file ends exactly here. */
			char probe;
			ssize_t r = read(fd, &probe, 1);
			close(fd);
			return r == 0 ? (buf[len] = '\0', (long)len) : -E2BIG;
		}
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	return (long)len;
}

long env_var_apply(const struct env_var *v, const char *inherited, char *out, size_t cap)
{
	size_t vlen = strlen(v->value);
	size_t ilen = (v->prepend && inherited) ? strlen(inherited) : 0;
	size_t total = vlen + (ilen ? 1 + ilen : 0);
	if (total + 1 > cap)
		return -1;
	memcpy(out, v->value, vlen);
	if (ilen) {
		out[vlen] = ':';
		memcpy(out + vlen + 1, inherited, ilen);
	}
	out[total] = '\0';
	return (long)total;
}

const struct env_var *env_list_find(const struct env_list *l, const char *name)
{
	for (size_t i = l->count; i-- > 0;)
		if (strcmp(l->vars[i].name, name) == 0)
			return &l->vars[i];
	return NULL;
}
