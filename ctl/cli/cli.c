/* Helpers shared by the commands: building the outcome. */
#include "cli/cli.h"
#include "store/running.h"
#include "cli/cli_state_first.h"
#include "ops/lifecycle.h"
#include "store/manifest.h"
#include "trial/smoke_run.h"
#include "store/state.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ensure_fields(struct outcome *o)
{
	if (!o->fields)
		o->fields = json_object_new_object();
}

void outcome_say(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	free(o->message);
	o->message = s;
}

int outcome_fail(struct outcome *o, const struct tb_error *e)
{
	o->code = e->code ? e->code : TB_EFAIL;
	free(o->message);
	o->message = xstrdup(e->msg[0] ? e->msg : "failed");
	o->reason = e->code ? tb_error_reason(e) : "failed";
	return o->code;
}

void outcome_str(struct outcome *o, const char *key, const char *value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_string(value ? value : ""));
}

void outcome_int(struct outcome *o, const char *key, int64_t value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_int64(value));
}

void outcome_bool(struct outcome *o, const char *key, int value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_boolean(value));
}

int cli_usage(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	struct tb_error e = {0};
	tb_fail_why(&e, TB_EUSAGE, "usage", "%s", s);
	free(s);
	return outcome_fail(o, &e);
}

json_object *cli_drivers_array(const struct manifest *m)
{
	json_object *a = json_object_new_array();
	if (m && m->has_vulkan)
		json_object_array_add(a, json_object_new_string("vulkan"));
	if (m && m->has_opencl)
		json_object_array_add(a, json_object_new_string("opencl"));
	return a;
}

const char *cli_drivers_text(const struct manifest *m)
{
	if (!m || (!m->has_vulkan && !m->has_opencl))
		return "no drivers";
	return m->has_vulkan && m->has_opencl ? "vulkan, opencl" : m->has_vulkan ? "vulkan" : "opencl";
}

void cli_describe_version(struct outcome *o, const struct store *s, const char *version,
			  char *about, size_t n)
{
	struct manifest m = {0};
	struct tb_error ignored = {0};
	int have = store_load_manifest(s, version, &m, &ignored) == TB_OK;
	ensure_fields(o);
	outcome_str(o, "version", version);
	json_object_object_add(o->fields, "drivers", cli_drivers_array(have ? &m : NULL));
	outcome_str(o, "base", have ? m.base : "");
	outcome_str(o, "mesa_version", have ? m.mesa_version : "");
	if (have) {
		/* A commit hash is shortened as git does; any other name is kept whole. */
		const char *base = m.base ? m.base : "?";
		int is_hash = strlen(base) >= 12 && strspn(base, "0123456789abcdef") == strlen(base);
		snprintf(about, n, "%s, based on upstream %.*s", cli_drivers_text(&m), is_hash ? 7 : 64, base);
		manifest_free(&m);
	} else {
		snprintf(about, n, "unknown drivers");
	}
}

/* What the pruning after an install removed and why, as apt says what it removes; "removed"
 * lists them for scripts. */
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
	if (st.enabled && cli_say_no_login(s, &no_login))
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

int cli_pin_version(struct cli *c, const struct store *s, const char *version, struct outcome *o)
{
	pin_take(s, version, c->name ? c->name : "", &c->pin);
	running_attach_reader(s->root); /* status shows it while no writer runs */
	if (store_has_version(s, version))
		return 0;
	struct tb_error e = {0};
	tb_fail_why(&e, TB_EFAIL, "not-installed", "Mesa %s is not installed (tb323fu-ctl mesa list shows what is)", version);
	return outcome_fail(o, &e);
}

char *cli_pick_version(const struct store *s, const char *version, struct outcome *o)
{
	struct tb_error e = {0};
	char *chosen = version ? xstrdup(version) : store_current(s);
	if (!chosen)
		tb_fail_why(&e, TB_EFAIL, "not-installed", "no Mesa version is installed (tb323fu-ctl mesa update)");
	else if (!store_has_version(s, chosen))
		tb_fail_why(&e, TB_EFAIL, "not-installed",
			    "Mesa %s is not installed (tb323fu-ctl mesa list shows what is)", chosen);
	if (e.code) {
		outcome_fail(o, &e);
		free(chosen);
		return NULL;
	}
	outcome_str(o, "version", chosen);
	return chosen;
}
