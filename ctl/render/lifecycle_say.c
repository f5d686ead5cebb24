/* What the store's writers say after a change of the life cycle (ctl/render/lifecycle_say.h). */
#include "render/lifecycle_say.h"
#include "lifecycle/login_reach.h"
#include "store/state.h"
#include "lifecycle/lifecycle.h"
#include "gputest/smoke_run.h"
#include "crash/summary.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The engine's context for this command's store. */
struct lc_ctx lc_ctx_of(struct cli *c, struct store *s)
{
	return (struct lc_ctx){.s = s, .cfg = &c->cfg, .progress = c->progress, .wait = c->wait};
}

/* A line after the sentence said so far (none said: nothing to add to). */
static void __attribute__((format(printf, 2, 3))) say_after(struct outcome *o, const char *fmt, ...)
{
	if (!o->message)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *line = xvasprintf(fmt, ap);
	va_end(ap);
	char *m = o->message;
	o->message = NULL;
	outcome_say(o, "%s\n%s", m, line);
	free(m);
	free(line);
}

/* A writer that rebuilt a damaged state says so after its own sentence. */
void say_repaired(struct outcome *o, const struct lc_result *r)
{
	if (r->state_repaired)
		say_after(o, "the store's state file was damaged; it was rebuilt from the links and env.conf");
	if (r->replaced[0])
		say_after(o, "warning: %s stood where the store keeps its own file; the link was replaced by the file (what it pointed at was not changed)",
			  r->replaced);
	if (r->override_linked[0])
		say_after(o, "warning: %s is a symbolic link where Flatpak's overrides folder belongs; the session's Flatpak setting was not written through it (remove the link and run the command again)",
			  r->override_linked);
	if (r->used_reserve)
		say_after(o, "the disk is full: this used the store's last reserve; free some space (partial downloads in cache/, versions not in use)");
}

int install_and_say(struct cli *c, struct store *s, const char *v, int no_smoke,
			   struct outcome *o)
{
	struct lc_ctx x = lc_ctx_of(c, s);
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
		/* already current: only what an install killed after its commit left unpruned
		 * went now, and is said */
		struct strbuf sb = {0};
		say_already_current(o, v);
		if (r.pruned[0]) {
			free(o->message);
			o->message = NULL;
			sb_appendf(&sb, "Mesa %s is already the current version", v);
		}
		say_pruned(o, &sb, &r, c->cfg.keep_versions);
		if (r.pruned[0])
			outcome_say(o, "%s", sb.buf);
		sb_free(&sb);
		return TB_OK;
	}
	outcome_installed(o, s, v, smoke ? &sm : NULL, &r, c->cfg.keep_versions);
	say_repaired(o, &r);
	return TB_OK;
}

int run_transition(struct cli *c, transition_fn fn, struct lc_result *r, struct store *s,
		      struct outcome *o)
{
	struct tb_error e = {0};
	struct lc_ctx x = lc_ctx_of(c, s);
	if (fn(&x, r, &e))
		return outcome_fail(o, &e);
	if (r->version[0])
		outcome_str(o, "version", r->version);
	return TB_OK;
}

void read_crashes(struct cli *c, struct store *s, struct outcome *o, int boot_tick,
		  struct strbuf *said)
{
	struct lc_ctx x = {.s = s, .cfg = &c->cfg, .progress = c->progress};
	json_object *crashes = crash_after(&x, boot_tick, said);
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "crashes", crashes);
}

void say_crashes(struct outcome *o, struct strbuf *said)
{
	if (said->len)
		outcome_say(o, "%s%s%.*s", o->message ? o->message : "", o->message ? "\n" : "",
			    (int)said->len - 1, said->buf);
	sb_free(said);
}

void say_already_on(struct outcome *o, const struct store *s, const char *version)
{
	struct strbuf no_login = {0};
	int reads = !login_reach_say(s, &no_login);
	outcome_str(o, "version", version);
	outcome_bool(o, "logins_read_store", reads);
	outcome_say(o, "Mesa %s is already on; nothing was changed%s%s", version, reads ? "" : "; but ",
		    reads ? "" : no_login.buf);
	sb_free(&no_login);
}

void say_already_off(struct outcome *o)
{
	outcome_say(o, "Mesa is already off: programs use the distribution's Mesa; nothing was changed");
}

void say_already_current(struct outcome *o, const char *version)
{
	outcome_str(o, "version", version);
	outcome_bool(o, "switched", 0);
	outcome_say(o, "Mesa %s is already the current version; nothing was changed (`tb323fu-ctl mesa verify %s` checks its files, `tb323fu-ctl mesa smoke %s` tests it again)",
		    version, version, version);
}

/* ["A","B"] from the Flatpak extensions' names, ", " between (flatpak_exports_named). */
static json_object *flatpak_array(const char *names)
{
	json_object *arr = json_object_new_array();
	for (const char *p = names; p && *p;) {
		size_t n = strcspn(p, ",");
		json_object_array_add(arr, json_object_new_string_len(p, (int)n));
		p += n;
		p += strspn(p, ", ");
	}
	return arr;
}

void outcome_flatpak_removed(struct outcome *o, struct strbuf *sb, const char *names, int would)
{
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, would ? "would_remove_flatpak" : "flatpak_removed", flatpak_array(names));
	if (names && *names)
		sb_appendf(sb, "%sFlatpak extensions %s with %s: %s", would ? "; its " : "\nthe ",
			   would ? "would go" : "removed", would ? "it" : "the version", names);
}

/* What the pruning after an install removed and why, as apt says what it removes; "removed"
 * lists them for scripts. */
void say_pruned(struct outcome *o, struct strbuf *sb, const struct lc_result *r, int keep)
{
	json_object *arr = json_object_new_array();
	char *names = xstrdup(r ? r->pruned : "");
	struct strbuf said = {0};
	int n = 0;
	for (char *v = strtok(names, " "); v; v = strtok(NULL, " "), n++) {
		json_object_array_add(arr, json_object_new_string(v));
		sb_appendf(&said, "%s%s", n ? ", " : "", v);
	}
	json_object_object_add(o->fields, "removed", arr);
	if (n)
		sb_appendf(sb, "\nMesa %s %s removed to keep %d versions (keep_versions in mesa.conf): %s neither current nor previous",
			   said.buf, n == 1 ? "was" : "were", keep, n == 1 ? "it was" : "they were");
	if (r && r->pinned_kept[0])
		sb_appendf(sb, "\nkept Mesa %s beyond keep_versions = %d: an application's rule pins it (tb323fu-ctl mesa app list)",
			   r->pinned_kept, keep);
	outcome_flatpak_removed(o, sb, r ? r->flatpak_removed : "", 0);
	if (r && r->read_kept[0])
		sb_appendf(sb, "\nkept Mesa %s beyond keep_versions = %d while it is read; the next install removes it",
			   r->read_kept, keep);
	sb_free(&said);
	free(names);
}

void outcome_installed(struct outcome *o, const struct store *s, const char *version,
		       const struct smoke_outcome *smoke, const struct lc_result *r, int keep)
{
	struct state st;
	state_load(s, &st);
	outcome_str(o, "version", version);
	outcome_bool(o, "smoke", smoke != NULL);
	if (smoke) {
		outcome_int(o, "smoke_passed", smoke->passed);
		outcome_int(o, "smoke_skipped", smoke->skipped);
	}
	/* going back to an older version is said, as apt says a downgrade */
	outcome_bool(o, "downgrade", r && r->downgrade);
	struct strbuf sb = {0};
	if (smoke)
		sb_appendf(&sb, "Mesa %s passed its smoke tests (%d passed, %d skipped)\n", version,
			   smoke->passed, smoke->skipped);
	if (r && r->downgrade)
		sb_appendf(&sb, "back to an older version: Mesa %s replaces Mesa %s, which stays as previous\n",
			   version, r->other);
	/* current/ is what the ICD and session files point through: a session switched on sees
	 * the new version in every program it starts from now on */
	struct strbuf no_login = {0};
	/* on, but no login reads this store: the sentence on, status and doctor say */
	if (st.enabled && login_reach_say(s, &no_login))
		sb_appendf(&sb, "Mesa %s installed; it is switched on, but %s%s", version, no_login.buf,
			   st.trial ? "; it is on trial until `tb323fu-ctl mesa keep`" : "");
	else if (st.enabled && st.trial)
		sb_appendf(&sb, "Mesa %s installed; programs started from now on use it, on trial for %d starts until `tb323fu-ctl mesa keep`", version, st.max);
	else if (st.enabled)
		sb_appendf(&sb, "Mesa %s installed; programs started from now on use it", version);
	else
		sb_appendf(&sb, "Mesa %s installed; switch it on with `tb323fu-ctl mesa on`", version);
	if (!o->fields)
		o->fields = json_object_new_object();
	/* a named install clears the version's mark: said, not done behind the user's back */
	outcome_str(o, "unmarked", r ? r->unmarked : "");
	if (r && r->unmarked[0])
		sb_appendf(&sb, "\nMesa %s is no longer marked (it was %s): installing it cleared the mark", version, r->unmarked);
	say_pruned(o, &sb, r, keep);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	sb_free(&no_login);
	state_free(&st);
}

/* "A, B" for people and ["A","B"] for JSON, from names a space between. */
static json_object *names_array(const char *spaced, struct strbuf *said)
{
	json_object *arr = json_object_new_array();
	char *names = xstrdup(spaced);
	for (char *v = strtok(names, " "); v; v = strtok(NULL, " ")) {
		json_object_array_add(arr, json_object_new_string(v));
		sb_appendf(said, "%s%s", said->len ? ", " : "", v);
	}
	free(names);
	return arr;
}

void outcome_dry_run(struct outcome *o, const struct lc_plan *p, const char *said)
{
	struct strbuf gone = {0};
	outcome_bool(o, "dry_run", 1);
	outcome_str(o, "version", p->version);
	outcome_str(o, "previous", p->previous);
	outcome_bool(o, "trial", p->trial);
	json_object_object_add(o->fields, "would_remove", names_array(p->pruned, &gone));
	sb_free(&gone);
	struct strbuf sb = {0};
	sb_append(&sb, said);
	outcome_flatpak_removed(o, &sb, p->flatpak, 1);
	outcome_say(o, "dry run: %s; nothing was changed", sb.buf);
	sb_free(&sb);
}

void outcome_install_plan(struct outcome *o, const char *cmd, const struct lc_plan *p,
			  int smoke, int keep)
{
	struct strbuf sb = {0}, gone = {0};
	json_object_put(names_array(p->pruned, &gone));
	outcome_bool(o, "smoke", smoke && !p->unchanged);
	outcome_bool(o, "downgrade", p->downgrade);
	if (p->unchanged && gone.len)
		sb_appendf(&sb, "Mesa %s is already current, so `%s` would only remove Mesa %s to keep %d versions (keep_versions in mesa.conf)",
			   p->version, cmd, gone.buf, keep);
	else if (p->unchanged)
		sb_appendf(&sb, "Mesa %s is already current, so `%s` would leave everything as it is", p->version, cmd);
	else {
		sb_appendf(&sb, "`%s` would %smake Mesa %s current%s%s", cmd,
			   smoke ? "smoke-test it first and, when it passes, " : "", p->version,
			   p->downgrade ? ", back to an older version" : "",
			   p->trial ? " (the session is on: on trial until `tb323fu-ctl mesa keep`)" : "");
		if (p->previous[0])
			sb_appendf(&sb, ", keep Mesa %s as previous", p->previous);
		if (gone.len)
			sb_appendf(&sb, ", and remove Mesa %s to keep %d versions (keep_versions in mesa.conf)",
				   gone.buf, keep);
		else
			sb_appendf(&sb, ", and remove no version (keep_versions = %d)", keep);
		if (p->pinned_kept[0])
			sb_appendf(&sb, "; Mesa %s would be kept beyond it for an application's rule", p->pinned_kept);
	}
	outcome_dry_run(o, p, sb.buf);
	sb_free(&sb);
	sb_free(&gone);
}
