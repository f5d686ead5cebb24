/* What the store's writers (install, install-local, update, on, off, keep, rollback,
 * boot-tick, remove) share: the engine's context for their store, one transition of the
 * life cycle, and the sentences after one, so they speak alike. */
#ifndef TB_LIFECYCLE_SAY_H
#define TB_LIFECYCLE_SAY_H

#include "cli/cli.h"
#include "lifecycle/lifecycle.h"
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
/* The sentences of a command that changed nothing, the same from the state's answer
 * (ctl/cli/cli_state_first.h) and from the body. */
void say_already_on(struct outcome *o, const struct store *s, const char *version);
void say_already_off(struct outcome *o);
void say_already_current(struct outcome *o, const char *version);

/* The fields and sentences after a version became current (smoke NULL: not run), with what
 * the pruning to keep versions removed (r). Shared by install, install-local and update so
 * they speak alike. */
struct smoke_outcome;
void outcome_installed(struct outcome *o, const struct store *s, const char *version,
		       const struct smoke_outcome *smoke, const struct lc_result *r, int keep);

/* What the pruning after an install removed (r->pruned) and which versions a rule kept: the
 * sentences appended to sb, one a line, and "removed" (an array, oldest first) in o. */
struct strbuf;
void say_pruned(struct outcome *o, struct strbuf *sb, const struct lc_result *r, int keep);

/* A dry run's answer (--dry-run, docs/design.md §11): "dry_run", "version", "previous",
 * "trial" and "would_remove" (an array, oldest first) from the plan, and the sentence said
 * (what the command would do) with "nothing was changed". */
void outcome_dry_run(struct outcome *o, const struct lc_plan *p, const char *said);
/* The Flatpak extensions removed with a version (would: that a dry run would remove), names
 * ", " between as flatpak_exports_named gives them: JSON "flatpak_removed" (or
 * "would_remove_flatpak"), always there, and a sentence appended to sb when there are some. */
void outcome_flatpak_removed(struct outcome *o, struct strbuf *sb, const char *names, int would);
/* install's and update's dry run: which version would become current, which stay as
 * previous, which the pruning would remove; smoke says the smoke tests would run. */
void outcome_install_plan(struct outcome *o, const char *cmd, const struct lc_plan *p,
			  int smoke, int keep);

#endif
