/* Opening the store for one command: what every writer does first, and what a reader may do
 * for the writer before it (engine policy; the command line only says which). */
#ifndef TB_SESSION_H
#define TB_SESSION_H

#include "store/store.h"
#include "base/error.h"

/* Opens the store at dir (NULL: $TB323FU_MESA_DIR, else the default) as a writer (created,
 * locked, waiting for another writer when wait, the reserve kept, the running record
 * attached, a store the helper made completed) or a reader (an interrupted commit finished
 * when the reader may write). On failure the store is closed. */
int session_open(struct store *s, const char *dir, int writer, int wait, struct tb_error *e);

#endif
