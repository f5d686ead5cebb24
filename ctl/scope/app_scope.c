/* One owner's application rules, open for an app command (ctl/scope/app_scope.h). */
#include "scope/app_scope.h"
#include "apprules/desktop_find.h"
#include "apprules/override_files.h"
#include "crash/policy.h"
#include "base/alloc.h"
#include "crash/record.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "common/storelayout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void app_ctx_close(struct app_ctx *x)
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
	if (x->lock_fd < 0 && (errno == EACCES || errno == EPERM)) {
		struct stat st;
		unsigned owner = lstat(x->sc.lock_file, &st) == 0 ? (unsigned)st.st_uid : 0;
		return tb_fail(e, TB_R_PERMISSION,
			       "you may not open your rules' lock %s (it belongs to uid %u: written by a command run with sudo?); nothing was changed: give it back with `sudo chown %u %s`",
			       x->sc.lock_file, owner, (unsigned)geteuid(), x->sc.lock_file);
	}
	if (x->lock_fd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s", x->sc.lock_file);
	if (flock(x->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0)
		return errno == EWOULDBLOCK
			       ? tb_fail(e, TB_R_BUSY, "busy: another tb323fu-ctl changes your rules (--wait waits for it)")
			       : tb_fail_errno(e, TB_R_IO_ERROR, "cannot lock %s", x->sc.lock_file);
	return 0;
}

/* Opens the scope: a writer of the system's rules has the store's lock (the table opens it
 * so); a user's writes only their own files (the store is only read, for its versions). */
int app_open(struct cli *c, const struct store *s, struct app_ctx *x, int user,
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
int rules_open(struct app_ctx *x, struct app_rules *r, int writer, int *repaired,
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

void spec_of(const struct app_ctx *x, const char *launcher, const char *choice,
		    struct override_spec *spec)
{
	spec->launcher = launcher;
	spec->store = strcmp(x->s->root, STORE_DEFAULT_ROOT) ? x->s->root : NULL;
	spec->choice = choice;
	spec->gl = NULL;
}

static const char *choice_words(const char *choice)
{
	return !strcmp(choice, "distro") ? "the distribution's Mesa"
	       : !strcmp(choice, "current") ? "the store's current Mesa" : NULL;
}

static const char *gl_words(const char *gl)
{
	return !gl ? "" : !strcmp(gl, "zink") ? ", its GL on Zink" : !strcmp(gl, "native") ? ", its own GL"
							     : ", the distribution's GL";
}

char *rule_text(const char *id, const char *choice, const char *gl)
{
	const char *w = choice_words(choice);
	return w ? xasprintf("%s starts with %s%s", id, w, gl_words(gl))
		 : xasprintf("%s starts with Mesa %s (pinned)%s", id, choice, gl_words(gl));
}

/* Whether the crash evidence made rule (an automatic pin, docs/design.md §18): the record's
 * auto_pins name it with the same choice. */
static int rule_automatic(json_object *pins, const struct app_rule *rule)
{
	size_t n = pins ? json_object_array_length(pins) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pins, i);
		if (!strcmp(crash_record_str(p, "app"), rule->id) &&
		    !strcmp(crash_record_str(p, "choice"), rule->choice))
			return 1;
	}
	return 0;
}

/* One scope's rules for list, status and doctor: JSON items and lines for people; gone
 * lists the rules whose version is no longer installed (a sentence each). */
static void describe_scope(struct app_ctx *x, const char *scope, json_object *arr,
			   struct strbuf *lines, struct strbuf *gone)
{
	struct app_rules r;
	int repaired, damaged = 0;
	struct tb_error e = {0};
	int opened = rules_open(x, &r, 0, &repaired, &e);
	damaged = opened == 1;
	if (opened < 0) /* not damage: what stopped the reading, and what to do (permission) */
		sb_appendf(gone, "%s\n", e.msg);
	/* the policy's pins: the system's in the store's record, a user's in their own */
	char *user_record = x->sc.user ? crash_record_user_path(&x->sc) : NULL;
	json_object *rec = user_record ? crash_record_load_at(user_record, NULL) : crash_record_load(x->s, NULL);
	free(user_record);
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	if (damaged)
		sb_appendf(gone, "%sthe %s rule file %s is damaged (rules-corrupt); the next app command rebuilds it from the entries\n",
			   "", scope, x->sc.rules_file);
	for (size_t i = 0; i < r.n; i++) {
		const struct app_rule *rule = &r.v[i];
		int pinned = !choice_words(rule->choice);
		int is_gone = pinned && !store_has_version(x->s, rule->choice);
		char *orig = desktop_original(&x->sc, rule->id);
		int owner = override_owner(&x->sc, rule->id, NULL, NULL, NULL, NULL);
		const char *entry = owner == 1 ? "ours" : owner == 2 ? "not-ours" : "missing";
		json_object *it = json_object_new_object();
		json_object_object_add(it, "app", json_object_new_string(rule->id));
		json_object_object_add(it, "choice", json_object_new_string(rule->choice));
		json_object_object_add(it, "gl", json_object_new_string(rule->gl ? rule->gl : ""));
		json_object_object_add(it, "scope", json_object_new_string(scope));
		json_object_object_add(it, "version_gone", json_object_new_boolean(is_gone));
		json_object_object_add(it, "original", json_object_new_string(orig ? orig : ""));
		json_object_object_add(it, "entry", json_object_new_string(entry));
		int automatic = rule_automatic(pins, rule);
		json_object_object_add(it, "automatic", json_object_new_boolean(automatic));
		json_object_array_add(arr, it);
		char *text = rule_text(rule->id, rule->choice, rule->gl);
		sb_appendf(lines, "%s%s (%s rule%s%s%s)", lines->len ? "\n" : "", text, scope,
			   automatic ? (x->sc.user ? ", made after a crash of yours on the build on trial; app unset --user undoes it"
					   : ", made after a crash on the build on trial; app unset undoes it") : "",
			   orig ? "" : "; its application is not installed",
			   owner == 1 ? "" : owner == 2 ? "; the entry there is not ours" : "; its entry is missing: app refresh");
		free(text);
		if (is_gone)
			sb_appendf(gone, "the %s rule for %s names Mesa %s, which is no longer installed: it will not start; set it again (tb323fu-ctl mesa app set%s %s current)\n",
				   scope, rule->id, rule->choice, x->sc.user ? " --user" : "", rule->id);
		free(orig);
	}
	json_object_put(rec);
	apprules_free(&r);
}

void app_rules_summary(const struct store *s, int system, json_object *arr, struct strbuf *lines,
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
