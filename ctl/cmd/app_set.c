/* app set APP CHOICE: one desktop application gets its own Mesa, carried by a desktop
 * entry of ours (docs/design.md §16). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
#include "scope/flatpak_scope.h"
#include "apprules/desktop_find.h"
#include "apprules/override_files.h"
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/programs.h"
#include "common/storelayout.h"
#include "common/version_name.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct app_set_opts {
	const char *app, *choice; /* its two operands, in this order */
	const char *gl;           /* --gl: native, zink or distro, or NULL */
	int user;
	int dry_run; /* say which entry would be written, change nothing */
};

/* current, distro, a version installed, or previous (the version previous is now: pinned). */
static char *choice_resolve(const struct store *s, const char *word, struct tb_error *e)
{
	if (!strcmp(word, "distro"))
		return xstrdup(word);
	if (!strcmp(word, "current")) {
		char *cur = store_current(s);
		if (!cur)
			return tb_fail(e, TB_R_NOT_INSTALLED, "no Mesa version is installed (tb323fu-ctl mesa update)"), NULL;
		free(cur);
		return xstrdup(word);
	}
	char *v = !strcmp(word, "previous") ? store_previous(s) : xstrdup(word);
	if (!v)
		return tb_fail(e, TB_R_NOT_INSTALLED, "there is no previous version to pin"), NULL;
	if (!store_has_version(s, v)) {
		tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed (`tb323fu-ctl mesa list` shows what is)", v);
		free(v);
		return NULL;
	}
	return v;
}

/* --gl native or zink of a version (current: the current one now) without that GL. */
static int gl_refusal(const struct store *s, const char *choice, const char *gl, struct tb_error *e)
{
	if (!gl || !strcmp(gl, "distro"))
		return TB_OK;
	const char *v = strcmp(choice, "current") ? choice : NULL;
	char *native = store_env_path_as(s, v, STORE_GL_SUFFIX), *zink = store_env_path_as(s, v, STORE_ZINK_SUFFIX);
	int has_gl = access(native, F_OK) == 0, has_zink = access(zink, F_OK) == 0;
	free(native);
	free(zink);
	char *cur = v ? NULL : store_current(s);
	const char *name = v ? v : cur ? cur : "";
	int rc = TB_OK;
	if (!has_gl)
		rc = tb_fail(e, TB_R_NOT_FOUND_LOCAL, "Mesa %s carries no GL (its release's drivers do not name gl): set the rule without --gl, or with --gl distro", name);
	else if (!strcmp(gl, "zink") && !has_zink)
		rc = tb_fail(e, TB_R_NOT_FOUND_LOCAL, "Mesa %s has no Zink (its release's gallium_drivers do not name zink): set the rule with --gl native, or without --gl", name);
	free(cur);
	return rc;
}

static int cmd_app_set_check(const void *opts, struct outcome *o)
{
	const struct app_set_opts *a = opts;
	const char *w = a->choice;
	if (a->gl && !strcmp(w, "distro"))
		return cli_usage(o, "distro takes no --gl: it gives the distribution's whole Mesa (current --gl distro keeps only its GL)");
	if (!strcmp(w, "current") || !strcmp(w, "previous") || !strcmp(w, "distro") ||
	    version_name_ok(w))
		return TB_OK;
	return cli_usage(o, "\"%.80s\" is not a choice: current, previous, distro or a version (like 2026.10.06)", w);
}

/* app set --dry-run: the entry it would write, and its first Exec line, changing nothing. */
static void set_plan_say(const struct app_ctx *x, const char *id, const char *orig,
			 const char *launcher, const char *choice, const char *gl, int user,
			 struct outcome *o, struct tb_error *e)
{
	struct override_spec spec;
	spec_of(x, launcher, choice, &spec);
	spec.gl = gl;
	char *data = NULL;
	size_t n = 0;
	if (override_plan(&x->sc, id, orig, &spec, &data, &n, e))
		return;
	const char *exec = data ? strstr(data, "\nExec=") : NULL;
	int exec_len = exec ? (int)strcspn(exec + 6, "\n") : 0;
	char *path = path_join(x->sc.apps_dir, id);
	char *text = rule_text(id, choice, gl);
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

static int cmd_app_set(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct app_set_opts *a = opts;
	int user = a->user;
	const char *app = a->app, *word = a->choice;
	struct app_ctx x;
	struct tb_error e = {0};
	struct app_rules r = {0};
	char *choice = NULL, *id = NULL, *orig = NULL, *launcher = NULL;
	int repaired = 0, dry = a->dry_run;
	if (app_open(c, s, &x, user, !dry, &e) || rules_open(&x, &r, !dry, &repaired, &e) < 0 ||
	    !(choice = choice_resolve(s, word, &e)) || gl_refusal(s, choice, a->gl, &e) ||
	    desktop_resolve(&x.sc, app, &id, &e))
		goto out;
	orig = desktop_original(&x.sc, id);
	launcher = find_launcher_program();
	if (!orig) {
		tb_fail(&e, TB_R_APP_NOT_FOUND, "no desktop entry %s is installed", id);
		goto out;
	}
	if (!launcher) {
		tb_fail(&e, TB_R_PROGRAM_MISSING, "the launcher tb323fu-mesa is not installed beside tb323fu-ctl; reinstall tb323fu-mesa");
		goto out;
	}
	if (dry) {
		set_plan_say(&x, id, orig, launcher, choice, a->gl, user, o, &e);
		goto out;
	}
	const struct app_rule *old = apprules_find(&r, id);
	char *before = old ? xstrdup(old->choice) : NULL;
	char *before_gl = old && old->gl ? xstrdup(old->gl) : NULL;
	struct override_spec spec;
	spec_of(&x, launcher, choice, &spec);
	spec.gl = a->gl;
	/* ours first, then the rule: a failure in between leaves an entry refresh removes */
	if (!override_write(&x.sc, id, orig, &spec, &e)) {
		apprules_set(&r, id, choice);
		apprules_set_gl(&r, id, a->gl);
		if (apprules_save(&x.sc, &r, &e)) {
			struct tb_error ignored = {0};
			if (before) {
				spec.choice = before;
				spec.gl = before_gl;
				override_write(&x.sc, id, orig, &spec, &ignored);
			} else {
				override_remove(&x.sc, id, &ignored);
			}
		}
	}
	free(before);
	free(before_gl);
	if (!e.code) {
		char *text = rule_text(id, choice, a->gl);
		char *fp = flatpak_app_note(s, orig, choice, user); /* docs/design.md §17 */
		outcome_say(o, "%s%s: %s/%s, made from %s%s", repaired ? "the damaged rules were rebuilt from the entries; " : "",
			    text, x.sc.apps_dir, id, orig, fp ? fp : "");
		free(fp);
		free(text);
		outcome_str(o, "app", id);
		outcome_str(o, "choice", choice);
		outcome_str(o, "gl", a->gl ? a->gl : "");
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

static const struct cli_option app_set_options[] = {
	APP_USER_OPTION(struct app_set_opts),
	CLI_CHOICE("--gl", "native|zink|distro", "native|zink|distro", struct app_set_opts, gl,
		   "its GL too: the version's own, on Zink, or the distribution's (as `tb323fu-mesa run --gl`)"),
	CLI_DRY_RUN(struct app_set_opts),
	CLI_END,
};

const struct cli_command app_set_command = {
	.name = "app set",
	.args = "APP current|previous|VERSION|distro [--gl native|zink|distro] [--user] [--dry-run]",
	.summary = "give one desktop application its own Mesa, kept in its desktop entry",
	.example = "tb323fu-ctl mesa app set org.darktable.darktable distro",
	.options = app_set_options,
	.opts_size = sizeof(struct app_set_opts),
	.operand = OPERAND_APP_CHOICE,
	.operand_at = offsetof(struct app_set_opts, app),
	.operand_required = 2,
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.check = cmd_app_set_check,
	.run = cmd_app_set,
};
