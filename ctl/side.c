/* Running a command on the store's side or the distribution's, reading its output by lines. */
#include "side.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "programs.h"

#define MAX_LINE 65536

const char *side_name(enum side side)
{
	return side == SIDE_STORE ? "store" : "distribution";
}

char **side_argv(const struct store *s, const char *version, enum side side,
		 const char *rusticl_enable, char *const env[], char *const cmd[],
		 struct tb_error *e)
{
	char *envprog = find_program("env", NULL);
	if (!envprog) {
		tb_fail(e, TB_EFAIL, "env(1) is not in PATH; install coreutils");
		return NULL;
	}
	size_t n_env = 0, n_cmd = 0;
	while (env && env[n_env])
		n_env++;
	while (cmd[n_cmd])
		n_cmd++;
	char **inner = xcalloc(n_env + n_cmd + 3, sizeof *inner);
	size_t i = 0;
	inner[i++] = envprog;
	if (side == SIDE_DISTRO && rusticl_enable && *rusticl_enable)
		inner[i++] = xasprintf("RUSTICL_ENABLE=%s", rusticl_enable);
	for (size_t k = 0; k < n_env; k++)
		inner[i++] = xstrdup(env[k]);
	for (size_t k = 0; k < n_cmd; k++)
		inner[i++] = xstrdup(cmd[k]);
	char **argv = NULL;
	if (side == SIDE_STORE) {
		argv = smoke_launch_argv(s, version, inner, e);
	} else {
		char *launcher = find_launcher_program();
		if (!launcher) {
			tb_fail(e, TB_EFAIL, "the launcher tb323fu-mesa is neither next to tb323fu-ctl nor in "
				TB_PREFIX "/bin; reinstall tb323fu-mesa");
		} else {
			argv = xcalloc(i + 5, sizeof *argv);
			size_t j = 0;
			argv[j++] = launcher;
			argv[j++] = xstrdup("--store");
			argv[j++] = xstrdup(s->root);
			argv[j++] = xstrdup("distro");
			for (size_t k = 0; k < i; k++)
				argv[j++] = xstrdup(inner[k]);
		}
	}
	smoke_free_argv(inner);
	return argv;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct lines {
	struct strbuf buf;
	int cut;
	side_line_fn fn;
	void *ctx;
};

static void take(struct lines *l, const char *data, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n' || data[i] == '\r') {
			if (l->buf.len && l->fn)
				l->fn(l->ctx, l->buf.buf);
			l->buf.len = 0;
			l->cut = 0;
		} else if (l->buf.len < MAX_LINE) {
			char ch[2] = {data[i], '\0'};
			sb_append(&l->buf, ch);
		} else {
			l->cut = 1;
		}
	}
}

int side_run(char *const argv[], const char *cwd, int timeout, side_line_fn line, void *ctx,
	     int *status, int *timed_out, struct smoke_tail *tail, struct tb_error *e)
{
	struct smoke_child c;
	*status = 0;
	*timed_out = 0;
	int rc = smoke_child_start(&c, argv, cwd, e);
	if (rc)
		return rc;
	struct lines l = {.fn = line, .ctx = ctx};
	double deadline = timeout > 0 ? now_seconds() + timeout : 0;
	char buf[8192];
	while (c.out_fd >= 0 || c.err_fd >= 0) {
		int wait_ms = -1;
		if (deadline) {
			double left = deadline - now_seconds();
			if (left <= 0) {
				*timed_out = 1;
				break;
			}
			wait_ms = (int)(left * 1000) + 1;
		}
		struct pollfd fds[2] = {{.fd = c.out_fd, .events = POLLIN},
					{.fd = c.err_fd, .events = POLLIN}};
		int n = poll(fds, 2, wait_ms);
		if (n < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2 && n > 0; k++) {
			if (fds[k].fd < 0 || !fds[k].revents)
				continue;
			ssize_t got = read(fds[k].fd, buf, sizeof buf);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(fds[k].fd);
				*(k ? &c.err_fd : &c.out_fd) = -1;
			} else if (k == 0) {
				take(&l, buf, (size_t)got);
			} else if (tail) {
				smoke_tail_add(tail, buf, (size_t)got);
			}
		}
	}
	if (l.buf.len && l.fn)
		l.fn(l.ctx, l.buf.buf);
	sb_free(&l.buf);
	*status = *timed_out ? smoke_child_kill(&c) : smoke_child_wait(&c);
	return TB_OK;
}
