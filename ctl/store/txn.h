/* A change of several store files made whole or not at all: temporaries, a journal, renames
 * (docs/design.md §12, "Commit"). */
#ifndef TB_TXN_H
#define TB_TXN_H

#include "store/store.h"
#include "base/error.h"

struct txn_op {
	char *tmp;   /* the prepared temporary (relative to the root), NULL: remove final */
	char *final; /* the file or link it replaces (relative to the root) */
};

struct txn {
	const struct store *s;
	struct txn_op *ops;
	size_t n;
};

void txn_init(struct txn *t, const struct store *s);
/* Prepares rel (a path under the root) with data; mode 0644. */
int txn_put_file(struct txn *t, const char *rel, const char *data, size_t len, struct tb_error *e);
/* Prepares the symbolic link rel -> target, or its removal (target NULL). */
int txn_put_link(struct txn *t, const char *rel, const char *target, struct tb_error *e);
/* Removes rel at commit. */
void txn_remove(struct txn *t, const char *rel);
/* Writes the journal, renames every temporary into place, removes the journal. Fails only
 * before the journal is written, and then the store is exactly as before; t is freed
 * either way. */
int txn_commit(struct txn *t, struct tb_error *e);
/* Removes the temporaries and frees t: nothing changes. */
void txn_abort(struct txn *t);
/* Finishes a commit that a killed writer left half done (the caller holds the lock).
 * Returns 1 when it finished one. */
int txn_recover(const struct store *s);
/* Whether a commit waits to be finished (for readers, which take no lock). */
int txn_pending(const struct store *s);

#endif
