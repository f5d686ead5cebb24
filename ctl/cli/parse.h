/* The one reader of tb323fu-ctl's command line: global options anywhere, the command, its
 * options and operand, all as the program's entries (ctl/cli/command.h) describe them. It never prints: what the
 * line asks for (run, help, version, a usage error) is handed back. */
#ifndef TB_CLI_PARSE_H
#define TB_CLI_PARSE_H

#include "cli/command.h"

enum cli_action {
	CLI_RUN,         /* run cmd with opts */
	CLI_HELP,        /* show cmd's help (NULL: the top help) on stdout */
	CLI_VERSION,     /* print the program's version */
	CLI_NO_COMMAND,  /* nothing after the global options: the top help on stderr, exit 2 */
	CLI_USAGE,       /* a usage error: error is the sentence */
};

struct cli_line {
	enum cli_action action;
	struct cli_globals g;
	const struct cli_command *cmd; /* once known (a usage error may name it) */
	void *opts; /* the command's own options struct (cmd->opts_size bytes, zeroed) */
	int writer; /* the store is opened for writing (the entry's open, or an option's writes) */
	int writes; /* the command changes the store (the entry's writes, unless an option's
		     * leaves it alone): its write access is checked first */
	int only_read; /* an option that leaves the store alone was given: one that writes,
			* before or after it, does not open it for writing (crashes --apply --user) */
	char *error;
};

/* Reads argv into l; called as tb323fu-ctl-mesa, the line has no `mesa`. */
void cli_parse(const struct cli_program *p, int argc, char **argv, struct cli_line *l);
void cli_line_free(struct cli_line *l);

#endif
