/* Messages of the launcher: one sentence to stderr, written with write(2) so the launch
 * path never touches stdio. */
#ifndef TB_MESSAGE_H
#define TB_MESSAGE_H

#include "common/reasons.h"

/* Writes "tb323fu-mesa: " and the strings (up to a NULL) and a newline to stderr. */
void say_error(const char *first, ...) __attribute__((sentinel));

/* The same for a failure raised by its reason (a row of common/reasons.h: its id for --json,
 * its exit code returned): `return fail(TB_R_NOT_INSTALLED, "…", NULL);`. An exit code where
 * the reason goes does not compile (TB_REASON_ARG). */
int (fail)(enum tb_reason reason, const char *first, ...) __attribute__((sentinel));
#define fail(reason, ...) (fail)(TB_REASON_ARG(reason), __VA_ARGS__)

/* The --store the user gave (NULL: none): every "tb323fu-ctl mesa" a sentence names becomes
 * "tb323fu-ctl --store DIR mesa", quoted for a shell where DIR needs it, so a hint acts on the
 * store the user was working on (docs/design.md §5). */
void message_store(const char *given);

/* With --json (never on run's path): a failure also prints one object on stdout, {"ok":false,
 * "message","reason"} (docs/design.md §12), unless an answer was already printed
 * (message_json_answered). Calls the stdio of the report commands. */
void message_json(int on);
void message_json_answered(void);
/* Whether --json is on. */
int message_json_on(void);

#endif
