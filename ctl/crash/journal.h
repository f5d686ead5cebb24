/* Crash evidence as the journal holds it (docs/design.md §18), read with libsystemd's
 * sd-journal and never parsed by hand: systemd-coredump's entries (MESSAGE_ID
 * fc2e22bc6ee647b6b90729ab34a250b1) and the kernel's lines. $TB323FU_MESA_JOURNAL
 * (FILE[:FILE…]) names journal files to read instead of the system's (tests). */
#ifndef TB_JOURNAL_H
#define TB_JOURNAL_H

#include "base/error.h"

#include <stddef.h>
#include <stdint.h>

/* sd-journal returns no field longer than this (a hostile COREDUMP_ENVIRON of gigabytes is
 * cut here), and a read looks at no more entries than JOURNAL_MAX_ENTRIES. */
#define JOURNAL_FIELD_MAX (1024 * 1024)
#define JOURNAL_MAX_ENTRIES 200000
#define JOURNAL_CURSOR_MAX 512
#define JOURNAL_ENV_VAR "TB323FU_MESA_JOURNAL"
#define COREDUMP_MESSAGE_ID "fc2e22bc6ee647b6b90729ab34a250b1"

/* One entry; the byte fields are as the journal has them (any bytes; NULL when absent). */
struct journal_entry {
	const char *cursor;
	uint64_t usec;     /* its realtime timestamp */
	int coredump;      /* written by systemd-coredump (crash_coredump_trusted) */
	int kernel;        /* a line of the kernel's (_TRANSPORT=kernel) */
	int forged;        /* systemd-coredump's MESSAGE_ID, not written by it: counts for nothing */
	long uid;          /* coredump: COREDUMP_UID, the user whose process crashed; else -1 */
	const char *message;
	size_t message_len;
	const char *exe, *comm, *cgroup, *environ, *maps;
	size_t exe_len, comm_len, cgroup_len, environ_len, maps_len;
	int signal;        /* COREDUMP_SIGNAL, 0 when absent */
	long pid;          /* COREDUMP_PID */
};

/* Called for each entry in order; a non-zero return stops the read (and is returned). */
typedef int (*journal_entry_fn)(const struct journal_entry *je, void *ud);

/* Reads the entries after the entry at cursor (NULL: from the start, or from since_usec when
 * it is not 0), coredumps and kernel lines, oldest first. last (JOURNAL_CURSOR_MAX bytes, may
 * be NULL) gets the cursor of the last entry looked at ("" when none). -1 with e set when the
 * journal cannot be opened. */
int journal_read(const char *cursor, uint64_t since_usec, journal_entry_fn fn, void *ud,
		 char *last, struct tb_error *e);

/* 0 when at least one journal file can be read; else 1 with e set (reason not-found, or the
 * open's failure): the sentence says that no crash can be seen then, and why (no journal
 * kept, or none the caller may read). journalctl's "No journal files were found". */
int journal_check_readable(struct tb_error *e);

/* A time as `crashes --since` takes it: @SECONDS, YYYY-MM-DD[ HH:MM[:SS]] (UTC; a T may stand
 * for the space, a Z may end it) or -N[smhd] (that long ago), from 1970 to the year 9999; in
 * microseconds since the epoch, 0 when it reads as none of them. */
uint64_t journal_since_usec(const char *w);

#endif
