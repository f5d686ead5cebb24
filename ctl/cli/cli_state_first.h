/* What the store's state answers before a writer takes the lock (docs/design.md §11): a
 * store that is not there (only the commands that bring something into one make it), and,
 * for a user who may not write the store, a command that would change nothing (already off,
 * already current, nothing on trial), which the engine answers alike under the lock. */
#ifndef TB_CLI_STATE_FIRST_H
#define TB_CLI_STATE_FIRST_H

#include "cli/cli.h"

struct cli_command;
/* Reads the store at c->store_root into s (a reader's open: s closed before). -1: the
 * command goes on, s open as a reader for its session to carry on (session_open), or closed
 * when it could not be read (the writer's open then says why); else o holds the answer and
 * its exit code is returned. The caller closes s. */
int cli_state_first(struct cli *c, const struct cli_command *cmd, const void *opts,
		    struct store *s, struct outcome *o);

#endif
