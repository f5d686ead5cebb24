/* What the store's writers say after a change of the life cycle (ctl/cmd/lifecycle_say.h). */
#include "cmd/lifecycle_say.h"
#include "cli/cli_state_first.h"
#include "ops/lifecycle.h"
#include "trial/smoke_run.h"
#include "crash/summary.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>

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
		cli_say_already_current(o, v);
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
