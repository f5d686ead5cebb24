/* The state file: strict reading (every way it can be damaged, each refused and read as all
 * off), keys a newer writer may add, files that are not what writers write, and the round
 * trip of every field. */
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

#include "store/state.h"
#include "store/store.h"
#include "tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"

#define WHOLE "enabled=1\ntrial=2026.1.1\ntries=1\nmax=2\nfailed=\nfailed_reason=\nboot=b\n"

static void assert_all_off(const struct state *st)
{
	assert_int_equal(st->enabled, 0);
	assert_null(st->trial);
	assert_int_equal(st->tries, 0);
	assert_int_equal(st->max, 0);
	assert_null(st->failed);
	assert_null(st->failed_reason);
	assert_null(st->failed_reason_id);
	assert_null(st->boot);
}

static void assert_damaged(const char *text, size_t len)
{
	struct state st;
	if (state_parse(text, len, &st) != -1)
		fail_msg("read as whole: \"%.*s\"", (int)len, text);
	assert_all_off(&st);
}

static void assert_whole(const char *text)
{
	struct state st;
	if (state_parse(text, strlen(text), &st) != 0)
		fail_msg("read as damaged: \"%s\"", text);
	state_free(&st);
}

/* "enabled=1\n" with one more line. */
static void assert_line_damaged(const char *line)
{
	char *text = xasprintf("enabled=1\n%s\n", line);
	assert_damaged(text, strlen(text));
	free(text);
}

static void assert_line_whole(const char *line)
{
	char *text = xasprintf("enabled=1\n%s\n", line);
	assert_whole(text);
	free(text);
}

static void test_shape(void **state)
{
	(void)state;
	assert_whole(WHOLE);
	assert_whole("enabled=0\n");
	assert_whole("enabled=1"); /* the last line without its newline */
	assert_whole("enabled=1\n\n"); /* an empty line */
	assert_damaged("", 0);
	assert_damaged("\n", 1);
	assert_damaged("trial=2026.1.1\n", 15);       /* every writer writes enabled */
	assert_line_damaged("garbage");               /* a line without '=' */
	assert_line_damaged("=1");                    /* no key */
	assert_damaged("enabled=1\ntr\0ial=x\n", 19); /* a NUL byte */
	assert_damaged("\x7f" "ELF\x02\x01\x01", 7);
}

/* A key of a newer writer is skipped, but it must still look like a key. */
static void test_unknown_keys(void **state)
{
	(void)state;
	assert_line_whole("newer_key=anything at all");
	assert_line_whole("z=");
	assert_line_damaged("Newer=1");
	assert_line_damaged("newer-key=1");
	assert_line_damaged("newer key=1");
	assert_line_damaged("newer2=1");
	assert_line_damaged(" enabled=1");
}

static void test_duplicates(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"enabled=1", "trial=2026.1.1", "tries=0", "max=2", "failed=2026.1.1",
		"failed_reason=x", "failed_reason_id=smoke-failed", "boot=b",
	};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		char *text = xasprintf("enabled=0\n%s\n%s\n", lines[i], lines[i]);
		assert_damaged(text, strlen(text));
		free(text);
	}
	/* the same key with another value is a duplicate too */
	assert_damaged("enabled=1\nenabled=0\n", 20);
	/* a newer writer's key may repeat: it is not read */
	assert_line_whole("newer=1\nnewer=2");
}

static void test_bad_values(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"enabled=yes", "enabled=", "enabled=2", "enabled=01", "enabled= 1",
		"trial=../../etc", "trial=/abs", "trial=.hidden", "trial=v1", "trial=2026 1",
		"tries=-1", "tries=+1", "tries=1.0", "tries=", "tries=2147483648",
		"tries=00000000001", /* more than ten digits */
		"max=x", "max=99999999999",
		"failed=..", "failed=a/b",
		"failed_reason=a\x1b]52;c;x\x07", "failed_reason=tab\there", "failed_reason=\x7f",
		"failed_reason_id=Smoke", "failed_reason_id=smoke_failed", "failed_reason_id=a b",
		"boot=\x01",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_line_damaged(bad[i]);
	char *long_id = xmalloc(66);
	memset(long_id, 'a', 65);
	long_id[65] = '\0';
	char *line = xasprintf("failed_reason_id=%s", long_id);
	assert_line_damaged(line);
	free(line);
	long_id[64] = '\0';
	line = xasprintf("failed_reason_id=%s", long_id);
	assert_line_whole(line);
	free(line);
	free(long_id);
	char boot[130];
	memset(boot, 'b', 129);
	boot[129] = '\0';
	line = xasprintf("boot=%s", boot);
	assert_line_damaged(line);
	free(line);
	boot[128] = '\0';
	line = xasprintf("boot=%s", boot);
	assert_line_whole(line);
	free(line);
	/* the edges that are fine */
	assert_line_whole("tries=2147483647");
	assert_line_whole("tries=0000000001");
	assert_line_whole("trial=");
	assert_line_whole("failed_reason_id=");
	assert_line_whole("failed_reason=UTF-8 is fine: \xc3\xa9");
}

/* The session's GL: a line only when given, one of its words, read back. */
static void test_session_gl(void **state)
{
	(void)state;
	struct state st = {0}, back;
	struct strbuf sb = {0};
	st.enabled = 1;
	st.gl = SESSION_GL_ZINK;
	state_format(&st, &sb);
	assert_non_null(strstr(sb.buf, "\ngl=zink\n"));
	assert_int_equal(state_parse(sb.buf, sb.len, &back), 0);
	assert_int_equal(back.gl, SESSION_GL_ZINK);
	state_free(&back);
	sb_free(&sb);
	st.gl = SESSION_GL_DISTRO;
	state_format(&st, &sb);
	assert_null(strstr(sb.buf, "gl="));
	sb_free(&sb);
	assert_line_whole("gl=native");
	assert_line_whole("gl=distro");
	assert_line_whole("gl=");
	assert_line_damaged("gl=vulkan");
	assert_line_damaged("gl=Zink");
	assert_int_equal(session_gl_parse("native"), SESSION_GL_NATIVE);
	assert_int_equal(session_gl_parse("gl"), -1);
	assert_string_equal(session_gl_word(SESSION_GL_ZINK), "zink");
}

/* STATE_MAX_BYTES exactly is read; one byte more is damage. */
static void test_overlong(void **state)
{
	(void)state;
	static const char head[] = "enabled=1\nfailed_reason=";
	char *text = xmalloc(STATE_MAX_BYTES + 2);
	memcpy(text, head, sizeof head - 1);
	memset(text + sizeof head - 1, 'r', STATE_MAX_BYTES - sizeof head);
	text[STATE_MAX_BYTES - 1] = '\n';
	struct state st;
	assert_int_equal(state_parse(text, STATE_MAX_BYTES, &st), 0);
	assert_int_equal(strlen(st.failed_reason), STATE_MAX_BYTES - sizeof head);
	state_free(&st);
	text[STATE_MAX_BYTES - 1] = 'r';
	text[STATE_MAX_BYTES] = '\n';
	assert_damaged(text, STATE_MAX_BYTES + 1);
	free(text);
}

static void fill(struct state *st)
{
	memset(st, 0, sizeof *st);
	st->enabled = 1;
	state_set(&st->trial, "2026.2.1");
	st->tries = 2147483647;
	st->max = 5;
	state_set_failed(st, "2026.1.1", TB_R_SMOKE_FAILED, "the smoke test failed: vkcube");
	state_set(&st->boot, "0f6e-boot");
}

static void assert_same(const struct state *a, const struct state *b)
{
	assert_int_equal(a->enabled, b->enabled);
	assert_string_equal(a->trial, b->trial);
	assert_int_equal(a->tries, b->tries);
	assert_int_equal(a->max, b->max);
	assert_string_equal(a->failed, b->failed);
	assert_string_equal(a->failed_reason, b->failed_reason);
	assert_string_equal(a->failed_reason_id, b->failed_reason_id);
	assert_string_equal(a->boot, b->boot);
}

static void test_format_round_trip(void **state)
{
	(void)state;
	struct state st, back;
	fill(&st);
	struct strbuf sb = {0};
	state_format(&st, &sb);
	assert_string_equal(sb.buf, "enabled=1\ntrial=2026.2.1\ntries=2147483647\nmax=5\nfailed=2026.1.1\n"
				    "failed_reason=the smoke test failed: vkcube\n"
				    "failed_reason_id=smoke-failed\nboot=0f6e-boot\n");
	assert_int_equal(state_parse(sb.buf, sb.len, &back), 0);
	assert_same(&st, &back);
	state_free(&back);
	sb_free(&sb);
	/* all off: empty fields, no reason id line */
	struct state off = {0};
	state_format(&off, &sb);
	assert_string_equal(sb.buf, "enabled=0\ntrial=\ntries=0\nmax=0\nfailed=\nfailed_reason=\nboot=\n");
	assert_int_equal(state_parse(sb.buf, sb.len, &back), 0);
	assert_all_off(&back);
	sb_free(&sb);
	/* control characters in a sentence become spaces, so the file stays whole */
	state_set(&st.failed_reason, "two\nlines\x1b[0m");
	state_format(&st, &sb);
	assert_non_null(strstr(sb.buf, "\nfailed_reason=two lines [0m\n"));
	assert_int_equal(state_parse(sb.buf, sb.len, &back), 0);
	assert_string_equal(back.failed_reason, "two lines [0m");
	state_free(&back);
	sb_free(&sb);
	/* a copy is deep */
	state_copy(&back, &st);
	state_free(&st);
	assert_string_equal(back.trial, "2026.2.1");
	state_set_failed(&back, NULL, TB_R_SMOKE_FAILED, "ignored");
	assert_null(back.failed);
	assert_null(back.failed_reason);
	assert_null(back.failed_reason_id);
	state_free(&back);
}

struct fixture {
	char *dir;
	struct store s;
	char *path; /* <root>/state */
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	f->dir = test_mkdtemp("tb-state");
	assert_non_null(f->dir);
	struct tb_error e = {0};
	assert_int_equal(store_open(&f->s, f->dir, 1, &e), TB_OK);
	f->path = path_join(f->s.root, "state");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	remove_tree(f->dir);
	free(f->dir);
	free(f->path);
	store_close(&f->s);
	free(f);
	return 0;
}

static void put(const char *path, const char *text)
{
	struct tb_error e = {0};
	assert_int_equal(atomic_write_file(path, text, strlen(text), 0644, &e), TB_OK);
}

static void test_save_load_round_trip(void **state)
{
	struct fixture *f = *state;
	struct state st, back;
	/* no file yet: whole and all off */
	assert_int_equal(state_load(&f->s, &back), 0);
	assert_all_off(&back);
	fill(&st);
	struct tb_error e = {0};
	assert_int_equal(state_save(&f->s, &st, &e), TB_OK);
	assert_int_equal(state_load(&f->s, &back), 0);
	assert_same(&st, &back);
	state_free(&back);
	state_free(&st);
	struct stat sb;
	assert_int_equal(lstat(f->path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 07777, 0644);
}

/* What is not a regular file writers wrote is damaged: read as all off, never followed,
 * never waited on. */
static void test_load_refuses_other_files(void **state)
{
	struct fixture *f = *state;
	struct state st;
	put(f->path, "enabled=1\nenabled=1\n");
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_all_off(&st);
	/* a link, even to a whole state */
	char *other = path_join(f->dir, "elsewhere");
	put(other, WHOLE);
	assert_int_equal(unlink(f->path), 0);
	assert_int_equal(symlink(other, f->path), 0);
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_all_off(&st);
	/* a dangling link is not "absent" */
	assert_int_equal(unlink(other), 0);
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_int_equal(unlink(f->path), 0);
	/* a FIFO */
	assert_int_equal(mkfifo(f->path, 0600), 0);
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_all_off(&st);
	assert_int_equal(unlink(f->path), 0);
	/* a directory */
	assert_int_equal(mkdir(f->path, 0755), 0);
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_all_off(&st);
	assert_int_equal(rmdir(f->path), 0);
	/* larger than STATE_MAX_BYTES */
	char *big = xmalloc(STATE_MAX_BYTES + 2);
	memcpy(big, "enabled=1\nfailed_reason=", 24);
	memset(big + 24, 'r', STATE_MAX_BYTES + 1 - 24);
	big[STATE_MAX_BYTES + 1] = '\0';
	big[STATE_MAX_BYTES] = '\n';
	put(f->path, big);
	assert_int_equal(state_load(&f->s, &st), 1);
	assert_all_off(&st);
	free(big);
	/* and a whole one after all that */
	put(f->path, WHOLE);
	assert_int_equal(state_load(&f->s, &st), 0);
	assert_true(st.enabled);
	assert_string_equal(st.trial, "2026.1.1");
	state_free(&st);
	free(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_session_gl),
		cmocka_unit_test_setup_teardown(test_save_load_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_refuses_other_files, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
