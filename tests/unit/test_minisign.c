/* minisign verification against signatures made by Debian's minisign 0.11
 * (`minisign -G -W`, `minisign -S [-l] -t "tag:mesa-2026.10.06"`). */
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

#include "release/minisign.h"
#include "common/releasename.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

#define KEY_A "RWSK1wu0jvJrLnEu+YP32aTe0viV5G18BEbfADkvm9ahgiihgfM1emex"
#define KEY_B "RWSPyBCVKJ4K7uE3ks0OWkwAmvP234So01pfOB2bgJCmNmV+Fua8pL1z"

static const char sums[] =
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  tb323fu-mesa-2026.10.06-x86_64.tar.gz\n";

/* Prehashed (ED) by key A. */
static const char sig_ed[] =
	"untrusted comment: signature from minisign secret key\n"
	"RUSK1wu0jvJrLrFdakDMvgURtt5rpkfX0/lDeVx/5AzrOitYwYvOwnDsQPHdr8AF7U0zqf/jXyba8J7qGw3lFnMH+gln17zPkQU=\n"
	"trusted comment: tag:mesa-2026.10.06\n"
	"WOoMJtHkyLIJIBvsCrYgkE5pYXFx7eN4OYCMu+LuDUd7qQKWwMSHCScmWbKUQ3UgF+QPq2XAxLy2HLch4K4zDA==\n";
/* Legacy pure Ed25519 (minisign -l) by key A. */
static const char sig_legacy[] =
	"untrusted comment: signature from minisign secret key\n"
	"RWSK1wu0jvJrLiMQNmL0JFNaa1Fifpk22yTfok+emgr/MYE1Lqy0iDZSU+xld9UagqjWLuotHbMwrA8Xt+TjxpIhqXPGl2MX+gQ=\n"
	"trusted comment: tag:mesa-2026.10.06\n"
	"7uScy+8EJdGirW3Lvp8VzU+4kfr2qrSEjuGRgBMuJGlCDw4j7yHOaAXTHMxWM9qsY91tRqc4aCuuSiWElohNBw==\n";
/* Key B. */
static const char sig_other[] =
	"untrusted comment: signature from minisign secret key\n"
	"RUSPyBCVKJ4K7uqeloYcw4QdRcap8l8ALu2uE9qrcEZuCX1xPi+wV5J40roWx9dd4MVTVcox9awMtKwmA5U5hLGOKKZMpJVCnwM=\n"
	"trusted comment: tag:mesa-2026.10.06\n"
	"A2xl4h8LaJJ9yw8ulkfTsG3i6HJS1fL7h4A50qDHbfz8a8a20TwNLJJCwQkVkoRYx0lVqCCIy3rAunXz5APcAQ==\n";
/* Key A, the same SHA256SUMS signed for another release. */
static const char sig_oldtag[] =
	"untrusted comment: signature from minisign secret key\n"
	"RUSK1wu0jvJrLrFdakDMvgURtt5rpkfX0/lDeVx/5AzrOitYwYvOwnDsQPHdr8AF7U0zqf/jXyba8J7qGw3lFnMH+gln17zPkQU=\n"
	"trusted comment: tag:mesa-2026.10.05\n"
	"V43npEjf/b9Gop1M43hNc52NLmeZxoO+kMuYY4YUDqfMYl2HoED/zRtWjyw8vgyK6KtafE4lwHQVUk+rvSMmDg==\n";
/* sig_oldtag with its trusted comment rewritten to name the new tag: the global signature fails. */
static const char sig_retagged[] =
	"untrusted comment: signature from minisign secret key\n"
	"RUSK1wu0jvJrLrFdakDMvgURtt5rpkfX0/lDeVx/5AzrOitYwYvOwnDsQPHdr8AF7U0zqf/jXyba8J7qGw3lFnMH+gln17zPkQU=\n"
	"trusted comment: tag:mesa-2026.10.06\n"
	"V43npEjf/b9Gop1M43hNc52NLmeZxoO+kMuYY4YUDqfMYl2HoED/zRtWjyw8vgyK6KtafE4lwHQVUk+rvSMmDg==\n";

struct fixture {
	char *dir;
	char *data, *sig, *keys;
	struct config cfg;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof *fx);
	fx->dir = test_mkdtemp("test_minisign");
	assert_non_null(fx->dir);
	fx->data = path_join(fx->dir, "SHA256SUMS");
	fx->sig = path_join(fx->dir, "SHA256SUMS.minisig");
	fx->keys = path_join(fx->dir, "keys");
	put(fx->data, sums);
	config_defaults(&fx->cfg);
	free(fx->cfg.keys_dir);
	fx->cfg.keys_dir = xstrdup(fx->keys); /* absent: no keys from there */
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	remove_tree(fx->dir);
	free(fx->dir);
	free(fx->data);
	free(fx->sig);
	free(fx->keys);
	config_free(&fx->cfg);
	free(fx);
	return 0;
}

static void trust(struct fixture *fx, const char *key)
{
	struct tb_error e = {0};
	char *line = xasprintf("public_key = %s\n", key);
	assert_int_equal(config_parse(&fx->cfg, line, "test", &e), TB_OK);
	free(line);
}

static int verify(struct fixture *fx, const char *sig, const char *version, struct tb_error *e)
{
	if (sig)
		put(fx->sig, sig);
	return minisign_verify_file(&fx->cfg, fx->data, sig ? fx->sig : NULL, version, e);
}

static void expect_refusal(struct fixture *fx, const char *sig, const char *version, const char *words)
{
	struct tb_error e = {0};
	assert_int_equal(verify(fx, sig, version, &e), TB_EVERIFY);
	if (!strstr(e.msg, words))
		fail_msg("message \"%s\" lacks \"%s\"", e.msg, words);
}

static void prehashed_signature_verifies(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	trust(fx, KEY_A);
	assert_int_equal(verify(fx, sig_ed, "2026.10.06", &e), TB_OK);
}

static void legacy_signature_verifies(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	trust(fx, KEY_A);
	assert_int_equal(verify(fx, sig_legacy, "2026.10.06", &e), TB_OK);
}

static void key_from_keys_dir(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	assert_int_equal(mkdir(fx->keys, 0755), 0);
	char *pub = path_join(fx->keys, "release.pub");
	put(pub, "untrusted comment: minisign public key 2E6BF28EB40BD78A\n" KEY_A "\n");
	free(pub);
	assert_int_equal(verify(fx, sig_ed, "2026.10.06", &e), TB_OK);
}

static void changed_data_is_refused(void **state)
{
	struct fixture *fx = *state;
	trust(fx, KEY_A);
	put(fx->data, "1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  tb323fu-mesa-2026.10.06-x86_64.tar.gz\n");
	expect_refusal(fx, sig_ed, "2026.10.06", "does not verify");
	expect_refusal(fx, sig_legacy, "2026.10.06", "does not verify");
}

static void untrusted_key_is_refused(void **state)
{
	struct fixture *fx = *state;
	trust(fx, KEY_A);
	expect_refusal(fx, sig_other, "2026.10.06", "EE0A9E289510C88F, which is not trusted");
}

static void any_trusted_key_is_enough(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	trust(fx, KEY_A);
	trust(fx, KEY_B);
	assert_int_equal(verify(fx, sig_other, "2026.10.06", &e), TB_OK);
}

static void another_tag_is_refused(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	trust(fx, KEY_A);
	expect_refusal(fx, sig_oldtag, "2026.10.06", "another release");
	assert_int_equal(verify(fx, sig_oldtag, "2026.10.05", &e), TB_OK);
	/* A prefix of the tag is not the tag. */
	expect_refusal(fx, sig_oldtag, "2026.10", "another release");
	/* A Mesa release's signature does not vouch for the CTS release of its version, and
	 * names no CTS version when asked which it signed. */
	put(fx->sig, sig_ed);
	assert_int_equal(minisign_verify_file_tag(&fx->cfg, fx->data, fx->sig, CTS_TAG_PREFIX,
						  "2026.10.06", NULL, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "expected tag:cts-2026.10.06"));
	char *signed_version = NULL;
	assert_int_equal(minisign_verify_file_tag(&fx->cfg, fx->data, fx->sig, CTS_TAG_PREFIX, NULL,
						  &signed_version, &e), TB_EVERIFY);
	assert_null(signed_version);
	assert_int_equal(minisign_verify_file_tag(&fx->cfg, fx->data, fx->sig, MESA_TAG_PREFIX, NULL,
						  &signed_version, &e), TB_OK);
	assert_string_equal(signed_version, "2026.10.06");
	free(signed_version);
}

static void rewritten_trusted_comment_is_refused(void **state)
{
	struct fixture *fx = *state;
	trust(fx, KEY_A);
	expect_refusal(fx, sig_retagged, "2026.10.06", "trusted comment");
}

static void unsigned_release(void **state)
{
	struct fixture *fx = *state;
	struct tb_error e = {0};
	/* No keys, not required: nothing to check. */
	assert_int_equal(verify(fx, NULL, "2026.10.06", &e), TB_OK);
	fx->cfg.require_signature = 1;
	expect_refusal(fx, NULL, "2026.10.06", "no public key is configured");
	trust(fx, KEY_A);
	expect_refusal(fx, NULL, "2026.10.06", "not signed");
	fx->cfg.require_signature = 0;
	expect_refusal(fx, NULL, "2026.10.06", "not signed");
}

static void malformed_files_are_refused(void **state)
{
	struct fixture *fx = *state;
	trust(fx, KEY_A);
	expect_refusal(fx, "", "2026.10.06", "not a minisign signature");
	expect_refusal(fx, "untrusted comment: x\nRUSK\ntrusted comment: y\nAAAA\n", "2026.10.06",
		       "not a minisign signature");
	char *cut = xstrdup(sig_ed);
	*strstr(cut, "trusted comment:") = '\0';
	expect_refusal(fx, cut, "2026.10.06", "not a minisign signature");
	free(cut);
	/* An unknown algorithm ("Ex"). */
	char *alg = xstrdup(sig_ed);
	char *b64 = strchr(alg, '\n') + 1;
	b64[2] = 'Z';
	expect_refusal(fx, alg, "2026.10.06", "not a minisign signature");
	free(alg);
}

static void bad_public_key_is_named(void **state)
{
	struct fixture *fx = *state;
	trust(fx, "RWSnotakey");
	expect_refusal(fx, sig_ed, "2026.10.06", "RWSnotakey");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(prehashed_signature_verifies, setup, teardown),
		cmocka_unit_test_setup_teardown(legacy_signature_verifies, setup, teardown),
		cmocka_unit_test_setup_teardown(key_from_keys_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(changed_data_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(untrusted_key_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(any_trusted_key_is_enough, setup, teardown),
		cmocka_unit_test_setup_teardown(another_tag_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(rewritten_trusted_comment_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(unsigned_release, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_files_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_public_key_is_named, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
