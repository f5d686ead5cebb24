/* Every JSON text the control tool writes (stdout, progress lines, the store's files) is
 * made here: whatever a string holds (a server's message, a MANIFEST value, a driver's or a
 * test program's words), the text is valid UTF-8 and every number is finite, as D-Bus and
 * strict parsers require. */
#ifndef TB_JSONTEXT_H
#define TB_JSONTEXT_H

#include <json-c/json.h>

/* o as JSON text (json_object_to_json_string_ext's flags; the text lives as long as o does).
 * First, in place: bytes of strings and keys that are not UTF-8 become U+FFFD, and a number
 * that is not finite (a ratio of 0 and 0, of 1 and 0) is written as null. */
const char *json_out(json_object *o, int flags);

#endif
