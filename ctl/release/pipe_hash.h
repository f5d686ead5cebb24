/* The unpacker's second thread: it reads the tarball ahead and hashes it, and hashes each
 * unpacked file's blocks, while the unpacker inflates and writes on its own thread. Both
 * sides see the same bytes (one read of the tarball), through a fixed number of buffers, so
 * memory does not grow with the release. The thread never prints. */
#ifndef TB_PIPE_HASH_H
#define TB_PIPE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PIPE_HASH_DATA_SLOT (128 * 1024)

struct pipe_hash;

/* Starts the thread on bytes [0, size) of fd (the caller keeps fd open until the end);
 * hash_tarball 0 when the tarball's hash is known already. NULL when no thread starts. */
struct pipe_hash *pipe_hash_start(int fd, uint64_t size, int hash_tarball);

/* The next block of the tarball, in order; it stays valid until the next call (the decoder
 * may keep reading it until then). *len is 0 at the end. NULL when reading failed, with
 * errno set. */
const unsigned char *pipe_hash_tar_next(struct pipe_hash *p, size_t *len);

/* The next buffer for a file's bytes (PIPE_HASH_DATA_SLOT bytes), valid until it is put. */
unsigned char *pipe_hash_data_buffer(struct pipe_hash *p);
/* Hands over len bytes of the current file; file_end closes the file (its hash is then the
 * next result, in the order the files were closed). */
void pipe_hash_data_put(struct pipe_hash *p, size_t len, int file_end);

/* Lets the thread read and hash the rest of the tarball (what the decoder did not need),
 * waits until everything handed over is hashed and ends the thread. tar_hex gets the
 * tarball's hash when it was asked for. -1 with errno when reading the tarball failed. */
int pipe_hash_finish(struct pipe_hash *p, char tar_hex[65]);
/* The hash of the file closed n-th (from 0), after pipe_hash_finish; NULL past the last. */
const char *pipe_hash_file_sha256(const struct pipe_hash *p, size_t n);
size_t pipe_hash_files(const struct pipe_hash *p);
/* Stops the thread at once if it still runs (whatever is queued is dropped) and frees all. */
void pipe_hash_free(struct pipe_hash *p);

#endif
