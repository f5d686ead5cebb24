/* The life cycle's one owner: every transition of docs/design.md §12 reads the store once,
 * decides the new links and state, and commits them with the files of current. */
#include "lifecycle/lifecycle.h"
#include "store/layout.h"
#include "lifecycle/remember.h"
#include "lifecycle/session_gl.h"
#include "apprules/pinning.h"
#include "flatpak/export.h"
#include "flatpak/session.h"
#include "release/release.h"
#include "store/envfiles.h"
#include "store/manifest.h"
#include "release/release.h"
#include "gputest/suite.h"
#include "base/testhook.h"
#include "store/txn.h"
#include "store/marks.h"
#include "store/pins.h"
#include "common/storelayout.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "common/suggest.h"
#include "common/flatpakname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define RESERVE_BYTES (64 * 1024)

const char *lc_phase_name(enum lc_phase p)
{
	static const char *const names[] = {"installing", "smoke-testing", "switching", "keeping",
					    "rolling-back"};
	return names[p];
}

static void phase(const struct lc_ctx *c, enum lc_phase p, const char *version)
{
	(void)version;
	progress_step(c->progress, lc_phase_name(p));
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A damaged state file says nothing we can trust: the session keeps what env.conf gives it
 * (on when env.conf selects something), and nothing is on trial or failed. */
static void repair_state(const struct store *s, const char *current, struct state *st)
{
	state_free(st);
	char *conf = store_path(s, STORE_ENV_CONF);
	size_t len = 0;
	char *text = read_small_file_nofollow(conf, STATE_MAX_BYTES, &len);
	st->enabled = current && text && len > 0;
	free(text);
	free(conf);
}

static char *ready_version(const struct store *s, const struct lc_view *v)
{
	size_t n;
	char **list = store_versions(s, &n);
	char *ready = NULL;
	struct marks m; /* a version the store remembers as gone wrong waits for no one */
	marks_load(s, &m);
	for (size_t i = 0; i < n && !ready; i++)
		if (!same(list[i], v->current) && !same(list[i], v->previous) &&
		    !same(list[i], v->st.failed) && !marks_find(&m, list[i]))
			ready = xstrdup(list[i]);
	marks_free(&m);
	store_free_list(list, n);
	return ready;
}

/* current's target when it is a link that does not name versions/<v> (made by hand). */
static char *foreign_target(const struct store *s, const char *current)
{
	if (current)
		return NULL;
	char *p = path_join(s->root, STORE_CURRENT);
	char buf[4096];
	ssize_t n = readlink(p, buf, sizeof buf - 1);
	free(p);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

void lc_read(const struct store *s, struct lc_view *v)
{
	memset(v, 0, sizeof *v);
	v->current = store_current(s);
	v->previous = store_previous(s);
	v->current_gone = store_version_gone(s, v->current);
	v->previous_gone = store_version_gone(s, v->previous);
	v->foreign = foreign_target(s, v->current);
	v->planted = store_planted_links(s);
	v->state_damaged = state_load(s, &v->st) != 0;
	if (v->state_damaged)
		repair_state(s, v->current, &v->st);
	v->ready = ready_version(s, v);
}

void lc_view_free(struct lc_view *v)
{
	free(v->current);
	free(v->previous);
	free(v->ready);
	free(v->foreign);
	free(v->planted);
	state_free(&v->st);
	memset(v, 0, sizeof *v);
}

const char *lc_state_name(const struct lc_view *v)
{
	if (v->st.enabled && same(v->st.trial, v->current))
		return "trial";
	return v->ready ? "ready" : "idle";
}

const char *lc_session_word(const struct lc_view *v)
{
	return !v->st.enabled ? "off" : !strcmp(lc_state_name(v), "trial") ? "trial" : "on";
}

char *lc_boot_id(void)
{
	const char *env = getenv("TB323FU_BOOT_ID");
	if (env && *env)
		return xstrdup(env);
	char *id = read_small_file("/proc/sys/kernel/random/boot_id", 128, NULL);
	if (id)
		id[strcspn(id, "\n")] = '\0';
	return id;
}

static int settled(const struct lc_view *v)
{
	return !v->state_damaged && !v->planted && !v->foreign && !v->current_gone;
}

int lc_nothing_on_trial(const struct lc_view *v)
{
	return settled(v) && (!v->st.enabled || !v->st.trial);
}

/* 1: env.conf is an empty file (or absent), 0: a file that selects something, -1: neither. */
static int env_conf_empty(const struct store *s)
{
	char *p = store_path(s, STORE_ENV_CONF);
	struct stat st;
	int r = lstat(p, &st) != 0 ? 1 : !S_ISREG(st.st_mode) ? -1 : st.st_size == 0;
	free(p);
	return r;
}

int lc_is_off(const struct store *s, const struct lc_view *v)
{
	return settled(v) && !v->st.enabled && !v->st.trial && env_conf_empty(s) == 1;
}

int lc_is_on(const struct store *s, const struct lc_view *v)
{
	return settled(v) && v->current && v->st.enabled && !same(v->st.failed, v->current) &&
	       env_conf_empty(s) == 0;
}

/* Whether flatpak.conf says what current's exports make it say while on (§17): an export
 * made or removed since the last commit makes `on` commit again. */
static int flatpak_conf_agrees(const struct store *s, const char *current)
{
	char *drivers = flatpak_session_drivers(s, current);
	char *want = drivers ? xasprintf("%s=%s\n", FLATPAK_GL_DRIVERS_VAR, drivers) : xstrdup("");
	char *p = store_path(s, STORE_FLATPAK_CONF);
	char *text = read_small_file_nofollow(p, 64 * 1024, NULL);
	int yes = text && !strcmp(text, want);
	free(text);
	free(p);
	free(want);
	free(drivers);
	return yes;
}

int lc_is_current(const struct lc_view *v, const char *version)
{
	return settled(v) && same(version, v->current) && !same(v->st.failed, version);
}

/* The trial rule (docs/design.md §12): the version current while switched on is new to the
 * session; this boot is already under way, so it is not counted as one of its starts. */
static void start_trial(struct state *st, const char *current, const struct config *cfg)
{
	state_set(&st->trial, current);
	st->tries = 0;
	st->max = cfg->max_tries;
	char *boot = lc_boot_id();
	state_set(&st->boot, boot);
	free(boot);
}

static void end_trial(struct state *st)
{
	state_set(&st->trial, NULL);
	st->tries = 0;
}

void lc_reserve_keep(const struct store *s)
{
	char *p = path_join(s->root, STORE_RESERVE);
	if (access(p, F_OK) != 0) {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			static const char zeros[4096];
			int ok = 1;
			for (int i = 0; ok && i < RESERVE_BYTES / 4096; i++)
				ok = write(fd, zeros, sizeof zeros) == (ssize_t)sizeof zeros;
			ok = ok && fsync(fd) == 0;
			close(fd);
			if (!ok)
				unlink(p); /* a partial reserve only takes what others need */
		}
	}
	free(p);
}

int lc_reserve_release(const struct store *s)
{
	char *p = path_join(s->root, STORE_RESERVE);
	int had = unlink(p) == 0;
	free(p);
	return had;
}

/* What to delete when the store's disk is full; installing: the version an install is
 * making current, which is not one to delete. */
static void space_advice(const struct store *s, const char *installing, struct strbuf *sb)
{
	sb_appendf(sb, "; the disk holding %s is full: delete partial downloads (%s/cache/*.part)", s->root, s->root);
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s), *prev = store_previous(s);
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		if (same(list[i], cur) || same(list[i], prev) || same(list[i], installing))
			continue;
		sb_appendf(sb, "%s%s", any++ ? ", " : " or versions not in use (`tb323fu-ctl mesa remove VERSION`: ", list[i]);
	}
	if (any)
		sb_append(sb, ")");
	free(cur);
	free(prev);
	store_free_list(list, n);
}

/* keep_current: current is a link outside versions/ that stays as the user made it. */
static int stage_all(const struct lc_ctx *c, const char *cur, const char *prev,
		     const struct state *st, int keep_current, const struct marks *mk,
		     struct txn *t, struct tb_error *e)
{
	char *cl = store_version_rel(cur);
	char *pl = store_version_rel(prev);
	struct strbuf sb = {0};
	state_format(st, &sb);
	int rc = keep_current ? TB_OK : txn_put_link(t, STORE_CURRENT, cl, e);
	if (!rc)
		rc = txn_put_link(t, STORE_PREVIOUS, pl, e);
	if (!rc)
		rc = txn_put_file(t, STORE_STATE, sb.buf, sb.len, e);
	/* what the store remembers changes with the links (§12); not where anything but a file
	 * stands at marked (a folder, a link: the layout refuses it), which would keep the
	 * commit's temporary from its place: the way out goes on without the mark */
	struct tb_error no_marks = {0};
	char *marked = mk ? store_reach_file(c->s, STORE_MARKS, 0, &no_marks) : NULL;
	if (!rc && marked) {
		char *text = marks_format(mk);
		rc = txn_put_file(t, STORE_MARKS, text, strlen(text), e);
		free(text);
	}
	free(marked);
	/* a tree that is gone has no files to select: the ICD and env files of current go */
	/* flatpak.conf names current's extension while on and exported (§17) */
	const char *sel = store_version_gone(c->s, cur) ? NULL : cur;
	char *drivers = sel && st->enabled ? flatpak_session_drivers(c->s, sel) : NULL;
	if (!rc)
		rc = envfiles_stage_current(c->s, sel, st->enabled, st->gl, drivers, t, e);
	free(drivers);
	sb_free(&sb);
	free(cl);
	free(pl);
	return rc;
}

/* current is a link outside versions/: a commit leaves it (only off and boot-tick commit then). */
static int foreign_kept(const struct store *s)
{
	char *t = foreign_target(s, NULL);
	int yes = t != NULL;
	free(t);
	return yes;
}

/* Where an install that stopped before its commit left the version it was installing: in
 * versions/, not current; or current as it was (an install of the current version, failed). */
static void install_left(const struct store *s, const char *current, const char *version,
			 char *out, size_t n)
{
	if (same(current, version))
		snprintf(out, n, "Mesa %s stays current as it was, and nothing else was changed", version);
	else
		snprintf(out, n, "it stays in %.300s/versions, not current, and nothing else was changed", s->root);
}

/* Links, state and files of current in one commit, and the store's marks when mk is not
 * NULL. safety: a way out of a bad build (off, boot-tick's switch-off, rollback), which may
 * give up the reserve on a full disk. installing: the version an install makes current,
 * already in versions/: a failure says it stays there, not current, and that the same
 * command run again finishes the install. */
static int commit_as(const struct lc_ctx *c, const char *cur, const char *prev,
		     const struct state *st, int safety, const char *installing,
		     const struct marks *mk, struct lc_result *r, struct tb_error *e)
{
	for (int attempt = 0;; attempt++) {
		struct tb_error err = {0};
		struct txn t;
		txn_init(&t, c->s);
		char *planted = store_planted_links(c->s);
		int keep_current = !cur && foreign_kept(c->s);
		int rc = stage_all(c, cur, prev, st, keep_current, mk, &t, &err);
		/* The Flatpak override is right on and off alike (§17): set before a commit
		 * that leaves the session on, taken away after one that leaves it off, so a
		 * kill between leaves it where either state is served. */
		if (!rc && st->enabled)
			flatpak_session_override(1, r->override_linked, sizeof r->override_linked);
		if (rc)
			txn_abort(&t);
		else
			rc = txn_commit(&t, &err);
		if (!rc && !st->enabled)
			flatpak_session_override(0, r->override_linked, sizeof r->override_linked);
		if (!rc && planted) { /* the renames put our files where the links were */
			size_t used = strlen(r->replaced);
			snprintf(r->replaced + used, sizeof r->replaced - used, "%s%s", used ? ", " : "", planted);
		}
		free(planted);
		if (!rc) {
			r->changed = 1;
			r->enabled = st->enabled;
			r->trial = st->trial != NULL;
			r->tries = st->tries;
			r->max = st->max;
			return TB_OK;
		}
		int full = tb_error_is(&err, TB_R_NO_SPACE);
		if (safety && full && attempt == 0 && lc_reserve_release(c->s)) {
			r->used_reserve = 1;
			continue;
		}
		struct strbuf why = {0};
		if (full)
			space_advice(c->s, installing, &why);
		if (installing) {
			char *now = store_current(c->s), left[512];
			install_left(c->s, now, installing, left, sizeof left);
			int was_current = same(now, installing);
			rc = tb_fail_again(e, &err, "%sMesa %s %s: %.300s; %s%.300s; %sthe same command run again %s",
					   was_current ? "the install of " : "", installing,
					   was_current ? "did not finish" : "was not made current", err.msg, left,
					   why.buf ? why.buf : "", full ? "once there is room, " : "",
					   was_current ? "finishes it" : "makes it current");
			free(now);
		} else
			rc = tb_fail_again(e, &err, "%.500s; nothing was changed%.400s",
					   err.msg, why.buf ? why.buf : "");
		sb_free(&why);
		return rc;
	}
}

static int commit(const struct lc_ctx *c, const char *cur, const char *prev,
		  const struct state *st, int safety, struct lc_result *r, struct tb_error *e)
{
	return commit_as(c, cur, prev, st, safety, NULL, NULL, r, e);
}

/* A transition starts from what a reader sees; a damaged state is rebuilt by the commit. */
static void begin(const struct lc_ctx *c, struct lc_view *v, struct lc_result *r)
{
	memset(r, 0, sizeof *r);
	/* what the writer's takeover replaced before the command began */
	snprintf(r->replaced, sizeof r->replaced, "%s", c->s->replaced);
	lc_read(c->s, v);
	r->state_repaired = v->state_damaged;
}

void lc_gone_advice(const struct store *s, const struct lc_view *v, struct strbuf *sb)
{
	if (v->foreign)
		sb_appendf(sb, "the store's link %s/current points at %.300s, outside versions/, which tb323fu-ctl never does; point it at an installed version (ln -sfn versions/VERSION %s/current) or remove it",
			   s->root, v->foreign, s->root);
	else
		sb_appendf(sb, "Mesa %s, the current version, is gone from %s/versions (deleted outside tb323fu-ctl); ",
			   v->current, s->root);
	if (!v->foreign && v->previous && !v->previous_gone)
		sb_appendf(sb, "go back to Mesa %s with `tb323fu-ctl mesa rollback`", v->previous);
	else if (!v->foreign && v->ready)
		sb_appendf(sb, "install Mesa %s with `tb323fu-ctl mesa install %s`", v->ready, v->ready);
	else if (!v->foreign)
		sb_append(sb, "install a version with `tb323fu-ctl mesa update`");
	if (v->st.enabled)
		sb_append(sb, "; `tb323fu-ctl mesa off` switches the session to the distribution's Mesa meanwhile");
}

/* A transition that needs a current version it can select refuses a current whose tree is
 * gone, or a current link the user pointed elsewhere: nothing is written. */
static int current_unusable(const struct store *s, const struct lc_view *v, const char *cmd,
			    struct tb_error *e)
{
	if (!v->current_gone && !v->foreign)
		return TB_OK;
	struct strbuf sb = {0};
	lc_gone_advice(s, v, &sb);
	int rc = tb_fail(e, v->foreign ? TB_R_DAMAGED_STORE : TB_R_NOT_INSTALLED,
			 "%s cannot go on: %s; nothing was changed", cmd, sb.buf);
	sb_free(&sb);
	return rc;
}

static void name(char *out, size_t n, const char *v)
{
	snprintf(out, n, "%s", v ? v : "");
}

int release_remove(struct store *s, const char *version, struct strbuf *flatpak, struct tb_error *e)
{
	char *env = store_env_path(s, version);
	char *icd = store_icd_dir(s, version);
	char *smoke = store_smoke_file(s, version);
	char *tree = store_version_dir(s, version);
	char *doomed = store_path(s, STORE_VERSIONS "/.%s" STORE_REMOVING_SUFFIX, version);
	int rc = TB_OK;
	/* One rename takes the version away whole; its own files follow. */
	if (rename(tree, doomed) != 0 && errno != ENOENT)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", tree);
	if (!rc) {
		testhook_pause("removing");
		remove_tree(doomed);
		/* the env file last: a kill before it leaves what the next writer's sweep of
		 * versions without a tree finds by it (store_lock) */
		unlink(smoke);
		remove_tree(icd);
		store_remove_gl_env(s, version);
		unlink(env);
		/* its Flatpak extensions go with it (docs/design.md §17); a pinned version is never
		 * removed, so its exports stay */
		flatpak_unexport_gone(s, version, flatpak);
	}
	free(env);
	free(icd);
	free(smoke);
	free(tree);
	free(doomed);
	return rc;
}

int lc_prune_plan(const struct store *s, const char *cur, const char *prev, int keep,
		  struct strbuf *doomed, struct strbuf *pinned)
{
	size_t n;
	char **list = store_versions(s, &n);
	size_t kept = n;
	int count = 0;
	for (size_t i = n; i-- > 0 && kept > (size_t)keep;) {
		const char *v = list[i]; /* oldest first from the end */
		if (same(v, cur) || same(v, prev) || (cur && version_compare(v, cur) > 0))
			continue;
		char *pin = apprules_pinning(s, v); /* an application's rule keeps it (§16) */
		if (pin && pinned)
			sb_appendf(pinned, "%s%s", pinned->len ? ", " : "", v);
		free(pin);
		if (pin)
			continue;
		sb_appendf(doomed, "%s%s", doomed->len ? " " : "", v);
		kept--;
		count++;
	}
	store_free_list(list, n);
	return count;
}

/* Removes what lc_prune_plan names, saying in r what went (docs/design.md §12). */
static void prune_versions(struct store *s, int keep, struct lc_result *r)
{
	char *cur = store_current(s), *prev = store_previous(s);
	struct strbuf doomed = {0}, pinned = {0}, gone = {0}, flatpak = {0};
	lc_prune_plan(s, cur, prev, keep, &doomed, &pinned);
	struct strbuf read = {0};
	for (char *v = doomed.buf ? strtok(doomed.buf, " ") : NULL; v; v = strtok(NULL, " ")) {
		struct tb_error ignored = {0};
		int fd = -1;
		/* a version a reader pins stays until the next install (it is not a must) */
		if (pin_exclude(s, v, 0, NULL, &fd, &ignored) != TB_OK) {
			char *who = pin_holders(s, v);
			sb_appendf(&read, "%s%s, read by %s", read.len ? "; " : "", v, who ? who : "another process");
			free(who);
			continue;
		}
		if (release_remove(s, v, &flatpak, &ignored) == TB_OK) {
			sb_appendf(&gone, "%s%s", gone.len ? " " : "", v);
			pin_forget(s, v);
		}
		if (fd >= 0)
			close(fd);
	}
	snprintf(r->read_kept, sizeof r->read_kept, "%s", read.buf ? read.buf : "");
	sb_free(&read);
	snprintf(r->pruned, sizeof r->pruned, "%s", gone.buf ? gone.buf : "");
	snprintf(r->flatpak_removed, sizeof r->flatpak_removed, "%s", flatpak.buf ? flatpak.buf : "");
	sb_free(&flatpak);
	snprintf(r->pinned_kept, sizeof r->pinned_kept, "%s", pinned.buf ? pinned.buf : "");
	sb_free(&doomed);
	sb_free(&pinned);
	sb_free(&gone);
	free(cur);
	free(prev);
}

/* A version that failed its smoke tests is not kept to be installed later (docs/design.md
 * §12): its tree goes, unless a link names it (current, previous) or an application's rule
 * pins it; the state keeps the failure. */
static int failed_removable(const struct store *s, const struct lc_view *v, const char *version)
{
	if (same(version, v->current) || same(version, v->previous))
		return 0;
	char *pin = apprules_pinning(s, version);
	int yes = pin == NULL;
	free(pin);
	return yes;
}

static int smoke_failed(const struct lc_ctx *c, struct lc_view *v, const char *version,
			enum tb_reason reason, const char *why, struct lc_result *r,
			struct tb_error *e)
{
	state_set_failed(&v->st, version, reason, why);
	struct marks mk; /* the store remembers it (§12), in the same commit */
	marks_load(c->s, &mk);
	remember_mark(c->cfg, c->s, &mk, version, reason, why);
	int rc = commit_as(c, v->current, v->previous, &v->st, 0, NULL, &mk, r, e);
	marks_free(&mk);
	if (rc)
		return rc;
	if (same(v->current, version))
		return tb_fail(e, TB_R_SMOKE_FAILED, "Mesa %s failed its smoke test (%s); it stays current, roll back with `tb323fu-ctl mesa rollback` or switch it off with `tb323fu-ctl mesa off` (look with `tb323fu-ctl mesa smoke %s`)",
			       version, why, version);
	char stays[160] = "no store version is current";
	if (v->current)
		snprintf(stays, sizeof stays, "Mesa %s stays current", v->current);
	struct tb_error ignored = {0};
	struct strbuf flatpak = {0}; /* its Flatpak extensions go with it, named */
	if (failed_removable(c->s, v, version) && release_remove(c->s, version, &flatpak, &ignored) == TB_OK) {
		r->failed_removed = 1;
		int with = flatpak.buf && *flatpak.buf;
		rc = tb_fail(e, TB_R_SMOKE_FAILED, "Mesa %s failed its smoke test (%s) and was removed from the store%s%s; nothing was switched, %s (`tb323fu-ctl mesa status` shows the failure)",
			     version, why, with ? " with its Flatpak extensions " : "", with ? flatpak.buf : "", stays);
		sb_free(&flatpak);
		return rc;
	}
	sb_free(&flatpak);
	return tb_fail(e, TB_R_SMOKE_FAILED, "Mesa %s failed its smoke test (%s); nothing was switched, %s, and Mesa %s stays in the store as %s (look with `tb323fu-ctl mesa smoke %s`)",
		       version, why, stays, version,
		       same(version, v->previous) ? "the previous version" : "an application's rule pins it", version);
}

/* The tree install switches to, found whole just before the commit: its smoke test (and a
 * suite) may have taken hours, and a tree deleted or damaged meanwhile (by hand, by the
 * helper's clean-up) must not become current. Presence, modes and sizes, no re-hash: it was
 * hashed when the install began. */
static int still_whole(const struct lc_ctx *c, const struct lc_view *v, const char *version,
		       struct tb_error *e)
{
	struct tb_error bad = {0};
	if (release_check_present(c->s, version, &bad) == TB_OK)
		return TB_OK;
	char stays[160] = "no store version is current";
	if (v->current && !same(v->current, version))
		snprintf(stays, sizeof stays, "Mesa %s stays current", v->current);
	if (!store_has_version(c->s, version))
		return tb_fail(e, TB_R_NOT_INSTALLED,
			       "Mesa %s is gone from %s/versions since its install began, so it was not made "
			       "current (%s; nothing was switched); download or install-local it again",
			       version, c->s->root, stays);
	return tb_fail_again(e, &bad,
			     "Mesa %s changed since its install began, so it was not made current (%s; "
			     "nothing was switched): %.600s",
			     version, stays, bad.msg);
}

/* What becomes previous when version becomes current. */
static const char *install_previous(const struct lc_view *v, const char *version)
{
	if (v->current_gone) /* the gone version cannot be gone back to */
		return v->previous && !v->previous_gone && !same(v->previous, version) ? v->previous : NULL;
	return same(v->current, version) ? v->previous : v->current;
}

int lc_install(const struct lc_ctx *c, const char *version, int run_smoke,
	       struct smoke_outcome *smoke, struct lc_result *r, struct tb_error *e)
{
	memset(smoke, 0, sizeof *smoke);
	struct lc_view v;
	begin(c, &v, r);
	name(r->version, sizeof r->version, version);
	int rc = TB_OK;
	phase(c, LC_INSTALLING, version);
	if (v.foreign) {
		rc = current_unusable(c->s, &v, "install", e);
		goto out;
	}
	if (!store_has_version(c->s, version)) {
		rc = tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed: download it first (tb323fu-ctl mesa download %s)", version, version);
		goto out;
	}
	if (lc_is_current(&v, version)) {
		/* installing it again would only start a trial anew; what an install killed after
		 * its commit left unpruned is pruned now */
		r->unchanged = 1;
		prune_versions(c->s, c->cfg->keep_versions, r);
		goto out;
	}
	if (run_smoke) {
		/* Tested where it lies, before anything points at it: a failure switches nothing. */
		phase(c, LC_SMOKE_TESTING, version);
		struct tb_error smoke_err = {0};
		int src = smoke_run_version(c->s, version, c->progress, smoke, &smoke_err);
		/* mesa.conf's smoke_suite: a tier after the smoke tests, failing the same way */
		if (!src && !smoke->failed)
			src = suite_after_install(c->s, version, c->cfg, c->progress, &smoke_err);
		testhook_pause("smoke-tested");
		if (src && tb_interrupted) {
			/* stopped by a signal, not failed: nothing is recorded against the version,
			 * which stays where it is for the same command to take up again */
			char left[512];
			install_left(c->s, v.current, version, left, sizeof left);
			rc = tb_fail(e, TB_R_INTERRUPTED, "interrupted by %s while the smoke tests of Mesa %s ran: %s; the same command run again smoke-tests it and makes it current",
				     tb_interrupted_name(), version, left);
			goto out;
		}
		if (src || smoke->failed) {
			rc = smoke_failed(c, &v, version, src ? smoke_err.reason : TB_R_SMOKE_FAILED,
					  src ? smoke_err.msg : smoke->first_failure, r, e);
			if (src && tb_error_is(&smoke_err, TB_R_SUITE_REGRESSION))
				e->reason = smoke_err.reason;
			goto out;
		}
	}
	phase(c, LC_SWITCHING, version);
	rc = still_whole(c, &v, version, e);
	if (rc)
		goto out;
	const char *prev = install_previous(&v, version);
	state_clear_failed(&v.st);
	if (v.st.enabled)
		start_trial(&v.st, version, c->cfg);
	else
		end_trial(&v.st);
	struct marks mk; /* installed: named, or newer than the mark; it goes in the commit */
	marks_load(c->s, &mk);
	const struct mark *had = marks_find(&mk, version);
	if (had)
		name(r->unmarked, sizeof r->unmarked, had->reason);
	int unmark = marks_clear(&mk, version);
	rc = commit_as(c, version, prev, &v.st, 0, version, unmark ? &mk : NULL, r, e);
	marks_free(&mk);
	r->downgrade = !rc && v.current && !v.current_gone && version_compare(version, v.current) < 0;
	if (!rc) {
		testhook_pause("committed");
		name(r->other, sizeof r->other, prev);
		prune_versions(c->s, c->cfg->keep_versions, r);
	}
out:
	lc_view_free(&v);
	return rc;
}

int lc_on_refusal(const struct store *s, const struct lc_view *v, struct tb_error *e)
{
	if (v->current_gone || v->foreign)
		return current_unusable(s, v, "on", e);
	if (!v->current)
		return tb_fail(e, TB_R_NOT_INSTALLED, "no Mesa version installed to switch on (tb323fu-ctl mesa update)");
	return TB_OK;
}

/* The session's GL `on` gives (§6): --gl's, else mesa.conf's; --gl for GL current does not
 * carry is refused, mesa.conf's is kept for a later version (r->gl_missing). */
static int on_gl(const struct lc_ctx *c, const struct lc_view *v, enum session_gl *gl,
		 struct lc_result *r, struct tb_error *e)
{
	int want = session_gl_parse(c->gl ? c->gl : c->cfg->session_gl);
	*gl = want < 0 ? SESSION_GL_DISTRO : (enum session_gl)want;
	if (session_gl_available(c->s, *gl))
		return TB_OK;
	if (!c->gl) { /* mesa.conf's wish, kept: GL reaches the session with a version that has it */
		r->gl_missing = 1;
		return TB_OK;
	}
	if (*gl == SESSION_GL_ZINK && session_gl_available(c->s, SESSION_GL_NATIVE))
		return tb_fail(e, TB_R_NOT_FOUND_LOCAL, "Mesa %s has no Zink (its release's gallium_drivers do not name zink): switch it on with --gl native, or without --gl",
			       v->current);
	return tb_fail(e, TB_R_NOT_FOUND_LOCAL, "Mesa %s carries no GL (its release's drivers do not name gl): switch it on without --gl",
		       v->current);
}

int lc_on(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	enum session_gl gl = SESSION_GL_DISTRO;
	int rc = lc_on_refusal(c->s, &v, e);
	if (!rc)
		rc = on_gl(c, &v, &gl, r, e);
	r->gl = gl;
	if (rc) {
		; /* nothing was changed */
	} else if (lc_is_on(c->s, &v) && flatpak_conf_agrees(c->s, v.current) && v.st.gl == gl) {
		flatpak_session_override(1, r->override_linked, sizeof r->override_linked);
		name(r->version, sizeof r->version, v.current);
		r->unchanged = 1;
		r->enabled = 1;
		rc = TB_OK;
	} else {
		name(r->version, sizeof r->version, v.current);
		/* GL newly given to the session is a change the compositor loads: on trial too */
		if (!v.st.enabled || (gl != SESSION_GL_DISTRO && gl != v.st.gl && !r->gl_missing)) {
			v.st.enabled = 1;
			start_trial(&v.st, v.current, c->cfg);
		}
		v.st.gl = gl;
		if (same(v.st.failed, v.current)) {
			state_clear_failed(&v.st);
		}
		phase(c, LC_SWITCHING, v.current);
		rc = commit(c, v.current, v.previous, &v.st, 0, r, e);
	}
	lc_view_free(&v);
	return rc;
}

int lc_off(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	if (lc_is_off(c->s, &v)) {
		r->unchanged = 1;
		lc_view_free(&v);
		return TB_OK;
	}
	v.st.enabled = 0;
	v.st.gl = SESSION_GL_DISTRO;
	end_trial(&v.st);
	phase(c, LC_SWITCHING, v.current);
	r->current_gone = v.current_gone;
	if (v.current_gone)
		name(r->version, sizeof r->version, v.current);
	/* always possible: a gone or foreign current only loses the files that selected it */
	int rc = commit(c, v.current, v.previous, &v.st, 1, r, e);
	lc_view_free(&v);
	return rc;
}

int lc_keep(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	int rc = TB_OK;
	name(r->version, sizeof r->version, v.st.trial);
	if (v.st.trial || v.state_damaged)
		rc = current_unusable(c->s, &v, "keep", e);
	if (!rc && (v.st.trial || v.state_damaged)) {
		phase(c, LC_KEEPING, v.st.trial);
		end_trial(&v.st);
		rc = commit(c, v.current, v.previous, &v.st, 0, r, e);
	}
	lc_view_free(&v);
	return rc;
}

int lc_rollback_refusal(const struct store *s, const struct lc_view *v, struct tb_error *e)
{
	struct tb_error damage = {0};
	if (v->foreign)
		return current_unusable(s, v, "rollback", e);
	if (!v->previous)
		return tb_fail(e, TB_R_NO_PREVIOUS,
			       "there is no previous version to go back to%s%s%s; nothing was changed: `tb323fu-ctl mesa off` switches to the distribution's Mesa; to have a version to go back to, install another one: `tb323fu-ctl mesa list --available` shows the versions on offer",
			       v->current ? " (Mesa " : "", v->current ? v->current : "",
			       v->current ? " is the only version installed that rollback knows)" : "");
	if (v->previous_gone)
		return tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s, the previous version, is gone from %s/versions (deleted outside tb323fu-ctl); nothing was changed; install a version with `tb323fu-ctl mesa update`%s",
			       v->previous, s->root, v->st.enabled ? "; `tb323fu-ctl mesa off` switches the session to the distribution's Mesa meanwhile" : "");
	if (release_verify_installed(s, v->previous, &damage) == TB_EVERIFY)
		/* going back onto damaged files would trade one broken build for another */
		return tb_fail(e, TB_R_DAMAGED, "rollback did not switch to the previous version, nothing was changed: %s",
			       damage.msg);
	return TB_OK;
}

int lc_rollback(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	int rc = lc_rollback_refusal(c->s, &v, e);
	if (!rc) {
		phase(c, LC_ROLLING_BACK, v.previous);
		name(r->version, sizeof r->version, v.previous);
		name(r->other, sizeof r->other, v.current);
		if (v.st.enabled)
			start_trial(&v.st, v.previous, c->cfg);
		else
			end_trial(&v.st);
		/* the store remembers what was rolled back from (a crash rollback then says why)
		 * and forgets the mark of what it goes back to on purpose, in the same commit */
		struct marks mk;
		marks_load(c->s, &mk);
		marks_clear(&mk, v.previous);
		if (v.current && !v.current_gone)
			remember_mark(c->cfg, c->s, &mk, v.current, TB_R_ROLLED_BACK, "the user rolled back from it");
		/* a current whose tree is gone is dropped, not kept for going back to */
		rc = commit_as(c, v.previous, v.current_gone ? NULL : v.current, &v.st, 1, NULL, &mk, r, e);
		marks_free(&mk);
	}
	lc_view_free(&v);
	return rc;
}

int lc_boot_tick(const struct lc_ctx *c, const char *boot_id, struct lc_result *r,
		 struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	char *id = boot_id ? xstrdup(boot_id) : lc_boot_id();
	int rc = TB_OK;
	name(r->version, sizeof r->version, v.st.trial);
	r->tries = v.st.tries;
	r->max = v.st.max;
	r->enabled = v.st.enabled;
	r->trial = v.st.trial != NULL;
	if (v.st.enabled && (v.current_gone || v.foreign)) {
		/* the session selects a driver that is not there (or not ours): off at once */
		v.st.enabled = 0;
		v.st.gl = SESSION_GL_DISTRO;
		end_trial(&v.st);
		state_set(&v.st.boot, id);
		phase(c, LC_SWITCHING, r->version);
		rc = commit(c, v.current, v.previous, &v.st, 1, r, e);
		r->switched_off = !rc;
		r->current_gone = v.foreign ? 2 : 1;
		name(r->version, sizeof r->version, v.current ? v.current : v.foreign);
	} else if (!v.st.enabled || !v.st.trial || (id && same(id, v.st.boot))) {
		/* nothing to count; a damaged state is still rebuilt */
		if (v.state_damaged)
			rc = commit(c, v.current, v.previous, &v.st, 1, r, e);
	} else if (v.st.tries >= v.st.max) {
		char *why = xasprintf("not confirmed after %d starts", v.st.tries);
		v.st.enabled = 0;
		v.st.gl = SESSION_GL_DISTRO;
		state_set_failed(&v.st, v.st.trial, TB_R_TRIAL_EXPIRED, why);
		end_trial(&v.st);
		state_set(&v.st.boot, id);
		phase(c, LC_SWITCHING, r->version);
		struct marks mk; /* the store remembers it (§12), in the same commit */
		marks_load(c->s, &mk);
		remember_mark(c->cfg, c->s, &mk, r->version, TB_R_TRIAL_EXPIRED, why);
		rc = commit_as(c, v.current, v.previous, &v.st, 1, NULL, &mk, r, e);
		marks_free(&mk);
		r->switched_off = !rc;
		free(why);
	} else {
		v.st.tries++;
		state_set(&v.st.boot, id);
		rc = commit(c, v.current, v.previous, &v.st, 1, r, e);
		r->counted = !rc;
	}
	free(id);
	lc_view_free(&v);
	return rc;
}

int lc_not_installed(const struct store *s, const char *version, struct tb_error *e)
{
	size_t n;
	char **list = store_versions(s, &n);
	const char *near = suggest_name(version, list, n, sizeof *list);
	int rc = near ? tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed; did you mean %s? (tb323fu-ctl mesa list)", version, near)
		      : tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed (tb323fu-ctl mesa list)", version);
	store_free_list(list, n);
	return rc;
}

int lc_not_downloaded(const struct store *s, const char *version, struct tb_error *e)
{
	size_t n;
	char **list = store_versions(s, &n);
	const char *near = suggest_name(version, list, n, sizeof *list);
	int rc = near ? tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed; did you mean %s? Or download it first (tb323fu-ctl mesa download %s)", version, near, version)
		      : tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed: download it first (tb323fu-ctl mesa download %s)", version, version);
	store_free_list(list, n);
	return rc;
}

int lc_not_offered(const struct store *s, const char *version, int listed, struct tb_error *e)
{
	size_t n;
	char **list = store_versions(s, &n);
	const char *near = suggest_name(version, list, n, sizeof *list);
	const char *why = listed ? " and the release list does not offer it" : "";
	int rc = near ? tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed%s; did you mean %s? (`tb323fu-ctl mesa list --available` shows the versions on offer and those installed)", version, why, near)
		      : tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed%s; `tb323fu-ctl mesa list --available` shows the versions on offer and those installed", version, why);
	store_free_list(list, n);
	return rc;
}

int lc_remove_refusal(const struct store *s, const struct lc_view *v, const char *version,
		      int force, struct tb_error *e)
{
	if (!store_has_version(s, version))
		return lc_not_installed(s, version, e);
	char *pin = apprules_pinning(s, version);
	int rc = TB_OK;
	if (pin)
		rc = tb_fail(e, TB_R_PINNED, "Mesa %s is pinned by %s; remove that rule first", version, pin);
	else if (v->foreign && v->state_damaged)
		rc = current_unusable(s, v, "remove", e);
	else if (same(version, v->current))
		rc = tb_fail(e, TB_R_IN_USE, "Mesa %s is current, so it stays; make another version current first (`tb323fu-ctl mesa rollback`%s%s, or `tb323fu-ctl mesa install VERSION`), then remove it",
			     version, v->previous ? " goes back to " : "", v->previous ? v->previous : "");
	else if (same(version, v->previous) && !force)
		rc = tb_fail(e, TB_R_IN_USE, "Mesa %s is the previous version, kept for `tb323fu-ctl mesa rollback`; nothing was changed; `tb323fu-ctl mesa remove --force %s` removes it now, and rollback is then no longer possible",
			     version, version);
	free(pin);
	return rc;
}

int lc_remove(const struct lc_ctx *c, const char *version, int force, struct lc_result *r,
	      struct tb_error *e)
{
	struct lc_view v;
	begin(c, &v, r);
	name(r->version, sizeof r->version, version);
	int rc = lc_remove_refusal(c->s, &v, version, force, e);
	/* the previous version: its link goes first, so a kill between leaves a version
	 * that is neither current nor previous, never a link to a tree that is gone */
	int was_previous = same(version, v.previous);
	/* a reader's pin: said (busy, naming it), or waited for with --wait, before anything */
	int pin_fd = -1;
	if (!rc)
		rc = pin_exclude(c->s, version, c->wait, c->progress, &pin_fd, e);
	if (!rc && was_previous)
		rc = commit(c, v.current, NULL, &v.st, 0, r, e);
	struct strbuf flatpak = {0};
	if (!rc)
		rc = release_remove(c->s, version, &flatpak, e);
	snprintf(r->flatpak_removed, sizeof r->flatpak_removed, "%s", flatpak.buf ? flatpak.buf : "");
	sb_free(&flatpak);
	if (!rc)
		pin_forget(c->s, version);
	if (pin_fd >= 0)
		close(pin_fd);
	if (!rc && v.state_damaged && !was_previous)
		rc = commit(c, v.current, v.previous, &v.st, 0, r, e);
	r->dropped_previous = !rc && was_previous;
	lc_view_free(&v);
	return rc;
}

/* The Flatpak extensions of the versions a plan would remove (--dry-run names them). */
static void plan_flatpak(const struct store *s, struct lc_plan *p)
{
	struct strbuf names = {0};
	char *list = xstrdup(p->pruned);
	for (char *v = strtok(list, " "); v; v = strtok(NULL, " "))
		flatpak_exports_named(s, v, &names);
	name(p->flatpak, sizeof p->flatpak, names.buf);
	free(list);
	sb_free(&names);
}

static void plan_begin(const struct lc_ctx *c, struct lc_view *v, struct lc_plan *p)
{
	memset(p, 0, sizeof *p);
	lc_read(c->s, v);
}

/* update may plan the install of a version not downloaded yet: it will be one more. */
static int plan_install(const struct lc_ctx *c, const char *version, int update,
			struct lc_plan *p, struct tb_error *e)
{
	struct lc_view v;
	plan_begin(c, &v, p);
	name(p->version, sizeof p->version, version);
	int there = store_has_version(c->s, version);
	int rc = TB_OK;
	if (v.foreign)
		rc = current_unusable(c->s, &v, update ? "update" : "install", e);
	else if (!there && !update)
		rc = tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed: download it first (tb323fu-ctl mesa download %s)", version, version);
	else {
		/* already current: only what the pruning left would go */
		p->unchanged = lc_is_current(&v, version);
		const char *prev = p->unchanged ? v.previous : install_previous(&v, version);
		name(p->previous, sizeof p->previous, prev);
		p->trial = v.st.enabled && !p->unchanged;
		p->downgrade = !p->unchanged && v.current && !v.current_gone &&
			       version_compare(version, v.current) < 0;
		struct strbuf doomed = {0}, pinned = {0};
		int keep = c->cfg->keep_versions - (!there && c->cfg->keep_versions > 0);
		lc_prune_plan(c->s, version, prev, keep, &doomed, &pinned);
		name(p->pruned, sizeof p->pruned, doomed.buf);
		name(p->pinned_kept, sizeof p->pinned_kept, pinned.buf);
		sb_free(&doomed);
		sb_free(&pinned);
		plan_flatpak(c->s, p);
	}
	lc_view_free(&v);
	return rc;
}

int lc_plan_install(const struct lc_ctx *c, const char *version, struct lc_plan *p,
		    struct tb_error *e)
{
	return plan_install(c, version, 0, p, e);
}

int lc_plan_update(const struct lc_ctx *c, const char *version, struct lc_plan *p,
		   struct tb_error *e)
{
	return plan_install(c, version, 1, p, e);
}

int lc_plan_rollback(const struct lc_ctx *c, struct lc_plan *p, struct tb_error *e)
{
	struct lc_view v;
	plan_begin(c, &v, p);
	int rc = lc_rollback_refusal(c->s, &v, e);
	if (!rc) {
		name(p->version, sizeof p->version, v.previous);
		name(p->previous, sizeof p->previous, v.current_gone ? NULL : v.current);
		p->trial = v.st.enabled;
	}
	lc_view_free(&v);
	return rc;
}

int lc_plan_remove(const struct lc_ctx *c, const char *version, int force, struct lc_plan *p,
		   struct tb_error *e)
{
	struct lc_view v;
	plan_begin(c, &v, p);
	name(p->version, sizeof p->version, version);
	int rc = lc_remove_refusal(c->s, &v, version, force, e);
	if (!rc)
		name(p->pruned, sizeof p->pruned, version);
	plan_flatpak(c->s, p);
	lc_view_free(&v);
	return rc;
}
