/* A release's build record (docs/design.md §19): the JSON file share/tb323fu-mesa/build-record.json
 * of its tree, naming the inputs of its build (source hashes, recipe commit, toolchain versions,
 * SOURCE_DATE_EPOCH), and the words of a signature's trusted comment that name it
 * (build-record:sha256:<hex>, run:<url>). Both are read from hostile input, with bounds. */
#ifndef TB_BUILDRECORD_H
#define TB_BUILDRECORD_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "base/hash.h"
#include "base/error.h"

/* Where the record lives in a release tree (and so in an installed versions/<v>/). */
#define BUILD_RECORD_PATH "share/tb323fu-mesa/build-record.json"
#define BUILD_RECORD_MAX_BYTES (64 * 1024)
#define BUILD_RECORD_MAX_ITEMS 64     /* sources, and toolchain entries */
#define BUILD_RECORD_MAX_VALUE 256    /* bytes of any text value */
#define TRUSTED_RUN_MAX 512           /* bytes of the run's URL */

struct build_item {
	char *name;
	char *value; /* a source's sha256, a tool's version */
};

struct build_record {
	int64_t format;
	char *version, *arch, *drivers, *mesa_version, *recipe_commit;
	int64_t source_date_epoch;
	struct build_item *sources, *tools;
	size_t n_sources, n_tools;
	char sha256[SHA256_HEX_LEN + 1]; /* of the record's bytes */
};

/* Parses a record's text (at most BUILD_RECORD_MAX_BYTES): one JSON object with format 1,
 * version, arch, drivers, mesa_version, recipe_commit, source_date_epoch, sources (name and
 * sha256 each) and toolchain (name: version); text values printable ASCII of at most
 * BUILD_RECORD_MAX_VALUE bytes; unknown keys ignored. TB_EVERIFY with a sentence otherwise. */
int build_record_parse(const char *text, size_t len, struct build_record *r, struct tb_error *e);
/* The record of the release tree at dir (read without following a planted link); *present is
 * 0 and nothing is set when the tree has none. */
int build_record_load(const char *dir, struct build_record *r, int *present, struct tb_error *e);
void build_record_free(struct build_record *r);

/* The words of a trusted comment that name a build: "tag:mesa-<v>", "build-record:sha256:<hex>",
 * "run:<https URL>", each at most once, separated by spaces; other words are ignored.
 * Fields absent are "" . TB_EVERIFY when a named field is malformed or repeated. */
struct trusted_fields {
	char tag[80];
	char record_sha256[SHA256_HEX_LEN + 1];
	char run[TRUSTED_RUN_MAX + 1];
};
int trusted_comment_parse(const char *comment, size_t len, struct trusted_fields *t, struct tb_error *e);

/* What a signature says of an installed release's record. */
enum record_signed {
	RECORD_SIG_NONE,      /* no signature kept for this release (installed from a file, unsigned) */
	RECORD_SIG_NO_KEY,    /* a signature is there but no key is configured to check it */
	RECORD_SIG_BAD,       /* the signature does not verify (why says what) */
	RECORD_SIG_NOT_NAMED, /* verified, but its trusted comment names no build record */
	RECORD_SIG_DIFFERS,   /* verified, and it names another record than the tree's */
	RECORD_SIG_MATCHES,   /* verified, and it names exactly the tree's record */
};

struct record_view {
	int have;                 /* the tree has a record (r is set) */
	struct build_record r;
	enum record_signed sig;
	struct trusted_fields t;  /* the verified trusted comment's fields */
	char why[1024];           /* RECORD_SIG_BAD, or a record that does not read: the sentence */
};

/* The record of the tree at dir (a release as installed) and what the signature sig_path over
 * sums_path (NULL or absent: none kept) says of it, checked with cfg's keys and for version. */
void record_view_read(const struct config *cfg, const char *dir, const char *sums_path,
		      const char *sig_path, const char *version, struct record_view *v);
void record_view_free(struct record_view *v);
/* Lines for people: what the record names and what the signature says of it (notes, doctor). */
struct strbuf;
void record_view_say(const struct record_view *v, const char *version, struct strbuf *out);
/* The same as a JSON object: the record's fields, "sha256", "signed" (record_signed_word),
 * "run" and "why" when set; NULL members left out. */
struct json_object;
struct json_object *record_view_json(const struct record_view *v);
/* One word for the verdict: "matches", "differs", "not-named", "unverified", "no-key", "none". */
const char *record_signed_word(enum record_signed s);

#endif
