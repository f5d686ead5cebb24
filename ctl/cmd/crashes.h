/* What the crash evidence (docs/design.md §18, ctl/cmd/crashes.c) gives the other commands:
 * boot-tick and auto-check read the journal and apply the policy; status and doctor say what
 * the record holds. */
#ifndef TB_CMD_CRASHES_H
#define TB_CMD_CRASHES_H

#include <json-c/json.h>

#include "cli/cli.h"

struct strbuf;
/* boot-tick (before it counts the start) and auto-check: the journal read from the last
 * cursor, crash_policy applied; JSON "crashes" added to o, its sentences to said (which
 * crashes_said appends to o's message once the command said its own). A failure is said,
 * never the command's. */
void crashes_after(struct cli *c, struct store *s, struct outcome *o, int boot_tick,
		   struct strbuf *said);
void crashes_said(struct outcome *o, struct strbuf *said);
/* status and doctor: the record's events and automatic pins (lines for people; obj, when not
 * NULL, gets "events", "auto_pins", "rolled_back"). */
void crashes_summary(const struct store *s, json_object *obj, struct strbuf *lines);
/* doctor: the desktop's applications the loaders will not switch (AT_SECURE), each with the
 * way that works for it. */
void secure_programs_summary(const struct store *s, json_object *arr, struct strbuf *lines);

#endif
