#include "release/inflater.h"
#include "base/hash.h"
#include "base/alloc.h"

#include <archive.h>
#include "base/lazy_archive.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A ring of a MiB: a sleeping side is woken only once half the ring is ready for it, so the
 * two switch tasks every few hundred KiB, not for every block. */
#ifndef SLOTS
#define SLOTS 8
#endif
#define READ_BLOCK (64 * 1024)

enum { RUNNING, CLOSING, STOPPING };

struct inflater {
	pthread_t thread;
	int running;
	pthread_mutex_t lock;
	pthread_cond_t room;  /* the thread's wake-up */
	pthread_cond_t ready; /* the unpacker's */
	int thread_waits, unpacker_waits;
	int state;            /* RUNNING, then CLOSING (hash the rest) or STOPPING (drop all) */

	/* Inflated blocks: the thread fills slot made % SLOTS; the unpacker has taken every block
	 * before taken, and gives the last one back when it asks for the next. */
	unsigned char *ring;
	size_t len[SLOTS];
	uint64_t read_at[SLOTS];
	uint64_t made, taken, released;
	int ended;            /* the inflated stream ended, or failed (then err) */
	uint64_t ended_at;    /* how much of the tarball was read by then */
	int err;
	char why[256];        /* libarchive's reason for err */
	int read_err;         /* a failed read of the tarball, which finish reports */

	/* The thread's own until it is joined. */
	int fd;
	uint64_t size, offset;
	unsigned char *read_buf;
	struct sha256_stream *hash;
};

static unsigned char *slot(const struct inflater *p, uint64_t seq)
{
	return p->ring + (size_t)(seq % SLOTS) * INFLATER_SLOT;
}

/* The next block of the tarball, hashed; never past the size it had when opened (a file that
 * keeps growing is not read on). 0 at that size, -1 with errno on failure. */
static ssize_t read_block(struct inflater *p)
{
	uint64_t left = p->size - p->offset;
	size_t want = left < READ_BLOCK ? (size_t)left : READ_BLOCK;
	ssize_t n;
	do
		n = want ? pread(p->fd, p->read_buf, want, (off_t)p->offset) : 0;
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		if (p->hash)
			sha256_add(p->hash, p->read_buf, (size_t)n);
		p->offset += (uint64_t)n;
	}
	return n;
}

static ssize_t feed_decoder(struct archive *a, void *data, const void **out)
{
	struct inflater *p = data;
	ssize_t n = read_block(p);
	if (n < 0) {
		int saved = errno ? errno : EIO;
		pthread_mutex_lock(&p->lock);
		p->read_err = saved;
		pthread_mutex_unlock(&p->lock);
		archive_set_error(a, saved, "cannot read the tarball: %s", strerror(saved));
		return -1;
	}
	*out = p->read_buf;
	return n;
}

/* Called with the lock held. */
static void end_stream(struct inflater *p, int err, const char *why)
{
	p->ended = 1;
	p->ended_at = p->offset;
	if (err) {
		p->err = err;
		snprintf(p->why, sizeof p->why, "%s", why && *why ? why : strerror(err));
	}
	if (p->unpacker_waits)
		pthread_cond_signal(&p->ready);
}

static int ring_full(const struct inflater *p)
{
	return p->made - p->released >= SLOTS;
}

/* Inflates into the ring until the stream ends or the unpacker closes. */
static void inflate_all(struct inflater *p, struct archive *a)
{
	struct archive_entry *ent;
	if (archive_read_open(a, p, NULL, feed_decoder, NULL) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ent) != ARCHIVE_OK) {
		pthread_mutex_lock(&p->lock);
		end_stream(p, archive_errno(a) > 0 ? archive_errno(a) : EILSEQ, archive_error_string(a));
		pthread_mutex_unlock(&p->lock);
		return;
	}
	pthread_mutex_lock(&p->lock);
	while (p->state == RUNNING) {
		if (ring_full(p)) {
			p->thread_waits = 1;
			pthread_cond_wait(&p->room, &p->lock);
			p->thread_waits = 0;
			continue;
		}
		uint64_t seq = p->made;
		pthread_mutex_unlock(&p->lock);
		ssize_t n = archive_read_data(a, slot(p, seq), INFLATER_SLOT);
		pthread_mutex_lock(&p->lock);
		if (n <= 0) {
			end_stream(p, n < 0 ? (archive_errno(a) > 0 ? archive_errno(a) : EILSEQ) : 0,
				   archive_error_string(a));
			break;
		}
		p->len[seq % SLOTS] = (size_t)n;
		p->read_at[seq % SLOTS] = p->offset;
		p->made = seq + 1;
		if (p->unpacker_waits && p->made - p->taken >= SLOTS / 2)
			pthread_cond_signal(&p->ready);
	}
	pthread_mutex_unlock(&p->lock);
}

static void *inflate_thread(void *arg)
{
	struct inflater *p = arg;
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_xz(a);
	/* the inflated bytes as one entry: the tar in them is the unpacker's to read */
	archive_read_support_format_raw(a);
	inflate_all(p, a);
	archive_read_free(a);

	/* The hash covers the whole file, whatever the unpacker needed of it. */
	pthread_mutex_lock(&p->lock);
	while (p->state == RUNNING) {
		p->thread_waits = 1;
		pthread_cond_wait(&p->room, &p->lock);
		p->thread_waits = 0;
	}
	int hash_rest = p->state == CLOSING && !p->read_err;
	pthread_mutex_unlock(&p->lock);
	if (!hash_rest)
		return NULL;
	ssize_t n;
	while ((n = read_block(p)) > 0)
		;
	if (n < 0)
		p->read_err = errno ? errno : EIO; /* read by finish after the join */
	return NULL;
}

struct inflater *inflater_start(int fd, uint64_t size, int hash_tarball)
{
	struct inflater *p = xmalloc(sizeof *p);
	memset(p, 0, sizeof *p);
	p->fd = fd;
	p->size = size;
	p->ring = xmalloc((size_t)SLOTS * INFLATER_SLOT);
	p->read_buf = xmalloc(READ_BLOCK);
	if (hash_tarball)
		p->hash = sha256_begin();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->ready, NULL);
	/* Signals stay with the unpacker's thread, which checks for them between its steps. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->running = pthread_create(&p->thread, NULL, inflate_thread, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!p->running) {
		inflater_free(p);
		return NULL;
	}
	return p;
}

const unsigned char *inflater_next(struct inflater *p, size_t *len, uint64_t *read_bytes)
{
	const unsigned char *block = NULL;
	int err = 0;
	pthread_mutex_lock(&p->lock);
	p->released = p->taken;
	if (p->thread_waits && p->made - p->released <= SLOTS / 2)
		pthread_cond_signal(&p->room);
	while (p->made == p->taken && !p->ended) {
		p->unpacker_waits = 1;
		pthread_cond_wait(&p->ready, &p->lock);
		p->unpacker_waits = 0;
	}
	if (p->made > p->taken) {
		block = slot(p, p->taken);
		*len = p->len[p->taken % SLOTS];
		*read_bytes = p->read_at[p->taken % SLOTS];
		p->taken++;
	} else if (p->err) {
		err = p->err;
	} else {
		block = p->ring;
		*len = 0;
		*read_bytes = p->ended_at;
	}
	pthread_mutex_unlock(&p->lock);
	if (!block)
		errno = err;
	return block;
}

const char *inflater_error(const struct inflater *p)
{
	return p->why;
}

static void end_thread(struct inflater *p, int state)
{
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	p->state = state;
	pthread_cond_signal(&p->room);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = 0;
}

int inflater_finish(struct inflater *p, char tar_hex[65])
{
	end_thread(p, CLOSING);
	if (p->read_err) {
		errno = p->read_err;
		return -1;
	}
	if (p->hash) {
		sha256_end(p->hash, tar_hex);
		p->hash = NULL;
	}
	return 0;
}

void inflater_free(struct inflater *p)
{
	if (!p)
		return;
	end_thread(p, STOPPING);
	char dummy[65];
	if (p->hash)
		sha256_end(p->hash, dummy);
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->room);
	pthread_mutex_destroy(&p->lock);
	free(p->read_buf);
	free(p->ring);
	free(p);
}
