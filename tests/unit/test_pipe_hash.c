/* The unpacker's second thread: the tarball's blocks come in order and whole, the hashes are
 * those of one pass on one thread however the blocks are cut and the rings wrap, a failed
 * read reaches the unpacker, and stopping midway neither hangs nor leaks. Also built with
 * -fsanitize=thread (`make tsan-unit`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "release/pipe_hash.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "tmpdir.h"

struct fixture {
	char *dir;
	char *path;
	unsigned char *tar;
	size_t tar_len;
	int fd;
};

static unsigned char *pattern(size_t len, unsigned seed)
{
	unsigned char *b = malloc(len ? len : 1);
	for (size_t i = 0; i < len; i++)
		b[i] = (unsigned char)((i * 131 + seed * 7 + (i >> 9)) & 0xff);
	return b;
}

static void sha256_of(const unsigned char *b, size_t len, char hex[65])
{
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, b, len);
	sha256_end(h, hex);
}

/* A "tarball" of len bytes on disk, open for reading. */
static struct fixture *fixture_new(size_t len)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->dir = test_mkdtemp("pipe-hash");
	assert_non_null(f->dir);
	f->path = path_join(f->dir, "t.tar.gz");
	f->tar_len = len;
	f->tar = pattern(len, 1);
	int out = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(out >= 0);
	assert_int_equal(write(out, f->tar, len), (ssize_t)len);
	close(out);
	f->fd = open(f->path, O_RDONLY);
	assert_true(f->fd >= 0);
	return f;
}

static void fixture_free(struct fixture *f)
{
	close(f->fd);
	remove_tree(f->dir);
	free(f->dir);
	free(f->path);
	free(f->tar);
	free(f);
}

static void put_file(struct pipe_hash *p, const unsigned char *b, size_t len, size_t step)
{
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;
		memcpy(pipe_hash_data_buffer(p), b + off, n);
		pipe_hash_data_put(p, n, 0);
	}
	pipe_hash_data_buffer(p);
	pipe_hash_data_put(p, 0, 1);
}

/* Takes blocks until want bytes came (or the end), checking they are the file's, in order. */
static size_t take_tar(struct pipe_hash *p, const struct fixture *f, size_t at, size_t want)
{
	while (want) {
		size_t len;
		const unsigned char *b = pipe_hash_tar_next(p, &len);
		assert_non_null(b);
		if (!len)
			break;
		assert_true(at + len <= f->tar_len);
		assert_memory_equal(b, f->tar + at, len);
		at += len;
		want = want > len ? want - len : 0;
	}
	return at;
}

static void hashes_match_one_pass(void **state)
{
	(void)state;
	static const size_t sizes[] = {0, 1, 4096, PIPE_HASH_DATA_SLOT, 3 * PIPE_HASH_DATA_SLOT + 17,
				       0, 20 * PIPE_HASH_DATA_SLOT + 5};
	size_t n_files = sizeof sizes / sizeof *sizes;
	struct fixture *f = fixture_new(3 * 1024 * 1024 + 999);
	struct pipe_hash *p = pipe_hash_start(f->fd, f->tar_len, 1);
	assert_non_null(p);
	size_t at = 0;
	for (size_t i = 0; i < n_files; i++) {
		unsigned char *file = pattern(sizes[i], (unsigned)i + 2);
		/* the two rings in turn, as the decoder reads ahead of the files */
		at = take_tar(p, f, at, 100 * 1024);
		put_file(p, file, sizes[i], i % 2 ? PIPE_HASH_DATA_SLOT : 1000 + i);
		free(file);
	}
	/* the decoder stops short of the end (tar padding): the thread hashes the rest */
	char got[65], want[65];
	assert_int_equal(pipe_hash_finish(p, got), 0);
	sha256_of(f->tar, f->tar_len, want);
	assert_string_equal(got, want);
	assert_int_equal(pipe_hash_files(p), n_files);
	for (size_t i = 0; i < n_files; i++) {
		unsigned char *file = pattern(sizes[i], (unsigned)i + 2);
		sha256_of(file, sizes[i], want);
		assert_string_equal(pipe_hash_file_sha256(p, i), want);
		free(file);
	}
	assert_null(pipe_hash_file_sha256(p, n_files));
	pipe_hash_free(p);
	fixture_free(f);
}

static void whole_tarball_then_end(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(5 * 64 * 1024);
	/* the hash known already: blocks still come, the hash is left alone */
	struct pipe_hash *p = pipe_hash_start(f->fd, f->tar_len, 0);
	assert_non_null(p);
	assert_int_equal(take_tar(p, f, 0, SIZE_MAX), f->tar_len);
	size_t len = 1;
	assert_non_null(pipe_hash_tar_next(p, &len));
	assert_int_equal(len, 0);
	char got[65] = "untouched";
	assert_int_equal(pipe_hash_finish(p, got), 0);
	assert_string_equal(got, "untouched");
	pipe_hash_free(p);
	fixture_free(f);
}

/* Bytes appended after the size was taken are not read. */
static void not_past_the_size(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(200 * 1024);
	struct pipe_hash *p = pipe_hash_start(f->fd, 150 * 1024, 1);
	assert_non_null(p);
	assert_int_equal(take_tar(p, f, 0, SIZE_MAX), 150 * 1024);
	char got[65], want[65];
	assert_int_equal(pipe_hash_finish(p, got), 0);
	sha256_of(f->tar, 150 * 1024, want);
	assert_string_equal(got, want);
	pipe_hash_free(p);
	fixture_free(f);
}

static void read_error_reaches_the_unpacker(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(10);
	int dir = open(f->dir, O_RDONLY | O_DIRECTORY);
	struct pipe_hash *p = pipe_hash_start(dir, 1000, 1); /* pread on a directory: EISDIR */
	assert_non_null(p);
	size_t len;
	assert_null(pipe_hash_tar_next(p, &len));
	assert_int_equal(errno, EISDIR);
	char got[65];
	assert_int_equal(pipe_hash_finish(p, got), -1);
	pipe_hash_free(p);
	close(dir);
	fixture_free(f);
}

/* A failure midway: full rings, a file left open; freeing stops the thread at once. */
static void stop_midway(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(2 * 1024 * 1024);
	for (int round = 0; round < 20; round++) {
		struct pipe_hash *p = pipe_hash_start(f->fd, f->tar_len, 1);
		assert_non_null(p);
		for (int i = 0; i < round; i++) {
			memset(pipe_hash_data_buffer(p), i, PIPE_HASH_DATA_SLOT);
			pipe_hash_data_put(p, PIPE_HASH_DATA_SLOT, i == 3);
			if (i % 3 == 0)
				take_tar(p, f, (size_t)(i / 3) * 64 * 1024, 1);
		}
		pipe_hash_free(p);
	}
	pipe_hash_free(NULL);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hashes_match_one_pass),
		cmocka_unit_test(whole_tarball_then_end),
		cmocka_unit_test(not_past_the_size),
		cmocka_unit_test(read_error_reaches_the_unpacker),
		cmocka_unit_test(stop_midway),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
