/* The side-by-side store of docs/design.md §3: layout, lock, current/previous links, versions. */
#ifndef TB_STORE_H
#define TB_STORE_H

#include <stdint.h>

#include "base/error.h"
#include "common/storelayout.h"


struct store {
	char *root;  /* real absolute path (as given while a reader's store is not there yet) */
	int resolved; /* root is the real path: resolved once, never again */
	int lock_fd; /* -1 unless this process holds .lock */
	/* links planted at a version's own files (env/<v>.env, icd/versions/<v>/…) that the
	 * writer's takeover replaced by files of ours, for the command's warning; "" none */
	char replaced[600];
	int publish; /* a writer's command: store_lock publishes its running record at once */
};

/* Opens the store at dir, the root the command line resolved once (common/storepath.h
 * store_root: --store, else $TB323FU_MESA_DIR, else the default; never NULL here), to its
 * real path. With create, makes the store's directories (a writer); without, a missing store
 * is an empty one (a reader). */
int store_open(struct store *s, const char *dir, int create, struct tb_error *e);
/* A writer's store_open of the same dir, for s open as a reader already (or closed: then it
 * is store_open with create): the directories made, the root not resolved a second time. */
int store_open_writer(struct store *s, const char *dir, struct tb_error *e);
void store_close(struct store *s);
/* Takes .lock for a writer: TB_EBUSY at once when another writer holds it, naming it, or
 * waits, saying so once. With s->publish, the running record goes out as soon as the lock
 * is held (a reader finishing a killed writer's commit publishes none).
 * Then removes leftovers of an interrupted writer (temporaries, staging trees) and the env
 * and ICD files of versions whose tree is gone. */
int store_lock(struct store *s, int wait, struct tb_error *e);

/* A path under the store root (printf format). */
char *store_path(const struct store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The store's paths, built here only (store/paths.c, docs/design.md §3). Free them. */
char *store_version_dir(const struct store *s, const char *version);  /* versions/<v> */
/* "versions/<v>", relative to the root: what current and previous point at; NULL for NULL. */
char *store_version_rel(const char *version);
/* versions/<v>/MANIFEST */
char *store_manifest_path(const struct store *s, const char *version);
struct manifest;
/* Reads versions/<v>/MANIFEST (manifest_load). */
int store_load_manifest(const struct store *s, const char *version, struct manifest *m,
			struct tb_error *e);
char *store_env_path(const struct store *s, const char *version);     /* env/<v>.env, NULL: current */
/* env/<v><suffix> (STORE_GL_SUFFIX, STORE_ZINK_SUFFIX), NULL: current's */
char *store_env_path_as(const struct store *s, const char *version, const char *suffix);
/* Removes a version's GL env files (env/<v>.gl, env/<v>.zink). */
void store_remove_gl_env(const struct store *s, const char *version);
char *store_icd_dir(const struct store *s, const char *version);      /* icd/versions/<v>, NULL: icd */
char *store_smoke_file(const struct store *s, const char *version);   /* smoke/<v>.json */
/* The version the link current / previous points at, or NULL. */
char *store_current(const struct store *s);
char *store_previous(const struct store *s);
/* Points link ("current" or "previous") at versions/<version>, or removes it (version NULL). */
int store_set_link(struct store *s, const char *link, const char *version, struct tb_error *e);
/* Whether versions/<version> holds a release. version is a name checked where it entered
 * (version_name_ok: the command line's operand, a link's or the state's reader, a MANIFEST,
 * the release list, store_versions); it is not checked again here. */
int store_has_version(const struct store *s, const char *version);
/* Whether version (a link's, e.g. current's) names a tree that is gone from versions/: deleted
 * by hand or by another tool's clean-up. 0 for NULL. */
int store_version_gone(const struct store *s, const char *version);
/* The files every life-cycle commit replaces by rename (env.conf, state, the ICD files of
 * current, env/current.env) that are symbolic links now, as "NAME (a link to TARGET)" joined
 * by ", "; NULL when none. A writer does not write through them: the commit's rename puts a
 * file of ours in the link's place and leaves its target as it was. */
char *store_planted_links(const struct store *s);
/* Installed versions, newest first; free with store_free_list. The folder's names are
 * checked here (version_name_ok), where they enter: the list holds version names only. */
char **store_versions(const struct store *s, size_t *n);
/* The same of another folder of trees (STORE_CTS): each a version's name holding a MANIFEST. */
char **store_trees(const struct store *s, const char *folder, size_t *n);
void store_free_list(char **list, size_t n);
/* Total bytes of the files of a version's tree. */
uint64_t store_version_bytes(const struct store *s, const char *version);

#endif
