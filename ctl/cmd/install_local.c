/* install-local FILE: verify, unpack, install and smoke-test a release tarball on disk,
 * whatever the store already holds of that version (a damaged tree is repaired from it first);
 * repairing without switching is `verify --repair V --from FILE`. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/acquire.h"
#include "lifecycle/lifecycle.h"
#include "release/release.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

struct install_local_opts {
	const char *file, *sums, *sig;
	int no_smoke;
};

/* A repaired version that is current already: the repair was the whole install. */
static int repaired_current(const struct store *s, const char *version)
{
	struct lc_view v;
	lc_read(s, &v);
	int yes = lc_is_current(&v, version);
	lc_view_free(&v);
	return yes;
}

static int cmd_install_local(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct install_local_opts *a = opts;
	enum release_placed placed = RELEASE_NEW;
	struct acquire_local_req q = {.file = a->file, .sums = a->sums, .sig = a->sig, .placed = &placed};
	struct tb_error e = {0};
	char *version = NULL;
	int rc = acquire_local(&c->cfg, s, &q, c->progress, &version, &e);
	if (rc) {
		outcome_fail(o, &e);
	} else if (placed == RELEASE_REPAIRED && repaired_current(s, version)) {
		outcome_str(o, "version", version);
		outcome_bool(o, "repaired", 1);
		outcome_bool(o, "switched", 0);
		outcome_say(o, "Mesa %s was damaged and is whole again (checked against the tarball); it is the current version",
			    version);
	} else {
		/* installed whatever the store held of it (docs/design.md §12): new, kept whole or
		 * repaired from the tarball; a repair is said first */
		rc = install_and_say(c, s, version, a->no_smoke, o);
		outcome_bool(o, "repaired", placed == RELEASE_REPAIRED);
		if (placed == RELEASE_REPAIRED && o->message) {
			char *m = o->message;
			o->message = NULL;
			outcome_say(o, "Mesa %s was damaged and is whole again (checked against the tarball)\n%s",
				    version, m);
			free(m);
		}
	}
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
