/* Readers share, writers exclude (docs/design.md §3, "Pins"): a command that reads one
 * version for long (smoke outside an install, a suite, bench, verify without --repair) pins
 * it, and takes no store lock, so on, off, keep, rollback and installs of other versions go
 * on meanwhile. A pin is a shared flock(2) on .pins/<v> and a file .pins/<v>@<pid> that
 * names the reader ("PID COMMAND"), held locked while it lives. A writer that must remove a
 * pinned version (remove, the pruning after an install) takes .pins/<v> exclusively: it says
 * which process holds it, or with --wait says so once and waits. */
#ifndef TB_PINS_H
#define TB_PINS_H

#include "base/error.h"
#include "base/progress.h"
#include "store/store.h"

struct pin {
	int lock_fd;   /* the shared lock on .pins/<v>, -1 when none */
	int holder_fd; /* .pins/<v>@<pid>, locked while this process reads */
	char *holder;  /* its path */
};

/* Pins version for this process (what: the command, "bench"). Best effort:
 * a user who may not write the store reads unpinned (p stays empty). version, here and
 * below, is a name checked where it entered (version_name_ok), not checked again. */
void pin_take(const struct store *s, const char *version, const char *what, struct pin *p);
void pin_release(struct pin *p);

/* The readers that pin version now, "pid N (tb323fu-ctl COMMAND)" joined by ", "; NULL
 * when none. */
char *pin_holders(const struct store *s, const char *version);

/* For a writer that will remove version: TB_OK with *fd the exclusive lock on .pins/<v>
 * (close it once the tree is gone); TB_EBUSY (busy) naming the readers at once, or with wait
 * the progress's wait callback once and then the wait. */
int pin_exclude(const struct store *s, const char *version, int wait, const struct tb_progress *p,
		int *fd, struct tb_error *e);

/* The version's tree is gone: its lock file goes too (the caller holds it exclusively). */
void pin_forget(const struct store *s, const char *version);

/* Whether pid is a reader holding a pin now: its temporaries (.NAME.tmp.<pid>) are not
 * the leftovers of a killed writer. */
int pin_reader_alive(const struct store *s, long pid);

#endif
