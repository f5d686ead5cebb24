/* SHA256SUMS files as written by sha256sum(1). */
#ifndef TB_SUMS_H
#define TB_SUMS_H

#include "base/error.h"

#define SUMS_MAX_BYTES (64 * 1024)

/* Finds the line for name in the text of a SHA256SUMS file; hex gets its 64 digits.
 * TB_EVERIFY when the text is malformed or has no (or two different) lines for name. */
int sums_lookup_text(const char *text, size_t len, const char *name, char hex[65],
		     struct tb_error *e);
int sums_lookup(const char *path, const char *name, char hex[65], struct tb_error *e);

#endif
