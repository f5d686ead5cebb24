/* flatpak unexport [VERSION|current] [--branch B] [--user]: remove a version's Flatpak
 * extension, also of a version gone from the store (docs/design.md §17). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/flatpak_scope.h"
#include "base/alloc.h"
#include "common/version_name.h"

#include <stdlib.h>
#include <string.h>

static int cmd_flatpak_unexport(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	const struct flatpak_opts *a = opts;
	char *v = NULL;
	if (a->version) {
		if (strcmp(a->version, "current") && !version_name_ok(a->version))
			return cli_usage(o, "\"%.80s\" is not a Mesa version (like 2026.10.06) nor current", a->version);
		/* a version that is gone from the store may still have its export */
		v = strcmp(a->version, "current") ? xstrdup(a->version) : store_current(s);
		if (!v) {
			struct tb_error e = {0};
			tb_fail(&e, TB_R_NOT_INSTALLED, "there is no current version to unexport");
			return outcome_fail(o, &e);
		}
	}
	size_t removed = 0;
	struct tb_error e = {0};
	int rc = flatpak_unexport(s, v, a->branch, a->user, &removed, &e);
	if (rc) {
		outcome_fail(o, &e);
	} else {
		outcome_int(o, "removed", (int64_t)removed);
		outcome_str(o, "version", v ? v : "");
		if (removed)
			outcome_say(o, "%zu Flatpak extension%s of %s removed from %s", removed,
				    removed == 1 ? "" : "s", v ? v : "this store", a->user ? "your installation" : "the system's installation");
		else
			outcome_say(o, "no Flatpak extension of %s in %s; nothing was changed", v ? v : "this store",
				    a->user ? "your installation" : "the system's installation");
	}
	free(v);
	return rc;
}

static const struct cli_option flatpak_unexport_options[] = {FLATPAK_BRANCH_OPTION, FLATPAK_USER_OPTION, CLI_END};

const struct cli_command flatpak_unexport_command = {
	.name = "flatpak unexport",
	.args = "[VERSION|current] [--branch B] [--user]",
	.summary = "remove a version's Flatpak extension (default every one of this store)",
	.example = "tb323fu-ctl mesa flatpak unexport 2026.10.06 --user",
	.options = flatpak_unexport_options,
	.opts_size = sizeof(struct flatpak_opts),
	.operand = OPERAND_WORD,
	.operand_at = offsetof(struct flatpak_opts, version),
	.open = OPEN_READER,
	.run = cmd_flatpak_unexport,
};
