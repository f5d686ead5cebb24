/* <store>/marked (marks.h). */
#include "store/marks.h"
#include "store/layout.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/jsontext.h"
#include "common/reasons.h"
#include "common/utf8.h"
#include "common/version_name.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static void mark_free(struct mark *k)
{
	free(k->version);
	free(k->reason);
	free(k->why);
	free(k->digest);
}

void marks_free(struct marks *m)
{
	for (size_t i = 0; i < m->n; i++)
		mark_free(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* A digest as the release list gives it: "" or "sha256:" and 64 lowercase hex digits. */
static int digest_ok(const char *d)
{
	if (!*d)
		return 1;
	if (strncmp(d, "sha256:", 7) || strlen(d) != 7 + 64)
		return 0;
	return strspn(d + 7, "0123456789abcdef") == 64;
}

/* A sentence: valid UTF-8 without control characters, bounded (what writers write). */
static int why_ok(const char *w)
{
	size_t n = strlen(w);
	if (n > MARK_WHY_MAX || !utf8_valid(w, n))
		return 0;
	for (const unsigned char *p = (const unsigned char *)w; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static const char *member_str(json_object *o, const char *key, int *bad)
{
	json_object *m;
	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_string) ||
	    (size_t)json_object_get_string_len(m) != strlen(json_object_get_string(m))) {
		*bad = 1; /* a NUL inside would make it another string */
		return "";
	}
	return json_object_get_string(m);
}

int marks_parse(const char *text, size_t len, struct marks *m)
{
	memset(m, 0, sizeof *m);
	if (len > MARKS_MAX_BYTES || memchr(text, '\0', len))
		return -1;
	json_tokener *tok = json_tokener_new();
	/* UTF-8 checked by json-c, not its strict mode: json-c 0.18 (Debian 13) refuses every byte
	 * above 0x7f in a string in strict mode, and a sentence with a dash would make the whole
	 * record unreadable; the record's shape is checked member by member below */
	json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
	json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	int whole = root && json_tokener_get_error(tok) == json_tokener_success &&
		    json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	json_object *list;
	if (!whole || !json_object_is_type(root, json_type_object) || json_object_object_length(root) != 1 ||
	    !json_object_object_get_ex(root, "marked", &list) || !json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) > MARKS_MAX) {
		json_object_put(root);
		return -1;
	}
	int bad = 0;
	size_t n = json_object_array_length(list);
	m->v = xcalloc(n ? n : 1, sizeof *m->v);
	for (size_t i = 0; i < n && !bad; i++) {
		json_object *k = json_object_array_get_idx(list, i), *size, *refused;
		if (!json_object_is_type(k, json_type_object) || json_object_object_length(k) != 6 ||
		    !json_object_object_get_ex(k, "size", &size) || !json_object_is_type(size, json_type_int) ||
		    json_object_get_int64(size) < 0 ||
		    !json_object_object_get_ex(k, "refused", &refused) ||
		    !json_object_is_type(refused, json_type_boolean)) {
			bad = 1;
			break;
		}
		const char *version = member_str(k, "version", &bad), *reason = member_str(k, "reason", &bad),
			   *why = member_str(k, "why", &bad), *digest = member_str(k, "digest", &bad);
		if (bad || !version_name_ok(version) || tb_reason_find(reason) < 0 || !why_ok(why) ||
		    !digest_ok(digest) || marks_find(m, version)) {
			bad = 1;
			break;
		}
		m->v[m->n++] = (struct mark){xstrdup(version), xstrdup(reason), xstrdup(why), xstrdup(digest),
					     (uint64_t)json_object_get_int64(size),
					     json_object_get_boolean(refused)};
	}
	json_object_put(root);
	if (bad) {
		marks_free(m);
		return -1;
	}
	return 0;
}

json_object *marks_array(const struct marks *m, int with_size)
{
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < m->n; i++) {
		const struct mark *k = &m->v[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "version", json_object_new_string(k->version));
		json_object_object_add(o, "reason", json_object_new_string(k->reason));
		json_object_object_add(o, "why", json_object_new_string(k->why));
		json_object_object_add(o, "digest", json_object_new_string(k->digest));
		if (with_size)
			json_object_object_add(o, "size", json_object_new_int64((int64_t)k->size));
		json_object_object_add(o, "refused", json_object_new_boolean(k->refused));
		json_object_array_add(list, o);
	}
	return list;
}

char *marks_format(const struct marks *m)
{
	json_object *root = json_object_new_object();
	json_object_object_add(root, "marked", marks_array(m, 1));
	char *text = xasprintf("%s\n", json_out(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return text;
}

int marks_load(const struct store *s, struct marks *m)
{
	memset(m, 0, sizeof *m);
	/* reached as the layout says; never through a link planted there, never past the cap
	 * (docs/design.md §3): anything but a file there reads as damaged marks */
	struct tb_error refused = {0};
	char *path = store_reach_file(s, STORE_MARKS, 0, &refused);
	if (!path)
		return 1;
	size_t len;
	char *text = read_small_file_nofollow(path, MARKS_MAX_BYTES, &len);
	int rc = 0;
	if (text)
		rc = marks_parse(text, len, m) ? 1 : 0;
	else
		rc = path_exists(path) ? 1 : 0;
	free(text);
	free(path);
	return rc;
}

int marks_save(struct store *s, const struct marks *m, struct tb_error *e)
{
	char *path = store_reach_file(s, STORE_MARKS, 0, e);
	if (!path)
		return e->code;
	char *text = marks_format(m);
	int rc = atomic_write_file(path, text, strlen(text), 0644, e);
	free(text);
	free(path);
	return rc;
}

const struct mark *marks_find(const struct marks *m, const char *version)
{
	for (size_t i = 0; version && i < m->n; i++)
		if (!strcmp(m->v[i].version, version))
			return &m->v[i];
	return NULL;
}

int marks_clear(struct marks *m, const char *version)
{
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->v[i].version, version))
			continue;
		mark_free(&m->v[i]);
		memmove(&m->v[i], &m->v[i + 1], (m->n - i - 1) * sizeof *m->v);
		m->n--;
		return 1;
	}
	return 0;
}

int marks_set(struct marks *m, const char *version, const char *reason, const char *why,
	      const char *digest, uint64_t size, int refused)
{
	if (!version || !version_name_ok(version))
		return -1;
	marks_clear(m, version);
	while (m->n >= MARKS_MAX) /* the oldest go */
		marks_clear(m, m->v[0].version);
	char *w = xstrdup(why ? why : "");
	for (char *p = w; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	/* never cut inside a character; bytes that are not UTF-8 become U+FFFD, as json_out
	 * writes them, so the file reads back as written */
	w[utf8_cut(w, strlen(w), MARK_WHY_MAX)] = '\0';
	if (!utf8_valid(w, strlen(w))) {
		json_object *j = json_object_new_string(w);
		const char *t = json_out(j, JSON_C_TO_STRING_PLAIN);
		json_object *back = json_tokener_parse(t);
		free(w);
		w = xstrdup(back ? json_object_get_string(back) : "");
		w[utf8_cut(w, strlen(w), MARK_WHY_MAX)] = '\0';
		json_object_put(back);
		json_object_put(j);
	}
	m->v = xrealloc(m->v, (m->n + 1) * sizeof *m->v);
	m->v[m->n++] = (struct mark){xstrdup(version), xstrdup(reason && tb_reason_find(reason) >= 0 ? reason : tb_reason_id(TB_R_FAILED)),
				     w, xstrdup(digest && digest_ok(digest) ? digest : ""), size, !!refused};
	return 0;
}

int marks_record(struct store *s, const char *version, const char *reason, const char *why,
		 const char *digest, uint64_t size, int refused, struct tb_error *e)
{
	struct marks m;
	marks_load(s, &m); /* a damaged file is replaced */
	int rc = TB_OK;
	if (marks_set(&m, version, reason, why, digest, size, refused) == 0)
		rc = marks_save(s, &m, e);
	marks_free(&m);
	return rc;
}

int marks_forget(struct store *s, const char *version, struct tb_error *e)
{
	struct marks m;
	int damaged = marks_load(s, &m);
	int had = marks_clear(&m, version);
	int rc = had || damaged ? marks_save(s, &m, e) : TB_OK;
	marks_free(&m);
	return rc ? -1 : had;
}
