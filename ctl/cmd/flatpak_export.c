/* flatpak export [VERSION|current] [--branch B] [--user]: a version as the Flatpak extension
 * org.freedesktop.Platform.GL.tb323fu-mesa-V, ABI-checked against each runtime branch first
 * (docs/design.md §17; the rules are ctl/flatpak/export.c). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/flatpak_scope.h"
#include "base/strbuf.h"
#include "common/flatpakname.h"

#include <stdint.h>
#include <stdlib.h>

static int cmd_flatpak_export(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	const struct flatpak_opts *a = opts;
	char *v = version_meant(s, a->version, o);
	if (!v)
		return o->code;
	struct flatpak_export *done;
	size_t n;
	struct tb_error e = {0};
	int rc = flatpak_export(s, v, a->branch, a->user, &done, &n, &e);
	json_object *arr = json_object_new_array();
	struct strbuf said = {0};
	uint64_t bytes = 0;
	unsigned linked = 0, copied = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			json_object_array_add(arr, export_json(&done[i]));
		bytes += done[i].bytes;
		linked += done[i].linked;
		copied += done[i].copied;
		sb_appendf(&said, "%s%s", i ? ", " : "", done[i].branch);
	}
	if (rc) {
		json_object_put(arr);
		outcome_fail(o, &e);
	} else {
		outcome_str(o, "version", v);
		outcome_str(o, "name", n ? done[0].name : "");
		json_object_object_add(o->fields, "exports", arr);
		outcome_int(o, "bytes", (int64_t)bytes);
		outcome_int(o, "linked", linked);
		outcome_int(o, "copied", copied);
		outcome_bool(o, "gl", n && done[0].gl);
		outcome_say(o, "Mesa %s exported as the Flatpak extension %s.%s for %s//%s (%s)%s; start an application with it: tb323fu-ctl mesa app set APP %s, or tb323fu-mesa run flatpak run APP",
			    v, FLATPAK_GL_POINT, done[0].name, FLATPAK_RUNTIME, said.buf,
			    a->user ? "your installation" : "the system's installation",
			    n && done[0].gl ? ", with its GL, which the sandbox takes before its runtime's own" : "", v);
	}
	sb_free(&said);
	flatpak_exports_free(done, n);
	free(v);
	return rc;
}

static const struct cli_option flatpak_export_options[] = {FLATPAK_BRANCH_OPTION, FLATPAK_USER_OPTION, CLI_END};

const struct cli_command flatpak_export_command = {
	.name = "flatpak export",
	.args = "[VERSION|current] [--branch B] [--user]",
	.summary = "write a version (default current) as the Flatpak extension org.freedesktop.Platform.GL.tb323fu-mesa-V, ABI-checked against each runtime branch",
	.example = "tb323fu-ctl mesa flatpak export --user",
	.options = flatpak_export_options,
	.opts_size = sizeof(struct flatpak_opts),
	.operand = OPERAND_WORD,
	.operand_at = offsetof(struct flatpak_opts, version),
	.open = OPEN_READER,
	.run = cmd_flatpak_export,
};
