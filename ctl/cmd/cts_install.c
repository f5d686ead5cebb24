/* cts update and cts install-local: a CTS release fetched (or read from disk) and checked by
 * the pipeline Mesa's releases go through (signature, SHA256SUMS, size, every archive rule,
 * the MANIFEST, the ELF checks against this system), unpacked into cts/<v>, and made the one
 * the suites use (docs/design.md §13). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/cts_say.h"
#include "scope/remote.h"
#include "lifecycle/acquire.h"
#include "lifecycle/cts.h"
#include "release/kind.h"
#include "release/release.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/host.h"
#include "base/strbuf.h"
#include "common/version_name.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* After the tree is in cts/<v>: it becomes current, the others go, and what it carries is said
 * after the sentence's start (head). */
static int adopt_and_say(struct store *s, const char *version, const char *head, struct outcome *o)
{
	struct strbuf removed = {0};
	struct tb_error e = {0};
	struct cts_facts f;
	int rc = cts_adopt(s, version, &removed, &e);
	if (!rc)
		rc = store_cts_facts(s, version, &f, &e);
	if (rc) {
		sb_free(&removed);
		return outcome_fail(o, &e);
	}
	outcome_str(o, "version", version);
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "cts", cts_facts_json(&f));
	json_object *gone = json_object_new_array();
	struct strbuf said = {0};
	sb_appendf(&said, "%s: ", head);
	cts_say_contents(&said, &f);
	sb_append(&said, "; smoke --suite dEQP-VK and opencl-cts use it unless deqp_dir or cts_dir name other binaries");
	if (removed.len) {
		sb_appendf(&said, "; removed CTS %s", removed.buf);
		for (char *p = removed.buf; p && *p;) {
			size_t n = strcspn(p, ",");
			json_object_array_add(gone, json_object_new_string_len(p, (int)n));
			p += n;
			p += strspn(p, ", ");
		}
	}
	json_object_object_add(o->fields, "removed", gone);
	outcome_say(o, "%s", said.buf);
	sb_free(&said);
	sb_free(&removed);
	cts_facts_free(&f);
	return TB_OK;
}

/* ---- cts update ---- */

struct cts_update_opts {
	const char *to;
};

static int cmd_cts_update(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct cts_update_opts *a = opts;
	struct remote rs;
	struct tb_error e = {0};
	if (remote_open(c, s, &rs, 0, &e))
		return outcome_fail(o, &e);
	struct feed cts = feed_cts_view(&rs.feed);
	const struct feed_release *r = a->to ? feed_find(&cts, a->to) : feed_newest(&cts, c->cfg.channel);
	char *cur = store_cts_current(s);
	int rc = TB_OK;
	outcome_str(o, "channel", c->cfg.channel);
	outcome_str(o, "available", r ? r->version : "");
	if (!r && a->to)
		rc = tb_fail(&e, TB_R_UNKNOWN_VERSION, "CTS %s is not offered for %s by %s; nothing was changed; `tb323fu-ctl mesa cts list` shows what is",
			     a->to, host_arch(), c->cfg.source);
	else if (!r)
		rc = tb_fail(&e, TB_R_NOT_OFFERED, "no CTS release for %s is offered on %s by %s; nothing was changed; the suites take a CTS built here instead: cts_dir (OpenCL-CTS) or deqp_dir (dEQP-VK) in mesa.conf (man tb323fu-mesa.conf)",
			     host_arch(), c->cfg.channel, c->cfg.source);
	else if (cur && !strcmp(cur, r->version) && release_verify_kind(s, &release_kind_cts, cur, 1, &e) == TB_OK) {
		outcome_str(o, "version", cur);
		outcome_bool(o, "updated", 0);
		outcome_say(o, "CTS %s is installed and whole, the newest %s offers; nothing was changed",
			    cur, a->to ? "the release list" : c->cfg.channel);
	} else {
		tb_error_clear(&e);
		uint64_t resumed = 0;
		rc = acquire_remote(&c->cfg, s, r, c->progress, &resumed, &e);
		if (!rc) {
			outcome_bool(o, "updated", 1);
			outcome_int(o, "resumed_from", (int64_t)resumed);
			char *head = xasprintf("CTS %s downloaded, checked and installed", r->version);
			rc = adopt_and_say(s, r->version, head, o);
			free(head);
		}
	}
	free(cur);
	remote_end(&rs);
	return rc && !o->message ? outcome_fail(o, &e) : rc;
}

static int cmd_cts_update_check(const void *opts, struct outcome *o)
{
	const struct cts_update_opts *a = opts;
	if (a->to && !version_name_ok(a->to))
		return cli_usage(o, "--to takes a version (digits, letters and ._+-, starting with a digit), not \"%.80s\"", a->to);
	return 0;
}

static const struct cli_option cts_update_options[] = {
	CLI_STRING("--to", "VERSION", struct cts_update_opts, to,
		   "install this CTS version of the release list instead of the channel's newest"),
	CLI_END,
};

const struct cli_command cts_update_command = {
	.name = "cts update",
	.args = "[--to VERSION]",
	.summary = "download, check and install the channel's newest CTS release for the suites",
	.example = "tb323fu-ctl mesa cts update",
	.options = cts_update_options,
	.opts_size = sizeof(struct cts_update_opts),
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.check = cmd_cts_update_check,
	.run = cmd_cts_update,
};

/* ---- cts install-local ---- */

struct cts_install_local_opts {
	const char *file, *sums, *sig;
};

static int cmd_cts_install_local(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct cts_install_local_opts *a = opts;
	enum release_placed placed = RELEASE_NEW;
	struct acquire_local_req q = {.file = a->file, .sums = a->sums, .sig = a->sig,
				      .placed = &placed, .kind = &release_kind_cts};
	struct tb_error e = {0};
	char *version = NULL;
	if (acquire_local(&c->cfg, s, &q, c->progress, &version, &e))
		return outcome_fail(o, &e);
	outcome_bool(o, "repaired", placed == RELEASE_REPAIRED);
	char *head = xasprintf("CTS %s %s", version,
			       placed == RELEASE_REPAIRED ? "was damaged and is whole again (checked against the tarball)"
			       : placed == RELEASE_KEPT  ? "was installed and whole already (checked against the tarball)"
							 : "checked and installed");
	int rc = adopt_and_say(s, version, head, o);
	free(head);
	free(version);
	return rc;
}

static const struct cli_option cts_install_local_options[] = {
	CLI_STRING("--sums", "FILE", struct cts_install_local_opts, sums,
		   "the SHA256SUMS to check the tarball against (default: beside it)"),
	CLI_STRING("--sig", "FILE", struct cts_install_local_opts, sig,
		   "the minisign signature of the sums (default: SUMS.minisig when present)"),
	CLI_END,
};

const struct cli_command cts_install_local_command = {
	.name = "cts install-local",
	.args = "FILE [--sums FILE] [--sig FILE]",
	.summary = "check and install a CTS release tarball on disk for the suites",
	.example = "tb323fu-ctl mesa cts install-local tb323fu-cts-2026.12.03-aarch64.tar.gz",
	.options = cts_install_local_options,
	.opts_size = sizeof(struct cts_install_local_opts),
	.operand = OPERAND_FILE,
	.operand_at = offsetof(struct cts_install_local_opts, file),
	.operand_required = 1,
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.run = cmd_cts_install_local,
};
