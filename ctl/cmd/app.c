/* app: the group of the per-application rules' commands (docs/design.md §16). */
#include "cli/command.h"
#include "cmd/commands.h"

static const struct cli_command *const app_commands[] = {
	&app_set_command, &app_unset_command, &app_list_command, &app_refresh_command, &app_clear_command, NULL,
};

const struct cli_command app_command = {
	.name = "app",
	.args = "set|unset|list|refresh [ARGS] [--user]",
	.summary = "give one desktop application its own Mesa, kept in its desktop entry",
	.example = "tb323fu-ctl mesa app set org.darktable.darktable distro",
	.open = OPEN_NONE,
	.subs = app_commands,
};
