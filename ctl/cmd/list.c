/* list: the installed versions, newest first, with what each is (current, previous, on,
 * on trial, pinned, marked), then the versions the store remembers; --available: the versions
 * the channel offers (--all: every channel's), with what the store knows of each. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/marks_say.h"
#include "lifecycle/lifecycle.h"
#include "apprules/pinning.h"
#include "store/manifest.h"
#include "store/state.h"
#include "gputest/bench.h"
#include "gputest/smoke_run.h"
#include "gputest/suite.h"
#include "release/feed.h"
#include "base/alloc.h"
#include "base/host.h"
#include "base/error.h"
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct list_opts {
	int available, all;
};

/* What the store knows of an offered version: "current", "previous", "downloaded" (installed,
 * neither), and a mark with its reason. */
static json_object *known_json(const struct store *s, const char *v, const char *cur, const char *prev,
			       const struct marks *marks, char *word, size_t size)
{
	int installed = store_has_version(s, v), is_cur = cur && !strcmp(v, cur), is_prev = prev && !strcmp(v, prev);
	const struct mark *k = marks_find(marks, v);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "installed", json_object_new_boolean(installed));
	json_object_object_add(o, "current", json_object_new_boolean(is_cur));
	json_object_object_add(o, "previous", json_object_new_boolean(is_prev));
	json_object_object_add(o, "downloaded", json_object_new_boolean(installed && !is_cur && !is_prev));
	json_object_object_add(o, "marked", json_object_new_string(k ? k->reason : ""));
	json_object_object_add(o, "marked_why", json_object_new_string(k ? k->why : ""));
	snprintf(word, size, "%s%s%s%s", is_cur ? "current" : is_prev ? "previous" : installed ? "downloaded" : "-",
		 k ? ", marked " : "", k ? k->reason : "", k ? (k->refused ? " (refused)" : "") : "");
	return o;
}

/* The Mesa version a release builds, from its MANIFEST when the store has it ("" otherwise: the
 * release list does not carry it). */
static char *mesa_version_of(const struct store *s, const char *v)
{
	struct manifest m;
	struct tb_error ignored = {0};
	if (!store_has_version(s, v) || store_load_manifest(s, v, &m, &ignored) != TB_OK)
		return xstrdup("");
	char *out = xstrdup(m.mesa_version ? m.mesa_version : "");
	manifest_free(&m);
	return out;
}

/* The release list as fresh as can be had: fetched (the cached ETag sent; nothing written, as
 * a reader), else the cached one, said so; TB_OK with *how "fetched" or "cached". */
static int offered(struct cli *c, struct store *s, struct feed *f, const char **how, char **stale,
		   struct tb_error *e)
{
	char *cache = store_path(s, STORE_CACHE_DIR);
	int from_cache;
	struct tb_error got = {0};
	int rc = feed_peek(&c->cfg, cache, f, &from_cache, &got);
	*how = "fetched";
	if (rc && feed_cached(&c->cfg, cache, f, e) == TB_OK) {
		*how = "cached";
		*stale = xstrdup(got.msg);
		rc = TB_OK;
	} else if (rc) {
		*e = got;
	}
	free(cache);
	return rc;
}

static int list_available(struct cli *c, const struct list_opts *a, struct store *s, struct outcome *o)
{
	struct feed f;
	const char *how;
	char *stale = NULL, *cur = store_current(s), *prev = store_previous(s);
	struct tb_error e = {0};
	if (offered(c, s, &f, &how, &stale, &e)) {
		free(cur);
		free(prev);
		return outcome_fail(o, &e);
	}
	struct marks marks;
	marks_load(s, &marks);
	int testing = !strcmp(c->cfg.channel, "testing");
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	size_t shown = 0, other = 0;
	for (size_t i = 0; i < f.n; i++) {
		const struct feed_release *r = &f.releases[i];
		if (r->prerelease && !testing && !a->all) {
			other++;
			continue;
		}
		char word[160], *mesa = mesa_version_of(s, r->version);
		json_object *item = known_json(s, r->version, cur, prev, &marks, word, sizeof word);
		json_object_object_add(item, "version", json_object_new_string(r->version));
		json_object_object_add(item, "channel", json_object_new_string(r->prerelease ? "testing" : "stable"));
		json_object_object_add(item, "published_at", json_object_new_string(r->published_at));
		json_object_object_add(item, "size", json_object_new_int64((int64_t)r->tarball.size));
		json_object_object_add(item, "mesa_version", json_object_new_string(mesa));
		json_object_array_add(arr, item);
		if (!shown++)
			sb_appendf(&sb, "%-16s %-8s %-10s %10s  %-24s %s", "VERSION", "CHANNEL", "DATE", "SIZE", "MESA", "STORE");
		sb_appendf(&sb, "\n%-16s %-8s %-10.10s %6.1f MiB  %-24s %s", r->version, r->prerelease ? "testing" : "stable",
			   *r->published_at ? r->published_at : "-", (double)r->tarball.size / 1048576.0,
			   *mesa ? mesa : "-", word);
		free(mesa);
	}
	if (!shown)
		sb_appendf(&sb, "no Mesa release for %s is offered on the %s channel", host_arch(), c->cfg.channel);
	if (other)
		sb_appendf(&sb, "\n%zu more on the testing channel: `tb323fu-ctl mesa list --available --all` shows them", other);
	if (stale)
		sb_appendf(&sb, "\nthe release list could not be fetched (%s): this is the one cached", stale);
	sb_append(&sb, shown ? "\n`tb323fu-ctl mesa update --to VERSION` installs one, `tb323fu-ctl mesa download VERSION` fetches it" : "");
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "channel", json_object_new_string(c->cfg.channel));
	json_object_object_add(o->fields, "release_list", json_object_new_string(how));
	json_object_object_add(o->fields, "available", arr);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(stale);
	marks_free(&marks);
	feed_free(&f);
	free(cur);
	free(prev);
	return TB_OK;
}

static int cmd_list_check(const void *opts, struct outcome *o)
{
	const struct list_opts *a = opts;
	if (a->all && !a->available)
		return cli_usage(o, "--all goes with --available: it lists every channel's releases");
	return TB_OK;
}

static int cmd_list(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct list_opts *a = opts;
	if (a->available)
		return list_available(c, a, s, o);
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s), *prev = store_previous(s);
	struct state st;
	state_load(s, &st); /* a damaged one reads as off: the markers only */
	struct marks marks;
	marks_load(s, &marks);
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++) {
		const char *v = list[i];
		struct manifest m;
		struct tb_error ignored = {0};
		int have_m = store_load_manifest(s, v, &m, &ignored) == TB_OK;
		int is_cur = cur && !strcmp(v, cur), is_prev = prev && !strcmp(v, prev);
		uint64_t bytes = store_version_bytes(s, v);
		const char *smoke = smoke_last_result(s, v);
		json_object *item = json_object_new_object();
		json_object_object_add(item, "version", json_object_new_string(v));
		json_object_object_add(item, "current", json_object_new_boolean(is_cur));
		json_object_object_add(item, "previous", json_object_new_boolean(is_prev));
		json_object_object_add(item, "drivers", cli_drivers_array(have_m ? &m : NULL));
		json_object_object_add(item, "mesa_version", json_object_new_string(have_m && m.mesa_version ? m.mesa_version : ""));
		json_object_object_add(item, "bytes", json_object_new_int64((int64_t)bytes));
		json_object_object_add(item, "smoke", json_object_new_string(smoke));
		const char *suite = suite_last_result(s, v);
		json_object_object_add(item, "suite", json_object_new_string(suite));
		json_object_object_add(item, "bench", bench_summary(s, v));
		const struct mark *k = marks_find(&marks, v);
		json_object_object_add(item, "marked", json_object_new_string(k ? k->reason : ""));
		json_object_array_add(arr, item);
		/* what the version is, in status's words: current (on, on trial), previous, pinned */
		char *pin = apprules_pinning(s, v);
		char role[64];
		snprintf(role, sizeof role, "%s%s%s%s", is_cur ? "current" : is_prev ? "previous" : "-",
			 is_cur && st.enabled ? (st.trial && !strcmp(st.trial, v) ? ", on trial" : ", on") : "",
			 pin ? ", pinned" : "", k ? ", marked" : "");
		free(pin);
		if (!i)
			sb_appendf(&sb, "%-16s %-20s %-19s %-24s %10s  %-5s  %s\n", "VERSION", "USE", "DRIVERS",
				   "MESA", "SIZE", "SMOKE", "SUITE");
		sb_appendf(&sb, "%s%-16s %-20s %-19s %-24s %6.1f MiB  %-5s  %s", i ? "\n" : "", v, role,
			   cli_drivers_text(have_m ? &m : NULL), have_m && m.mesa_version ? m.mesa_version : "",
			   (double)bytes / 1048576.0, smoke, suite);
		if (have_m)
			manifest_free(&m);
	}
	if (!n)
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	/* every mark, of an installed version or not (a refused release never was) */
	marks_say(&sb, "\n", &marks);
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "versions", arr);
	json_object_object_add(o->fields, "marked", marks_json(&marks));
	marks_free(&marks);
	o->fields_only = 1;
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(cur);
	free(prev);
	state_free(&st);
	store_free_list(list, n);
	return TB_OK;
}

static const char *const list_synonyms[] = {"ls", NULL};

static const struct cli_option list_options[] = {
	CLI_FLAG("--available", struct list_opts, available,
		 "the versions the channel offers, newest first, each with its date, size, Mesa version (when the store has "
		 "its MANIFEST) and what the store knows of it (current, previous, downloaded, marked and why)"),
	CLI_FLAG("--all", struct list_opts, all, "with --available: the testing channel's releases too"),
	CLI_END,
};

const struct cli_command list_command = {
	.name = "list",
	.args = "[--available [--all]]",
	.summary = "installed versions, newest first; --available: the versions on offer",
	.example = "tb323fu-ctl mesa list --available",
	.synonyms = list_synonyms,
	.options = list_options,
	.opts_size = sizeof(struct list_opts),
	.open = OPEN_READER,
	.check = cmd_list_check,
	.run = cmd_list,
};
