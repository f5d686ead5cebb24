/* The [kernel] keys of the Open Device Helper's helper.toml that are also ours, read by a real
 * TOML parser (toml++, C++; helper_toml_reader.cpp) behind this C interface. */
#ifndef TB_HELPER_TOML_READER_H
#define TB_HELPER_TOML_READER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HELPER_TOML_MAX_KEYS 32

struct helper_kernel {
	char *channel;         /* "stable" | "testing", NULL when unset */
	int require_signature; /* 0 | 1, -1 when unset */
	int has_public_keys;   /* public_keys was given (maybe empty) */
	char *public_keys[HELPER_TOML_MAX_KEYS];
	int n_public_keys;
	/* Why the text is not a helper.toml we can take anything from: one sentence naming the
	 * file (name) and the line. NULL when it was read; then the fields above hold what it
	 * sets. When set, every field above is unset. */
	char *problem;
};

/* Reads text (len bytes, any bytes at all) as TOML. Returns 0 when it was read, -1 with
 * k->problem set when it was not (not TOML, a key of ours of the wrong type or value). */
int helper_kernel_read(const char *text, size_t len, const char *name, struct helper_kernel *k);
void helper_kernel_free(struct helper_kernel *k);

#ifdef __cplusplus
}
#endif

#endif
