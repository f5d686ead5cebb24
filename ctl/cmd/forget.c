/* forget VERSION: the store no longer remembers the version as gone wrong (docs/design.md
 * §12): update, auto-check and status's `available` offer it again, and a refused release
 * is fetched again. As apt-mark unhold: forgetting what is not marked changes nothing. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "store/marks.h"
#include "base/alloc.h"
#include "base/error.h"

#include <stdlib.h>

struct forget_opts {
	const char *version;
};

static int cmd_forget(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	const char *v = ((const struct forget_opts *)opts)->version;
	struct marks m;
	marks_load(s, &m);
	const struct mark *k = marks_find(&m, v);
	char *was = k ? xasprintf("%s: %s", k->reason, k->why) : NULL;
	int refused = k && k->refused;
	marks_free(&m);
	struct tb_error e = {0};
	int had = marks_forget(s, v, &e);
	if (had < 0) {
		free(was);
		return outcome_fail(o, &e);
	}
	outcome_str(o, "version", v);
	outcome_bool(o, "forgotten", had);
	if (!had)
		outcome_say(o, "Mesa %s is not marked; nothing was changed", v);
	else if (refused)
		outcome_say(o, "Mesa %s is no longer marked (it was %s); update fetches its release again when the channel offers it", v, was);
	else
		outcome_say(o, "Mesa %s is no longer marked (it was %s); update installs it again when the channel offers it as the newest", v, was);
	free(was);
	return TB_OK;
}

/* A version that is not marked: nothing to forget, answered without the lock. */
static int forget_answer(const struct store *s, const struct lc_view *v, const void *opts,
			 struct outcome *o)
{
	(void)v;
	const char *version = ((const struct forget_opts *)opts)->version;
	struct marks m;
	marks_load(s, &m);
	int marked = marks_find(&m, version) != NULL;
	marks_free(&m);
	if (marked)
		return 0;
	outcome_str(o, "version", version);
	outcome_bool(o, "forgotten", 0);
	outcome_say(o, "Mesa %s is not marked; nothing was changed", version);
	return 1;
}

const struct cli_command forget_command = {
	.name = "forget",
	.args = "VERSION",
	.summary = "clear the store's mark of a version rolled back from, failed or refused",
	.example = "tb323fu-ctl mesa forget 2026.11.15",
	.opts_size = sizeof(struct forget_opts),
	.operand = OPERAND_RELEASE,
	.operand_at = offsetof(struct forget_opts, version),
	.operand_required = 1,
	.open = OPEN_WRITER,
	.writes = 1,
	.done_without_store = "nothing is marked",
	.answer = forget_answer,
	.run = cmd_forget,
};
