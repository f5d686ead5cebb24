/* The MANIFEST's keys (docs/design.md §4, §20), one row each: the one place a key is declared.
 * The parser (manifest_parse), the writer (manifest_format) and `pack` (its options and the
 * MANIFEST it writes) walk this table; adding a key is one row of ctl/store/manifest_keys.c
 * (and MANIFEST_KEY_COUNT one more, which the compiler checks), its field in struct manifest
 * and its line in docs/design.md §4. The per-file lines (file, link) are not keys:
 * ctl/store/manifest.c reads them. */
#ifndef TB_MANIFEST_KEYS_H
#define TB_MANIFEST_KEYS_H

#include <stddef.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "store/manifest.h"

/* What a value is, and so how it is checked, kept and written. */
enum manifest_type {
	MANIFEST_FORMAT,    /* "1", the only format this tool reads (int, 0 when absent) */
	MANIFEST_KIND,      /* mesa or cts (enum manifest_kind); mesa is written as no line, so old
			     * tools read a Mesa release */
	MANIFEST_TEXT,      /* one line, kept as written */
	MANIFEST_VERSION,   /* a version name (common/version_name.h) */
	MANIFEST_WORD,      /* letters, digits and the row's .extra characters */
	MANIFEST_NUMBER,    /* decimal digits, at most the row's .max (int, -1 when absent) */
	MANIFEST_LIB_PATH,  /* a file or folder of the tree under lib/ (release_path_is_safe) */
	MANIFEST_DRIVERS,   /* a comma-separated list; vulkan, opencl and gl set has_*, other
			     * names are ignored (newer releases may carry more) */
	MANIFEST_NAME_LIST, /* comma-separated words of [a-z0-9_], none empty */
	MANIFEST_LIB_ITSELF, /* "lib" and nothing else: anything more may reach outside the
			      * release (runpath-unsafe) */
};

/* Which kinds of release carry a key (enum manifest_kind). */
#define MANIFEST_FOR(kind) (1u << (kind))
#define MANIFEST_FOR_MESA MANIFEST_FOR(MANIFEST_MESA)
#define MANIFEST_FOR_CTS MANIFEST_FOR(MANIFEST_CTS)
#define MANIFEST_FOR_ALL (MANIFEST_FOR_MESA | MANIFEST_FOR_CTS)

/* How `pack` takes a key: its option, and what it writes when the option is not given. */
struct manifest_key_pack {
	const char *option;  /* "--gbm-lib"; NULL when pack writes the key itself (format) */
	const char *arg;     /* the value's placeholder in help ("PATH") */
	const char *help;
	const char *choices; /* the only words the option takes ("mesa|cts"), or NULL */
	/* Written when the option is not given, for a release of the row's kinds: a value, or
	 * one worked out on this machine (the architecture). NULL for neither: no line. */
	const char *fallback;
	const char *(*fallback_of)(void);
};

struct manifest_key {
	const char *name;
	enum manifest_type type;
	unsigned kinds;     /* MANIFEST_FOR_…: which kinds of release carry it */
	int required;       /* a MANIFEST without it is refused */
	/* manifest_format writes it only when drivers names this driver ("gl"); NULL: always
	 * when it has a value. It is read and checked either way. */
	const char *driver;
	/* The value a release of the row's kinds has without the line (a gl row's only when
	 * drivers names gl), under the value of the key absent_in when it names one; NULL for
	 * none. Filled in after reading, unchecked (a folder's default may be longer than a line
	 * may be). */
	const char *absent, *absent_in;
	const char *extra;  /* MANIFEST_WORD: the characters allowed besides letters and digits */
	/* MANIFEST_WORD: at most this many bytes; MANIFEST_NUMBER: at most this value. 0: only
	 * MANIFEST_VALUE_MAX. A refused value with a limit is quoted to 40 bytes, others to 80. */
	unsigned max;
	size_t at;          /* where it lives: offsetof(struct manifest, …) */
	struct manifest_key_pack pack;
};

/* Every key, in the order a MANIFEST is written (pack's, byte for byte since format 1). */
#define MANIFEST_KEY_COUNT 26
extern const struct manifest_key manifest_keys[MANIFEST_KEY_COUNT];

/* The row of a key, or NULL when this tool does not know it (a newer release's key). */
const struct manifest_key *manifest_key_find(const char *name);

/* Reads one key=value line's value into m (line lineno), checked as k's type says; TB_OK, or
 * the refusal in e (manifest-invalid, or runpath-unsafe for ld_library_path). Beside the
 * parser, in ctl/store/manifest.c. */
int manifest_key_read(struct manifest *m, const struct manifest_key *k, const char *value,
		      int lineno, struct tb_error *e);

/* Whether m holds a value for k (a read line, or a default filled in after reading). */
int manifest_key_present(const struct manifest *m, const struct manifest_key *k);

/* k's value in m as a MANIFEST line gives it, or NULL when m has none; a number is written
 * into number. */
#define MANIFEST_NUMBER_TEXT 24
const char *manifest_key_text(const struct manifest *m, const struct manifest_key *k,
			      char number[MANIFEST_NUMBER_TEXT]);

/* The "key=value" lines of value[i] (one per row, NULL for no line), in the table's order:
 * what manifest_format and pack both write. */
void manifest_keys_write(struct strbuf *sb, const char *const value[MANIFEST_KEY_COUNT]);

#endif
