/* Reading desktop entries, the originals and ours (ctl/apprules/desktop_entry.h). */
#include "apprules/desktop_entry.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

GKeyFile *load_entry(const char *text, size_t len)
{
	GKeyFile *kf = g_key_file_new();
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS,
				       NULL)) {
		g_key_file_free(kf);
		return NULL;
	}
	return kf;
}

int is_ours(GKeyFile *kf)
{
	gchar *mark = g_key_file_get_value(kf, DE, KEY_MARK, NULL);
	int ours = mark && !strcmp(mark, OVERRIDE_MARK);
	g_free(mark);
	return ours;
}

/* A file of ours, read without following a link at its own name when nofollow. */
GKeyFile *read_entry(const char *path, int nofollow, size_t max)
{
	size_t len = 0;
	char *text = nofollow ? read_small_file_nofollow(path, max, &len) : read_small_file(path, max, &len);
	if (!text)
		return NULL;
	GKeyFile *kf = memchr(text, '\0', len) || !g_utf8_validate(text, (gssize)len, NULL)
			       ? NULL : load_entry(text, len);
	free(text);
	return kf;
}

char *group_value(GKeyFile *kf, const char *key, int unescape)
{
	gchar *v = unescape ? g_key_file_get_string(kf, DE, key, NULL) : g_key_file_get_value(kf, DE, key, NULL);
	char *copy = v ? xstrdup(v) : NULL;
	g_free(v);
	return copy;
}

int desktop_file_sha256(const char *path, char hex[65])
{
	size_t len = 0;
	char *text = read_small_file(path, DESKTOP_MAX_BYTES, &len);
	if (!text)
		return -1;
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, text, len);
	sha256_end(h, hex);
	free(text);
	return 0;
}
