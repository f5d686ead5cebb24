/* minisign signatures over SHA256SUMS, checked with libcrypto (docs/design.md §4 step 1). */
#ifndef TB_MINISIGN_H
#define TB_MINISIGN_H

#include "base/config.h"
#include "base/error.h"

/* Verifies sig_path (a .minisig file) over the file at data_path with the keys the
 * configuration trusts (public_key lines and the .pub files in keys_dir). The trusted comment must name
 * "tag:mesa-<version>" when version is not NULL. TB_EVERIFY with a sentence on any failure.
 * With no keys configured and require_signature false, a missing signature is accepted:
 * pass sig_path NULL then. */
int minisign_verify_file(const struct config *cfg, const char *data_path, const char *sig_path,
			 const char *version, struct tb_error *e);

/* The same for a release whose tag starts with tag_prefix (MESA_TAG_PREFIX, CTS_TAG_PREFIX):
 * the comment must name tag:<tag_prefix><version>, so a Mesa release's signature never vouches
 * for a CTS release of the same version. When a signature was checked and signed_version is not
 * NULL, *signed_version gets the version its trusted comment names (a signature naming none is
 * refused), so the caller can hold the MANIFEST to it. NULL when nothing was checked. */
int minisign_verify_file_tag(const struct config *cfg, const char *data_path, const char *sig_path,
			     const char *tag_prefix, const char *version, char **signed_version,
			     struct tb_error *e);

/* The same check; when a signature was checked, *trusted gets its trusted comment (verified
 * by the global signature; the caller frees it). NULL when nothing was checked (no keys
 * configured and none required). */
int minisign_verified_comment(const struct config *cfg, const char *data_path, const char *sig_path,
			      const char *version, char **trusted, struct tb_error *e);

#endif
