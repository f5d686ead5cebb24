/* How doctor's health report (health/health.h) is rendered: its facts under the JSON keys of
 * docs/design.md §5, and each finding in words (a mark in the words status and list use). */
#ifndef TB_HEALTH_SAY_H
#define TB_HEALTH_SAY_H

#include <json-c/json.h>

#include "base/strbuf.h"
#include "health/health.h"

/* "store", "current", "previous", "enabled", "trial", "smoke", "marked", "boot_tick_enabled"
 * (when looked at), "env", the loaders, the ICDs, "host", "glibc_floor",
 * "needs_ld_library_path" and "build_record" (when read), added to fields in that order. */
void health_facts_json(const struct health_report *r, json_object *fields);
/* The finding's sentence (a problem's without its "problem: "), appended to sb. */
void health_finding_say(struct strbuf *sb, const struct health_finding *f);

#endif
