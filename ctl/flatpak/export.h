/* A store's version as an unmanaged Flatpak GL extension (docs/design.md §17):
 * <installation>/extension/org.freedesktop.Platform.GL.<name>/<arch>/<version>/ with the
 * version's files (hard links into versions/<v>, copies across file systems), its Vulkan ICD
 * and OpenCL vendor file naming the libraries where the sandbox mounts them, its GL where a
 * GL extension has it (a release with GL), and our marker.
 * Only our own exports are ever replaced or removed; nothing is written into a runtime or
 * another extension. */
#ifndef TB_FLATPAK_EXPORT_H
#define TB_FLATPAK_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "store/store.h"

/* An export's marker is at most this big. */
#define FLATPAK_MARKER_MAX (64 * 1024)

struct strbuf;

struct flatpak_export {
	char *path;    /* the extension's folder for one runtime branch */
	char *name;    /* tb323fu-mesa-2026_10_06 */
	char *version; /* the marker's: the store's version */
	char *branch;  /* the runtime branch it was checked against */
	char *store;   /* the store it came from */
	int user;      /* in the user's installation (else the system's) */
	uint64_t bytes;  /* export: the bytes of its files */
	unsigned linked, copied; /* export: files hard-linked into the store's tree, or copied */
	int gl;        /* export: it carries the version's GL */
};

/* Exports version (installed in s) for branch (NULL: every installed branch of
 * org.freedesktop.Platform) into the user's or the system's installation, each after the
 * ABI check against that branch (flatpak/abi.h). All branches pass the check before
 * anything is written. done gets one entry a branch. */
int flatpak_export(const struct store *s, const char *version, const char *branch, int user,
		   struct flatpak_export **done, size_t *n, struct tb_error *e);

/* Our exports in the user's installation (user) or in both (the user's, then the system's);
 * store NULL: any store's. */
struct flatpak_export *flatpak_exports_list(const char *store, int user_only, size_t *n);
/* Whether the store has an export of version in either installation. */
int flatpak_version_exported(const char *store, const char *version);
void flatpak_exports_free(struct flatpak_export *v, size_t n);

/* Removes s's exports of version (NULL: every version) for branch (NULL: every branch) from
 * the user's or the system's installation; *removed counts them. */
int flatpak_unexport(const struct store *s, const char *version, const char *branch, int user,
		     size_t *removed, struct tb_error *e);

/* What remove and the pruning call as a version leaves the store: its exports go from every
 * installation this process may write (best effort; a user's stay for `flatpak unexport
 * --user`, which doctor names). */
void flatpak_unexport_gone(const struct store *s, const char *version, struct strbuf *removed);

/* Appends to names the Flatpak extensions of version in either installation, as
 * "org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_06//24.08 (system)", ", " between: what
 * remove and the pruning would remove with it (--dry-run). flatpak_unexport_gone appends the
 * ones it removed the same way (removed may be NULL). */
void flatpak_exports_named(const struct store *s, const char *version, struct strbuf *names);

/* Reads a marker's text (GKeyFile): 1 when it is ours (fills version, branch, store), else 0. */
int flatpak_marker_read(const char *text, size_t len, struct flatpak_export *x);

#endif
