/* Flatpak's installations and the org.freedesktop.Platform branches installed in them
 * (docs/design.md §17): where an export goes and what its ABI must fit. Only read. */
#ifndef TB_FLATPAK_RUNTIME_H
#define TB_FLATPAK_RUNTIME_H

#include <stddef.h>

#include "base/error.h"

/* A runtime's metadata is at most this big (the freedesktop runtime's is about 2 KiB). */
#define FLATPAK_METADATA_MAX (256 * 1024)

/* The installation's directory as flatpak itself finds it: the user's ($FLATPAK_USER_DIR,
 * else $XDG_DATA_HOME/flatpak, else ~/.local/share/flatpak) or the system's
 * ($FLATPAK_SYSTEM_DIR, else /var/lib/flatpak). Allocated; NULL for a user without a home. */
char *flatpak_installation_dir(int user);

/* One installed branch of org.freedesktop.Platform for this machine's arch. */
struct flatpak_runtime {
	char *branch;     /* "24.08" */
	char *arch;       /* flatpak's arch name: "x86_64", "aarch64" */
	char *files;      /* the runtime's /usr: …/runtime/org.freedesktop.Platform/ARCH/BRANCH/active/files */
	char *gl_dir;     /* the GL extension point's directory, "lib/x86_64-linux-gnu/GL" */
	char *gl_version; /* the version an unmanaged extension is found under (first of versions=) */
	int user;         /* found in the user's installation (else the system's) */
};

/* Reads a runtime's metadata text (GKeyFile): its [Extension org.freedesktop.Platform.GL]
 * with subdirectories=true, directory (relative, plain) and versions (or version). Fills
 * gl_dir and gl_version; TB_EFAIL with a sentence naming what is missing (what = the file
 * in sentences). */
int flatpak_metadata_read(const char *what, const char *text, size_t len,
			  struct flatpak_runtime *r, struct tb_error *e);

/* Every installed branch, the user's installation's then the system's (a branch in both is
 * listed once, the user's). *n 0 when none; never fails. */
struct flatpak_runtime *flatpak_runtimes_find(size_t *n);
void flatpak_runtimes_free(struct flatpak_runtime *v, size_t n);

/* flatpak's name of this machine's arch (uname -m, i686 as i386, arm64 as aarch64). */
const char *flatpak_arch(void);

#endif
