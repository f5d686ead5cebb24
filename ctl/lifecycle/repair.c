/* A damaged version fetched anew (ctl/lifecycle/repair.h). */
#include "lifecycle/repair.h"
#include "store/layout.h"
#include "lifecycle/acquire.h"
#include "release/feed.h"
#include "base/fs.h"

#include <stdint.h>
#include <stdlib.h>

static int read_feed(const struct config *cfg, struct store *s, struct feed *f,
		     struct tb_error *e)
{
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 1, e);
	int from_cache;
	int rc = cache ? TB_OK : e->code;
	if (!rc)
		rc = feed_refresh(cfg, cache, f, &from_cache, e);
	free(cache);
	if (rc) {
		/* offline, or the source is gone: a version installed from a tarball on disk is
		 * repaired from that tarball */
		struct tb_error why = *e;
		*e = (struct tb_error){0};
		tb_fail_again(e, &why, "%.700s; a version installed from a tarball on disk is repaired offline with `tb323fu-ctl mesa verify --repair VERSION --from FILE`",
			      why.msg);
	}
	return rc;
}

int repair_from_source(const struct config *cfg, struct store *s, const char *version,
		       const struct tb_progress *p, struct tb_error *e)
{
	struct feed f = {0};
	int rc = read_feed(cfg, s, &f, e);
	const struct feed_release *r = rc ? NULL : feed_find(&f, version);
	if (!rc && !r)
		rc = tb_fail(e, TB_R_UNKNOWN_VERSION, "Mesa %s is damaged and %s no longer offers it; repair it from its tarball with `tb323fu-ctl mesa verify --repair %s --from FILE`",
			     version, cfg->source, version);
	uint64_t resumed = 0;
	if (!rc)
		rc = acquire_remote(cfg, s, r, p, &resumed, e);
	feed_free(&f);
	return rc;
}
