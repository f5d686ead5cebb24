/* Which application rule pins a version (docs/design.md §16), for remove and the pruning
 * after install. */
#ifndef TB_APP_PINNING_H
#define TB_APP_PINNING_H

#include "store/store.h"

/* The rule that pins version (the system's, then the caller's own): "the rule for ID" words,
 * or NULL when none does. A damaged rule file counts what the override entries of that scope
 * record. */
char *apprules_pinning(const struct store *s, const char *version);

#endif
