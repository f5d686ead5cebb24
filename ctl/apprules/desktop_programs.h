/* The programs the desktop's application entries start (docs/design.md §18): each entry's ID,
 * file and the program of its Exec (the first word, after `env` and its assignments, found in
 * PATH when it is not absolute, its links resolved). Read with GLib (GKeyFile, its shell-word
 * splitting); the originals only: our own entries (§16) are skipped, since they start the
 * launcher. Used to name the application of a crash and to find the programs the loaders will
 * not switch. */
#ifndef TB_DESKTOP_PROGRAMS_H
#define TB_DESKTOP_PROGRAMS_H

#include "apprules/rules.h"

#include <stddef.h>

struct desktop_program {
	char *id;      /* "org.example.App.desktop" */
	char *entry;   /* the entry's path */
	char *program; /* the real path of its Exec's program, or NULL when it is not found */
	char *name;    /* its Name */
};
struct desktop_programs {
	struct desktop_program *v;
	size_t n;
};

/* Every application entry where the desktop finds them (desktop_each_entry: the scope's own
 * directory for a user, $XDG_DATA_DIRS/applications, the Flatpak installations' exports; one
 * subdirectory deep; at most 4096 entries, each at most 1 MiB), the first of each ID. */
void desktop_programs_scan(const struct app_scope *sc, struct desktop_programs *d);
void desktop_programs_free(struct desktop_programs *d);
/* The one entry whose program is exe (a real path), or whose program's file name starts with
 * comm (the kernel's 15 bytes of a task's name) when exe is NULL; NULL when none or several. */
const struct desktop_program *desktop_program_of(const struct desktop_programs *d, const char *exe,
						 const char *comm);

#endif
