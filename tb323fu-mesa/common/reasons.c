/* The table of reason ids (common/reasons.h), in docs/design.md §9's order. */
#include "common/reasons.h"
#include "common/exitcode.h"

#include <string.h>

#define R(r, name, exit_code, c) [r] = {name, exit_code, c, #c}
const struct tb_reason_def tb_reasons[TB_REASON_COUNT] = {
	R(TB_R_FAILED, "failed", TB_EFAIL, TB_RC_COMMAND),
	R(TB_R_USAGE, "usage", TB_EUSAGE, TB_RC_COMMAND),
	R(TB_R_BUSY, "busy", TB_EBUSY, TB_RC_STORE),
	R(TB_R_NOT_INSTALLED, "not-installed", TB_EFAIL, TB_RC_STORE),
	R(TB_R_UNKNOWN_VERSION, "unknown-version", TB_EFAIL, TB_RC_TRANSFER),
	R(TB_R_NETWORK, "network", TB_ENET, TB_RC_TRANSFER),
	R(TB_R_RATE_LIMITED, "rate-limited", TB_ENET, TB_RC_TRANSFER),
	/* a download, an archive or a file over its limit (4) */
	R(TB_R_TOO_LARGE, "too-large", TB_EVERIFY, TB_RC_INTEGRITY),
	/* a configuration or a command-line list over its bound (2) */
	R(TB_R_TOO_LARGE_USAGE, "too-large", TB_EUSAGE, TB_RC_INTEGRITY),
	R(TB_R_SIZE_MISMATCH, "size-mismatch", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_HASH_MISMATCH, "hash-mismatch", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_DIGEST_MISMATCH, "digest-mismatch", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_SIGNATURE_MISSING, "signature-missing", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_SIGNATURE_UNTRUSTED, "signature-untrusted", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_SIGNATURE_INVALID, "signature-invalid", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_TAG_MISMATCH, "tag-mismatch", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_UNSAFE_ARCHIVE, "unsafe-archive", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_BOMB, "bomb", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_MANIFEST_INVALID, "manifest-invalid", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_MANIFEST_MISMATCH, "manifest-mismatch", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_ARCH_MISMATCH, "arch-mismatch", TB_EVERIFY, TB_RC_SYSTEM),
	R(TB_R_GLIBC_TOO_OLD, "glibc-too-old", TB_EVERIFY, TB_RC_SYSTEM),
	R(TB_R_LIBRARY_UNRESOLVED, "library-unresolved", TB_EVERIFY, TB_RC_SYSTEM),
	R(TB_R_RUNPATH_UNSAFE, "runpath-unsafe", TB_EVERIFY, TB_RC_SYSTEM),
	R(TB_R_DRIVER_ENTRY_MISSING, "driver-entry-missing", TB_EVERIFY, TB_RC_SYSTEM),
	/* a smoke run that failed (6) */
	R(TB_R_SMOKE_FAILED, "smoke-failed", TB_ESMOKE, TB_RC_TRIAL),
	/* the smoke program could not be started, or did not start in time (1) */
	R(TB_R_SMOKE_NOT_STARTED, "smoke-failed", TB_EFAIL, TB_RC_TRIAL),
	R(TB_R_SUITE_REGRESSION, "suite-regression", TB_ESMOKE, TB_RC_TRIAL),
	R(TB_R_TRIAL_EXPIRED, "trial-expired", TB_EFAIL, TB_RC_TRIAL),
	R(TB_R_NO_SPACE, "no-space", TB_EFAIL, TB_RC_STORE),
	R(TB_R_PERMISSION, "permission", TB_EFAIL, TB_RC_COMMAND),
	R(TB_R_READ_ONLY, "read-only", TB_EFAIL, TB_RC_STORE),
	R(TB_R_INTERRUPTED, "interrupted", TB_EFAIL, TB_RC_COMMAND),
	/* a version's files (4) */
	R(TB_R_DAMAGED, "damaged", TB_EVERIFY, TB_RC_STORE),
	/* the store's own parts: its links, state and env files, a download's part (1) */
	R(TB_R_DAMAGED_STORE, "damaged", TB_EFAIL, TB_RC_STORE),
	R(TB_R_STATE_CORRUPT, "state-corrupt", TB_EFAIL, TB_RC_STORE),
	R(TB_R_SUMS_INVALID, "sums-invalid", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_KEY_INVALID, "key-invalid", TB_EVERIFY, TB_RC_INTEGRITY),
	R(TB_R_URL_REFUSED, "url-refused", TB_ENET, TB_RC_TRANSFER),
	/* an asset the server does not have, HTTP 404 (5) */
	R(TB_R_NOT_FOUND, "not-found", TB_ENET, TB_RC_TRANSFER),
	/* a file named on the command line, a journal or a process that is not there (1) */
	R(TB_R_NOT_FOUND_LOCAL, "not-found", TB_EFAIL, TB_RC_TRANSFER),
	R(TB_R_NOT_CHECKED, "not-checked", TB_EFAIL, TB_RC_TRANSFER),
	R(TB_R_IN_USE, "in-use", TB_EFAIL, TB_RC_STORE),
	R(TB_R_PROGRAM_MISSING, "program-missing", TB_EFAIL, TB_RC_COMMAND),
	R(TB_R_PINNED, "pinned", TB_EFAIL, TB_RC_APP),
	R(TB_R_NOT_OURS, "not-ours", TB_EFAIL, TB_RC_APP),
	R(TB_R_APP_NOT_FOUND, "app-not-found", TB_EFAIL, TB_RC_APP),
	R(TB_R_APP_AMBIGUOUS, "app-ambiguous", TB_EFAIL, TB_RC_APP),
	R(TB_R_RULES_CORRUPT, "rules-corrupt", TB_EFAIL, TB_RC_APP),
	R(TB_R_NO_RUNTIME, "no-runtime", TB_EFAIL, TB_RC_SYSTEM),
	R(TB_R_ABI_MISMATCH, "abi-mismatch", TB_EVERIFY, TB_RC_SYSTEM),
	/* bisect's good end fails, its bad end passes, or an end cannot be tested (§13) */
	R(TB_R_BISECT_ENDS, "bisect-ends", TB_EFAIL, TB_RC_COMMAND),
	/* said by notes and doctor, never a refusal (§19) */
	R(TB_R_RECORD_INVALID, "record-invalid", TB_EVERIFY, TB_RC_INTEGRITY),
	/* what the crash evidence did (§18): the reason of a pin and of a rollback, no failure */
	R(TB_R_CRASH_PINNED, "crash-pinned", TB_OK, TB_RC_TRIAL),
	R(TB_R_TRIAL_CRASHED, "trial-crashed", TB_OK, TB_RC_TRIAL),
	/* a library loaded on first use cannot be loaded (ctl/base/lazylib.h) */
	R(TB_R_LIBRARY_MISSING, "library-missing", TB_ENOT_FOUND, TB_RC_COMMAND),
	/* install-local of a file that is not a release tarball at all (a SHA256SUMS, a key) */
	R(TB_R_NOT_A_RELEASE, "not-a-release", TB_EVERIFY, TB_RC_INTEGRITY),
	/* rollback with no previous version */
	R(TB_R_NO_PREVIOUS, "no-previous", TB_EFAIL, TB_RC_STORE),
	/* the mark of a version the user rolled back from (§12, the store remembers), no failure */
	R(TB_R_ROLLED_BACK, "rolled-back", TB_OK, TB_RC_TRIAL),
	/* the channel offers no release of that kind for this machine, none named */
	R(TB_R_NOT_OFFERED, "not-offered", TB_EFAIL, TB_RC_TRANSFER),
};

int tb_reason_same(enum tb_reason a, enum tb_reason b)
{
	return a == b || !strcmp(tb_reasons[a].id, tb_reasons[b].id);
}

int tb_reason_find(const char *id)
{
	for (int i = 0; id && i < TB_REASON_COUNT; i++)
		if (!strcmp(tb_reasons[i].id, id))
			return i;
	return -1;
}

enum tb_reason tb_reason_of_code(int code)
{
	switch (code) {
	case TB_EUSAGE:
		return TB_R_USAGE;
	case TB_EBUSY:
		return TB_R_BUSY;
	case TB_EVERIFY:
		return TB_R_MANIFEST_INVALID;
	case TB_ENET:
		return TB_R_NETWORK;
	case TB_ESMOKE:
		return TB_R_SMOKE_FAILED;
	default:
		return TB_R_FAILED;
	}
}
