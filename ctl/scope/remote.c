/* The release source as the commands that talk to it see it (ctl/scope/remote.h). */
#include "scope/remote.h"
#include "store/layout.h"
#include "lifecycle/acquire.h"
#include "lifecycle/remember.h"
#include "release/release.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/host.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void remote_end(struct remote *rs)
{
	feed_free(&rs->feed);
}

/* peek: the release list is fetched, the store's cache only read (update --dry-run). */
int remote_open(struct cli *c, struct store *s, struct remote *rs, int peek,
		       struct tb_error *e)
{
	*rs = (struct remote){.s = s};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, !peek, e);
	int rc = cache ? TB_OK : e->code;
	if (!rc && peek)
		rc = feed_peek(&c->cfg, cache, &rs->feed, &rs->from_cache, e);
	else if (!rc)
		rc = feed_refresh(&c->cfg, cache, &rs->feed, &rs->from_cache, e);
	free(cache);
	if (rc)
		remote_end(rs); /* callers return at once on failure */
	return rc;
}

void say_skipped(struct outcome *o, const struct mark *k, const char *current)
{
	outcome_str(o, "skipped", k->version);
	outcome_str(o, "skipped_reason", k->reason);
	char stay[120];
	snprintf(stay, sizeof stay, "%s%s", current ? "Mesa " : "the distribution's Mesa", current ? current : "");
	if (k->refused)
		outcome_say(o, "Mesa %s is skipped: its release was refused here (%s: %s) and the release list still names the same asset, so it is not fetched again; staying on %s; `tb323fu-ctl mesa update --to %s` fetches it anyway, `tb323fu-ctl mesa forget %s` clears the mark",
			    k->version, k->reason, k->why, stay, k->version, k->version);
	else
		outcome_say(o, "Mesa %s is skipped: it is marked %s here (%s); staying on %s; `tb323fu-ctl mesa update --to %s` installs it anyway, `tb323fu-ctl mesa forget %s` clears the mark",
			    k->version, k->reason, k->why, stay, k->version, k->version);
}

static int remote_start(struct cli *c, struct store *s, struct remote *rs, struct tb_error *e)
{
	return remote_open(c, s, rs, 0, e);
}

int check_and_say(struct cli *c, struct store *s, struct outcome *o)
{
	struct remote rs;
	struct tb_error e = {0};
	if (remote_start(c, s, &rs, &e))
		return outcome_fail(o, &e);
	const char *channel = c->cfg.channel;
	const struct feed_release *r = feed_newest(&rs.feed, channel);
	char *cur = store_current(rs.s);
	struct marks marks;
	marks_load(rs.s, &marks);
	const struct mark *skipped = remember_skips(&marks, r);
	int newer = r && !skipped && (!cur || version_compare(r->version, cur) > 0);
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
	else if (skipped && (!cur || version_compare(r->version, cur) > 0))
		say_skipped(o, skipped, cur);
	else if (!newer)
		outcome_say(o, "Mesa up to date (%s)", cur);
	else if (cur)
		outcome_say(o, "Mesa %s is available on %s (installed: %s); get it with `tb323fu-ctl mesa update`",
			    r->version, channel, cur);
	else
		outcome_say(o, "Mesa %s is available on %s; get it with `tb323fu-ctl mesa update`", r->version,
			    channel);
	free(cur);
	marks_free(&marks);
	remote_end(&rs);
	return TB_OK;
}

/* A version already in the store is fetched again only when it is damaged. */
int present_and_whole(struct store *s, const char *version)
{
	struct tb_error ignored = {0};
	return store_has_version(s, version) && release_verify_installed(s, version, &ignored) == TB_OK;
}

int download_and_say(struct cli *c, struct store *s, const char *want,
			    struct outcome *o)
{
	struct remote rs;
	struct tb_error e = {0};
	int rc = remote_start(c, s, &rs, &e);
	const struct feed_release *r = NULL;
	if (!rc) {
		r = want ? feed_find(&rs.feed, want) : feed_newest(&rs.feed, c->cfg.channel);
		if (!r && want)
			rc = tb_fail(&e, TB_R_UNKNOWN_VERSION, "Mesa %s is not offered for %s by %s; `tb323fu-ctl mesa list --available` shows the versions on offer",
				     want, host_arch(), c->cfg.source);
		else if (!r)
			rc = tb_fail(&e, TB_R_UNKNOWN_VERSION, "no Mesa release for %s is offered on %s by %s", host_arch(),
				     c->cfg.channel, c->cfg.source);
	}
	if (rc) {
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	struct marks marks;
	marks_load(rs.s, &marks);
	const struct mark *skipped = want ? NULL : remember_skips(&marks, r);
	if (skipped) { /* a version named is fetched; the channel's newest only when unmarked */
		char *cur = store_current(rs.s);
		outcome_bool(o, "downloaded", 0);
		say_skipped(o, skipped, cur);
		free(cur);
		marks_free(&marks);
		remote_end(&rs);
		return TB_OK;
	}
	marks_free(&marks);
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
