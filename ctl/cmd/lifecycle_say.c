/* What the store's writers say after a change of the life cycle (ctl/cmd/lifecycle_say.h). */
#include "cmd/lifecycle_say.h"
#include "cli/cli_state_first.h"
#include "ops/lifecycle.h"
#include "trial/smoke_run.h"
#include "base/error.h"
#include "base/alloc.h"

#include <stdlib.h>

/* The engine's context for this command's store. */
struct lc_ctx lc_ctx_of(struct cli *c, struct store *s)
{
	return (struct lc_ctx){.s = s, .cfg = &c->cfg, .progress = c->progress, .wait = c->wait};
}

/* A writer that rebuilt a damaged state says so after its own sentence. */
void say_repaired(struct outcome *o, const struct lc_result *r)
{
	if (r->state_repaired && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nthe store's state file was damaged; it was rebuilt from the links and env.conf", m);
		free(m);
	}
	if (r->replaced[0] && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nwarning: %s stood where the store keeps its own file; the link was replaced by the file (what it pointed at was not changed)",
			    m, r->replaced);
		free(m);
	}
	if (r->used_reserve && o->message) {
		char *m = o->message;
		o->message = NULL;
		outcome_say(o, "%s\nthe disk is full: this used the store's last reserve; free some space (partial downloads in cache/, versions not in use)", m);
		free(m);
	}
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
		cli_say_already_current(o, v);
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
