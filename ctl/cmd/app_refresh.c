/* app refresh [--user]: rebuild the rules' desktop entries from their originals (the
 * package's trigger and the daily check run it). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
#include "apprules/desktop_entry.h"
#include "apprules/desktop_find.h"
#include "apprules/override_files.h"
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/programs.h"
#include "base/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct app_user_opts {
	int user;
};

/* One rule made current with its original: rebuilt when the original moved or changed (or
 * ours is missing or carries another rule), removed when the original is gone. A word for
 * the report, NULL when nothing changed. */
static const char *refresh_one(struct app_ctx *x, const struct app_rule *rule, const char *launcher,
			       struct tb_error *e)
{
	char *orig = desktop_original(&x->sc, rule->id);
	char *op = NULL, *osha = NULL, *ochoice = NULL, *ogl = NULL;
	int owner = override_owner(&x->sc, rule->id, &op, &osha, &ochoice, &ogl);
	const char *did = NULL;
	char hex[SHA256_HEX_LEN + 1] = "";
	if (owner == 2)
		did = "left as it is (the entry there is not ours)";
	else if (!orig && owner == 1)
		did = override_remove(&x->sc, rule->id, e) ? NULL : "removed (its original is gone)";
	else if (orig && (owner == 0 || desktop_file_sha256(orig, hex) || !op || strcmp(op, orig) ||
			  !osha || strcmp(osha, hex) || !ochoice || strcmp(ochoice, rule->choice) ||
			  !ogl != !rule->gl || (ogl && strcmp(ogl, rule->gl)))) {
		struct override_spec spec;
		spec_of(x, launcher, rule->choice, &spec);
		spec.gl = rule->gl;
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
	free(ogl);
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

static int cmd_app_refresh(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct app_user_opts *a = opts;
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
		tb_fail(&e, TB_R_PROGRAM_MISSING, "the launcher tb323fu-mesa is not installed beside tb323fu-ctl; reinstall tb323fu-mesa");
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

static const struct cli_option app_refresh_options[] = {APP_USER_OPTION(struct app_user_opts), CLI_END};

const struct cli_command app_refresh_command = {
	.name = "app refresh",
	.args = "[--user]",
	.summary = "rebuild the rules' desktop entries from their originals (the package's trigger runs it)",
	.example = "tb323fu-ctl mesa app refresh",
	.options = app_refresh_options,
	.opts_size = sizeof(struct app_user_opts),
	.open = OPEN_WRITER,
	.writes = 1,
	.done_without_store = "no application rules to refresh",
	.run = cmd_app_refresh,
};
