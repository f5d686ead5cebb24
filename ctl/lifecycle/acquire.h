/* Getting a release into versions/ (a CTS release into cts/): one pipeline for a tarball on disk and for one from the
 * release source (docs/design.md §4, steps 1–5). On failure nothing is left behind; a version
 * already present is kept when whole and replaced when damaged. */
#ifndef TB_ACQUIRE_H
#define TB_ACQUIRE_H

#include <stdint.h>

#include "base/config.h"
#include "release/feed.h"
#include "release/release.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

struct acquire_local_req {
	const char *file;   /* the tarball */
	const char *sums;   /* its SHA256SUMS, NULL: beside it */
	const char *sig;    /* its signature, NULL: SHA256SUMS.minisig beside it when keys are set */
	enum release_placed *placed; /* out, may be NULL: new, kept whole or repaired */
	const char *expect_version; /* NULL, or the version the tarball must be (verify --repair
				     * --from): another is refused before anything is unpacked */
	const struct release_kind *kind; /* NULL: a Mesa release; &release_kind_cts: a CTS release */
};

/* *version_out gets the version (free it). The store must be locked. */
int acquire_local(const struct config *cfg, struct store *s, const struct acquire_local_req *q,
		  const struct tb_progress *p, char **version_out, struct tb_error *e);

/* Fetches r's SHA256SUMS (+ signature) into cache/<tag>/ and the tarball into cache/ (resuming
 * a partial one), hashing it as it arrives, then unpacks it. *resumed_from: bytes kept from an
 * earlier interrupted transfer. */
int acquire_remote(const struct config *cfg, struct store *s, const struct feed_release *r,
		   const struct tb_progress *p, uint64_t *resumed_from, struct tb_error *e);

#endif
