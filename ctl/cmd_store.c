/* The commands that work on the store alone: status, list, install, install-local, on, off,
 * keep, rollback, boot-tick, remove, verify. */
#include "activate.h"
#include "bench.h"
#include "cli.h"
#include "elfcheck.h"
#include "feed.h"
#include "manifest.h"
#include "minisign.h"
#include "release.h"
#include "running.h"
#include "takeover.h"
#include "smoke_run.h"
#include "suite_piglit.h"
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage_error(struct outcome *o, const char *what)
{
	struct tb_error e = {0};
	tb_fail(&e, TB_EUSAGE, "%s", what);
	return outcome_fail(o, &e);
}

/* The newest downloaded version newer than current that has not failed: it waits for
 * `install`. */
static char *ready_version(const struct store *s)
{
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s);
	struct state st;
	state_load(s, &st);
	char *ready = NULL;
	for (size_t i = 0; i < n && !ready; i++) {
		if (cur && version_compare(list[i], cur) <= 0)
			break;
		if (!st.failed || strcmp(st.failed, list[i]))
			ready = xstrdup(list[i]);
	}
	state_free(&st);
	free(cur);
	store_free_list(list, n);
	return ready;
}

/* "vulkan, opencl" for people. */
static const char *drivers_text(const struct manifest *m)
{
	if (!m || (!m->has_vulkan && !m->has_opencl))
		return "no drivers";
	return m->has_vulkan && m->has_opencl ? "vulkan, opencl" : m->has_vulkan ? "vulkan" : "opencl";
}

static json_object *drivers_array(const struct manifest *m)
{
	json_object *a = json_object_new_array();
	if (m && m->has_vulkan)
		json_object_array_add(a, json_object_new_string("vulkan"));
	if (m && m->has_opencl)
		json_object_array_add(a, json_object_new_string("opencl"));
	return a;
}

/* A git commit id shortened as git does; anything else (a tag, a version) as it is. */
static const char *short_commit(const char *c, char *buf, size_t n)
{
	size_t len = strlen(c);
	if (len < 12 || strspn(c, "0123456789abcdef") != len)
		return c;
	snprintf(buf, n, "%.7s", c);
	return buf;
}

/* What the channel offers, as the last `check` saw it (no network here). */
static char *cached_available(const struct cli *c, const struct store *s)
{
	char *cache = store_path(s, "cache");
	struct feed f = {0};
	struct tb_error ignored = {0};
	char *v = NULL;
	if (feed_cached(&c->cfg, cache, &f, &ignored) == TB_OK) {
		const struct feed_release *r = feed_newest(&f, c->cfg.channel);
		if (r)
			v = xstrdup(r->version);
		feed_free(&f);
	}
	free(cache);
	return v;
}

COMMAND(status)
{
	if (argc > 1)
		return usage_error(o, "status takes no arguments");
	struct store s;
	struct tb_error e = {0};
	if (cli_open_store(c, &s, 0, &e))
		return outcome_fail(o, &e);
	char *cur = store_current(&s), *prev = store_previous(&s);
	char *ready = ready_version(&s), *avail = cached_available(c, &s);
	struct state st;
	state_load(&s, &st);
	struct manifest m;
	int have_m = 0;
	if (cur) {
		char *tree = store_path(&s, "versions/%s", cur);
		struct tb_error ignored = {0};
		have_m = manifest_load(tree, &m, &ignored) == TB_OK;
		free(tree);
	}
	int on_trial = st.enabled && st.trial && cur && !strcmp(st.trial, cur);
	struct running_info ri;
	running_read(s.root, &ri);
	/* a running writer's step first, whoever started it (docs/design.md §13) */
	const char *state = ri.command[0] ? ri.step : on_trial ? "trial" : ready ? "ready" : "idle";
	outcome_str(o, "installed", cur);
	outcome_str(o, "previous", prev);
	outcome_str(o, "available", avail);
	outcome_str(o, "downloaded", ready);
	outcome_bool(o, "enabled", st.enabled);
	outcome_str(o, "trial", st.trial);
	outcome_int(o, "tries", st.tries);
	outcome_int(o, "max_tries", st.trial ? st.max : c->cfg.max_tries);
	outcome_str(o, "failed", st.failed);
	outcome_str(o, "failed_reason", st.failed_reason);
	outcome_str(o, "failed_reason_id", st.failed ? (st.failed_reason_id ? st.failed_reason_id : "failed") : "");
	json_object_object_add(o->fields, "drivers", drivers_array(have_m ? &m : NULL));
	outcome_str(o, "base", have_m ? m.base : "");
	outcome_str(o, "mesa_version", have_m ? m.mesa_version : "");
	outcome_str(o, "state", state);
	outcome_str(o, "store", s.root);
	int incomplete = takeover_needed(&s);
	outcome_bool(o, "takeover_needed", incomplete > 0);
	outcome_str(o, "op", ri.command);
	outcome_int(o, "progress", ri.command[0] ? ri.percent : 0);
	outcome_str(o, "message", ri.last_message);
	o->fields_only = 1;

	struct strbuf sb = {0};
	char sc[16];
	if (cur) {
		sb_appendf(&sb, "Mesa %s is installed (%s", cur, drivers_text(have_m ? &m : NULL));
		if (have_m && m.mesa_version)
			sb_appendf(&sb, ", Mesa %s", m.mesa_version);
		if (have_m && m.base)
			sb_appendf(&sb, ", based on upstream %s", short_commit(m.base, sc, sizeof sc));
		sb_append(&sb, ")");
	} else
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	if (cur && st.enabled)
		sb_append(&sb, "\nit is used for every program from the next login");
	else if (cur)
		sb_append(&sb, "\nit is used by `tb323fu-mesa run`; switch it on for every program with `tb323fu-ctl mesa on`");
	if (on_trial)
		sb_appendf(&sb, "\nit is on trial (%d of %d starts); confirm it with `tb323fu-ctl mesa keep`", st.tries, st.max);
	json_object *bench = cur ? bench_summary(&s, cur) : NULL;
	json_object *ratio = bench ? json_object_object_get(bench, "ratio") : NULL;
	if (ratio)
		sb_appendf(&sb, "\nits last benchmark: %.2fx the distribution's Mesa (%s, %d rounds; `tb323fu-ctl mesa bench` measures again)",
			   json_object_get_double(ratio),
			   json_object_get_string(json_object_object_get(bench, "command")),
			   json_object_get_int(json_object_object_get(bench, "rounds")));
	json_object_put(bench);
	if (prev)
		sb_appendf(&sb, "\nMesa %s is kept for `tb323fu-ctl mesa rollback`", prev);
	if (ready)
		sb_appendf(&sb, "\nMesa %s is downloaded; make it current with `tb323fu-ctl mesa install %s`", ready, ready);
	if (avail && (!cur || version_compare(avail, cur) > 0) && (!ready || version_compare(avail, ready) > 0))
		sb_appendf(&sb, "\nMesa %s is available (tb323fu-ctl mesa update)", avail);
	if (st.failed)
		sb_appendf(&sb, "\nMesa %s failed: %s", st.failed, st.failed_reason ? st.failed_reason : "");
	if (incomplete)
		sb_append(&sb, "\nthe store was made by the Open Device Helper and still needs our files; any writing command adds them (tb323fu-ctl mesa takeover)");
	if (ri.command[0])
		sb_appendf(&sb, "\n%s is running (%s, %d %%)", ri.command, ri.step, ri.percent);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	running_info_free(&ri);
	if (have_m)
		manifest_free(&m);
	state_free(&st);
	free(cur);
	free(prev);
	free(ready);
	free(avail);
	store_close(&s);
	return TB_OK;
}

COMMAND(list)
{
	if (argc > 1)
		return usage_error(o, "list takes no arguments");
	struct store s;
	struct tb_error e = {0};
	if (cli_open_store(c, &s, 0, &e))
		return outcome_fail(o, &e);
	size_t n;
	char **list = store_versions(&s, &n);
	char *cur = store_current(&s), *prev = store_previous(&s);
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++) {
		const char *v = list[i];
		char *tree = store_path(&s, "versions/%s", v);
		struct manifest m;
		struct tb_error ignored = {0};
		int have_m = manifest_load(tree, &m, &ignored) == TB_OK;
		free(tree);
		int is_cur = cur && !strcmp(v, cur), is_prev = prev && !strcmp(v, prev);
		uint64_t bytes = store_version_bytes(&s, v);
		const char *smoke = smoke_last_result(&s, v);
		json_object *item = json_object_new_object();
		json_object_object_add(item, "version", json_object_new_string(v));
		json_object_object_add(item, "current", json_object_new_boolean(is_cur));
		json_object_object_add(item, "previous", json_object_new_boolean(is_prev));
		json_object_object_add(item, "drivers", drivers_array(have_m ? &m : NULL));
		json_object_object_add(item, "mesa_version", json_object_new_string(have_m && m.mesa_version ? m.mesa_version : ""));
		json_object_object_add(item, "bytes", json_object_new_int64((int64_t)bytes));
		json_object_object_add(item, "smoke", json_object_new_string(smoke));
		const char *suite = suite_last_result(&s, v);
		json_object *bench = bench_summary(&s, v);
		json_object_object_add(item, "suite", json_object_new_string(suite));
		json_object_object_add(item, "bench", bench);
		json_object_array_add(arr, item);
		sb_appendf(&sb, "%s%-14s %-8s %-14s %-22s %7.1f MiB  smoke %s  suite %s", i ? "\n" : "", v,
			   is_cur ? "current" : is_prev ? "previous" : "", drivers_text(have_m ? &m : NULL),
			   have_m && m.mesa_version ? m.mesa_version : "", (double)bytes / 1048576.0, smoke,
			   suite);
		json_object *ratio = bench ? json_object_object_get(bench, "ratio") : NULL;
		if (ratio)
			sb_appendf(&sb, "  bench %.2fx", json_object_get_double(ratio));
		if (have_m)
			manifest_free(&m);
	}
	if (!n)
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "versions", arr);
	o->fields_only = 1;
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(cur);
	free(prev);
	store_free_list(list, n);
	store_close(&s);
	return TB_OK;
}

static int activate_and_say(struct cli *c, struct store *s, const char *v, int no_smoke,
			    struct outcome *o)
{
	struct activate_opts ao = {&c->cfg, !no_smoke && c->cfg.smoke, c->progress};
	struct smoke_outcome sm;
	struct tb_error e = {0};
	int rc = release_activate(s, v, &ao, &sm, &e);
	if (rc) {
		outcome_str(o, "version", v);
		return outcome_fail(o, &e);
	}
	outcome_installed(o, s, v, ao.run_smoke ? &sm : NULL);
	return TB_OK;
}

COMMAND(install)
{
	const char *version = NULL;
	int no_smoke = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-smoke"))
			no_smoke = 1;
		else if (argv[i][0] != '-' && !version)
			version = argv[i];
		else
			return usage_error(o, "usage: install [VERSION] [--no-smoke]");
	}
	if (version && !version_is_valid(version))
		return usage_error(o, "that is not a valid version");
	struct store s;
	struct tb_error e = {0};
	if (cli_open_store(c, &s, 1, &e))
		return outcome_fail(o, &e);
	char *chosen = version ? xstrdup(version) : ready_version(&s);
	int rc;
	if (!chosen)
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "no downloaded version waits for install (tb323fu-ctl mesa download, or update)"), outcome_fail(o, &e);
	else if (!store_has_version(&s, chosen))
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "Mesa %s is not downloaded (tb323fu-ctl mesa download %s)", chosen, chosen), outcome_fail(o, &e);
	else
		rc = activate_and_say(c, &s, chosen, no_smoke, o);
	free(chosen);
	store_close(&s);
	return rc;
}

/* tb323fu-mesa-<version>-<arch>.tar.<ext>: the version a release file name claims, or NULL. */
static char *version_from_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *prefix = "tb323fu-mesa-";
	if (strncmp(base, prefix, strlen(prefix)))
		return NULL;
	const char *v = base + strlen(prefix);
	const char *arch = strrchr(v, '-');
	const char *tar = strstr(v, ".tar.");
	if (!arch || !tar || arch > tar)
		return NULL;
	char *ver = strndup(v, (size_t)(arch - v));
	if (!version_is_valid(ver)) {
		free(ver);
		return NULL;
	}
	return ver;
}

static char *beside(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - file), file, name);
}

COMMAND(install_local)
{
	const char *file = NULL, *sums = NULL, *sig = NULL;
	int no_smoke = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-smoke"))
			no_smoke = 1;
		else if (!strcmp(argv[i], "--sums") && i + 1 < argc)
			sums = argv[++i];
		else if (!strcmp(argv[i], "--sig") && i + 1 < argc)
			sig = argv[++i];
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			return usage_error(o, "usage: install-local FILE [--sums FILE] [--sig FILE] [--no-smoke]");
	}
	if (!file)
		return usage_error(o, "usage: install-local FILE [--sums FILE] [--sig FILE] [--no-smoke]");
	struct tb_error e = {0};
	char *sums_path = sums ? xstrdup(sums) : beside(file, "SHA256SUMS");
	char *sig_path = sig ? xstrdup(sig) : NULL;
	if (!sig_path) {
		char *guess = xasprintf("%s.minisig", sums_path);
		if (path_exists(guess) && (c->cfg.require_signature || c->cfg.n_public_keys))
			sig_path = guess;
		else
			free(guess);
	}
	char *claimed = version_from_name(file);
	struct store s;
	int rc = TB_OK;
	if (!path_exists(sums_path))
		rc = tb_fail_why(&e, TB_EVERIFY, "sums-invalid", "no SHA256SUMS for %s: pass the release's SHA256SUMS with --sums FILE", file);
	else
		rc = minisign_verify_file(&c->cfg, sums_path, sig_path, claimed, &e);
	if (rc)
		goto out;
	rc = cli_open_store(c, &s, 1, &e);
	if (rc)
		goto out;
	struct release_request req = {.tarball = file, .sums_path = sums_path,
				      .expect_version = claimed, .progress = c->progress};
	char *version = NULL;
	rc = release_unpack(&s, &req, &version, &e);
	if (!rc)
		rc = activate_and_say(c, &s, version, no_smoke, o);
	free(version);
	store_close(&s);
out:
	if (rc && !o->message)
		outcome_fail(o, &e);
	free(sums_path);
	free(sig_path);
	free(claimed);
	return rc;
}

/* Opens the store for a writer and loads the state; on failure the outcome is set. */
static int open_for_state(struct cli *c, struct store *s, struct state *st, struct outcome *o)
{
	struct tb_error e = {0};
	if (cli_open_store(c, s, 1, &e))
		return outcome_fail(o, &e);
	state_load(s, st);
	return TB_OK;
}

static int save_state(struct store *s, struct state *st, struct outcome *o)
{
	struct tb_error e = {0};
	int rc = state_save(s, st, &e);
	if (!rc)
		rc = envfiles_write_current(s, &e);
	return rc ? outcome_fail(o, &e) : TB_OK;
}

COMMAND(on)
{
	if (argc > 1)
		return usage_error(o, "on takes no arguments");
	struct store s;
	struct state st;
	if (open_for_state(c, &s, &st, o))
		return o->code;
	char *cur = store_current(&s);
	int rc;
	if (!cur) {
		struct tb_error e = {0};
		tb_fail_why(&e, TB_EFAIL, "not-installed", "no Mesa version installed to switch on (tb323fu-ctl mesa update)");
		rc = outcome_fail(o, &e);
	} else {
		int already = st.enabled;
		st.enabled = 1;
		if (!already || !st.trial) {
			if (!already) {
				state_set(&st.trial, cur);
				st.tries = 0;
				st.max = c->cfg.max_tries;
				state_set(&st.boot, NULL);
			}
		}
		if (st.failed && !strcmp(st.failed, cur)) {
			state_set_failed(&st, NULL, NULL, NULL);
		}
		rc = save_state(&s, &st, o);
		if (!rc) {
			outcome_str(o, "version", cur);
			if (st.trial)
				outcome_say(o, "Mesa %s is used for every program from the next login; it is on trial for %d starts until `tb323fu-ctl mesa keep`",
					    cur, st.max);
			else
				outcome_say(o, "Mesa %s is used for every program from the next login", cur);
		}
	}
	free(cur);
	state_free(&st);
	store_close(&s);
	return rc;
}

COMMAND(off)
{
	if (argc > 1)
		return usage_error(o, "off takes no arguments");
	struct store s;
	struct state st;
	if (open_for_state(c, &s, &st, o))
		return o->code;
	st.enabled = 0;
	state_set(&st.trial, NULL);
	st.tries = 0;
	int rc = save_state(&s, &st, o);
	if (!rc)
		outcome_say(o, "the distribution's Mesa is used from the next login");
	state_free(&st);
	store_close(&s);
	return rc;
}

COMMAND(keep)
{
	if (argc > 1)
		return usage_error(o, "keep takes no arguments");
	struct store s;
	struct state st;
	if (open_for_state(c, &s, &st, o))
		return o->code;
	int rc = TB_OK;
	if (!st.trial) {
		outcome_say(o, "nothing to keep: no Mesa version is on trial");
	} else {
		char *v = xstrdup(st.trial);
		state_set(&st.trial, NULL);
		st.tries = 0;
		rc = save_state(&s, &st, o);
		if (!rc) {
			outcome_str(o, "version", v);
			outcome_say(o, "Mesa %s confirmed; it stays on", v);
		}
		free(v);
	}
	state_free(&st);
	store_close(&s);
	return rc;
}

COMMAND(rollback)
{
	if (argc > 1)
		return usage_error(o, "rollback takes no arguments");
	struct store s;
	struct state st;
	if (open_for_state(c, &s, &st, o))
		return o->code;
	char *cur = store_current(&s), *prev = store_previous(&s);
	struct tb_error e = {0};
	int rc;
	if (!prev || !store_has_version(&s, prev)) {
		tb_fail_why(&e, TB_EFAIL, "not-installed", "there is no previous version to go back to");
		rc = outcome_fail(o, &e);
	} else {
		rc = store_set_link(&s, "previous", cur, &e);
		if (!rc)
			rc = store_set_link(&s, "current", prev, &e);
		/* the version put back was in use before: no trial for it */
		state_set(&st.trial, NULL);
		st.tries = 0;
		if (!rc)
			rc = state_save(&s, &st, &e);
		if (!rc)
			rc = envfiles_write_current(&s, &e);
		if (rc)
			outcome_fail(o, &e);
		else {
			outcome_str(o, "version", prev);
			outcome_str(o, "previous", cur);
			outcome_say(o, "Mesa %s is current again (new programs use it now); Mesa %s is kept as previous", prev, cur ? cur : "");
		}
	}
	free(cur);
	free(prev);
	state_free(&st);
	store_close(&s);
	return rc;
}

static char *boot_id(void)
{
	const char *env = getenv("TB323FU_BOOT_ID");
	if (env && *env)
		return xstrdup(env);
	char *id = read_small_file("/proc/sys/kernel/random/boot_id", 128, NULL);
	if (id)
		id[strcspn(id, "\n")] = '\0';
	return id;
}

COMMAND(boot_tick)
{
	if (argc > 1)
		return usage_error(o, "boot-tick takes no arguments");
	struct store s;
	struct state st;
	if (open_for_state(c, &s, &st, o))
		return o->code;
	char *id = boot_id();
	int rc = TB_OK;
	if (!st.enabled || !st.trial) {
		outcome_say(o, "no Mesa version is on trial");
	} else if (id && st.boot && !strcmp(id, st.boot)) {
		outcome_say(o, "this start of Mesa %s is already counted (%d of %d)", st.trial, st.tries, st.max);
	} else if (st.tries >= st.max) {
		char *v = xstrdup(st.trial);
		char *why = xasprintf("not confirmed after %d starts", st.tries);
		st.enabled = 0;
		state_set_failed(&st, v, "trial-expired", why);
		state_set(&st.trial, NULL);
		state_set(&st.boot, id);
		st.tries = 0;
		rc = save_state(&s, &st, o);
		if (!rc) {
			outcome_str(o, "version", v);
			outcome_bool(o, "switched_off", 1);
			outcome_say(o, "Mesa %s was %s; the distribution's Mesa is used from now on", v, why);
		}
		free(v);
		free(why);
	} else {
		st.tries++;
		state_set(&st.boot, id);
		rc = save_state(&s, &st, o);
		if (!rc) {
			outcome_str(o, "version", st.trial);
			outcome_int(o, "tries", st.tries);
			outcome_say(o, "start %d of %d of Mesa %s on trial; confirm it with `tb323fu-ctl mesa keep`", st.tries, st.max, st.trial);
		}
	}
	free(id);
	state_free(&st);
	store_close(&s);
	return rc;
}

COMMAND(remove)
{
	if (argc != 2 || argv[1][0] == '-')
		return usage_error(o, "usage: remove VERSION");
	const char *v = argv[1];
	if (!version_is_valid(v))
		return usage_error(o, "that is not a valid version");
	struct store s;
	struct tb_error e = {0};
	if (cli_open_store(c, &s, 1, &e))
		return outcome_fail(o, &e);
	char *cur = store_current(&s), *prev = store_previous(&s);
	int rc;
	if (!store_has_version(&s, v))
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "Mesa %s is not installed (tb323fu-ctl mesa list)", v);
	else if (cur && !strcmp(v, cur))
		rc = tb_fail_why(&e, TB_EFAIL, "in-use", "Mesa %s is current; install or roll back to another version first", v);
	else if (prev && !strcmp(v, prev))
		rc = tb_fail_why(&e, TB_EFAIL, "in-use", "Mesa %s is kept for rollback; install another version first", v);
	else
		rc = release_remove(&s, v, &e);
	if (rc)
		outcome_fail(o, &e);
	else {
		outcome_str(o, "version", v);
		outcome_say(o, "Mesa %s removed", v);
	}
	free(cur);
	free(prev);
	store_close(&s);
	return rc;
}

COMMAND(verify)
{
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return usage_error(o, "usage: verify [VERSION]");
	struct store s;
	struct tb_error e = {0};
	if (cli_open_store(c, &s, 0, &e))
		return outcome_fail(o, &e);
	char *v = argc == 2 ? xstrdup(argv[1]) : store_current(&s);
	int rc;
	if (!v)
		rc = tb_fail_why(&e, TB_EFAIL, "not-installed", "no Mesa version installed (tb323fu-ctl mesa update)");
	else if (!version_is_valid(v))
		rc = tb_fail(&e, TB_EUSAGE, "that is not a valid version");
	else
		rc = release_verify_installed(&s, v, &e);
	if (!rc && v) {
		char *tree = store_path(&s, "versions/%s", v);
		struct manifest m;
		rc = manifest_load(tree, &m, &e);
		if (!rc) {
			struct elf_report r;
			rc = elf_check_tree(tree, &m, &r, &e);
			manifest_free(&m);
		}
		free(tree);
	}
	if (v)
		outcome_str(o, "version", v);
	if (rc)
		outcome_fail(o, &e);
	else
		outcome_say(o, "Mesa %s is intact: every file matches its MANIFEST", v ? v : "");
	free(v);
	store_close(&s);
	return rc;
}
