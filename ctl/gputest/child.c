/* The one supervisor of the programs the control tool runs and watches (the smoke program,
 * dEQP, piglit, benchmarks): each in its own process group, its output read as it comes, its
 * end or its deadline noticed, and everything it started killed on a timeout. */
#include "gputest/child.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "common/exitcode.h"
#include "base/testhook.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the child gets whatever we inherited: the signals that end a program do so (an ignored
 * or blocked SIGTERM would outlive our TERM-then-KILL's grace). Async-signal-safe. */
static void default_signals(void)
{
	static const int ending[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE};
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigemptyset(&dfl.sa_mask);
	for (size_t i = 0; i < sizeof ending / sizeof *ending; i++)
		sigaction(ending[i], &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int child_start(struct child *c, char *const argv[], const char *cwd,
		      struct tb_error *e)
{
	int out[2], err[2], report[2];
	*c = (struct child){.pid = -1, .out_fd = -1, .err_fd = -1, .started = now_seconds()};
	if (pipe2(out, O_CLOEXEC) < 0)
		return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot create a pipe for %s", argv[0]);
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(out[0]);
		close(out[1]);
		return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot create a pipe for %s", argv[0]);
	}
	/* The child reports a failed exec through this pipe; a successful exec closes it. */
	if (pipe2(report, O_CLOEXEC) < 0) {
		close(out[0]), close(out[1]), close(err[0]), close(err[1]);
		return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot create a pipe for %s", argv[0]);
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(out[0]), close(out[1]), close(err[0]), close(err[1]);
		close(report[0]), close(report[1]);
		return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot start %s", argv[0]);
	}
	if (pid == 0) {
		/* Only async-signal-safe calls until exec. */
		setpgid(0, 0);
		default_signals();
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		int step = 0;
		if (cwd && chdir(cwd) < 0)
			step = 1;
		else
			execv(argv[0], argv);
		int failure[2] = {step, errno};
		ssize_t ignored = write(report[1], failure, sizeof failure);
		(void)ignored;
		_exit(TB_ENOT_FOUND);
	}
	setpgid(pid, pid); /* also here, so a kill right after the fork reaches the group */
	close(out[1]);
	close(err[1]);
	close(report[1]);
	int failure[2];
	ssize_t n;
	do
		n = read(report[0], failure, sizeof failure);
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof failure) {
		waitpid(pid, NULL, 0);
		close(out[0]);
		close(err[0]);
		errno = failure[1];
		if (failure[0] == 1)
			return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot enter %s to run %s", cwd, argv[0]);
		return tb_fail_errno(e, TB_R_PROGRAM_FAILED, "cannot run %s", argv[0]);
	}
	c->pid = pid;
	c->out_fd = out[0];
	c->err_fd = err[0];
	return TB_OK;
}

/* The pipe's inode, 0 for a closed one. */
static ino_t pipe_inode(int fd)
{
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 ? st.st_ino : 0;
}

/* Whether process pid (not us) holds one of the pipes (by inode) open. */
static int holds_pipe(const char *pid, const ino_t inode[2])
{
	char dir[300];
	snprintf(dir, sizeof dir, "/proc/%s/fd", pid);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int holds = 0;
	struct dirent *de;
	while (!holds && (de = readdir(d))) {
		char path[600], target[64];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ssize_t n = readlink(path, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		unsigned long ino;
		if (sscanf(target, "pipe:[%lu]", &ino) == 1)
			holds = (inode[0] && ino == inode[0]) || (inode[1] && ino == inode[1]);
	}
	closedir(d);
	return holds;
}

/* A process that still holds the child's pipes after its group was killed left the group (a
 * daemon: setsid and fork): it writes what we read, so it goes too. Looked for only when a
 * pipe is still open, by the pipe's inode among every process's open files. */
static void kill_pipe_holders(const struct child *c)
{
	ino_t inode[2] = {pipe_inode(c->out_fd), pipe_inode(c->err_fd)};
	if (!inode[0] && !inode[1])
		return;
	DIR *d = opendir("/proc");
	if (!d)
		return;
	char self[32];
	snprintf(self, sizeof self, "%d", (int)getpid());
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]) || !strcmp(de->d_name, self))
			continue;
		if (holds_pipe(de->d_name, inode))
			kill((pid_t)atoi(de->d_name), SIGKILL);
	}
	closedir(d);
}

/* The resident bytes of the processes of group pgid (each one's /proc/PID/stat: its group is
 * the 5th field, its resident pages the 24th). */
static unsigned long long group_memory(pid_t pgid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	unsigned long long pages = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char path[300], buf[1024];
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		const char *after = strrchr(buf, ')'); /* the command's name may hold anything */
		long group = 0;
		unsigned long long rss = 0;
		if (after && sscanf(after + 1, " %*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d "
					       "%*d %*d %*d %*d %*d %*u %*u %llu", &group, &rss) == 2 &&
		    group == (long)pgid)
			pages += rss;
	}
	closedir(d);
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

static void close_pipes(struct child *c)
{
	if (c->out_fd >= 0)
		close(c->out_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->out_fd = c->err_fd = -1;
}

static int reap(struct child *c)
{
	int status = 0;
	while (c->pid > 0 && waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	c->pid = -1;
	return status;
}

int child_kill(struct child *c)
{
	if (c->pid > 0) {
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
	}
	kill_pipe_holders(c);
	close_pipes(c);
	return reap(c);
}

/* The child (the group's leader) has ended, without reaping it: while it is a zombie its pid,
 * the group's id, cannot be taken by another process, so the group can still be signalled. */
static int leader_ended(pid_t pid)
{
	siginfo_t si = {0};
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD; /* reaped elsewhere: gone all the same */
	return si.si_pid == pid;
}

int child_stop(struct child *c, int grace_ms)
{
	if (c->pid <= 0) {
		close_pipes(c);
		return 0;
	}
	kill(-c->pid, SIGTERM);
	/* The leader's end ends the grace: what it started and left behind gets no more. */
	double until = now_seconds() + grace_ms / 1000.0;
	while (!leader_ended(c->pid) && now_seconds() < until) {
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
	return child_kill(c);
}

int child_wait(struct child *c)
{
	close_pipes(c);
	return reap(c);
}

void child_describe_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, size, "wait status %d", status);
}

void child_tail_add(struct child_tail *t, const char *data, size_t n)
{
	if (n >= sizeof t->buf) {
		data += n - sizeof t->buf;
		n = sizeof t->buf;
	}
	if (t->len + n > sizeof t->buf) {
		size_t drop = t->len + n - sizeof t->buf;
		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, data, n);
	t->len += n;
}

void child_tail_last_line(const struct child_tail *t, char *out, size_t max)
{
	size_t end = t->len;
	while (end > 0 && (t->buf[end - 1] == '\n' || t->buf[end - 1] == '\r' || t->buf[end - 1] == ' '))
		end--;
	size_t start = end;
	while (start > 0 && t->buf[start - 1] != '\n')
		start--;
	size_t n = end - start;
	if (n >= max)
		n = max - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)t->buf[start + i];
		out[i] = ch < 0x20 ? ' ' : (char)ch;
	}
	out[n] = '\0';
}


/* stdout cut into lines for child_watch.line. */
struct lines {
	struct strbuf buf;
	int overflow;
};

static void split_lines(struct lines *l, const struct child_watch *w, const char *data, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n' || data[i] == '\r') {
			if (!l->overflow && l->buf.len)
				w->line(w->ctx, l->buf.buf);
			l->buf.len = 0;
			if (l->buf.buf)
				l->buf.buf[0] = '\0';
			l->overflow = 0;
		} else if (l->buf.len < CHILD_LINE_MAX) {
			char ch[2] = {data[i], '\0'};
			sb_append(&l->buf, ch);
		} else {
			l->overflow = 1;
		}
	}
}

/* Reads what one stream has; closes it at its end. */
static void read_stream(struct child *c, int k, const struct child_watch *w, struct lines *l)
{
	char buf[8192];
	int *fd = k ? &c->err_fd : &c->out_fd;
	ssize_t got = read(*fd, buf, sizeof buf);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (got <= 0) {
		close(*fd);
		*fd = -1;
	} else if (k == 0) {
		c->output += (unsigned long long)got;
		if (w->out)
			w->out(w->ctx, buf, (size_t)got);
		if (w->line)
			split_lines(l, w, buf, (size_t)got);
	} else {
		c->output += (unsigned long long)got;
		if (w->err_tail)
			child_tail_add(w->err_tail, buf, (size_t)got);
	}
}

/* One poll of both streams for at most wait_ms (no streams: only the wait). The signals that
 * interrupt us are blocked but for the poll itself (ppoll), so one that comes just before it
 * cuts it short instead of waiting out the time. */
static void read_some(struct child *c, const struct child_watch *w, struct lines *l,
		      int wait_ms, const sigset_t *during)
{
	struct pollfd fds[2] = {{.fd = c->out_fd, .events = POLLIN},
				{.fd = c->err_fd, .events = POLLIN}};
	struct timespec t = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000 * 1000};
	int n = ppoll(fds, 2, &t, during);
	for (int k = 0; k < 2 && n > 0; k++)
		if (fds[k].fd >= 0 && fds[k].revents)
			read_stream(c, k, w, l);
}

/* How long the next poll may wait: until the next tick, the deadline, or the next measure
 * of the group's memory. */
static int next_wait_ms(const struct child *c, const struct child_watch *w)
{
	int wait_ms = c->out_fd >= 0 || c->err_fd >= 0 ? CHILD_MEMORY_POLL_MS : 20;
	if (w->tick && w->tick_ms > 0 && w->tick_ms < wait_ms)
		wait_ms = w->tick_ms;
	if (w->deadline > 0) {
		double left = w->deadline - now_seconds();
		if (left <= 0)
			return 0;
		if (left * 1000 < wait_ms)
			wait_ms = (int)(left * 1000) + 1;
	}
	return wait_ms;
}

void child_block_interrupts(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Why the watch stops the child now (CHILD_EXITED: it does not). */
/* A signal that came after the first one, kept pending while the child finishes. */
static int second_signal(void)
{
	sigset_t pending;
	return sigpending(&pending) == 0 &&
	       (sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGINT) == 1 ||
		sigismember(&pending, SIGHUP) == 1);
}

/* A bound reached (c->bound set), the group's memory measured at most every
 * CHILD_MEMORY_POLL_MS (*measured: when it was last). */
static int bound_reached(struct child *c, const struct child_watch *w, double *measured)
{
	if (w->deadline > 0 && now_seconds() >= w->deadline)
		c->bound = CHILD_BOUND_TIME;
	else if (c->output > c->output_max)
		c->bound = CHILD_BOUND_OUTPUT;
	else if (now_seconds() - *measured >= CHILD_MEMORY_POLL_MS / 1000.0) {
		*measured = now_seconds();
		if (group_memory(c->pid) > c->memory_max)
			c->bound = CHILD_BOUND_MEMORY;
	}
	return c->bound != CHILD_BOUND_NONE;
}

static int reason_to_stop(struct child *c, const struct child_watch *w, double *measured)
{
	if (tb_interrupted && (!w->finish_on_signal || second_signal()))
		return CHILD_INTERRUPTED;
	if (bound_reached(c, w, measured))
		return CHILD_TIMED_OUT;
	return CHILD_EXITED;
}

int child_supervise(struct child *c, const struct child_watch *w, int *status)
{
	*status = 0;
	struct lines l = {0};
	sigset_t old;
	/* Blocked until the child's group is gone, so that a signal never finds the group half
	 * stopped; one held pending meanwhile is delivered on the way out (and only marks us
	 * interrupted again). */
	child_block_interrupts(&old);
	sigset_t held; /* after a first signal, a child that finishes keeps the next one pending */
	pthread_sigmask(SIG_BLOCK, NULL, &held);
	int why;
	double measured = 0;
	c->bound = CHILD_BOUND_NONE;
	c->deadline = w->deadline;
	c->output_max = testhook_bound("CHILD_OUTPUT_MAX", w->output_max ? w->output_max : CHILD_OUTPUT_MAX);
	c->memory_max = testhook_bound("CHILD_MEMORY_MAX", w->memory_max ? w->memory_max : CHILD_MEMORY_MAX);
	for (;;) {
		if ((why = reason_to_stop(c, w, &measured)))
			break;
		/* Streams first, so that nothing the child wrote before it ended is lost. */
		read_some(c, w, &l, next_wait_ms(c, w),
			  w->finish_on_signal && tb_interrupted ? &held : &old);
		if ((why = reason_to_stop(c, w, &measured)))
			break;
		if (w->tick && w->tick(w->ctx)) {
			why = CHILD_TIMED_OUT;
			break;
		}
		/* Ended: what is still in the pipes is read; a grandchild that keeps them open
		 * does not hold us, nor does it live on (the leader is not reaped yet, so its
		 * group can still be named). */
		if (leader_ended(c->pid)) {
			for (int i = 0; i < 64 && (c->out_fd >= 0 || c->err_fd >= 0); i++)
				read_some(c, w, &l, 0, &old);
			break;
		}
	}
	*status = why ? child_stop(c, CHILD_GRACE_MS) : child_kill(c);
	/* a last line without its newline */
	if (w->line && !l.overflow && l.buf.len)
		w->line(w->ctx, l.buf.buf);
	sb_free(&l.buf);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return why;
}

/* 268435456 → "256 MiB", 1500 → "1500 bytes". */
static void say_bytes(unsigned long long n, char *buf, size_t size)
{
	if (n >= (1ULL << 30) && n % (1ULL << 30) == 0)
		snprintf(buf, size, "%llu GiB", n >> 30);
	else if (n >= (1ULL << 20) && n % (1ULL << 20) == 0)
		snprintf(buf, size, "%llu MiB", n >> 20);
	else
		snprintf(buf, size, "%llu bytes", n);
}

void child_bound_said(const struct child *c, char *buf, size_t size)
{
	char bytes[48];
	switch (c->bound) {
	case CHILD_BOUND_TIME:
		snprintf(buf, size, "it did not end within %.0f s", c->deadline - c->started);
		break;
	case CHILD_BOUND_OUTPUT:
		say_bytes(c->output_max, bytes, sizeof bytes);
		snprintf(buf, size, "it wrote more than %s of output", bytes);
		break;
	case CHILD_BOUND_MEMORY:
		say_bytes(c->memory_max, bytes, sizeof bytes);
		snprintf(buf, size, "its processes held more than %s of memory", bytes);
		break;
	default:
		snprintf(buf, size, "%s", "");
	}
}
