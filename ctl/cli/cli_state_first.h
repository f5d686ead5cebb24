/* What the store's state answers before a writer takes the lock (docs/design.md §11): a
 * store that is not there (only the commands that bring something into one make it), and,
 * for a user who may not write the store, a command that would change nothing (already off,
 * already current, nothing on trial), which the engine answers alike under the lock. */
#ifndef TB_CLI_STATE_FIRST_H
#define TB_CLI_STATE_FIRST_H

#include "cli/cli.h"

struct cli_command;
/* -1: the command goes on; else o holds the answer and its exit code is returned. */
int cli_state_first(struct cli *c, const struct cli_command *cmd, const void *opts,
		    struct outcome *o);

#endif
