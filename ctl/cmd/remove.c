/* remove VERSION: a version that is neither current nor previous, nor pinned by a rule;
 * --force: the previous one too, on purpose (rollback goes with it). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"
#include "base/error.h"
#include "base/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct remove_opts {
	const char *version;
	int dry_run; /* say what would be done, change nothing */
	int force;   /* the previous version too */
};

static int cmd_remove(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct remove_opts *a = opts;
	const char *v = a->version;
	struct tb_error e = {0};
	struct lc_ctx x = lc_ctx_of(c, s);
	if (a->dry_run) {
		struct lc_plan p;
		if (lc_plan_remove(&x, v, a->force, &p, &e))
			return outcome_fail(o, &e);
		char said[300];
		char *prev = store_previous(s);
		snprintf(said, sizeof said, "`remove` would remove Mesa %s (its files, ICD and env files)%s", v,
			 prev && !strcmp(prev, v) ? ", the previous version: rollback would no longer be possible" : "");
		free(prev);
		outcome_dry_run(o, &p, said);
		return TB_OK;
	}
	struct lc_result r;
	int rc = lc_remove(&x, v, a->force, &r, &e);
	if (rc)
		outcome_fail(o, &e);
	else {
		outcome_str(o, "version", v);
		outcome_bool(o, "dropped_previous", r.dropped_previous);
		struct strbuf sb = {0};
		if (r.dropped_previous)
			sb_appendf(&sb, "Mesa %s, the previous version, removed; rollback is no longer possible until another version is installed", v);
		else
			sb_appendf(&sb, "Mesa %s removed", v);
		outcome_flatpak_removed(o, &sb, r.flatpak_removed, 0);
		outcome_say(o, "%s", sb.buf);
		sb_free(&sb);
		say_repaired(o, &r);
	}
	return rc;
}

/* A version that is not installed: nothing to remove, said by the body's own refusal, so a
 * user and root get one reason (docs/design.md §9). What else remove must keep is for one
 * who may write the store to hear. */
static int remove_answer(const struct store *s, const struct lc_view *v, const void *opts,
			 struct outcome *o)
{
	const char *version = ((const struct remove_opts *)opts)->version;
	struct tb_error e = {0};
	int force = ((const struct remove_opts *)opts)->force;
	if (store_has_version(s, version) || !lc_remove_refusal(s, v, version, force, &e))
		return 0;
	outcome_fail(o, &e);
	return 1;
}

/* A version the store does not hold: its argument's error, before any lock. */
static int remove_absent(const struct cli *c, const struct store *s, const char *version, struct outcome *o)
{
	(void)c;
	struct tb_error e = {0};
	lc_not_installed(s, version, &e);
	return outcome_fail(o, &e);
}

static const struct cli_option remove_options[] = {
	CLI_FLAG("--force", struct remove_opts, force,
		 "remove the previous version too (rollback is then no longer possible); never the current one"),
	CLI_DRY_RUN(struct remove_opts), CLI_END};

static const char *const remove_synonyms[] = {"uninstall", "delete", "rm", "purge", NULL};

const struct cli_command remove_command = {
	.name = "remove",
	.args = "VERSION [--force] [--dry-run]",
	.summary = "remove a version that is neither current nor previous",
	.example = "tb323fu-ctl mesa remove 2026.09.30",
	.synonyms = remove_synonyms,
	.options = remove_options,
	.opts_size = sizeof(struct remove_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct remove_opts, version),
	.operand_required = 1,
	.open = OPEN_WRITER,
	.writes = 1,
	.removes_version = 1,
	.answer = remove_answer,
	.absent = remove_absent,
	.run = cmd_remove,
};
