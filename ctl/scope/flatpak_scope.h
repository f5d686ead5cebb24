/* What the flatpak commands share (docs/design.md §17): their options struct and rows, the
 * version an operand means, an export as JSON; and what status, doctor and app set say of
 * the store's exports. */
#ifndef TB_FLATPAK_SCOPE_H
#define TB_FLATPAK_SCOPE_H

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "flatpak/export.h"

struct flatpak_opts {
	const char *version; /* VERSION or current (NULL: current), checked by the body */
	const char *branch;  /* --branch: one runtime branch (NULL: every installed one) */
	int user;            /* --user: the user's Flatpak installation, no root needed */
};

#define FLATPAK_USER_OPTION                                                                                   \
	CLI_FLAG("--user", struct flatpak_opts, user,                                                         \
		 "your own Flatpak installation (~/.local/share/flatpak, $FLATPAK_USER_DIR), no root needed")
#define FLATPAK_BRANCH_OPTION                                      \
	CLI_STRING("--branch", "B", struct flatpak_opts, branch, \
		   "one branch of org.freedesktop.Platform (24.08; default every installed one)")

/* VERSION, `current` or nothing (current): the version meant, allocated, or NULL with the
 * failure in o. */
char *version_meant(const struct store *s, const char *word, struct outcome *o);
json_object *export_json(const struct flatpak_export *x);

struct strbuf;
/* The store's Flatpak exports for status and doctor: arr (may be NULL) one object each,
 * lines one line each, gone a sentence a line for each whose version left the store. */
void flatpak_summary(const struct store *s, json_object *arr, struct strbuf *lines,
		     struct strbuf *gone);
/* What a Flatpak application started from the session gets (§17, "From the session"), for
 * status and doctor: one sentence (no newline) into sb; *ours 1 when it is current's
 * extension. */
void flatpak_session_summary(const struct store *s, struct strbuf *sb, int *ours);
/* app set of a Flatpak application (its original under an installation's exports) whose
 * version (choice: current or a version) has no export: the words to add to its sentence
 * (allocated), else NULL. */
char *flatpak_app_note(const struct store *s, const char *original, const char *choice, int user);

#endif
