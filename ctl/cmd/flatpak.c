/* flatpak: the group of the commands that give Flatpak applications the store's Mesa, each
 * version a GL extension (docs/design.md §17). */
#include "cli/command.h"
#include "cmd/commands.h"

static const struct cli_command *const flatpak_commands[] = {
	&flatpak_export_command, &flatpak_list_command, &flatpak_unexport_command, NULL,
};

const struct cli_command flatpak_command = {
	.name = "flatpak",
	.args = "export|list|unexport [ARGS] [--user]",
	.summary = "give Flatpak applications the store's Mesa: each version a GL extension",
	.example = "tb323fu-ctl mesa flatpak export",
	.open = OPEN_NONE,
	.subs = flatpak_commands,
};
