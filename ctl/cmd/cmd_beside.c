/* The commands that serve life beside the Open Device Helper (docs/design.md §13): notes and
 * takeover (auto-check, what the daily timer runs, is with check and download). */
#include "cli/cli.h"
#include "release/feed.h"
#include "release/buildrecord.h"
#include "store/manifest.h"
#include "ops/session.h"
#include "ops/lifecycle.h"
#include "ops/takeover.h"
#include "base/strbuf.h"
#include "base/error.h"
#include "base/host.h"
#include "base/fs.h"
#include "store/store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

COMMAND(notes)
{
	const char *want = ((const struct opts_version *)opts)->version;
	struct tb_error e = {0};
	char *cache = store_path(s, STORE_CACHE_DIR);
	struct feed f;
	int rc = feed_cached(&c->cfg, cache, &f, &e);
	free(cache);
	if (!rc) {
		const struct feed_release *r = want ? feed_find(&f, want) : feed_newest(&f, c->cfg.channel);
		if (!r && want)
			rc = tb_fail_why(&e, TB_EFAIL, "unknown-version",
					 "Mesa %s is not in the release list; `tb323fu-ctl mesa check` refreshes it", want);
		else if (!r)
			rc = tb_fail_why(&e, TB_EFAIL, "unknown-version", "no Mesa release for %s is offered on %s",
					 host_arch(), c->cfg.channel);
		else {
			outcome_str(o, "version", r->version);
			outcome_str(o, "notes", r->notes);
			outcome_str(o, "url", r->notes_url);
			outcome_str(o, "published_at", r->published_at);
			outcome_int(o, "size", (int64_t)r->tarball.size);
			/* --- the release's build record (docs/design.md §19) --- */
			struct strbuf rec = {0};
			char *tree = store_version_dir(s, r->version);
			if (is_directory(tree)) {
				char *sums = store_path(s, "%s/%s/SHA256SUMS", STORE_CACHE_DIR, r->tag);
				char *sig = store_path(s, "%s/%s/SHA256SUMS.minisig", STORE_CACHE_DIR, r->tag);
				struct record_view v;
				record_view_read(&c->cfg, tree, sums, sig, r->version, &v);
				record_view_say(&v, r->version, &rec);
				if (!o->fields)
					o->fields = json_object_new_object();
				json_object_object_add(o->fields, "build_record", record_view_json(&v));
				record_view_free(&v);
				free(sums);
				free(sig);
			} else {
				sb_appendf(&rec, "build record: Mesa %s is not installed here; its build record comes inside the release", r->version);
			}
			free(tree);
			/* --- end of the build record --- */
			/* people get the text itself, or where to read it */
			outcome_say(o, "%s\n%s", *r->notes ? r->notes : *r->notes_url ? r->notes_url
							: "this release has no notes", rec.buf);
			sb_free(&rec);
		}
		feed_free(&f);
	}
	return rc ? outcome_fail(o, &e) : TB_OK;
}

COMMAND(takeover)
{
	(void)opts;
	/* opened as a reader to count what is missing; a writer completes it as it opens it */
	struct tb_error e = {0};
	/* A current pointing outside versions/ (an absolute link, versions/../..) selects a tree
	 * that is not the store's: the helper's ICD files reach their libraries through it, so a
	 * store that keeps it is not taken over, and the sentence says how to repair it. */
	struct lc_view v;
	lc_read(s, &v);
	if (v.foreign) {
		struct strbuf why = {0};
		lc_gone_advice(s, &v, &why);
		tb_fail_why(&e, TB_EFAIL, "damaged", "the store cannot be taken over: %s; nothing was changed",
			    why.buf);
		sb_free(&why);
	}
	lc_view_free(&v);
	if (e.code)
		return outcome_fail(o, &e);
	int needed = takeover_needed(s);
	store_close(s);
	if (session_open(s, c->store_dir, 1, c->wait, &e))
		return outcome_fail(o, &e);
	outcome_bool(o, "completed", needed > 0);
	outcome_str(o, "store", s->root);
	if (needed)
		outcome_say(o, "the store %s now has our files too (env files and per-version ICD files); current, previous and the state are unchanged",
			    s->root);
	else
		outcome_say(o, "the store %s has all our files; nothing to do", s->root);
	return TB_OK;
}
