/* verify --repair's second half: a damaged installed version fetched anew from the release
 * source. */
#ifndef TB_REPAIR_H
#define TB_REPAIR_H

#include "base/config.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

/* Replaces the tree of version (the store open and locked) with a fresh download, the release
 * list read as for download. When the source cannot be reached or no longer offers it, the
 * sentence says how to repair it from its tarball instead. */
int repair_from_source(const struct config *cfg, struct store *s, const char *version,
		       const struct tb_progress *p, struct tb_error *e);

#endif
