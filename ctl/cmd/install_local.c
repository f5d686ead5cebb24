/* install-local FILE: verify, unpack, install and smoke-test a release tarball on disk; a
 * version already in the store is repaired from it, not switched to. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cmd/lifecycle_say.h"
#include "ops/acquire.h"
#include "release/release.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

struct install_local_opts {
	const char *file, *sums, *sig;
	int no_smoke;
};

/* install-local of a version already in the store repairs it (when damaged) and does not
 * switch to it: the tarball of an older version is how its damage is undone. */
static void say_present(struct outcome *o, const struct store *s, const char *v,
			enum release_placed placed)
{
	char *cur = store_current(s);
	int is_cur = cur && !strcmp(cur, v);
	outcome_str(o, "version", v);
	outcome_bool(o, "repaired", placed == RELEASE_REPAIRED);
	outcome_bool(o, "switched", 0);
	const char *what = placed == RELEASE_REPAIRED
				   ? "was damaged and is whole again (checked against the tarball)"
				   : "was already installed and is whole (nothing was changed)";
	if (is_cur)
		outcome_say(o, "Mesa %s %s; it is the current version", v, what);
	else
		outcome_say(o, "Mesa %s %s; it stays installed, not current%s%s%s; make it current with `tb323fu-ctl mesa install %s`",
			    v, what, cur ? " (Mesa " : "", cur ? cur : "", cur ? " is current)" : "", v);
	free(cur);
}

static int cmd_install_local(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct install_local_opts *a = opts;
	enum release_placed placed = RELEASE_NEW;
	struct acquire_local_req q = {.file = a->file, .sums = a->sums, .sig = a->sig, .placed = &placed};
	struct tb_error e = {0};
	char *version = NULL;
	int rc = acquire_local(&c->cfg, s, &q, c->progress, &version, &e);
	if (rc)
		outcome_fail(o, &e);
	else if (placed != RELEASE_NEW)
		say_present(o, s, version, placed);
	else
		rc = install_and_say(c, s, version, a->no_smoke, o);
	free(version);
	return rc;
}

static const struct cli_option install_local_options[] = {
	CLI_STRING("--sums", "FILE", struct install_local_opts, sums,
		   "the SHA256SUMS to check the tarball against (default: beside it)"),
	CLI_STRING("--sig", "FILE", struct install_local_opts, sig,
		   "the minisign signature of the sums (default: SUMS.minisig when present)"),
	CLI_FLAG("--no-smoke", struct install_local_opts, no_smoke, "skip the smoke tests"),
	CLI_END,
};

const struct cli_command install_local_command = {
	.name = "install-local",
	.args = "FILE [--sums FILE] [--sig FILE] [--no-smoke]",
	.summary = "verify, unpack, install and smoke-test a release tarball on disk",
	.example = "tb323fu-ctl mesa install-local tb323fu-mesa-2026.10.06-aarch64.tar.gz",
	.options = install_local_options,
	.opts_size = sizeof(struct install_local_opts),
	.operand = OPERAND_FILE,
	.operand_at = offsetof(struct install_local_opts, file),
	.operand_required = 1,
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.run = cmd_install_local,
};
