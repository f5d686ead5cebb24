/* Who may change the store. A command that changes it, run by a user who cannot write it,
 * says so before it touches anything (after what the store's state answers,
 * ctl/cli/cli_state_first.h): that it needs root, and the command to type. */
#ifndef TB_CLI_ACCESS_H
#define TB_CLI_ACCESS_H

#include "cli/cli.h"

/* 0 when this user can create or change dir; else the errno that would stop it. */
int cli_store_access(const char *dir);

/* Returns -1 when the command may go on (the store is writable, or will be creatable);
 * otherwise fills o and returns its exit code. name: the command; line: the whole command
 * line as typed (argv[1..]), for the `sudo …` it suggests. What the store's state answers
 * came first (ctl/cli/cli_state_first.h). */
int cli_writer_preflight(struct cli *c, const char *name, int line_argc, char **line,
			 struct outcome *o);

#endif
