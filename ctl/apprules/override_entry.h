/* Our entry made from an original (docs/design.md §16): a copy with the same ID whose every
 * Exec is prefixed by the launcher, and the marks that say whose it is. */
#ifndef TB_OVERRIDE_ENTRY_H
#define TB_OVERRIDE_ENTRY_H

#include <stddef.h>

#include "base/error.h"

/* What the launcher prefix of an override is made of. */
struct override_spec {
	const char *launcher;  /* absolute path of tb323fu-mesa */
	const char *store;     /* --store's value, or NULL for the default store */
	const char *choice;    /* current, distro or a version */
	const char *gl;        /* run's --gl (native, zink, distro), or NULL */
};

/* The override's text from an original's (text, len; path and its SHA-256 for the marker).
 * Fails (e set) on an original that cannot carry a rule: not UTF-8, no [Desktop Entry], not
 * an application, hidden, no Exec to wrap. */
int override_build(const char *text, size_t len, const char *orig_path, const char *orig_sha,
		   const char *id, const struct override_spec *spec, char **out, size_t *out_len,
		   struct tb_error *e);

#endif
