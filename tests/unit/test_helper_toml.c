/* The helper's helper.toml: every TOML spelling of its signature policy is read, and a file
 * that is there but cannot be read as TOML makes signatures required, never optional. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/helper_toml.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

static char *dir;

static int setup(void **state)
{
	dir = test_mkdtemp("test_helper_toml");
	return dir ? 0 : -1;
}

static int teardown(void **state)
{
	remove_tree(dir);
	free(dir);
	return 0;
}

/* The config after helper.toml holding len bytes of text (mesa.conf set nothing). */
static void apply_bytes(struct config *c, const char *text, size_t len)
{
	char *path = xasprintf("%s/helper.toml", dir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	config_defaults(c);
	config_apply_helper_toml(c, path);
	free(path);
}

static void apply(struct config *c, const char *text)
{
	apply_bytes(c, text, strlen(text));
}

/* Each text sets require_signature = true in [kernel] and is valid TOML. */
static void assert_requires(const char *text)
{
	struct config c;
	apply(&c, text);
	assert_int_equal(c.require_signature, 1);
	assert_null(c.helper_problem);
	config_free(&c);
}

static void test_spellings_of_the_kernel_table(void **state)
{
	assert_requires("[ kernel ]\nrequire_signature = true\n");
	assert_requires("[kernel] # the kernel updater\nrequire_signature = true\n");
	assert_requires("[\t\"kernel\"\t]\nrequire_signature = true\n");
	assert_requires("kernel.require_signature = true\n");
	assert_requires("kernel = { require_signature = true }\n");
	assert_requires("[kernel]\n\"require_signature\" = true\n");
	assert_requires("[kernel]\n'require_signature' = true\n");
	assert_requires("[kernel]\nrequire_signature=true# on\n");
	assert_requires("[battery]\ncharge_limit = 80\n[kernel]\nrequire_signature = true\n");
}

/* Text inside a multi-line string is a value, not a setting. */
static void test_multiline_strings_are_not_settings(void **state)
{
	assert_requires("[kernel]\nrequire_signature = true\nnote = \"\"\"\nrequire_signature = false\n\"\"\"\n");
	assert_requires("[kernel]\nrequire_signature = true\nnote = '''\nrequire_signature = false\n'''\n");
}

/* Not TOML (or ours set wrongly): signatures are required and the sentence names the file
 * and the line. */
static void assert_refused(const char *text, size_t len, const char *line)
{
	struct config c;
	apply_bytes(&c, text, len);
	assert_int_equal(c.require_signature, 1);
	assert_non_null(c.helper_problem);
	assert_non_null(strstr(c.helper_problem, "helper.toml"));
	if (line)
		assert_non_null(strstr(c.helper_problem, line));
	assert_string_equal(c.channel, "stable");
	assert_int_equal(c.n_public_keys, 0);
	config_free(&c);
}
#define REFUSED(text, line) assert_refused(text, sizeof text - 1, line)

static void test_not_toml_requires_signatures(void **state)
{
	REFUSED("[kernel]\nchannel = \"testing\"\nrequire_signature = false\x00\n", "line 3");
	REFUSED("[kernel]\nchannel = \"testing\"\nrequire_signature = false\nrequire_signature = false\n", "line 4");
	REFUSED("[kernel]\nrequire_signature = True\n", "line 2");
	REFUSED("[kernel]\nrequire_signature = false\nchannel = \"\xff\"\n", "line 3");
	REFUSED("[kernel\nrequire_signature = false\n", "line 1");
	REFUSED("[kernel]\nrequire_signature = false\n[kernel]\n", "line 3");
	/* a byte order mark: toml++ reads past it, the reference reader does not */
	REFUSED("\xef\xbb\xbf[kernel]\nrequire_signature = false\n", "line 1: a UTF-8 byte order mark");
}

static void test_wrong_types_require_signatures(void **state)
{
	REFUSED("[kernel]\nrequire_signature = \"false\"\n", "line 2");
	REFUSED("[kernel]\nrequire_signature = \"true\"\n", "line 2");
	REFUSED("[kernel]\nrequire_signature = 0\n", "line 2");
	REFUSED("[kernel]\nrequire_signature = false\nchannel = \"beta\"\n", "line 3");
	REFUSED("[kernel]\nrequire_signature = false\npublic_keys = \"RWQ\"\n", "line 3");
	REFUSED("[kernel]\nrequire_signature = false\npublic_keys = [\n  \"RWQ\",\n  1,\n]\n", "line 5");
	REFUSED("kernel = 1\n", "line 1");
}

static void test_a_file_over_a_mebibyte_requires_signatures(void **state)
{
	size_t len = CONFIG_MAX_BYTES + 2;
	char *text = xmalloc(len);
	memset(text, '\n', len);
	memcpy(text, "[kernel]\nrequire_signature = false\n", 35);
	assert_refused(text, len, "larger than 1 MiB");
	free(text);
}

static void test_channel_and_keys_are_taken(void **state)
{
	struct config c;
	apply(&c, "[kernel]\nchannel = 'testing'\nrequire_signature = false\n"
		  "public_keys = [ # the helper's\n  \"RWQa\", # first\n  'RWQb',\n  \"\",\n]\n");
	assert_null(c.helper_problem);
	assert_string_equal(c.channel, "testing");
	assert_int_equal(c.require_signature, 0);
	assert_int_equal(c.n_public_keys, 2);
	assert_string_equal(c.public_keys[0], "RWQa");
	assert_string_equal(c.public_keys[1], "RWQb");
	config_free(&c);

	apply(&c, "kernel = { channel = \"testing\", public_keys = [\"RWQc\"] }\n");
	assert_string_equal(c.channel, "testing");
	assert_int_equal(c.n_public_keys, 1);
	assert_int_equal(c.require_signature, 0);
	config_free(&c);
}

/* mesa.conf's own settings win; a broken helper file still leaves its sentence. */
static void test_mesa_conf_wins(void **state)
{
	struct config c;
	config_defaults(&c);
	struct tb_error e = {0};
	assert_int_equal(config_parse(&c, "channel = stable\nrequire_signature = off\n", "mesa.conf", &e), 0);
	char *path = xasprintf("%s/helper.toml", dir);
	FILE *f = fopen(path, "w");
	fputs("[kernel]\nchannel = \"testing\"\nrequire_signature = True\n", f);
	fclose(f);
	config_apply_helper_toml(&c, path);
	assert_int_equal(c.require_signature, 0);
	assert_string_equal(c.channel, "stable");
	assert_non_null(c.helper_problem);
	config_free(&c);
	free(path);
}

static void test_no_file_changes_nothing(void **state)
{
	struct config c;
	config_defaults(&c);
	char *path = xasprintf("%s/none/helper.toml", dir);
	config_apply_helper_toml(&c, path);
	assert_int_equal(c.require_signature, 0);
	assert_null(c.helper_problem);
	config_free(&c);
	free(path);
	apply(&c, "# nothing of ours\n[battery]\ncharge_limit = 80\n");
	assert_int_equal(c.require_signature, 0);
	assert_null(c.helper_problem);
	config_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings_of_the_kernel_table),
		cmocka_unit_test(test_multiline_strings_are_not_settings),
		cmocka_unit_test(test_not_toml_requires_signatures),
		cmocka_unit_test(test_wrong_types_require_signatures),
		cmocka_unit_test(test_a_file_over_a_mebibyte_requires_signatures),
		cmocka_unit_test(test_channel_and_keys_are_taken),
		cmocka_unit_test(test_mesa_conf_wins),
		cmocka_unit_test(test_no_file_changes_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
