/* off: the distribution's Mesa again from the next login. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"

static int cmd_off(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct lc_result r;
	if (run_transition(c, lc_off, &r, s, o))
		return o->code;
	if (r.unchanged)
		say_already_off(o);
	else if (r.current_gone)
		outcome_say(o, "the distribution's Mesa is used from the next login; Mesa %s, the current version, is gone from %s/versions (`tb323fu-ctl mesa status` says what to do)",
			    r.version, s->root);
	else
		outcome_say(o, "the distribution's Mesa is used from the next login");
	say_repaired(o, &r);
	return TB_OK;
}

static int off_answer(const struct store *s, const struct lc_view *v, const void *opts,
		      struct outcome *o)
{
	(void)opts;
	if (!lc_is_off(s, v))
		return 0;
	say_already_off(o);
	return 1;
}

static const char *const off_synonyms[] = {"disable", NULL};

const struct cli_command off_command = {
	.name = "off",
	.args = "",
	.summary = "use the distribution's Mesa again from the next login",
	.example = "tb323fu-ctl mesa off",
	.synonyms = off_synonyms,
	.open = OPEN_WRITER,
	.writes = 1,
	.done_without_store = "nothing to switch off",
	.answer = off_answer,
	.run = cmd_off,
};
