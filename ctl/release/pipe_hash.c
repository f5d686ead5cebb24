#include "release/pipe_hash.h"
#include "base/hash.h"
#include "base/alloc.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rings of about a MiB: a sleeping side is woken only once half a ring is ready for it, so
 * the two switch tasks every few hundred KiB, not for every block. */
#ifndef TAR_SLOTS
#define TAR_SLOTS 16
#endif
#define TAR_SLOT (64 * 1024)
#ifndef DATA_SLOTS
#define DATA_SLOTS 8
#endif

/* The tarball's blocks: the thread reads (and hashes) slot filled % n; the unpacker has
 * taken every block before taken, and gives the last one back when it asks for the next. */
struct tar_ring {
	int fd;
	uint64_t size, offset;
	unsigned char *mem;
	size_t len[TAR_SLOTS];
	uint64_t filled, taken, released;
	int eof, err;
	int unpacker_done; /* nothing more is taken: the rest is only hashed */
};

/* The files' blocks: the unpacker fills slot put % n, the thread hashes slot done % n. */
struct data_ring {
	unsigned char *mem;
	size_t len[DATA_SLOTS];
	unsigned char file_end[DATA_SLOTS];
	uint64_t put, done;
};

enum waiter { WAITS_NOT, WAITS_TAR, WAITS_DATA };

struct pipe_hash {
	pthread_t thread;
	int running;
	pthread_mutex_t lock;
	pthread_cond_t work; /* the thread's wake-up */
	pthread_cond_t room; /* the unpacker's */
	int closing, stopping;
	/* Who sleeps. A wake-up costs system calls and a switch of tasks, so the thread is woken
	 * once half a ring waits for it, not for every block. */
	int thread_waits;
	enum waiter unpacker_waits;
	int hash_tarball;
	struct tar_ring tar;
	struct data_ring data;
	/* The thread's own until it is joined. */
	struct sha256_stream *tar_hash, *file_hash;
	char (*results)[65];
	size_t n_results, cap_results;
};

static unsigned char *tar_slot(const struct pipe_hash *p, uint64_t seq)
{
	return p->tar.mem + (size_t)(seq % TAR_SLOTS) * TAR_SLOT;
}

static unsigned char *data_slot(const struct pipe_hash *p, uint64_t seq)
{
	return p->data.mem + (size_t)(seq % DATA_SLOTS) * PIPE_HASH_DATA_SLOT;
}

static int tar_has_room(const struct pipe_hash *p)
{
	const struct tar_ring *t = &p->tar;
	return !t->eof && !t->err && (t->unpacker_done || t->filled - t->released < TAR_SLOTS);
}

static uint64_t data_pending(const struct pipe_hash *p)
{
	return p->data.put - p->data.done;
}

/* Called with the lock held, which it drops while reading. */
static void read_block(struct pipe_hash *p)
{
	struct tar_ring *t = &p->tar;
	uint64_t seq = t->filled;
	uint64_t left = t->size - t->offset;
	size_t want = left < TAR_SLOT ? (size_t)left : TAR_SLOT;
	unsigned char *buf = tar_slot(p, seq);
	pthread_mutex_unlock(&p->lock);
	ssize_t n;
	do
		n = want ? pread(t->fd, buf, want, (off_t)t->offset) : 0;
	while (n < 0 && errno == EINTR);
	int saved = errno;
	if (n > 0 && p->tar_hash)
		sha256_add(p->tar_hash, buf, (size_t)n);
	pthread_mutex_lock(&p->lock);
	if (n < 0) {
		t->err = saved ? saved : EIO;
	} else if (n == 0) {
		t->eof = 1; /* at the size it had when opened, or shrunk since: the hash tells */
	} else {
		t->len[seq % TAR_SLOTS] = (size_t)n;
		t->offset += (uint64_t)n;
		t->filled = seq + 1;
		t->eof = t->offset == t->size;
	}
	if (p->unpacker_waits == WAITS_TAR && (t->filled - t->taken >= TAR_SLOTS / 2 || t->eof || t->err))
		pthread_cond_signal(&p->room);
}

static void add_result(struct pipe_hash *p)
{
	if (p->n_results == p->cap_results) {
		p->cap_results = p->cap_results ? p->cap_results * 2 : 64;
		p->results = xrealloc(p->results, p->cap_results * sizeof *p->results);
	}
	sha256_end(p->file_hash, p->results[p->n_results++]);
	p->file_hash = NULL;
}

/* Called with the lock held, which it drops while hashing. */
static void hash_block(struct pipe_hash *p)
{
	struct data_ring *d = &p->data;
	uint64_t seq = d->done;
	size_t len = d->len[seq % DATA_SLOTS];
	int end = d->file_end[seq % DATA_SLOTS];
	pthread_mutex_unlock(&p->lock);
	if (!p->file_hash)
		p->file_hash = sha256_begin();
	sha256_add(p->file_hash, data_slot(p, seq), len);
	if (end)
		add_result(p);
	pthread_mutex_lock(&p->lock);
	d->done = seq + 1;
	if (p->unpacker_waits == WAITS_DATA && data_pending(p) <= DATA_SLOTS / 2)
		pthread_cond_signal(&p->room);
}

static void *pipe_thread(void *arg)
{
	struct pipe_hash *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		uint64_t pending = data_pending(p);
		int room = tar_has_room(p);
		/* The files' blocks first once they pile up: the unpacker waits for them. */
		if (pending && (!room || pending >= DATA_SLOTS / 2 || p->unpacker_waits == WAITS_DATA))
			hash_block(p);
		else if (room)
			read_block(p);
		else if (pending)
			hash_block(p);
		else if (p->closing)
			break;
		else {
			p->thread_waits = 1;
			pthread_cond_wait(&p->work, &p->lock);
			p->thread_waits = 0;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct pipe_hash *pipe_hash_start(int fd, uint64_t size, int hash_tarball)
{
	struct pipe_hash *p = xmalloc(sizeof *p);
	memset(p, 0, sizeof *p);
	p->hash_tarball = hash_tarball;
	p->tar.fd = fd;
	p->tar.size = size;
	p->tar.eof = size == 0;
	p->tar.mem = xmalloc((size_t)TAR_SLOTS * TAR_SLOT);
	p->data.mem = xmalloc((size_t)DATA_SLOTS * PIPE_HASH_DATA_SLOT);
	if (hash_tarball)
		p->tar_hash = sha256_begin();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	/* Signals stay with the unpacker's thread, which checks for them between its steps. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->running = pthread_create(&p->thread, NULL, pipe_thread, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!p->running) {
		pipe_hash_free(p);
		return NULL;
	}
	return p;
}

static void wake_thread(struct pipe_hash *p)
{
	if (p->thread_waits)
		pthread_cond_signal(&p->work);
}

const unsigned char *pipe_hash_tar_next(struct pipe_hash *p, size_t *len)
{
	struct tar_ring *t = &p->tar;
	const unsigned char *block = NULL;
	int err = 0;
	pthread_mutex_lock(&p->lock);
	t->released = t->taken;
	if (t->filled - t->released <= TAR_SLOTS / 2)
		wake_thread(p);
	while (t->filled == t->taken && !t->eof && !t->err) {
		p->unpacker_waits = WAITS_TAR;
		pthread_cond_wait(&p->room, &p->lock);
		p->unpacker_waits = WAITS_NOT;
	}
	if (t->filled > t->taken) {
		block = tar_slot(p, t->taken);
		*len = t->len[t->taken % TAR_SLOTS];
		t->taken++;
	} else if (t->err) {
		err = t->err;
	} else {
		block = t->mem;
		*len = 0;
	}
	pthread_mutex_unlock(&p->lock);
	if (!block)
		errno = err;
	return block;
}

unsigned char *pipe_hash_data_buffer(struct pipe_hash *p)
{
	pthread_mutex_lock(&p->lock);
	while (data_pending(p) >= DATA_SLOTS) {
		p->unpacker_waits = WAITS_DATA;
		pthread_cond_wait(&p->room, &p->lock);
		p->unpacker_waits = WAITS_NOT;
	}
	pthread_mutex_unlock(&p->lock);
	return data_slot(p, p->data.put);
}

void pipe_hash_data_put(struct pipe_hash *p, size_t len, int file_end)
{
	struct data_ring *d = &p->data;
	pthread_mutex_lock(&p->lock);
	d->len[d->put % DATA_SLOTS] = len;
	d->file_end[d->put % DATA_SLOTS] = (unsigned char)file_end;
	d->put++;
	if (data_pending(p) >= (DATA_SLOTS + 1) / 2)
		wake_thread(p);
	pthread_mutex_unlock(&p->lock);
}

static void end_thread(struct pipe_hash *p, int drop_queue)
{
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = drop_queue;
	p->closing = 1;
	p->tar.unpacker_done = 1;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = 0;
}

int pipe_hash_finish(struct pipe_hash *p, char tar_hex[65])
{
	end_thread(p, 0);
	if (p->tar_hash) {
		sha256_end(p->tar_hash, tar_hex);
		p->tar_hash = NULL;
	}
	if (p->tar.err) {
		errno = p->tar.err;
		return -1;
	}
	return 0;
}

const char *pipe_hash_file_sha256(const struct pipe_hash *p, size_t n)
{
	return n < p->n_results ? p->results[n] : NULL;
}

size_t pipe_hash_files(const struct pipe_hash *p)
{
	return p->n_results;
}

void pipe_hash_free(struct pipe_hash *p)
{
	if (!p)
		return;
	end_thread(p, 1);
	char dummy[65];
	if (p->tar_hash)
		sha256_end(p->tar_hash, dummy);
	if (p->file_hash)
		sha256_end(p->file_hash, dummy);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p->results);
	free(p->tar.mem);
	free(p->data.mem);
	free(p);
}
