/* The release list: what is skipped, what each channel offers, the URL policy, the cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release/feed.h"
#include "base/hash.h"
#include "release/fetch.h"
#include "release/urlpolicy.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/host.h"

#define D64 "ab0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"

/* name, size, browser url, extra JSON */
#define ASSET(name, extra) \
	"{\"name\":\"" name "\",\"size\":100,\"url\":\"https://api.example/assets/1\"," \
	"\"browser_download_url\":\"https://dl.example/" name "\"" extra "}"
#define SUMS ASSET("SHA256SUMS", "")
#define RELEASE(tag, flags, assets) \
	"{\"tag_name\":\"" tag "\"," flags "\"assets\":[" assets "]}"

static const char list[] = "["
	RELEASE("kernel-6.12.1", "", ASSET("linux.tar.gz", "") "," SUMS) ","
	RELEASE("mesa-2026.10.09", "\"draft\":true,", ASSET("tb323fu-mesa-2026.10.09-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("mesa-2026.10.08", "\"prerelease\":true,", ASSET("tb323fu-mesa-2026.10.08-ARCH.tar.zst", "") "," SUMS) ","
	RELEASE("mesa-2026.10.07", "", ASSET("tb323fu-mesa-2026.10.07-otherarch.tar.gz", "") "," SUMS) ","
	RELEASE("mesa-2026.10.06.2", "\"prerelease\":false,",
		ASSET("tb323fu-mesa-2026.10.06.2-ARCH.tar.xz", "") ","
		ASSET("tb323fu-mesa-2026.10.06.2-ARCH.tar.gz", ",\"digest\":\"sha256:" D64 "\"") ","
		SUMS "," ASSET("SHA256SUMS.minisig", "")) ","
	RELEASE("mesa-2026.10.06", "", ASSET("tb323fu-mesa-2026.10.06-ARCH.tar.gz", "")) ","
	RELEASE("mesa-../../etc", "", ASSET("tb323fu-mesa-../../etc-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("mesa-2026.9.30", "",
		"{\"name\":\"tb323fu-mesa-2026.9.30-ARCH.tar.gz\",\"size\":5,\"url\":\"https://api.example/assets/9\",\"browser_download_url\":null,\"digest\":null},"
		SUMS) ","
	RELEASE("mesa-2026.9.29", "", ASSET("tb323fu-mesa-2026.9.29-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("cts-2026.12.03", "", ASSET("tb323fu-cts-2026.12.03-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("cts-2026.12.04", "\"prerelease\":true,", ASSET("tb323fu-cts-2026.12.04-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("cts-2026.12.05", "", ASSET("tb323fu-mesa-2026.12.05-ARCH.tar.gz", "") "," SUMS) ","
	RELEASE("cts-2026.9.29", "", ASSET("tb323fu-cts-2026.9.29-otherarch.tar.gz", "") "," SUMS) ","
	"{\"tag_name\":\"mesa-2026.9.28\",\"assets\":\"none\"},"
	"17"
	"]";

/* The fixture with ARCH replaced by this host's arch. */
static char *fixture(void)
{
	struct strbuf sb = {0};
	const char *p = list, *hit;
	while ((hit = strstr(p, "ARCH"))) {
		char *part = strndup(p, (size_t)(hit - p));
		sb_append(&sb, part);
		free(part);
		sb_append(&sb, host_arch());
		p = hit + 4;
	}
	sb_append(&sb, p);
	return sb.buf;
}

static void parse_fixture(struct feed *f)
{
	struct tb_error e = {0};
	char *json = fixture();
	assert_int_equal(feed_parse(json, strlen(json), host_arch(), f, &e), TB_OK);
	free(json);
}

static void skips_what_cannot_be_installed(void **state)
{
	struct feed f;
	parse_fixture(&f);
	/* kept: 2026.10.08 (pre), 2026.10.06.2, 2026.9.30, 2026.9.29; newest first */
	assert_int_equal(f.n, 4);
	assert_string_equal(f.releases[0].version, "2026.10.08");
	assert_string_equal(f.releases[1].version, "2026.10.06.2");
	assert_string_equal(f.releases[2].version, "2026.9.30");
	assert_string_equal(f.releases[3].version, "2026.9.29");
	assert_null(feed_find(&f, "2026.10.09")); /* draft */
	assert_null(feed_find(&f, "2026.10.07")); /* other arch */
	assert_null(feed_find(&f, "2026.10.06")); /* no SHA256SUMS */
	/* the CTS releases apart: 2026.12.05's tarball is a Mesa name, 2026.9.29 another arch */
	struct feed cts = feed_cts_view(&f);
	assert_int_equal(cts.n, 2);
	assert_string_equal(cts.releases[0].version, "2026.12.04");
	assert_string_equal(feed_newest(&cts, "stable")->version, "2026.12.03");
	assert_ptr_equal(feed_newest(&cts, "stable")->kind, &release_kind_cts);
	assert_string_equal(feed_newest(&cts, "stable")->tag, "cts-2026.12.03");
	assert_ptr_equal(f.releases[0].kind, &release_kind_mesa);
	assert_null(feed_find(&f, "2026.12.03")); /* never among Mesa's */
	feed_free(&f);
}

static void channels(void **state)
{
	struct feed f;
	parse_fixture(&f);
	assert_string_equal(feed_newest(&f, "stable")->version, "2026.10.06.2");
	assert_string_equal(feed_newest(&f, "testing")->version, "2026.10.08");
	assert_true(feed_newest(&f, "testing")->prerelease);
	feed_free(&f);
	struct feed empty;
	struct tb_error e = {0};
	assert_int_equal(feed_parse("[]", 2, host_arch(), &empty, &e), TB_OK);
	assert_null(feed_newest(&empty, "stable"));
	feed_free(&empty);
}

static void assets(void **state)
{
	struct feed f;
	parse_fixture(&f);
	const struct feed_release *r = feed_find(&f, "2026.10.06.2");
	assert_non_null(r);
	assert_string_equal(r->tag, "mesa-2026.10.06.2");
	/* .tar.gz is preferred over .tar.xz; its digest is kept */
	assert_true(strstr(r->tarball.name, ".tar.gz") != NULL);
	assert_string_equal(r->tarball.digest, D64);
	assert_false(r->tarball.api);
	assert_int_equal(r->tarball.size, 100);
	assert_string_equal(r->sig.name, "SHA256SUMS.minisig");
	/* no browser_download_url: the API url with application/octet-stream */
	const struct feed_release *old = feed_find(&f, "2026.9.30");
	assert_true(old->tarball.api);
	assert_string_equal(old->tarball.url, "https://api.example/assets/9");
	assert_string_equal(old->tarball.digest, "");
	assert_null(old->sig.name);
	feed_free(&f);
}

static void not_a_release_list(void **state)
{
	struct feed f;
	struct tb_error e = {0};
	const char *limited = "{\"message\":\"API rate limit exceeded\"}";
	assert_int_equal(feed_parse(limited, strlen(limited), "x86_64", &f, &e), TB_ENET);
	assert_non_null(strstr(e.msg, "API rate limit exceeded"));
	tb_error_clear(&e);
	assert_int_equal(feed_parse("[1,", 3, "x86_64", &f, &e), TB_ENET);
	tb_error_clear(&e);
	assert_int_equal(feed_parse("[] []", 5, "x86_64", &f, &e), TB_ENET);
	tb_error_clear(&e);
	assert_int_equal(feed_parse("", 0, "x86_64", &f, &e), TB_ENET);
}

static void url_policy(void **state)
{
	struct tb_error e = {0};
	assert_int_equal(fetch_url_allowed("https://api.github.com/repos", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("http://127.0.0.1:8080/x", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("http://127.3.4.5/x", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("http://[::1]:99/x", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("http://localhost/x", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("file:///srv/mirror/x", &e), TB_OK);
	assert_int_equal(fetch_url_allowed("http://example.com/x", &e), TB_ENET);
	assert_non_null(strstr(e.msg, "use https"));
	tb_error_clear(&e);
	assert_int_equal(fetch_url_allowed("http://128.0.0.1/x", &e), TB_ENET);
	tb_error_clear(&e);
	assert_int_equal(fetch_url_allowed("http://127.0.0.1.example.com/x", &e), TB_ENET);
	tb_error_clear(&e);
	assert_int_equal(fetch_url_allowed("ftp://127.0.0.1/x", &e), TB_ENET);
	tb_error_clear(&e);
	assert_int_equal(fetch_url_allowed("not a url", &e), TB_ENET);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* An offline mirror (file://) refreshes the cache; feed_cached reads it back. */
static void mirror_and_cache(void **state)
{
	char *dir = test_mkdtemp("test_feed");
	assert_non_null(dir);
	char *repo = xasprintf("%s/mirror/repos/o/r", dir);
	struct tb_error e = {0};
	assert_int_equal(mkdir_p(repo, 0755, &e), TB_OK);
	char *releases = path_join(repo, "releases");
	char *json = fixture();
	write_file(releases, json);
	char *cache = path_join(dir, "cache");
	assert_int_equal(mkdir_p(cache, 0755, &e), TB_OK);

	struct config cfg;
	config_defaults(&cfg);
	char *conf = xasprintf("source = github:o/r\napi_url = file://%s/mirror\n", dir);
	assert_int_equal(config_parse(&cfg, conf, "test", &e), TB_OK);

	struct feed f;
	assert_int_equal(feed_cached(&cfg, cache, &f, &e), TB_EFAIL);
	tb_error_clear(&e);
	int from_cache = -1;
	assert_int_equal(feed_refresh(&cfg, cache, &f, &from_cache, &e), TB_OK);
	assert_int_equal(from_cache, 0);
	assert_int_equal(f.n, 4);
	feed_free(&f);
	assert_int_equal(feed_cached(&cfg, cache, &f, &e), TB_OK);
	assert_int_equal(f.n, 4);
	feed_free(&f);

	/* Another source does not reuse this cache. */
	assert_int_equal(config_parse(&cfg, "source = github:o/other\n", "test", &e), TB_OK);
	assert_int_equal(feed_cached(&cfg, cache, &f, &e), TB_EFAIL);
	tb_error_clear(&e);
	/* Its list is missing on the mirror: a sentence, exit 5. */
	assert_int_equal(feed_refresh(&cfg, cache, &f, &from_cache, &e), TB_ENET);
	assert_non_null(strstr(e.msg, "release list"));

	config_free(&cfg);
	free(conf);
	free(json);
	free(releases);
	free(repo);
	free(cache);
	remove_tree(dir);
	free(dir);
}

/* fetch_file over file://: a partial file is resumed, the hash covers the whole file, and a
 * complete answer of the wrong size is refused and dropped. */
static void file_download_resumes(void **state)
{
	char *dir = test_mkdtemp("test_fetch");
	assert_non_null(dir);
	char *src = path_join(dir, "asset.bin"), *part = path_join(dir, "asset.bin.part");
	size_t size = 300 * 1024 + 7;
	unsigned char *data = xmalloc(size);
	for (size_t i = 0; i < size; i++)
		data[i] = (unsigned char)(i * 131 + (i >> 9));
	struct tb_error e = {0};
	assert_int_equal(atomic_write_file(src, data, size, 0644, &e), TB_OK);
	assert_int_equal(atomic_write_file(part, data, 100 * 1024, 0644, &e), TB_OK);
	char want[SHA256_HEX_LEN + 1];
	assert_int_equal(sha256_file(src, want, NULL), 0);

	struct config cfg;
	config_defaults(&cfg);
	/* file:// is read only from an offline mirror, inside its directory. */
	free(cfg.api_url);
	cfg.api_url = xasprintf("file://%s", dir);
	char *url = xasprintf("file://%s", src);
	struct fetch_request rq = {.url = url, .max_bytes = size, .too_big = TB_R_TOO_LARGE, .what = "the asset"};
	struct fetch_file_result res;
	assert_int_equal(fetch_file(&cfg, &rq, part, size, NULL, "asset.bin", &res, &e), TB_OK);
	assert_int_equal(res.resumed_from, 100 * 1024);
	assert_int_equal(res.size, size);
	assert_string_equal(res.sha256, want);

	/* The release says one byte more than there is. */
	unlink(part);
	assert_int_equal(fetch_file(&cfg, &rq, part, size + 1, NULL, "asset.bin", &res, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "the release says"));
	assert_int_equal(access(part, F_OK), -1);
	/* One byte less: refused as soon as the answer runs past it. */
	tb_error_clear(&e);
	assert_int_equal(fetch_file(&cfg, &rq, part, size - 1, NULL, "asset.bin", &res, &e), TB_EVERIFY);
	assert_int_equal(access(part, F_OK), -1);
	assert_string_equal(tb_error_reason(&e), "too-large");
	/* the release list's limit is the network's failure (5), the same id */
	struct fetch_request release_list = rq;
	release_list.too_big = TB_R_TOO_LARGE_NETWORK;
	tb_error_clear(&e);
	assert_int_equal(fetch_file(&cfg, &release_list, part, size - 1, NULL, "asset.bin", &res, &e), TB_ENET);
	assert_string_equal(tb_error_reason(&e), "too-large");
	unlink(part);

	/* A list from the network may not name local files; none is read, none is left. */
	free(cfg.api_url);
	cfg.api_url = xstrdup("https://api.github.com");
	tb_error_clear(&e);
	assert_int_equal(fetch_file(&cfg, &rq, part, size, NULL, "asset.bin", &res, &e), TB_ENET);
	assert_non_null(strstr(e.msg, "only a release list from a file:// mirror may name local files"));
	assert_int_equal(access(part, F_OK), -1);

	config_free(&cfg);
	free(url);
	free(data);
	free(src);
	free(part);
	remove_tree(dir);
	free(dir);
}

/* The release's page is offered only as https://, or http:// to this machine; and a server's
 * message is cut at 200 bytes without splitting a character. */
static void notes_url_and_message(void **state)
{
	static const char *urls[][2] = {
		{"https://github.com/o/r/releases/tag/mesa-2026.10.06", "https://github.com/o/r/releases/tag/mesa-2026.10.06"},
		{"http://127.0.0.1:8080/notes", "http://127.0.0.1:8080/notes"},
		{"http://localhost:1@127.0.0.2/notes", ""},
		{"http://example.com/notes", ""},
		{"javascript:alert(1)", ""},
		{"file:///etc/passwd", ""},
		{"https://user:pw@github.com/", ""},
	};
	for (size_t k = 0; k < sizeof urls / sizeof *urls; k++) {
		char *json = xasprintf("[{\"tag_name\":\"mesa-2026.10.06\",\"html_url\":\"%s\",\"assets\":["
				       ASSET("tb323fu-mesa-2026.10.06-x86_64.tar.gz", "") "," SUMS "]}]",
				       urls[k][0]);
		struct feed f;
		struct tb_error e = {0};
		assert_int_equal(feed_parse(json, strlen(json), "x86_64", &f, &e), TB_OK);
		assert_int_equal(f.n, 1);
		assert_string_equal(f.releases[0].notes_url, urls[k][1]);
		feed_free(&f);
		free(json);
	}
	char msg[256] = "{\"message\":\"";
	size_t n = strlen(msg);
	memset(msg + n, 'a', 199);
	strcpy(msg + n + 199, "\xe2\x82\xac\"}");
	struct feed f;
	struct tb_error e = {0};
	assert_int_equal(feed_parse(msg, strlen(msg), "x86_64", &f, &e), TB_ENET);
	assert_non_null(strstr(e.msg, "aaa\")"));
	assert_null(strstr(e.msg, "\xe2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skips_what_cannot_be_installed),
		cmocka_unit_test(channels),
		cmocka_unit_test(assets),
		cmocka_unit_test(not_a_release_list),
		cmocka_unit_test(url_policy),
		cmocka_unit_test(mirror_and_cache),
		cmocka_unit_test(file_download_resumes),
		cmocka_unit_test(notes_url_and_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
