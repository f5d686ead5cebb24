/* Per-application rules (docs/design.md §16): which Mesa one desktop application starts with.
 * System rules live in the store (<store>/app-rules, written under its lock), a user's own in
 * $XDG_CONFIG_HOME/tb323fu/mesa-apps. This module alone reads and writes both files. */
#ifndef TB_APPRULES_H
#define TB_APPRULES_H

#include "store/store.h"
#include "base/error.h"
#include "base/strbuf.h"

#define APPRULES_MAX_BYTES (64 * 1024)
#define APPRULES_MAX_RULES 1024
#define APP_ID_MAX 255

struct app_rule {
	char *id;     /* a desktop file ID, "org.example.App.desktop" */
	char *choice; /* "current", "distro" or a version name */
	char *gl;     /* the GL `app set --gl` gave it (native, zink or distro), or NULL */
};

struct app_rules {
	struct app_rule *v;
	size_t n;
};

/* Where one owner's rules and override entries are. */
struct app_scope {
	int user;         /* the caller's own rules (--user), else the system's */
	char *rules_file; /* <store>/app-rules or $XDG_CONFIG_HOME/tb323fu/mesa-apps */
	char *lock_file;  /* the user's lock ($XDG_CONFIG_HOME/tb323fu/.mesa-apps.lock); NULL: the store's */
	char *apps_dir;   /* where the override entries go */
};

/* The system's scope for store s: apps_dir is $TB323FU_MESA_APPS_DIR, else
 * /usr/local/share/applications. */
void app_scope_system(struct app_scope *sc, const struct store *s);
/* The caller's own: $XDG_CONFIG_HOME (else ~/.config) and $XDG_DATA_HOME/applications (else
 * ~/.local/share/applications). -1 (e set) when no home is known. */
int app_scope_user(struct app_scope *sc, struct tb_error *e);
void app_scope_free(struct app_scope *sc);

/* A desktop file ID as rules and override names may carry it: 1–255 bytes of
 * [A-Za-z0-9._+-] ending in ".desktop", not starting with a dot. */
int app_id_ok(const char *id);
/* A choice as the file holds it: current, distro or a version name. */
int app_choice_ok(const char *choice);
/* A rule's GL: native, zink or distro (docs/design.md §16), for a choice that runs a version. */
int app_gl_ok(const char *choice, const char *gl);

/* Parses the file's text strictly: 0 when it is what writers write (`ID=CHOICE` lines, each
 * perhaps followed by ` gl=GL`, no
 * repeated ID, no NUL, at most the caps), -1 when it is damaged (then *r is empty). */
int apprules_parse(const char *text, size_t len, struct app_rules *r);
void apprules_format(const struct app_rules *r, struct strbuf *sb);
/* Reads the scope's file: 0 whole or absent (no rules), 1 damaged (no rules; the reason id is
 * rules-corrupt), -1 unreadable (e set). A link or another user's file reads as damaged. */
int apprules_load(const struct app_scope *sc, struct app_rules *r, struct tb_error *e);
int apprules_save(const struct app_scope *sc, const struct app_rules *r, struct tb_error *e);
void apprules_free(struct app_rules *r);

const struct app_rule *apprules_find(const struct app_rules *r, const char *id);
/* Adds or replaces id's rule (with no GL of its own). */
void apprules_set(struct app_rules *r, const char *id, const char *choice);
/* Gives id's rule its GL (NULL: none). */
void apprules_set_gl(struct app_rules *r, const char *id, const char *gl);
/* Removes id's rule; 1 when there was one. */
int apprules_unset(struct app_rules *r, const char *id);

#endif
