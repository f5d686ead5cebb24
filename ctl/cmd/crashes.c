/* crashes: the crash evidence of programs on the store's driver (docs/design.md §18), read
 * from the journal with sd-journal; --apply (a writer; what the watcher unit, boot-tick and
 * auto-check run) also applies crash_policy. And what status and doctor say of it. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
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

/* "auto_pins" of a record (rec, which it frees). */
static void add_record(struct outcome *o, json_object *rec)
{
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	outcome_json(o, "auto_pins", json_object_get(pins));
	json_object_put(rec);
}

/* What --apply read and did: its events a line each, the policy's sentences, the count
 * (whose: "" or " of your own programs"), and the JSON of both kinds of --apply. */
static void say_applied(struct outcome *o, const struct crash_apply_result *r, const char *whose)
{
	struct strbuf sb = {0};
	size_t n = json_object_array_length(r->events);
	for (size_t i = 0; i < n; i++)
		say_event(&sb, json_object_array_get_idx(r->events, i));
	outcome_say(o, "%s%s%d new crash event%s%s read from the journal (%d attributed to a version of the store)%s%s",
		    sb.buf ? sb.buf : "", r->said.buf ? r->said.buf : "", (int)n, n == 1 ? "" : "s", whose,
		    r->attributed, r->forged ? "\n" : "", r->forged ? forged_words(r->forged) : "");
	outcome_json(o, "events", json_object_get(r->events));
	outcome_json(o, "forged", json_object_new_int(r->forged));
	outcome_json(o, "pins", json_object_get(r->pins));
	sb_free(&sb);
}

static int crashes_apply(struct cli *c, struct store *s, struct outcome *o)
{
	struct lc_ctx x = {.s = s, .cfg = &c->cfg, .progress = c->progress};
	struct crash_apply_result r;
	struct tb_error e = {0};
	int rc = crash_apply(&x, 0, &r, &e);
	if (!rc) {
		say_applied(o, &r, "");
		outcome_str(o, "rolled_back", r.rolled_back);
		outcome_str(o, "rolled_back_reason", r.rolled_back[0] ? CRASH_ROLLBACK_REASON : "");
		add_record(o, crash_record_load(s, NULL));
	}
	crash_apply_result_free(&r);
	return rc ? outcome_fail(o, &e) : TB_OK;
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
	if (!rc) {
		say_applied(o, &r, " of your own programs");
		outcome_str(o, "rolled_back", "");
		outcome_str(o, "rolled_back_reason", "");
		add_record(o, crash_record_load_at(path, NULL));
	}
	free(path);
	crash_apply_result_free(&r);
	return rc ? outcome_fail(o, &e) : TB_OK;
}

static int cmd_crashes(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct crashes_opts *a = opts;
	if (a->apply)
		return a->user ? crashes_apply_user(c, s, o) : crashes_apply(c, s, o);
	uint64_t since = 0;
	if (a->since && !(since = journal_since_usec(a->since)))
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
	add_record(o, crash_record_load(s, NULL));
	sb_free(&per);
	sb_free(&l.lines);
	return TB_OK;
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
