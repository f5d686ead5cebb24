#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->source = xstrdup("github:joonhoekim/tb323fu-linux");
	c->owner = xstrdup("joonhoekim");
	c->repo = xstrdup("tb323fu-linux");
	c->api_url = xstrdup("https://api.github.com");
	c->channel = xstrdup("stable");
	c->keys_dir = xstrdup(TB_SYSCONFDIR "/tb323fu/keys");
	c->smoke = 1;
	c->smoke_suite = xstrdup("");
	c->smoke_suite_profile = xstrdup("quick");
	c->smoke_suite_filter = xstrdup("");
	c->cts_dir = xstrdup("");
	c->cts_tests = xstrdup("");
	c->max_tries = 2;
	c->keep_versions = 2;
	c->connect_timeout = 15;
	c->stall_timeout = 30;
	c->stall_speed = 1024;
}

void config_free(struct config *c)
{
	free(c->source);
	free(c->owner);
	free(c->repo);
	free(c->api_url);
	free(c->channel);
	for (int i = 0; i < c->n_public_keys; i++)
		free(c->public_keys[i]);
	free(c->keys_dir);
	free(c->ca_file);
	free(c->token_file);
	free(c->smoke_suite);
	free(c->smoke_suite_profile);
	free(c->smoke_suite_filter);
	free(c->cts_dir);
	free(c->cts_tests);
	free(c->path);
	free(c->helper_problem);
	memset(c, 0, sizeof *c);
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "0"))
		*out = 0;
	else
		return -1;
	return 0;
}

static int parse_long(const char *v, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = *v ? xstrdup(v) : NULL;
}

static int parse_source(struct config *c, const char *v)
{
	if (strncmp(v, "github:", 7) != 0)
		return -1;
	const char *slash = strchr(v + 7, '/');
	if (!slash || slash == v + 7 || !slash[1] || strchr(slash + 1, '/'))
		return -1;
	for (const char *p = v + 7; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_./", *p))
			return -1;
	set_str(&c->source, v);
	free(c->owner);
	c->owner = strndup(v + 7, (size_t)(slash - (v + 7)));
	set_str(&c->repo, slash + 1);
	return 0;
}

static int set_key(struct config *c, const char *k, const char *v)
{
	long n;
	if (!strcmp(k, "source"))
		return parse_source(c, v);
	if (!strcmp(k, "api_url")) {
		if (strncmp(v, "https://", 8) && strncmp(v, "http://", 7) && strncmp(v, "file://", 7))
			return -1;
		set_str(&c->api_url, v);
		/* Trailing slashes would double in the request path. */
		size_t len = strlen(c->api_url);
		while (len > 8 && c->api_url[len - 1] == '/')
			c->api_url[--len] = '\0';
		return 0;
	}
	if (!strcmp(k, "channel")) {
		if (strcmp(v, "stable") && strcmp(v, "testing"))
			return -1;
		set_str(&c->channel, v);
		c->set_here |= CONFIG_SET_CHANNEL;
		return 0;
	}
	if (!strcmp(k, "require_signature")) {
		c->set_here |= CONFIG_SET_SIGNATURE;
		return parse_bool(v, &c->require_signature);
	}
	if (!strcmp(k, "auto_download"))
		return parse_bool(v, &c->auto_download);
	if (!strcmp(k, "public_key")) {
		if (!*v || c->n_public_keys >= CONFIG_MAX_KEYS)
			return -1;
		c->set_here |= CONFIG_SET_KEYS;
		c->public_keys[c->n_public_keys++] = xstrdup(v);
		return 0;
	}
	if (!strcmp(k, "keys_dir")) {
		set_str(&c->keys_dir, v);
		return 0;
	}
	if (!strcmp(k, "ca_file")) {
		set_str(&c->ca_file, v);
		return 0;
	}
	if (!strcmp(k, "token_file")) {
		set_str(&c->token_file, v);
		return 0;
	}
	if (!strcmp(k, "smoke"))
		return parse_bool(v, &c->smoke);
	if (!strcmp(k, "smoke_suite")) {
		if (*v && strcmp(v, "none") && strcmp(v, "piglit-cl") && strcmp(v, "opencl-cts"))
			return -1;
		set_str(&c->smoke_suite, !strcmp(v, "none") ? "" : v);
		return 0;
	}
	if (!strcmp(k, "smoke_suite_profile")) {
		if (strcmp(v, "quick") && strcmp(v, "full"))
			return -1;
		set_str(&c->smoke_suite_profile, v);
		return 0;
	}
	if (!strcmp(k, "smoke_suite_filter")) {
		set_str(&c->smoke_suite_filter, v);
		return 0;
	}
	if (!strcmp(k, "cts_dir")) {
		set_str(&c->cts_dir, v);
		return 0;
	}
	if (!strcmp(k, "cts_tests")) {
		set_str(&c->cts_tests, v);
		return 0;
	}
	if (!strcmp(k, "cts_budget"))
		return parse_long(v, 0, 7 * 86400, &c->cts_budget);
	if (!strcmp(k, "max_tries")) {
		if (parse_long(v, 1, 100, &n))
			return -1;
		c->max_tries = (int)n;
		return 0;
	}
	if (!strcmp(k, "keep_versions")) {
		if (parse_long(v, 2, 100, &n))
			return -1;
		c->keep_versions = (int)n;
		return 0;
	}
	if (!strcmp(k, "connect_timeout"))
		return parse_long(v, 1, 3600, &c->connect_timeout);
	if (!strcmp(k, "stall_timeout"))
		return parse_long(v, 1, 3600, &c->stall_timeout);
	if (!strcmp(k, "stall_speed"))
		return parse_long(v, 1, LONG_MAX, &c->stall_speed);
	return 1; /* unknown */
}

int config_parse(struct config *c, const char *text, const char *name, struct tb_error *e)
{
	char *copy = xstrdup(text);
	int lineno = 0, rc = TB_OK;
	char *cursor = copy, *line;
	while ((line = next_line(&cursor))) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line);
		if (*s) {
			char *eq = strchr(s, '=');
			if (!eq) {
				rc = tb_fail(e, TB_EUSAGE, "%s line %d: expected key = value, found \"%s\"; fix or remove that line",
					     name, lineno, s);
				break;
			}
			*eq = '\0';
			char *k = trim(s), *v = trim(eq + 1);
			int r = set_key(c, k, v);
			if (r < 0) {
				rc = tb_fail(e, TB_EUSAGE, "%s line %d: bad value \"%s\" for %s; fix that line",
					     name, lineno, v, k);
				break;
			}
			if (r > 0) {
				rc = tb_fail(e, TB_EUSAGE, "%s line %d: unknown key \"%s\"; fix or remove that line",
					     name, lineno, k);
				break;
			}
		}
	}
	free(copy);
	return rc;
}

int config_load(struct config *c, const char *path, int must_exist, struct tb_error *e)
{
	size_t len;
	char *text = read_small_file(path, CONFIG_MAX_BYTES, &len);
	if (!text) {
		if (errno == ENOENT && !must_exist)
			return TB_OK;
		/* --config /dev/null: the usual way to say "no configuration", read as empty */
		if (errno == ESPIPE && !strcmp(path, "/dev/null"))
			return TB_OK;
		if (errno == E2BIG)
			return tb_fail_why(e, TB_EUSAGE, "too-large",
					   "the configuration %s is larger than 1 MiB; a mesa.conf is a few lines of key = value",
					   path);
		return tb_fail_errno(e, TB_EUSAGE, "cannot read the configuration %s", path);
	}
	/* A NUL would silently end the text early and drop the lines after it (a
	 * require_signature among them). */
	if (memchr(text, '\0', len)) {
		free(text);
		return tb_fail_why(e, TB_EUSAGE, "usage",
				   "the configuration %s contains a NUL byte, so it is not a text file; rewrite it as key = value lines",
				   path);
	}
	int rc = config_parse(c, text, path, e);
	free(text);
	if (rc == TB_OK)
		set_str(&c->path, path);
	return rc;
}
