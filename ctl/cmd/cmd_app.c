/* app set|unset|list|refresh: per-application rules carried by desktop entries
 * (docs/design.md §16). Each gets the store opened as the table says (a writer for the
 * system's rules), takes the user's own lock for theirs, calls apprules and
 * desktop_override, reports. */
#include "cli/cli.h"
#include "ops/desktop_override.h"
#include "store/apprules.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/programs.h"
#include "base/strbuf.h"
#include "common/storelayout.h"
#include "common/version_name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* One owner's rules, open for a command: the store (its lock for the system's rules) and the
 * user's own lock for theirs. */
struct app_ctx {
	const struct store *s;
	struct app_scope sc;
	int lock_fd;
};

static void app_ctx_close(struct app_ctx *x)
{
	if (x->lock_fd >= 0)
		close(x->lock_fd);
	app_scope_free(&x->sc);
}

static int lock_user(struct app_ctx *x, int wait, struct tb_error *e)
{
	char *dir = xstrdup(x->sc.lock_file);
	*strrchr(dir, '/') = '\0';
	int rc = mkdir_p(dir, 0755, e);
	free(dir);
	if (rc)
		return rc;
	x->lock_fd = open(x->sc.lock_file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (x->lock_fd < 0)
		return tb_fail_errno(e, TB_EFAIL, "cannot open %s", x->sc.lock_file);
	if (flock(x->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0)
		return errno == EWOULDBLOCK
			       ? tb_fail_why(e, TB_EBUSY, "busy", "busy: another tb323fu-ctl changes your rules (--wait waits for it)")
			       : tb_fail_errno(e, TB_EFAIL, "cannot lock %s", x->sc.lock_file);
	return 0;
}

/* Opens the scope: a writer of the system's rules has the store's lock (the table opens it
 * so); a user's writes only their own files (the store is only read, for its versions). */
static int app_open(struct cli *c, const struct store *s, struct app_ctx *x, int user,
		    int writer, struct tb_error *e)
{
	memset(x, 0, sizeof *x);
	x->lock_fd = -1;
	x->s = s;
	if (!user) {
		app_scope_system(&x->sc, s);
		return 0;
	}
	if (app_scope_user(&x->sc, e))
		return -1;
	return writer ? lock_user(x, c->wait, e) : 0;
}

/* A damaged rule file is rebuilt from the entries of ours that carry the rules. */
static int rules_open(struct app_ctx *x, struct app_rules *r, int writer, int *repaired,
		      struct tb_error *e)
{
	*repaired = 0;
	int rc = apprules_load(&x->sc, r, e);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		override_recover_rules(x->sc.apps_dir, r);
		if (!writer)
			return 1;
		if (apprules_save(&x->sc, r, e))
			return -1;
		*repaired = 1;
	}
	return 0;
}

static void spec_of(const struct app_ctx *x, const char *launcher, const char *choice,
		    struct override_spec *spec)
{
	spec->launcher = launcher;
	spec->store = strcmp(x->s->root, STORE_DEFAULT_ROOT) ? x->s->root : NULL;
	spec->choice = choice;
}

/* current, distro, a version installed, or previous (the version previous is now: pinned). */
static char *choice_resolve(const struct store *s, const char *word, struct tb_error *e)
{
	if (!strcmp(word, "distro"))
		return xstrdup(word);
	if (!strcmp(word, "current")) {
		char *cur = store_current(s);
		if (!cur)
			return tb_fail_why(e, TB_EFAIL, "not-installed", "no Mesa version is installed (tb323fu-ctl mesa update)"), NULL;
		free(cur);
		return xstrdup(word);
	}
	char *v = !strcmp(word, "previous") ? store_previous(s) : xstrdup(word);
	if (!v)
		return tb_fail_why(e, TB_EFAIL, "not-installed", "there is no previous version to pin"), NULL;
	if (!store_has_version(s, v)) {
		tb_fail_why(e, TB_EFAIL, "not-installed", "Mesa %s is not installed (tb323fu-ctl mesa list shows what is)", v);
		free(v);
		return NULL;
	}
	return v;
}

static const char *choice_words(const char *choice)
{
	return !strcmp(choice, "distro") ? "the distribution's Mesa"
	       : !strcmp(choice, "current") ? "the store's current Mesa" : NULL;
}

static char *rule_text(const char *id, const char *choice)
{
	const char *w = choice_words(choice);
	return w ? xasprintf("%s starts with %s", id, w) : xasprintf("%s starts with Mesa %s (pinned)", id, choice);
}

CHECK(app_set)
{
	const struct opts_app *a = opts;
	const char *w = a->choice;
	if (!strcmp(w, "current") || !strcmp(w, "previous") || !strcmp(w, "distro") ||
	    version_name_ok(w))
		return TB_OK;
	return cli_usage(o, "\"%.80s\" is not a choice: current, previous, distro or a version (like 2026.10.06)", w);
}

/* app set --dry-run: the entry it would write, and its first Exec line, changing nothing. */
static void set_plan_say(const struct app_ctx *x, const char *id, const char *orig,
			 const char *launcher, const char *choice, int user, struct outcome *o,
			 struct tb_error *e)
{
	struct override_spec spec;
	spec_of(x, launcher, choice, &spec);
	char *data = NULL;
	size_t n = 0;
	if (override_plan(&x->sc, id, orig, &spec, &data, &n, e))
		return;
	const char *exec = data ? strstr(data, "\nExec=") : NULL;
	int exec_len = exec ? (int)strcspn(exec + 6, "\n") : 0;
	char *path = path_join(x->sc.apps_dir, id);
	char *text = rule_text(id, choice);
	outcome_say(o, "dry run: `app set` would write %s, made from %s (%s; Exec=%.*s); nothing was changed",
		    path, orig, text, exec_len, exec ? exec + 6 : "");
	outcome_bool(o, "dry_run", 1);
	outcome_str(o, "app", id);
	outcome_str(o, "choice", choice);
	outcome_str(o, "scope", user ? "user" : "system");
	outcome_str(o, "entry", path);
	outcome_str(o, "original", orig);
	char *exec_line = xasprintf("%.*s", exec_len, exec ? exec + 6 : "");
	outcome_str(o, "exec", exec_line);
	free(exec_line);
	free(text);
	free(path);
	free(data);
}

COMMAND(app_set)
{
	const struct opts_app *a = opts;
	int user = a->user;
	const char *app = a->app, *word = a->choice;
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules r = {0};
	char *choice = NULL, *id = NULL, *orig = NULL, *launcher = NULL;
	int repaired = 0, dry = a->dry_run;
	if (app_open(c, s, &x, user, !dry, &e) || rules_open(&x, &r, !dry, &repaired, &e) < 0 ||
	    !(choice = choice_resolve(s, word, &e)) || desktop_resolve(&x.sc, app, &id, &e))
		goto out;
	orig = desktop_original(&x.sc, id);
	launcher = find_launcher_program();
	if (!orig) {
		tb_fail_why(&e, TB_EFAIL, "app-not-found", "no desktop entry %s is installed", id);
		goto out;
	}
	if (!launcher) {
		tb_fail_why(&e, TB_EFAIL, "program-missing", "the launcher tb323fu-mesa is not installed beside tb323fu-ctl; reinstall tb323fu-mesa");
		goto out;
	}
	if (dry) {
		set_plan_say(&x, id, orig, launcher, choice, user, o, &e);
		goto out;
	}
	const struct app_rule *old = apprules_find(&r, id);
	char *before = old ? xstrdup(old->choice) : NULL;
	struct override_spec spec;
	spec_of(&x, launcher, choice, &spec);
	/* ours first, then the rule: a failure in between leaves an entry refresh removes */
	if (!override_write(&x.sc, id, orig, &spec, &e)) {
		apprules_set(&r, id, choice);
		if (apprules_save(&x.sc, &r, &e)) {
			struct tb_error ignored = {0};
			if (before) {
				spec.choice = before;
				override_write(&x.sc, id, orig, &spec, &ignored);
			} else {
				override_remove(&x.sc, id, &ignored);
			}
		}
	}
	free(before);
	if (!e.code) {
		char *text = rule_text(id, choice);
		char *fp = flatpak_app_note(s, orig, choice, user); /* docs/design.md §17 */
		outcome_say(o, "%s%s: %s/%s, made from %s%s", repaired ? "the damaged rules were rebuilt from the entries; " : "",
			    text, x.sc.apps_dir, id, orig, fp ? fp : "");
		free(fp);
		free(text);
		outcome_str(o, "app", id);
		outcome_str(o, "choice", choice);
		outcome_str(o, "scope", user ? "user" : "system");
		char *path = path_join(x.sc.apps_dir, id);
		outcome_str(o, "entry", path);
		outcome_str(o, "original", orig);
		free(path);
	}
out:
	apprules_free(&r);
	free(choice);
	free(id);
	free(orig);
	free(launcher);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}

static char *normal_id(const char *app)
{
	size_t n = strlen(app);
	return n > 8 && !strcmp(app + n - 8, ".desktop") ? xstrdup(app) : xasprintf("%s.desktop", app);
}

/* Whether the other scope than unset's (user: the system's; else the caller's own) has a
 * rule for id. */
static int other_scope_has(const struct store *s, int user, const char *id)
{
	struct app_ctx x = {.s = s, .lock_fd = -1};
	struct tb_error ignored = {0};
	if (user)
		app_scope_system(&x.sc, s);
	else if (app_scope_user(&x.sc, &ignored))
		return 0;
	struct app_rules r = {0};
	int repaired = 0, has = rules_open(&x, &r, 0, &repaired, &ignored) >= 0 && apprules_find(&r, id);
	apprules_free(&r);
	app_scope_free(&x.sc);
	return has;
}

COMMAND(app_unset)
{
	const struct opts_app *a = opts;
	int user = a->user;
	const char *app = a->app;
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules r = {0};
	char *id = NULL;
	int repaired = 0;
	if (app_open(c, s, &x, user, 1, &e) || rules_open(&x, &r, 1, &repaired, &e))
		goto out;
	id = normal_id(app);
	if (!apprules_find(&r, id)) {
		free(id);
		id = NULL;
		if (desktop_resolve(&x.sc, app, &id, &e))
			goto out;
	}
	int had = apprules_find(&r, id) != NULL;
	int owner = override_owner(&x.sc, id, NULL, NULL, NULL);
	if (owner == 1 && override_remove(&x.sc, id, &e))
		goto out;
	if (had && (apprules_unset(&r, id), apprules_save(&x.sc, &r, &e)))
		goto out;
	outcome_str(o, "app", id);
	outcome_str(o, "scope", user ? "user" : "system");
	if (!had && owner != 1 && other_scope_has(s, user, id))
		outcome_say(o, "%s has no %s rule; nothing was changed; %s rule for it is removed with `%stb323fu-ctl mesa app unset %s%s`",
			    id, user ? "user" : "system", user ? "the system's" : "your own",
			    user ? "sudo " : "", user ? "" : "--user ", id);
	else if (!had && owner != 1)
		outcome_say(o, "%s has no %s rule; nothing was changed", id, user ? "user" : "system");
	else if (owner == 2)
		outcome_say(o, "the rule for %s is removed; %s/%s is not an entry tb323fu-ctl wrote and stays as it is",
			    id, x.sc.apps_dir, id);
	else
		outcome_say(o, "the rule for %s is removed (and %s/%s with it): it starts as the session says again",
			    id, x.sc.apps_dir, id);
out:
	apprules_free(&r);
	free(id);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}

/* One rule made current with its original: rebuilt when the original moved or changed (or
 * ours is missing or carries another rule), removed when the original is gone. A word for
 * the report, NULL when nothing changed. */
static const char *refresh_one(struct app_ctx *x, const struct app_rule *rule, const char *launcher,
			       struct tb_error *e)
{
	char *orig = desktop_original(&x->sc, rule->id);
	char *op = NULL, *osha = NULL, *ochoice = NULL;
	int owner = override_owner(&x->sc, rule->id, &op, &osha, &ochoice);
	const char *did = NULL;
	char hex[SHA256_HEX_LEN + 1] = "";
	if (owner == 2)
		did = "left as it is (the entry there is not ours)";
	else if (!orig && owner == 1)
		did = override_remove(&x->sc, rule->id, e) ? NULL : "removed (its original is gone)";
	else if (orig && (owner == 0 || desktop_file_sha256(orig, hex) || !op || strcmp(op, orig) ||
			  !osha || strcmp(osha, hex) || !ochoice || strcmp(ochoice, rule->choice))) {
		struct override_spec spec;
		spec_of(x, launcher, rule->choice, &spec);
		did = override_write(&x->sc, rule->id, orig, &spec, e) ? NULL : "rebuilt from its original";
		/* an original that can no longer carry the rule: the desktop gets it as it is */
		struct tb_error ignored = {0};
		if (!did && owner == 1 && !override_remove(&x->sc, rule->id, &ignored))
			did = "removed (its original can no longer carry the rule)";
	}
	free(orig);
	free(op);
	free(osha);
	free(ochoice);
	return did;
}

/* Whether the system has a rule or an entry of ours: without either, refresh has nothing to
 * do (the daily check calls it). */
static int system_has_rules(const struct store *s)
{
	struct app_scope sc;
	app_scope_system(&sc, s);
	struct app_rules ours = {0};
	override_recover_rules(sc.apps_dir, &ours);
	int any = path_exists(sc.rules_file) || ours.n;
	apprules_free(&ours);
	app_scope_free(&sc);
	return any;
}

COMMAND(app_refresh)
{
	const struct opts_app *a = opts;
	int user = a->user;
	if (!user && !system_has_rules(s)) {
		outcome_say(o, "no application has a system rule");
		return TB_OK;
	}
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules r = {0}, ours = {0};
	int repaired = 0, changed = 0;
	struct strbuf sb = {0};
	char *launcher = NULL;
	if (app_open(c, s, &x, user, 1, &e) || rules_open(&x, &r, 1, &repaired, &e))
		goto out;
	launcher = find_launcher_program();
	if (!launcher && r.n) {
		tb_fail_why(&e, TB_EFAIL, "program-missing", "the launcher tb323fu-mesa is not installed beside tb323fu-ctl; reinstall tb323fu-mesa");
		goto out;
	}
	json_object *done = json_object_new_array();
	for (size_t i = 0; i < r.n; i++) {
		struct tb_error one = {0};
		const char *did = refresh_one(&x, &r.v[i], launcher, &one);
		if (one.code) /* the others are still made current; the first failure is said */
			e.code ? (void)0 : (void)(e = one);
		if (did) {
			sb_appendf(&sb, "%s%s: %s", changed++ ? "\n" : "", r.v[i].id, did);
			json_object *it = json_object_new_object();
			json_object_object_add(it, "app", json_object_new_string(r.v[i].id));
			json_object_object_add(it, "done", json_object_new_string(did));
			json_object_array_add(done, it);
		}
	}
	/* ours without a rule: a set or unset cut short */
	override_recover_rules(x.sc.apps_dir, &ours);
	for (size_t i = 0; i < ours.n; i++)
		if (!apprules_find(&r, ours.v[i].id) && !override_remove(&x.sc, ours.v[i].id, &e))
			sb_appendf(&sb, "%s%s: removed (no rule names it)", changed++ ? "\n" : "", ours.v[i].id);
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "changed", done);
	if (!e.code)
		outcome_say(o, "%s%s", repaired ? "the damaged rules were rebuilt from the entries\n" : "",
			    changed ? sb.buf : "every application rule's entry is up to date");
out:
	sb_free(&sb);
	free(launcher);
	apprules_free(&r);
	apprules_free(&ours);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}

/* One scope's rules for list, status and doctor: JSON items and lines for people; gone
 * lists the rules whose version is no longer installed (a sentence each). */
static void describe_scope(struct app_ctx *x, const char *scope, json_object *arr,
			   struct strbuf *lines, struct strbuf *gone)
{
	struct app_rules r;
	int repaired, damaged = 0;
	struct tb_error e = {0};
	damaged = rules_open(x, &r, 0, &repaired, &e) == 1;
	if (damaged)
		sb_appendf(gone, "%sthe %s rule file %s is damaged (rules-corrupt); the next app command rebuilds it from the entries\n",
			   "", scope, x->sc.rules_file);
	for (size_t i = 0; i < r.n; i++) {
		const struct app_rule *rule = &r.v[i];
		int pinned = !choice_words(rule->choice);
		int is_gone = pinned && !store_has_version(x->s, rule->choice);
		char *orig = desktop_original(&x->sc, rule->id);
		int owner = override_owner(&x->sc, rule->id, NULL, NULL, NULL);
		const char *entry = owner == 1 ? "ours" : owner == 2 ? "not-ours" : "missing";
		json_object *it = json_object_new_object();
		json_object_object_add(it, "app", json_object_new_string(rule->id));
		json_object_object_add(it, "choice", json_object_new_string(rule->choice));
		json_object_object_add(it, "scope", json_object_new_string(scope));
		json_object_object_add(it, "version_gone", json_object_new_boolean(is_gone));
		json_object_object_add(it, "original", json_object_new_string(orig ? orig : ""));
		json_object_object_add(it, "entry", json_object_new_string(entry));
		json_object_array_add(arr, it);
		char *text = rule_text(rule->id, rule->choice);
		sb_appendf(lines, "%s%s (%s rule%s%s)", lines->len ? "\n" : "", text, scope,
			   orig ? "" : "; its application is not installed",
			   owner == 1 ? "" : owner == 2 ? "; the entry there is not ours" : "; its entry is missing: app refresh");
		free(text);
		if (is_gone)
			sb_appendf(gone, "the %s rule for %s names Mesa %s, which is no longer installed: it will not start; set it again (tb323fu-ctl mesa app set%s %s current)\n",
				   scope, rule->id, rule->choice, x->sc.user ? " --user" : "", rule->id);
		free(orig);
	}
	apprules_free(&r);
}

/* The rules of both scopes, or (system 0) the caller's own only. */
static void rules_summary(const struct store *s, int system, json_object *arr, struct strbuf *lines,
			  struct strbuf *gone)
{
	struct app_ctx x = {.s = s, .lock_fd = -1};
	if (system) {
		app_scope_system(&x.sc, s);
		describe_scope(&x, "system", arr, lines, gone);
		app_scope_free(&x.sc);
	}
	struct tb_error ignored = {0};
	if (app_scope_user(&x.sc, &ignored) == 0) {
		describe_scope(&x, "user", arr, lines, gone);
		app_scope_free(&x.sc);
	}
}

void app_rules_summary(const struct store *s, json_object *arr, struct strbuf *lines, struct strbuf *gone)
{
	rules_summary(s, 1, arr, lines, gone);
}

COMMAND(app_list)
{
	(void)c;
	int user = ((const struct opts_app *)opts)->user;
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	sb_append(&lines, "");
	sb_append(&gone, "");
	rules_summary(s, !user, arr, &lines, &gone);
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "rules", arr);
	outcome_say(o, "%s%s%s", lines.len ? lines.buf : user ? "no application has a rule of yours" : "no application has a rule",
		    gone.len ? "\n" : "", gone.buf);
	/* the last newline of gone's sentences is not part of the report */
	if (o->message[0] && o->message[strlen(o->message) - 1] == '\n')
		o->message[strlen(o->message) - 1] = '\0';
	sb_free(&lines);
	sb_free(&gone);
	return TB_OK;
}

/* Every entry of ours goes, another's stays (override_remove's rule); the rules stay, so a
 * reinstall's app refresh brings the entries back (docs/design.md §16). */
COMMAND(app_clear)
{
	const struct opts_app *a = opts;
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules ours = {0};
	int removed = 0;
	if (!app_open(c, s, &x, a->user, 1, &e)) {
		override_recover_rules(x.sc.apps_dir, &ours);
		for (size_t i = 0; i < ours.n; i++) {
			struct tb_error one = {0};
			if (override_remove(&x.sc, ours.v[i].id, &one) == 0)
				removed++;
			else if (!e.code)
				e = one;
		}
	}
	outcome_int(o, "removed", removed);
	if (!e.code && removed)
		outcome_say(o, "%d desktop entries of ours removed from %s; the rules are kept", removed,
			    x.sc.apps_dir);
	else if (!e.code)
		outcome_say(o, "no desktop entry of ours in %s", x.sc.apps_dir);
	apprules_free(&ours);
	app_ctx_close(&x);
	return e.code ? outcome_fail(o, &e) : TB_OK;
}
