/* The reason ids of docs/design.md §9 as one table: each failure's stable kebab-case id, the
 * exit code it carries (common/exitcode.h) and its class. The engine records only ids of this
 * table (ctl/base/error.c); tests/tools/reason-ids.py checks every id the code names and the
 * documented list against it. Shared by both programs; no allocation, no stdio. */
#ifndef TB_REASONS_H
#define TB_REASONS_H

enum tb_reason {
	TB_R_FAILED,
	TB_R_USAGE,
	TB_R_BUSY,
	TB_R_NOT_INSTALLED,
	TB_R_UNKNOWN_VERSION,
	TB_R_NETWORK,
	TB_R_RATE_LIMITED,
	TB_R_TOO_LARGE,
	TB_R_SIZE_MISMATCH,
	TB_R_HASH_MISMATCH,
	TB_R_DIGEST_MISMATCH,
	TB_R_SIGNATURE_MISSING,
	TB_R_SIGNATURE_UNTRUSTED,
	TB_R_SIGNATURE_INVALID,
	TB_R_TAG_MISMATCH,
	TB_R_UNSAFE_ARCHIVE,
	TB_R_BOMB,
	TB_R_MANIFEST_INVALID,
	TB_R_MANIFEST_MISMATCH,
	TB_R_ARCH_MISMATCH,
	TB_R_GLIBC_TOO_OLD,
	TB_R_LIBRARY_UNRESOLVED,
	TB_R_RUNPATH_UNSAFE,
	TB_R_DRIVER_ENTRY_MISSING,
	TB_R_SMOKE_FAILED,
	TB_R_SUITE_REGRESSION,
	TB_R_TRIAL_EXPIRED,
	TB_R_NO_SPACE,
	TB_R_PERMISSION,
	TB_R_READ_ONLY,
	TB_R_INTERRUPTED,
	TB_R_DAMAGED,
	TB_R_STATE_CORRUPT,
	TB_R_SUMS_INVALID,
	TB_R_KEY_INVALID,
	TB_R_URL_REFUSED,
	TB_R_NOT_FOUND,
	TB_R_NOT_CHECKED,
	TB_R_IN_USE,
	TB_R_PROGRAM_MISSING,
	TB_R_PINNED,
	TB_R_NOT_OURS,
	TB_R_APP_NOT_FOUND,
	TB_R_APP_AMBIGUOUS,
	TB_R_RULES_CORRUPT,
	TB_R_NO_RUNTIME,
	TB_R_ABI_MISMATCH,
	TB_R_BISECT_ENDS,
	TB_R_RECORD_INVALID,
	TB_R_CRASH_PINNED,
	TB_R_TRIAL_CRASHED,
	TB_R_LIBRARY_MISSING,
	TB_R_NOT_A_RELEASE,
	TB_R_NO_PREVIOUS,
	TB_R_ROLLED_BACK,
	TB_REASON_COUNT
};

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
	const char *id;   /* "hash-mismatch" */
	int code;         /* the exit code it carries (TB_OK: the reason of an action, not of a
			   * failure: an automatic pin, a trial the crash evidence ended) */
	int also;         /* another exit code it may carry (0: none): damaged is 4 for a
			   * version's files, 1 for the store's own parts */
	enum tb_reason_class cls;
	const char *class_name;
};

extern const struct tb_reason_def tb_reasons[TB_REASON_COUNT];

/* The reason whose id is id, or -1. */
int tb_reason_find(const char *id);

#endif
