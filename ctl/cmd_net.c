/* The commands that talk to the release source: check, download [VERSION], update. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activate.h"
#include "feed.h"
#include "fetch.h"
#include "manifest.h"
#include "minisign.h"
#include "release.h"
#include "state.h"
#include "sums.h"

#define SIG_MAX_BYTES (64 * 1024)

/* A writer's store with a fresh release list. */
struct remote {
	struct store s;
	int open;
	char *cache;
	struct feed feed;
	int from_cache;
};

static void remote_end(struct remote *rs)
{
	feed_free(&rs->feed);
	free(rs->cache);
	if (rs->open)
		store_close(&rs->s);
}

static int remote_start(struct cli *c, struct remote *rs, struct tb_error *e)
{
	memset(rs, 0, sizeof *rs);
	int rc = cli_open_store(c, &rs->s, 1, e);
	if (rc)
		return rc;
	rs->open = 1;
	rs->cache = store_path(&rs->s, "cache");
	rc = mkdir_p(rs->cache, 0755, e);
	if (!rc)
		rc = feed_refresh(&c->cfg, rs->cache, &rs->feed, &rs->from_cache, e);
	if (rc) {
		/* callers return at once on failure; remote_end stays harmless after this */
		remote_end(rs);
		memset(rs, 0, sizeof *rs);
	}
	return rc;
}


/* The API url of an asset answers JSON unless asked for the bytes; a browser url ignores it. */
#define ASSET_ACCEPT "application/octet-stream"

/* Fetches a small asset (SHA256SUMS, its signature) of exactly the release's size into the
 * cache; *path_out is where it went. */
static int fetch_small_asset(struct cli *c, struct remote *rs, const struct feed_release *r,
			     const struct feed_asset *a, uint64_t cap, char **path_out,
			     char **text_out, size_t *len_out, struct tb_error *e)
{
	*path_out = NULL;
	char *what = xasprintf("%s of %s", a->name, r->tag);
	struct fetch_request rq = {.url = a->url, .accept = ASSET_ACCEPT, .max_bytes = cap,
				   .too_big_code = TB_EVERIFY, .what = what};
	struct fetch_reply reply;
	int rc = fetch_memory(&c->cfg, &rq, &reply, e);
	if (!rc && reply.len != a->size)
		rc = tb_fail_why(e, TB_EVERIFY, "size-mismatch", "%s has %zu bytes, the release says %llu; refusing it", what,
			     reply.len, (unsigned long long)a->size);
	if (!rc) {
		/* cache/<tag>/SHA256SUMS: the file keeps its name for sentences and minisign -V. */
		char *dir = path_join(rs->cache, r->tag);
		*path_out = path_join(dir, a->name);
		rc = mkdir_p(dir, 0755, e);
		if (!rc)
			rc = atomic_write_file(*path_out, reply.body, reply.len, 0644, e);
		free(dir);
	}
	if (!rc && text_out) {
		*text_out = reply.body;
		*len_out = reply.len;
		reply.body = NULL;
	}
	fetch_reply_free(&reply);
	free(what);
	return rc;
}

struct download_result {
	uint64_t resumed_from;
};

/* docs/design.md §4 in order: signature over SHA256SUMS, then the tarball's size and hashes (while
 * it arrives), then release_unpack for the tree. Refusals leave nothing behind. */
static int download_release(struct cli *c, struct remote *rs, const struct feed_release *r,
			    struct download_result *res, struct tb_error *e)
{
	memset(res, 0, sizeof *res);
	char *sums_path = NULL, *sig_path = NULL, *sums_text = NULL, *part = NULL;
	size_t sums_len = 0;
	int rc = fetch_small_asset(c, rs, r, &r->sums, SUMS_MAX_BYTES, &sums_path, &sums_text,
				   &sums_len, e);
	if (!rc && r->sig.name)
		rc = fetch_small_asset(c, rs, r, &r->sig, SIG_MAX_BYTES, &sig_path, NULL, NULL, e);
	if (!rc)
		rc = minisign_verify_file(&c->cfg, sums_path, sig_path, r->version, e);
	char expect[65] = "";
	if (!rc)
		rc = sums_lookup_text(sums_text, sums_len, r->tarball.name, expect, e);
	if (!rc && r->tarball.digest[0] && strcmp(r->tarball.digest, expect))
		rc = tb_fail_why(e, TB_EVERIFY, "digest-mismatch", "the digest the release gives for %s differs from its SHA256SUMS; refusing it",
			     r->tarball.name);
	struct fetch_file_result got;
	if (!rc) {
		char *name = xasprintf("%s.part", r->tarball.name);
		part = path_join(rs->cache, name);
		free(name);
		struct fetch_request rq = {.url = r->tarball.url, .accept = ASSET_ACCEPT,
					   .max_bytes = r->tarball.size, .too_big_code = TB_EVERIFY,
					   .what = r->tarball.name};
		rc = fetch_file(&c->cfg, &rq, part, r->tarball.size, c->progress, r->tarball.name, &got, e);
		res->resumed_from = got.resumed_from;
	}
	if (!rc && strcmp(got.sha256, expect))
		rc = tb_fail_why(e, TB_EVERIFY, "hash-mismatch", "%s does not match its SHA256SUMS (damaged or altered download); refusing it",
			     r->tarball.name);
	if (!rc && r->tarball.digest[0] && strcmp(got.sha256, r->tarball.digest))
		rc = tb_fail_why(e, TB_EVERIFY, "digest-mismatch", "%s does not match the digest the release gives; refusing it",
			     r->tarball.name);
	if (!rc) {
		struct release_request req = {.tarball = part, .asset_name = r->tarball.name,
					      .known_sha256 = got.sha256, .known_size = got.size,
					      .expect_version = r->version, .progress = c->progress};
		char *version = NULL;
		rc = release_unpack(&rs->s, &req, &version, e);
		free(version);
	}
	/* Only an interrupted transfer is worth resuming; anything checked or refused goes. */
	if (part && (rc == TB_OK || rc == TB_EVERIFY))
		unlink(part);
	free(part);
	free(sums_text);
	free(sums_path);
	free(sig_path);
	return rc;
}

/* "vulkan, opencl, based on upstream 1a2b3c4" from the installed MANIFEST. */
static void describe_version(struct remote *rs, const char *version, struct outcome *o,
			     char *out, size_t n)
{
	struct manifest m = {0};
	struct tb_error ignored = {0};
	char *dir = store_path(&rs->s, "versions/%s", version);
	if (manifest_load(dir, &m, &ignored) == TB_OK) {
		struct strbuf drivers = {0};
		for (const char *p = m.drivers ? m.drivers : ""; *p; p++) {
			char ch[2] = {*p, 0};
			sb_append(&drivers, *p == ',' ? ", " : ch);
		}
		/* A commit hash is shortened as git does; any other name is kept whole. */
		const char *base = m.base ? m.base : "?";
		int is_hash = strlen(base) >= 12 && strspn(base, "0123456789abcdef") == strlen(base);
		snprintf(out, n, "%s, based on upstream %.*s", drivers.buf ? drivers.buf : "",
			 is_hash ? 7 : 64, base);
		outcome_str(o, "drivers", m.drivers);
		outcome_str(o, "base", m.base);
		outcome_str(o, "mesa_version", m.mesa_version);
		sb_free(&drivers);
		manifest_free(&m);
	} else {
		snprintf(out, n, "unknown drivers");
	}
	free(dir);
}

static const char *arg_or_null(int argc, char **argv, int *bad)
{
	const char *v = NULL;
	*bad = 0;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' || v)
			*bad = 1;
		else
			v = argv[i];
	}
	return v;
}

COMMAND(check)
{
	struct tb_error e = {0};
	if (argc > 1) {
		tb_fail(&e, TB_EUSAGE, "check takes no arguments (usage: tb323fu-ctl mesa check)");
		return outcome_fail(o, &e);
	}
	struct remote rs;
	if (remote_start(c, &rs, &e))
		return outcome_fail(o, &e);
	const char *channel = c->cfg.channel;
	const struct feed_release *r = feed_newest(&rs.feed, channel);
	char *cur = store_current(&rs.s);
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

COMMAND(download)
{
	struct tb_error e = {0};
	int bad;
	const char *want = arg_or_null(argc, argv, &bad);
	if (bad || (want && !version_is_valid(want))) {
		tb_fail(&e, TB_EUSAGE, "usage: tb323fu-ctl mesa download [VERSION] (a version like 2026.10.06)");
		return outcome_fail(o, &e);
	}
	struct remote rs;
	int rc = remote_start(c, &rs, &e);
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
	outcome_str(o, "version", r->version);
	if (store_has_version(&rs.s, r->version)) {
		describe_version(&rs, r->version, o, about, sizeof about);
		outcome_bool(o, "downloaded", 0);
		char *cur = store_current(&rs.s);
		if (cur && !strcmp(cur, r->version))
			outcome_say(o, "Mesa %s is already installed and current (%s)", r->version, about);
		else
			outcome_say(o, "Mesa %s is already downloaded (%s); install it with `tb323fu-ctl mesa install %s`",
				    r->version, about, r->version);
		free(cur);
		remote_end(&rs);
		return TB_OK;
	}
	struct download_result res;
	rc = download_release(c, &rs, r, &res, &e);
	if (rc) {
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	describe_version(&rs, r->version, o, about, sizeof about);
	outcome_bool(o, "downloaded", 1);
	outcome_int(o, "resumed_from", (int64_t)res.resumed_from);
	outcome_say(o, "Mesa %s downloaded and checked (%s)", r->version, about);
	remote_end(&rs);
	return TB_OK;
}

COMMAND(update)
{
	struct tb_error e = {0};
	int no_smoke = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-smoke")) {
			no_smoke = 1;
		} else {
			tb_fail(&e, TB_EUSAGE, "usage: tb323fu-ctl mesa update [--no-smoke]");
			return outcome_fail(o, &e);
		}
	}
	struct remote rs;
	int rc = remote_start(c, &rs, &e);
	if (rc)
		return outcome_fail(o, &e);
	const struct feed_release *r = feed_newest(&rs.feed, c->cfg.channel);
	char *cur = store_current(&rs.s);
	outcome_str(o, "channel", c->cfg.channel);
	outcome_str(o, "available", r ? r->version : "");
	if (!r || (cur && version_compare(r->version, cur) <= 0)) {
		/* Never an older or equal version: update only moves forward. */
		if (cur) {
			outcome_str(o, "version", cur);
			outcome_bool(o, "updated", 0);
			outcome_say(o, "Mesa up to date (%s)", cur);
		} else {
			rc = tb_fail_why(&e, TB_EFAIL, "unknown-version", "no Mesa release for %s is offered on %s by %s", host_arch(),
				     c->cfg.channel, c->cfg.source);
		}
		free(cur);
		remote_end(&rs);
		return rc ? outcome_fail(o, &e) : TB_OK;
	}
	struct state st;
	state_load(&rs.s, &st);
	if (st.failed && !strcmp(st.failed, r->version)) {
		/* A version that already failed here is not retried behind the user's back. */
		outcome_str(o, "version", cur ? cur : "");
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa %s failed here before (%s); staying on %s%s; try it again with `tb323fu-ctl mesa install %s`",
			    r->version, st.failed_reason ? st.failed_reason : "no reason recorded",
			    cur ? "Mesa " : "the distribution's Mesa", cur ? cur : "", r->version);
		state_free(&st);
		free(cur);
		remote_end(&rs);
		return TB_OK;
	}
	state_free(&st);
	outcome_str(o, "version", r->version);
	outcome_str(o, "previous", cur ? cur : "");
	int downloaded = !store_has_version(&rs.s, r->version);
	if (downloaded) {
		struct download_result res;
		rc = download_release(c, &rs, r, &res, &e);
	}
	struct smoke_outcome smoke = {0};
	int ao_smoked = c->cfg.smoke && !no_smoke;
	if (!rc) {
		struct activate_opts ao = {.cfg = &c->cfg, .run_smoke = ao_smoked, .progress = c->progress};
		rc = release_activate(&rs.s, r->version, &ao, &smoke, &e);
		outcome_int(o, "smoke_failed", smoke.failed);
	}
	if (rc) {
		free(cur);
		remote_end(&rs);
		return outcome_fail(o, &e);
	}
	char about[256];
	describe_version(&rs, r->version, o, about, sizeof about);
	outcome_bool(o, "updated", 1);
	outcome_installed(o, &rs.s, r->version, ao_smoked ? &smoke : NULL);
	if (downloaded) {
		char *installed = o->message;
		o->message = NULL;
		outcome_say(o, "Mesa %s downloaded and checked (%s)\n%s", r->version, about, installed);
		free(installed);
	}
	free(cur);
	remote_end(&rs);
	return TB_OK;
}
