/* notes [VERSION]: the release notes of a version (default the channel's newest), from the
 * cached release list (docs/design.md §13). */
#include "cli/cli.h"
#include "store/layout.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "release/feed.h"
#include "release/buildrecord.h"
#include "base/fs.h"
#include "store/manifest.h"
#include "lifecycle/lifecycle.h"
#include "base/strbuf.h"
#include "base/error.h"
#include "base/host.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct notes_opts {
	const char *version;
};

static int cmd_notes(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const char *want = ((const struct notes_opts *)opts)->version;
	struct tb_error e = {0};
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 0, &e);
	struct feed f;
	int rc = cache ? feed_cached(&c->cfg, cache, &f, &e) : e.code;
	free(cache);
	if (!rc) {
		const struct feed_release *r = want ? feed_find(&f, want) : feed_newest(&f, c->cfg.channel);
		if (!r && want)
			rc = tb_fail(&e, TB_R_UNKNOWN_VERSION,
				     "Mesa %s is not in the release list; `tb323fu-ctl mesa list --available` fetches it and shows the versions on offer", want);
		else if (!r)
			rc = tb_fail(&e, TB_R_UNKNOWN_VERSION, "no Mesa release for %s is offered on %s",
				     host_arch(), c->cfg.channel);
		else {
			outcome_str(o, "version", r->version);
			outcome_str(o, "notes", r->notes);
			outcome_str(o, "url", r->notes_url);
			outcome_str(o, "published_at", r->published_at);
			outcome_int(o, "size", (int64_t)r->tarball.size);
			/* the release's build record, when it is installed here (docs/design.md §19) */
			struct strbuf rec = {0};
			char *tree = store_version_dir(s, r->version);
			if (is_directory(tree)) {
				char *sums = store_path(s, "%s/%s/SHA256SUMS", STORE_CACHE_DIR, r->tag);
				char *sig = store_path(s, "%s/%s/SHA256SUMS.minisig", STORE_CACHE_DIR, r->tag);
				struct record_view v;
				record_view_read(&c->cfg, tree, sums, sig, r->version, &v);
				record_view_say(&v, r->version, &rec);
				if (!o->fields)
					o->fields = json_object_new_object();
				json_object_object_add(o->fields, "build_record", record_view_json(&v));
				record_view_free(&v);
				free(sums);
				free(sig);
			} else {
				sb_appendf(&rec, "build record: Mesa %s is not installed here; its build record comes inside the release", r->version);
			}
			free(tree);
			/* people get the text itself, or where to read it */
			outcome_say(o, "%s\n%s", *r->notes ? r->notes : *r->notes_url ? r->notes_url
							: "this release has no notes", rec.buf);
			sb_free(&rec);
		}
		feed_free(&f);
	}
	return rc ? outcome_fail(o, &e) : TB_OK;
}

const struct cli_command notes_command = {
	.name = "notes",
	.args = "[VERSION]",
	.summary = "the release notes of a version (default the channel's newest), from the cached release list, and its build record when installed",
	.example = "tb323fu-ctl mesa notes",
	.opts_size = sizeof(struct notes_opts),
	.operand = OPERAND_RELEASE,
	.operand_at = offsetof(struct notes_opts, version),
	.open = OPEN_READER,
	.run = cmd_notes,
};
