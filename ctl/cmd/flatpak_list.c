/* flatpak list [--user]: the store's versions exported to Flatpak (docs/design.md §17). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/flatpak_scope.h"
#include "base/strbuf.h"
#include "common/flatpakname.h"

static int cmd_flatpak_list(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	const struct flatpak_opts *a = opts;
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, a->user, &n);
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0};
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(arr, export_json(&v[i]));
		sb_appendf(&lines, "%s%s.%s  Mesa %s  %s//%s  %s", i ? "\n" : "", FLATPAK_GL_POINT,
			   v[i].name, v[i].version, FLATPAK_RUNTIME, v[i].branch,
			   v[i].user ? "user" : "system");
	}
	if (!o->fields)
		outcome_str(o, "store", s->root);
	json_object_object_add(o->fields, "exports", arr);
	outcome_say(o, "%s", n ? lines.buf : "no version of this store is exported to Flatpak");
	sb_free(&lines);
	flatpak_exports_free(v, n);
	return TB_OK;
}

static const struct cli_option flatpak_list_options[] = {FLATPAK_USER_OPTION, CLI_END};

const struct cli_command flatpak_list_command = {
	.name = "flatpak list",
	.args = "[--user]",
	.summary = "the store's versions exported to Flatpak, the user's installation and the system's (--user: yours)",
	.example = "tb323fu-ctl mesa flatpak list --json",
	.options = flatpak_list_options,
	.opts_size = sizeof(struct flatpak_opts),
	.open = OPEN_READER,
	.run = cmd_flatpak_list,
};
