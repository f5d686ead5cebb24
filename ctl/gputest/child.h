/* The one supervisor of the programs the control tool runs and watches (docs/design.md §7):
 * a child in its own process group, so that a timeout, a signal to us or the child's own end
 * ends everything it started; stdin is /dev/null, stdout and stderr are pipes read as the
 * child writes them. */
#ifndef TB_CHILD_H
#define TB_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"

/* Blocks SIGTERM, SIGINT and SIGHUP in this thread (the old mask into *old): what the
 * supervisor does while a child runs, and the job runner while its workers' children do. */
void child_block_interrupts(sigset_t *old);

/* Seconds on a monotonic clock. */
double now_seconds(void);

/* Every child runs under three bounds (docs/design.md §7): its time (the watch's deadline),
 * its output (the bytes it writes to stdout and stderr together, output_max) and its memory
 * (the resident memory of its whole process group, memory_max). At a bound its group is
 * stopped, and so is whatever still holds its pipes (a grandchild that left the group: a
 * daemon); child_bound_said says which bound it was. */
enum child_bound {
	CHILD_BOUND_NONE,   /* it ended by itself, or the watch's tick or a signal stopped it */
	CHILD_BOUND_TIME,   /* the deadline passed */
	CHILD_BOUND_OUTPUT, /* it wrote more than output_max bytes */
	CHILD_BOUND_MEMORY, /* its group held more than memory_max bytes of memory */
};
/* The bounds when the watch gives none (TB323FU_TEST_CHILD_OUTPUT_MAX and
 * TB323FU_TEST_CHILD_MEMORY_MAX lower them for a test, ctl/base/testhook.h). */
#define CHILD_OUTPUT_MAX (256ULL << 20)
#define CHILD_MEMORY_MAX (8ULL << 30)
/* How often the supervisor measures the group's memory. */
#define CHILD_MEMORY_POLL_MS 200

struct child {
	pid_t pid;
	int out_fd, err_fd;
	double started, deadline;  /* now_seconds() at child_start; the watch's deadline */
	enum child_bound bound;    /* which bound child_supervise stopped it at */
	unsigned long long output; /* bytes it wrote, as read */
	unsigned long long output_max, memory_max; /* the bounds it ran under */
};
/* cwd NULL: the current directory. A program that cannot be run (or a cwd that cannot be
 * entered) is a failure here, not a child that exits 127. The child starts with the default
 * action for SIGTERM, SIGINT, SIGHUP, SIGQUIT and SIGPIPE and no signal blocked. */
int child_start(struct child *c, char *const argv[], const char *cwd, struct tb_error *e);
/* Kills the child's process group (SIGKILL) and reaps it; returns the wait status. */
int child_kill(struct child *c);
/* Ends the child's process group: SIGTERM, at most grace_ms for the child to end, then
 * SIGKILL to what is left of the group; reaps the child and returns its wait status. */
int child_stop(struct child *c, int grace_ms);
/* How long child_supervise gives a group it stops between SIGTERM and SIGKILL. */
#define CHILD_GRACE_MS 2000
/* Waits for the child to end; returns the wait status. Closes the pipes. */
int child_wait(struct child *c);
/* "exit status 3", "signal 11 (Segmentation fault)". */
void child_describe_status(int status, char *buf, size_t size);

/* The last bytes a child wrote to a stream, for a failure's detail. */
struct child_tail {
	char buf[4096];
	size_t len;
};
void child_tail_add(struct child_tail *t, const char *data, size_t n);
/* The last non-empty line, at most max bytes, into out. */
void child_tail_last_line(const struct child_tail *t, char *out, size_t max);

#define CHILD_LINE_MAX 65536

/* What child_supervise does while the child runs. */
struct child_watch {
	void (*out)(void *ctx, const char *data, size_t n); /* stdout, as it comes; optional */
	/* stdout, a line at a time (without its '\n' or '\r'); lines over CHILD_LINE_MAX bytes
	 * are dropped whole; optional */
	void (*line)(void *ctx, const char *line);
	struct child_tail *err_tail; /* stderr's last bytes; optional */
	double deadline;             /* now_seconds() after which the child is stopped; 0: none */
	int (*tick)(void *ctx);      /* called at least every tick_ms; nonzero: stop the child */
	int tick_ms;
	void *ctx;
	/* A first signal to us does not stop the child: it runs to its end (or deadline) and
	 * the caller looks at tb_interrupted then; a second one stops it at once (bisect's step,
	 * docs/design.md §13). */
	int finish_on_signal;
	/* Bounds of the child's output and memory; 0: CHILD_OUTPUT_MAX, CHILD_MEMORY_MAX. */
	unsigned long long output_max, memory_max;
};
enum child_end {
	CHILD_EXITED,      /* the child ended by itself; *status says how */
	CHILD_TIMED_OUT,   /* a bound was reached (c->bound says which) or tick asked to stop */
	CHILD_INTERRUPTED, /* tb_interrupted: a signal asked us to stop */
};
/* Runs the child to its end, reading its streams, and says why it ended. A child that is
 * stopped gets child_stop (*status is the stopped child's). Whatever the child left running
 * in its group is killed when it ends; the pipes are closed and the child reaped. SIGTERM,
 * SIGINT and SIGHUP are blocked meanwhile but for the waits, so that the supervisor sees
 * tb_interrupted at once and a second signal takes effect only once the group is gone. */
int child_supervise(struct child *c, const struct child_watch *w, int *status);
/* The bound c was stopped at, for a sentence: "it wrote more than 256 MiB of output", "its
 * processes held more than 8 GiB of memory", "it did not end within 8 s"; "" for none. */
void child_bound_said(const struct child *c, char *buf, size_t size);

#endif
