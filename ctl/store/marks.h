/* <store>/marked: the versions the store remembers as gone wrong (docs/design.md §12, "The
 * store remembers"): rolled back from (by the user, a failed trial, crash evidence), failed
 * their smoke tests, or refused by a check of the release. Each mark keeps its reason id, a
 * sentence without command-line syntax, and the asset's identity (its sha256 digest as the
 * release list gave it, and its size), so that a refused asset is fetched again only when
 * the release's asset changed. JSON, at most MARKS_MAX_BYTES, MARKS_MAX marks; written by
 * rename under the store's lock; read as hostile input (a damaged file reads as no marks and
 * is replaced by the next mark). */
#ifndef TB_MARKS_H
#define TB_MARKS_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "store/store.h"
#include "base/error.h"

#define MARKS_MAX_BYTES (64 * 1024)
#define MARKS_MAX 64
#define MARK_WHY_MAX 400

struct mark {
	char *version;
	char *reason;  /* a reason id of docs/design.md §9 (rolled-back, smoke-failed, …) */
	char *why;     /* a sentence for people, without command-line syntax */
	char *digest;  /* the asset's "sha256:<hex>", "" when unknown */
	uint64_t size; /* the asset's size, 0 when unknown */
	int refused;   /* the release was refused (not fetched again while its asset is the same) */
};

struct marks {
	struct mark *v; /* oldest first */
	size_t n;
};

/* Parses the file's text: 0 when it is what writers write, -1 when damaged (m empty). */
int marks_parse(const char *text, size_t len, struct marks *m);
/* The file's text (NUL-terminated; free it). */
/* The marks as a JSON array of {"version","reason","why","digest","refused"} (and "size",
 * which the file keeps and the commands do not show, with with_size). */
json_object *marks_array(const struct marks *m, int with_size);
char *marks_format(const struct marks *m);
/* Reads <store>/marked: 0 when whole or absent, 1 when damaged (m empty either way then). */
int marks_load(const struct store *s, struct marks *m);
int marks_save(struct store *s, const struct marks *m, struct tb_error *e);
void marks_free(struct marks *m);

const struct mark *marks_find(const struct marks *m, const char *version);
/* Sets the mark of version (replacing one it had); the oldest go beyond MARKS_MAX. Values
 * that could not be read back (a bad version, an overlong sentence) are cut or refused: 0
 * when set, -1 when version is not a version name. */
int marks_set(struct marks *m, const char *version, const char *reason, const char *why,
	      const char *digest, uint64_t size, int refused);
/* Drops the mark of version: 1 when it had one. */
int marks_clear(struct marks *m, const char *version);

/* Load, set, save, under the store's lock. */
int marks_record(struct store *s, const char *version, const char *reason, const char *why,
		 const char *digest, uint64_t size, int refused, struct tb_error *e);
/* Load, clear, save: 1 when version had a mark, 0 when not, <0 (e set) when it could not
 * be saved. */
int marks_forget(struct store *s, const char *version, struct tb_error *e);

#endif
