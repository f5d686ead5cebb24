/* rollback: swap the current and the previous version. */
#include "cli/cli.h"
#include "cli/command.h"
#include "lifecycle/login_reach.h"
#include "base/strbuf.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"
#include "store/manifest.h"

#include <stdlib.h>

#include <stdio.h>

struct rollback_opts {
	int dry_run; /* say what would be done, change nothing */
};

static int rollback_plan_say(struct cli *c, struct store *s, struct outcome *o)
{
	struct lc_ctx x = lc_ctx_of(c, s);
	struct lc_plan p;
	struct tb_error e = {0};
	if (lc_plan_rollback(&x, &p, &e))
		return outcome_fail(o, &e);
	char said[400];
	snprintf(said, sizeof said, "`rollback` would make Mesa %s current again%s%s%s%s", p.version,
		 p.trial ? " (the session is on: on trial until `tb323fu-ctl mesa keep`)" : "",
		 p.previous[0] ? " and keep Mesa " : "", p.previous, p.previous[0] ? " as previous" : "");
	outcome_dry_run(o, &p, said);
	return TB_OK;
}

static int cmd_rollback(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	if (((const struct rollback_opts *)opts)->dry_run)
		return rollback_plan_say(c, s, o);
	struct lc_result r;
	if (run_transition(c, lc_rollback, &r, s, o))
		return o->code;
	outcome_str(o, "previous", r.other);
	struct strbuf no_login = {0};
	if (r.enabled && login_reach_say(s, &no_login)) /* on's, status's and doctor's sentence */
		outcome_say(o, "Mesa %s is current again; it is switched on, but %s%s; Mesa %s is kept as previous",
			    r.version, no_login.buf, r.trial ? "; it is on trial until `tb323fu-ctl mesa keep`" : "", r.other);
	else if (r.trial)
		outcome_say(o, "Mesa %s is current again (programs started from now on use it, on trial for %d starts until `tb323fu-ctl mesa keep`); Mesa %s is kept as previous",
			    r.version, r.max, r.other);
	else if (r.enabled)
		outcome_say(o, "Mesa %s is current again (new programs use it now); Mesa %s is kept as previous", r.version, r.other);
	else
		outcome_say(o, "Mesa %s is current again (for `tb323fu-mesa run`; the session stays on the distribution's Mesa until `tb323fu-ctl mesa on`); Mesa %s is kept as previous",
			    r.version, r.other);
	sb_free(&no_login);
	if (r.other[0]) { /* the store remembers it (docs/design.md §12) */
		char *said = o->message;
		o->message = NULL;
		if (version_compare(r.other, r.version) > 0)
			outcome_say(o, "%s\nupdate skips Mesa %s from now on, until a newer version is offered (`tb323fu-ctl mesa forget %s` clears that)",
				    said, r.other, r.other);
		else /* back to a newer one: update never picks the older one, so only the mark is said */
			outcome_say(o, "%s\nMesa %s is marked rolled back from (`tb323fu-ctl mesa forget %s` clears that); update would not take it anyway, Mesa %s being newer",
				    said, r.other, r.other, r.version);
		free(said);
	}
	say_repaired(o, &r);
	return TB_OK;
}

/* No previous version to go back to (none, or its tree is gone): the body's own refusal. */
static int rollback_answer(const struct store *s, const struct lc_view *v, const void *opts,
			   struct outcome *o)
{
	(void)opts;
	struct tb_error e = {0};
	if (v->foreign || (v->previous && store_has_version(s, v->previous)) ||
	    !lc_rollback_refusal(s, v, &e))
		return 0;
	outcome_fail(o, &e);
	return 1;
}

static const struct cli_option rollback_options[] = {CLI_DRY_RUN(struct rollback_opts), CLI_END};

static const char *const rollback_synonyms[] = {"revert", NULL};

const struct cli_command rollback_command = {
	.name = "rollback",
	.args = "[--dry-run]",
	.summary = "swap the current and the previous version",
	.example = "tb323fu-ctl mesa rollback",
	.synonyms = rollback_synonyms,
	.options = rollback_options,
	.opts_size = sizeof(struct rollback_opts),
	.open = OPEN_WRITER,
	.writes = 1,
	.answer = rollback_answer,
	.run = cmd_rollback,
};
