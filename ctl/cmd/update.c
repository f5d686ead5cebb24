/* update: check, then download and install when the channel has a newer version that the
 * store does not remember as gone wrong; --to VERSION: that version, named. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/remote.h"
#include "render/lifecycle_say.h"
#include "lifecycle/acquire.h"
#include "lifecycle/remember.h"
#include "lifecycle/lifecycle.h"
#include "release/release.h"
#include "store/manifest.h"
#include "base/host.h"
#include "gputest/smoke_run.h"
#include "gputest/bench_history.h"
#include "gputest/bench_stats.h"
#include "base/error.h"
#include "base/alloc.h"
#include "common/version_name.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct update_opts {
	const char *to; /* --to VERSION: that version, named (marks do not skip it) */
	int no_smoke;
	int dry_run; /* say what would be done; the release list is read, no tarball fetched */
};

/* The newest version the channel offers that is newer than current and not marked: what a
 * skip of the newest leaves on offer; NULL when none. */
static const struct feed_release *newer_unmarked(const struct cli *c, const struct feed *f,
						 const struct marks *marks, const char *cur)
{
	int testing = !strcmp(c->cfg.channel, "testing");
	for (size_t i = 0; i < f->n; i++) { /* newest first */
		const struct feed_release *r = &f->releases[i];
		if (cur && version_compare(r->version, cur) <= 0)
			break;
		if ((testing || !r->prerelease) && !marks_find(marks, r->version))
			return r;
	}
	return NULL;
}

/* update stops short of installing: "up to date", or a version that failed here before. */
static int update_stays(struct cli *c, struct remote *rs, const struct feed_release *r,
			const struct lc_view *v, const char *to, const struct mark *skipped,
			const struct marks *marks, struct outcome *o)
{
	const char *cur = v->current;
	if (to && !r) {
		struct tb_error e = {0};
		tb_fail(&e, TB_R_UNKNOWN_VERSION, "Mesa %s is not offered for %s by %s; nothing was changed; `tb323fu-ctl mesa list --available` shows the versions on offer",
			to, host_arch(), c->cfg.source);
		return outcome_fail(o, &e);
	}
	if (to && cur && !strcmp(cur, r->version) && present_and_whole(rs->s, cur)) {
		outcome_str(o, "version", cur);
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa %s is already the current version; nothing was changed", cur);
		return 0;
	}
	if (to)
		return -1; /* named: installed whatever the store remembers, older or not */
	if (!r || (cur && version_compare(r->version, cur) <= 0)) {
		/* Never an older or equal version: update only moves forward. */
		if (!cur) {
			struct tb_error e = {0};
			tb_fail(&e, TB_R_UNKNOWN_VERSION, "no Mesa release for %s is offered on %s by %s", host_arch(),
				c->cfg.channel, c->cfg.source);
			return outcome_fail(o, &e);
		}
		outcome_str(o, "version", cur);
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa up to date (%s)", cur);
		return 0;
	}
	if (skipped) {
		/* the store remembers it (docs/design.md §12): not taken behind the user's back */
		outcome_str(o, "version", cur ? cur : "");
		outcome_bool(o, "updated", 0);
		say_skipped(o, skipped, cur);
		const struct feed_release *other = newer_unmarked(c, &rs->feed, marks, cur);
		if (other) { /* never "staying on" without naming what else is on offer */
			char *said = o->message;
			o->message = NULL;
			outcome_say(o, "%s; Mesa %s, newer than %s and not marked, is offered too: `tb323fu-ctl mesa update --to %s` installs it",
				    said, other->version, cur ? cur : "nothing installed", other->version);
			outcome_str(o, "newer_offered", other->version);
			free(said);
		}
		return 0;
	}
	if (v->st.failed && !strcmp(v->st.failed, r->version)) {
		/* A version that already failed here is not retried behind the user's back. */
		outcome_str(o, "version", cur ? cur : "");
		outcome_bool(o, "updated", 0);
		outcome_say(o, "Mesa %s failed here before (%s); staying on %s%s; try it again with `tb323fu-ctl mesa update --to %s`",
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
		outcome_say(o, "dry run: Mesa %s is already installed and whole\n%s", r->version, plan);
	free(plan);
	return TB_OK;
}

/* When the newest installed version benched slower than the one before it in the history
 * (beyond the noise floor: bench_history_slower), a line saying so and how to look; nothing
 * is refused for it. */
static void say_benched_slower(const struct cli *c, const struct store *s, struct outcome *o)
{
	size_t n;
	char **versions = store_versions(s, &n);
	json_object *runs = n ? bench_history_load(s) : NULL;
	char *before = NULL;
	double newer = 0, older = 0;
	if (n && o->code == TB_OK && bench_history_slower(runs, versions[0], &before, &newer, &older)) {
		json_object *said = json_object_new_object();
		json_object_object_add(said, "version", json_object_new_string(versions[0]));
		json_object_object_add(said, "before", json_object_new_string(before));
		json_object_object_add(said, "ratio", json_object_new_double(newer));
		json_object_object_add(said, "ratio_before", json_object_new_double(older));
		json_object_object_add(o->fields, "benched_slower", said);
		char *message = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nMesa %s benched slower than Mesa %s, the version before it: %.2fx the distribution's "
			    "Mesa against %.2fx, beyond the %s noise floor (`tb323fu-ctl%s%s mesa bench --history` shows the runs)",
			    message ? message : "", versions[0], before, newer, older, BENCH_NOISE_FLOOR_TEXT,
			    c->store_dir ? " --store " : "", c->store_dir ? c->store_dir : "");
		free(message);
	}
	free(before);
	json_object_put(runs);
	store_free_list(versions, n);
}

static int cmd_update(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct update_opts *a = opts;
	int no_smoke = a->no_smoke;
	struct remote rs;
	struct tb_error e = {0};
	if (remote_open(c, s, &rs, a->dry_run, &e))
		return outcome_fail(o, &e);
	const struct feed_release *r = a->to ? feed_find(&rs.feed, a->to) : feed_newest(&rs.feed, c->cfg.channel);
	struct marks marks;
	marks_load(rs.s, &marks);
	const struct mark *skipped = a->to ? NULL : remember_skips(&marks, r);
	struct lc_view v;
	lc_read(rs.s, &v);
	outcome_str(o, "channel", c->cfg.channel);
	outcome_str(o, "available", r && !skipped ? r->version : "");
	if (a->dry_run)
		outcome_bool(o, "dry_run", 1);
	int stays = update_stays(c, &rs, r, &v, a->to, skipped, &marks, o);
	marks_free(&marks);
	if (stays == 0 && a->dry_run && o->message && strncmp(o->message, "dry run: ", 9)) {
		/* the dry run's answer starts as every dry run's does */
		char *said = o->message;
		o->message = NULL;
		outcome_say(o, "dry run: %s; nothing was changed", said);
		free(said);
	}
	if (stays < 0 && a->dry_run)
		stays = update_plan_say(c, &rs, r, no_smoke, o);
	if (stays >= 0) {
		say_benched_slower(c, rs.s, o);
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
	say_benched_slower(c, rs.s, o);
	remote_end(&rs);
	return TB_OK;
}

static int cmd_update_check(const void *opts, struct outcome *o)
{
	const struct update_opts *a = opts;
	if (a->to && !version_name_ok(a->to))
		return cli_usage(o, "--to takes a version (digits, letters and ._+-, starting with a digit), not \"%.80s\"", a->to);
	return 0;
}

static const struct cli_option update_options[] = {
	CLI_STRING("--to", "VERSION", struct update_opts, to,
		   "install this version of the release list (downloaded when needed), even one the store remembers as gone wrong"),
	CLI_FLAG("--no-smoke", struct update_opts, no_smoke,
		 "skip the smoke tests (as `smoke = off` in mesa.conf)"),
	CLI_DRY_RUN(struct update_opts),
	CLI_END,
};

static const char *const update_synonyms[] = {"upgrade", NULL};

const struct cli_command update_command = {
	.name = "update",
	.args = "[--to VERSION] [--no-smoke] [--dry-run]",
	.summary = "check, download and install when the channel has a newer version",
	.example = "tb323fu-ctl mesa update",
	.synonyms = update_synonyms,
	.options = update_options,
	.opts_size = sizeof(struct update_opts),
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.check = cmd_update_check,
	.run = cmd_update,
};
