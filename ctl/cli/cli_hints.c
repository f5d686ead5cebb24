/* Hints that keep --store and --config (cli_hints.h). */
#include "cli/cli_hints.h"
#include "base/alloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

void sb_append_shell_word(struct strbuf *sb, const char *a)
{
	int plain = *a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789/._+-=,:@%") == strlen(a);
	if (plain) {
		sb_appendf(sb, " %s", a);
		return;
	}
	sb_append(sb, " '");
	for (; *a; a++)
		sb_append(sb, *a == '\'' ? "'\\''" : (char[]){*a, '\0'});
	sb_append(sb, "'");
}

char *cli_hints_keep(const char *msg, const char *store, const char *config)
{
	static const char cmd[] = "tb323fu-ctl mesa";
	int with_store = store && *store, with_config = config && *config;
	if (!msg || (!with_store && !with_config) || !strstr(msg, cmd))
		return NULL;
	struct strbuf opts = {0};
	if (with_store) {
		sb_append(&opts, " --store");
		sb_append_shell_word(&opts, store);
	}
	if (with_config) {
		sb_append(&opts, " --config");
		sb_append_shell_word(&opts, config);
	}
	struct strbuf sb = {0};
	sb_append(&sb, "");
	const char *from = msg, *at;
	while ((at = strstr(from, cmd))) {
		size_t head = (size_t)(at - from);
		sb_appendf(&sb, "%.*s", (int)head, from);
		sb_appendf(&sb, "tb323fu-ctl%s mesa", opts.buf);
		from = at + sizeof cmd - 1;
	}
	sb_append(&sb, from);
	char *out = xstrdup(sb.buf);
	sb_free(&sb);
	sb_free(&opts);
	return out;
}

void cli_hints_keep_json(json_object *j, const char *store, const char *config)
{
	if (!j)
		return;
	if (json_object_is_type(j, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(j); i++) {
			json_object *el = json_object_array_get_idx(j, i);
			if (json_object_is_type(el, json_type_string)) {
				char *kept = cli_hints_keep(json_object_get_string(el), store, config);
				if (kept)
					json_object_array_put_idx(j, i, json_object_new_string(kept));
				free(kept);
			} else {
				cli_hints_keep_json(el, store, config);
			}
		}
		return;
	}
	if (!json_object_is_type(j, json_type_object))
		return;
	json_object_object_foreach(j, key, val) {
		(void)key;
		if (json_object_is_type(val, json_type_string)) {
			char *kept = cli_hints_keep(json_object_get_string(val), store, config);
			if (kept)
				json_object_set_string(val, kept);
			free(kept);
		} else {
			cli_hints_keep_json(val, store, config);
		}
	}
}
