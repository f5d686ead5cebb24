/* The store's record of crash evidence (docs/design.md §18): <store>/crash-record, a JSON
 * object of at most CRASH_RECORD_MAX bytes written by rename under the store's lock:
 * "cursor" (the journal cursor of the last entry read; each entry is read once), "events"
 * (the last attributed events, newest last), "auto_pins" (the application rules the policy
 * made: app, choice, version, cursor, usec), "trial" ({"version","apps"}: the applications
 * that crashed on the version on trial) and "rolled_back" (the last trial the policy ended). */
#ifndef TB_CRASH_RECORD_H
#define TB_CRASH_RECORD_H

#include "store/store.h"
#include "base/error.h"

#include <json-c/json.h>

#define CRASH_RECORD_MAX (256 * 1024)
#define CRASH_RECORD_EVENTS 100

/* The record, or an empty object when there is none or it is damaged (not a JSON object, or a
 * member of another type than the writer writes) (then *damaged is 1 when
 * damaged is not NULL; the next save replaces it). Never NULL; put it when done. */
json_object *crash_record_load(const struct store *s, int *damaged);
/* Writes rec (its oldest events dropped to stay under the cap). */
int crash_record_save(struct store *s, json_object *rec, struct tb_error *e);

/* The same for a user's own record (crash_policy's --user, docs/design.md §18) at path. */
json_object *crash_record_load_at(const char *path, int *damaged);
int crash_record_save_at(const char *path, json_object *rec, struct tb_error *e);

/* The member key of rec of type t, added empty when missing or of another type. */
json_object *crash_record_member(json_object *rec, const char *key, json_type t);
/* A string member, "" when absent. */
const char *crash_record_str(json_object *o, const char *key);

#endif
