/* status: what is installed and switched on (the default command); its JSON keys are
 * docs/design.md §5's, exactly. */
#include "cli/cli.h"
#include "store/layout.h"
#include "cli/command.h"
#include "lifecycle/session_gl.h"
#include "lifecycle/login_reach.h"
#include "cmd/commands.h"
#include "render/cts_say.h"
#include "scope/app_scope.h"
#include "crash/summary.h"
#include "scope/flatpak_scope.h"
#include "lifecycle/lifecycle.h"
#include "helper/takeover.h"
#include "release/feed.h"
#include "render/marks_say.h"
#include "lifecycle/remember.h"
#include "store/manifest.h"
#include "store/running.h"
#include "gputest/bench.h"
#include "gputest/bench_history.h"
#include "gputest/bench_stats.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

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
static char *cached_available(const struct cli *c, const struct store *s, const struct marks *marks)
{
	struct tb_error ignored = {0};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 0, &ignored);
	struct feed f = {0};
	char *v = NULL;
	if (cache && feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK) {
		const struct feed_release *r = feed_newest(&f, c->cfg.channel);
		if (r && !remember_skips(marks, r)) /* one the store remembers is not offered */
			v = xstrdup(r->version);
		feed_free(&f);
	}
	free(cache);
	return v;
}

static const char damaged_state[] =
	"the store's state file is damaged; it is read from the links and env.conf (the session stays as it is) and rebuilt by the next change";


/* The last benchmark of current as its statistics allow: the verdict with its interval, never
 * a bare ratio (docs/design.md §10). */
static void say_bench(struct strbuf *sb, json_object *bench)
{
	json_object *ratio = json_object_object_get(bench, "ratio"), *iv = json_object_object_get(bench, "interval");
	json_object *verdict = json_object_object_get(bench, "verdict");
	const char *command = json_object_get_string(json_object_object_get(bench, "command"));
	if (!command)
		command = "";
	int rounds = json_object_get_int(json_object_object_get(bench, "rounds"));
	/* a record older than rounds_needed: the fewest rounds an interval exists for */
	long need = json_object_get_int64(json_object_object_get(bench, "rounds_needed"));
	if (!need && verdict && !strcmp(json_object_get_string(verdict), "unclear"))
		need = BENCH_MIN_ROUNDS;
	if (!iv && !need)
		need = BENCH_MIN_ROUNDS;
	long need_or_most = need > BENCH_MAX_ROUNDS ? BENCH_MAX_ROUNDS : need;
	if (!ratio || !verdict)
		sb_appendf(sb, "\nits last benchmark (%s) gave no verdict; `tb323fu-ctl mesa bench` measures again", command);
	else if (!iv)
		sb_appendf(sb, "\nits last benchmark: unclear, %.2fx the distribution's Mesa from %d round%s, too few for a 95 %% interval (%s; `tb323fu-ctl mesa bench --rounds %ld` measures again)",
			   json_object_get_double(ratio), rounds, rounds == 1 ? "" : "s", command, need_or_most);
	else if (need)
		sb_appendf(sb, "\nits last benchmark: unclear, %.2fx the distribution's Mesa (95 %% interval %.2fx-%.2fx reaches across the noise floor; %s, %d rounds; `tb323fu-ctl mesa bench --rounds %ld` measures again)",
			   json_object_get_double(ratio), json_object_get_double(json_object_array_get_idx(iv, 0)),
			   json_object_get_double(json_object_array_get_idx(iv, 1)), command, rounds, need_or_most);
	else
		sb_appendf(sb, "\nits last benchmark: %s, %.2fx the distribution's Mesa (95 %% interval %.2fx-%.2fx; %s, %d rounds; `tb323fu-ctl mesa bench` measures again)",
			   json_object_get_string(verdict), json_object_get_double(ratio),
			   json_object_get_double(json_object_array_get_idx(iv, 0)),
			   json_object_get_double(json_object_array_get_idx(iv, 1)), command, rounds);
}

static void status_sentence(struct strbuf *sb, const struct store *s, const struct lc_view *v,
			    const struct manifest *m, const char *avail, int incomplete,
			    const struct running_info *ri, const struct marks *marks)
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
	else if (v->current && v->st.enabled) {
		struct strbuf no_login = {0};
		if (login_reach_say(s, &no_login))
			sb_appendf(sb, "\nit is switched on, but %s", no_login.buf);
		else
			sb_append(sb, "\nit is switched on: programs started from now on use it (in a session started while it was off, from the next login)");
		sb_free(&no_login);
	}
	else if (v->current)
		sb_append(sb, "\nit is used by `tb323fu-mesa run`; switch it on for every program with `tb323fu-ctl mesa on`");
	if (v->current && !v->current_gone && !v->foreign) {
		struct session_gl_view g;
		session_gl_read(s, v, &g);
		sb_append(sb, "\n");
		session_gl_say(&g, v, login_reach(s, &(const char *){NULL}) == LOGIN_READS, sb);
	}
	if (!strcmp(lc_state_name(v), "trial"))
		sb_appendf(sb, "\nit is on trial (%d of %d starts); confirm it with `tb323fu-ctl mesa keep`", v->st.tries, v->st.max);
	json_object *bench = v->current ? bench_summary(s, v->current) : NULL;
	if (bench)
		say_bench(sb, bench);
	json_object_put(bench);
	if (v->previous && v->previous_gone)
		sb_appendf(sb, "\nMesa %s, the previous version, is gone from %s/versions", v->previous, s->root);
	else if (v->previous)
		sb_appendf(sb, "\nMesa %s is kept for `tb323fu-ctl mesa rollback`", v->previous);
	if (v->ready)
		sb_appendf(sb, "\nMesa %s is downloaded, not current yet; make it current with `tb323fu-ctl mesa install %s`", v->ready, v->ready);
	if (avail && (!v->current || version_compare(avail, v->current) > 0) &&
	    (!v->ready || version_compare(avail, v->ready) > 0))
		sb_appendf(sb, "\nMesa %s is available (tb323fu-ctl mesa update)", avail);
	if (v->st.failed && !marks_find(marks, v->st.failed))
		sb_appendf(sb, "\nMesa %s failed: %s", v->st.failed, v->st.failed_reason ? v->st.failed_reason : "");
	marks_say(sb, "\n", marks);
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
	app_rules_summary(s, 1, arr, &lines, &gone);
	if (lines.len)
		sb_appendf(sb, "\napplication rules:\n%s", lines.buf);
	if (gone.len)
		sb_appendf(sb, "\n%.*s", (int)gone.len - 1, gone.buf);
	/* what the crash record says (docs/design.md §18) */
	struct strbuf crashes = {0};
	crash_summary(s, NULL, &crashes);
	if (crashes.len)
		sb_appendf(sb, "\n%.*s", (int)crashes.len - 1, crashes.buf);
	sb_free(&crashes);
	sb_free(&lines);
	sb_free(&gone);
	json_object_put(arr);
}

/* What Flatpak applications can use (docs/design.md §17); the JSON keeps its keys. */
static void status_flatpak(const struct store *s, struct strbuf *sb)
{
	struct strbuf lines = {0}, gone = {0};
	flatpak_summary(s, NULL, &lines, &gone);
	if (lines.len)
		sb_appendf(sb, "\nFlatpak applications can use (app set, or tb323fu-mesa run flatpak run):\n%s", lines.buf);
	if (lines.len) { /* only where there is an export: what the session's starts get */
		struct strbuf one = {0};
		int ours;
		flatpak_session_summary(s, &one, &ours);
		sb_appendf(sb, "\n%s", one.buf);
		sb_free(&one);
	}
	sb_free(&lines);
	sb_free(&gone);
}

static int cmd_status(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct lc_view v;
	lc_read(s, &v);
	struct marks marks;
	marks_load(s, &marks);
	char *avail = cached_available(c, s, &marks);
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
	struct session_gl_view g;
	session_gl_read(s, &v, &g);
	outcome_str(o, "session_gl", session_gl_word(g.gets));
	outcome_str(o, "session_gl_asked", session_gl_word(g.asked));
	outcome_str(o, "trial", v.st.trial);
	outcome_int(o, "tries", v.st.tries);
	outcome_int(o, "max_tries", v.st.trial ? v.st.max : c->cfg.max_tries);
	outcome_str(o, "failed", v.st.failed);
	outcome_str(o, "failed_reason", v.st.failed_reason);
	outcome_str(o, "failed_reason_id",
		    v.st.failed ? (v.st.failed_reason_id ? v.st.failed_reason_id : tb_reason_id(TB_R_FAILED)) : "");
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
	outcome_int(o, "stalled_s", ri.command[0] ? ri.stalled_s : 0);
	outcome_str(o, "message", ri.last_message);
	json_object_object_add(o->fields, "marked", marks_json(&marks));
	/* the last bench of each version the history keeps, release order (docs/design.md §10) */
	json_object *runs = bench_history_load(s), *lines = bench_history_select(runs, NULL, NULL);
	json_object_object_add(o->fields, "last_bench", bench_history_latest(lines));
	json_object_put(lines);
	json_object_put(runs);
	char *cts = store_cts_current(s);
	outcome_str(o, "cts", cts);
	o->fields_only = 1;
	struct strbuf sb = {0};
	status_sentence(&sb, s, &v, have_m ? &m : NULL, avail, incomplete, &ri, &marks);
	status_app_rules(s, &sb);
	status_flatpak(s, &sb);
	if (cts) { /* the suites' binaries, said only where there are some */
		struct strbuf line = {0};
		json_object_put(cts_current_say(s, &line));
		sb_appendf(&sb, "\n%s (the binaries of smoke --suite dEQP-VK and opencl-cts)", line.buf);
		sb_free(&line);
	}
	free(cts);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	running_info_free(&ri);
	if (have_m)
		manifest_free(&m);
	lc_view_free(&v);
	marks_free(&marks);
	free(avail);
	return TB_OK;
}

static const char *const status_synonyms[] = {"info", NULL};

const struct cli_command status_command = {
	.name = "status",
	.args = "",
	.summary = "what is installed and switched on (the default command)",
	.example = "tb323fu-ctl mesa status --json",
	.synonyms = status_synonyms,
	.open = OPEN_READER,
	.run = cmd_status,
};
