/* Commits of several store files (docs/design.md §12, "Commit"): a commit makes every file
 * whole; a writer killed at each point of its commit is finished by the next one to take the
 * lock (after the journal) or leaves the old files (before it); a failure changes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"
#include "store/txn.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

struct fixture {
	char *dir;
	struct store s;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	f->dir = test_mkdtemp("tb-txn");
	assert_non_null(f->dir);
	struct tb_error e = {0};
	assert_int_equal(store_open(&f->s, f->dir, 1, &e), TB_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	store_close(&f->s);
	remove_tree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static char *at(const struct fixture *f, const char *rel)
{
	return path_join(f->s.root, rel);
}

static void put(const struct fixture *f, const char *rel, const char *text)
{
	char *p = at(f, rel);
	struct tb_error e = {0};
	assert_int_equal(atomic_write_file(p, text, strlen(text), 0644, &e), TB_OK);
	free(p);
}

static void link_to(const struct fixture *f, const char *rel, const char *target)
{
	char *p = at(f, rel);
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
	free(p);
}

static void assert_text(const struct fixture *f, const char *rel, const char *want)
{
	char *p = at(f, rel);
	struct stat st;
	if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
		fail_msg("%s is not a regular file", rel);
	assert_int_equal(st.st_mode & 07777, 0644);
	char *t = read_small_file(p, 1 << 20, NULL);
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
	free(p);
}

static void assert_link(const struct fixture *f, const char *rel, const char *want)
{
	char *p = at(f, rel);
	char buf[256];
	ssize_t n = readlink(p, buf, sizeof buf - 1);
	if (n < 0)
		fail_msg("%s is not a link", rel);
	buf[n] = '\0';
	assert_string_equal(buf, want);
	free(p);
}

static void assert_absent(const struct fixture *f, const char *rel)
{
	char *p = at(f, rel);
	struct stat st;
	if (lstat(p, &st) == 0)
		fail_msg("%s is still there", rel);
	free(p);
}

/* The files before a change: state, env/current.env, current -> versions/1,
 * previous -> versions/0 (which the change removes). */
static void old_files(const struct fixture *f)
{
	put(f, "state", "old state\n");
	put(f, "env/current.env", "OLD=1\n");
	link_to(f, "current", "versions/1");
	link_to(f, "previous", "versions/0");
}

static void assert_old_files(const struct fixture *f)
{
	assert_text(f, "state", "old state\n");
	assert_text(f, "env/current.env", "OLD=1\n");
	assert_link(f, "current", "versions/1");
	assert_link(f, "previous", "versions/0");
}

static void assert_new_files(const struct fixture *f)
{
	assert_text(f, "state", "new state\n");
	assert_text(f, "env/current.env", "NEW=1\n");
	assert_link(f, "current", "versions/2");
	assert_absent(f, "previous");
}

/* No name of a temporary (.<name>.tmp.…) in the folder rel. */
static void assert_no_temporaries(const struct fixture *f, const char *rel)
{
	char *p = at(f, rel);
	DIR *d = opendir(p);
	assert_non_null(d);
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] == '.' && strstr(de->d_name, ".tmp."))
			fail_msg("%s/%s is still there", rel, de->d_name);
	closedir(d);
	free(p);
}

/* No temporary and no journal left. */
static void assert_clean(const struct fixture *f)
{
	assert_no_temporaries(f, ".");
	assert_no_temporaries(f, "env");
	assert_absent(f, ".journal");
	assert_false(txn_pending(&f->s));
}

/* The change of every test: two files, a link and a removal. */
static void prepare(const struct fixture *f, struct txn *t)
{
	struct tb_error e = {0};
	txn_init(t, &f->s);
	assert_int_equal(txn_put_file(t, "state", "new state\n", 10, &e), TB_OK);
	assert_int_equal(txn_put_file(t, "env/current.env", "NEW=1\n", 6, &e), TB_OK);
	assert_int_equal(txn_put_link(t, "current", "versions/2", &e), TB_OK);
	assert_int_equal(txn_put_link(t, "previous", NULL, &e), TB_OK);
}

static void test_commit_makes_every_file_whole(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	struct txn t;
	prepare(f, &t);
	/* prepared, not committed: the old files, the temporaries beside them */
	assert_old_files(f);
	/* file temporaries of names no one could guess ahead */
	assert_true(!strncmp(t.ops[0].tmp, ".state.tmp.", 11) && strlen(t.ops[0].tmp) == 17);
	assert_true(!strncmp(t.ops[1].tmp, "env/.current.env.tmp.", 21));
	assert_text(f, t.ops[0].tmp, "new state\n");
	assert_text(f, t.ops[1].tmp, "NEW=1\n");
	assert_link(f, ".current.tmp.txn", "versions/2");
	assert_false(txn_pending(&f->s));
	struct tb_error e = {0};
	assert_int_equal(txn_commit(&t, &e), TB_OK);
	assert_int_equal(t.n, 0);
	assert_null(t.ops);
	assert_new_files(f);
	assert_clean(f);
	/* nothing to recover afterwards */
	assert_int_equal(txn_recover(&f->s), 0);
	assert_new_files(f);
}

static void test_abort_changes_nothing(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	struct txn t;
	prepare(f, &t);
	txn_abort(&t);
	assert_int_equal(t.n, 0);
	assert_old_files(f);
	assert_clean(f);
}

/* A temporary that cannot be written: the caller aborts, and every other temporary goes. */
static void test_failed_preparation_leaves_the_old_files(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	struct txn t;
	prepare(f, &t);
	struct tb_error e = {0};
	assert_int_equal(txn_put_file(&t, "missing/file", "x", 1, &e), TB_EFAIL);
	char *want = xasprintf("cannot write %s/missing/file: No such file or directory", f->s.root);
	assert_string_equal(e.msg, want);
	free(want);
	tb_error_clear(&e);
	assert_int_equal(txn_put_link(&t, "missing/link", "x", &e), TB_EFAIL);
	want = xasprintf("cannot create the link %s/missing/link: No such file or directory", f->s.root);
	assert_string_equal(e.msg, want);
	free(want);
	txn_abort(&t);
	assert_old_files(f);
	assert_clean(f);
}

/* The journal cannot be written (here: a directory has its name): the commit fails before
 * anything is renamed and removes its temporaries. */
static void test_failed_commit_leaves_the_old_files(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	char *journal = at(f, ".journal");
	assert_int_equal(mkdir(journal, 0755), 0);
	struct txn t;
	prepare(f, &t);
	struct tb_error e = {0};
	assert_int_equal(txn_commit(&t, &e), TB_EFAIL);
	char *want = xasprintf("cannot replace %s: Is a directory", journal);
	assert_string_equal(e.msg, want);
	free(want);
	assert_int_equal(t.n, 0);
	assert_int_equal(rmdir(journal), 0);
	assert_old_files(f);
	assert_clean(f);
	free(journal);
}

/* Lets the lock go, as the end of a command does. */
static void unlock(struct fixture *f)
{
	close(f->s.lock_fd);
	f->s.lock_fd = -1;
}

/* The writer, in a child, stopped at point of its commit (TB323FU_TEST_PAUSE) and killed
 * there. The FIFO says when it is there; nothing is left to timing. */
static void commit_killed_at(struct fixture *f, const char *point)
{
	char *fifo = path_join(f->dir, "pause.fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	int rd = open(fifo, O_RDWR | O_CLOEXEC); /* read-write: opening it never waits */
	assert_true(rd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *spec = xasprintf("%s:%s", point, fifo);
		setenv("TB323FU_TEST_PAUSE", spec, 1);
		struct txn t;
		struct tb_error e = {0};
		prepare(f, &t);
		txn_commit(&t, &e);
		/* never got there: say so rather than leave the test waiting */
		int w = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (w >= 0 && write(w, "ended\n", 6) == 6)
			close(w);
		_exit(1);
	}
	char said[64] = "";
	size_t n = 0;
	while (n < sizeof said - 1 && read(rd, said + n, 1) == 1 && said[n] != '\n')
		n++;
	said[n] = '\0';
	assert_int_equal(kill(pid, SIGKILL), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(rd);
	unlink(fifo);
	free(fifo);
	assert_string_equal(said, point);
	assert_true(WIFSIGNALED(status));
}

/* The next writer to take the lock finishes a commit killed after its journal was written,
 * wherever the kill landed among the renames. */
static void assert_finished_after_kill_at(struct fixture *f, const char *point)
{
	old_files(f);
	commit_killed_at(f, point);
	assert_true(txn_pending(&f->s));
	struct tb_error e = {0};
	assert_int_equal(store_lock(&f->s, 0, &e), TB_OK);
	assert_new_files(f);
	assert_clean(f);
	unlock(f);
}

static void test_killed_after_journal_is_finished(void **state)
{
	assert_finished_after_kill_at(*state, "journal");
}

static void test_killed_while_renaming_is_finished(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	commit_killed_at(f, "renaming");
	/* half the renames done: the state and env file new, the link not yet */
	assert_text(f, "state", "new state\n");
	assert_link(f, "current", "versions/1");
	struct tb_error e = {0};
	assert_int_equal(store_lock(&f->s, 0, &e), TB_OK);
	assert_new_files(f);
	assert_clean(f);
	unlock(f);
}

static void test_killed_after_renames_is_finished(void **state)
{
	assert_finished_after_kill_at(*state, "renamed");
}

/* A kill before the journal leaves only temporaries: the next writer removes them and the
 * old files stay. Built as the kill leaves it: txn_put_* done, no journal. */
static void test_killed_before_journal_leaves_the_old_files(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	struct txn t;
	prepare(f, &t);
	/* the writer is gone: its txn is never committed nor aborted */
	for (size_t i = 0; i < t.n; i++) {
		free(t.ops[i].tmp);
		free(t.ops[i].final);
	}
	free(t.ops);
	assert_false(txn_pending(&f->s));
	struct tb_error e = {0};
	assert_int_equal(store_lock(&f->s, 0, &e), TB_OK);
	assert_old_files(f);
	assert_clean(f);
	unlock(f);
}

/* A journal that is not whole (no "end" line, another head) is not acted on: the commit it
 * describes is rolled back, its temporaries removed. */
static void test_torn_journal_is_rolled_back(void **state)
{
	struct fixture *f = *state;
	static const char *const torn[] = {
		"tb323fu-journal 1\nmv\t.state.tmp.txn\tstate\nmv\t.current.tmp.txn\tcurrent\n",
		"tb323fu-journal 2\nmv\t.state.tmp.txn\tstate\nend\n",
		"",
	};
	for (size_t i = 0; i < sizeof torn / sizeof *torn; i++) {
		old_files(f);
		put(f, ".state.tmp.txn", "new state\n");
		link_to(f, ".current.tmp.txn", "versions/2");
		put(f, ".journal", torn[i]);
		assert_true(txn_pending(&f->s));
		struct tb_error e = {0};
		assert_int_equal(store_lock(&f->s, 0, &e), TB_OK);
		assert_old_files(f);
		assert_clean(f);
		unlock(f);
	}
}

/* A journal names paths under the root only; a temporary already renamed before the kill
 * is skipped; unknown operations are ignored. */
static void test_journal_lines(void **state)
{
	struct fixture *f = *state;
	old_files(f);
	put(f, "outside", "kept\n");
	put(f, ".state.tmp.txn", "new state\n");
	put(f, "env/current.env", "NEW=1\n"); /* renamed before the kill */
	link_to(f, ".current.tmp.txn", "versions/2");
	put(f, ".journal", "tb323fu-journal 1\n"
			   "mv\t.state.tmp.txn\tstate\n"
			   "mv\tenv/.current.env.tmp.txn\tenv/current.env\n"
			   "mv\t.current.tmp.txn\tcurrent\n"
			   "rm\t-\tprevious\n"
			   "rm\t-\t../outside\n"
			   "rm\t-\t/etc/hostname\n"
			   "mv\t../x\tstate\n"
			   "cp\t.state.tmp.txn\tother\n"
			   "end\n");
	assert_int_equal(txn_recover(&f->s), 1);
	assert_new_files(f);
	assert_clean(f);
	assert_absent(f, "other");
	char *out = path_join(f->dir, "outside");
	assert_int_equal(access(out, F_OK), 0);
	free(out);
	assert_int_equal(txn_recover(&f->s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_makes_every_file_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_changes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_preparation_leaves_the_old_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_failed_commit_leaves_the_old_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_after_journal_is_finished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_while_renaming_is_finished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_after_renames_is_finished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_before_journal_leaves_the_old_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_torn_journal_is_rolled_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_lines, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
