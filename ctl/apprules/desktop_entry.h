/* Desktop entries as the rules' files read them (docs/design.md §16): the originals and ours,
 * read with GLib's GKeyFile, and the keys that mark an entry as ours. Shared by discovery
 * (desktop_find.c), our entry's rewrite (override_entry.c) and its files (override_files.c). */
#ifndef TB_DESKTOP_ENTRY_H
#define TB_DESKTOP_ENTRY_H

#include <glib.h>
#include <stddef.h>

/* Originals larger than this are refused. */
#define DESKTOP_MAX_BYTES (1024 * 1024)
/* The mark of our entries (tb323fu-mesa/ident.h's string), in X-TB323FU-Mesa-Override. */
#define OVERRIDE_MARK "tb323fu-mesa-toolchain-program"
/* Our desktop action: the other choice. */
#define OVERRIDE_ACTION "tb323fu-mesa-other"

#define DE "Desktop Entry"
#define KEY_MARK "X-TB323FU-Mesa-Override"
#define KEY_RULE "X-TB323FU-Mesa-Rule"
#define KEY_GL "X-TB323FU-Mesa-GL" /* the rule's GL, when app set --gl gave one */
#define KEY_ORIGINAL "X-TB323FU-Mesa-Original"
#define KEY_ORIGINAL_SHA "X-TB323FU-Mesa-Original-SHA256"
#define ACTION_GROUP "Desktop Action " OVERRIDE_ACTION
/* Ours is the original plus a prefix on each Exec and a few keys. */
#define OVERRIDE_MAX_BYTES (2 * DESKTOP_MAX_BYTES)

/* An entry's text as a key file (comments and translations kept), or NULL. */
GKeyFile *load_entry(const char *text, size_t len);
/* Whether kf carries our mark. */
int is_ours(GKeyFile *kf);
/* The entry at path (at most max bytes, UTF-8 without NUL), read without following a link at
 * its own name when nofollow; NULL when it is none. */
GKeyFile *read_entry(const char *path, int nofollow, size_t max);
/* [Desktop Entry]'s key, as written (unescape 0) or unescaped; NULL when absent. */
char *group_value(GKeyFile *kf, const char *key, int unescape);
/* The SHA-256 of the file at path, as override_write records it; -1 when unreadable. */
int desktop_file_sha256(const char *path, char hex[65]);

#endif
