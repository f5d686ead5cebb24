/* Whether a version's libraries can run inside a Flatpak runtime branch (docs/design.md
 * §17): its ELF needs checked against the runtime's own files, never this system's. */
#ifndef TB_FLATPAK_ABI_H
#define TB_FLATPAK_ABI_H

#include "base/error.h"
#include "flatpak/runtime.h"
#include "store/manifest.h"

/* The glibc a runtime has: the highest GLIBC_x.y its libc.so.6 defines, into out ("" and
 * TB_EFAIL when it has none). */
int flatpak_runtime_glibc(const struct flatpak_runtime *r, char *out, size_t n, struct tb_error *e);

/* The tree of version (an installed versions/<v>, MANIFEST m) against runtime r: the
 * project's ELF check (machine, glibc floor, every DT_NEEDED found in the runtime's library
 * directories or the release's lib/) with the runtime in place of this system, then every
 * symbol version each file needs (GLIBCXX_3.4.32 of libstdc++.so.6, …) defined by the
 * library that provides it there. TB_EVERIFY with one sentence naming the branch, the
 * library and what is missing (reasons glibc-too-old, library-unresolved, abi-mismatch). */
int flatpak_abi_check(const char *tree, const struct manifest *m, const char *version,
		      const struct flatpak_runtime *r, struct tb_error *e);

#endif
