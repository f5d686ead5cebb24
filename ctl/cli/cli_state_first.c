/* Answers from the store's state before a writer opens it (ctl/cli/cli_state_first.h). */
#include "cli/cli_state_first.h"
#include "cli/cli_access.h"
#include "cli/cli_table.h"
#include "ops/lifecycle.h"
#include "ops/login_reach.h"
#include "release/release.h"
#include "common/storepath.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* No store at dir: the goal of off, keep and boot-tick already holds (exit 0, so a package's
 * removal or the boot unit never fail on a machine without one); the rest have nothing to
 * work on. Either way nothing is made there, and the sentence names the path. */
static int no_store(const char *name, const char *dir, struct outcome *o)
{
	static const struct { const char *name, *answer; } done[] = {
		{"off", "nothing to switch off"},
		{"keep", "nothing to keep"},
		{"boot-tick", "no Mesa version is on trial"},
		{"app refresh", "no application rules to refresh"},
	};
	struct tb_error e = {0};
	for (size_t i = 0; i < sizeof done / sizeof *done; i++)
		if (is(name, done[i].name)) {
			outcome_say(o, "%s: there is no store at %s (nothing was made there; is --store right?)",
				    done[i].answer, dir);
			return TB_OK;
		}
	tb_fail_why(&e, TB_EFAIL, "not-installed",
		    "there is no store at %s (nothing was made there): no Mesa version installed for `tb323fu-ctl mesa %s`; check --store, or install a version first (tb323fu-ctl mesa update)",
		    dir, name);
	return outcome_fail(o, &e);
}

void cli_say_already_on(struct outcome *o, const struct store *s, const char *version)
{
	const char *link;
	int reads = login_reach(s, &link) == LOGIN_READS;
	outcome_str(o, "version", version);
	outcome_bool(o, "logins_read_store", reads);
	outcome_say(o, "Mesa %s is already on; nothing was changed%s", version,
		    reads ? "" : " (but no login reads this store: see `tb323fu-ctl mesa doctor`)");
}

void cli_say_already_off(struct outcome *o)
{
	outcome_say(o, "Mesa is already off: programs use the distribution's Mesa; nothing was changed");
}

void cli_say_already_current(struct outcome *o, const char *version)
{
	outcome_str(o, "version", version);
	outcome_bool(o, "switched", 0);
	outcome_say(o, "Mesa %s is already the current version; nothing was changed (`tb323fu-ctl mesa verify %s` checks its files, `tb323fu-ctl mesa smoke %s` tests it again)",
		    version, version, version);
}

/* 1 when o holds the answer of a command that would change nothing, or has nothing to act
 * on; the engine gives the same answers under the lock (lc_is_off, lc_is_on, …). */
static int unchanged(const struct store *s, const char *name, const char *operand,
		     const struct lc_view *v, struct outcome *o)
{
	struct tb_error e = {0};
	int clean = !v->state_damaged && !v->planted && !v->foreign && !v->current_gone;
	if (is(name, "keep") && !v->st.trial && clean) {
		outcome_say(o, "nothing to keep: no Mesa version is on trial");
	} else if (is(name, "boot-tick") && (!v->st.enabled || !v->st.trial) && clean) {
		outcome_say(o, "no Mesa version is on trial");
	} else if (is(name, "on") && !v->current && !v->foreign) {
		outcome_fail(o, (tb_fail_why(&e, TB_EFAIL, "not-installed",
					     "no Mesa version installed to switch on (tb323fu-ctl mesa update)"), &e));
	} else if (is(name, "rollback") && (!v->previous || !store_has_version(s, v->previous)) && !v->foreign) {
		outcome_fail(o, (tb_fail_why(&e, TB_EFAIL, "not-installed",
					     "there is no previous version to go back to"), &e));
	} else if (is(name, "remove") && operand && !store_has_version(s, operand)) {
		outcome_fail(o, (lc_not_installed(s, operand, &e), &e)); /* as lc_remove says */
	} else if (is(name, "off") && lc_is_off(s, v)) {
		cli_say_already_off(o);
	} else if (is(name, "on") && lc_is_on(s, v)) {
		cli_say_already_on(o, s, v->current);
	} else if (is(name, "install") && operand && lc_is_current(v, operand) &&
		   release_verify_installed(s, operand, &e) == TB_OK) {
		cli_say_already_current(o, operand);
	} else {
		return 0;
	}
	return 1;
}

int cli_state_first(struct cli *c, const struct cli_command *cmd, const char *operand,
		    struct outcome *o)
{
	const char *dir = c->store_dir && *c->store_dir ? c->store_dir : store_root(NULL);
	struct stat st;
	if (stat(dir, &st) != 0 && !cmd->makes_store)
		return no_store(cmd->name, dir, o);
	struct store s;
	struct tb_error e = {0};
	if (store_open(&s, dir, 0, &e) != 0)
		return -1;
	/* One who may write gets the answer under the lock, once a killed writer's commit and
	 * leftovers are dealt with; one who may not gets it from the state as it is. */
	int answered = 0;
	if (cli_store_access(dir) != 0) {
		struct lc_view v;
		lc_read(&s, &v);
		answered = unchanged(&s, cmd->name, operand, &v, o);
		lc_view_free(&v);
	}
	store_close(&s);
	return answered ? o->code : -1;
}
