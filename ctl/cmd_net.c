/* Placeholder until the network commands land. */
#include "cli.h"

static int not_yet(struct outcome *o)
{
	struct tb_error e = {0};
	tb_fail(&e, TB_EFAIL, "this command is not available in this build");
	return outcome_fail(o, &e);
}

COMMAND(check) { return not_yet(o); }
COMMAND(download) { return not_yet(o); }
COMMAND(update) { return not_yet(o); }
