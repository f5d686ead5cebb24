/* Marks made and read for the life cycle and the release source (remember.h). */
#include "lifecycle/remember.h"
#include "store/layout.h"
#include "base/alloc.h"
#include "common/reasons.h"
#include "common/storelayout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "sha256:<hex>" of an asset, "" when the release list gives none. */
static void asset_digest(const struct feed_asset *a, char *out, size_t n)
{
	snprintf(out, n, "%s%s", a->digest[0] ? "sha256:" : "", a->digest);
}

void remember_mark(const struct config *cfg, const struct store *s, struct marks *m,
		   const char *version, enum tb_reason reason, const char *why)
{
	char digest[80] = "";
	uint64_t size = 0;
	struct tb_error ignored = {0};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 0, &ignored);
	struct feed f = {0};
	if (cache && feed_cached(cfg, cache, &f, &ignored) == TB_OK) {
		const struct feed_release *r = feed_find(&f, version);
		if (r) {
			asset_digest(&r->tarball, digest, sizeof digest);
			size = r->tarball.size;
		}
		feed_free(&f);
	}
	free(cache);
	marks_set(m, version, tb_reason_id(reason), why, digest, size, 0);
}

int remember_version(const struct config *cfg, struct store *s, const char *version,
		     enum tb_reason reason, const char *why)
{
	struct marks m;
	marks_load(s, &m);
	remember_mark(cfg, s, &m, version, reason, why);
	struct tb_error e = {0};
	int rc = marks_save(s, &m, &e);
	marks_free(&m);
	return rc;
}

int remember_refused(struct store *s, const struct feed_release *r, enum tb_reason reason,
		     const char *why)
{
	char digest[80];
	asset_digest(&r->tarball, digest, sizeof digest);
	struct tb_error e = {0};
	return marks_record(s, r->version, tb_reason_id(reason), why, digest, r->tarball.size, 1, &e);
}

int remember_is_refusal(const char *reason_id)
{
	int i = reason_id ? tb_reason_find(reason_id) : -1;
	return i >= 0 && (tb_reasons[i].cls == TB_RC_INTEGRITY || tb_reasons[i].cls == TB_RC_SYSTEM);
}

void remember_cleared(struct store *s, const char *version)
{
	struct tb_error ignored = {0};
	marks_forget(s, version, &ignored);
}

void remember_fetched(struct store *s, const char *version)
{
	struct marks m;
	marks_load(s, &m);
	const struct mark *k = marks_find(&m, version);
	int refused = k && k->refused;
	marks_free(&m);
	if (refused)
		remember_cleared(s, version);
}

const struct mark *remember_skips(const struct marks *m, const struct feed_release *r)
{
	const struct mark *k = r ? marks_find(m, r->version) : NULL;
	if (!k || !k->refused)
		return k;
	char digest[80];
	asset_digest(&r->tarball, digest, sizeof digest);
	int changed = (*digest || *k->digest) ? strcmp(digest, k->digest) != 0 : r->tarball.size != k->size;
	return changed ? NULL : k;
}

const struct feed_release *remember_newest(const struct feed *f, const char *channel,
					   const struct marks *m, const struct mark **skipped)
{
	const struct feed_release *r = feed_newest(f, channel);
	*skipped = remember_skips(m, r);
	return r;
}
