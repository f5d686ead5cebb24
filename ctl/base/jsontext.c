/* JSON text that is valid UTF-8 with finite numbers (see jsontext.h). */
#include "base/jsontext.h"
#include "base/alloc.h"
#include "common/utf8.h"

#include <json-c/printbuf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* s with every byte that is no UTF-8 character replaced by U+FFFD; *out_len its length. */
static char *repaired(const char *s, size_t len, size_t *out_len)
{
	char *out = xmalloc(3 * len + 1), *o = out;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		int n = utf8_len(p + i, len - i);
		if (n) {
			memcpy(o, p + i, (size_t)n);
			o += n, i += (size_t)n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3, i++;
		}
	}
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
}

static int write_null(json_object *o, struct printbuf *pb, int level, int flags)
{
	return printbuf_strappend(pb, "null");
}

static void make_safe(json_object *o);

/* Keys are strings too: one that is not UTF-8 is put back under its repaired name. */
static void repair_keys(json_object *o)
{
	size_t n = 0, cap = 0;
	char **bad = NULL;
	json_object_object_foreach(o, key, val) {
		(void)val;
		if (utf8_valid(key, strlen(key)))
			continue;
		if (n == cap)
			bad = xrealloc(bad, (cap = cap ? 2 * cap : 8) * sizeof *bad);
		bad[n++] = xstrdup(key);
	}
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *fixed = repaired(bad[i], strlen(bad[i]), &len);
		json_object *moved = json_object_get(json_object_object_get(o, bad[i]));
		json_object_object_del(o, bad[i]);
		json_object_object_add(o, fixed, moved);
		free(fixed);
		free(bad[i]);
	}
	free(bad);
}

static void make_safe(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_string: {
		const char *s = json_object_get_string(o);
		size_t len = (size_t)json_object_get_string_len(o);
		if (!utf8_valid(s, len)) {
			char *fixed = repaired(s, len, &len);
			json_object_set_string_len(o, fixed, (int)len);
			free(fixed);
		}
		break;
	}
	case json_type_double:
		if (!isfinite(json_object_get_double(o)))
			json_object_set_serializer(o, write_null, NULL, NULL);
		break;
	case json_type_object: {
		repair_keys(o);
		json_object_object_foreach(o, key, val) {
			(void)key;
			make_safe(val);
		}
		break;
	}
	case json_type_array:
		for (size_t i = 0, n = json_object_array_length(o); i < n; i++)
			make_safe(json_object_array_get_idx(o, i));
		break;
	default:
		break;
	}
}

const char *json_out(json_object *o, int flags)
{
	make_safe(o);
	return json_object_to_json_string_ext(o, flags);
}
