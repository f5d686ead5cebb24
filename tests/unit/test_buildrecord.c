/* The build record's reader and the trusted comment's words (ctl/release/buildrecord.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "release/buildrecord.h"
#include "base/error.h"

#define SHA_A "a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

static const char *good =
	"{\"format\": 1, \"version\": \"2026.12.02\", \"arch\": \"aarch64\", \"drivers\": \"vulkan\",\n"
	" \"mesa_version\": \"25.0.7\", \"recipe_commit\": \"abc\", \"source_date_epoch\": 1796173862,\n"
	" \"sources\": [{\"name\": \"mesa_25.0.7-2.dsc\", \"sha256\": \"" SHA_A "\"}],\n"
	" \"toolchain\": {\"c\": \"gcc 14.2.0\", \"meson\": \"1.7.0\"}, \"future\": [1, 2]}\n";

static int parse(const char *text, struct build_record *r, struct tb_error *e)
{
	tb_error_clear(e);
	return build_record_parse(text, strlen(text), r, e);
}

static void test_reads_a_record(void **state)
{
	(void)state;
	struct build_record r;
	struct tb_error e = {0};
	assert_int_equal(parse(good, &r, &e), TB_OK);
	assert_string_equal(r.version, "2026.12.02");
	assert_string_equal(r.recipe_commit, "abc");
	assert_int_equal(r.source_date_epoch, 1796173862);
	assert_int_equal(r.n_sources, 1);
	assert_string_equal(r.sources[0].value, SHA_A);
	assert_int_equal(r.n_tools, 2);
	assert_int_equal(strlen(r.sha256), 64);
	build_record_free(&r);
}

static void test_refuses_what_it_cannot_show(void **state)
{
	(void)state;
	struct build_record r;
	struct tb_error e = {0};
	char buf[4096];
	/* each a change of the good record that must be refused */
	const char *bad[][2] = {
		{"\"format\": 1", "\"format\": 2"},
		{"\"source_date_epoch\": 1796173862", "\"source_date_epoch\": -1"},
		{"\"recipe_commit\": \"abc\"", "\"recipe_commit\": \"a\\u001b[2Jb\""},
		{"\"recipe_commit\": \"abc\"", "\"recipe_commit\": \"\""},
		{"\"sha256\": \"" SHA_A "\"", "\"sha256\": \"xyz\""},
		{"\"meson\": \"1.7.0\"", "\"meson\": 17"},
		{"}\n", "} trailing\n"},
		/* a key twice: json-c keeps the last value, another reader the first */
		{"\"arch\": \"aarch64\"", "\"arch\": \"aarch64\", \"arch\": \"x86_64\""},
		{"\"meson\": \"1.7.0\"", "\"meson\": \"1.7.0\", \"meson\": \"9\""},
		{"\"future\": [1, 2]", "\"future\": [{\"a\": 1, \"a\": 2}]"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *at = strstr(good, bad[i][0]);
		assert_non_null(at);
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - good), good, bad[i][1], at + strlen(bad[i][0]));
		assert_int_equal(parse(buf, &r, &e), TB_EVERIFY);
		assert_string_equal(tb_error_reason(&e), "record-invalid");
	}
	/* ':' and escaped quotes inside strings are no members */
	const char *colons = strstr(good, "\"abc\"");
	snprintf(buf, sizeof buf, "%.*s\"a:\\\"b\\\\:\"%s", (int)(colons - good), good, colons + 5);
	assert_int_equal(parse(buf, &r, &e), TB_OK);
	assert_string_equal(r.recipe_commit, "a:\"b\\:");
	build_record_free(&r);
	/* a value longer than the bound */
	char *long_value = malloc(BUILD_RECORD_MAX_VALUE + 64);
	memset(long_value, 'x', BUILD_RECORD_MAX_VALUE + 1);
	long_value[BUILD_RECORD_MAX_VALUE + 1] = '\0';
	const char *at = strstr(good, "\"abc\"");
	snprintf(buf, sizeof buf, "%.*s\"%s\"%s", (int)(at - good), good, long_value, at + 5);
	assert_int_equal(parse(buf, &r, &e), TB_EVERIFY);
	free(long_value);
	/* not JSON, and larger than the cap */
	assert_int_equal(parse("format=1\n", &r, &e), TB_EVERIFY);
	char *huge = calloc(1, BUILD_RECORD_MAX_BYTES + 2);
	memset(huge, ' ', BUILD_RECORD_MAX_BYTES + 1);
	assert_int_equal(parse(huge, &r, &e), TB_EVERIFY);
	free(huge);
}

static void test_trusted_comment_words(void **state)
{
	(void)state;
	struct trusted_fields t;
	struct tb_error e = {0};
	const char *c = "tag:mesa-1.0 build-record:sha256:" SHA_A " run:https://github.com/o/r/actions/runs/7 other:x";
	assert_int_equal(trusted_comment_parse(c, strlen(c), &t, &e), TB_OK);
	assert_string_equal(t.tag, "mesa-1.0");
	assert_string_equal(t.record_sha256, SHA_A);
	assert_string_equal(t.run, "https://github.com/o/r/actions/runs/7");
	/* a signature of before build records: only the tag */
	assert_int_equal(trusted_comment_parse("tag:mesa-1.0", 12, &t, &e), TB_OK);
	assert_string_equal(t.record_sha256, "");
	const char *bad[] = {
		"tag:mesa-1 build-record:sha256:abc",
		"tag:mesa-1 build-record:" SHA_A,
		"tag:mesa-1 build-record:sha256:" SHA_A " build-record:sha256:" SHA_A,
		"tag:mesa-1 run:http://example.org/",
		"tag:mesa-1 tag:mesa-2",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		tb_error_clear(&e);
		assert_int_equal(trusted_comment_parse(bad[i], strlen(bad[i]), &t, &e), TB_EVERIFY);
		assert_string_equal(t.record_sha256, "");
	}
	tb_error_clear(&e);
	assert_int_equal(trusted_comment_parse("tag:mesa-1\nrun:https://x", 24, &t, &e), TB_EVERIFY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_a_record),
		cmocka_unit_test(test_refuses_what_it_cannot_show),
		cmocka_unit_test(test_trusted_comment_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
