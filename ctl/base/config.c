#include "base/config.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/text.h"
#include "common/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* How a key's value is read and where it goes. */
enum key_kind {
	KEY_STRING, /* char *; "" stores NULL */
	KEY_WORD,   /* char *, one of words; empty_word stores "" */
	KEY_BOOL,   /* int: true/on/yes/1, false/off/no/0 */
	KEY_INT,    /* int in [min, max] */
	KEY_LONG,   /* long in [min, max] */
	KEY_SOURCE, /* source: github:OWNER/REPO, also fills owner and repo */
	KEY_URL,    /* api_url: https, http or file, trailing slashes dropped */
	KEY_KEYS,   /* public_key: appended, at most CONFIG_MAX_KEYS */
};

struct config_key {
	const char *key;
	enum key_kind kind;
	size_t offset;
	long min, max;
	const char *const *words;  /* KEY_WORD: the values allowed */
	const char *empty_word;    /* KEY_WORD: a word that means "" ("none"), or NULL */
	const char *default_text;  /* string kinds: the default (NULL: none) */
	long default_number;       /* number kinds: the default */
	unsigned set_bit;          /* CONFIG_SET_* recorded when mesa.conf sets the key */
};

static const char *const channel_words[] = {"stable", "testing", NULL};
/* smoke_suite: the names of the suites registered in gputest/suite.c, a layer above this one, so
 * spelled again here; tests/unit/test_suite.c checks that each registered name is one of them. */
static const char *const suite_words[] = {"", "none", "piglit-cl", "opencl-cts", "dEQP-VK",
					  "dEQP-GLES2", "dEQP-GLES3", "dEQP-EGL", NULL};
static const char *const profile_words[] = {"quick", "full", NULL};
static const char *const crash_policy_words[] = {"pin", "report", "pin-always", NULL};
static const char *const session_gl_words[] = {"distro", "native", "zink", NULL};

#define AT(field) offsetof(struct config, field)

/* Every key of docs/design.md §5 with its default. */
static const struct config_key config_keys[] = {
	{.key = "source", .kind = KEY_SOURCE, .offset = AT(source),
	 .default_text = "github:joonhoekim/tb323fu-linux"},
	{.key = "api_url", .kind = KEY_URL, .offset = AT(api_url),
	 .default_text = "https://api.github.com"},
	{.key = "channel", .kind = KEY_WORD, .offset = AT(channel),
	 .words = channel_words, .default_text = "stable", .set_bit = CONFIG_SET_CHANNEL},
	{.key = "require_signature", .kind = KEY_BOOL, .offset = AT(require_signature),
	 .set_bit = CONFIG_SET_SIGNATURE},
	{.key = "auto_download", .kind = KEY_BOOL, .offset = AT(auto_download)},
	{.key = "public_key", .kind = KEY_KEYS, .offset = AT(public_keys),
	 .set_bit = CONFIG_SET_KEYS},
	{.key = "keys_dir", .kind = KEY_STRING, .offset = AT(keys_dir),
	 .default_text = TB_SYSCONFDIR "/tb323fu/keys"},
	{.key = "ca_file", .kind = KEY_STRING, .offset = AT(ca_file)},
	{.key = "token_file", .kind = KEY_STRING, .offset = AT(token_file)},
	{.key = "smoke", .kind = KEY_BOOL, .offset = AT(smoke),
	 .default_number = 1},
	{.key = "smoke_suite", .kind = KEY_WORD, .offset = AT(smoke_suite),
	 .words = suite_words, .empty_word = "none", .default_text = ""},
	{.key = "smoke_suite_profile", .kind = KEY_WORD, .offset = AT(smoke_suite_profile),
	 .words = profile_words, .default_text = "quick"},
	{.key = "smoke_suite_filter", .kind = KEY_STRING, .offset = AT(smoke_suite_filter),
	 .default_text = ""},
	{.key = "cts_dir", .kind = KEY_STRING, .offset = AT(cts_dir),
	 .default_text = ""},
	{.key = "cts_tests", .kind = KEY_STRING, .offset = AT(cts_tests),
	 .default_text = ""},
	{.key = "cts_budget", .kind = KEY_LONG, .offset = AT(cts_budget),
	 .min = 0, .max = 7 * 86400},
	{.key = "deqp_dir", .kind = KEY_STRING, .offset = AT(deqp_dir),
	 .default_text = ""},
	{.key = "deqp_gl_dir", .kind = KEY_STRING, .offset = AT(deqp_gl_dir),
	 .default_text = ""},
	{.key = "deqp_groups", .kind = KEY_STRING, .offset = AT(deqp_groups),
	 .default_text = ""},
	{.key = "deqp_fraction", .kind = KEY_STRING, .offset = AT(deqp_fraction),
	 .default_text = ""},
	{.key = "deqp_budget", .kind = KEY_LONG, .offset = AT(deqp_budget),
	 .min = 0, .max = 7 * 86400},
	{.key = "suite_jobs", .kind = KEY_LONG, .offset = AT(suite_jobs),
	 .min = 0, .max = 64},
	{.key = "max_tries", .kind = KEY_INT, .offset = AT(max_tries),
	 .min = 1, .max = 100, .default_number = 2},
	{.key = "keep_versions", .kind = KEY_INT, .offset = AT(keep_versions),
	 .min = 2, .max = 100, .default_number = 2},
	{.key = "connect_timeout", .kind = KEY_LONG, .offset = AT(connect_timeout),
	 .min = 1, .max = 3600, .default_number = 15},
	{.key = "stall_timeout", .kind = KEY_LONG, .offset = AT(stall_timeout),
	 .min = 1, .max = 3600, .default_number = 30},
	{.key = "stall_speed", .kind = KEY_LONG, .offset = AT(stall_speed),
	 .min = 1, .max = LONG_MAX, .default_number = 1024},
	/* crash evidence (docs/design.md §18) */
	{.key = "crash_policy", .kind = KEY_WORD, .offset = AT(crash_policy),
	 .words = crash_policy_words, .default_text = "pin"},
	{.key = "keep_after_clean_boots", .kind = KEY_INT, .offset = AT(keep_after_clean_boots),
	 .min = 0, .max = 100, .default_number = 0},
	/* the session's GL (docs/design.md §6) */
	{.key = "session_gl", .kind = KEY_WORD, .offset = AT(session_gl),
	 .words = session_gl_words, .default_text = "distro"},
};

#define N_CONFIG_KEYS (sizeof config_keys / sizeof config_keys[0])

static char **str_at(struct config *c, const struct config_key *k)
{
	return (char **)((char *)c + k->offset);
}

static int *int_at(struct config *c, const struct config_key *k)
{
	return (int *)((char *)c + k->offset);
}

static long *long_at(struct config *c, const struct config_key *k)
{
	return (long *)((char *)c + k->offset);
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

static int parse_url(char **field, const char *v)
{
	if (strncmp(v, "https://", 8) && strncmp(v, "http://", 7) && strncmp(v, "file://", 7))
		return -1;
	set_str(field, v);
	/* Trailing slashes would double in the request path. */
	size_t len = strlen(*field);
	while (len > 8 && (*field)[len - 1] == '/')
		(*field)[--len] = '\0';
	return 0;
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

static int parse_word(const struct config_key *k, char **field, const char *v)
{
	for (const char *const *w = k->words; *w; w++) {
		if (!strcmp(v, *w)) {
			set_str(field, k->empty_word && !strcmp(v, k->empty_word) ? "" : v);
			return 0;
		}
	}
	return -1;
}

static int add_key(struct config *c, const char *v)
{
	if (!*v || c->n_public_keys >= CONFIG_MAX_KEYS)
		return -1;
	c->public_keys[c->n_public_keys++] = xstrdup(v);
	return 0;
}

/* 0 when v was taken, -1 when it is not a value of k. */
static int parse_value(struct config *c, const struct config_key *k, const char *v)
{
	long n;
	switch (k->kind) {
	case KEY_STRING:
		set_str(str_at(c, k), v);
		return 0;
	case KEY_WORD:
		return parse_word(k, str_at(c, k), v);
	case KEY_BOOL:
		return parse_bool(v, int_at(c, k));
	case KEY_INT:
		if (parse_long(v, k->min, k->max, &n))
			return -1;
		*int_at(c, k) = (int)n;
		return 0;
	case KEY_LONG:
		return parse_long(v, k->min, k->max, long_at(c, k));
	case KEY_SOURCE:
		return parse_source(c, v);
	case KEY_URL:
		return parse_url(str_at(c, k), v);
	case KEY_KEYS:
		return add_key(c, v);
	}
	return -1;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < N_CONFIG_KEYS; i++) {
		const struct config_key *k = &config_keys[i];
		if (k->kind == KEY_SOURCE)
			parse_source(c, k->default_text);
		else if (k->kind == KEY_INT || k->kind == KEY_BOOL)
			*int_at(c, k) = (int)k->default_number;
		else if (k->kind == KEY_LONG)
			*long_at(c, k) = k->default_number;
		else if (k->kind != KEY_KEYS && k->default_text)
			/* Kept even when empty: "" is a set value, NULL is none. */
			*str_at(c, k) = xstrdup(k->default_text);
	}
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < N_CONFIG_KEYS; i++) {
		const struct config_key *k = &config_keys[i];
		if (k->kind == KEY_SOURCE) {
			free(c->owner);
			free(c->repo);
		}
		if (k->kind == KEY_KEYS) {
			for (int j = 0; j < c->n_public_keys; j++)
				free(c->public_keys[j]);
		} else if (k->kind != KEY_BOOL && k->kind != KEY_INT && k->kind != KEY_LONG) {
			free(*str_at(c, k));
		}
	}
	free(c->path);
	free(c->helper_problem);
	memset(c, 0, sizeof *c);
}

/* 0 when set, -1 for a bad value, 1 for an unknown key. */
static int set_key(struct config *c, const char *key, const char *v)
{
	for (size_t i = 0; i < N_CONFIG_KEYS; i++) {
		const struct config_key *k = &config_keys[i];
		if (strcmp(key, k->key))
			continue;
		if (parse_value(c, k, v))
			return -1;
		c->set_here |= k->set_bit;
		return 0;
	}
	return 1;
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
				rc = tb_fail(e, TB_R_USAGE, "%s line %d: expected key = value, found \"%s\"; fix or remove that line",
					     name, lineno, s);
				break;
			}
			*eq = '\0';
			char *k = trim(s), *v = trim(eq + 1);
			int r = set_key(c, k, v);
			if (r < 0) {
				rc = tb_fail(e, TB_R_USAGE, "%s line %d: bad value \"%s\" for %s; fix that line",
					     name, lineno, v, k);
				break;
			}
			if (r > 0) {
				/* the nearest known key, as for a mistyped command (common/suggest.c) */
				const char *near = suggest_name(k, config_keys, N_CONFIG_KEYS, sizeof *config_keys);
				if (near)
					rc = tb_fail(e, TB_R_USAGE, "%s line %d: unknown key \"%s\"; did you mean \"%s\"? fix or remove that line (man tb323fu-mesa.conf lists the keys)",
						     name, lineno, k, near);
				else
					rc = tb_fail(e, TB_R_USAGE, "%s line %d: unknown key \"%s\"; fix or remove that line (man tb323fu-mesa.conf lists the keys)",
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
			return tb_fail(e, TB_R_TOO_LARGE_USAGE,
				       "the configuration %s is larger than 1 MiB; a mesa.conf is a few lines of key = value",
				       path);
		return tb_fail_errno(e, TB_R_USAGE, "cannot read the configuration %s", path);
	}
	/* A NUL would silently end the text early and drop the lines after it (a
	 * require_signature among them). */
	if (memchr(text, '\0', len)) {
		free(text);
		return tb_fail(e, TB_R_USAGE,
			       "the configuration %s contains a NUL byte, so it is not a text file; rewrite it as key = value lines",
			       path);
	}
	int rc = config_parse(c, text, path, e);
	free(text);
	if (rc == TB_OK)
		set_str(&c->path, path);
	return rc;
}

char *config_dir(const struct config *cfg)
{
	if (!cfg->path)
		return xstrdup(TB_SYSCONFDIR "/tb323fu");
	char *dir = xstrdup(cfg->path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return dir;
}
