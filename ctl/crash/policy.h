/* What crash evidence does (docs/design.md §18), under the store's lock: the journal read from
 * the record's cursor on (each entry once), the events attributed, and crash_policy applied.
 * During a trial of V (on, V current and not kept): an attributed crash of an application on V
 * pins it to previous (the distribution's Mesa when there is none) with a system rule marked
 * automatic in the record; crashes of two or more applications end the trial by the life
 * cycle's rollback (off when there is no previous). Outside a trial events are recorded and
 * pin nothing, unless crash_policy = pin-always; crash_policy = report never acts. */
#ifndef TB_CRASH_POLICY_H
#define TB_CRASH_POLICY_H

#include "crash/attrib.h"
#include "lifecycle/lifecycle.h"

#include <json-c/json.h>

struct crash_apply_result {
	int read;          /* journal entries looked at */
	int attributed;    /* events attributed to a version */
	int unattributed;
	int forged;        /* entries with systemd-coredump's MESSAGE_ID it did not write: ignored */
	int not_counted;   /* attributed events that act on nothing: kernel lines, dated before the trial */
	json_object *events;  /* the new events (attributed and not), as crashes --json lists them */
	json_object *pins;    /* the automatic pins made now: {"app","choice","version","cursor","reason"} */
	char rolled_back[80]; /* the version whose trial was ended, "" when none */
	char kept[80];        /* keep_after_clean_boots kept this version, "" when not */
	struct strbuf said;   /* a sentence a line for people */
};
void crash_apply_result_free(struct crash_apply_result *r);

/* Reads what is new and applies the policy; boot_tick says a start is about to be counted:
 * with keep_after_clean_boots = N, a trial whose N-th start this is, with no attributed crash
 * of its version, is kept (before boot-tick counts it). -1 with e set when the journal cannot be read or the store not
 * written; the store is then as it was, but for pins already made (each said in r). */
int crash_apply(const struct lc_ctx *c, int boot_tick, struct crash_apply_result *r,
		struct tb_error *e);

/* A user's own (docs/design.md §18, "Whose crash counts"): the caller's crashes only
 * (COREDUMP_UID the caller's), read from the caller's own record's cursor on, pin the
 * application in the caller's rules (sc, its lock held) as the system's policy would in the
 * system's; nothing else is done (no trial is ended). The record is
 * crash_record_user_path(sc), beside the rules. */
int crash_apply_user(const struct store *s, const struct config *cfg, const struct app_scope *sc,
		     struct crash_apply_result *r, struct tb_error *e);
char *crash_record_user_path(const struct app_scope *sc);

/* One event as JSON: version, executable, app, kind, source, time (ISO 8601, UTC), usec,
 * cursor, pid, attributed, how, object. */
json_object *crash_event_json(const struct crash_event *ev);

/* The reason id of an automatic pin (docs/design.md §9). */
#define CRASH_PIN_REASON tb_reason_id(TB_R_CRASH_PINNED)
/* The reason id of a trial the policy ended. */
#define CRASH_ROLLBACK_REASON tb_reason_id(TB_R_TRIAL_CRASHED)

#endif
