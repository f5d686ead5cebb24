/* libFuzzer: an override entry made from a hostile original (docs/design.md §16). Whatever
 * original is accepted, ours is UTF-8 that GLib reads back, carries the marker and the rule,
 * and its Exec is the launcher's prefix before the original's value, unchanged. */
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apprules/desktop_entry.h"
#include "apprules/override_entry.h"

#define PREFIX "/usr/bin/tb323fu-mesa run --version 2026.10.06 -- "

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct override_spec spec = {"/usr/bin/tb323fu-mesa", NULL, "2026.10.06"};
	char *out = NULL;
	size_t n = 0;
	struct tb_error e = {0};
	if (override_build((const char *)data, size, "/usr/share/applications/x.desktop",
			   "0000000000000000000000000000000000000000000000000000000000000000", "x.desktop",
			   &spec, &out, &n, &e) != 0)
		return 0;
	GKeyFile *orig = g_key_file_new(), *ours = g_key_file_new();
	if (!g_utf8_validate(out, (gssize)n, NULL) || !g_key_file_load_from_data(ours, out, n, 0, NULL) ||
	    !g_key_file_load_from_data(orig, (const char *)data, size, 0, NULL))
		abort();
	gchar *was = g_key_file_get_value(orig, "Desktop Entry", "Exec", NULL);
	gchar *now = g_key_file_get_value(ours, "Desktop Entry", "Exec", NULL);
	gchar *mark = g_key_file_get_value(ours, "Desktop Entry", "X-TB323FU-Mesa-Override", NULL);
	if (!was || !now || !mark || strcmp(mark, OVERRIDE_MARK) || strncmp(now, PREFIX, strlen(PREFIX)) ||
	    strcmp(now + strlen(PREFIX), was) || g_key_file_has_key(ours, "Desktop Entry", "DBusActivatable", NULL))
		abort();
	g_free(was);
	g_free(now);
	g_free(mark);
	g_key_file_free(orig);
	g_key_file_free(ours);
	free(out);
	return 0;
}
