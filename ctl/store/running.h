/* The running operation, published in the store for every reader (docs/design.md §13): which
 * command runs, its step (a state name) and its percent for the whole command, and the outcome
 * of the last finished one. */
#ifndef TB_RUNNING_H
#define TB_RUNNING_H

#include "base/progress.h"

/* Starts accounting for command; the returned progress wraps inner (which may be NULL) and is
 * what the command hands the engine. */
const struct tb_progress *running_begin(const char *command, const struct tb_progress *inner);
/* The store a writer holds the lock of (lock_fd): from now on the step and percent are
 * published in <root>/running (replaced atomically, at most four times a second). The lock
 * stays held, through a duplicate of lock_fd, until running_end has written last-operation. */
void running_attach(const char *root, int lock_fd);
/* The same for a reader that pins its version and takes no lock (smoke, bench, verify): its
 * record is <root>/.running-reader.<pid>, with its start time, so status shows it while no
 * writer runs, and a record a killed reader left (or a pid used again) says nothing. */
void running_attach_reader(const char *root);
/* The whole command's percent so far (0-100, never decreasing; 100 only once it succeeded). */
int running_percent(void);
/* The command ended: <root>/running goes, <root>/last-operation keeps the outcome; the
 * percent becomes 100 when code is 0 and stays where it was otherwise. */
void running_end(int code, const char *reason, const char *message);

/* What a reader sees. */
struct running_info {
	char command[32]; /* "" when no writer runs */
	int pid;          /* its process, 0 when none */
	char step[32];
	int percent;
	int stalled_s; /* seconds the running download has received nothing (0 when bytes flow) */
	char *last_message; /* the last finished operation's sentence, or NULL */
	char last_command[32];
	int last_ok;
};
void running_read(const char *root, struct running_info *ri);
/* "pid N (tb323fu-ctl COMMAND, STEP)": the writer that holds root's lock, as its record
 * says (published as soon as it has the lock); "another tb323fu-ctl" when it has none (an
 * older build). Free it. */
char *running_holder(const char *root);
/* The command waits for another process (--wait): the sentence goes to the command's
 * progress (its wait callback), once. */
void running_wait_notice(const char *sentence);
void running_info_free(struct running_info *ri);

#endif
