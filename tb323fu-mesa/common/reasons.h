/* The reason ids of docs/design.md §9 as one table: each row is a failure's stable kebab-case
 * id, the exit code it carries (common/exitcode.h) and its class. An id that carries two exit
 * codes has a row for each (damaged: TB_R_DAMAGED for a version's files, exit 4;
 * TB_R_DAMAGED_STORE for the store's own parts, exit 1). The engine raises a failure by its
 * row alone (tb_fail(e, TB_R_NOT_INSTALLED, …), ctl/base/error.h) and the launcher the same
 * way (launcher/message.h); tests/tools/reason-ids.py checks the table against the documented
 * list. Shared by both programs; no allocation, no stdio. */
#ifndef TB_REASONS_H
#define TB_REASONS_H

/* The rows, in the table's order. Code names a row by its TB_R_ name below, never by these. */
enum tb_reason {
	TB_REASON_FAILED,
	TB_REASON_USAGE,
	TB_REASON_BUSY,
	TB_REASON_NOT_INSTALLED,
	TB_REASON_UNKNOWN_VERSION,
	TB_REASON_NETWORK,
	TB_REASON_RATE_LIMITED,
	TB_REASON_TOO_LARGE,
	TB_REASON_TOO_LARGE_USAGE,
	TB_REASON_SIZE_MISMATCH,
	TB_REASON_HASH_MISMATCH,
	TB_REASON_DIGEST_MISMATCH,
	TB_REASON_SIGNATURE_MISSING,
	TB_REASON_SIGNATURE_UNTRUSTED,
	TB_REASON_SIGNATURE_INVALID,
	TB_REASON_TAG_MISMATCH,
	TB_REASON_UNSAFE_ARCHIVE,
	TB_REASON_BOMB,
	TB_REASON_MANIFEST_INVALID,
	TB_REASON_MANIFEST_MISMATCH,
	TB_REASON_ARCH_MISMATCH,
	TB_REASON_GLIBC_TOO_OLD,
	TB_REASON_LIBRARY_UNRESOLVED,
	TB_REASON_RUNPATH_UNSAFE,
	TB_REASON_DRIVER_ENTRY_MISSING,
	TB_REASON_SMOKE_FAILED,
	TB_REASON_SMOKE_NOT_STARTED,
	TB_REASON_SUITE_REGRESSION,
	TB_REASON_TRIAL_EXPIRED,
	TB_REASON_NO_SPACE,
	TB_REASON_PERMISSION,
	TB_REASON_READ_ONLY,
	TB_REASON_INTERRUPTED,
	TB_REASON_DAMAGED,
	TB_REASON_DAMAGED_STORE,
	TB_REASON_STATE_CORRUPT,
	TB_REASON_SUMS_INVALID,
	TB_REASON_KEY_INVALID,
	TB_REASON_URL_REFUSED,
	TB_REASON_NOT_FOUND,
	TB_REASON_NOT_FOUND_LOCAL,
	TB_REASON_NOT_CHECKED,
	TB_REASON_IN_USE,
	TB_REASON_PROGRAM_MISSING,
	TB_REASON_PINNED,
	TB_REASON_NOT_OURS,
	TB_REASON_APP_NOT_FOUND,
	TB_REASON_APP_AMBIGUOUS,
	TB_REASON_RULES_CORRUPT,
	TB_REASON_NO_RUNTIME,
	TB_REASON_ABI_MISMATCH,
	TB_REASON_BISECT_ENDS,
	TB_REASON_RECORD_INVALID,
	TB_REASON_CRASH_PINNED,
	TB_REASON_TRIAL_CRASHED,
	TB_REASON_LIBRARY_MISSING,
	TB_REASON_NOT_A_RELEASE,
	TB_REASON_NO_PREVIOUS,
	TB_REASON_ROLLED_BACK,
	TB_REASON_NOT_OFFERED,
	TB_REASON_COUNT
};

/* A row as the code names it. C gives an enumeration constant the type int, which an exit
 * code (TB_EFAIL) has too; these have the type enum tb_reason, so that the functions that
 * take a reason (tb_fail, fail) can refuse an exit code at compile time (TB_REASON_ARG). */
#define TB_R_FAILED               ((enum tb_reason)TB_REASON_FAILED)
#define TB_R_USAGE                ((enum tb_reason)TB_REASON_USAGE)
#define TB_R_BUSY                 ((enum tb_reason)TB_REASON_BUSY)
#define TB_R_NOT_INSTALLED        ((enum tb_reason)TB_REASON_NOT_INSTALLED)
#define TB_R_UNKNOWN_VERSION      ((enum tb_reason)TB_REASON_UNKNOWN_VERSION)
#define TB_R_NETWORK              ((enum tb_reason)TB_REASON_NETWORK)
#define TB_R_RATE_LIMITED         ((enum tb_reason)TB_REASON_RATE_LIMITED)
#define TB_R_TOO_LARGE            ((enum tb_reason)TB_REASON_TOO_LARGE)
#define TB_R_TOO_LARGE_USAGE      ((enum tb_reason)TB_REASON_TOO_LARGE_USAGE)
#define TB_R_SIZE_MISMATCH        ((enum tb_reason)TB_REASON_SIZE_MISMATCH)
#define TB_R_HASH_MISMATCH        ((enum tb_reason)TB_REASON_HASH_MISMATCH)
#define TB_R_DIGEST_MISMATCH      ((enum tb_reason)TB_REASON_DIGEST_MISMATCH)
#define TB_R_SIGNATURE_MISSING    ((enum tb_reason)TB_REASON_SIGNATURE_MISSING)
#define TB_R_SIGNATURE_UNTRUSTED  ((enum tb_reason)TB_REASON_SIGNATURE_UNTRUSTED)
#define TB_R_SIGNATURE_INVALID    ((enum tb_reason)TB_REASON_SIGNATURE_INVALID)
#define TB_R_TAG_MISMATCH         ((enum tb_reason)TB_REASON_TAG_MISMATCH)
#define TB_R_UNSAFE_ARCHIVE       ((enum tb_reason)TB_REASON_UNSAFE_ARCHIVE)
#define TB_R_BOMB                 ((enum tb_reason)TB_REASON_BOMB)
#define TB_R_MANIFEST_INVALID     ((enum tb_reason)TB_REASON_MANIFEST_INVALID)
#define TB_R_MANIFEST_MISMATCH    ((enum tb_reason)TB_REASON_MANIFEST_MISMATCH)
#define TB_R_ARCH_MISMATCH        ((enum tb_reason)TB_REASON_ARCH_MISMATCH)
#define TB_R_GLIBC_TOO_OLD        ((enum tb_reason)TB_REASON_GLIBC_TOO_OLD)
#define TB_R_LIBRARY_UNRESOLVED   ((enum tb_reason)TB_REASON_LIBRARY_UNRESOLVED)
#define TB_R_RUNPATH_UNSAFE       ((enum tb_reason)TB_REASON_RUNPATH_UNSAFE)
#define TB_R_DRIVER_ENTRY_MISSING ((enum tb_reason)TB_REASON_DRIVER_ENTRY_MISSING)
#define TB_R_SMOKE_FAILED         ((enum tb_reason)TB_REASON_SMOKE_FAILED)
#define TB_R_SMOKE_NOT_STARTED    ((enum tb_reason)TB_REASON_SMOKE_NOT_STARTED)
#define TB_R_SUITE_REGRESSION     ((enum tb_reason)TB_REASON_SUITE_REGRESSION)
#define TB_R_TRIAL_EXPIRED        ((enum tb_reason)TB_REASON_TRIAL_EXPIRED)
#define TB_R_NO_SPACE             ((enum tb_reason)TB_REASON_NO_SPACE)
#define TB_R_PERMISSION           ((enum tb_reason)TB_REASON_PERMISSION)
#define TB_R_READ_ONLY            ((enum tb_reason)TB_REASON_READ_ONLY)
#define TB_R_INTERRUPTED          ((enum tb_reason)TB_REASON_INTERRUPTED)
#define TB_R_DAMAGED              ((enum tb_reason)TB_REASON_DAMAGED)
#define TB_R_DAMAGED_STORE        ((enum tb_reason)TB_REASON_DAMAGED_STORE)
#define TB_R_STATE_CORRUPT        ((enum tb_reason)TB_REASON_STATE_CORRUPT)
#define TB_R_SUMS_INVALID         ((enum tb_reason)TB_REASON_SUMS_INVALID)
#define TB_R_KEY_INVALID          ((enum tb_reason)TB_REASON_KEY_INVALID)
#define TB_R_URL_REFUSED          ((enum tb_reason)TB_REASON_URL_REFUSED)
#define TB_R_NOT_FOUND            ((enum tb_reason)TB_REASON_NOT_FOUND)
#define TB_R_NOT_FOUND_LOCAL      ((enum tb_reason)TB_REASON_NOT_FOUND_LOCAL)
#define TB_R_NOT_CHECKED          ((enum tb_reason)TB_REASON_NOT_CHECKED)
#define TB_R_IN_USE               ((enum tb_reason)TB_REASON_IN_USE)
#define TB_R_PROGRAM_MISSING      ((enum tb_reason)TB_REASON_PROGRAM_MISSING)
#define TB_R_PINNED               ((enum tb_reason)TB_REASON_PINNED)
#define TB_R_NOT_OURS             ((enum tb_reason)TB_REASON_NOT_OURS)
#define TB_R_APP_NOT_FOUND        ((enum tb_reason)TB_REASON_APP_NOT_FOUND)
#define TB_R_APP_AMBIGUOUS        ((enum tb_reason)TB_REASON_APP_AMBIGUOUS)
#define TB_R_RULES_CORRUPT        ((enum tb_reason)TB_REASON_RULES_CORRUPT)
#define TB_R_NO_RUNTIME           ((enum tb_reason)TB_REASON_NO_RUNTIME)
#define TB_R_ABI_MISMATCH         ((enum tb_reason)TB_REASON_ABI_MISMATCH)
#define TB_R_BISECT_ENDS          ((enum tb_reason)TB_REASON_BISECT_ENDS)
#define TB_R_RECORD_INVALID       ((enum tb_reason)TB_REASON_RECORD_INVALID)
#define TB_R_CRASH_PINNED         ((enum tb_reason)TB_REASON_CRASH_PINNED)
#define TB_R_TRIAL_CRASHED        ((enum tb_reason)TB_REASON_TRIAL_CRASHED)
#define TB_R_LIBRARY_MISSING      ((enum tb_reason)TB_REASON_LIBRARY_MISSING)
#define TB_R_NOT_A_RELEASE        ((enum tb_reason)TB_REASON_NOT_A_RELEASE)
#define TB_R_NO_PREVIOUS          ((enum tb_reason)TB_REASON_NO_PREVIOUS)
#define TB_R_ROLLED_BACK          ((enum tb_reason)TB_REASON_ROLLED_BACK)
#define TB_R_NOT_OFFERED          ((enum tb_reason)TB_REASON_NOT_OFFERED)

/* enum tb_reason is not int (it has no negative value), so _Generic tells the two apart. */
_Static_assert(_Generic((int)0, enum tb_reason: 0, default: 1), "enum tb_reason must not be int");

/* r itself when it is a reason (an enum tb_reason); anything else, an exit code above all,
 * does not compile. For the macros of the functions that take a reason. */
#define TB_REASON_ARG(r)                                                                          \
	((void)sizeof(struct {                                                                    \
		 _Static_assert(_Generic((r), enum tb_reason: 1, default: 0),                       \
				"a reason (TB_R_...) goes here, not an exit code (TB_E...)");       \
		 char c;                                                                           \
	 }),                                                                                       \
	 (enum tb_reason)(r))

/* What a reason is: where the failure lies, for a backend that groups them. */
enum tb_reason_class {
	TB_RC_COMMAND,   /* the command line, the caller, the tool itself */
	TB_RC_STORE,     /* the store's versions, state and files */
	TB_RC_TRANSFER,  /* the release source and the network */
	TB_RC_INTEGRITY, /* a release's hashes, signature, archive, MANIFEST */
	TB_RC_SYSTEM,    /* what the release needs of this system (ELF checks) */
	TB_RC_TRIAL,     /* smoke tests, suites, the trial */
	TB_RC_APP,       /* per-application rules */
};

struct tb_reason_def {
	const char *id; /* "hash-mismatch" */
	int code;       /* the exit code it carries (TB_OK: the reason of an action, not of a
			 * failure: an automatic pin, a trial the crash evidence ended) */
	enum tb_reason_class cls;
	const char *class_name;
};

extern const struct tb_reason_def tb_reasons[TB_REASON_COUNT];

/* The id of r ("damaged"), the words a file and --json carry. */
static inline const char *tb_reason_id(enum tb_reason r)
{
	return tb_reasons[r].id;
}

/* The exit code r carries. */
static inline int tb_reason_code(enum tb_reason r)
{
	return tb_reasons[r].code;
}

/* Whether a and b are the same id (the two rows of damaged are). */
int tb_reason_same(enum tb_reason a, enum tb_reason b);

/* The first row whose id is id, or -1. */
int tb_reason_find(const char *id);

/* The reason a failure that names none gets from its exit code: usage, busy,
 * manifest-invalid (4), network (5), smoke-failed (6), else failed. */
enum tb_reason tb_reason_of_code(int code);

#endif
