/* Our entries on disk, in a scope's applications directory (docs/design.md §16): whose entry
 * is there, ours written or removed (never another's), and the rules ours carry. */
#ifndef TB_OVERRIDE_FILES_H
#define TB_OVERRIDE_FILES_H

#include "apprules/override_entry.h"
#include "apprules/rules.h"

/* Who has the entry apps_dir/id: 0 nobody, 1 we do (its original's path, hash, rule and the
 * rule's GL, NULL when it has none, when asked for; free them), 2 someone else (or it is a
 * link, unreadable or not an entry). */
int override_owner(const struct app_scope *sc, const char *id, char **orig_path,
		   char **orig_sha, char **choice, char **gl);
/* The entry override_write would write (data, n bytes; free it), with the same refusals,
 * writing nothing: app set --dry-run. */
int override_plan(const struct app_scope *sc, const char *id, const char *orig_path,
		  const struct override_spec *spec, char **data, size_t *n, struct tb_error *e);
/* Writes ours from the original at orig_path. Refuses (not-ours) when another's is there. */
int override_write(const struct app_scope *sc, const char *id, const char *orig_path,
		   const struct override_spec *spec, struct tb_error *e);
/* Removes ours (nothing when none is there; never another's: not-ours). */
int override_remove(const struct app_scope *sc, const char *id, struct tb_error *e);
/* The entries of apps_dir that are ours (override_owner's rule), whatever rule they carry:
 * their names (allocated, *ids, each and the array freed by the caller); how many. */
size_t override_ours_list(const char *apps_dir, char ***ids);
/* For the package's removal, the entries of apps_dir marked as ours that override_owner's
 * rule does not take (they start our launcher, which goes with the package): a file whose
 * groups (any of them, [Desktop Entry] or an action's) carry our mark beside an Exec that
 * starts tb323fu-mesa, however it reads (bytes that are not UTF-8 too), and a link to an
 * entry of ours (the link goes, never what it points at). Names as override_ours_list. */
size_t override_marked_list(const char *apps_dir, char ***ids);
/* Every entry of ours in apps_dir, as the rules they carry (added to r). */
void override_recover_rules(const char *apps_dir, struct app_rules *r);

#endif
