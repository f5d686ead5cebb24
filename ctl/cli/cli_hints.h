/* The commands a sentence names keep the --store and --config they were given: one place
 * rewrites every sentence (human and JSON `message`) before it is said (docs/design.md §11). */
#ifndef TB_CLI_HINTS_H
#define TB_CLI_HINTS_H

#include "base/strbuf.h"

/* Appends " WORD" to sb, single-quoted for a shell when it holds anything but plain
 * characters. */
void sb_append_shell_word(struct strbuf *sb, const char *word);

/* msg with every "tb323fu-ctl mesa" (a command for the user to type) given the options
 * store and config (either NULL or "": left out) as "tb323fu-ctl --store DIR --config FILE
 * mesa". A command line repeated whole (`sudo tb323fu-ctl --store DIR mesa …`) has no
 * "tb323fu-ctl mesa" left to match. Returns a new string (free it), or NULL when nothing
 * needed changing. */
char *cli_hints_keep(const char *msg, const char *store, const char *config);

/* The same for every string of a JSON answer (doctor's problems, list's marks): in place. */
struct json_object;
void cli_hints_keep_json(struct json_object *j, const char *store, const char *config);

#endif
