/* app clear [--user]: remove every desktop entry of ours, keeping the rules (the package's
 * removal runs it). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
#include "apprules/override_files.h"
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"

#include <stdlib.h>
#include <unistd.h>

struct app_user_opts {
	int user;
};

/* Every entry of ours goes, another's stays (override_remove's rule); the rules stay, so a
 * reinstall's app refresh brings the entries back (docs/design.md §16). */
static int cmd_app_clear(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct app_user_opts *a = opts;
	struct app_ctx x;
	struct tb_error e = {0};
	int removed = 0;
	if (!app_open(c, s, &x, a->user, 1, &e)) {
		/* every entry with our mark, whatever rule it carries (one of a newer or older
		 * build, one whose rule this build does not take): it starts our launcher */
		char **ids = NULL;
		/* first what is marked as ours in an unusual way (a link to ours, a file that is
		 * not UTF-8, our mark in an action): those links reach the entries below */
		size_t n = override_marked_list(x.sc.apps_dir, &ids);
		for (size_t i = 0; i < n; i++) {
			char *path = path_join(x.sc.apps_dir, ids[i]);
			if (unlink(path) == 0)
				removed++;
			else if (!e.code)
				tb_fail_errno(&e, TB_R_IO_ERROR, "cannot remove %s", path);
			free(path);
			free(ids[i]);
		}
		free(ids);
		ids = NULL;
		n = override_ours_list(x.sc.apps_dir, &ids);
		for (size_t i = 0; i < n; i++) {
			struct tb_error one = {0};
			if (override_remove(&x.sc, ids[i], &one) == 0)
				removed++;
			else if (!e.code)
				e = one;
			free(ids[i]);
		}
		free(ids);
	}
	outcome_int(o, "removed", removed);
	if (!e.code && removed)
		outcome_say(o, "%d desktop entries of ours removed from %s; the rules are kept", removed,
			    x.sc.apps_dir);
	else if (!e.code)
		outcome_say(o, "no desktop entry of ours in %s", x.sc.apps_dir);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}

static const struct cli_option app_clear_options[] = {APP_USER_OPTION(struct app_user_opts), CLI_END};

/* The package's prerm: the entries start the launcher that goes with the package. Ours are
 * told from another's by the one rule every app command applies, not by a grep. A reader:
 * it changes no rule and must not create a store on the way out. */
const struct cli_command app_clear_command = {
	.name = "app clear",
	.args = "[--user]",
	.summary = "remove every desktop entry of ours, keeping the rules (the package's removal runs it)",
	.example = "tb323fu-ctl mesa app clear",
	.options = app_clear_options,
	.opts_size = sizeof(struct app_user_opts),
	.open = OPEN_READER,
	.run = cmd_app_clear,
};
