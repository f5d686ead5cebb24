/* The commands that work on the store alone: status, list, install, install-local, on, off,
 * keep, rollback, boot-tick, remove, verify. Each calls the engine on the store it is given
 * and reports. */
#include "ops/acquire.h"
#include "trial/bench.h"
#include "cli/cli.h"
#include "cli/cli_state_first.h"
#include "release/elfcheck.h"
#include "release/feed.h"
#include "ops/lifecycle.h"
#include "ops/desktop_override.h"
#include "ops/login_reach.h"
#include "ops/repair.h"
#include "store/manifest.h"
#include "release/release.h"
#include "store/running.h"
#include "ops/takeover.h"
#include "trial/smoke_run.h"
#include "trial/suite_piglit.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A git commit id shortened as git does; anything else (a tag, a version) as it is. */
static const char *short_commit(const char *c, char *buf, size_t n)
{
	size_t len = strlen(c);
	if (len < 12 || strspn(c, "0123456789abcdef") != len)
		return c;
	snprintf(buf, n, "%.7s", c);
	return buf;
}

/* What the channel offers, as the last `check` saw it (no network here). */
static char *cached_available(const struct cli *c, const struct store *s)
{
	char *cache = store_path(s, STORE_CACHE_DIR);
	struct feed f = {0};
	struct tb_error ignored = {0};
	char *v = NULL;
	if (feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK) {
		const struct feed_release *r = feed_newest(&f, c->cfg.channel);
		if (r)
			v = xstrdup(r->version);
		feed_free(&f);
	}
	free(cache);
	return v;
}

static const char damaged_state[] =
	"the store's state file is damaged; it is read from the links and env.conf (the session stays as it is) and rebuilt by the next change";

/* A writer that rebuilt a damaged state says so after its own sentence. */
static void say_repaired(struct outcome *o, const struct lc_result *r)
{
	if (r->state_repaired && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nthe store's state file was damaged; it was rebuilt from the links and env.conf", m);
		free(m);
	}
	if (r->replaced[0] && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nwarning: %s stood where the store keeps its own file; the link was replaced by the file (what it pointed at was not changed)",
			    m, r->replaced);
		free(m);
	}
	if (r->used_reserve && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nthe disk is full: this used the store's last reserve; free some space (partial downloads in cache/, versions not in use)", m);
		free(m);
	}
}

static void status_sentence(struct strbuf *sb, const struct store *s, const struct lc_view *v,
			    const struct manifest *m, const char *avail, int incomplete,
			    const struct running_info *ri)
{
	char sc[16];
	/* the first line says on, off or trial, as systemctl status's first line says active */
	const char *session = lc_session_word(v);
	if (v->current && !v->current_gone && !v->foreign && !strcmp(session, "trial"))
		sb_appendf(sb, "Mesa %s: on, on trial (%d of %d starts)\n", v->current, v->st.tries, v->st.max);
	else if (v->current && !v->current_gone && !v->foreign)
		sb_appendf(sb, "Mesa %s: %s\n", v->current,
			   v->st.enabled ? "on" : "off (programs use the distribution's Mesa)");
	else if (!v->st.enabled)
		sb_append(sb, "off: programs use the distribution's Mesa\n");
	if (v->current_gone || v->foreign) {
		sb_append(sb, "no usable Mesa version is current: ");
		lc_gone_advice(s, v, sb);
	} else if (v->current) {
		sb_appendf(sb, "Mesa %s is current (%s", v->current, cli_drivers_text(m));
		if (m && m->mesa_version)
			sb_appendf(sb, ", Mesa %s", m->mesa_version);
		if (m && m->base)
			sb_appendf(sb, ", based on upstream %s", short_commit(m->base, sc, sizeof sc));
		sb_append(sb, ")");
	} else
		sb_append(sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	if (v->current_gone || v->foreign)
		; /* said above */
	else if (v->current && v->st.enabled)
		sb_append(sb, "\nit is switched on: programs started from now on use it (in a session started while it was off, from the next login)");
	else if (v->current)
		sb_append(sb, "\nit is used by `tb323fu-mesa run`; switch it on for every program with `tb323fu-ctl mesa on`");
	if (!strcmp(lc_state_name(v), "trial"))
		sb_appendf(sb, "\nit is on trial (%d of %d starts); confirm it with `tb323fu-ctl mesa keep`", v->st.tries, v->st.max);
	json_object *bench = v->current ? bench_summary(s, v->current) : NULL;
	json_object *ratio = bench ? json_object_object_get(bench, "ratio") : NULL;
	if (ratio)
		sb_appendf(sb, "\nits last benchmark: %.2fx the distribution's Mesa (%s, %d rounds; `tb323fu-ctl mesa bench` measures again)",
			   json_object_get_double(ratio),
			   json_object_get_string(json_object_object_get(bench, "command")),
			   json_object_get_int(json_object_object_get(bench, "rounds")));
	json_object_put(bench);
	if (v->previous && v->previous_gone)
		sb_appendf(sb, "\nMesa %s, the previous version, is gone from %s/versions", v->previous, s->root);
	else if (v->previous)
		sb_appendf(sb, "\nMesa %s is kept for `tb323fu-ctl mesa rollback`", v->previous);
	if (v->ready)
		sb_appendf(sb, "\nMesa %s is installed, not current; make it current with `tb323fu-ctl mesa install %s`", v->ready, v->ready);
	if (avail && (!v->current || version_compare(avail, v->current) > 0) &&
	    (!v->ready || version_compare(avail, v->ready) > 0))
		sb_appendf(sb, "\nMesa %s is available (tb323fu-ctl mesa update)", avail);
	if (v->st.failed)
		sb_appendf(sb, "\nMesa %s failed: %s", v->st.failed, v->st.failed_reason ? v->st.failed_reason : "");
	if (v->state_damaged)
		sb_appendf(sb, "\n%s", damaged_state);
	if (incomplete)
		sb_append(sb, "\nthe store was made by the Open Device Helper and still needs our files; any writing command adds them (tb323fu-ctl mesa takeover)");
	if (ri->command[0])
		sb_appendf(sb, "\n%s is running (%s, %d %%)", ri->command, ri->step, ri->percent);
}

/* The application rules for people (docs/design.md §16); status's JSON keeps its keys. */
static void status_app_rules(const struct store *s, struct strbuf *sb)
{
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	app_rules_summary(s, arr, &lines, &gone);
	if (lines.len)
		sb_appendf(sb, "\napplication rules:\n%s", lines.buf);
	if (gone.len)
		sb_appendf(sb, "\n%.*s", (int)gone.len - 1, gone.buf);
	sb_free(&lines);
	sb_free(&gone);
	json_object_put(arr);
}

COMMAND(status)
{
	(void)opts;
	struct lc_view v;
	lc_read(s, &v);
	char *avail = cached_available(c, s);
	struct manifest m;
	int have_m = 0;
	if (v.current) {
		struct tb_error ignored = {0};
		have_m = store_load_manifest(s, v.current, &m, &ignored) == TB_OK;
	}
	outcome_str(o, "installed", v.current);
	outcome_str(o, "previous", v.previous);
	outcome_str(o, "available", avail);
	outcome_str(o, "downloaded", v.ready); /* the helper's name for ready (docs/design.md §5) */
	outcome_str(o, "ready", v.ready);
	outcome_str(o, "session", lc_session_word(&v));
	outcome_bool(o, "enabled", v.st.enabled);
	outcome_str(o, "trial", v.st.trial);
	outcome_int(o, "tries", v.st.tries);
	outcome_int(o, "max_tries", v.st.trial ? v.st.max : c->cfg.max_tries);
	outcome_str(o, "failed", v.st.failed);
	outcome_str(o, "failed_reason", v.st.failed_reason);
	outcome_str(o, "failed_reason_id",
		    v.st.failed ? (v.st.failed_reason_id ? v.st.failed_reason_id : "failed") : "");
	json_object_object_add(o->fields, "drivers", cli_drivers_array(have_m ? &m : NULL));
	outcome_str(o, "base", have_m ? m.base : "");
	outcome_str(o, "mesa_version", have_m ? m.mesa_version : "");
	struct running_info ri;
	running_read(s->root, &ri);
	/* a running writer's step first, whoever started it (docs/design.md §13) */
	outcome_str(o, "state", ri.command[0] ? ri.step : lc_state_name(&v));
	outcome_str(o, "store", s->root);
	int incomplete = takeover_needed(s);
	outcome_bool(o, "takeover_needed", incomplete > 0);
	outcome_str(o, "op", ri.command);
	outcome_int(o, "progress", ri.command[0] ? ri.percent : 0);
	outcome_str(o, "message", ri.last_message);
	o->fields_only = 1;
	struct strbuf sb = {0};
	status_sentence(&sb, s, &v, have_m ? &m : NULL, avail, incomplete, &ri);
	status_app_rules(s, &sb);
	{ /* Flatpak applications (docs/design.md §17); the JSON keeps its keys */
		struct strbuf fl = {0}, fg = {0};
		flatpak_summary(s, NULL, &fl, &fg);
		if (fl.len)
			sb_appendf(&sb, "\nFlatpak applications can use (app set, or tb323fu-mesa run flatpak run):\n%s", fl.buf);
		sb_free(&fl);
		sb_free(&fg);
	}
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	running_info_free(&ri);
	if (have_m)
		manifest_free(&m);
	lc_view_free(&v);
	free(avail);
	return TB_OK;
}

COMMAND(list)
{
	(void)opts;
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s), *prev = store_previous(s);
	struct state st;
	state_load(s, &st); /* a damaged one reads as off: the markers only */
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++) {
		const char *v = list[i];
		struct manifest m;
		struct tb_error ignored = {0};
		int have_m = store_load_manifest(s, v, &m, &ignored) == TB_OK;
		int is_cur = cur && !strcmp(v, cur), is_prev = prev && !strcmp(v, prev);
		uint64_t bytes = store_version_bytes(s, v);
		const char *smoke = smoke_last_result(s, v);
		json_object *item = json_object_new_object();
		json_object_object_add(item, "version", json_object_new_string(v));
		json_object_object_add(item, "current", json_object_new_boolean(is_cur));
		json_object_object_add(item, "previous", json_object_new_boolean(is_prev));
		json_object_object_add(item, "drivers", cli_drivers_array(have_m ? &m : NULL));
		json_object_object_add(item, "mesa_version", json_object_new_string(have_m && m.mesa_version ? m.mesa_version : ""));
		json_object_object_add(item, "bytes", json_object_new_int64((int64_t)bytes));
		json_object_object_add(item, "smoke", json_object_new_string(smoke));
		const char *suite = suite_last_result(s, v);
		json_object_object_add(item, "suite", json_object_new_string(suite));
		json_object_object_add(item, "bench", bench_summary(s, v));
		json_object_array_add(arr, item);
		/* what the version is, in status's words: current (on, on trial), previous, pinned */
		char *pin = apprules_pinning(s, v);
		char role[64];
		snprintf(role, sizeof role, "%s%s%s", is_cur ? "current" : is_prev ? "previous" : "-",
			 is_cur && st.enabled ? (st.trial && !strcmp(st.trial, v) ? ", on trial" : ", on") : "",
			 pin ? ", pinned" : "");
		free(pin);
		if (!i)
			sb_appendf(&sb, "%-16s %-20s %-16s %-24s %10s  %-5s  %s\n", "VERSION", "USE", "DRIVERS",
				   "MESA", "SIZE", "SMOKE", "SUITE");
		sb_appendf(&sb, "%s%-16s %-20s %-16s %-24s %6.1f MiB  %-5s  %s", i ? "\n" : "", v, role,
			   cli_drivers_text(have_m ? &m : NULL), have_m && m.mesa_version ? m.mesa_version : "",
			   (double)bytes / 1048576.0, smoke, suite);
		if (have_m)
			manifest_free(&m);
	}
	if (!n)
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "versions", arr);
	o->fields_only = 1;
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(cur);
	free(prev);
	state_free(&st);
	store_free_list(list, n);
	return TB_OK;
}

/* The engine's context for this command's store. */
static struct lc_ctx ctx_of(struct cli *c, struct store *s)
{
	return (struct lc_ctx){.s = s, .cfg = &c->cfg, .progress = c->progress};
}

static int install_and_say(struct cli *c, struct store *s, const char *v, int no_smoke,
			   struct outcome *o)
{
	struct lc_ctx x = ctx_of(c, s);
	int smoke = !no_smoke && c->cfg.smoke;
	struct smoke_outcome sm;
	struct lc_result r;
	struct tb_error e = {0};
	int rc = lc_install(&x, v, smoke, &sm, &r, &e);
	if (rc) {
		outcome_str(o, "version", v);
		return outcome_fail(o, &e);
	}
	if (r.unchanged) {
		cli_say_already_current(o, v);
		return TB_OK;
	}
	outcome_installed(o, s, v, smoke ? &sm : NULL, &r, c->cfg.keep_versions);
	say_repaired(o, &r);
	return TB_OK;
}

static int install_plan_say(struct cli *c, struct store *s, const char *v, int no_smoke,
			    struct outcome *o)
{
	struct lc_ctx x = ctx_of(c, s);
	struct lc_plan p;
	struct tb_error e = {0};
	if (lc_plan_install(&x, v, &p, &e)) {
		outcome_str(o, "version", v);
		return outcome_fail(o, &e);
	}
	outcome_install_plan(o, "install", &p, !no_smoke && c->cfg.smoke, c->cfg.keep_versions);
	return TB_OK;
}

COMMAND(install)
{
	const struct opts_install *a = opts;
	const char *version = a->version;
	struct tb_error e = {0};
	struct lc_view v;
	lc_read(s, &v);
	const char *chosen = version ? version : v.ready;
	int rc;
	if (!chosen)
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "no downloaded version waits for install (tb323fu-ctl mesa download, or update)"), outcome_fail(o, &e);
	else if (!store_has_version(s, chosen))
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "Mesa %s is not downloaded (tb323fu-ctl mesa download %s)", chosen, chosen), outcome_fail(o, &e);
	else if (release_verify_installed(s, chosen, &e))
		rc = outcome_fail(o, &e);
	else if (a->dry_run)
		rc = install_plan_say(c, s, chosen, a->no_smoke, o);
	else
		rc = install_and_say(c, s, chosen, a->no_smoke, o);
	lc_view_free(&v);
	return rc;
}

/* install-local of a version already in the store repairs it (when damaged) and does not
 * switch to it: the tarball of an older version is how its damage is undone. */
static void say_present(struct outcome *o, const struct store *s, const char *v,
			enum release_placed placed)
{
	char *cur = store_current(s);
	int is_cur = cur && !strcmp(cur, v);
	outcome_str(o, "version", v);
	outcome_bool(o, "repaired", placed == RELEASE_REPAIRED);
	outcome_bool(o, "switched", 0);
	const char *what = placed == RELEASE_REPAIRED
				   ? "was damaged and is whole again (checked against the tarball)"
				   : "was already installed and is whole (nothing was changed)";
	if (is_cur)
		outcome_say(o, "Mesa %s %s; it is the current version", v, what);
	else
		outcome_say(o, "Mesa %s %s; it stays installed, not current%s%s%s; make it current with `tb323fu-ctl mesa install %s`",
			    v, what, cur ? " (Mesa " : "", cur ? cur : "", cur ? " is current)" : "", v);
	free(cur);
}

COMMAND(install_local)
{
	const struct opts_install_local *a = opts;
	enum release_placed placed = RELEASE_NEW;
	struct acquire_local_req q = {.file = a->file, .sums = a->sums, .sig = a->sig, .placed = &placed};
	struct tb_error e = {0};
	char *version = NULL;
	int rc = acquire_local(&c->cfg, s, &q, c->progress, &version, &e);
	if (rc)
		outcome_fail(o, &e);
	else if (placed != RELEASE_NEW)
		say_present(o, s, version, placed);
	else
		rc = install_and_say(c, s, version, a->no_smoke, o);
	free(version);
	return rc;
}

/* on, off, keep, rollback, boot-tick: open, one transition, report. */
typedef int (*transition_fn)(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);

static int transition(struct cli *c, transition_fn fn, struct lc_result *r, struct store *s,
		      struct outcome *o)
{
	struct tb_error e = {0};
	struct lc_ctx x = ctx_of(c, s);
	if (fn(&x, r, &e))
		return outcome_fail(o, &e);
	if (r->version[0])
		outcome_str(o, "version", r->version);
	return TB_OK;
}

COMMAND(on)
{
	(void)opts;
	struct lc_result r;
	if (transition(c, lc_on, &r, s, o))
		return o->code;
	if (r.unchanged) {
		cli_say_already_on(o, s, r.version);
		return TB_OK;
	}
	const char *link;
	enum login_reach reach = login_reach(s, &link);
	outcome_bool(o, "logins_read_store", reach == LOGIN_READS);
	struct strbuf sb = {0};
	if (reach == LOGIN_READS)
		sb_appendf(&sb, "Mesa %s is switched on for every program from the next login", r.version);
	else
		/* the switch is in the store, but nothing carries it into a login: say so now,
		 * not only in doctor */
		sb_appendf(&sb, "Mesa %s is switched on in the store %s, but no login reads that store (%s %s), "
			   "so programs keep the distribution's Mesa; start one with `tb323fu-mesa --store %s run PROGRAM`, "
			   "or use the store the session files name (reinstalling tb323fu-mesa puts them back for %s)",
			   r.version, s->root, link,
			   reach == LOGIN_NO_LINK ? "is missing" : "leads to another store's env.conf", s->root,
			   STORE_DEFAULT_ROOT);
	if (r.trial)
		sb_appendf(&sb, "; it is on trial for %d starts until `tb323fu-ctl mesa keep`", r.max);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	say_repaired(o, &r);
	return TB_OK;
}

COMMAND(off)
{
	(void)opts;
	struct lc_result r;
	if (transition(c, lc_off, &r, s, o))
		return o->code;
	if (r.unchanged)
		cli_say_already_off(o);
	else if (r.current_gone)
		outcome_say(o, "the distribution's Mesa is used from the next login; Mesa %s, the current version, is gone from %s/versions (`tb323fu-ctl mesa status` says what to do)",
			    r.version, s->root);
	else
		outcome_say(o, "the distribution's Mesa is used from the next login");
	say_repaired(o, &r);
	return TB_OK;
}

COMMAND(keep)
{
	(void)opts;
	struct lc_result r;
	if (transition(c, lc_keep, &r, s, o))
		return o->code;
	outcome_str(o, "version", r.version);
	if (r.version[0])
		outcome_say(o, "Mesa %s confirmed; it stays on", r.version);
	else
		outcome_say(o, "nothing to keep: no Mesa version is on trial");
	say_repaired(o, &r);
	return TB_OK;
}

static int rollback_plan_say(struct cli *c, struct store *s, struct outcome *o)
{
	struct lc_ctx x = ctx_of(c, s);
	struct lc_plan p;
	struct tb_error e = {0};
	if (lc_plan_rollback(&x, &p, &e))
		return outcome_fail(o, &e);
	char said[400];
	snprintf(said, sizeof said, "`rollback` would make Mesa %s current again%s%s%s%s", p.version,
		 p.trial ? " (the session is on: on trial until `tb323fu-ctl mesa keep`)" : "",
		 p.previous[0] ? " and keep Mesa " : "", p.previous, p.previous[0] ? " as previous" : "");
	outcome_dry_run(o, &p, said);
	return TB_OK;
}

COMMAND(rollback)
{
	if (((const struct opts_version *)opts)->dry_run)
		return rollback_plan_say(c, s, o);
	struct lc_result r;
	if (transition(c, lc_rollback, &r, s, o))
		return o->code;
	outcome_str(o, "previous", r.other);
	if (r.trial)
		outcome_say(o, "Mesa %s is current again (programs started from now on use it, on trial for %d starts until `tb323fu-ctl mesa keep`); Mesa %s is kept as previous",
			    r.version, r.max, r.other);
	else if (r.enabled)
		outcome_say(o, "Mesa %s is current again (new programs use it now); Mesa %s is kept as previous", r.version, r.other);
	else
		outcome_say(o, "Mesa %s is current again (for `tb323fu-mesa run`; the session stays on the distribution's Mesa until `tb323fu-ctl mesa on`); Mesa %s is kept as previous",
			    r.version, r.other);
	say_repaired(o, &r);
	return TB_OK;
}

static int boot_tick_now(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	return lc_boot_tick(c, NULL, r, e);
}

COMMAND(boot_tick)
{
	(void)opts;
	struct lc_result r;
	if (transition(c, boot_tick_now, &r, s, o))
		return o->code;
	if (r.switched_off && r.current_gone == 2) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "the store's link current points at %s, outside versions/; the session was switched to the distribution's Mesa (see `tb323fu-ctl mesa status`)",
			    r.version);
	} else if (r.switched_off && r.current_gone) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "Mesa %s, the current version, is gone from %s/versions; the session was switched to the distribution's Mesa (see `tb323fu-ctl mesa status`)",
			    r.version, s->root);
	} else if (r.switched_off) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "Mesa %s was not confirmed with `tb323fu-ctl mesa keep` after %d starts; the distribution's Mesa is used from now on",
			    r.version, r.max);
	} else if (r.counted) {
		outcome_int(o, "tries", r.tries);
		outcome_say(o, "start %d of %d of Mesa %s on trial; confirm it with `tb323fu-ctl mesa keep`", r.tries, r.max, r.version);
	} else if (r.enabled && r.trial) {
		outcome_say(o, "this start of Mesa %s is already counted (%d of %d)", r.version, r.tries, r.max);
	} else {
		outcome_say(o, "no Mesa version is on trial");
	}
	say_repaired(o, &r);
	return TB_OK;
}

COMMAND(remove)
{
	const struct opts_version *a = opts;
	const char *v = a->version;
	struct tb_error e = {0};
	struct lc_ctx x = ctx_of(c, s);
	if (a->dry_run) {
		struct lc_plan p;
		if (lc_plan_remove(&x, v, &p, &e))
			return outcome_fail(o, &e);
		char said[200];
		snprintf(said, sizeof said, "`remove` would remove Mesa %s (its files, ICD and env files)", v);
		outcome_dry_run(o, &p, said);
		return TB_OK;
	}
	struct lc_result r;
	int rc = lc_remove(&x, v, &r, &e);
	if (rc)
		outcome_fail(o, &e);
	else {
		outcome_str(o, "version", v);
		outcome_say(o, "Mesa %s removed", v);
		say_repaired(o, &r);
	}
	return rc;
}

/* Whether the cached release list offers v: then `verify --repair` can fetch it anew. */
static int offered(const struct cli *c, const struct store *s, const char *v)
{
	char *cache = store_path(s, STORE_CACHE_DIR);
	struct feed f;
	struct tb_error ignored = {0};
	int yes = feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK;
	if (yes) {
		yes = feed_find(&f, v) != NULL;
		feed_free(&f);
	}
	free(cache);
	return yes;
}

/* Re-hashes a tree and re-runs the ELF checks on it; a damage is said with the repair that
 * works for that version. */
static int verify_tree(const struct cli *c, struct store *s, const char *v, struct tb_error *e)
{
	int rc = offered(c, s, v) ? release_verify_installed(s, v, e) : release_verify_offline(s, v, e);
	if (!rc) {
		char *tree = store_version_dir(s, v);
		struct manifest m;
		rc = manifest_load(tree, &m, e);
		if (!rc) {
			struct elf_report r;
			rc = elf_check_tree(tree, &m, &r, e);
			manifest_free(&m);
		}
		free(tree);
	}
	return rc;
}

static int repair_and_say(struct cli *c, struct store *s, const char *v, struct outcome *o)
{
	struct tb_error e = {0};
	if (repair_from_source(&c->cfg, s, v, c->progress, &e))
		return outcome_fail(o, &e);
	outcome_bool(o, "repaired", 1);
	outcome_say(o, "Mesa %s was damaged and is whole again (fetched and checked anew)", v);
	return TB_OK;
}

COMMAND(verify)
{
	const struct opts_verify *a = opts;
	const char *want = a->version;
	struct tb_error e = {0};
	char *v = want ? xstrdup(want) : store_current(s);
	int rc;
	if (!v)
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "no Mesa version installed (tb323fu-ctl mesa update)");
	else
		rc = verify_tree(c, s, v, &e);
	if (v)
		outcome_str(o, "version", v);
	if (rc && a->repair && v && rc == TB_EVERIFY)
		rc = repair_and_say(c, s, v, o);
	else if (rc)
		outcome_fail(o, &e);
	else
		outcome_say(o, "Mesa %s is intact: every file matches its MANIFEST", v);
	free(v);
	return rc;
}
