/* cts: the group of the commands that give the suites their binaries, a CTS release kept in
 * the store's cts/ (docs/design.md §13); cts list and cts remove are here, the two that
 * install in cts_install.c. */
#include "cli/cli.h"
#include "store/layout.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/cts_say.h"
#include "release/feed.h"
#include "base/error.h"
#include "base/host.h"
#include "base/strbuf.h"
#include "common/version_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- cts list ---- */

/* What the release list last fetched offers (no network: `check` or `cts update` fetch it). */
static json_object *offered(struct cli *c, const struct store *s, struct strbuf *sb)
{
	json_object *arr = json_object_new_array();
	struct tb_error ignored = {0};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 0, &ignored);
	struct feed f;
	if (cache && feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK) {
		struct feed cts = feed_cts_view(&f);
		for (size_t i = 0; i < cts.n; i++) {
			const struct feed_release *r = &cts.releases[i];
			json_object *item = json_object_new_object();
			json_object_object_add(item, "version", json_object_new_string(r->version));
			json_object_object_add(item, "size", json_object_new_int64((int64_t)r->tarball.size));
			json_object_object_add(item, "prerelease", json_object_new_boolean(r->prerelease));
			json_object_array_add(arr, item);
			if (!i)
				sb_appendf(sb, "\nthe release list last fetched offers for %s: ", host_arch());
			sb_appendf(sb, "%sCTS %s%s (%.1f MiB)", i ? ", " : "", r->version,
				   r->prerelease ? ", a pre-release" : "", (double)r->tarball.size / 1048576.0);
		}
		feed_free(&f);
	}
	free(cache);
	return arr;
}

static int cmd_cts_list(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	size_t n;
	char **trees = store_trees(s, STORE_CTS, &n);
	char *cur = store_cts_current(s);
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++) {
		struct cts_facts f;
		struct tb_error e = {0};
		int is_cur = cur && !strcmp(cur, trees[i]);
		if (store_cts_facts(s, trees[i], &f, &e)) {
			sb_appendf(&sb, "%sCTS %s: cannot be read (%s)", i ? "\n" : "", trees[i], e.msg);
			continue;
		}
		json_object *item = cts_facts_json(&f);
		json_object_object_add(item, "current", json_object_new_boolean(is_cur));
		json_object_array_add(arr, item);
		sb_appendf(&sb, "%sCTS %s%s: ", i ? "\n" : "", trees[i], is_cur ? " (the suites use it)" : "");
		cts_say_contents(&sb, &f);
		cts_facts_free(&f);
	}
	if (!n)
		sb_append(&sb, "no CTS installed (tb323fu-ctl mesa cts update)");
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "installed", arr);
	json_object_object_add(o->fields, "current", cur ? json_object_new_string(cur) : NULL);
	json_object_object_add(o->fields, "available", offered(c, s, &sb));
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(cur);
	store_free_list(trees, n);
	return TB_OK;
}

const struct cli_command cts_list_command = {
	.name = "cts list",
	.args = "",
	.summary = "the CTS installed, and the CTS releases the release list last offered",
	.example = "tb323fu-ctl mesa cts list",
	.open = OPEN_READER,
	.run = cmd_cts_list,
};

/* ---- cts remove ---- */

struct cts_remove_opts {
	const char *version;
};

static int cmd_cts_remove(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	const struct cts_remove_opts *a = opts;
	char *cur = store_cts_current(s);
	const char *v = a->version ? a->version : cur;
	struct tb_error e = {0};
	int rc = TB_OK;
	char *tree = v ? store_path(s, STORE_CTS "/%s/" STORE_MANIFEST, v) : NULL;
	if (!v)
		rc = tb_fail(&e, TB_R_NOT_INSTALLED, "no CTS is installed; nothing was changed");
	else if (access(tree, F_OK) != 0)
		rc = tb_fail(&e, TB_R_NOT_INSTALLED, "CTS %s is not installed; nothing was changed (tb323fu-ctl mesa cts list)", v);
	else
		rc = store_cts_remove(s, v, &e);
	if (!rc) {
		outcome_str(o, "version", v);
		outcome_say(o, "CTS %s removed; smoke --suite dEQP-VK and opencl-cts now look for their binaries where the recipes build them, or deqp_dir and cts_dir name them (tb323fu-ctl mesa cts update installs the CTS again)", v);
	}
	free(tree);
	free(cur);
	return rc ? outcome_fail(o, &e) : TB_OK;
}

static int cmd_cts_remove_check(const void *opts, struct outcome *o)
{
	const struct cts_remove_opts *a = opts;
	if (a->version && !version_name_ok(a->version))
		return cli_usage(o, "cts remove takes a CTS version (digits, letters and ._+-, starting with a digit), not \"%.80s\"",
				 a->version);
	return 0;
}

const struct cli_command cts_remove_command = {
	.name = "cts remove",
	.args = "[VERSION]",
	.summary = "remove the installed CTS (default: the one the suites use)",
	.example = "tb323fu-ctl mesa cts remove",
	.opts_size = sizeof(struct cts_remove_opts),
	.operand = OPERAND_WORD,
	.operand_at = offsetof(struct cts_remove_opts, version),
	.open = OPEN_WRITER,
	.writes = 1,
	.check = cmd_cts_remove_check,
	.run = cmd_cts_remove,
};

/* ---- the group ---- */

static const struct cli_command *const cts_commands[] = {
	&cts_update_command, &cts_install_local_command, &cts_list_command, &cts_remove_command, NULL,
};

const struct cli_command cts_command = {
	.name = "cts",
	.args = "update|install-local|list|remove [ARGS]",
	.summary = "the conformance suites' binaries (dEQP-VK, OpenCL-CTS) as a signed release",
	.example = "tb323fu-ctl mesa cts update",
	.open = OPEN_NONE,
	.subs = cts_commands,
	.writers = "Those that change the store (update, install-local, remove) need the right to write it:\n"
		   "root for the system's store (sudo tb323fu-ctl mesa cts …).",
};
