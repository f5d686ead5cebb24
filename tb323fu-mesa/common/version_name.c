/* Version names (see version_name.h). No locale and no libc beyond strlen: the launcher is
 * static and small. */
#include "common/version_name.h"

#include <string.h>

int version_name_ok(const char *v)
{
	size_t n = strlen(v);
	if (n == 0 || n > 64 || v[0] < '0' || v[0] > '9')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = v[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '+' || c == '-'))
			return 0;
	}
	return 1;
}
