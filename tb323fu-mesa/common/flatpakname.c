/* A version's Flatpak extension name (common/flatpakname.h). */
#include "common/flatpakname.h"

int flatpak_export_name(const char *version, char *out, size_t n)
{
	static const char prefix[] = FLATPAK_NAME_PREFIX;
	size_t o = 0;
	for (const char *p = prefix; *p; p++) {
		if (o + 1 >= n)
			return 0;
		out[o++] = *p;
	}
	if (!version || !*version)
		return 0;
	for (const char *p = version; *p; p++) {
		char c = *p;
		int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    c == '-';
		if (c == '.')
			c = '_';
		else if (!plain)
			return 0;
		if (o + 1 >= n)
			return 0;
		out[o++] = c;
	}
	out[o] = '\0';
	return 1;
}
