/* takeover: complete a store the Open Device Helper made with this tool's files, keeping
 * its state (docs/design.md §13). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cli/session.h"
#include "lifecycle/lifecycle.h"
#include "helper/takeover.h"
#include "base/strbuf.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

static int cmd_takeover(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	/* opened as a reader to count what is missing; a writer completes it as it opens it */
	struct tb_error e = {0};
	/* A current pointing outside versions/ (an absolute link, versions/../..) selects a tree
	 * that is not the store's: the helper's ICD files reach their libraries through it, so a
	 * store that keeps it is not taken over, and the sentence says how to repair it. */
	struct lc_view v;
	lc_read(s, &v);
	if (v.foreign) {
		struct strbuf why = {0};
		lc_gone_advice(s, &v, &why);
		tb_fail(&e, TB_R_DAMAGED_STORE, "the store cannot be taken over: %s; nothing was changed",
			why.buf);
		sb_free(&why);
	}
	lc_view_free(&v);
	if (e.code)
		return outcome_fail(o, &e);
	int needed = takeover_needed(s);
	store_close(s);
	if (session_open(s, c->store_dir, 1, c->wait, &e))
		return outcome_fail(o, &e);
	outcome_bool(o, "completed", needed > 0);
	outcome_str(o, "store", s->root);
	if (needed)
		outcome_say(o, "the store %s now has our files too (env files and per-version ICD files); current, previous and the state are unchanged",
			    s->root);
	else
		outcome_say(o, "the store %s has all our files; nothing to do", s->root);
	return TB_OK;
}

const struct cli_command takeover_command = {
	.name = "takeover",
	.args = "",
	.summary = "complete a store the Open Device Helper made with this tool's files, keeping its state",
	.example = "tb323fu-ctl mesa takeover",
	.open = OPEN_READER,
	.writes = 1,
	.run = cmd_takeover,
};
