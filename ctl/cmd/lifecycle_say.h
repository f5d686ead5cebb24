/* What the store's writers (install, install-local, update, on, off, keep, rollback,
 * boot-tick, remove) share: the engine's context for their store, one transition of the
 * life cycle, and the sentences after one, so they speak alike. */
#ifndef TB_CMD_LIFECYCLE_SAY_H
#define TB_CMD_LIFECYCLE_SAY_H

#include "cli/cli.h"
#include "ops/lifecycle.h"
#include "base/strbuf.h"

/* The engine's context for this command's store. */
struct lc_ctx lc_ctx_of(struct cli *c, struct store *s);

/* A writer that rebuilt a damaged state, replaced a planted link or used the reserve says so
 * after its own sentence. */
void say_repaired(struct outcome *o, const struct lc_result *r);

/* install and install-local: make v current, smoke-test it (unless no_smoke or smoke = off)
 * and say what happened. */
int install_and_say(struct cli *c, struct store *s, const char *v, int no_smoke,
		    struct outcome *o);

/* on, off, keep, rollback, boot-tick: one transition on the store; its version reported. */
typedef int (*transition_fn)(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);
int run_transition(struct cli *c, transition_fn fn, struct lc_result *r, struct store *s,
		   struct outcome *o);

/* boot-tick (before it counts the start) and auto-check: the crash evidence read and its
 * policy applied (crash/summary.h), JSON "crashes" added to o, its sentences to said, which
 * say_crashes appends to o's message once the command said its own. */
void read_crashes(struct cli *c, struct store *s, struct outcome *o, int boot_tick,
		  struct strbuf *said);
void say_crashes(struct outcome *o, struct strbuf *said);

#endif
