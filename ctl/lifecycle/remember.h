/* What the store remembers (docs/design.md §12, "The store remembers"): the marks of
 * store/marks.h as the life cycle and the release source use them. A mark is made where the
 * thing happens (a rollback, a trial that expired or crashed, a failed smoke test, a refused
 * release), cleared when the version is installed or its release fetched whole, or by
 * `forget`; update, auto-check, download without a version and status's `available` skip a
 * marked version, and a refused asset is not fetched again while the release list names the
 * same asset (digest, else size). */
#ifndef TB_REMEMBER_H
#define TB_REMEMBER_H

#include "base/config.h"
#include "release/feed.h"
#include "store/marks.h"
#include "store/store.h"

/* Marks version (a life-cycle event: rolled-back, trial-expired, trial-crashed,
 * smoke-failed); the asset's identity comes from the cached release list when it has the
 * version. Under the store's lock. A mark that cannot be written is not a reason to fail
 * what happened: 0 or the errno-less failure, ignored by callers that have done their work. */
int remember_version(const struct config *cfg, struct store *s, const char *version,
		     enum tb_reason reason, const char *why);
/* The same into m (not saved): for a commit of the life cycle that writes the marks with
 * its links (ctl/lifecycle/lifecycle.c). */
void remember_mark(const struct config *cfg, const struct store *s, struct marks *m,
		   const char *version, enum tb_reason reason, const char *why);
/* Marks r's release as refused (reason: an integrity or system reason) with its asset. */
int remember_refused(struct store *s, const struct feed_release *r, enum tb_reason reason,
		     const char *why);
/* Whether reason_id is one a release is refused for (class integrity or system). */
int remember_is_refusal(const char *reason_id);
/* Drops version's mark: the version was installed. */
void remember_cleared(struct store *s, const char *version);
/* Drops version's mark when it was a refusal: its release was fetched whole. */
void remember_fetched(struct store *s, const char *version);

/* The mark that makes update and its kin skip r, or NULL: a refused mark whose release's
 * asset changed (another digest, or without digests another size) no longer holds. */
const struct mark *remember_skips(const struct marks *m, const struct feed_release *r);
/* The same for the newest release the channel offers; NULL when nothing is offered. */
const struct feed_release *remember_newest(const struct feed *f, const char *channel,
					   const struct marks *m, const struct mark **skipped);

#endif
