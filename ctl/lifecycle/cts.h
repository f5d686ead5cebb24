/* The store's CTS after an install (docs/design.md §13): the new tree becomes the one the
 * suites use and the others go; the store keeps one CTS. */
#ifndef TB_CTS_ADOPT_H
#define TB_CTS_ADOPT_H

#include "store/store.h"
#include "base/strbuf.h"

/* Points cts/current at version and removes every other CTS tree, naming each in removed
 * (", " between). The store must be locked. */
int cts_adopt(struct store *s, const char *version, struct strbuf *removed, struct tb_error *e);

#endif
