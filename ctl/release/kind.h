/* The two kinds of release one store takes (docs/design.md §4, §13): Mesa's drivers, kept in
 * versions/, and the conformance suites' binaries (a CTS release), kept in cts/. Both go
 * through the same pipeline (feed, fetch, signature, SHA256SUMS, unpack, ELF checks); what
 * differs is named here once. */
#ifndef TB_RELEASE_KIND_H
#define TB_RELEASE_KIND_H

#include "store/manifest.h"

struct release_kind {
	const char *what;        /* "Mesa", "CTS": sentences say "Mesa 2026.10.06", "CTS 2026.12.03" */
	const char *tag_prefix;  /* the release's tag, and tag:<tag> in its signature */
	const char *file_prefix; /* its tarball: <file_prefix><version>-<arch>.tar.gz */
	const char *store_dir;   /* where its trees live in the store */
	enum manifest_kind manifest; /* what its MANIFEST's kind must be */
	const char *fetch;       /* the command that fetches a version of it again, VERSION after it */
};

extern const struct release_kind release_kind_mesa;
extern const struct release_kind release_kind_cts;

#endif
