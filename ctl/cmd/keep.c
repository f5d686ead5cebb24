/* keep: confirm the version on trial. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"

static int cmd_keep(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct lc_result r;
	if (run_transition(c, lc_keep, &r, s, o))
		return o->code;
	outcome_str(o, "version", r.version);
	if (r.version[0])
		outcome_say(o, "Mesa %s confirmed; it stays on", r.version);
	else
		outcome_say(o, "nothing to keep: no Mesa version is on trial");
	say_repaired(o, &r);
	return TB_OK;
}

static int keep_answer(const struct store *s, const struct lc_view *v, const void *opts,
		       struct outcome *o)
{
	(void)s, (void)opts;
	if (!lc_nothing_on_trial(v) || v->st.trial)
		return 0;
	outcome_say(o, "nothing to keep: no Mesa version is on trial");
	return 1;
}

static const char *const keep_synonyms[] = {"confirm", NULL};

const struct cli_command keep_command = {
	.name = "keep",
	.args = "",
	.summary = "confirm the version on trial",
	.example = "tb323fu-ctl mesa keep",
	.synonyms = keep_synonyms,
	.open = OPEN_WRITER,
	.writes = 1,
	.done_without_store = "nothing to keep",
	.answer = keep_answer,
	.run = cmd_keep,
};
