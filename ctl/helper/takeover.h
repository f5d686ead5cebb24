/* A store the Open Device Helper made (docs/design.md §13): the same layout without our files
 * (env/, icd/versions/, smoke/). Completing it from each version's MANIFEST is what any writer
 * does first; links, state and boot counts stay exactly as they are. */
#ifndef TB_TAKEOVER_H
#define TB_TAKEOVER_H

#include "store/store.h"
#include "base/error.h"

/* The number of installed versions (with a readable MANIFEST) whose files of ours are missing,
 * plus one when current's are; 0 when the store is complete. */
int takeover_needed(const struct store *s);
/* Writes what is missing (a writer holding the lock); *done gets the number of versions
 * completed. Each file is replaced atomically; a version's env file comes last, so an
 * interrupted takeover is simply done again by the next writer. */
int takeover_run(struct store *s, int *done, struct tb_error *e);

#endif
