/* app unset APP: remove an application's rule, and the desktop entry that carried it. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
#include "apprules/desktop_find.h"
#include "apprules/override_files.h"
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

struct app_unset_opts {
	const char *app;
	int user;
};

static char *normal_id(const char *app)
{
	size_t n = strlen(app);
	return n > 8 && !strcmp(app + n - 8, ".desktop") ? xstrdup(app) : xasprintf("%s.desktop", app);
}

/* Whether the other scope than unset's (user: the system's; else the caller's own) has a
 * rule for id. */
static int other_scope_has(const struct store *s, int user, const char *id)
{
	struct app_ctx x = {.s = s, .lock_fd = -1};
	struct tb_error ignored = {0};
	if (user)
		app_scope_system(&x.sc, s);
	else if (app_scope_user(&x.sc, &ignored))
		return 0;
	struct app_rules r = {0};
	int repaired = 0, has = rules_open(&x, &r, 0, &repaired, &ignored) >= 0 && apprules_find(&r, id);
	apprules_free(&r);
	app_scope_free(&x.sc);
	return has;
}

static int cmd_app_unset(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct app_unset_opts *a = opts;
	int user = a->user;
	const char *app = a->app;
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules r = {0};
	char *id = NULL;
	int repaired = 0;
	if (app_open(c, s, &x, user, 1, &e) || rules_open(&x, &r, 1, &repaired, &e))
		goto out;
	id = normal_id(app);
	if (!apprules_find(&r, id)) {
		free(id);
		id = NULL;
		if (desktop_resolve(&x.sc, app, &id, &e))
			goto out;
	}
	int had = apprules_find(&r, id) != NULL;
	int owner = override_owner(&x.sc, id, NULL, NULL, NULL, NULL);
	if (owner == 1 && override_remove(&x.sc, id, &e))
		goto out;
	if (had && (apprules_unset(&r, id), apprules_save(&x.sc, &r, &e)))
		goto out;
	outcome_str(o, "app", id);
	outcome_str(o, "scope", user ? "user" : "system");
	if (!had && owner != 1 && other_scope_has(s, user, id))
		outcome_say(o, "%s has no %s rule; nothing was changed; %s rule for it is removed with `%stb323fu-ctl mesa app unset %s%s`",
			    id, user ? "user" : "system", user ? "the system's" : "your own",
			    user ? "sudo " : "", user ? "" : "--user ", id);
	else if (!had && owner != 1)
		outcome_say(o, "%s has no %s rule; nothing was changed", id, user ? "user" : "system");
	else if (owner == 2)
		outcome_say(o, "the rule for %s is removed; %s/%s is not an entry tb323fu-ctl wrote and stays as it is",
			    id, x.sc.apps_dir, id);
	else
		outcome_say(o, "the rule for %s is removed (and %s/%s with it): it starts as the session says again",
			    id, x.sc.apps_dir, id);
out:
	apprules_free(&r);
	free(id);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}

static const struct cli_option app_unset_options[] = {APP_USER_OPTION(struct app_unset_opts), CLI_END};

const struct cli_command app_unset_command = {
	.name = "app unset",
	.args = "APP [--user]",
	.summary = "remove an application's rule, and the desktop entry that carried it",
	.example = "tb323fu-ctl mesa app unset org.darktable.darktable",
	.options = app_unset_options,
	.opts_size = sizeof(struct app_unset_opts),
	.operand = OPERAND_APP,
	.operand_at = offsetof(struct app_unset_opts, app),
	.operand_required = 1,
	.open = OPEN_WRITER,
	.writes = 1,
	.run = cmd_app_unset,
};
