/* install [VERSION]: make a version the store holds current (downloaded, previous or an older
 * kept one) after its smoke tests; when they fail nothing is switched (docs/design.md §12). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"
#include "release/feed.h"
#include "release/release.h"
#include "base/error.h"

#include <stdlib.h>

struct install_opts {
	const char *version;
	int no_smoke;
	int dry_run; /* say what would be done, change nothing */
};

static int install_plan_say(struct cli *c, struct store *s, const char *v, int no_smoke,
			    struct outcome *o)
{
	struct lc_ctx x = lc_ctx_of(c, s);
	struct lc_plan p;
	struct tb_error e = {0};
	if (lc_plan_install(&x, v, &p, &e)) {
		outcome_str(o, "version", v);
		return outcome_fail(o, &e);
	}
	outcome_install_plan(o, "install", &p, !no_smoke && c->cfg.smoke, c->cfg.keep_versions);
	return TB_OK;
}

/* A version the store does not hold: downloading it is the next step only when the release
 * list offers it (a list that is not cached is fetched by list --available). */
static int not_downloaded(const struct cli *c, const struct store *s, const char *version, struct tb_error *e)
{
	char *cache = store_path(s, STORE_CACHE_DIR);
	struct feed f;
	struct tb_error none = {0};
	int listed = feed_cached(&c->cfg, cache, &f, &none) == TB_OK, offered = listed && feed_find(&f, version);
	free(cache);
	if (listed)
		feed_free(&f);
	return offered ? lc_not_downloaded(s, version, e) : lc_not_offered(s, version, listed, e);
}

static int cmd_install(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct install_opts *a = opts;
	const char *version = a->version;
	struct tb_error e = {0};
	struct lc_view v;
	lc_read(s, &v);
	const char *chosen = version ? version : v.ready;
	int rc;
	if (!chosen)
		rc = tb_fail(&e, TB_R_NOT_INSTALLED, "no downloaded version waits for install (tb323fu-ctl mesa download, or update)"), outcome_fail(o, &e);
	else if (!store_has_version(s, chosen))
		rc = not_downloaded(c, s, chosen, &e), outcome_fail(o, &e);
	else if (release_verify_installed(s, chosen, &e))
		rc = outcome_fail(o, &e);
	else if (a->dry_run)
		rc = install_plan_say(c, s, chosen, a->no_smoke, o);
	else
		rc = install_and_say(c, s, chosen, a->no_smoke, o);
	lc_view_free(&v);
	return rc;
}

/* Installing what is current already changes nothing: said from the state, as the body
 * says it under the lock. */
static int install_answer(const struct store *s, const struct lc_view *v, const void *opts,
			  struct outcome *o)
{
	const char *version = ((const struct install_opts *)opts)->version;
	struct tb_error e = {0};
	if (!version || !lc_is_current(v, version) || release_verify_installed(s, version, &e) != TB_OK)
		return 0;
	say_already_current(o, version);
	return 1;
}

/* A version the store does not hold: its argument's error, before any lock. */
static int install_absent(const struct cli *c, const struct store *s, const char *version, struct outcome *o)
{
	struct tb_error e = {0};
	not_downloaded(c, s, version, &e);
	return outcome_fail(o, &e);
}

static const struct cli_option install_options[] = {
	CLI_FLAG("--no-smoke", struct install_opts, no_smoke,
		 "skip the smoke tests (as `smoke = off` in mesa.conf)"),
	CLI_DRY_RUN(struct install_opts),
	CLI_END,
};

const struct cli_command install_command = {
	.name = "install",
	.args = "[VERSION] [--no-smoke] [--dry-run]",
	.summary = "make a version the store holds current after its smoke tests (nothing switched on failure)",
	.example = "tb323fu-ctl mesa install 2026.10.06",
	.options = install_options,
	.opts_size = sizeof(struct install_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct install_opts, version),
	.open = OPEN_WRITER,
	.writes = 1,
	.answer = install_answer,
	.absent = install_absent,
	.run = cmd_install,
};
