#include "state.h"

#include <stdlib.h>
#include <string.h>

void state_set(char **field, const char *value)
{
	free(*field);
	*field = value && *value ? xstrdup(value) : NULL;
}

void state_set_failed(struct state *st, const char *version, const char *reason_id,
		      const char *sentence)
{
	state_set(&st->failed, version);
	state_set(&st->failed_reason, version ? sentence : NULL);
	state_set(&st->failed_reason_id, version ? reason_id : NULL);
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

void state_load(const struct store *s, struct state *st)
{
	memset(st, 0, sizeof *st);
	char *path = path_join(s->root, "state");
	char *text = read_small_file(path, 64 * 1024, NULL);
	free(path);
	if (!text)
		return; /* no state yet: everything off */
	char *cursor = text, *line;
	while ((line = next_line(&cursor))) {
		char *eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			const char *k = line, *v = eq + 1;
			if (!strcmp(k, "enabled"))
				st->enabled = !strcmp(v, "1");
			else if (!strcmp(k, "trial"))
				state_set(&st->trial, v);
			else if (!strcmp(k, "tries"))
				st->tries = atoi(v);
			else if (!strcmp(k, "max"))
				st->max = atoi(v);
			else if (!strcmp(k, "failed"))
				state_set(&st->failed, v);
			else if (!strcmp(k, "failed_reason"))
				state_set(&st->failed_reason, v);
			else if (!strcmp(k, "failed_reason_id"))
				state_set(&st->failed_reason_id, v);
			else if (!strcmp(k, "boot"))
				state_set(&st->boot, v);
		}
	}
	free(text);
}

/* Values are single lines: a reason with a newline would break the format. */
static void one_line(struct strbuf *sb, const char *key, const char *v)
{
	sb_appendf(sb, "%s=", key);
	for (const char *p = v ? v : ""; *p; p++) {
		char c[2] = {*p == '\n' || *p == '\r' ? ' ' : *p, 0};
		sb_append(sb, c);
	}
	sb_append(sb, "\n");
}

int state_save(struct store *s, const struct state *st, struct tb_error *e)
{
	struct strbuf sb = {0};
	sb_appendf(&sb, "enabled=%d\n", st->enabled ? 1 : 0);
	one_line(&sb, "trial", st->trial);
	sb_appendf(&sb, "tries=%d\nmax=%d\n", st->tries, st->max);
	one_line(&sb, "failed", st->failed);
	one_line(&sb, "failed_reason", st->failed_reason);
	if (st->failed_reason_id)
		one_line(&sb, "failed_reason_id", st->failed_reason_id);
	one_line(&sb, "boot", st->boot);
	char *path = path_join(s->root, "state");
	int rc = atomic_write_file(path, sb.buf, sb.len, 0644, e);
	free(path);
	sb_free(&sb);
	return rc;
}
