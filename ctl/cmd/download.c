/* download [VERSION]: fetch, verify and unpack a version without installing it. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/remote.h"

struct download_opts {
	const char *version;
};

static int cmd_download(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	return download_and_say(c, s, ((const struct download_opts *)opts)->version, o);
}

const struct cli_command download_command = {
	.name = "download",
	.args = "[VERSION]",
	.summary = "fetch, verify and unpack a version (default the newest) without installing it",
	.example = "tb323fu-ctl mesa download 2026.10.06",
	.opts_size = sizeof(struct download_opts),
	.operand = OPERAND_RELEASE,
	.operand_at = offsetof(struct download_opts, version),
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.run = cmd_download,
};
