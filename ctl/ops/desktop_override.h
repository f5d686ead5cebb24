/* The desktop entries that carry a per-application rule (docs/design.md §16): the original
 * entry found where the desktop finds it, and ours, a copy with the same ID in the directory
 * that takes precedence, every Exec wrapped by the launcher. Read and written with GLib's
 * GKeyFile; the Exec values are only ever prefixed, never parsed. */
#ifndef TB_DESKTOP_OVERRIDE_H
#define TB_DESKTOP_OVERRIDE_H

#include "store/apprules.h"

/* Originals larger than this are refused. */
#define DESKTOP_MAX_BYTES (1024 * 1024)
/* The mark of our entries (tb323fu-mesa/ident.h's string), in X-TB323FU-Mesa-Override. */
#define OVERRIDE_MARK "tb323fu-mesa-toolchain-program"
/* Our desktop action: the other choice. */
#define OVERRIDE_ACTION "tb323fu-mesa-other"

/* What the launcher prefix of an override is made of. */
struct override_spec {
	const char *launcher;  /* absolute path of tb323fu-mesa */
	const char *store;     /* --store's value, or NULL for the default store */
	const char *choice;    /* current, distro or a version */
};

/* Resolves APP (a desktop file ID with or without ".desktop", or a name that exactly one
 * installed entry has) to an ID. Fails with reason app-not-found or app-ambiguous (listing
 * the candidates). */
int desktop_resolve(const struct app_scope *sc, const char *app, char **id_out, struct tb_error *e);
/* The original entry of id the desktop would use if ours were not there (ours skipped),
 * or NULL. */
char *desktop_original(const struct app_scope *sc, const char *id);

/* The override's text from an original's (text, len; path and its SHA-256 for the marker).
 * Fails (e set) on an original that cannot carry a rule: not UTF-8, no [Desktop Entry], not
 * an application, hidden, no Exec to wrap. */
int override_build(const char *text, size_t len, const char *orig_path, const char *orig_sha,
		   const char *id, const struct override_spec *spec, char **out, size_t *out_len,
		   struct tb_error *e);

/* Who has the entry apps_dir/id: 0 nobody, 1 we do (its original's path, hash and rule when
 * asked for; free them), 2 someone else (or it is a link, unreadable or not an entry). */
int override_owner(const struct app_scope *sc, const char *id, char **orig_path,
		   char **orig_sha, char **choice);
/* The entry override_write would write (data, n bytes; free it), with the same refusals,
 * writing nothing: app set --dry-run. */
int override_plan(const struct app_scope *sc, const char *id, const char *orig_path,
		  const struct override_spec *spec, char **data, size_t *n, struct tb_error *e);
/* Writes ours from the original at orig_path. Refuses (not-ours) when another's is there. */
int override_write(const struct app_scope *sc, const char *id, const char *orig_path,
		   const struct override_spec *spec, struct tb_error *e);
/* Removes ours (nothing when none is there; never another's: not-ours). */
int override_remove(const struct app_scope *sc, const char *id, struct tb_error *e);
/* Every entry of ours in apps_dir, as the rules they carry (added to r). */
void override_recover_rules(const char *apps_dir, struct app_rules *r);
/* The SHA-256 of the file at path, as override_write records it; -1 when unreadable. */
int desktop_file_sha256(const char *path, char hex[65]);

/* The rule that pins version (the system's, then the caller's own): "the rule for ID" words,
 * or NULL when none does. Used by remove and by the pruning after install. A damaged rule
 * file counts what the override entries of that scope record (so it lives here, not with
 * the rule file). */
char *apprules_pinning(const struct store *s, const char *version);

#endif
