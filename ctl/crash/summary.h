/* What the crash evidence (docs/design.md §18) gives the commands that are not `crashes`:
 * boot-tick and auto-check read the journal and apply the policy before their own work;
 * status and doctor say what the record holds and which applications the loaders will not
 * switch. The words are the evidence's; the commands place them. */
#ifndef TB_CRASH_SUMMARY_H
#define TB_CRASH_SUMMARY_H

#include "lifecycle/lifecycle.h"
#include "base/strbuf.h"

#include <json-c/json.h>

/* boot-tick (before it counts the start, boot_tick 1) and auto-check: the journal read from
 * the last cursor and crash_policy applied. Returns the JSON "crashes" object ("events",
 * "pins", "rolled_back", "rolled_back_reason", "kept"; "error" when the evidence was not
 * read) and appends its sentences to said, a line each. A failure is said, never the
 * command's: its work goes on and the evidence waits for the next run. */
json_object *crash_after(const struct lc_ctx *c, int boot_tick, struct strbuf *said);

/* status and doctor: the record's events and the automatic pins still in force, a line each
 * for people; obj, when not NULL, gets "events", "auto_pins", "rolled_back". */
void crash_summary(const struct store *s, json_object *obj, struct strbuf *lines);

/* doctor: the desktop's applications the loaders will not switch (AT_SECURE), each with the
 * way that works for it: a line each, and an object each in arr. */
void crash_secure_programs(const struct store *s, json_object *arr, struct strbuf *lines);

#endif
