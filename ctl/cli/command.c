/* The engine's own rows and the lookups over a program's entries (ctl/cli/command.h). */
#include "cli/command.h"
#include "common/storelayout.h"

#include <string.h>

const struct cli_option cli_global_options[] = {
	CLI_STRING("--store", "DIR", struct cli_globals, store,
		   "the store to use (default $" STORE_ROOT_VAR ", else " STORE_DEFAULT_ROOT ")"),
	CLI_STRING("--config", "FILE", struct cli_globals, config,
		   "the configuration file (default $TB323FU_MESA_CONFIG, else " TB_SYSCONFDIR "/tb323fu/mesa.conf)"),
	CLI_FLAG("--json", struct cli_globals, json, "print one JSON object instead of sentences"),
	CLI_CHOICE("--progress", "MODE", "auto|bar|json|none", struct cli_globals, progress,
		   "auto, bar, json (JSON lines on stderr) or none"),
	CLI_FLAG("--wait", struct cli_globals, wait, "wait for another writer instead of exiting 3 (busy)"),
	CLI_FLAG("--quiet", struct cli_globals, quiet,
		 "(or -q) for scripts: no sentence on success and no progress; errors are still said, exit codes are the same"),
	{.name = "--help", .help = "show help and exit", .kind = OPT_HELP},
	{.name = "--version", .help = "print the program's version and exit", .kind = OPT_VERSION},
	CLI_END,
};

const struct cli_command *cli_command_find(const struct cli_program *p, const char *name)
{
	for (size_t i = 0; i < p->count; i++)
		if (!strcmp(p->commands[i]->name, name))
			return p->commands[i];
	return NULL;
}

const struct cli_command *cli_sub_find(const struct cli_command *group, const char *word)
{
	size_t n = strlen(group->name);
	for (const struct cli_command *const *sub = group->subs; sub && *sub; sub++)
		if (!strcmp((*sub)->name + n + 1, word))
			return *sub;
	return NULL;
}

const struct cli_option *cli_option_find(const struct cli_option *list, const char *name)
{
	size_t n = strcspn(name, "=");
	for (; list && list->name; list++)
		if (strlen(list->name) == n && !strncmp(list->name, name, n))
			return list;
	return NULL;
}
