/* Opening the store for one command: what every writer does first, and what a reader may do
 * for the writer before it (engine policy; the command line only says which). */
#ifndef TB_SESSION_H
#define TB_SESSION_H

#include "store/store.h"
#include "base/error.h"

/* Opens the store at root (the command's, struct cli's store_root) as a writer (created,
 * locked, waiting for another writer when wait, the reserve kept, the running record
 * attached, a store the helper made completed) or a reader (an interrupted commit finished
 * when the reader may write). s is closed ({.lock_fd = -1}, or store_close'd), or open as a
 * reader of the same root already (cli_state_first read it): then it is carried on, not
 * opened again. On failure the store is closed. */
int session_open(struct store *s, const char *root, int writer, int wait, struct tb_error *e);

#endif
