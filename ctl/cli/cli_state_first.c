/* Answers from the store's state before a writer opens it (ctl/cli/cli_state_first.h). */
#include "cli/cli_state_first.h"
#include "cli/cli_access.h"
#include "cli/command.h"
#include "lifecycle/lifecycle.h"
#include "common/storepath.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* No store at dir: the goal of off, keep, boot-tick and app refresh already holds (exit 0,
 * so a package's removal or the boot unit never fail on a machine without one); the rest
 * have nothing to work on. Either way nothing is made there, and the sentence names the path. */
static int no_store(const struct cli_command *cmd, const char *dir, struct outcome *o)
{
	struct tb_error e = {0};
	if (cmd->done_without_store) {
		outcome_say(o, "%s: there is no store at %s (nothing was made there; is --store right?)",
			    cmd->done_without_store, dir);
		return TB_OK;
	}
	tb_fail(&e, TB_R_NOT_INSTALLED,
		"there is no store at %s (nothing was made there): no Mesa version installed for `tb323fu-ctl mesa %s`; check --store, or install a version first (tb323fu-ctl mesa update)",
		dir, cmd->name);
	return outcome_fail(o, &e);
}

int cli_state_first(struct cli *c, const struct cli_command *cmd, const void *opts,
		    struct outcome *o)
{
	const char *dir = c->store_dir && *c->store_dir ? c->store_dir : store_root(NULL);
	struct stat st;
	if (stat(dir, &st) != 0 && !cmd->makes_store)
		return no_store(cmd, dir, o);
	struct store s;
	struct tb_error e = {0};
	if (store_open(&s, dir, 0, &e) != 0)
		return -1;
	/* One who may write gets the answer under the lock, once a killed writer's commit and
	 * leftovers are dealt with; one who may not gets it from the state as it is. */
	int answered = 0;
	const char *operand = cmd->operand == OPERAND_VERSION ? *(const char *const *)((const char *)opts + cmd->operand_at) : NULL;
	if (cmd->absent && operand && !store_has_version(&s, operand))
		answered = cmd->absent(c, &s, operand, o) != 0; /* the argument first, before any lock */
	else if (cmd->answer && cli_store_access(dir) != 0) {
		struct lc_view v;
		lc_read(&s, &v);
		answered = cmd->answer(&s, &v, opts, o);
		lc_view_free(&v);
	}
	store_close(&s);
	return answered ? o->code : -1;
}
