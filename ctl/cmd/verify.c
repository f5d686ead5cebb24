/* verify [VERSION] [--repair [--from FILE]]: re-hash an installed version against its
 * MANIFEST and run the ELF checks again; --repair fetches a damaged one anew, or takes it from
 * its tarball on disk (--from), and never changes which version is current. */
#include "cli/cli.h"
#include "store/layout.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "lifecycle/acquire.h"
#include "lifecycle/repair.h"
#include "release/elfcheck.h"
#include "release/feed.h"
#include "release/release.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct verify_opts {
	const char *version;
	int repair;
	int all; /* every installed version, not one */
	const char *from, *sums, *sig; /* --repair from this tarball (its SHA256SUMS, signature) */
};

/* Whether the cached release list offers v: then `verify --repair` can fetch it anew. */
static int offered(const struct cli *c, const struct store *s, const char *v)
{
	struct tb_error ignored = {0};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 0, &ignored);
	struct feed f;
	int yes = cache && feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK;
	if (yes) {
		yes = feed_find(&f, v) != NULL;
		feed_free(&f);
	}
	free(cache);
	return yes;
}

/* Re-hashes a tree and re-runs the ELF checks on it; a damage is said with the repair that
 * works for that version. */
static int verify_tree(const struct cli *c, struct store *s, const char *v, struct tb_error *e)
{
	int rc = offered(c, s, v) ? release_verify_installed(s, v, e) : release_verify_offline(s, v, e);
	struct elf_report r;
	if (!rc)
		rc = release_check_installed(s, v, NULL, &r, e);
	return rc;
}

static int repair_and_say(struct cli *c, struct store *s, const char *v, struct outcome *o)
{
	struct tb_error e = {0};
	if (repair_from_source(&c->cfg, s, v, c->progress, &e))
		return outcome_fail(o, &e);
	outcome_bool(o, "repaired", 1);
	outcome_say(o, "Mesa %s was damaged and is whole again (fetched and checked anew)", v);
	return TB_OK;
}

/* --from FILE: the tarball checked as install-local checks it (SHA256SUMS, signature, every
 * entry, MANIFEST, ELF), which must be v's; it takes the damaged tree's place in one exchange
 * and nothing else changes (current, previous and the session stay). */
static int repair_from_file(struct cli *c, struct store *s, const struct verify_opts *a,
			    const char *v, struct outcome *o)
{
	enum release_placed placed = RELEASE_NEW;
	struct acquire_local_req q = {.file = a->from, .sums = a->sums, .sig = a->sig,
				      .placed = &placed, .expect_version = v};
	struct tb_error e = {0};
	char *got = NULL;
	int rc = acquire_local(&c->cfg, s, &q, c->progress, &got, &e);
	free(got);
	if (rc)
		return outcome_fail(o, &e);
	char *cur = store_current(s);
	int is_cur = cur && !strcmp(cur, v);
	outcome_bool(o, "repaired", placed == RELEASE_REPAIRED);
	outcome_bool(o, "switched", 0);
	if (is_cur)
		outcome_say(o, "Mesa %s was damaged and is whole again (checked against %s); it is the current version",
			    v, a->from);
	else
		outcome_say(o, "Mesa %s was damaged and is whole again (checked against %s); it stays installed, not current%s%s%s",
			    v, a->from, cur ? " (Mesa " : "", cur ? cur : "", cur ? " is current)" : "");
	free(cur);
	return TB_OK;
}

/* --all: each installed version checked (and with --repair made whole), one line each; the
 * exit code is the first failure's. */
static int verify_all(struct cli *c, struct store *s, int repair, struct outcome *o)
{
	size_t n;
	char **list = store_versions(s, &n);
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	int rc = TB_OK, damaged = 0;
	for (size_t i = 0; i < n; i++) {
		struct tb_error e = {0};
		struct outcome one = {0};
		int r = verify_tree(c, s, list[i], &e);
		if (r == TB_EVERIFY && repair)
			r = repair_and_say(c, s, list[i], &one);
		json_object *it = json_object_new_object();
		json_object_object_add(it, "version", json_object_new_string(list[i]));
		json_object_object_add(it, "intact", json_object_new_boolean(!r));
		json_object_object_add(it, "repaired", json_object_new_boolean(!r && one.message));
		/* the check's own failure, else the repair's */
		enum tb_reason why = e.code ? e.reason : one.reason;
		json_object_object_add(it, "reason", json_object_new_string(r ? tb_reason_id(why) : ""));
		json_object_array_add(arr, it);
		sb_appendf(&sb, "%s%s", i ? "\n" : "",
			   r ? (e.msg[0] ? e.msg : one.message ? one.message : "damaged")
			     : one.message ? one.message : "");
		if (!r && !one.message)
			sb_appendf(&sb, "Mesa %s is intact: every file matches its MANIFEST", list[i]);
		if (r && !rc) {
			rc = r;
			o->reason = why;
		}
		damaged += r != 0;
		json_object_put(one.fields);
		free(one.message);
	}
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "versions", arr);
	if (!n)
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	else if (damaged)
		sb_appendf(&sb, "\n%d of %zu versions are damaged%s", damaged, n,
			   repair ? "" : "; `tb323fu-ctl mesa verify --all --repair` fetches anew those the release source offers");
	outcome_say(o, "%s", sb.buf);
	o->code = rc;
	o->report = rc != TB_OK; /* the lines are a report: stdout, whatever the exit code */
	sb_free(&sb);
	store_free_list(list, n);
	return rc;
}

static int cmd_verify_check(const void *opts, struct outcome *o)
{
	const struct verify_opts *a = opts;
	if (a->all && a->version)
		return cli_usage(o, "verify takes a VERSION or --all, not both");
	if ((a->from || a->sums || a->sig) && !a->repair)
		return cli_usage(o, "--from, --sums and --sig go with --repair: verify --repair VERSION --from FILE");
	if ((a->sums || a->sig) && !a->from)
		return cli_usage(o, "--sums and --sig go with --from FILE: verify --repair VERSION --from FILE --sums SUMS");
	if (a->from && a->all)
		return cli_usage(o, "--from FILE repairs one version from its tarball, not --all: verify --repair VERSION --from FILE");
	return 0;
}

static int cmd_verify(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct verify_opts *a = opts;
	if (a->all)
		return verify_all(c, s, a->repair, o);
	const char *want = a->version;
	struct tb_error e = {0};
	char *v = want ? xstrdup(want) : store_current(s);
	int rc;
	if (!v)
		rc = tb_fail(&e, TB_R_NOT_INSTALLED, "no Mesa version installed (tb323fu-ctl mesa update)");
	else {
		/* without --repair it only reads: a pin keeps it from removal meanwhile (§3) */
		if (!a->repair && store_has_version(s, v))
			pin_take(s, v, "verify", &c->pin);
		rc = verify_tree(c, s, v, &e);
	}
	if (v)
		outcome_str(o, "version", v);
	if (rc && a->repair && v && rc == TB_EVERIFY && a->from)
		rc = repair_from_file(c, s, a, v, o);
	else if (rc && a->repair && v && rc == TB_EVERIFY)
		rc = repair_and_say(c, s, v, o);
	else if (rc)
		outcome_fail(o, &e);
	else
		outcome_say(o, "Mesa %s is intact: every file matches its MANIFEST", v);
	free(v);
	return rc;
}

static const struct cli_option verify_options[] = {
	{.name = "--repair", .help = "make a damaged version whole: fetched anew from the release source, or from --from FILE; current is not changed",
	 .kind = OPT_FLAG, .offset = offsetof(struct verify_opts, repair), .writes = 1},
	CLI_STRING("--from", "FILE", struct verify_opts, from,
		   "with --repair: the version's release tarball on disk, checked as install-local checks it"),
	CLI_STRING("--sums", "FILE", struct verify_opts, sums,
		   "with --from: the SHA256SUMS to check the tarball against (default: beside it)"),
	CLI_STRING("--sig", "FILE", struct verify_opts, sig,
		   "with --from: the minisign signature of the sums (default: SUMS.minisig when present)"),
	CLI_FLAG("--all", struct verify_opts, all, "every installed version, one line each (exit: the first failure's)"),
	CLI_END,
};

const struct cli_command verify_command = {
	.name = "verify",
	.args = "[VERSION | --all] [--repair [--from FILE [--sums FILE] [--sig FILE]]]",
	.summary = "re-hash an installed version (default current) against its MANIFEST",
	.example = "tb323fu-ctl mesa verify",
	.options = verify_options,
	.opts_size = sizeof(struct verify_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct verify_opts, version),
	.open = OPEN_READER,
	.check = cmd_verify_check,
	.run = cmd_verify,
};
