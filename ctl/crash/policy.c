/* The crash policy: reading the journal from the record's cursor, pins and rollbacks. */
#include "crash/policy.h"
#include "lifecycle/remember.h"
#include "apprules/desktop_find.h"
#include "apprules/override_files.h"
#include "apprules/rules.h"
#include "crash/record.h"
#include "base/alloc.h"
#include "base/programs.h"
#include "common/storelayout.h"
#include "gputest/seat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


json_object *crash_event_json(const struct crash_event *ev)
{
	json_object *o = json_object_new_object();
	char when[40];
	time_t t = (time_t)(ev->usec / 1000000u);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "version", json_object_new_string(ev->version));
	json_object_object_add(o, "attributed", json_object_new_boolean(ev->verdict == CRASH_ATTRIBUTED));
	json_object_object_add(o, "executable", json_object_new_string(ev->exe));
	json_object_object_add(o, "app", json_object_new_string(ev->app));
	json_object_object_add(o, "kind", json_object_new_string(ev->kind));
	json_object_object_add(o, "source", json_object_new_string(ev->source));
	json_object_object_add(o, "how", json_object_new_string(ev->how));
	json_object_object_add(o, "object", json_object_new_string(ev->object));
	json_object_object_add(o, "pid", json_object_new_int64(ev->pid));
	json_object_object_add(o, "uid", json_object_new_int64(ev->uid));
	json_object_object_add(o, "comm", json_object_new_string(ev->comm));
	json_object_object_add(o, "time", json_object_new_string(when));
	json_object_object_add(o, "usec", json_object_new_int64((int64_t)ev->usec));
	json_object_object_add(o, "cursor", json_object_new_string(ev->cursor));
	return o;
}

void crash_apply_result_free(struct crash_apply_result *r)
{
	json_object_put(r->events);
	json_object_put(r->pins);
	sb_free(&r->said);
}

static int array_has(json_object *arr, const char *key, const char *value)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *it = json_object_array_get_idx(arr, i);
		if (json_object_is_type(it, json_type_string) ? !strcmp(json_object_get_string(it), value)
		    : !strcmp(crash_record_str(it, key), value))
			return 1;
	}
	return 0;
}

/* Pins app to choice with a system rule (its entry first, then the rule, as app set does).
 * An application that has a rule already keeps it: 0 and nothing done. */
static int pin_in(const struct store *s, const struct app_scope *scope, const char *app,
		  const char *choice, struct tb_error *e)
{
	const struct app_scope sc = *scope;
	struct app_rules r = {0};
	int rc = apprules_load(&sc, &r, e) ? -1 : 0;
	char *orig = NULL, *launcher = NULL;
	if (!rc && apprules_find(&r, app))
		rc = 1;
	if (!rc && !(orig = desktop_original(&sc, app)))
		rc = tb_fail(e, TB_R_APP_NOT_FOUND, "no desktop entry %s is installed", app);
	if (!rc && !(launcher = find_launcher_program()))
		rc = tb_fail(e, TB_R_PROGRAM_MISSING, "the launcher tb323fu-mesa is not installed beside tb323fu-ctl; reinstall tb323fu-mesa");
	if (!rc) {
		struct override_spec spec = {
			.launcher = launcher,
			.store = strcmp(s->root, STORE_DEFAULT_ROOT) ? s->root : NULL,
			.choice = choice,
		};
		rc = override_write(&sc, app, orig, &spec, e);
		if (!rc) {
			apprules_set(&r, app, choice);
			if ((rc = apprules_save(&sc, &r, e))) {
				struct tb_error ignored = {0};
				override_remove(&sc, app, &ignored);
			}
		}
	}
	free(orig);
	free(launcher);
	apprules_free(&r);
	return rc;
}

/* What the record says the trial of version has seen: its list of applications, reset when
 * another version went on trial. */
static json_object *trial_apps(json_object *rec, const char *version)
{
	json_object *t = crash_record_member(rec, "trial", json_type_object);
	if (strcmp(crash_record_str(t, "version"), version)) {
		json_object_object_add(t, "version", json_object_new_string(version));
		json_object_object_add(t, "apps", json_object_new_array());
	}
	return crash_record_member(t, "apps", json_type_array);
}

/* The policy's pin of an event's application in scope (the system's rules, or the caller's
 * own), recorded in pins and said in r. */
static void pin_event(const struct store *s, const struct app_scope *sc, const char *policy,
		      const struct lc_view *v, json_object *pins, const struct crash_event *ev,
		      struct crash_apply_result *r)
{
	int on_trial = v->st.enabled && v->st.trial && !strcmp(v->st.trial, ev->version);
	int may_pin = !strcmp(policy, "pin-always") ? v->current && !strcmp(v->current, ev->version)
		      : !strcmp(policy, "pin") && on_trial;
	if (!may_pin || !ev->app[0] || array_has(pins, "cursor", ev->cursor))
		return;
	const char *choice = v->previous && strcmp(v->previous, ev->version) && !v->previous_gone ? v->previous : "distro";
	struct tb_error e = {0};
	int rc = pin_in(s, sc, ev->app, choice, &e);
	if (rc < 0) {
		sb_appendf(&r->said, "%s crashed on Mesa %s, but it could not be pinned: %s\n", ev->app, ev->version, e.msg);
		tb_error_clear(&e);
		return;
	}
	if (rc > 0)
		return; /* a rule of its own already decides */
	json_object *p = json_object_new_object();
	json_object_object_add(p, "app", json_object_new_string(ev->app));
	json_object_object_add(p, "choice", json_object_new_string(choice));
	json_object_object_add(p, "version", json_object_new_string(ev->version));
	json_object_object_add(p, "cursor", json_object_new_string(ev->cursor));
	json_object_object_add(p, "usec", json_object_new_int64((int64_t)ev->usec));
	json_object_object_add(p, "reason", json_object_new_string(CRASH_PIN_REASON));
	json_object_array_add(pins, json_object_get(p));
	json_object_array_add(r->pins, p);
	const char *user = sc->user ? " --user" : "";
	if (!strcmp(choice, "distro"))
		sb_appendf(&r->said, "%s crashed on Mesa %s (%s): it starts with the distribution's Mesa from now on (`tb323fu-ctl mesa app unset%s %s` undoes it)\n",
			  ev->app, ev->version, ev->kind, user, ev->app);
	else
		sb_appendf(&r->said, "%s crashed on Mesa %s (%s): it starts with Mesa %s from now on (`tb323fu-ctl mesa app unset%s %s` undoes it)\n",
			  ev->app, ev->version, ev->kind, choice, user, ev->app);
}

/* What decides whether an event may act (docs/design.md §18, "Whose crash counts"). */
struct weigh {
	uint64_t floor; /* an event before it acts on nothing: the trial's start, a damaged record's last write */
	long seat_uid;  /* the user of seat0's active session, -1 when none; -2: not asked yet */
};

/* The seat's user, asked of logind only when a user's crash needs it. */
static long seat_user(struct weigh *w)
{
	if (w->seat_uid == -2)
		w->seat_uid = seat_active_uid();
	return w->seat_uid;
}

static void act_on(const struct lc_ctx *c, const struct lc_view *v, json_object *rec,
		   const struct crash_event *ev, struct weigh *w, struct crash_apply_result *r)
{
	const char *policy = c->cfg->crash_policy ? c->cfg->crash_policy : "pin";
	/* a kernel line does not say whose process it was; before the floor, the event may
	 * belong to another trial or have been acted on already */
	if (ev->uid < 0 || ev->usec < w->floor) {
		r->not_counted++;
		return;
	}
	int on_trial = v->st.enabled && v->st.trial && !strcmp(v->st.trial, ev->version);
	int desktop = ev->uid == 0 || (on_trial && seat_user(w) > 0 && ev->uid == seat_user(w));
	if (on_trial && ev->key[0] && desktop) {
		json_object *apps = trial_apps(rec, ev->version);
		if (!array_has(apps, NULL, ev->key))
			json_object_array_add(apps, json_object_new_string(ev->key));
	}
	if (ev->uid != 0) {
		/* a user's crash pins in that user's own rules, never in the system's */
		if (ev->app[0] && (on_trial || !strcmp(policy, "pin-always")) && strcmp(policy, "report"))
			sb_appendf(&r->said, "%s crashed on Mesa %s as user %ld: it is pinned in that user's own rules only, when they run `tb323fu-ctl mesa crashes --apply --user`\n",
				   ev->app, ev->version, ev->uid);
		return;
	}
	struct app_scope sc;
	app_scope_system(&sc, c->s);
	pin_event(c->s, &sc, policy, v, crash_record_member(rec, "auto_pins", json_type_array), ev, r);
	app_scope_free(&sc);
}

/* Two applications or more crashed on the version on trial: the trial ends as a rollback. */
static int end_trial(const struct lc_ctx *c, const struct lc_view *v, json_object *rec,
		     struct crash_apply_result *r, struct tb_error *e)
{
	if (!v->st.enabled || !v->st.trial || strcmp(c->cfg->crash_policy ? c->cfg->crash_policy : "pin", "report") == 0)
		return 0;
	json_object *apps = trial_apps(rec, v->st.trial);
	if (json_object_array_length(apps) < 2)
		return 0;
	struct lc_result lr;
	int back = v->previous && !v->previous_gone;
	int rc = back ? lc_rollback(c, &lr, e) : lc_off(c, &lr, e);
	if (rc)
		return rc;
	snprintf(r->rolled_back, sizeof r->rolled_back, "%s", v->st.trial);
	char *why = xasprintf("%zu applications crashed on it on trial", json_object_array_length(apps));
	remember_version(c->cfg, c->s, v->st.trial, TB_R_TRIAL_CRASHED, why);
	free(why);
	json_object_object_add(rec, "rolled_back", json_object_new_string(v->st.trial));
	size_t n_apps = json_object_array_length(apps);
	/* a later trial of the same version starts with no crash counted */
	json_object *t = crash_record_member(rec, "trial", json_type_object);
	json_object_object_add(t, "version", json_object_new_string(""));
	json_object_object_add(t, "apps", json_object_new_array());
	if (back)
		sb_appendf(&r->said, "%zu applications crashed on Mesa %s on trial: Mesa %s is current again\n",
			  n_apps, v->st.trial, lr.version);
	else
		sb_appendf(&r->said, "%zu applications crashed on Mesa %s on trial: the session uses the distribution's Mesa again\n",
			  n_apps, v->st.trial);
	return 0;
}

/* keep_after_clean_boots = N: a trial whose N starts saw no attributed crash is kept. */
static int keep_clean(const struct lc_ctx *c, json_object *rec, struct crash_apply_result *r,
		      struct tb_error *e)
{
	int n = c->cfg->keep_after_clean_boots;
	struct lc_view v;
	lc_read(c->s, &v);
	int rc = 0;
	/* the start about to be counted is the N-th: kept before boot-tick counts it (or would
	 * end the trial when N is max_tries) */
	char *boot = lc_boot_id();
	int new_start = boot && (!v.st.boot || strcmp(v.st.boot, boot));
	free(boot);
	if (n > 0 && new_start && v.st.enabled && v.st.trial && v.st.tries + 1 >= n &&
	    json_object_array_length(trial_apps(rec, v.st.trial)) == 0) {
		struct lc_result lr;
		if (!(rc = lc_keep(c, &lr, e))) {
			snprintf(r->kept, sizeof r->kept, "%s", v.st.trial);
			sb_appendf(&r->said, "Mesa %s ran %d starts without a crash of its own: it is kept (keep_after_clean_boots = %d in mesa.conf)\n",
				  v.st.trial, v.st.tries + 1, n);
		}
	}
	lc_view_free(&v);
	return rc;
}

/* A new event: listed in r, and when attributed counted and added to the record's events.
 * 1 when it is attributed (it may act), 0 when not. */
static int record_event(struct crash_apply_result *r, json_object *events, const struct crash_event *ev)
{
	json_object_array_add(r->events, crash_event_json(ev));
	if (ev->verdict != CRASH_ATTRIBUTED) {
		r->unattributed++;
		return 0;
	}
	r->attributed++;
	json_object_array_add(events, crash_event_json(ev));
	return 1;
}

static void result_init(struct crash_apply_result *r)
{
	memset(r, 0, sizeof *r);
	r->events = json_object_new_array();
	r->pins = json_object_new_array();
}

/* When a file last changed, in microseconds; 0 when it cannot be said. */
static uint64_t changed_usec(const char *path)
{
	struct stat st;
	return lstat(path, &st) ? 0 : (uint64_t)st.st_mtim.tv_sec * 1000000u + (uint64_t)st.st_mtim.tv_nsec / 1000u;
}

int crash_apply(const struct lc_ctx *c, int boot_tick, struct crash_apply_result *r,
		struct tb_error *e)
{
	result_init(r);
	int damaged = 0;
	json_object *rec = crash_record_load(c->s, &damaged);
	struct crash_ctx x;
	crash_ctx_open(&x, c->s);
	struct weigh w = {.floor = x.switched_usec, .seat_uid = -2};
	if (damaged) {
		/* what was read before the damaged record's last write may have been acted on */
		char *path = store_path(c->s, "%s", STORE_CRASH_RECORD);
		uint64_t at = changed_usec(path);
		if (at > w.floor)
			w.floor = at;
		free(path);
		sb_appendf(&r->said, "the crash record was damaged: crashes it may have acted on already (before its last change) act on nothing now\n");
	}
	struct crash_events g;
	char last[JOURNAL_CURSOR_MAX];
	int rc = crash_collect(&x, crash_record_str(rec, "cursor"), 0, &g, last, e);
	struct lc_view v;
	lc_read(c->s, &v);
	json_object *events = crash_record_member(rec, "events", json_type_array);
	for (size_t i = 0; !rc && i < g.n; i++) {
		const struct crash_event *ev = &g.v[i];
		if (record_event(r, events, ev))
			act_on(c, &v, rec, ev, &w, r);
	}
	r->read = g.read;
	r->forged = g.forged;
	/* nothing new read: the store is left as it was */
	int changed = g.n > 0 || damaged || (last[0] && strcmp(last, crash_record_str(rec, "cursor")));
	if (!rc && last[0])
		json_object_object_add(rec, "cursor", json_object_new_string(last));
	if (!rc)
		rc = end_trial(c, &v, rec, r, e);
	lc_view_free(&v);
	if (!rc && boot_tick)
		rc = keep_clean(c, rec, r, e);
	if (!rc && (changed || r->rolled_back[0] || r->kept[0]))
		rc = crash_record_save(c->s, rec, e);
	crash_events_free(&g);
	crash_ctx_close(&x);
	json_object_put(rec);
	return rc;
}

int crash_apply_user(const struct store *s, const struct config *cfg, const struct app_scope *sc,
		     struct crash_apply_result *r, struct tb_error *e)
{
	result_init(r);
	const char *policy = cfg->crash_policy ? cfg->crash_policy : "pin";
	char *path = crash_record_user_path(sc);
	int damaged = 0;
	json_object *rec = crash_record_load_at(path, &damaged);
	struct crash_ctx x;
	crash_ctx_open(&x, s);
	uint64_t floor = x.switched_usec, at = damaged ? changed_usec(path) : 0;
	if (damaged && at) {
		floor = at > floor ? at : floor;
		sb_appendf(&r->said, "your crash record %s was damaged: crashes it may have acted on already (before its last change) act on nothing now\n", path);
	}
	struct crash_events g;
	char last[JOURNAL_CURSOR_MAX];
	int rc = crash_collect(&x, crash_record_str(rec, "cursor"), 0, &g, last, e);
	struct lc_view v;
	lc_read(s, &v);
	long me = (long)getuid();
	json_object *events = crash_record_member(rec, "events", json_type_array);
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	for (size_t i = 0; !rc && i < g.n; i++) {
		const struct crash_event *ev = &g.v[i];
		if (ev->uid != me)
			continue; /* another user's, or a kernel line's (whose, not known) */
		if (!record_event(r, events, ev))
			continue;
		if (ev->usec < floor) {
			r->not_counted++;
			continue;
		}
		if (strcmp(policy, "report"))
			pin_event(s, sc, policy, &v, pins, ev, r);
	}
	r->read = g.read;
	r->forged = g.forged;
	int changed = json_object_array_length(r->events) > 0 || damaged ||
		      (last[0] && strcmp(last, crash_record_str(rec, "cursor")));
	if (!rc && last[0])
		json_object_object_add(rec, "cursor", json_object_new_string(last));
	if (!rc && changed)
		rc = crash_record_save_at(path, rec, e);
	lc_view_free(&v);
	crash_events_free(&g);
	crash_ctx_close(&x);
	json_object_put(rec);
	free(path);
	return rc;
}

char *crash_record_user_path(const struct app_scope *sc)
{
	const char *slash = strrchr(sc->rules_file, '/');
	return xasprintf("%.*s/mesa-crash-record", slash ? (int)(slash - sc->rules_file) : 1,
			 slash ? sc->rules_file : ".");
}
