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

int flatpak_path_extension(const char *path, char *out, size_t n)
{
	static const char lib[] = "/usr/lib/", gl[] = "/GL/", prefix[] = FLATPAK_NAME_PREFIX;
	size_t k = 0;
	while (lib[k] && path[k] == lib[k])
		k++;
	if (lib[k])
		return 0;
	const char *p = path + k;
	while (*p && *p != '/') /* the triplet */
		p++;
	for (k = 0; gl[k]; k++)
		if (p[k] != gl[k])
			return 0;
	p += k;
	const char *end = p;
	while (*end && *end != '/')
		end++;
	if (*end != '/' || end == p)
		return 0;
	int ours = 1;
	for (k = 0; prefix[k]; k++)
		if (p + k >= end || p[k] != prefix[k])
			ours = 0;
	const char *from = ours ? p + k : p;
	size_t o = 0;
	for (; from < end; from++) {
		if (o + 1 >= n)
			return 0;
		out[o++] = ours && *from == '_' ? '.' : *from;
	}
	out[o] = '\0';
	return ours ? 1 : 2;
}
