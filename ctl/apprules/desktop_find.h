/* Where the desktop finds application entries (XDG data directories, then the Flatpak
 * installations' exports), and which entry an application names (docs/design.md §16). */
#ifndef TB_DESKTOP_FIND_H
#define TB_DESKTOP_FIND_H

#include "apprules/rules.h"

/* Resolves APP (a desktop file ID with or without ".desktop", or a name that exactly one
 * installed entry has) to an ID. Fails with reason app-not-found or app-ambiguous (listing
 * the candidates). */
int desktop_resolve(const struct app_scope *sc, const char *app, char **id_out, struct tb_error *e);
/* The original entry of id the desktop would use if ours were not there (ours skipped),
 * or NULL. */
char *desktop_original(const struct app_scope *sc, const char *id);

/* Every application entry where the desktop finds them, in its order (the same ID may come
 * again from a later directory, which the desktop would not show): fn gets its path and ID. */
typedef void (*desktop_entry_fn)(void *ctx, const char *path, const char *id);
void desktop_each_entry(const struct app_scope *sc, desktop_entry_fn fn, void *ctx);

#endif
