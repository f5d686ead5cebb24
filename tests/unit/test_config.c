/* mesa.conf: every key's default, the limits of each range, bad values and unknown keys with
 * the exact sentence, comments and blank lines, files that are not a configuration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

/* Parses text over the defaults; the error, if any, is left in *e. */
static int parse(struct config *c, const char *text, struct tb_error *e)
{
	config_defaults(c);
	return config_parse(c, text, "mesa.conf", e);
}

/* A value that must be refused, with the sentence and reason of a bad value. */
static void assert_bad_value(const char *key, const char *value)
{
	struct config c;
	struct tb_error e = {0};
	char *line = xasprintf("%s = %s\n", key, value);
	char *want = xasprintf("mesa.conf line 1: bad value \"%s\" for %s; fix that line", value, key);
	assert_int_equal(parse(&c, line, &e), TB_EUSAGE);
	assert_string_equal(e.msg, want);
	assert_string_equal(tb_error_reason(&e), "usage");
	config_free(&c);
	free(line);
	free(want);
}

static void assert_good_value(const char *key, const char *value)
{
	struct config c;
	struct tb_error e = {0};
	char *line = xasprintf("%s = %s\n", key, value);
	if (parse(&c, line, &e) != TB_OK)
		fail_msg("%s: %s", line, e.msg);
	config_free(&c);
	free(line);
}

static void test_defaults(void **state)
{
	(void)state;
	struct config c;
	config_defaults(&c);
	assert_string_equal(c.source, "github:joonhoekim/tb323fu-linux");
	assert_string_equal(c.owner, "joonhoekim");
	assert_string_equal(c.repo, "tb323fu-linux");
	assert_string_equal(c.api_url, "https://api.github.com");
	assert_string_equal(c.channel, "stable");
	assert_int_equal(c.require_signature, 0);
	assert_int_equal(c.n_public_keys, 0);
	assert_null(c.public_keys[0]);
	assert_string_equal(c.keys_dir, TB_SYSCONFDIR "/tb323fu/keys");
	assert_null(c.ca_file);
	assert_null(c.token_file);
	assert_int_equal(c.smoke, 1);
	assert_string_equal(c.smoke_suite, "");
	assert_string_equal(c.smoke_suite_profile, "quick");
	assert_string_equal(c.smoke_suite_filter, "");
	assert_string_equal(c.cts_dir, "");
	assert_string_equal(c.cts_tests, "");
	assert_int_equal(c.cts_budget, 0);
	assert_int_equal(c.max_tries, 2);
	assert_int_equal(c.keep_versions, 2);
	assert_int_equal(c.connect_timeout, 15);
	assert_int_equal(c.stall_timeout, 30);
	assert_int_equal(c.stall_speed, 1024);
	assert_int_equal(c.auto_download, 0);
	assert_int_equal(c.set_here, 0);
	assert_null(c.path);
	assert_null(c.helper_problem);
	config_free(&c);
}

/* Every key set once, comments and blank lines between them. */
static void test_every_key(void **state)
{
	(void)state;
	struct config c;
	struct tb_error e = {0};
	const char *text = "# a comment line\n"
			   "\n"
			   "   \t\n"
			   "source = github:me/my.port_2 # trailing comment\n"
			   "api_url = file:///srv/mirror///\n"
			   "channel=testing\n"
			   "  require_signature  =  yes  \n"
			   "auto_download = on\n"
			   "public_key = RWone\n"
			   "public_key = RWtwo\n"
			   "keys_dir = /k\n"
			   "ca_file = /ca.pem\n"
			   "token_file = /token\n"
			   "smoke = off\n"
			   "smoke_suite = piglit-cl\n"
			   "smoke_suite_profile = full\n"
			   "smoke_suite_filter = ^cl-api\n"
			   "cts_dir = /cts\n"
			   "cts_tests = basic,api\n"
			   "cts_budget = 604800\n"
			   "max_tries = 100\n"
			   "keep_versions = 100\n"
			   "connect_timeout = 3600\n"
			   "stall_timeout = 1\n"
			   "stall_speed = 9223372036854775807\n";
	assert_int_equal(parse(&c, text, &e), TB_OK);
	assert_string_equal(c.source, "github:me/my.port_2");
	assert_string_equal(c.owner, "me");
	assert_string_equal(c.repo, "my.port_2");
	assert_string_equal(c.api_url, "file:///srv/mirror");
	assert_string_equal(c.channel, "testing");
	assert_int_equal(c.require_signature, 1);
	assert_int_equal(c.auto_download, 1);
	assert_int_equal(c.n_public_keys, 2);
	assert_string_equal(c.public_keys[0], "RWone");
	assert_string_equal(c.public_keys[1], "RWtwo");
	assert_string_equal(c.keys_dir, "/k");
	assert_string_equal(c.ca_file, "/ca.pem");
	assert_string_equal(c.token_file, "/token");
	assert_int_equal(c.smoke, 0);
	assert_string_equal(c.smoke_suite, "piglit-cl");
	assert_string_equal(c.smoke_suite_profile, "full");
	assert_string_equal(c.smoke_suite_filter, "^cl-api");
	assert_string_equal(c.cts_dir, "/cts");
	assert_string_equal(c.cts_tests, "basic,api");
	assert_int_equal(c.cts_budget, 604800);
	assert_int_equal(c.max_tries, 100);
	assert_int_equal(c.keep_versions, 100);
	assert_int_equal(c.connect_timeout, 3600);
	assert_int_equal(c.stall_timeout, 1);
	assert_int_equal(c.stall_speed, LONG_MAX);
	assert_int_equal(c.set_here, CONFIG_SET_CHANNEL | CONFIG_SET_SIGNATURE | CONFIG_SET_KEYS);
	config_free(&c);
}

/* Values that clear a setting, and the spellings of the booleans. */
static void test_clearing_and_words(void **state)
{
	(void)state;
	struct config c;
	struct tb_error e = {0};
	assert_int_equal(parse(&c, "keys_dir =\nsmoke_suite = piglit-cl\nsmoke_suite = none\n"
				   "smoke_suite_filter =\napi_url = https://h/\n", &e), TB_OK);
	assert_null(c.keys_dir);
	assert_null(c.smoke_suite);
	assert_null(c.smoke_suite_filter);
	assert_string_equal(c.api_url, "https://h");
	config_free(&c);
	/* the slashes of the scheme itself stay */
	assert_int_equal(parse(&c, "api_url = file:///\n", &e), TB_OK);
	assert_string_equal(c.api_url, "file:///");
	config_free(&c);
	assert_int_equal(parse(&c, "smoke_suite =\n", &e), TB_OK);
	assert_null(c.smoke_suite);
	config_free(&c);
	static const char *const yes[] = {"true", "on", "yes", "1"};
	static const char *const no[] = {"false", "off", "no", "0"};
	for (size_t i = 0; i < 4; i++) {
		char *text = xasprintf("smoke = %s\nrequire_signature = %s\n", no[i], yes[i]);
		assert_int_equal(parse(&c, text, &e), TB_OK);
		assert_int_equal(c.smoke, 0);
		assert_int_equal(c.require_signature, 1);
		config_free(&c);
		free(text);
	}
}

static void test_range_limits(void **state)
{
	(void)state;
	assert_good_value("max_tries", "1");
	assert_bad_value("max_tries", "0");
	assert_bad_value("max_tries", "101");
	assert_good_value("keep_versions", "2");
	assert_bad_value("keep_versions", "1");
	assert_bad_value("keep_versions", "101");
	assert_good_value("connect_timeout", "1");
	assert_bad_value("connect_timeout", "0");
	assert_bad_value("connect_timeout", "3601");
	assert_bad_value("stall_timeout", "0");
	assert_bad_value("stall_timeout", "3601");
	assert_good_value("stall_speed", "1");
	assert_bad_value("stall_speed", "0");
	assert_bad_value("stall_speed", "9223372036854775808"); /* past LONG_MAX */
	assert_bad_value("max_tries", "-1");
	assert_bad_value("max_tries", "2x");
	assert_bad_value("max_tries", "");
	assert_bad_value("max_tries", "0x10");
	assert_bad_value("max_tries", "4294967298"); /* would wrap to 2 as an int */
}

static void test_bad_values(void **state)
{
	(void)state;
	assert_bad_value("source", "gitlab:o/r");
	assert_bad_value("source", "github:o");
	assert_bad_value("source", "github:/r");
	assert_bad_value("source", "github:o/");
	assert_bad_value("source", "github:o/r/x");
	assert_bad_value("source", "github:o/r;x");
	assert_bad_value("api_url", "ftp://h");
	assert_bad_value("api_url", "api.github.com");
	assert_bad_value("channel", "nightly");
	assert_bad_value("channel", "");
	assert_bad_value("channel", "Stable");
	assert_bad_value("require_signature", "maybe");
	assert_bad_value("auto_download", "");
	assert_bad_value("smoke", "2");
	assert_bad_value("smoke_suite", "piglit");
	assert_bad_value("smoke_suite_profile", "");
	assert_bad_value("smoke_suite_profile", "slow");
	assert_bad_value("public_key", "");
}

/* The key list holds CONFIG_MAX_KEYS keys; one more is a bad value. */
static void test_too_many_public_keys(void **state)
{
	(void)state;
	struct config c;
	struct tb_error e = {0};
	char text[CONFIG_MAX_KEYS * 24 + 64] = "";
	for (int i = 0; i < CONFIG_MAX_KEYS; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "public_key = K%d\n", i);
	assert_int_equal(parse(&c, text, &e), TB_OK);
	assert_int_equal(c.n_public_keys, CONFIG_MAX_KEYS);
	config_free(&c);
	strcat(text, "public_key = one-more\n");
	assert_int_equal(parse(&c, text, &e), TB_EUSAGE);
	assert_string_equal(e.msg, "mesa.conf line 33: bad value \"one-more\" for public_key; fix that line");
	config_free(&c);
}

static void test_unknown_key_and_shape(void **state)
{
	(void)state;
	struct config c;
	struct tb_error e = {0};
	assert_int_equal(parse(&c, "# ok\nmax_tries = 3\nmax_trie = 3\n", &e), TB_EUSAGE);
	assert_string_equal(e.msg, "mesa.conf line 3: unknown key \"max_trie\"; did you mean \"max_tries\"? fix or remove that line (man tb323fu-mesa.conf lists the keys)");
	assert_string_equal(tb_error_reason(&e), "usage");
	assert_int_equal(c.max_tries, 3); /* the lines before it were read */
	config_free(&c);
	tb_error_clear(&e);
	assert_int_equal(parse(&c, "\n\nmax_tries 3\n", &e), TB_EUSAGE);
	assert_string_equal(e.msg,
			    "mesa.conf line 3: expected key = value, found \"max_tries 3\"; fix or remove that line");
	assert_string_equal(tb_error_reason(&e), "usage");
	config_free(&c);
	tb_error_clear(&e);
	/* keys are case-sensitive, and a comment hides the '=' after it */
	assert_int_equal(parse(&c, "Channel = stable\n", &e), TB_EUSAGE);
	assert_string_equal(e.msg, "mesa.conf line 1: unknown key \"Channel\"; did you mean \"channel\"? fix or remove that line (man tb323fu-mesa.conf lists the keys)");
	config_free(&c);
	tb_error_clear(&e);
	/* the typo gets the nearest key; a word near none gets none */
	assert_int_equal(parse(&c, "chanel = testing\n", &e), TB_EUSAGE);
	assert_non_null(strstr(e.msg, "unknown key \"chanel\"; did you mean \"channel\"?"));
	config_free(&c);
	tb_error_clear(&e);
	assert_int_equal(parse(&c, "frobnicate = 1\n", &e), TB_EUSAGE);
	assert_string_equal(e.msg, "mesa.conf line 1: unknown key \"frobnicate\"; fix or remove that line (man tb323fu-mesa.conf lists the keys)");
	config_free(&c);
	tb_error_clear(&e);
	assert_int_equal(parse(&c, "channel # = stable\n", &e), TB_EUSAGE);
	assert_string_equal(e.msg, "mesa.conf line 1: expected key = value, found \"channel\"; fix or remove that line");
	config_free(&c);
}

struct files {
	char *dir;
};

static int new_dir(void **state)
{
	struct files *f = xcalloc(1, sizeof *f);
	f->dir = test_mkdtemp("tb-config");
	assert_non_null(f->dir);
	*state = f;
	return 0;
}

static int drop_dir(void **state)
{
	struct files *f = *state;
	remove_tree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void test_load_files(void **state)
{
	struct files *f = *state;
	struct config c;
	struct tb_error e = {0};
	char *path = path_join(f->dir, "mesa.conf");
	config_defaults(&c);
	/* missing: fine unless it must exist */
	assert_int_equal(config_load(&c, path, 0, &e), TB_OK);
	assert_null(c.path);
	assert_int_equal(config_load(&c, path, 1, &e), TB_EUSAGE);
	char *want = xasprintf("cannot read the configuration %s: No such file or directory", path);
	assert_string_equal(e.msg, want);
	assert_string_equal(tb_error_reason(&e), "usage");
	free(want);
	tb_error_clear(&e);
	/* a file that is read: its path is kept */
	assert_int_equal(atomic_write_file(path, "max_tries = 7\n", 14, 0644, &e), TB_OK);
	assert_int_equal(config_load(&c, path, 1, &e), TB_OK);
	assert_int_equal(c.max_tries, 7);
	assert_string_equal(c.path, path);
	/* a bad line names the file */
	assert_int_equal(atomic_write_file(path, "\nkeep_versions = 1\n", 19, 0644, &e), TB_OK);
	assert_int_equal(config_load(&c, path, 1, &e), TB_EUSAGE);
	want = xasprintf("%s line 2: bad value \"1\" for keep_versions; fix that line", path);
	assert_string_equal(e.msg, want);
	free(want);
	tb_error_clear(&e);
	config_free(&c);
	free(path);
}

static void test_load_refuses_what_is_not_a_configuration(void **state)
{
	struct files *f = *state;
	struct config c;
	struct tb_error e = {0};
	config_defaults(&c);
	/* a FIFO is refused without waiting for a writer */
	char *fifo = path_join(f->dir, "fifo.conf");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(config_load(&c, fifo, 0, &e), TB_EUSAGE);
	char *want = xasprintf("cannot read the configuration %s: not a regular file", fifo);
	assert_string_equal(e.msg, want);
	assert_string_equal(tb_error_reason(&e), "usage");
	free(want);
	tb_error_clear(&e);
	/* /dev/null is how one says "no configuration" */
	assert_int_equal(config_load(&c, "/dev/null", 1, &e), TB_OK);
	assert_null(c.path);
	/* too large */
	char *big_path = path_join(f->dir, "big.conf");
	size_t big = CONFIG_MAX_BYTES + 1;
	char *text = xmalloc(big);
	memset(text, '#', big);
	assert_int_equal(atomic_write_file(big_path, text, big, 0644, &e), TB_OK);
	assert_int_equal(config_load(&c, big_path, 1, &e), TB_EUSAGE);
	want = xasprintf("the configuration %s is larger than 1 MiB; a mesa.conf is a few lines of key = value",
			 big_path);
	assert_string_equal(e.msg, want);
	assert_string_equal(tb_error_reason(&e), "too-large");
	free(want);
	tb_error_clear(&e);
	/* exactly the limit is read */
	assert_int_equal(atomic_write_file(big_path, text, big - 1, 0644, &e), TB_OK);
	assert_int_equal(config_load(&c, big_path, 1, &e), TB_OK);
	/* a NUL byte */
	assert_int_equal(atomic_write_file(big_path, "smoke = on\n\0require_signature = 1\n", 34, 0644, &e),
			 TB_OK);
	assert_int_equal(config_load(&c, big_path, 1, &e), TB_EUSAGE);
	want = xasprintf("the configuration %s contains a NUL byte, so it is not a text file; rewrite it as key = value lines",
			 big_path);
	assert_string_equal(e.msg, want);
	assert_string_equal(tb_error_reason(&e), "usage");
	free(want);
	/* a directory */
	tb_error_clear(&e);
	assert_int_equal(config_load(&c, f->dir, 1, &e), TB_EUSAGE);
	want = xasprintf("cannot read the configuration %s: Is a directory", f->dir);
	assert_string_equal(e.msg, want);
	free(want);
	free(text);
	free(big_path);
	free(fifo);
	config_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_clearing_and_words),
		cmocka_unit_test(test_range_limits),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_too_many_public_keys),
		cmocka_unit_test(test_unknown_key_and_shape),
		cmocka_unit_test_setup_teardown(test_load_files, new_dir, drop_dir),
		cmocka_unit_test_setup_teardown(test_load_refuses_what_is_not_a_configuration, new_dir,
						drop_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
