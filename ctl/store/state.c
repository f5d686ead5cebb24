/* The state file: parsed strictly, so that damage is seen rather than read as "off". */
#include "store/state.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/text.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void state_set(char **field, const char *value)
{
	char *copy = value && *value ? xstrdup(value) : NULL;
	free(*field);
	*field = copy;
}

void state_set_failed(struct state *st, const char *version, enum tb_reason reason,
		      const char *sentence)
{
	state_set(&st->failed, version);
	state_set(&st->failed_reason, version ? sentence : NULL);
	state_set(&st->failed_reason_id, version ? tb_reason_id(reason) : NULL);
}

void state_clear_failed(struct state *st)
{
	state_set_failed(st, NULL, TB_R_FAILED, NULL);
}

static const char *const gl_words[] = {
	[SESSION_GL_DISTRO] = "distro",
	[SESSION_GL_NATIVE] = "native",
	[SESSION_GL_ZINK] = "zink",
};

const char *session_gl_word(enum session_gl gl)
{
	return gl_words[gl];
}

int session_gl_parse(const char *word)
{
	for (size_t i = 0; i < sizeof gl_words / sizeof *gl_words; i++)
		if (word && !strcmp(word, gl_words[i]))
			return (int)i;
	return -1;
}

void state_free(struct state *st)
{
	free(st->trial);
	free(st->failed);
	free(st->failed_reason);
	free(st->failed_reason_id);
	free(st->boot);
	memset(st, 0, sizeof *st);
}

void state_copy(struct state *dst, const struct state *src)
{
	*dst = *src;
	dst->trial = src->trial ? xstrdup(src->trial) : NULL;
	dst->failed = src->failed ? xstrdup(src->failed) : NULL;
	dst->failed_reason = src->failed_reason ? xstrdup(src->failed_reason) : NULL;
	dst->failed_reason_id = src->failed_reason_id ? xstrdup(src->failed_reason_id) : NULL;
	dst->boot = src->boot ? xstrdup(src->boot) : NULL;
}

/* A count: decimal digits only, 0 to INT_MAX. */
static int parse_count(const char *v, int *out)
{
	if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 10)
		return -1;
	errno = 0;
	long long n = strtoll(v, NULL, 10);
	if (errno || n > INT_MAX)
		return -1;
	*out = (int)n;
	return 0;
}

/* Free text (a reason, a boot id): printable, no control characters. */
static int printable(const char *v)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static int version_or_empty(const char *v)
{
	return !*v || version_name_ok(v);
}

enum { K_ENABLED, K_TRIAL, K_TRIES, K_MAX, K_FAILED, K_REASON, K_REASON_ID, K_BOOT, K_GL, K_COUNT };
static const char *const keys[K_COUNT] = {"enabled", "trial", "tries", "max", "failed",
					  "failed_reason", "failed_reason_id", "boot", "gl"};

/* A reason id: kebab-case, as docs/design.md lists them. */
static int reason_id_shape(const char *v)
{
	return *v && strlen(v) <= 64 && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v);
}

static int take(struct state *st, int k, const char *v)
{
	switch (k) {
	case K_ENABLED:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return -1;
		st->enabled = v[0] == '1';
		return 0;
	case K_TRIAL:
		return version_or_empty(v) ? (state_set(&st->trial, v), 0) : -1;
	case K_TRIES:
		return parse_count(v, &st->tries);
	case K_MAX:
		return parse_count(v, &st->max);
	case K_FAILED:
		return version_or_empty(v) ? (state_set(&st->failed, v), 0) : -1;
	case K_REASON:
		return printable(v) ? (state_set(&st->failed_reason, v), 0) : -1;
	case K_REASON_ID:
		return !*v || reason_id_shape(v) ? (state_set(&st->failed_reason_id, v), 0) : -1;
	case K_GL: {
		int gl = *v ? session_gl_parse(v) : SESSION_GL_DISTRO;
		return gl < 0 ? -1 : (st->gl = (enum session_gl)gl, 0);
	}
	default:
		return printable(v) && strlen(v) <= 128 ? (state_set(&st->boot, v), 0) : -1;
	}
}

int state_parse(const char *text, size_t len, struct state *st)
{
	memset(st, 0, sizeof *st);
	char *copy = text_copy_checked(text, len, STATE_MAX_BYTES);
	if (!copy)
		return -1;
	int seen[K_COUNT] = {0}, bad = 0;
	char *cursor = copy, *line;
	while (!bad && (line = next_line(&cursor))) {
		if (!*line)
			continue; /* the end of the last line */
		char *eq = strchr(line, '=');
		if (!eq) {
			bad = 1;
			break;
		}
		*eq = '\0';
		int k = 0;
		while (k < K_COUNT && strcmp(line, keys[k]))
			k++;
		if (k == K_COUNT) {
			/* a key of a newer writer: its shape must still be a key */
			bad = !*line || strspn(line, "abcdefghijklmnopqrstuvwxyz_") != strlen(line);
			continue;
		}
		bad = seen[k]++ || take(st, k, eq + 1);
	}
	free(copy);
	/* every writer writes enabled */
	if (!bad && !seen[K_ENABLED])
		bad = 1;
	if (bad) {
		state_free(st);
		return -1;
	}
	return 0;
}

int state_load(const struct store *s, struct state *st)
{
	memset(st, 0, sizeof *st);
	char *path = path_join(s->root, STORE_STATE);
	size_t len = 0;
	/* a link is not what writers write: damaged, and replaced by the next commit */
	char *text = read_small_file_nofollow(path, STATE_MAX_BYTES, &len);
	int missing = !text && errno == ENOENT;
	free(path);
	if (!text)
		return missing ? 0 : 1;
	int rc = state_parse(text, len, st);
	free(text);
	return rc ? 1 : 0;
}

/* Values are single lines of printable text: anything else would damage the format. */
static void one_line(struct strbuf *sb, const char *key, const char *v)
{
	sb_appendf(sb, "%s=", key);
	for (const unsigned char *p = (const unsigned char *)(v ? v : ""); *p; p++) {
		char c[2] = {*p < 0x20 || *p == 0x7f ? ' ' : (char)*p, 0};
		sb_append(sb, c);
	}
	sb_append(sb, "\n");
}

void state_format(const struct state *st, struct strbuf *sb)
{
	sb_appendf(sb, "enabled=%d\n", st->enabled ? 1 : 0);
	one_line(sb, "trial", st->trial);
	sb_appendf(sb, "tries=%d\nmax=%d\n", st->tries, st->max);
	one_line(sb, "failed", st->failed);
	one_line(sb, "failed_reason", st->failed_reason);
	if (st->failed_reason_id)
		one_line(sb, "failed_reason_id", st->failed_reason_id);
	one_line(sb, "boot", st->boot);
	if (st->gl != SESSION_GL_DISTRO) /* written only when given: older readers see no new key */
		one_line(sb, "gl", session_gl_word(st->gl));
}

int state_save(struct store *s, const struct state *st, struct tb_error *e)
{
	struct strbuf sb = {0};
	state_format(st, &sb);
	char *path = path_join(s->root, STORE_STATE);
	int rc = atomic_write_file(path, sb.buf, sb.len, 0644, e);
	free(path);
	sb_free(&sb);
	return rc;
}
