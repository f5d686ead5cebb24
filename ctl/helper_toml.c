/* The Open Device Helper's settings file (/etc/tb323fu/helper.toml, TOML): only the [kernel]
 * keys that are also ours, read from a small subset of TOML (docs/design.md §13). Anything else
 * in the file is the helper's business and ignored. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

/* A TOML basic string "…" at *p (no escapes are needed for the values we take); NULL when
 * it is not one. Moves *p past it. */
static char *toml_string(char **p)
{
	char *s = *p;
	if (*s != '"')
		return NULL;
	char *end = strchr(s + 1, '"');
	if (!end || memchr(s + 1, '\\', (size_t)(end - s - 1)))
		return NULL;
	*p = end + 1;
	return strndup(s + 1, (size_t)(end - s - 1));
}

/* Collects the strings of an array that may span lines: [ "a", "b" ]. */
static void toml_keys(struct config *c, char *value, char **cursor, int take)
{
	char *p = value + 1, *line = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == ']')
			return;
		if (!*p || *p == '#') {
			if (!(line = next_line(cursor)))
				return;
			p = trim(line);
			continue;
		}
		char *s = toml_string(&p);
		if (!s)
			return;
		if (take && *s && c->n_public_keys < CONFIG_MAX_KEYS)
			c->public_keys[c->n_public_keys++] = s;
		else
			free(s);
	}
}

void config_apply_helper_toml(struct config *c, const char *path)
{
	char *text = read_small_file(path, 1 << 20, NULL);
	if (!text)
		return;
	char *cursor = text, *line;
	int in_kernel = 0;
	while ((line = next_line(&cursor))) {
		char *s = trim(line);
		if (*s == '[') {
			in_kernel = !strcmp(s, "[kernel]");
			continue;
		}
		char *eq = strchr(s, '=');
		if (!in_kernel || !eq || *s == '#')
			continue;
		*eq = '\0';
		char *k = trim(s), *v = trim(eq + 1);
		if (!strcmp(k, "channel") && !(c->set_here & CONFIG_SET_CHANNEL)) {
			char *p = v, *ch = toml_string(&p);
			if (ch && (!strcmp(ch, "stable") || !strcmp(ch, "testing"))) {
				free(c->channel);
				c->channel = ch;
			} else {
				free(ch);
			}
		} else if (!strcmp(k, "require_signature") && !(c->set_here & CONFIG_SET_SIGNATURE)) {
			if (!strncmp(v, "true", 4))
				c->require_signature = 1;
			else if (!strncmp(v, "false", 5))
				c->require_signature = 0;
		} else if (!strcmp(k, "public_keys") && *v == '[') {
			toml_keys(c, v, &cursor, !(c->set_here & CONFIG_SET_KEYS));
		}
	}
	free(text);
}
