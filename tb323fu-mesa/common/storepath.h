/* Where things are in the store, as the launcher sees it (docs/design.md §3), without the engine:
 * the launcher is a separate small static program. */
#ifndef TB_STOREPATH_H
#define TB_STOREPATH_H

#include "common/version_name.h"
#include "common/storelayout.h"

#include <stddef.h>

#define STORE_PATH_MAX 4096

/* The store root: the --store option, else $TB323FU_MESA_DIR, else the default. */
const char *store_root(const char *option);


/* Joins parts into out (cap bytes); returns 0, or -1 when it does not fit. */
int path_concat(char *out, size_t cap, const char *a, const char *b, const char *c);

/* The env file a run uses: <root>/env/current.env, or <root>/env/<version>.env. */
int store_env_file(char *out, size_t cap, const char *root, const char *version);
/* The same with another suffix: STORE_GL_SUFFIX, STORE_ZINK_SUFFIX (the GL of a run). */
int store_env_file_as(char *out, size_t cap, const char *root, const char *version,
		      const char *suffix);

/* 1 when path is dir itself or inside it (by the strings; dir without a trailing '/'). */
int path_within(const char *path, const char *dir);

/* Copies the ':'-separated list value into out without the entries inside any of the n
 * dirs (NULL entries of dirs are skipped). Other entries, empty ones included, keep their
 * order. Returns the length, or -1 when out is too small. */
long path_list_without(const char *value, const char *const *dirs, size_t n, char *out,
		       size_t cap);

/* The version a path inside <realroot>/versions/<v>/ belongs to, copied into out; NULL
 * when the path is not inside an installed version. */
const char *store_version_of(const char *path, const char *realroot, char *out, size_t cap);

/* 1 when the tree of version (NULL: the one <root>/current points to) is gone from the
 * store, its env file left behind: a run would select a driver that is not there. */
int store_tree_gone(const char *root, const char *version);

/* The version <root>/current points to, or NULL. */
const char *store_current_version(const char *root, char *out, size_t cap);

#endif
