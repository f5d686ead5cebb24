/* on: the current version for every program from the next login, on trial. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cmd/lifecycle_say.h"
#include "ops/lifecycle.h"
#include "ops/login_reach.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "common/storelayout.h"

static int cmd_on(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct lc_result r;
	if (run_transition(c, lc_on, &r, s, o))
		return o->code;
	if (r.unchanged) {
		say_already_on(o, s, r.version);
		say_repaired(o, &r);
		return TB_OK;
	}
	struct strbuf sb = {0}, no_login = {0};
	/* the switch is in the store, but nothing carries it into a login: said now, in the
	 * sentence status and doctor say too (login_reach_say) */
	int reads = !login_reach_say(s, &no_login);
	outcome_bool(o, "logins_read_store", reads);
	if (reads)
		sb_appendf(&sb, "Mesa %s is switched on for every program from the next login", r.version);
	else
		sb_appendf(&sb, "Mesa %s is switched on, but %s", r.version, no_login.buf);
	sb_free(&no_login);
	if (r.trial)
		sb_appendf(&sb, "; it is on trial for %d starts until `tb323fu-ctl mesa keep`", r.max);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	say_repaired(o, &r);
	return TB_OK;
}

/* Already on, or no version installed to switch on: from the state, through the body's
 * own checks. */
static int on_answer(const struct store *s, const struct lc_view *v, const void *opts,
		     struct outcome *o)
{
	(void)opts;
	struct tb_error e = {0};
	if (!v->current && !v->foreign && lc_on_refusal(s, v, &e))
		return outcome_fail(o, &e), 1;
	if (!lc_is_on(s, v))
		return 0;
	say_already_on(o, s, v->current);
	return 1;
}

static const char *const on_synonyms[] = {"enable", NULL};

const struct cli_command on_command = {
	.name = "on",
	.args = "",
	.summary = "use the current version for every program from the next login (on trial)",
	.example = "tb323fu-ctl mesa on",
	.synonyms = on_synonyms,
	.open = OPEN_WRITER,
	.writes = 1,
	.answer = on_answer,
	.run = cmd_on,
};
