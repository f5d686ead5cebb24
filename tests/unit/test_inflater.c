/* The unpacker's second thread: the inflated bytes come in order and whole for each
 * compression, the tarball's hash is that of the whole file however little of it the unpacker
 * took, a failed read or a damaged stream reaches the unpacker with its reason, and stopping
 * midway neither hangs nor leaks. Also built with -fsanitize=thread (`make tsan-unit`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"
#include "release/inflater.h"
#include "tmpdir.h"

enum packing { NONE, GZIP, ZSTD, XZ };

struct fixture {
	char *dir;
	char *path;
	unsigned char *plain;  /* what inflating gives */
	size_t plain_len;
	unsigned char *packed; /* the file on disk */
	size_t packed_len;
	int fd;
};

static unsigned char *pattern(size_t len, unsigned seed)
{
	unsigned char *b = malloc(len ? len : 1);
	for (size_t i = 0; i < len; i++)
		b[i] = (unsigned char)((i * 131 + seed * 7 + (i >> 9) + (i * i >> 13)) & 0xff);
	return b;
}

static void sha256_of(const unsigned char *b, size_t len, char hex[65])
{
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, b, len);
	sha256_end(h, hex);
}

/* Compresses with libarchive's writer (the raw format: the bytes alone, filtered). */
static void pack(struct fixture *f, enum packing how)
{
	if (how == NONE) {
		f->packed = malloc(f->plain_len);
		memcpy(f->packed, f->plain, f->plain_len);
		f->packed_len = f->plain_len;
		return;
	}
	size_t cap = f->plain_len + 65536;
	f->packed = malloc(cap);
	struct archive *a = archive_write_new();
	assert_int_equal(archive_write_set_format_raw(a), ARCHIVE_OK);
	if (how == GZIP)
		assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	else if (how == ZSTD)
		assert_int_equal(archive_write_add_filter_zstd(a), ARCHIVE_OK);
	else
		assert_int_equal(archive_write_add_filter_xz(a), ARCHIVE_OK);
	archive_write_set_bytes_in_last_block(a, 1);
	assert_int_equal(archive_write_open_memory(a, f->packed, cap, &f->packed_len), ARCHIVE_OK);
	struct archive_entry *ent = archive_entry_new();
	archive_entry_set_pathname(ent, "data");
	archive_entry_set_filetype(ent, AE_IFREG);
	archive_entry_set_size(ent, (la_int64_t)f->plain_len);
	assert_int_equal(archive_write_header(a, ent), ARCHIVE_OK);
	assert_int_equal(archive_write_data(a, f->plain, f->plain_len), (la_ssize_t)f->plain_len);
	archive_entry_free(ent);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* A tarball of len inflated bytes on disk, open for reading; extra bytes appended after it. */
static struct fixture *fixture_new(size_t len, enum packing how, size_t extra)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->dir = test_mkdtemp("inflater");
	assert_non_null(f->dir);
	f->path = path_join(f->dir, "t.tar.x");
	f->plain_len = len;
	f->plain = pattern(len, 1);
	pack(f, how);
	f->packed = realloc(f->packed, f->packed_len + extra + 1);
	for (size_t i = 0; i < extra; i++)
		f->packed[f->packed_len + i] = (unsigned char)(i * 7);
	f->packed_len += extra;
	int out = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(out >= 0);
	assert_int_equal(write(out, f->packed, f->packed_len), (ssize_t)f->packed_len);
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
	free(f->plain);
	free(f->packed);
	free(f);
}

/* Takes blocks until want bytes came (or the end), checking they are the inflated bytes, in
 * order, and that the tarball was read no further than its size. */
static size_t take(struct inflater *p, const struct fixture *f, size_t at, size_t want)
{
	uint64_t last_read = 0;
	while (want) {
		size_t len;
		uint64_t read_bytes = 0;
		const unsigned char *b = inflater_next(p, &len, &read_bytes);
		assert_non_null(b);
		assert_true(read_bytes >= last_read && read_bytes <= f->packed_len);
		last_read = read_bytes;
		if (!len)
			break;
		assert_true(len <= INFLATER_SLOT);
		assert_true(at + len <= f->plain_len);
		assert_memory_equal(b, f->plain + at, len);
		at += len;
		want = want > len ? want - len : 0;
	}
	return at;
}

/* Ends p, checking the tarball's hash is that of its first len bytes, and frees both. */
static void finish_hashing(struct inflater *p, struct fixture *f, size_t len)
{
	char got[65], want[65];
	assert_int_equal(inflater_finish(p, got), 0);
	sha256_of(f->packed, len, want);
	assert_string_equal(got, want);
	inflater_free(p);
	fixture_free(f);
}

static void whole_stream(enum packing how)
{
	struct fixture *f = fixture_new(3 * 1024 * 1024 + 999, how, 0);
	struct inflater *p = inflater_start(f->fd, f->packed_len, 1);
	assert_non_null(p);
	assert_int_equal(take(p, f, 0, SIZE_MAX), f->plain_len);
	size_t len = 1;
	uint64_t read_bytes;
	assert_non_null(inflater_next(p, &len, &read_bytes)); /* the end, again */
	assert_int_equal(len, 0);
	finish_hashing(p, f, f->packed_len);
}

static void whole_gzip(void **state) { (void)state; whole_stream(GZIP); }
static void whole_zstd(void **state) { (void)state; whole_stream(ZSTD); }
static void whole_xz(void **state) { (void)state; whole_stream(XZ); }
static void whole_plain(void **state) { (void)state; whole_stream(NONE); }

/* The unpacker stops short (the tar ended): the rest, and what follows the stream, is hashed
 * but never inflated, so garbage after the end is no error. */
static void short_take_hashes_the_rest(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(2 * 1024 * 1024, GZIP, 100 * 1024);
	struct inflater *p = inflater_start(f->fd, f->packed_len, 1);
	assert_non_null(p);
	assert_true(take(p, f, 0, 300 * 1024) >= 300 * 1024);
	finish_hashing(p, f, f->packed_len);
}

static void known_hash_is_left_alone(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(5 * 64 * 1024, ZSTD, 0);
	struct inflater *p = inflater_start(f->fd, f->packed_len, 0);
	assert_non_null(p);
	assert_int_equal(take(p, f, 0, SIZE_MAX), f->plain_len);
	char got[65] = "untouched";
	assert_int_equal(inflater_finish(p, got), 0);
	assert_string_equal(got, "untouched");
	inflater_free(p);
	fixture_free(f);
}

/* Bytes appended after the size was taken are neither read nor inflated. */
static void not_past_the_size(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(200 * 1024, NONE, 0);
	struct inflater *p = inflater_start(f->fd, 150 * 1024, 1);
	assert_non_null(p);
	assert_int_equal(take(p, f, 0, SIZE_MAX), 150 * 1024);
	finish_hashing(p, f, 150 * 1024);
}

static void read_error_reaches_the_unpacker(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(10, NONE, 0);
	int dir = open(f->dir, O_RDONLY | O_DIRECTORY);
	struct inflater *p = inflater_start(dir, 1000, 1); /* pread on a directory: EISDIR */
	assert_non_null(p);
	size_t len;
	uint64_t read_bytes;
	assert_null(inflater_next(p, &len, &read_bytes));
	assert_int_equal(errno, EISDIR);
	assert_non_null(strstr(inflater_error(p), "cannot read the tarball"));
	char got[65];
	assert_int_equal(inflater_finish(p, got), -1);
	assert_int_equal(errno, EISDIR);
	inflater_free(p);
	close(dir);
	fixture_free(f);
}

/* A stream cut short: the good part comes, then the decoder's reason; the tarball itself was
 * read whole, so its hash is still there for the caller. */
static void damaged_stream(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(2 * 1024 * 1024, GZIP, 0);
	size_t cut = f->packed_len / 2;
	struct inflater *p = inflater_start(f->fd, cut, 1);
	assert_non_null(p);
	size_t len, total = 0;
	uint64_t read_bytes;
	const unsigned char *b;
	while ((b = inflater_next(p, &len, &read_bytes)) && len)
		total += len;
	assert_null(b);
	assert_true(total < f->plain_len);
	assert_true(strlen(inflater_error(p)) > 0);
	finish_hashing(p, f, cut);
}

/* A failure midway, with the ring full or not: freeing stops the thread at once. */
static void stop_midway(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(2 * 1024 * 1024, ZSTD, 0);
	for (int round = 0; round < 20; round++) {
		struct inflater *p = inflater_start(f->fd, f->packed_len, 1);
		assert_non_null(p);
		take(p, f, 0, (size_t)round * 50 * 1024);
		inflater_free(p);
	}
	inflater_free(NULL);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_gzip),
		cmocka_unit_test(whole_zstd),
		cmocka_unit_test(whole_xz),
		cmocka_unit_test(whole_plain),
		cmocka_unit_test(short_take_hashes_the_rest),
		cmocka_unit_test(known_hash_is_left_alone),
		cmocka_unit_test(not_past_the_size),
		cmocka_unit_test(read_error_reaches_the_unpacker),
		cmocka_unit_test(damaged_stream),
		cmocka_unit_test(stop_midway),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
