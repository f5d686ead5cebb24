/* Every command's entry, each defined beside its body in ctl/cmd/NAME.c; ctl/main.c lists
 * them in help's order, and a group's file lists its own. A new command is its file, one
 * line here and one in that list. */
#ifndef TB_CMD_COMMANDS_H
#define TB_CMD_COMMANDS_H

#include "cli/command.h"

extern const struct cli_command status_command, list_command, check_command, download_command,
	install_command, update_command, install_local_command, on_command, off_command,
	keep_command, rollback_command, boot_tick_command, remove_command, forget_command, verify_command,
	smoke_command, bench_command, doctor_command, notes_command, takeover_command,
	auto_check_command, crashes_command, pack_command;
extern const struct cli_command app_command, app_set_command, app_unset_command,
	app_list_command, app_refresh_command, app_clear_command;
extern const struct cli_command flatpak_command, flatpak_export_command, flatpak_list_command,
	flatpak_unexport_command;
extern const struct cli_command bisect_command;
extern const struct cli_command cts_command, cts_update_command, cts_install_local_command,
	cts_list_command, cts_remove_command;

#endif
