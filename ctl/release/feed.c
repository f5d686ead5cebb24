#include "release/feed.h"

#include <ctype.h>
#include <curl/curl.h>
#include "base/lazy_curl.h"
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "release/fetch.h"
#include "release/urlpolicy.h"
#include "store/manifest.h"
#include "common/utf8.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/host.h"

/* A release asset larger than this is not a Mesa build (the unpacked tree is capped at 2 GiB). */
#define ASSET_MAX_BYTES (4ull << 30)

static const char *const tarball_suffixes[] = {".tar.gz", ".tar.zst", ".tar.xz"};

static const char *json_str(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int json_true(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

static void asset_free(struct feed_asset *a)
{
	free(a->name);
	free(a->url);
	memset(a, 0, sizeof *a);
}

/* Fills a from a GitHub asset object; -1 when it lacks a usable URL or size. */
static int asset_read(json_object *o, struct feed_asset *a)
{
	const char *name = json_str(o, "name");
	const char *browser = json_str(o, "browser_download_url");
	const char *api = json_str(o, "url");
	json_object *size;
	if (!name || (!(browser && *browser) && !(api && *api)) ||
	    !json_object_object_get_ex(o, "size", &size) || !json_object_is_type(size, json_type_int))
		return -1;
	int64_t n = json_object_get_int64(size);
	if (n <= 0 || (uint64_t)n > ASSET_MAX_BYTES)
		return -1;
	memset(a, 0, sizeof *a);
	a->name = xstrdup(name);
	a->api = !(browser && *browser);
	a->url = xstrdup(a->api ? api : browser);
	a->size = (uint64_t)n;
	const char *digest = json_str(o, "digest");
	if (digest && !strncmp(digest, "sha256:", 7) && strlen(digest + 7) == SHA256_HEX_LEN) {
		char hex[SHA256_HEX_LEN + 1];
		for (int i = 0; i <= SHA256_HEX_LEN; i++)
			hex[i] = (char)tolower((unsigned char)digest[7 + i]);
		if (is_sha256_hex(hex))
			memcpy(a->digest, hex, sizeof hex);
	}
	return 0;
}

static int tarball_name_matches(const struct release_kind *kind, const char *name,
				const char *version, const char *arch)
{
	char prefix[160];
	int n = snprintf(prefix, sizeof prefix, "%s%s-%s", kind->file_prefix, version, arch);
	if (n < 0 || (size_t)n >= sizeof prefix || strncmp(name, prefix, (size_t)n))
		return 0;
	for (size_t i = 0; i < sizeof tarball_suffixes / sizeof *tarball_suffixes; i++)
		if (!strcmp(name + n, tarball_suffixes[i]))
			return (int)i + 1;
	return 0;
}

/* 0 when the release is one this host can install, and r is filled. */
/* A release's page is offered to people (a GUI opens it): only https://, or http:// to this
 * machine (a test server), read by libcurl's URL parser; no user or password in it. */
static int notes_url_offered(const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *user = NULL;
	int ok = u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
		 curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
		 curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && *host &&
		 curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_NO_USER &&
		 (!strcasecmp(scheme, "https") || (!strcasecmp(scheme, "http") && host_is_loopback(host)));
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_url_cleanup(u);
	return ok;
}

static const struct release_kind *kind_of_tag(const char *tag)
{
	const struct release_kind *kinds[] = {&release_kind_mesa, &release_kind_cts};
	for (size_t i = 0; tag && i < sizeof kinds / sizeof *kinds; i++)
		if (!strncmp(tag, kinds[i]->tag_prefix, strlen(kinds[i]->tag_prefix)))
			return kinds[i];
	return NULL;
}

static int release_read(json_object *o, const char *arch, struct feed_release *r)
{
	memset(r, 0, sizeof *r);
	const char *tag = json_str(o, "tag_name");
	const struct release_kind *kind = kind_of_tag(tag);
	const char *version = kind ? tag + strlen(kind->tag_prefix) : NULL;
	if (!kind || !version_name_ok(version) || json_true(o, "draft"))
		return -1;
	json_object *assets;
	if (!json_object_object_get_ex(o, "assets", &assets) ||
	    !json_object_is_type(assets, json_type_array))
		return -1;
	int best = 0; /* the suffix rank of the tarball kept: .tar.gz first */
	size_t n = json_object_array_length(assets);
	for (size_t i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(assets, i);
		const char *name = json_object_is_type(a, json_type_object) ? json_str(a, "name") : NULL;
		if (!name)
			continue;
		struct feed_asset *slot = NULL;
		int rank = tarball_name_matches(kind, name, version, arch);
		if (rank && (!best || rank < best)) {
			slot = &r->tarball;
		} else if (!strcmp(name, "SHA256SUMS") && !r->sums.name) {
			slot = &r->sums;
		} else if (!strcmp(name, "SHA256SUMS.minisig") && !r->sig.name) {
			slot = &r->sig;
		}
		if (!slot)
			continue;
		struct feed_asset tmp;
		if (asset_read(a, &tmp) < 0)
			continue;
		asset_free(slot);
		*slot = tmp;
		if (slot == &r->tarball)
			best = rank;
	}
	if (!r->tarball.name || !r->sums.name) {
		asset_free(&r->tarball);
		asset_free(&r->sums);
		asset_free(&r->sig);
		return -1;
	}
	r->kind = kind;
	r->tag = xstrdup(tag);
	r->version = xstrdup(version);
	r->prerelease = json_true(o, "prerelease");
	const char *notes = json_str(o, "body"), *url = json_str(o, "html_url"),
		   *published = json_str(o, "published_at");
	r->notes = xstrdup(notes ? notes : "");
	r->notes_url = xstrdup(url && notes_url_offered(url) ? url : "");
	r->published_at = xstrdup(published ? published : "");
	return 0;
}

static void release_free(struct feed_release *r)
{
	free(r->tag);
	free(r->version);
	asset_free(&r->tarball);
	asset_free(&r->sums);
	asset_free(&r->sig);
	free(r->notes);
	free(r->notes_url);
	free(r->published_at);
}

static int newest_first(const void *a, const void *b)
{
	const struct feed_release *ra = a, *rb = b;
	return version_compare(rb->version, ra->version);
}

int feed_parse(const char *json, size_t len, const char *arch, struct feed *f, struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return tb_fail(e, TB_R_OUT_OF_MEMORY, "out of memory reading the release list");
	json_object *root = NULL;
	if (len <= INT32_MAX)
		root = json_tokener_parse_ex(tok, json, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	/* Trailing bytes after the value mean the text is not one JSON document. */
	int trailing = root && jerr == json_tokener_success && json_tokener_get_parse_end(tok) < len;
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success || trailing) {
		json_object_put(root);
		return tb_fail(e, TB_R_NETWORK, "the release list is not valid JSON; check api_url and source in the configuration");
	}
	if (!json_object_is_type(root, json_type_array)) {
		const char *msg = json_object_is_type(root, json_type_object) ? json_str(root, "message") : NULL;
		/* the server's words, at most 200 bytes, never cut inside a character */
		int shown = msg ? (int)utf8_cut(msg, strlen(msg), 200) : 0;
		int rc = tb_fail(e, TB_R_NETWORK, "the answer is not a release list%s%.*s%s; check api_url and source in the configuration",
				 msg ? " (\"" : "", shown, msg ? msg : "", msg ? "\")" : "");
		json_object_put(root);
		return rc;
	}
	size_t n = json_object_array_length(root);
	f->releases = xcalloc(n ? n : 1, sizeof *f->releases);
	f->cts = xcalloc(n ? n : 1, sizeof *f->cts);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(root, i);
		struct feed_release r;
		if (!json_object_is_type(o, json_type_object) || release_read(o, arch, &r) < 0)
			continue;
		int cts = r.kind == &release_kind_cts;
		struct feed list = cts ? feed_cts_view(f) : *f;
		if (feed_find(&list, r.version)) { /* a second tag of the same version: keep the first */
			release_free(&r);
			continue;
		}
		if (cts)
			f->cts[f->n_cts++] = r;
		else
			f->releases[f->n++] = r;
	}
	json_object_put(root);
	qsort(f->releases, f->n, sizeof *f->releases, newest_first);
	qsort(f->cts, f->n_cts, sizeof *f->cts, newest_first);
	return TB_OK;
}

struct feed feed_cts_view(const struct feed *f)
{
	return (struct feed){.releases = f->cts, .n = f->n_cts};
}

void feed_free(struct feed *f)
{
	for (size_t i = 0; i < f->n; i++)
		release_free(&f->releases[i]);
	free(f->releases);
	for (size_t i = 0; i < f->n_cts; i++)
		release_free(&f->cts[i]);
	free(f->cts);
	memset(f, 0, sizeof *f);
}

const struct feed_release *feed_newest(const struct feed *f, const char *channel)
{
	int testing = channel && !strcmp(channel, "testing");
	for (size_t i = 0; i < f->n; i++)
		if (testing || !f->releases[i].prerelease)
			return &f->releases[i];
	return NULL;
}

const struct feed_release *feed_find(const struct feed *f, const char *version)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->releases[i].version, version))
			return &f->releases[i];
	return NULL;
}

char *feed_url(const struct config *cfg)
{
	return xasprintf("%s/repos/%s/%s/releases?per_page=100", cfg->api_url, cfg->owner, cfg->repo);
}

/* releases.etag: the URL the list came from, then its ETag; a list of another source is
 * never reused. */
static char *cached_etag(const char *cache_dir, const char *url)
{
	char *path = path_join(cache_dir, "releases.etag");
	char *text = read_small_file(path, 8192, NULL);
	free(path);
	if (!text)
		return NULL;
	char *etag = NULL, *nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		char *end = strchr(nl + 1, '\n');
		if (end)
			*end = '\0';
		if (!strcmp(text, url) && nl[1])
			etag = xstrdup(nl + 1);
	}
	free(text);
	return etag;
}

static int parse_cached(const char *cache_dir, struct feed *f, struct tb_error *e)
{
	char *path = path_join(cache_dir, "releases.json");
	size_t len;
	char *text = read_small_file_nofollow(path, FEED_MAX_BYTES, &len);
	int rc;
	if (!text)
		rc = tb_fail_errno_as(e, TB_R_NOT_CHECKED, "cannot read the cached release list %s; run `tb323fu-ctl mesa check`", path);
	else
		rc = feed_parse(text, len, host_arch(), f, e);
	free(text);
	free(path);
	return rc;
}

int feed_cached(const struct config *cfg, const char *cache_dir, struct feed *f, struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	char *url = feed_url(cfg);
	char *path = path_join(cache_dir, "releases.etag");
	char *text = read_small_file(path, 8192, NULL);
	free(path);
	int same = text && !strncmp(text, url, strlen(url)) && text[strlen(url)] == '\n';
	/* a list cached from another address (api_url or source changed since) is not this one's */
	int other = text && !same;
	free(text);
	int rc = TB_OK;
	if (other)
		rc = tb_fail(e, TB_R_NOT_CHECKED,
			     "the release list cached here was fetched from another address than %s (api_url or source changed since); run `tb323fu-ctl mesa check` to fetch it from there",
			     url);
	else if (!same)
		rc = tb_fail(e, TB_R_NOT_CHECKED, "the release list of %s was not fetched yet; run `tb323fu-ctl mesa check`",
			     cfg->source);
	free(url);
	if (rc)
		return rc;
	return parse_cached(cache_dir, f, e);
}

/* save 0: the cache is only read (a damaged one is passed over, not forgotten). */
static int refresh(const struct config *cfg, const char *cache_dir, struct feed *f, int *from_cache,
		   int save, int use_etag, struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	*from_cache = 0;
	char *url = feed_url(cfg);
	char *etag = use_etag ? cached_etag(cache_dir, url) : NULL;
	char *json_path = path_join(cache_dir, "releases.json");
	char *etag_path = path_join(cache_dir, "releases.etag");
	if (etag && !path_exists(json_path)) {
		free(etag);
		etag = NULL;
	}
	struct fetch_request rq = {.url = url, .etag = etag, .max_bytes = FEED_MAX_BYTES,
				   .too_big = TB_R_TOO_LARGE_NETWORK, .what = "the release list"};
	struct fetch_reply r;
	int rc = fetch_memory(cfg, &rq, &r, e);
	if (rc == TB_OK && r.not_modified) {
		*from_cache = 1;
		struct tb_error cache_err = {0};
		if (parse_cached(cache_dir, f, &cache_err) != TB_OK) {
			/* A damaged cache: forget its ETag and fetch the whole list once. */
			if (save)
				unlink(etag_path);
			fetch_reply_free(&r);
			free(json_path);
			free(etag_path);
			free(etag);
			free(url);
			return refresh(cfg, cache_dir, f, from_cache, save, 0, e);
		}
	} else if (rc == TB_OK) {
		rc = feed_parse(r.body, r.len, host_arch(), f, e);
		if (!save) {
			if (rc != TB_OK)
				feed_free(f);
			goto out;
		}
		/* Only a list that parsed is cached, with its ETag (or none, so no If-None-Match). */
		if (rc == TB_OK)
			rc = atomic_write_file(json_path, r.body, r.len, 0644, e);
		if (rc == TB_OK) {
			char *line = xasprintf("%s\n%s\n", url, r.etag ? r.etag : "");
			rc = atomic_write_file(etag_path, line, strlen(line), 0644, e);
			free(line);
		}
		if (rc != TB_OK)
			feed_free(f);
	}
out:
	fetch_reply_free(&r);
	free(json_path);
	free(etag_path);
	free(etag);
	free(url);
	return rc;
}

int feed_refresh(const struct config *cfg, const char *cache_dir, struct feed *f, int *from_cache,
		 struct tb_error *e)
{
	return refresh(cfg, cache_dir, f, from_cache, 1, 1, e);
}

int feed_peek(const struct config *cfg, const char *cache_dir, struct feed *f, int *from_cache,
	      struct tb_error *e)
{
	return refresh(cfg, cache_dir, f, from_cache, 0, 1, e);
}
