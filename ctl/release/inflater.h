/* The unpacker's second thread: it reads the tarball, hashes it and inflates it (gzip, zstd or
 * xz, by libarchive), while the unpacker parses the tar, hashes each file and writes it on its
 * own thread (docs/design.md §4). The two meet in a fixed number of buffers of inflated bytes,
 * so memory does not grow with the release. The thread never prints. */
#ifndef TB_INFLATER_H
#define TB_INFLATER_H

#include <stddef.h>
#include <stdint.h>

#define INFLATER_SLOT (128 * 1024)

struct inflater;

/* Starts the thread on bytes [0, size) of fd (the caller keeps fd open until the end);
 * hash_tarball 0 when the tarball's hash is known already. NULL when no thread starts. */
struct inflater *inflater_start(int fd, uint64_t size, int hash_tarball);

/* The next block of the inflated stream, in order; it stays valid until the next call (the tar
 * reader may keep reading it until then). *len is 0 at the end. *read_bytes: how much of the
 * tarball was read to make it (for progress and the expansion limit). NULL when reading or
 * inflating failed, with errno set and the reason in inflater_error. */
const unsigned char *inflater_next(struct inflater *p, size_t *len, uint64_t *read_bytes);
const char *inflater_error(const struct inflater *p);

/* The unpacker needs no more: the thread stops inflating, reads and hashes the rest of the
 * tarball (tar padding, or whatever follows the tar's end) and ends. tar_hex gets the
 * tarball's hash when it was asked for. -1 with errno when reading the tarball failed. */
int inflater_finish(struct inflater *p, char tar_hex[65]);
/* Stops the thread at once if it still runs and frees all. */
void inflater_free(struct inflater *p);

#endif
