/* crashes: the crash evidence of programs on the store's driver (docs/design.md §18), read
 * from the journal with sd-journal; --apply (a writer; what the watcher unit, boot-tick and
 * auto-check run) also applies crash_policy. And what status and doctor say of it. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cmd/crashes.h"
#include "cmd/app_scope.h"
#include "crash/journal.h"
#include "crash/policy.h"
#include "apprules/desktop_programs.h"
#include "crash/record.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "apprules/rules.h"
#include "common/secure_exec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct crashes_opts {
	const char *since; /* --since TIME: @SECONDS, a UTC date and time, or -N[smhd] */
	int apply;         /* --apply: read what is new and apply crash_policy (a writer) */
	int user;          /* --user: the caller's own crashes; with --apply, pinned in the caller's own rules */
};

static void outcome_json(struct outcome *o, const char *key, json_object *value)
{
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, key, value);
}

/* The latest --since accepted: 9999-12-31 23:59:59 UTC, in seconds. */
#define SINCE_MAX_SECONDS 253402300799ULL

/* A count of at most 12 decimal digits and nothing before it (no sign, no space): *n and the
 * first byte after it; NULL when there is none or it is longer. */
static const char *digits(const char *w, unsigned long long *n)
{
	size_t k = 0;
	*n = 0;
	while (w[k] >= '0' && w[k] <= '9' && k < 13)
		*n = *n * 10 + (unsigned long long)(w[k++] - '0');
	return k && k <= 12 ? w + k : NULL;
}

/* --since: @SECONDS, YYYY-MM-DD[ HH:MM[:SS]] (UTC; a T may stand for the space) or -N[smhd]
 * (that long ago), from 1970 to the year 9999. 0 when it reads as none of them. */
static uint64_t since_usec(const char *w)
{
	unsigned long long n;
	const char *end;
	if (w[0] == '@') {
		end = digits(w + 1, &n);
		return end && !*end && n && n <= SINCE_MAX_SECONDS ? (uint64_t)n * 1000000u : 0;
	}
	if (w[0] == '-') {
		end = digits(w + 1, &n);
		unsigned long long unit = !end ? 0 : *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
		time_t now = time(NULL);
		if (!unit || end[1] || n > 36500ULL * 86400 / unit || (unsigned long long)now <= n * unit)
			return 0;
		return ((uint64_t)now - n * unit) * 1000000u;
	}
	static const char *forms[] = {"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
				      "%Y-%m-%dT%H:%M", "%Y-%m-%d"};
	/* strptime would take a sign, spaces, or a year of any length */
	if (!(w[0] >= '0' && w[0] <= '9' && w[1] >= '0' && w[1] <= '9' && w[2] >= '0' && w[2] <= '9' &&
	      w[3] >= '0' && w[3] <= '9' && w[4] == '-'))
		return 0;
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		struct tm tm = {0};
		const char *rest = strptime(w, forms[i], &tm);
		if (rest && (!*rest || !strcmp(rest, "Z"))) {
			time_t t = timegm(&tm);
			return t > 0 && (unsigned long long)t <= SINCE_MAX_SECONDS ? (uint64_t)t * 1000000u : 0;
		}
	}
	return 0;
}

/* The sentence for entries that carry systemd-coredump's MESSAGE_ID without being its. */
static const char *forged_words(int n)
{
	static char buf[300];
	snprintf(buf, sizeof buf, "%d journal entr%s carried systemd-coredump's message id but %s not written by it (forged: another program sent %s): ignored",
		 n, n == 1 ? "y" : "ies", n == 1 ? "was" : "were", n == 1 ? "it" : "them");
	return buf;
}

struct listing {
	struct crash_ctx x;
	json_object *events, *unattributed, *versions;
	struct strbuf lines;
};

static void say_event(struct strbuf *sb, json_object *ev)
{
	const char *app = crash_record_str(ev, "app"), *exe = crash_record_str(ev, "executable");
	const char *obj = crash_record_str(ev, "object"), *v = crash_record_str(ev, "version");
	const char *comm = crash_record_str(ev, "comm");
	char *who = term_text(*app ? app : *exe ? exe : *comm ? comm : "a program", 0);
	char *in = term_text(obj, 0);
	sb_appendf(sb, "%s %s: %s %s%s%s (%s)\n", crash_record_str(ev, "time"),
		   *v ? v : "unattributed", who, crash_record_str(ev, "kind"), *in ? " in " : "", in,
		   crash_record_str(ev, "source"));
	free(in);
	free(who);
}

static void list_one(struct listing *l, const struct crash_event *ev)
{
	json_object *o = crash_event_json(ev);
	if (ev->verdict == CRASH_ATTRIBUTED) {
		json_object_array_add(l->events, o);
		json_object *count;
		int64_t k = json_object_object_get_ex(l->versions, ev->version, &count) ? json_object_get_int64(count) : 0;
		json_object_object_add(l->versions, ev->version, json_object_new_int64(k + 1));
	} else {
		json_object_array_add(l->unattributed, o);
	}
	say_event(&l->lines, o);
}

static void add_record(struct outcome *o, const struct store *s)
{
	json_object *rec = crash_record_load(s, NULL);
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	outcome_json(o, "auto_pins", json_object_get(pins));
	json_object_put(rec);
}

static int crashes_apply(struct cli *c, struct store *s, struct outcome *o)
{
	struct lc_ctx x = {.s = s, .cfg = &c->cfg, .progress = c->progress};
	struct crash_apply_result r;
	struct tb_error e = {0};
	int rc = crash_apply(&x, 0, &r, &e);
	if (rc) {
		crash_apply_result_free(&r);
		return outcome_fail(o, &e);
	}
	struct strbuf sb = {0};
	for (size_t i = 0; i < json_object_array_length(r.events); i++)
		say_event(&sb, json_object_array_get_idx(r.events, i));
	outcome_say(o, "%s%s%d new crash event%s read from the journal (%d attributed to a version of the store)",
		    sb.buf ? sb.buf : "", r.said.buf ? r.said.buf : "", (int)json_object_array_length(r.events),
		    json_object_array_length(r.events) == 1 ? "" : "s", r.attributed);
	if (r.forged)
		outcome_say(o, "%s\n%s", o->message, forged_words(r.forged));
	outcome_json(o, "events", json_object_get(r.events));
	outcome_json(o, "forged", json_object_new_int(r.forged));
	outcome_json(o, "pins", json_object_get(r.pins));
	outcome_str(o, "rolled_back", r.rolled_back);
	outcome_str(o, "rolled_back_reason", r.rolled_back[0] ? CRASH_ROLLBACK_REASON : "");
	add_record(o, s);
	sb_free(&sb);
	crash_apply_result_free(&r);
	return TB_OK;
}

/* --apply --user: the caller's own crashes pin in the caller's own rules. */
static int crashes_apply_user(struct cli *c, struct store *s, struct outcome *o)
{
	struct app_ctx ax;
	struct tb_error e = {0};
	if (app_open(c, s, &ax, 1, 1, &e)) {
		app_ctx_close(&ax);
		return outcome_fail(o, &e);
	}
	struct crash_apply_result r;
	int rc = crash_apply_user(s, &c->cfg, &ax.sc, &r, &e);
	char *path = crash_record_user_path(&ax.sc);
	app_ctx_close(&ax);
	if (rc) {
		free(path);
		crash_apply_result_free(&r);
		return outcome_fail(o, &e);
	}
	struct strbuf sb = {0};
	for (size_t i = 0; i < json_object_array_length(r.events); i++)
		say_event(&sb, json_object_array_get_idx(r.events, i));
	outcome_say(o, "%s%s%d new crash event%s of your own programs read from the journal (%d attributed to a version of the store)%s%s",
		    sb.buf ? sb.buf : "", r.said.buf ? r.said.buf : "", (int)json_object_array_length(r.events),
		    json_object_array_length(r.events) == 1 ? "" : "s", r.attributed, r.forged ? "\n" : "",
		    r.forged ? forged_words(r.forged) : "");
	outcome_json(o, "events", json_object_get(r.events));
	outcome_json(o, "forged", json_object_new_int(r.forged));
	outcome_json(o, "pins", json_object_get(r.pins));
	outcome_str(o, "rolled_back", "");
	outcome_str(o, "rolled_back_reason", "");
	json_object *rec = crash_record_load_at(path, NULL);
	outcome_json(o, "auto_pins", json_object_get(crash_record_member(rec, "auto_pins", json_type_array)));
	json_object_put(rec);
	free(path);
	sb_free(&sb);
	crash_apply_result_free(&r);
	return TB_OK;
}

static int cmd_crashes(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct crashes_opts *a = opts;
	if (a->apply)
		return a->user ? crashes_apply_user(c, s, o) : crashes_apply(c, s, o);
	uint64_t since = 0;
	if (a->since && !(since = since_usec(a->since)))
		return cli_usage(o, "--since \"%.80s\" is not a time between 1970 and 9999: give @SECONDS, 2026-10-06, \"2026-10-06 18:30\" (UTC) or -2h, -3d", a->since);
	struct listing l = {.events = json_object_new_array(), .unattributed = json_object_new_array(),
			    .versions = json_object_new_object()};
	crash_ctx_open(&l.x, s);
	struct tb_error e = {0};
	struct crash_events got = {0};
	/* no journal at all is said as such, never as "no crash is in the journal" */
	int rc = journal_check_readable(&e) ? e.code : crash_collect(&l.x, NULL, since, &got, NULL, &e);
	for (size_t i = 0; !rc && i < got.n; i++)
		if (!a->user || got.v[i].uid == (long)getuid())
			list_one(&l, &got.v[i]);
	int forged = got.forged;
	crash_events_free(&got);
	crash_ctx_close(&l.x);
	if (rc) {
		json_object_put(l.events);
		json_object_put(l.unattributed);
		json_object_put(l.versions);
		sb_free(&l.lines);
		return outcome_fail(o, &e);
	}
	size_t na = json_object_array_length(l.events), nu = json_object_array_length(l.unattributed);
	struct strbuf per = {0};
	json_object_object_foreach(l.versions, ver, count)
		sb_appendf(&per, "%s%" PRId64 " on Mesa %s", per.len ? ", " : "", json_object_get_int64(count), ver);
	if (!na && !nu)
		outcome_say(o, "no crash of a program on the store's driver is in the journal%s", since ? " since then" : "");
	else
		outcome_say(o, "%s%zu crash%s of programs on the store's driver attributed%s%s%s, %zu unattributed (the store's driver by its file's name, the version not known)",
			    l.lines.buf, na, na == 1 ? "" : "es", per.len ? " (" : "", per.len ? per.buf : "",
			    per.len ? ")" : "", nu);
	if (forged)
		outcome_say(o, "%s\n%s", o->message, forged_words(forged));
	outcome_json(o, "events", l.events);
	outcome_json(o, "forged", json_object_new_int(forged));
	outcome_json(o, "unattributed", l.unattributed);
	outcome_json(o, "versions", l.versions);
	add_record(o, s);
	sb_free(&per);
	sb_free(&l.lines);
	return TB_OK;
}

void crashes_after(struct cli *c, struct store *s, struct outcome *o, int boot_tick,
		   struct strbuf *said)
{
	struct lc_ctx x = {.s = s, .cfg = &c->cfg, .progress = c->progress};
	struct crash_apply_result r;
	struct tb_error e = {0};
	json_object *j = json_object_new_object();
	if (crash_apply(&x, boot_tick, &r, &e)) {
		/* the command's own work goes on; the evidence waits for the next run */
		json_object_object_add(j, "error", json_object_new_string(e.msg));
		sb_appendf(said, "crash evidence was not read: %s\n", e.msg);
	} else {
		json_object_object_add(j, "events", json_object_get(r.events));
		json_object_object_add(j, "pins", json_object_get(r.pins));
		json_object_object_add(j, "rolled_back", json_object_new_string(r.rolled_back));
		json_object_object_add(j, "rolled_back_reason",
				       json_object_new_string(r.rolled_back[0] ? CRASH_ROLLBACK_REASON : ""));
		json_object_object_add(j, "kept", json_object_new_string(r.kept));
		if (r.said.len)
			sb_append(said, r.said.buf);
	}
	crash_apply_result_free(&r);
	outcome_json(o, "crashes", j);
}

void crashes_said(struct outcome *o, struct strbuf *said)
{
	if (said->len)
		outcome_say(o, "%s%s%.*s", o->message ? o->message : "", o->message ? "\n" : "",
			    (int)said->len - 1, said->buf);
	sb_free(said);
}

void crashes_summary(const struct store *s, json_object *obj, struct strbuf *lines)
{
	json_object *rec = crash_record_load(s, NULL);
	json_object *events = crash_record_member(rec, "events", json_type_array);
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	struct app_scope sc;
	app_scope_system(&sc, s);
	struct app_rules rules = {0};
	struct tb_error e = {0};
	apprules_load(&sc, &rules, &e);
	tb_error_clear(&e);
	json_object *live = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(pins); i++) {
		json_object *p = json_object_array_get_idx(pins, i);
		const struct app_rule *rule = apprules_find(&rules, crash_record_str(p, "app"));
		/* `app unset` took it away: no longer a pin */
		if (!rule || strcmp(rule->choice, crash_record_str(p, "choice")))
			continue;
		json_object_array_add(live, json_object_get(p));
		const char *ch = crash_record_str(p, "choice");
		char *app = term_text(crash_record_str(p, "app"), 0);
		sb_appendf(lines, "%s is pinned to %s%s after it crashed on Mesa %s (automatic; `tb323fu-ctl mesa app unset %s` undoes it)\n",
			   app, strcmp(ch, "distro") ? "Mesa " : "the distribution's Mesa", strcmp(ch, "distro") ? ch : "",
			   crash_record_str(p, "version"), app);
		free(app);
	}
	size_t n = json_object_array_length(events);
	if (n)
		sb_appendf(lines, "%zu crash%s of programs on the store's driver recorded, the last on Mesa %s (tb323fu-ctl mesa crashes)\n",
			   n, n == 1 ? "" : "es", crash_record_str(json_object_array_get_idx(events, n - 1), "version"));
	if (*crash_record_str(rec, "rolled_back"))
		sb_appendf(lines, "the trial of Mesa %s was ended by crashes of two applications or more\n",
			   crash_record_str(rec, "rolled_back"));
	if (obj) {
		json_object_object_add(obj, "events", json_object_new_int64((int64_t)n));
		json_object_object_add(obj, "auto_pins", live);
		json_object_object_add(obj, "rolled_back", json_object_new_string(crash_record_str(rec, "rolled_back")));
	} else {
		json_object_put(live);
	}
	apprules_free(&rules);
	app_scope_free(&sc);
	json_object_put(rec);
}

void secure_programs_summary(const struct store *s, json_object *arr, struct strbuf *lines)
{
	struct app_scope sc;
	app_scope_system(&sc, s);
	struct desktop_programs d;
	desktop_programs_scan(&sc, &d);
	for (size_t i = 0; i < d.n; i++) {
		int why = d.v[i].program ? secure_exec_file(d.v[i].program, 0) : 0;
		if (!why)
			continue;
		const char *way = (why & SECURE_CAPS)
					  ? "start what it runs through the launcher (for gamescope: `gamescope -- tb323fu-mesa run GAME`), or take the capability away (`setcap -r`) for it to be switched"
					  : "start what it runs through the launcher; it cannot be switched itself";
		char *id = term_text(d.v[i].id, 0), *prog = term_text(d.v[i].program, 0);
		sb_appendf(lines, "%s (%s) has %s: the loaders ignore the store's variables in it (it gets the distribution's Mesa); %s\n",
			   id, prog, secure_exec_words(why), way);
		free(id);
		free(prog);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "app", json_object_new_string(d.v[i].id));
		json_object_object_add(o, "program", json_object_new_string(d.v[i].program));
		json_object_object_add(o, "why", json_object_new_string(secure_exec_words(why)));
		json_object_object_add(o, "way", json_object_new_string(way));
		json_object_array_add(arr, o);
	}
	desktop_programs_free(&d);
	app_scope_free(&sc);
}

static const struct cli_option crashes_options[] = {
	CLI_STRING("--since", "TIME", struct crashes_opts, since,
		   "only events since TIME: @SECONDS, 2026-10-06, \"2026-10-06 18:30\" (UTC), or -2h, -3d"),
	{.name = "--user",
	 .help = "only your own programs' crashes; with --apply, pin them in your own rules (app set --user), not the system's",
	 .kind = OPT_FLAG, .offset = offsetof(struct crashes_opts, user), .writes = -1},
	{.name = "--apply",
	 .help = "read what is new since the last read and apply crash_policy of mesa.conf (the watcher unit runs it)",
	 .kind = OPT_FLAG, .offset = offsetof(struct crashes_opts, apply), .writes = 1},
	CLI_END,
};

const struct cli_command crashes_command = {
	.name = "crashes",
	.args = "[--since TIME] [--apply] [--user]",
	.summary = "crashes and GPU faults of programs on the store's driver, from the journal, per version",
	.example = "tb323fu-ctl mesa crashes --since -1d",
	.options = crashes_options,
	.opts_size = sizeof(struct crashes_opts),
	.open = OPEN_READER,
	.run = cmd_crashes,
};
