/* Opening the store for one command (ctl/cli/session.h). */
#include "cli/session.h"
#include "lifecycle/lifecycle.h"
#include "helper/takeover.h"
#include "store/running.h"
#include "store/txn.h"

#include <fcntl.h>
#include <unistd.h>

/* Beside the flock, an open-file-description lock on .lock: the mark by which a reader tells
 * a running writer's record from a stale one (ctl/store/running.c) without taking the lock.
 * Held as long as the flock, by the same open file. */
static void mark_writer(int lock_fd)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	/* where the kernel has no such locks, readers cannot test them either and go by the pid */
	(void)fcntl(lock_fd, F_OFD_SETLK, &fl);
}

static int open_writer(struct store *s, int wait, struct tb_error *e)
{
	s->publish = 1; /* its running record as soon as it has the lock */
	int rc = store_lock(s, wait, e);
	if (rc)
		return rc;
	mark_writer(s->lock_fd);
	lc_reserve_keep(s);
	running_attach(s->root, s->lock_fd); /* every writer publishes what it runs (docs/design.md §13) */
	/* A store the helper made gets our files before anything else (docs/design.md §13). */
	int completed;
	return takeover_needed(s) ? takeover_run(s, &completed, e) : TB_OK;
}

/* A writer was killed while committing: finished by a reader that may take the lock. */
static void finish_for_writer(struct store *s)
{
	struct tb_error ignored = {0};
	if (txn_pending(s) && store_lock(s, 0, &ignored) == TB_OK) {
		close(s->lock_fd);
		s->lock_fd = -1;
	}
}

int session_open(struct store *s, const char *dir, int writer, int wait, struct tb_error *e)
{
	int rc = store_open(s, dir, writer, e);
	if (!rc && writer)
		rc = open_writer(s, wait, e);
	else if (!rc)
		finish_for_writer(s);
	if (rc)
		store_close(s); /* callers return at once on failure */
	return rc;
}
