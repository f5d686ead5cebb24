/* The life cycle in one process: install, on, trial, boot-tick, keep, rollback, off, the
 * trial rule, ready, a damaged state file and commits that fail or are cut short. */
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

#include "base/config.h"
#include "lifecycle/lifecycle.h"
#include "store/manifest.h"
#include "store/state.h"
#include "store/txn.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/host.h"

struct fixture {
	char *dir;
	struct store s;
	struct config cfg;
	struct lc_ctx c;
};

static char *slurp(const struct fixture *f, const char *rel)
{
	char *p = path_join(f->s.root, rel);
	char *t = read_small_file(p, 1 << 20, NULL);
	free(p);
	return t;
}

static void put(const struct fixture *f, const char *rel, const char *text)
{
	char *p = path_join(f->s.root, rel);
	struct tb_error e = {0};
	assert_int_equal(atomic_write_file(p, text, strlen(text), 0644, &e), TB_OK);
	free(p);
}

/* The SHA-256 of "x", each driver file's one byte. */
#define X_SHA256 "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"

/* A whole version of two one-byte driver files and its MANIFEST: enough for the life cycle
 * (rollback verifies the tree it goes back to). */
static void add_version(struct fixture *f, const char *v)
{
	char *dir = store_version_dir(&f->s, v);
	struct tb_error e = {0};
	char *lib = path_join(dir, "lib");
	assert_int_equal(mkdir_p(lib, 0755, &e), TB_OK);
	free(lib);
	static const char *const files[] = {"lib/libvulkan_freedreno.so", "lib/libRusticlOpenCL.so.1"};
	for (int i = 0; i < 2; i++) {
		char *rel = xasprintf("versions/%s/%s", v, files[i]);
		put(f, rel, "x");
		char *p = path_join(f->s.root, rel);
		assert_int_equal(chmod(p, 0755), 0);
		free(p);
		free(rel);
	}
	free(dir);
	char *rel = xasprintf("versions/%s/MANIFEST", v);
	char *text = xasprintf("format=1\nversion=%s\narch=%s\ndrivers=vulkan,opencl\n"
			       "file " X_SHA256 " 755 1 %s\nfile " X_SHA256 " 755 1 %s\n",
			       v, host_arch(), files[0], files[1]);
	put(f, rel, text);
	free(rel);
	free(text);
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	f->dir = test_mkdtemp("tb-lifecycle");
	assert_non_null(f->dir);
	struct tb_error e = {0};
	assert_int_equal(store_open(&f->s, f->dir, 1, &e), TB_OK);
	assert_int_equal(store_lock(&f->s, 0, &e), TB_OK);
	config_defaults(&f->cfg);
	f->c = (struct lc_ctx){.s = &f->s, .cfg = &f->cfg};
	setenv("TB323FU_BOOT_ID", "boot-1", 1);
	add_version(f, "2026.1.1");
	add_version(f, "2026.2.1");
	add_version(f, "2026.3.1");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	remove_tree(f->dir);
	free(f->dir);
	store_close(&f->s);
	config_free(&f->cfg);
	free(f);
	return 0;
}

static void install(struct fixture *f, const char *v)
{
	struct smoke_outcome sm;
	struct lc_result r;
	struct tb_error e = {0};
	if (lc_install(&f->c, v, 0, &sm, &r, &e) != TB_OK)
		fail_msg("%s", e.msg);
}

static void view(struct fixture *f, struct lc_view *v)
{
	lc_read(&f->s, v);
}

static void test_install_on_trial_tick_expire(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	struct lc_view v;
	install(f, "2026.1.1");
	view(f, &v);
	assert_string_equal(v.current, "2026.1.1");
	assert_null(v.previous);
	assert_false(v.st.enabled);
	assert_string_equal(lc_state_name(&v), "ready"); /* 2026.3.1 waits */
	lc_view_free(&v);

	assert_int_equal(lc_on(&f->c, &r, &e), TB_OK);
	assert_true(r.trial);
	char *conf = slurp(f, "env.conf"), *cur = slurp(f, "env/current.env");
	assert_string_equal(conf, cur);
	assert_non_null(strstr(conf, "VK_DRIVER_FILES="));
	free(conf);
	free(cur);
	/* the boot of `on` is already under way: not a start of the trial */
	assert_int_equal(lc_boot_tick(&f->c, "boot-1", &r, &e), TB_OK);
	assert_false(r.counted);
	assert_int_equal(lc_boot_tick(&f->c, "boot-2", &r, &e), TB_OK);
	assert_true(r.counted);
	assert_int_equal(r.tries, 1);
	assert_int_equal(lc_boot_tick(&f->c, "boot-2", &r, &e), TB_OK);
	assert_false(r.counted);
	assert_int_equal(lc_boot_tick(&f->c, "boot-3", &r, &e), TB_OK);
	assert_int_equal(lc_boot_tick(&f->c, "boot-4", &r, &e), TB_OK);
	assert_true(r.switched_off);
	view(f, &v);
	assert_false(v.st.enabled);
	assert_null(v.st.trial);
	assert_string_equal(v.st.failed, "2026.1.1");
	lc_view_free(&v);
	conf = slurp(f, "env.conf");
	assert_string_equal(conf, "");
	free(conf);
}

/* One rule for every way a version becomes current while on: it goes on trial. */
static void test_trial_rule(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	struct lc_view v;
	install(f, "2026.1.1");
	assert_int_equal(lc_on(&f->c, &r, &e), TB_OK);
	assert_int_equal(lc_keep(&f->c, &r, &e), TB_OK);
	install(f, "2026.2.1");
	view(f, &v);
	assert_string_equal(v.st.trial, "2026.2.1");
	assert_string_equal(v.st.boot, "boot-1");
	lc_view_free(&v);
	assert_int_equal(lc_keep(&f->c, &r, &e), TB_OK);
	/* the kept current version installed again changes nothing: it stays kept */
	struct smoke_outcome sm;
	assert_int_equal(lc_install(&f->c, "2026.2.1", 0, &sm, &r, &e), TB_OK);
	assert_true(r.unchanged);
	view(f, &v);
	assert_null(v.st.trial);
	lc_view_free(&v);
	/* a version installed while on goes on trial, whatever its history */
	install(f, "2026.1.1");
	view(f, &v);
	assert_string_equal(v.st.trial, "2026.1.1");
	lc_view_free(&v);
	/* and so is the version a rollback puts back */
	assert_int_equal(lc_rollback(&f->c, &r, &e), TB_OK);
	view(f, &v);
	assert_string_equal(v.current, "2026.2.1");
	assert_string_equal(v.previous, "2026.1.1");
	assert_string_equal(v.st.trial, "2026.2.1");
	assert_int_equal(v.st.tries, 0);
	lc_view_free(&v);
	/* while off nothing is on trial */
	assert_int_equal(lc_off(&f->c, &r, &e), TB_OK);
	install(f, "2026.3.1");
	view(f, &v);
	assert_null(v.st.trial);
	lc_view_free(&v);
}

/* ready: never current or previous, even when newer (after a rollback). */
static void test_ready_excludes_current_and_previous(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	struct lc_view v;
	f->cfg.keep_versions = 5;
	install(f, "2026.2.1");
	install(f, "2026.3.1");
	assert_int_equal(lc_rollback(&f->c, &r, &e), TB_OK);
	view(f, &v);
	assert_string_equal(v.current, "2026.2.1");
	assert_string_equal(v.previous, "2026.3.1");
	assert_string_equal(v.ready, "2026.1.1");
	lc_view_free(&v);
	assert_int_equal(lc_remove(&f->c, "2026.1.1", 0, &r, &e), TB_OK);
	view(f, &v);
	assert_null(v.ready);
	assert_string_equal(lc_state_name(&v), "idle");
	lc_view_free(&v);
	/* an older version installed: the newer one is previous, not waiting */
	install(f, "2026.3.1");
	add_version(f, "2026.1.1");
	install(f, "2026.1.1");
	view(f, &v);
	assert_string_equal(v.previous, "2026.3.1");
	assert_string_equal(v.ready, "2026.2.1"); /* neither current nor previous */
	lc_view_free(&v);
}

static const char *const damaged[] = {
	"",                                        /* empty */
	"garbage\n",                               /* no key */
	"\x7f" "ELF\x02\x01\x01",                  /* binary */
	"enabled=1\ntrial=2026.1.1\ntries=2147483648\nmax=2\n", /* past INT_MAX */
	"enabled=1\ntrial=../../etc\n",            /* trial not a version */
	"enabled=1\nenabled=0\n",                  /* twice */
	"enabled=yes\n",
	"trial=2026.1.1\n",                        /* no enabled */
	"enabled=1\nfailed_reason=a\x1b]52;c;x\x07\n",
};

static void test_state_parse_refuses_damage(void **state)
{
	(void)state;
	struct state st;
	for (size_t i = 0; i < sizeof damaged / sizeof *damaged; i++) {
		assert_int_equal(state_parse(damaged[i], strlen(damaged[i]), &st), -1);
		assert_false(st.enabled);
	}
	const char nul[] = "enabled=1\ntr\0ial=2026.1.1\n";
	assert_int_equal(state_parse(nul, sizeof nul - 1, &st), -1);
	char *big = xmalloc(STATE_MAX_BYTES + 2);
	memset(big, 'a', STATE_MAX_BYTES + 1);
	memcpy(big, "enabled=1\nboot=", 15);
	big[STATE_MAX_BYTES + 1] = '\0';
	assert_int_equal(state_parse(big, STATE_MAX_BYTES + 1, &st), -1);
	free(big);
	const char good[] = "enabled=1\ntrial=2026.1.1\ntries=2147483647\nmax=2\nfailed=\nfailed_reason=\nboot=x\nnewer_key=1\n";
	assert_int_equal(state_parse(good, sizeof good - 1, &st), 0);
	assert_int_equal(st.tries, 2147483647);
	state_free(&st);
}

/* A damaged state keeps the session as env.conf has it; the next writer rebuilds it. */
static void test_damaged_state_keeps_the_session(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	struct lc_view v;
	install(f, "2026.1.1");
	assert_int_equal(lc_on(&f->c, &r, &e), TB_OK);
	char *before = slurp(f, "env.conf");
	for (size_t i = 0; i < sizeof damaged / sizeof *damaged; i++) {
		put(f, "state", damaged[i]);
		view(f, &v);
		assert_true(v.state_damaged);
		assert_true(v.st.enabled);
		lc_view_free(&v);
	}
	assert_int_equal(lc_keep(&f->c, &r, &e), TB_OK);
	assert_true(r.state_repaired);
	char *after = slurp(f, "env.conf");
	assert_string_equal(before, after);
	view(f, &v);
	assert_false(v.state_damaged);
	assert_true(v.st.enabled);
	lc_view_free(&v);
	free(before);
	free(after);
}

static char *snapshot(const struct fixture *f)
{
	struct strbuf sb = {0};
	const char *files[] = {"state", "env.conf", "env/current.env", "icd/turnip.json"};
	for (size_t i = 0; i < 4; i++) {
		char *t = slurp(f, files[i]);
		sb_appendf(&sb, "%s:%s\n", files[i], t ? t : "(none)");
		free(t);
	}
	char *c = store_current(&f->s), *p = store_previous(&f->s);
	sb_appendf(&sb, "current:%s previous:%s\n", c ? c : "", p ? p : "");
	free(c);
	free(p);
	return sb.buf;
}

/* A commit that fails half way through its preparation changes nothing at all. */
static void test_failed_commit_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	install(f, "2026.1.1");
	assert_int_equal(lc_on(&f->c, &r, &e), TB_OK);
	char *before = snapshot(f);
	/* the OpenCL vendor file cannot be written: icd/opencl is not a directory */
	char *ocl = path_join(f->s.root, "icd/opencl");
	remove_tree(ocl);
	put(f, "icd/opencl", "x");
	struct smoke_outcome sm;
	assert_int_not_equal(lc_install(&f->c, "2026.2.1", 0, &sm, &r, &e), TB_OK);
	/* the version stays in versions/, not current, and the same install finishes it */
	assert_non_null(strstr(e.msg, "Mesa 2026.2.1 was not made current: "));
	assert_non_null(strstr(e.msg, "it stays in "));
	assert_non_null(strstr(e.msg, "nothing else was changed"));
	assert_non_null(strstr(e.msg, "the same command run again makes it current"));
	char *after = snapshot(f);
	assert_string_equal(before, after);
	char *tmp = path_join(f->s.root, ".state.tmp.txn");
	assert_int_not_equal(access(tmp, F_OK), 0);
	free(tmp);
	unlink(ocl);
	free(ocl);
	free(before);
	free(after);
}

/* A writer killed after its journal: the next one finishes the commit. */
static void test_journal_is_finished(void **state)
{
	struct fixture *f = *state;
	install(f, "2026.1.1");
	put(f, ".state.tmp.txn", "enabled=1\ntrial=\ntries=0\nmax=2\nfailed=\nfailed_reason=\nboot=\n");
	char *link = path_join(f->s.root, ".current.tmp.txn");
	assert_int_equal(symlink("versions/2026.2.1", link), 0);
	free(link);
	put(f, ".journal", "tb323fu-journal 1\nmv\t.state.tmp.txn\tstate\nmv\t.current.tmp.txn\tcurrent\n"
			   "mv\t.gone.tmp.txn\tprevious\nrm\t-\tenv/nothing\nmv\t../x\t../../etc/passwd\nend\n");
	assert_true(txn_pending(&f->s));
	assert_int_equal(txn_recover(&f->s), 1);
	assert_false(txn_pending(&f->s));
	struct lc_view v;
	view(f, &v);
	assert_string_equal(v.current, "2026.2.1");
	assert_true(v.st.enabled);
	lc_view_free(&v);
}

/* rollback verifies previous first: damaged files are refused and nothing changes. */
static void test_rollback_refuses_damaged_previous(void **state)
{
	struct fixture *f = *state;
	struct lc_result r;
	struct tb_error e = {0};
	struct lc_view v;
	install(f, "2026.2.1");
	install(f, "2026.3.1");
	put(f, "versions/2026.2.1/lib/libvulkan_freedreno.so", "y");
	assert_int_equal(lc_rollback(&f->c, &r, &e), TB_EVERIFY);
	assert_string_equal(tb_error_reason(&e), "damaged");
	assert_non_null(strstr(e.msg, "rollback did not switch to the previous version, nothing was changed: Mesa 2026.2.1 is damaged: lib/libvulkan_freedreno.so ("));
	view(f, &v);
	assert_string_equal(v.current, "2026.3.1");
	assert_string_equal(v.previous, "2026.2.1");
	lc_view_free(&v);
}

/* The pruning after an install says what it removed, oldest first. */
static void test_install_reports_pruned(void **state)
{
	struct fixture *f = *state;
	struct smoke_outcome sm;
	struct lc_result r;
	struct tb_error e = {0};
	f->cfg.keep_versions = 5;
	install(f, "2026.2.1");
	install(f, "2026.3.1");
	add_version(f, "2026.4.1");
	install(f, "2026.4.1");
	f->cfg.keep_versions = 2;
	add_version(f, "2026.5.1");
	assert_int_equal(lc_install(&f->c, "2026.5.1", 0, &sm, &r, &e), TB_OK);
	/* 2026.1.1 is the fixture's own first version */
	assert_string_equal(r.pruned, "2026.1.1 2026.2.1 2026.3.1");
	assert_string_equal(r.pinned_kept, "");
	assert_int_equal(lc_install(&f->c, "2026.4.1", 0, &sm, &r, &e), TB_OK);
	assert_string_equal(r.pruned, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_install_on_trial_tick_expire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trial_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ready_excludes_current_and_previous, setup, teardown),
		cmocka_unit_test(test_state_parse_refuses_damage),
		cmocka_unit_test_setup_teardown(test_damaged_state_keeps_the_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_commit_changes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_is_finished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rollback_refuses_damaged_previous, setup, teardown),
		cmocka_unit_test_setup_teardown(test_install_reports_pruned, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
