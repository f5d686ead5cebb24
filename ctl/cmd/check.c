/* check: refresh the release list and say what the channel offers. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/remote.h"

static int cmd_check(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	return check_and_say(c, s, o);
}

const struct cli_command check_command = {
	.name = "check",
	.args = "",
	.summary = "refresh the release list and say what the channel offers",
	.example = "tb323fu-ctl mesa check",
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.run = cmd_check,
};
