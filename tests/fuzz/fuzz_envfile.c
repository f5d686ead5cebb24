/* The launcher's env-file reader on hostile bytes: it must refuse or accept without reading
 * out of bounds, and what it accepts must be what sh and environment.d would read too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/envfile.h"
#include "common/storepath.h"

static struct env_list list;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > ENVFILE_MAX_BYTES)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	struct env_problem why;
	if (envfile_parse(text, size, &list, &why) == 0) {
		if (list.count > ENVFILE_MAX_VARS)
			abort();
		for (size_t i = 0; i < list.count; i++) {
			const struct env_var *v = &list.vars[i];
			if (!env_name_ok(v->name, strlen(v->name)) ||
			    !env_value_ok(v->value, strlen(v->value)) ||
			    (v->prepend && (!*v->value || strcmp(v->name, "LD_LIBRARY_PATH") != 0)))
				abort();
			char out[2 * 65536 + 2];
			long n = env_var_apply(v, "/inherited", out, sizeof out);
			if (n < 0 || (size_t)n != strlen(out))
				abort();
			/* The library path list a run cleans with the same value. */
			const char *dirs[] = {"/s", v->value};
			if (path_list_without(v->value, dirs, 2, out, sizeof out) < 0)
				abort();
			char version[80];
			store_version_of(v->value, "/s", version, sizeof version);
		}
	} else if (!why.what) {
		abort();
	}
	free(text);
	return 0;
}
