/* Small JSON files the store keeps (smoke results, suite results and caches). */
#ifndef TB_JSONFILE_H
#define TB_JSONFILE_H

#include <json-c/json.h>
#include <stddef.h>

/* The object in the regular file at path (at most max bytes), or NULL when it is missing,
 * too large, not JSON or not an object. */
json_object *json_file_read_object(const char *path, size_t max);

#endif
