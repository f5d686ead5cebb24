/* Which store version a crash belongs to (docs/design.md §18): a journal entry read as an
 * event, attributed from its own evidence and never guessed. A coredump belongs to version V
 * when its maps map a file of versions/V/, or (nothing of the store mapped, no driver of the
 * system's either) its environment selects V (icd/versions/V/, or current's files while current
 * has been V since before the crash). A kernel line names only a file: one of the store's
 * drivers' names (a version's vulkan_lib or opencl_lib) belongs to current when the session
 * was switched on to it before the line and has not changed since, else it is unattributed;
 * a file of a version's GL (its GL folder, DRI drivers, GBM backends) the same way while the
 * session gets the store's GL (`on --gl`), else it is not ours (the distribution's GL has the
 * same names); a GPU fault or hang is judged by the session alone. Anything else is not ours. */
#ifndef TB_CRASH_ATTRIB_H
#define TB_CRASH_ATTRIB_H

#include "apprules/desktop_programs.h"
#include "store/store.h"
#include "crash/journal.h"

#include <stdint.h>

enum crash_verdict {
	CRASH_NOT_OURS = 0,     /* a program not on the store's driver: ignored */
	CRASH_ATTRIBUTED = 1,   /* version is set */
	CRASH_UNATTRIBUTED = 2, /* the store's driver may be involved; which version cannot be told */
};

struct crash_event {
	enum crash_verdict verdict;
	char cursor[JOURNAL_CURSOR_MAX];
	uint64_t usec;
	const char *source; /* "coredump" or "kernel" */
	char kind[32];      /* SIGSEGV…, or segfault, unhandled-exception, gpu-fault, gpu-hang */
	char exe[512];      /* the executable ("" when unknown) */
	char comm[64];
	long pid;
	long uid;           /* the user whose process crashed (COREDUMP_UID); -1: a kernel line, not known */
	char app[300];      /* its desktop ID, "" when none was found */
	char key[300];      /* what tells one application from another: app, else the exe's name */
	char version[80];   /* attributed: the version */
	const char *how;    /* "maps", "environment", "session" or "" */
	char object[256];   /* kernel lines: the faulting object's name */
};

/* What attribution looks at, gathered once for a read of the journal. */
struct crash_ctx {
	const struct store *s;
	char *current;             /* NULL when none */
	int session_on;            /* env.conf is not empty */
	uint64_t switched_usec;    /* when env.conf or current last changed (their mtimes) */
	char **driver_names;       /* file names of the versions' vulkan_lib and opencl_lib */
	size_t n_driver_names;
	char **gl_names;           /* file names in the versions' GL folders (docs/design.md §18) */
	size_t n_gl_names;
	int session_gl;            /* env.conf gives the store's GL (on --gl native|zink) */
	struct crash_apps *apps;   /* the desktop's entries, read when an event first needs them */
};
struct crash_apps {
	int scanned;
	struct desktop_programs d;
};
void crash_ctx_open(struct crash_ctx *x, const struct store *s);
void crash_ctx_close(struct crash_ctx *x);

/* Reads je into ev and decides. */
enum crash_verdict crash_attribute(const struct crash_ctx *x, const struct journal_entry *je,
				   struct crash_event *ev);

/* The events of the journal after cursor (or since since_usec), attributed, the ones not ours
 * left out, and the kernel's line of a crash that systemd-coredump also recorded dropped (the
 * coredump's entry says more; a coredump of a program not ours takes its kernel line along).
 * At most CRASH_READ_MAX events are kept. last as journal_read says. */
#define CRASH_READ_MAX 10000
struct crash_events {
	struct crash_event *v;
	size_t n;
	int read;   /* journal entries looked at */
	int forged; /* entries with systemd-coredump's MESSAGE_ID it did not write: ignored */
};
int crash_collect(const struct crash_ctx *x, const char *cursor, uint64_t since_usec,
		  struct crash_events *out, char *last, struct tb_error *e);
void crash_events_free(struct crash_events *ev);

#endif
