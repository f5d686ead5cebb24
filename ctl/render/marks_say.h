/* How status, list and doctor show the versions the store remembers (docs/design.md §12):
 * one sentence a mark, and the JSON array `marked`. */
#ifndef TB_MARKS_SAY_H
#define TB_MARKS_SAY_H

#include <json-c/json.h>

#include "base/strbuf.h"
#include "store/marks.h"

/* [{"version","reason","why","refused","digest"}], oldest first. */
json_object *marks_json(const struct marks *m);
/* "Mesa V is marked REASON here (WHY): update skips it …", one a line, each after prefix. */
void marks_say(struct strbuf *sb, const char *prefix, const struct marks *m);

#endif
