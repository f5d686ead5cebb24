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

/* The sentences of a command that changed nothing, the same from here and from the body. */
void cli_say_already_on(struct outcome *o, const struct store *s, const char *version);
/* The one sentence on, status and doctor say of a store no login reads (docs/design.md,
 * Glossary: on): "no login reads the store S (LINK is missing), so programs keep the
 * distribution's Mesa; …". Appends it to sb and returns 1 when no login reads s; 0 (nothing
 * appended) when logins read it. */
struct strbuf;
int cli_say_no_login(const struct store *s, struct strbuf *sb);
void cli_say_already_off(struct outcome *o);
void cli_say_already_current(struct outcome *o, const char *version);

#endif
