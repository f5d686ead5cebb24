/* Reading the store's small JSON files (see jsonfile.h). */
#include "store/jsonfile.h"
#include "base/fs.h"

#include <stdlib.h>

json_object *json_file_read_object(const char *path, size_t max)
{
	size_t len;
	char *text = read_small_file(path, max, &len);
	if (!text)
		return NULL;
	json_object *o = json_tokener_parse(text);
	free(text);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}
