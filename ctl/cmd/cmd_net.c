/* The commands that talk to the release source: check, download [VERSION], update and
 * auto-check (what the daily timer runs), the store given open for writing. */
#include "ops/acquire.h"
#include "cli/cli.h"
#include "release/feed.h"
#include "ops/lifecycle.h"
#include "store/manifest.h"
#include "release/release.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/host.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The store (open for writing) with a fresh release list. */
struct remote {
	struct store *s;
	struct feed feed;
	int from_cache;
};

static void remote_end(struct remote *rs)
{
	feed_free(&rs->feed);
}

/* peek: the release list is fetched, the store's cache only read (update --dry-run). */
static int remote_open(struct cli *c, struct store *s, struct remote *rs, int peek,
		       struct tb_error *e)
{
	*rs = (struct remote){.s = s};
	char *cache = store_path(s, STORE_CACHE_DIR);
	int rc = peek ? TB_OK : mkdir_p(cache, 0755, e);
	if (!rc && peek)
		rc = feed_peek(&c->cfg, cache, &rs->feed, &rs->from_cache, e);
	else if (!rc)
		rc = feed_refresh(&c->cfg, cache, &rs->feed, &rs->from_cache, e);
	free(cache);
	if (rc)
		remote_end(rs); /* callers return at once on failure */
	return rc;
}

static int remote_start(struct cli *c, struct store *s, struct remote *rs, struct tb_error *e)
{
	return remote_open(c, s, rs, 0, e);
}

static int check_and_say(struct cli *c, struct store *s, struct outcome *o)
{
	struct remote rs;
	struct tb_error e = {0};
	if (remote_start(c, s, &rs, &e))
		return outcome_fail(o, &e);
	const char *channel = c->cfg.channel;
	const struct feed_release *r = feed_newest(&rs.feed, channel);
	char *cur = store_current(rs.s);
	int newer = r && (!cur || version_compare(r->version, cur) > 0);
	outcome_str(o, "channel", channel);
	outcome_str(o, "available", r ? r->version : "");
	outcome_str(o, "installed", cur ? cur : "");
	outcome_bool(o, "newer", newer);
	outcome_bool(o, "cached", rs.from_cache);
	outcome_str(o, "version", r ? r->version : "");
	outcome_bool(o, "prerelease", r && r->prerelease);
	outcome_str(o, "notes_url", r ? r->notes_url : "");
	outcome_str(o, "published_at", r ? r->published_at : "");
	outcome_int(o, "size", r ? (int64_t)r->tarball.size : 0);
	if (!r)
		outcome_say(o, "no Mesa release for %s is offered on %s by %s", host_arch(), channel, c->cfg.source);
	else if (!newer)
		outcome_say(o, "Mesa up to date (%s)", cur);
	else if (cur)
		outcome_say(o, "Mesa %s is available on %s (installed: %s); get it with `tb323fu-ctl mesa update`",
			    r->version, channel, cur);
	else
		outcome_say(o, "Mesa %s is available on %s; get it with `tb323fu-ctl mesa update`", r->version,
			    channel);
	free(cur);
	remote_end(&rs);
	return TB_OK;
}

/* A version already in the store is fetched again only when it is damaged. */
static int present_and_whole(struct store *s, const char *version)
{
	struct tb_error ignored = {0};
	return store_has_version(s, version) && release_verify_installed(s, version, &ignored) == TB_OK;
}

static int download_and_say(struct cli *c, struct store *s, const char *want,
			    struct outcome *o)
{
	struct remote rs;
	struct tb_error e = {0};
	int rc = remote_start(c, s, &rs, &e);
	const struct feed_release *r = NULL;
	if (!rc) {
		r = want ? feed_find(&rs.feed, want) : feed_newest(&rs.feed, c->cfg.channel);
		if (!r && want)
			rc = tb_fail_why(&e, TB_EFAIL, "unknown-version", "Mesa %s is not offered for %s by %s; `tb323fu-ctl mesa check` shows what is",
					 want, host_arch(), c->cfg.source);
		else if (!r)
			rc = tb_fail_why(&e, TB_EFAIL, "unknown-version", "no Mesa release for %s is offered on %s by %s", host_arch(),
					 c->cfg.channel, c->cfg.source);
	}
	if (rc) {
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	char about[256];
	if (present_and_whole(rs.s, r->version)) {
		cli_describe_version(o, rs.s, r->version, about, sizeof about);
		outcome_bool(o, "downloaded", 0);
		char *cur = store_current(rs.s);
		if (cur && !strcmp(cur, r->version))
			outcome_say(o, "Mesa %s is already installed and current (%s)", r->version, about);
		else
			outcome_say(o, "Mesa %s is already downloaded (%s); install it with `tb323fu-ctl mesa install %s`",
				    r->version, about, r->version);
		free(cur);
		remote_end(&rs);
		return TB_OK;
	}
	uint64_t resumed = 0;
	rc = acquire_remote(&c->cfg, rs.s, r, c->progress, &resumed, &e);
	if (rc) {
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	cli_describe_version(o, rs.s, r->version, about, sizeof about);
	outcome_bool(o, "downloaded", 1);
	outcome_int(o, "resumed_from", (int64_t)resumed);
	outcome_say(o, "Mesa %s downloaded and checked (%s)", r->version, about);
	remote_end(&rs);
	return TB_OK;
}

COMMAND(check)
{
	(void)opts;
	return check_and_say(c, s, o);
}

COMMAND(download)
{
	return download_and_say(c, s, ((const struct opts_version *)opts)->version, o);
}

/* update stops short of installing: "up to date", or a version that failed here before. */
static int update_stays(struct cli *c, struct remote *rs, const struct feed_release *r,
			const struct lc_view *v, struct outcome *o)
{
	const char *cur = v->current;
	if (!r || (cur && version_compare(r->version, cur) <= 0)) {
		/* Never an older or equal version: update only moves forward. */
		if (!cur) {
			struct tb_error e = {0};
			tb_fail_why(&e, TB_EFAIL, "unknown-version", "no Mesa release for %s is offered on %s by %s", host_arch(),
				    c->cfg.channel, c->cfg.source);
			return outcome_fail(o, &e);
		}
		outcome_str(o, "version", cur);
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa up to date (%s)", cur);
		return 0;
	}
	if (v->st.failed && !strcmp(v->st.failed, r->version)) {
		/* A version that already failed here is not retried behind the user's back. */
		outcome_str(o, "version", cur ? cur : "");
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa %s failed here before (%s); staying on %s%s; try it again with `tb323fu-ctl mesa install %s`",
			    r->version, v->st.failed_reason ? v->st.failed_reason : "no reason recorded",
			    cur ? "Mesa " : "the distribution's Mesa", cur ? cur : "", r->version);
		return 0;
	}
	return -1;
}

/* update --dry-run: what it would download (not downloaded) and install. */
static int update_plan_say(struct cli *c, struct remote *rs, const struct feed_release *r,
			   int no_smoke, struct outcome *o)
{
	struct lc_ctx x = {.s = rs->s, .cfg = &c->cfg, .progress = c->progress};
	struct lc_plan p;
	struct tb_error e = {0};
	if (lc_plan_update(&x, r->version, &p, &e))
		return outcome_fail(o, &e);
	int fetch = !present_and_whole(rs->s, r->version);
	outcome_bool(o, "would_download", fetch);
	outcome_int(o, "size", fetch ? (int64_t)r->tarball.size : 0);
	outcome_install_plan(o, "update", &p, !no_smoke && c->cfg.smoke, c->cfg.keep_versions);
	char *plan = o->message;
	o->message = NULL;
	if (fetch)
		outcome_say(o, "dry run: `update` would download Mesa %s (%.1f MiB, then checked and unpacked)\n%s",
			    r->version, (double)r->tarball.size / 1048576.0, plan);
	else
		outcome_say(o, "dry run: Mesa %s is already downloaded and whole\n%s", r->version, plan);
	free(plan);
	return TB_OK;
}

COMMAND(update)
{
	const struct opts_install *a = opts;
	int no_smoke = a->no_smoke;
	struct remote rs;
	struct tb_error e = {0};
	if (remote_open(c, s, &rs, a->dry_run, &e))
		return outcome_fail(o, &e);
	const struct feed_release *r = feed_newest(&rs.feed, c->cfg.channel);
	struct lc_view v;
	lc_read(rs.s, &v);
	outcome_str(o, "channel", c->cfg.channel);
	outcome_str(o, "available", r ? r->version : "");
	if (a->dry_run)
		outcome_bool(o, "dry_run", 1);
	int stays = update_stays(c, &rs, r, &v, o);
	if (stays < 0 && a->dry_run)
		stays = update_plan_say(c, &rs, r, no_smoke, o);
	if (stays >= 0) {
		lc_view_free(&v);
		remote_end(&rs);
		return o->code;
	}
	outcome_str(o, "version", r->version);
	outcome_str(o, "previous", v.current ? v.current : "");
	int downloaded = !present_and_whole(rs.s, r->version);
	uint64_t resumed = 0;
	int rc = downloaded ? acquire_remote(&c->cfg, rs.s, r, c->progress, &resumed, &e) : TB_OK;
	struct smoke_outcome smoke = {0};
	int smoked = c->cfg.smoke && !no_smoke;
	struct lc_result lr;
	if (!rc) {
		struct lc_ctx x = {.s = rs.s, .cfg = &c->cfg, .progress = c->progress};
		rc = lc_install(&x, r->version, smoked, &smoke, &lr, &e);
		outcome_int(o, "smoke_failed", smoke.failed);
	}
	lc_view_free(&v);
	if (rc) {
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	char about[256];
	cli_describe_version(o, rs.s, r->version, about, sizeof about);
	outcome_bool(o, "updated", 1);
	outcome_installed(o, rs.s, r->version, smoked ? &smoke : NULL, &lr, c->cfg.keep_versions);
	if (downloaded) {
		char *installed = o->message;
		o->message = NULL;
		outcome_say(o, "Mesa %s downloaded and checked (%s)\n%s", r->version, about, installed);
		free(installed);
	}
	remote_end(&rs);
	return TB_OK;
}

/* check, and with auto_download = on also download what the channel offers; it never
 * installs (docs/design.md §13). */
COMMAND(auto_check)
{
	(void)opts;
	int rc = check_and_say(c, s, o);
	/* --- crash evidence (docs/design.md §18): read from the last cursor, the policy applied --- */
	struct strbuf crash_said = {0};
	crashes_after(c, s, o, 0, &crash_said);
	crashes_said(o, &crash_said);
	/* --- end of crash evidence --- */
	json_object *newer = NULL;
	if (rc || !c->cfg.auto_download || !o->fields ||
	    !json_object_object_get_ex(o->fields, "newer", &newer) || !json_object_get_boolean(newer))
		return rc;
	struct outcome d = {0};
	rc = download_and_say(c, s, NULL, &d);
	char *checked = o->message;
	o->message = NULL;
	outcome_say(o, "%s\n%s", checked ? checked : "", d.message ? d.message : "");
	free(checked);
	outcome_bool(o, "downloaded", rc == TB_OK);
	if (rc) {
		o->code = rc;
		o->reason = d.reason;
	}
	json_object_put(d.fields);
	free(d.message);
	return rc;
}
