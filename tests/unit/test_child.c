/* The supervisor of children: a signal to us, a stop asked by the watch, a child that ignores
 * SIGTERM and a child that ends by itself all leave nothing of its process group running.
 * Every child here writes a file once it has started; the tests wait for files, not times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "gputest/child.h"
#include "base/error.h"
#include "base/fs.h"

static char *dir;

/* The pid a child wrote to path, 0 when it has not yet. */
static pid_t pid_in(const char *path)
{
	char *text = read_small_file(path, 64, NULL);
	pid_t pid = text ? (pid_t)atoi(text) : 0;
	free(text);
	return pid;
}

static int exists(void *path)
{
	return access(path, F_OK) == 0;
}

/* Gone, or a zombie that only waits for its new parent to reap it. */
static int gone(pid_t pid)
{
	if (kill(pid, 0) != 0)
		return 1;
	char path[64], state = 0;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	int n = fscanf(f, "%*d (%*[^)]) %c", &state);
	fclose(f);
	return n == 1 && state == 'Z';
}

/* Waits, at most a minute, for the process to be gone. */
static int gone_soon(pid_t pid)
{
	for (int i = 0; i < 6000; i++) {
		if (gone(pid))
			return 1;
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
	return 0;
}

/* Runs script under sh, in dir; returns how child_supervise says it ended. */
static int supervise(const char *script, int (*tick)(void *), int *status)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	unlink("started");
	unlink("grandchild");
	struct child c;
	struct tb_error e = {0};
	assert_int_equal(child_start(&c, argv, dir, &e), TB_OK);
	/* only a bound for a supervisor that would never stop the child */
	struct child_watch w = {.deadline = now_seconds() + 600, .tick = tick, .tick_ms = 10,
				.ctx = "started"};
	return child_supervise(&c, &w, status);
}

static void on_signal(int sig)
{
	tb_interrupted = sig;
}

static void signal_to_us_ends_the_group(void **state)
{
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESETHAND};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	tb_interrupted = 0;
	int status;
	/* the child signals us once its grandchild runs, as a user would */
	int end = supervise("sleep 1000 & echo $! >grandchild; kill -TERM $PPID; wait", NULL, &status);
	assert_int_equal(end, CHILD_INTERRUPTED);
	assert_int_equal(tb_interrupted, SIGTERM);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	pid_t grandchild = pid_in("grandchild");
	assert_true(grandchild > 0);
	assert_true(gone_soon(grandchild));
	tb_interrupted = 0;
	signal(SIGTERM, SIG_DFL);
}

static void stop_ends_the_group(void **state)
{
	int status;
	int end = supervise("sleep 1000 & echo $! >grandchild; : >started; wait", exists, &status);
	assert_int_equal(end, CHILD_TIMED_OUT);
	pid_t grandchild = pid_in("grandchild");
	assert_true(grandchild > 0);
	assert_true(gone_soon(grandchild));
}

static void sigterm_ignored_gets_sigkill(void **state)
{
	int status;
	int end = supervise("trap '' TERM; : >started; while :; do sleep 1; done", exists, &status);
	assert_int_equal(end, CHILD_TIMED_OUT);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void own_end_takes_what_it_left(void **state)
{
	int status;
	int end = supervise("sleep 1000 >/dev/null 2>&1 & echo $! >grandchild; exit 3", NULL, &status);
	assert_int_equal(end, CHILD_EXITED);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	pid_t grandchild = pid_in("grandchild");
	assert_true(grandchild > 0);
	assert_true(gone_soon(grandchild));
}

/* What we ignore or block is not what the child gets: SIGTERM ends it. */
static void child_gets_default_signals(void **state)
{
	signal(SIGTERM, SIG_IGN);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int status;
	int end = supervise("kill -TERM $$; echo survived >started; exec sleep 1000", exists, &status);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	signal(SIGTERM, SIG_DFL);
	assert_int_equal(end, CHILD_EXITED);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
}

/* Runs script under the bounds given (deadline in seconds from now, 0: a bound only for a
 * supervisor that would never stop it); the bound it stopped at and its sentence. */
static int bounded(const char *script, double seconds, unsigned long long output_max,
		   unsigned long long memory_max, char *said, size_t size)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	unlink("grandchild");
	struct child c;
	struct tb_error e = {0};
	assert_int_equal(child_start(&c, argv, dir, &e), TB_OK);
	struct child_watch w = {.deadline = now_seconds() + (seconds > 0 ? seconds : 600),
				.output_max = output_max, .memory_max = memory_max};
	int status, end = child_supervise(&c, &w, &status);
	assert_int_equal(end, c.bound == CHILD_BOUND_NONE ? CHILD_EXITED : CHILD_TIMED_OUT);
	child_bound_said(&c, said, size);
	return c.bound;
}

/* Names without end, as fast as it can write them: the output bound stops it. */
static void endless_fast_output(void **state)
{
	char said[128];
	assert_int_equal(bounded("i=0; while :; do i=$((i+1)); printf '\\tname_%d\\n' $i; done", 0,
				 1 << 20, 0, said, sizeof said), CHILD_BOUND_OUTPUT);
	assert_string_equal(said, "it wrote more than 1 MiB of output");
}

/* A line now and then, for ever: the time bound, whatever the output bound. */
static void endless_slow_output(void **state)
{
	char said[128];
	assert_int_equal(bounded("while :; do echo x; sleep 0.05; done", 1, 1 << 20, 0, said, sizeof said),
			 CHILD_BOUND_TIME);
	assert_string_equal(said, "it did not end within 1 s");
}

static void silence(void **state)
{
	char said[128];
	assert_int_equal(bounded("exec sleep 1000", 1, 0, 0, said, sizeof said), CHILD_BOUND_TIME);
	assert_string_equal(said, "it did not end within 1 s");
}

/* 48 MiB held in a shell variable, under a bound of 16: the memory bound. */
static void memory_held(void **state)
{
	char said[128];
	assert_int_equal(bounded("x=$(head -c 50331648 /dev/zero | tr '\\0' a); sleep 1000", 0, 0, 16 << 20,
				 said, sizeof said), CHILD_BOUND_MEMORY);
	assert_string_equal(said, "its processes held more than 16 MiB of memory");
}

/* A grandchild that left the group (setsid) and keeps writing into our pipe: when the child
 * ends, the grandchild goes too, found by the pipe it holds. */
static void daemonized_grandchild(void **state)
{
	char said[128];
	assert_int_equal(bounded("setsid sh -c 'echo $$ >grandchild.tmp; mv grandchild.tmp grandchild; "
				 "while :; do echo x; sleep 0.05; done' & "
				 "while [ ! -s grandchild ]; do sleep 0.01; done; exit 0",
				 0, 0, 0, said, sizeof said), CHILD_BOUND_NONE);
	assert_string_equal(said, "");
	pid_t grandchild = pid_in("grandchild");
	assert_true(grandchild > 0);
	assert_true(gone_soon(grandchild));
}

/* The same daemon writing as fast as it can while the child waits for ever: the output bound
 * stops the group and the daemon. */
static void daemonized_fast_writer(void **state)
{
	char said[128];
	assert_int_equal(bounded("setsid sh -c 'echo $$ >grandchild.tmp; mv grandchild.tmp grandchild; "
				 "exec yes' & exec sleep 1000",
				 0, 1 << 20, 0, said, sizeof said), CHILD_BOUND_OUTPUT);
	pid_t grandchild = pid_in("grandchild");
	assert_true(grandchild > 0);
	assert_true(gone_soon(grandchild));
}

static int setup(void **state)
{
	dir = test_mkdtemp("test_child");
	return dir && chdir(dir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	if (chdir("/") != 0)
		return -1;
	remove_tree(dir);
	free(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signal_to_us_ends_the_group),
		cmocka_unit_test(stop_ends_the_group),
		cmocka_unit_test(sigterm_ignored_gets_sigkill),
		cmocka_unit_test(own_end_takes_what_it_left),
		cmocka_unit_test(child_gets_default_signals),
		cmocka_unit_test(endless_fast_output),
		cmocka_unit_test(endless_slow_output),
		cmocka_unit_test(silence),
		cmocka_unit_test(memory_held),
		cmocka_unit_test(daemonized_grandchild),
		cmocka_unit_test(daemonized_fast_writer),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
