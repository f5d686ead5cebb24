/* The life cycle of installed versions (docs/design.md §12): current, previous, enabled,
 * trial, tries, failed and ready, and every transition between them. This module alone
 * writes the links, the state file and the files of current, always together. */
#ifndef TB_LIFECYCLE_H
#define TB_LIFECYCLE_H

#include "base/config.h"
#include "base/progress.h"
#include "gputest/smoke_run.h"
#include "store/state.h"
#include "store/store.h"
#include "base/error.h"
#include "base/strbuf.h"

/* What a reader sees. */
struct lc_view {
	char *current, *previous;
	char *ready;        /* newest version neither current, previous nor failed */
	struct state st;    /* repaired from the links and env.conf when damaged */
	int state_damaged;
	int current_gone;   /* current names a tree that is gone from versions/ */
	int previous_gone;
	char *foreign;      /* current's target when it is a link outside versions/, else NULL */
	char *planted;      /* store_planted_links: links the next commit replaces, or NULL */
};
void lc_read(const struct store *s, struct lc_view *v);
void lc_view_free(struct lc_view *v);
/* status's state: "trial", "ready" or "idle". */
const char *lc_state_name(const struct lc_view *v);
/* The session in one word of the vocabulary (docs/design.md §12, Terms): "on", "off" or
 * "trial" (on, the current version not yet confirmed). */
const char *lc_session_word(const struct lc_view *v);

/* Where a running command is (docs/design.md §9's running states); each phase is reported as
 * a progress step, which the running-command record publishes (docs/design.md §13). */
enum lc_phase {
	LC_INSTALLING,
	LC_SMOKE_TESTING,
	LC_SWITCHING,
	LC_KEEPING,
	LC_ROLLING_BACK,
};
const char *lc_phase_name(enum lc_phase p);

struct lc_ctx {
	struct store *s; /* locked */
	const struct config *cfg;
	const struct tb_progress *progress;
	int wait; /* --wait: a removal waits for the readers of the version (store/pins.h) */
	const char *gl; /* on --gl: distro, native or zink; NULL: mesa.conf's session_gl */
};

/* What a transition did, for the command's report. */
struct lc_result {
	char version[80];   /* the version acted on */
	char other[80];     /* install/rollback: the previous one afterwards; "" when none */
	int enabled, trial; /* afterwards */
	int tries, max;
	int counted;        /* boot-tick: a start was counted */
	int switched_off;   /* boot-tick: the trial expired */
	int changed;        /* something was written */
	int unchanged;      /* off, on, install: already so; nothing was written (lc_is_off…) */
	int state_repaired; /* a damaged state file was rebuilt */
	int used_reserve;   /* the disk was full: the store's reserve was given up */
	int current_gone;   /* off, boot-tick: current's tree was gone (1) or current pointed
			     * outside versions/ (2, boot-tick); version names it */
	int dropped_previous; /* remove --force: the previous version went, rollback with it */
	char replaced[600]; /* links a commit replaced by files of ours (store_planted_links) */
	char override_linked[600]; /* Flatpak overrides/ folders that were links: not written */
	char pruned[1024];  /* install: the versions removed after it, oldest first, spaces between */
	char pinned_kept[600]; /* install: versions the pruning would have removed but a rule pins */
	char flatpak_removed[1024]; /* remove, install: the Flatpak extensions removed with them
				     * (flatpak_exports_named's form) */
	int downgrade;      /* install: the version made current is older than the one it replaced */
	char unmarked[40];  /* install: the reason of the version's mark that installing it cleared; "" when none */
	int gl;             /* on: the session's GL afterwards (enum session_gl) */
	int gl_missing;     /* on: mesa.conf's session_gl asks for GL current does not carry */
	int failed_removed; /* install: the version failed its smoke tests and its tree was removed */
	char read_kept[600];   /* install: versions the pruning kept because a reader pins them,
				* "V, read by pid N (COMMAND)" joined by "; " */
};
/* What a command would leave as it is (docs/design.md §11, the state first): the session
 * already off (env.conf empty too), already on (current usable and not failed), version
 * already current and not failed. Each needs a settled view: no damaged state, planted link,
 * gone or foreign current, which only a commit puts right. */
int lc_is_off(const struct store *s, const struct lc_view *v);
int lc_is_on(const struct store *s, const struct lc_view *v);
int lc_is_current(const struct lc_view *v, const char *version);

/* Why on, rollback or remove (of version) must refuse, TB_OK when it may go on: what the
 * body says under the lock, and what a caller who may not write the store is answered from
 * the same view (docs/design.md §11), so both get one reason. */
int lc_on_refusal(const struct store *s, const struct lc_view *v, struct tb_error *e);
int lc_rollback_refusal(const struct store *s, const struct lc_view *v, struct tb_error *e);
/* remove's force: the previous version may go too (never current). */
int lc_remove_refusal(const struct store *s, const struct lc_view *v, const char *version,
		      int force, struct tb_error *e);
/* keep and boot-tick: a settled view with no version on trial in a session that is on. */
int lc_nothing_on_trial(const struct lc_view *v);

/* What to do about a current version whose tree is gone, or a current link outside
 * versions/: a sentence for status, doctor and the refusals. */
void lc_gone_advice(const struct store *s, const struct lc_view *v, struct strbuf *sb);

/* Makes an installed version current: smoke tests first (when run_smoke), then links,
 * state and files of current in one commit, then older versions pruned. A version already
 * current (and not failed) is left as it is, only the pruning done (r->unchanged). TB_ESMOKE
 * when the tests fail: nothing switched, failed recorded, and the version's tree removed
 * unless it is current or previous (r->failed_removed). A failure after the version was in
 * versions/ says that it stays there, not current, and that the same command finishes it. */
int lc_install(const struct lc_ctx *c, const char *version, int run_smoke,
	       struct smoke_outcome *smoke, struct lc_result *r, struct tb_error *e);
int lc_on(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);
int lc_off(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);
int lc_keep(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);
int lc_rollback(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e);
/* boot_id NULL: $TB323FU_BOOT_ID, else the kernel's. */
int lc_boot_tick(const struct lc_ctx *c, const char *boot_id, struct lc_result *r,
		 struct tb_error *e);
/* Which versions an install that leaves cur and prev would remove to keep at most keep
 * (docs/design.md §12): never cur, prev, one newer than cur, or one an application's rule
 * pins (those go to pinned, ", " between, when it is not NULL). doomed gets the rest, oldest
 * first, a space between. Returns how many. */
int lc_prune_plan(const struct store *s, const char *cur, const char *prev, int keep,
		  struct strbuf *doomed, struct strbuf *pinned);
/* "Mesa V is not installed", naming the installed version nearest to V when one is close
 * (a mistyped 2026.10.0 for 2026.10.06); reason not-installed. */
int lc_not_installed(const struct store *s, const char *version, struct tb_error *e);
/* The same for install: "Mesa V is not installed", naming the nearest and the download. */
int lc_not_downloaded(const struct store *s, const char *version, struct tb_error *e);
/* The same for a version the release list does not offer (listed: a list was read; 0: none is
 * cached, so whether it is offered is not known): list --available is the next step. */
int lc_not_offered(const struct store *s, const char *version, int listed, struct tb_error *e);
/* Removes a version that is neither current nor previous; with force the previous one too
 * (its link first: rollback is no longer possible, r->dropped_previous). */
int lc_remove(const struct lc_ctx *c, const char *version, int force, struct lc_result *r,
	      struct tb_error *e);

/* What install, rollback and remove would do (--dry-run, docs/design.md §11): the same
 * refusals as the commands, and nothing written. */
struct lc_plan {
	char version[80];      /* install, rollback: becomes current; remove: goes */
	char previous[80];     /* install, rollback: previous afterwards; "" when none */
	int unchanged;         /* install: already current, nothing would change but the pruning */
	int downgrade;         /* install: version is older than the current one */
	int trial;             /* the session is on: the new current would go on trial */
	char pruned[1024];     /* the versions that would be removed, oldest first, spaces between */
	char pinned_kept[600]; /* install: the pruning would keep these for a rule, ", " between */
	char flatpak[1024];    /* the Flatpak extensions that would go with pruned */
};
int lc_plan_install(const struct lc_ctx *c, const char *version, struct lc_plan *p,
		    struct tb_error *e);
/* install's plan for update: version may be not downloaded yet (it would be one more). */
int lc_plan_update(const struct lc_ctx *c, const char *version, struct lc_plan *p,
		   struct tb_error *e);
int lc_plan_rollback(const struct lc_ctx *c, struct lc_plan *p, struct tb_error *e);
int lc_plan_remove(const struct lc_ctx *c, const char *version, int force, struct lc_plan *p,
		   struct tb_error *e);

/* Removes a version's tree and its ICD, env and smoke files (no checks). */
int release_remove(struct store *s, const char *version, struct strbuf *flatpak, struct tb_error *e);

/* The boot id this boot is counted under: $TB323FU_BOOT_ID, else the kernel's; NULL when
 * neither is known. */
char *lc_boot_id(void);

/* Keeps the store's small reserve (docs/design.md §12, "A full disk") in place, and gives
 * it up; 1 when there was one to give up. */
void lc_reserve_keep(const struct store *s);
int lc_reserve_release(const struct store *s);

#endif
