/* "Did you mean …?": the nearest known word to a mistyped one. Shared by both programs. */
#ifndef TB_SUGGEST_H
#define TB_SUGGEST_H

#include <stddef.h>

/* The entry of a table (count entries, stride bytes apart, each starting with a
 * `const char *name`) closest to word, or NULL when none is close enough to be what was
 * meant: at most one edit in short words, two in longer ones (a swap of two neighbours
 * counts as one), or word is the start of exactly one name. */
const char *suggest_name(const char *word, const void *table, size_t count, size_t stride);

/* Optimal-string-alignment distance between a and b (each at most 63 bytes are compared;
 * longer words are never close). */
int suggest_distance(const char *a, const char *b);

#endif
