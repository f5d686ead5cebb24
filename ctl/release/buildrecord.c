/* A release's build record and the trusted-comment words that name it
 * (ctl/release/buildrecord.h). The record is JSON, read with json-c. */
#include "release/buildrecord.h"
#include "release/minisign.h"
#include "store/manifest.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Printable ASCII, 1 to BUILD_RECORD_MAX_VALUE bytes: safe to show on a terminal as it is. */
static int plain_text(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > BUILD_RECORD_MAX_VALUE)
		return 0;
	for (const char *p = s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return 0;
	return 1;
}

/* The string member key of o, copied when it is plain text; NULL otherwise. */
static char *text_member(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	const char *s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(s) || !plain_text(s))
		return NULL;
	return xstrdup(s);
}

static int int_member(json_object *o, const char *key, int64_t min, int64_t max, int64_t *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	errno = 0;
	int64_t n = json_object_get_int64(v);
	if (errno || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

static int read_sources(json_object *root, struct build_record *r)
{
	json_object *arr;
	if (!json_object_object_get_ex(root, "sources", &arr) || !json_object_is_type(arr, json_type_array))
		return -1;
	size_t n = json_object_array_length(arr);
	if (n > BUILD_RECORD_MAX_ITEMS)
		return -1;
	r->sources = xcalloc(n ? n : 1, sizeof *r->sources);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(o, json_type_object))
			return -1;
		struct build_item *it = &r->sources[r->n_sources++];
		it->name = text_member(o, "name");
		it->value = text_member(o, "sha256");
		if (!it->name || !it->value || !is_sha256_hex(it->value))
			return -1;
	}
	return 0;
}

static int read_tools(json_object *root, struct build_record *r)
{
	json_object *obj;
	if (!json_object_object_get_ex(root, "toolchain", &obj) || !json_object_is_type(obj, json_type_object))
		return -1;
	if (json_object_object_length(obj) > BUILD_RECORD_MAX_ITEMS)
		return -1;
	r->tools = xcalloc((size_t)json_object_object_length(obj) + 1, sizeof *r->tools);
	json_object_object_foreach(obj, key, val)
	{
		if (!json_object_is_type(val, json_type_string) || !plain_text(key))
			return -1;
		const char *s = json_object_get_string(val);
		if ((size_t)json_object_get_string_len(val) != strlen(s) || !plain_text(s))
			return -1;
		struct build_item *it = &r->tools[r->n_tools++];
		it->name = xstrdup(key);
		it->value = xstrdup(s);
	}
	return 0;
}

/* The members of every object of the text, counted by their ':' outside strings (the text
 * is one json-c has already taken as strict JSON, so that is all a ':' can be). */
static size_t members_in_text(const char *t, size_t len)
{
	size_t n = 0;
	for (size_t i = 0, in_string = 0; i < len; i++) {
		if (in_string && t[i] == '\\')
			i++; /* the escaped character, whatever it is */
		else if (t[i] == '"')
			in_string = !in_string;
		else if (!in_string && t[i] == ':')
			n++;
	}
	return n;
}

/* The members json-c kept: a key given twice is kept once (its last value), so fewer. */
static size_t members_in_tree(json_object *o)
{
	size_t n = 0;
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val)
		{
			(void)key;
			n += 1 + members_in_tree(val);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			n += members_in_tree(json_object_array_get_idx(o, i));
	}
	return n;
}

int build_record_parse(const char *text, size_t len, struct build_record *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	if (len > BUILD_RECORD_MAX_BYTES)
		return tb_fail(e, TB_R_RECORD_INVALID, "the build record is larger than %d KiB; it is not one this tool wrote",
			       BUILD_RECORD_MAX_BYTES / 1024);
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return tb_fail(e, TB_R_OUT_OF_MEMORY, "out of memory reading the build record");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	int whole = root && json_tokener_get_error(tok) == json_tokener_success &&
		    json_tokener_get_parse_end(tok) >= len - (len && text[len - 1] == '\n');
	json_tokener_free(tok);
	int bad = !whole || !json_object_is_type(root, json_type_object);
	/* One reader takes a key's first value, another its last: a record that names a key
	 * twice in one object says two things, and the recipes never write one. */
	if (!bad && members_in_text(text, len) != members_in_tree(root)) {
		json_object_put(root);
		return tb_fail(e, TB_R_RECORD_INVALID,
			       "the build record (%s) names a key twice in one object, so readers could take "
			       "different values from it; it is not one the recipes wrote",
			       BUILD_RECORD_PATH);
	}
	if (!bad) {
		r->version = text_member(root, "version");
		r->arch = text_member(root, "arch");
		r->drivers = text_member(root, "drivers");
		r->mesa_version = text_member(root, "mesa_version");
		r->recipe_commit = text_member(root, "recipe_commit");
		bad = int_member(root, "format", 1, 1, &r->format) ||
		      int_member(root, "source_date_epoch", 0, INT64_C(253402300799), &r->source_date_epoch) ||
		      !r->version || !r->arch || !r->drivers || !r->mesa_version || !r->recipe_commit ||
		      read_sources(root, r) || read_tools(root, r);
	}
	json_object_put(root);
	if (bad) {
		build_record_free(r);
		return tb_fail(e, TB_R_RECORD_INVALID,
			       "the build record (%s) is not a format-1 record of this tool (JSON with version, arch, drivers, mesa_version, recipe_commit, source_date_epoch, sources and toolchain); its release was not built by the recipes",
			       BUILD_RECORD_PATH);
	}
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, text, len);
	sha256_end(h, r->sha256);
	return TB_OK;
}

int build_record_load(const char *dir, struct build_record *r, int *present, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	*present = 0;
	char *path = path_join(dir, BUILD_RECORD_PATH);
	size_t len;
	char *text = read_small_file_nofollow(path, BUILD_RECORD_MAX_BYTES, &len);
	int rc = TB_OK;
	if (!text && errno != ENOENT)
		rc = tb_fail_errno_as(e, TB_R_RECORD_INVALID, "cannot read the build record %s", path);
	else if (text && strlen(text) != len)
		rc = tb_fail(e, TB_R_RECORD_INVALID, "the build record %s holds a NUL byte; it is not one this tool wrote", path);
	else if (text)
		rc = build_record_parse(text, len, r, e);
	if (text && !rc)
		*present = 1;
	free(text);
	free(path);
	return rc;
}

static void items_free(struct build_item *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(it[i].name);
		free(it[i].value);
	}
	free(it);
}

void build_record_free(struct build_record *r)
{
	free(r->version);
	free(r->arch);
	free(r->drivers);
	free(r->mesa_version);
	free(r->recipe_commit);
	items_free(r->sources, r->n_sources);
	items_free(r->tools, r->n_tools);
	memset(r, 0, sizeof *r);
}

/* Copies the value of one word key:value into out (cap bytes with the NUL); -1 when it was
 * already set, is empty or does not fit. */
static int take_word(const char *value, size_t n, char *out, size_t cap)
{
	if (*out || !n || n >= cap)
		return -1;
	memcpy(out, value, n);
	out[n] = '\0';
	return 0;
}

/* An https URL of printable ASCII without spaces (the run's page). */
static int run_url_ok(const char *s)
{
	if (strncmp(s, "https://", 8) || !s[8])
		return 0;
	for (const char *p = s; *p; p++)
		if (*p <= 0x20 || *p > 0x7e)
			return 0;
	return 1;
}

int trusted_comment_parse(const char *comment, size_t len, struct trusted_fields *t, struct tb_error *e)
{
	memset(t, 0, sizeof *t);
	/* a minisign trusted comment is one line; anything longer than a signature file's line
	 * is not one */
	if (len > 4096 || memchr(comment, '\0', len) || memchr(comment, '\n', len))
		return tb_fail(e, TB_R_RECORD_INVALID, "the trusted comment is not one line of at most 4096 bytes");
	const char *p = comment, *end = comment + len;
	int bad = 0;
	while (p < end && !bad) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		size_t n = (size_t)(p - w);
		if (n > 4 && !memcmp(w, "tag:", 4))
			bad = take_word(w + 4, n - 4, t->tag, sizeof t->tag);
		else if (n >= 13 && !memcmp(w, "build-record:", 13)) {
			bad = n != 13 + 7 + SHA256_HEX_LEN || memcmp(w + 13, "sha256:", 7) ||
			      take_word(w + 20, SHA256_HEX_LEN, t->record_sha256, sizeof t->record_sha256) ||
			      !is_sha256_hex(t->record_sha256);
		} else if (n >= 4 && !memcmp(w, "run:", 4))
			bad = take_word(w + 4, n - 4, t->run, sizeof t->run) || !run_url_ok(t->run);
	}
	if (bad) {
		memset(t, 0, sizeof *t);
		return tb_fail(e, TB_R_RECORD_INVALID,
			       "the trusted comment's tag:, build-record:sha256:<64 hex digits> or run:<https URL> word is malformed or repeated");
	}
	return TB_OK;
}

const char *record_signed_word(enum record_signed s)
{
	switch (s) {
	case RECORD_SIG_MATCHES: return "matches";
	case RECORD_SIG_DIFFERS: return "differs";
	case RECORD_SIG_NOT_NAMED: return "not-named";
	case RECORD_SIG_BAD: return "unverified";
	case RECORD_SIG_NO_KEY: return "no-key";
	case RECORD_SIG_NONE: break;
	}
	return "none";
}

/* The drivers of a list ("vulkan,opencl") as a set: the same names, in any order. */
static int same_drivers(const char *a, const char *b)
{
	char *x = xstrdup(a), *y = xstrdup(b);
	int same = 1;
	for (int pass = 0; pass < 2 && same; pass++) {
		char *from = pass ? y : x;
		const char *in = pass ? a : b;
		char *save = NULL;
		for (char *w = strtok_r(from, ",", &save); w && same; w = strtok_r(NULL, ",", &save)) {
			size_t n = strlen(w);
			const char *p = in;
			int found = 0;
			while (!found && (p = strstr(p, w))) {
				found = (p == in || p[-1] == ',') && (p[n] == ',' || !p[n]);
				p += n;
			}
			same = found;
		}
	}
	free(x);
	free(y);
	return same;
}

/* 1 with a sentence in why when the record's version, arch or drivers are not the release's
 * (its MANIFEST's, and the version it is shown for): a record copied from another build. */
static int record_contradicts(const char *dir, const struct build_record *r, const char *version,
			      char *why, size_t n)
{
	struct manifest m;
	struct tb_error ignored = {0};
	if (manifest_load(dir, &m, &ignored))
		return 0; /* verify says what is wrong with the tree */
	const char *what = NULL, *rec = NULL, *man = NULL;
	if (version && strcmp(r->version, version))
		what = "version", rec = r->version, man = version;
	else if (m.version && strcmp(r->version, m.version))
		what = "version", rec = r->version, man = m.version;
	else if (m.arch && strcmp(r->arch, m.arch))
		what = "arch", rec = r->arch, man = m.arch;
	else if (m.drivers && !same_drivers(r->drivers, m.drivers))
		what = "drivers", rec = r->drivers, man = m.drivers;
	if (what)
		snprintf(why, n, "the build record (%s) says %s %s, but the release's MANIFEST says %s: it is "
			 "another build's record, so nothing is shown of it; rebuild the release with the recipes",
			 BUILD_RECORD_PATH, what, rec, man);
	manifest_free(&m);
	return what != NULL;
}

void record_view_read(const struct config *cfg, const char *dir, const char *sums_path,
		      const char *sig_path, const char *version, struct record_view *v)
{
	memset(v, 0, sizeof *v);
	struct tb_error e = {0};
	if (build_record_load(dir, &v->r, &v->have, &e)) {
		snprintf(v->why, sizeof v->why, "%s", e.msg);
		return;
	}
	if (v->have && record_contradicts(dir, &v->r, version, v->why, sizeof v->why)) {
		build_record_free(&v->r);
		v->have = 0; /* not shown as the release's */
	}
	if (!sums_path || !sig_path || !path_exists(sums_path) || !path_exists(sig_path))
		return; /* RECORD_SIG_NONE */
	char *trusted = NULL;
	tb_error_clear(&e);
	if (minisign_verified_comment(cfg, sums_path, sig_path, version, &trusted, &e)) {
		v->sig = RECORD_SIG_BAD;
		snprintf(v->why, sizeof v->why, "%s", e.msg);
	} else if (!trusted) {
		v->sig = RECORD_SIG_NO_KEY;
	} else if (trusted_comment_parse(trusted, strlen(trusted), &v->t, &e)) {
		v->sig = RECORD_SIG_BAD;
		snprintf(v->why, sizeof v->why, "%s", e.msg);
	} else if (!v->t.record_sha256[0]) {
		v->sig = RECORD_SIG_NOT_NAMED;
	} else {
		v->sig = v->have && !strcmp(v->t.record_sha256, v->r.sha256) ? RECORD_SIG_MATCHES : RECORD_SIG_DIFFERS;
	}
	free(trusted);
}

void record_view_free(struct record_view *v)
{
	build_record_free(&v->r);
	memset(v, 0, sizeof *v);
}

void record_view_say(const struct record_view *v, const char *version, struct strbuf *out)
{
	if (!v->have) {
		sb_appendf(out, "build record: %s", *v->why ? v->why : "none (the release was built before build records, or not by the recipes)");
		if (v->sig == RECORD_SIG_DIFFERS)
			sb_appendf(out, "\n  signed: the signature's trusted comment names a build record (sha256 %s) this release does not have",
				   v->t.record_sha256);
		return;
	}
	const struct build_record *r = &v->r;
	char when[32] = "";
	time_t t = (time_t)r->source_date_epoch;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
	sb_appendf(out, "build record of Mesa %s (%s, sha256 %s):\n", version, BUILD_RECORD_PATH, r->sha256);
	sb_appendf(out, "  Mesa %s for %s (%s), recipes at %s, SOURCE_DATE_EPOCH %lld (%s)",
		   r->mesa_version, r->arch, r->drivers, r->recipe_commit, (long long)r->source_date_epoch, when);
	for (size_t i = 0; i < r->n_sources; i++)
		sb_appendf(out, "\n  source %s sha256 %s", r->sources[i].name, r->sources[i].value);
	for (size_t i = 0; i < r->n_tools; i++)
		sb_appendf(out, "\n  toolchain %s: %s", r->tools[i].name, r->tools[i].value);
	switch (v->sig) {
	case RECORD_SIG_MATCHES:
		sb_appendf(out, "\n  signed: the signature's trusted comment names this build record%s%s",
			   *v->t.run ? ", built by " : "", v->t.run);
		break;
	case RECORD_SIG_DIFFERS:
		sb_appendf(out, "\n  signed: the signature's trusted comment names another build record (sha256 %s): this release is not the build that was signed",
			   v->t.record_sha256);
		break;
	case RECORD_SIG_NOT_NAMED:
		sb_appendf(out, "\n  signed: the signature's trusted comment names no build record");
		break;
	case RECORD_SIG_BAD:
		sb_appendf(out, "\n  signed: the kept signature does not verify: %s", v->why);
		break;
	case RECORD_SIG_NO_KEY:
		sb_appendf(out, "\n  signed: a signature is kept, but no public key is configured to check it");
		break;
	case RECORD_SIG_NONE:
		sb_appendf(out, "\n  signed: no signature is kept for this release (installed from a file, or unsigned), so nothing vouches for the record");
		break;
	}
}

static void add_str(json_object *o, const char *key, const char *v)
{
	if (v && *v)
		json_object_object_add(o, key, json_object_new_string(v));
}

json_object *record_view_json(const struct record_view *v)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "present", json_object_new_boolean(v->have));
	if (v->have) {
		const struct build_record *r = &v->r;
		add_str(o, "sha256", r->sha256);
		add_str(o, "version", r->version);
		add_str(o, "arch", r->arch);
		add_str(o, "drivers", r->drivers);
		add_str(o, "mesa_version", r->mesa_version);
		add_str(o, "recipe_commit", r->recipe_commit);
		json_object_object_add(o, "source_date_epoch", json_object_new_int64(r->source_date_epoch));
		json_object *src = json_object_new_array();
		for (size_t i = 0; i < r->n_sources; i++) {
			json_object *one = json_object_new_object();
			add_str(one, "name", r->sources[i].name);
			add_str(one, "sha256", r->sources[i].value);
			json_object_array_add(src, one);
		}
		json_object_object_add(o, "sources", src);
		json_object *tools = json_object_new_object();
		for (size_t i = 0; i < r->n_tools; i++)
			add_str(tools, r->tools[i].name, r->tools[i].value);
		json_object_object_add(o, "toolchain", tools);
	}
	add_str(o, "signed", record_signed_word(v->sig));
	add_str(o, "signed_record_sha256", v->t.record_sha256);
	add_str(o, "run", v->t.run);
	add_str(o, "why", v->why);
	return o;
}
