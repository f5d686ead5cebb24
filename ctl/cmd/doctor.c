/* doctor: explains what applications get now. The store and the session switch, the
 * variables of this shell, the loaders and ICDs the system has, the glibc floor of the
 * current version against this system, and every problem found, each with what to do. */
#include "cli/cli.h"
#include "release/elfcheck.h"
#include "release/release.h"
#include "release/buildrecord.h"
#include "trial/side.h"
#include "trial/smoke_run.h"
#include "ops/lifecycle.h"
#include "ops/login_reach.h"
#include "common/exitcode.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/text.h"
#include "common/envvars.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/command.h"
#include "cmd/marks_say.h"
#include "cmd/commands.h"
#include "cmd/app_scope.h"
#include "cmd/crashes.h"
#include "crash/journal.h"
#include "cmd/flatpak_scope.h"
#include "flatpak/session.h"
#include "flatpak/runtime.h"

/* Where the Vulkan loader looks for ICD files when no variable overrides it (besides
 * $XDG_DATA_DIRS, read below). */
static const char *const vulkan_icd_dirs[] = {
	"/etc/xdg/vulkan/icd.d",
	"/etc/vulkan/icd.d",
	"/usr/local/share/vulkan/icd.d",
	"/usr/share/vulkan/icd.d",
};
#define OPENCL_VENDORS_DIR "/etc/OpenCL/vendors"

struct doctor {
	struct strbuf lines;
	json_object *problems;
	json_object *fields;
	int n_problems;
	const char *store_root;
};

static void line(struct doctor *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct doctor *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (d->lines.len)
		sb_append(&d->lines, "\n");
	sb_append(&d->lines, s);
	free(s);
}

static void problem(struct doctor *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct doctor *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	line(d, "problem: %s", s);
	json_object_array_add(d->problems, json_object_new_string(s));
	d->n_problems++;
	free(s);
}

static int is_store_path(const struct doctor *d, const char *path)
{
	size_t n = strlen(d->store_root);
	return path && strncmp(path, d->store_root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The version part of a library's real file name: libvulkan.so.1.3.239 → 1.3.239. */
static char *library_version(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real)
		return xstrdup("");
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	const char *so = strstr(base, ".so.");
	char *v = xstrdup(so ? so + 4 : "");
	free(real);
	return v;
}

static void report_store(struct doctor *d, const struct store *s, char **current)
{
	struct lc_view v;
	lc_read(s, &v);
	struct state st = v.st;
	*current = store_current(s);
	char *previous = store_previous(s);
	json_object_object_add(d->fields, "store", json_object_new_string(s->root));
	json_object_object_add(d->fields, "current", json_object_new_string(*current ? *current : ""));
	json_object_object_add(d->fields, "previous", json_object_new_string(previous ? previous : ""));
	json_object_object_add(d->fields, "enabled", json_object_new_boolean(st.enabled));
	json_object_object_add(d->fields, "trial", json_object_new_string(st.trial ? st.trial : ""));

	if (v.current_gone || v.foreign) {
		struct strbuf sb = {0};
		lc_gone_advice(s, &v, &sb);
		problem(d, "%s", sb.buf);
		sb_free(&sb);
		free(*current); /* nothing of it to check further */
		*current = NULL;
	}
	if (v.planted)
		problem(d, "%s: a symbolic link stands where the store keeps its own file; the next change (e.g. `tb323fu-ctl mesa %s`) replaces it, leaving what it points at alone",
			v.planted, st.enabled ? "on" : "off");
	if (v.current_gone || v.foreign)
		; /* said above */
	else if (*current)
		line(d, "store %s: Mesa %s is current%s%s%s", s->root, *current,
		     previous ? " (previous " : "", previous ? previous : "", previous ? ")" : "");
	else
		line(d, "store %s: no Mesa version installed (tb323fu-ctl mesa update)", s->root);

	if (st.enabled && (v.current_gone || v.foreign))
		; /* said above */
	else if (st.enabled && *current && login_reach(s, &(const char *){NULL}) != LOGIN_READS)
		line(d, "session: switched on (Mesa %s), but no login reads this store: see the problem below", *current);
	else if (st.enabled && *current)
		line(d, "session: switched on; applications of the next login get Mesa %s", *current);
	else if (st.enabled)
		problem(d, "the session is switched on but no version is installed; run "
			   "`tb323fu-ctl mesa update` or `tb323fu-ctl mesa off`");
	else
		line(d, "session: switched off; applications get the distribution's Mesa unless "
			"started with `tb323fu-mesa run`");
	if (st.trial)
		line(d, "Mesa %s is on trial (%d of %d starts); confirm it with `tb323fu-ctl mesa keep`",
		     st.trial, st.tries, st.max);
	/* a failed smoke test switches nothing and a rollback keeps the switch: "switched off"
	 * only when it was */
	const char *why = st.failed_reason ? st.failed_reason : "no reason recorded";
	if (st.failed && *current && strcmp(st.failed, *current))
		problem(d, "Mesa %s failed (%s); it is not in use, Mesa %s is current; try another version or report it",
			st.failed, why, *current);
	else if (st.failed && !st.enabled)
		problem(d, "Mesa %s failed (%s) and was switched off; try another version or report it",
			st.failed, why);
	else if (st.failed)
		problem(d, "Mesa %s failed (%s) and is still current; roll back with `tb323fu-ctl mesa rollback` or report it",
			st.failed, why);

	if (st.enabled) {
		/* The session files read env.conf: it must carry the variables while on. */
		char *conf = store_path(s, STORE_ENV_CONF);
		size_t len = 0;
		char *text = read_small_file(conf, 64 * 1024, &len);
		if (!text || len == 0)
			problem(d, "the session is switched on but %s is empty; run `tb323fu-ctl mesa on` "
				   "again", conf);
		free(text);
		free(conf);
	}
	if (*current) {
		const char *smoke = smoke_last_result(s, *current);
		json_object_object_add(d->fields, "smoke", json_object_new_string(smoke));
		if (strcmp(smoke, "fail") == 0)
			problem(d, "the last smoke test of Mesa %s failed; see `tb323fu-ctl mesa smoke`",
				*current);
		else
			line(d, "last smoke test of Mesa %s: %s", *current, smoke);
	} else {
		json_object_object_add(d->fields, "smoke", json_object_new_string("none"));
	}
	/* what the store remembers: a refused release is a problem of the release source, a
	 * version rolled back from or failed is the store's memory (docs/design.md §12) */
	struct marks marks;
	marks_load(s, &marks);
	json_object_object_add(d->fields, "marked", marks_json(&marks));
	for (size_t i = 0; i < marks.n; i++) {
		struct marks one = {.v = &marks.v[i], .n = 1};
		struct strbuf sb = {0};
		marks_say(&sb, "", &one);
		if (marks.v[i].refused)
			problem(d, "%s", sb.buf);
		else
			line(d, "%s", sb.buf);
		sb_free(&sb);
	}
	marks_free(&marks);
	free(previous);
	lc_view_free(&v);
}

#define BOOT_TICK_WANTS TB_SYSCONFDIR "/systemd/system/*.wants/tb323fu-mesa-boot-tick*.service"

/* While the session is switched on, logins must read this store's env.conf and each boot
 * must count a trial's starts: the session files and the boot-tick unit make the promise of
 * `on` real, so their absence is a problem. */
static void report_system(struct doctor *d, const struct store *s)
{
	struct state st;
	state_load(s, &st);
	if (st.enabled) {
		const char *found;
		login_reach(s, &found);
		struct strbuf no_login = {0};
		if (login_reach_say(s, &no_login)) /* on's and status's sentence */
			problem(d, "it is switched on, but %s", no_login.buf);
		else
			line(d, "session files: %s reads this store's env.conf", found);
		sb_free(&no_login);
	}
	if (st.enabled && st.trial) {
		glob_t g;
		int enabled = glob(BOOT_TICK_WANTS, 0, NULL, &g) == 0 && g.gl_pathc > 0;
		if (enabled)
			line(d, "boot-tick: enabled (%s); each boot counts a start of Mesa %s on trial",
			     g.gl_pathv[0], st.trial);
		else
			problem(d, "the boot-tick unit is not enabled, so the starts of Mesa %s on trial "
				   "are not counted and a broken build is never switched off; run "
				   "`sudo systemctl enable tb323fu-mesa-boot-tick.service`",
				st.trial);
		globfree(&g);
		json_object_object_add(d->fields, "boot_tick_enabled", json_object_new_boolean(enabled));
	}
	state_free(&st);
}

/* verify on current and on previous (what rollback goes back to): a damaged file is a
 * problem whatever else is right. */
static void report_verify(struct doctor *d, const struct store *s, const char *current)
{
	char *previous = store_previous(s);
	const char *which[] = {current, previous};
	for (int i = 0; i < 2; i++) {
		if (!which[i] || !store_has_version(s, which[i]))
			continue;
		struct tb_error e = {0};
		const char *role = i ? "the previous version" : "the current version";
		if (release_verify_installed(s, which[i], &e))
			problem(d, "%s (%s)%s", e.msg, role,
				i ? "; `tb323fu-ctl mesa rollback` refuses to go back to it until then" : "");
		else
			line(d, "Mesa %s is intact (%s): every file matches its MANIFEST", which[i], role);
	}
	free(previous);
}

/* What this shell's variables select: the variables the control tool itself was started
 * with are the ones the user's applications get. */
static void report_environment(struct doctor *d)
{
	json_object *env = json_object_new_object();
	int any = 0;
	for (size_t i = 0; i < envfile_vars_count; i++) {
		const char *v = getenv(envfile_vars[i]);
		if (!v || !*v)
			continue;
		json_object_object_add(env, envfile_vars[i], json_object_new_string(v));
		if (strcmp(envfile_vars[i], ENV_LD_LIBRARY_PATH) == 0 && !strstr(v, d->store_root))
			continue; /* a path list of its own, not a driver selection */
		any = 1;
		line(d, "this shell: %s=%s%s", envfile_vars[i], v,
		     is_store_path(d, v) ? " (the store's)" : "");
		if ((strcmp(envfile_vars[i], ENV_VK_DRIVER_FILES) == 0 ||
		     strcmp(envfile_vars[i], ENV_VK_ICD_FILENAMES) == 0) &&
		    !strchr(v, ':') && !path_exists(v))
			problem(d, "%s names %s, which does not exist: Vulkan applications of this shell "
				   "find no driver; log in again or unset it",
				envfile_vars[i], v);
		if (strcmp(envfile_vars[i], ENV_OCL_ICD_VENDORS) == 0 && !path_exists(v))
			problem(d, "OCL_ICD_VENDORS names %s, which does not exist: OpenCL applications "
				   "of this shell find no platform; log in again or unset it", v);
	}
	if (!any)
		line(d, "this shell selects no driver: its applications get the distribution's Mesa");
	json_object_object_add(d->fields, "env", env);
}

static void report_loader(struct doctor *d, const struct elf_host *h, const char *soname,
			  const char *what, const char *package, const char *key)
{
	char *path = elf_find_system_library(h, soname);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(path ? path : ""));
	if (path) {
		char *v = library_version(path);
		json_object_object_add(o, "version", json_object_new_string(v));
		line(d, "%s: %s%s%s%s", what, path, *v ? " (" : "", v, *v ? ")" : "");
		free(v);
	} else {
		json_object_object_add(o, "version", json_object_new_string(""));
		problem(d, "the %s %s is not installed; install %s", what, soname, package);
	}
	json_object_object_add(d->fields, key, o);
	free(path);
}

/* A library path from an ICD file: absolute, or a name the dynamic linker searches for. */
static int library_reachable(const struct elf_host *h, const char *lib)
{
	if (strchr(lib, '/'))
		return path_exists(lib);
	char *p = elf_find_system_library(h, lib);
	int ok = p != NULL;
	free(p);
	return ok;
}

static void add_icd(struct doctor *d, json_object *list, const struct elf_host *h,
		    const char *file, const char *lib)
{
	json_object *o = json_object_new_object();
	int reachable = lib && *lib && library_reachable(h, lib);
	json_object_object_add(o, "file", json_object_new_string(file));
	json_object_object_add(o, "library_path", json_object_new_string(lib ? lib : ""));
	json_object_object_add(o, "found", json_object_new_boolean(reachable));
	json_object_object_add(o, "store", json_object_new_boolean(is_store_path(d, file)));
	json_object_array_add(list, o);
}

static char *opencl_icd_library(const char *file)
{
	char *text = read_small_file(file, 4096, NULL);
	if (!text)
		return NULL;
	text[strcspn(text, "\r\n")] = '\0';
	return text;
}

/* Lists the ICD files of dir (names ending in suffix) into list; returns how many. */
static int scan_icds(struct doctor *d, json_object *list, const struct elf_host *h,
		     const char *dir, const char *suffix, int vulkan, struct strbuf *names)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	int count = 0;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name), sl = strlen(suffix);
		if (len > sl && strcmp(name + len - sl, suffix) == 0) {
			char *file = path_join(dir, name);
			char *lib = vulkan ? vulkan_icd_library(file) : opencl_icd_library(file);
			add_icd(d, list, h, file, lib);
			if (lib && *lib && !library_reachable(h, lib))
				problem(d, "%s names %s, which this system does not have; reinstall the "
					   "package that owns %s",
					file, lib, file);
			if (names->len)
				sb_append(names, ", ");
			sb_append(names, name);
			count++;
			free(lib);
			free(file);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return count;
}

/* One of the store's ICD files for current: listed, and a problem when its library is gone. */
static void store_icd(struct doctor *d, json_object *list, const struct elf_host *h,
		      const struct store *s, const char *current, const char *rel, const char *api)
{
	char *file = store_path(s, "%s", rel);
	if (path_exists(file)) {
		int vulkan = !strcmp(api, "Vulkan");
		char *lib = vulkan ? vulkan_icd_library(file) : opencl_icd_library(file);
		add_icd(d, list, h, file, lib);
		if (!lib || !path_exists(lib))
			problem(d, "%s names %s, which does not exist; reinstall with "
				   "`tb323fu-ctl mesa install %s`",
				file, lib ? lib : "no library", current);
		else
			line(d, "the store's %s driver: %s", api, lib);
		free(lib);
	}
	free(file);
}
static void report_icds(struct doctor *d, const struct store *s, const struct elf_host *h,
			const char *current)
{
	json_object *vk = json_object_new_array(), *cl = json_object_new_array();
	struct strbuf names = {0};
	int n = 0;
	for (size_t i = 0; i < sizeof vulkan_icd_dirs / sizeof *vulkan_icd_dirs; i++)
		n += scan_icds(d, vk, h, vulkan_icd_dirs[i], ".json", 1, &names);
	const char *xdg = getenv("XDG_DATA_DIRS");
	if (xdg && *xdg) {
		char *copy = xstrdup(xdg), *save = NULL;
		for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
			if (strcmp(p, "/usr/share") == 0 || strcmp(p, "/usr/local/share") == 0 || p[0] != '/')
				continue;
			char *dir = xasprintf("%s/vulkan/icd.d", p);
			n += scan_icds(d, vk, h, dir, ".json", 1, &names);
			free(dir);
		}
		free(copy);
	}
	line(d, "the distribution's Vulkan drivers: %s", n ? names.buf : "none");
	sb_free(&names);
	names = (struct strbuf){0};
	n = scan_icds(d, cl, h, OPENCL_VENDORS_DIR, ".icd", 0, &names);
	line(d, "the distribution's OpenCL drivers: %s", n ? names.buf : "none");
	sb_free(&names);

	if (current) {
		store_icd(d, vk, h, s, current, STORE_CURRENT_VULKAN_ICD, "Vulkan");
		store_icd(d, cl, h, s, current, STORE_CURRENT_OPENCL_ICD, "OpenCL");
	}
	json_object_object_add(d->fields, "vulkan_icds", vk);
	json_object_object_add(d->fields, "opencl_icds", cl);
}

/* The ELF check of the current tree against this system: the glibc floor and whether every
 * library still resolves (the system may have changed since the install). */
static void report_elf(struct doctor *d, const struct store *s, const struct elf_host *h,
		       const char *current)
{
	struct elf_report r = {0};
	if (current) {
		struct tb_error e = {0};
		int rc = release_check_installed(s, current, h, &r, &e);
		if (rc)
			problem(d, "Mesa %s no longer fits this system: %s", current, e.msg);
		else if (r.glibc_floor[0])
			line(d, "glibc: this system has %s; Mesa %s needs at least %s", h->glibc, current,
			     r.glibc_floor);
		if (!rc)
			line(d, "Mesa %s %s", current,
			     r.needs_ld_library_path
				     ? "needs LD_LIBRARY_PATH for libraries only its lib/ has (its env "
				       "files set it)"
				     : "finds its own libraries without LD_LIBRARY_PATH");
	} else {
		line(d, "glibc: this system has %s", h->glibc);
	}
	json_object *host = json_object_new_object();
	json_object_object_add(host, "arch", json_object_new_string(h->arch));
	json_object_object_add(host, "glibc", json_object_new_string(h->glibc));
	json_object_object_add(d->fields, "host", host);
	json_object_object_add(d->fields, "glibc_floor", json_object_new_string(r.glibc_floor));
	json_object_object_add(d->fields, "needs_ld_library_path",
			       json_object_new_boolean(r.needs_ld_library_path));
}

/* The current release's build record and what its kept signature says of it (§19). */
static void report_build_record(struct doctor *d, const struct store *s, const struct config *cfg,
				const char *current)
{
	if (!current)
		return;
	char *tree = store_version_dir(s, current);
	char *sums = store_path(s, "%s/mesa-%s/SHA256SUMS", STORE_CACHE_DIR, current);
	char *sig = store_path(s, "%s/mesa-%s/SHA256SUMS.minisig", STORE_CACHE_DIR, current);
	struct record_view v;
	record_view_read(cfg, tree, sums, sig, current, &v);
	struct strbuf text = {0};
	record_view_say(&v, current, &text);
	line(d, "%s", text.buf);
	if (v.sig == RECORD_SIG_DIFFERS)
		problem(d, "Mesa %s is not the build its signature names (the trusted comment names build record %.16s…, the tree has %s%.16s%s); install it again from its release",
			current, v.t.record_sha256, v.have ? "" : "none", v.r.sha256, v.have ? "…" : "");
	else if (*v.why && !v.have)
		problem(d, "Mesa %s: %s", current, v.why);
	json_object_object_add(d->fields, "build_record", record_view_json(&v));
	sb_free(&text);
	record_view_free(&v);
	free(tree);
	free(sums);
	free(sig);
}

/* Each line of text (a summary's "gone" sentences) a problem of its own. */
static void problem_lines(struct doctor *d, char *text)
{
	char *cursor = text, *one;
	while (cursor && (one = next_line(&cursor)))
		if (*one)
			problem(d, "%s", one);
}

/* Every application rule, and each whose pinned version is gone as a problem (§16). */
static void report_app_rules(struct doctor *d, const struct store *s)
{
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	app_rules_summary(s, 1, arr, &lines, &gone);
	json_object_object_add(d->fields, "app_rules", arr);
	if (lines.len)
		line(d, "application rules:\n%s", lines.buf);
	problem_lines(d, gone.buf);
	sb_free(&lines);
	sb_free(&gone);
}

/* The crash record's events and automatic pins, and the desktop's applications the loaders
 * will not switch (AT_SECURE) (docs/design.md §18). */
static void report_crashes(struct doctor *d, const struct store *s)
{
	json_object *crashes = json_object_new_object(), *secure = json_object_new_array();
	struct strbuf lines = {0}, progs = {0};
	crashes_summary(s, crashes, &lines);
	/* whether there is a journal to read crashes from at all: listed, not a problem of the
	 * store (a system may keep no journal) */
	struct tb_error why = {0};
	int unreadable = journal_check_readable(&why);
	json_object_object_add(crashes, "journal_readable", json_object_new_boolean(!unreadable));
	if (unreadable)
		sb_appendf(&lines, "%s\n", why.msg);
	secure_programs_summary(s, secure, &progs);
	json_object_object_add(d->fields, "crashes", crashes);
	json_object_object_add(d->fields, "not_switchable", secure);
	if (lines.len)
		line(d, "crash evidence:\n%.*s", (int)lines.len - 1, lines.buf);
	if (progs.len)
		line(d, "applications the loaders will not switch (AT_SECURE):\n%.*s", (int)progs.len - 1, progs.buf);
	sb_free(&lines);
	sb_free(&progs);
}

/* What a Flatpak start from the session gets (§17, "From the session"), and the overrides
 * that decide its OpenCL. */
static void report_flatpak_session(struct doctor *d, const struct store *s, int exported)
{
	struct strbuf said = {0};
	int ours;
	flatpak_session_summary(s, &said, &ours);
	json_object_object_add(d->fields, "flatpak_session", json_object_new_string(ours ? "store" : "runtime"));
	if (exported)
		line(d, "%s", said.buf);
	for (int user = 1; user >= 0; user--)
		if (flatpak_session_override_state(user) < 0) {
			char *p = flatpak_override_path(user);
			line(d, "%s sets OCL_ICD_VENDORS itself (not ours): a Flatpak application gets that value, whatever the session gives", p);
			free(p);
		}
	/* an installation's override reaches its own applications only (§17): the user's
	 * applications of a session switched on by root's `on` get the session's path */
	char *inst = flatpak_installation_dir(1);
	char *apps = inst ? xasprintf("%s/app", inst) : NULL;
	char *conf = store_path(s, STORE_ENV_CONF);
	char *env = read_small_file_nofollow(conf, 64 * 1024, NULL);
	int on = env && *env;
	free(env);
	free(conf);
	if (apps && on && is_directory(apps) && flatpak_session_override_state(1) == 0)
		problem(d, "the applications of your Flatpak installation (%s) get the session's OCL_ICD_VENDORS, a path of this system, and no OpenCL inside (tb323fu-ctl mesa on gave the override to the installations it may write): flatpak override --user --unset-env=OCL_ICD_VENDORS",
			inst);
	free(apps);
	free(inst);
	sb_free(&said);
}

/* The store's Flatpak exports, and each whose version is gone as a problem (§17). */
static void report_flatpak(struct doctor *d, const struct store *s)
{
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	flatpak_summary(s, arr, &lines, &gone);
	json_object_object_add(d->fields, "flatpak_exports", arr);
	if (lines.len)
		line(d, "Flatpak extensions of this store (app set, or tb323fu-mesa run flatpak run, gives them to an application):\n%s", lines.buf);
	problem_lines(d, gone.buf);
	int exported = lines.len > 0;
	sb_free(&lines);
	sb_free(&gone);
	report_flatpak_session(d, s, exported);
}

static int cmd_doctor(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct tb_error e = {0};
	struct elf_host h;
	if (elf_host_detect(&h, &e))
		return outcome_fail(o, &e);
	if (!o->fields)
		o->fields = json_object_new_object();
	struct doctor d = {.problems = json_object_new_array(), .fields = o->fields,
			   .store_root = s->root};
	char *current = NULL;
	report_store(&d, s, &current);
	report_system(&d, s);
	report_verify(&d, s, current);
	report_environment(&d);
	report_loader(&d, &h, "libvulkan.so.1", "Vulkan loader", "libvulkan1", "vulkan_loader");
	report_loader(&d, &h, "libOpenCL.so.1", "OpenCL ICD loader", "ocl-icd-libopencl1",
		      "opencl_loader");
	report_icds(&d, s, &h, current);
	report_elf(&d, s, &h, current);
	report_build_record(&d, s, &c->cfg, current); /* §19 */
	report_app_rules(&d, s);
	report_flatpak(&d, s);
	report_crashes(&d, s);
	if (d.n_problems)
		line(&d, "%d problem%s found", d.n_problems, d.n_problems == 1 ? "" : "s");
	else
		line(&d, "no problems found");
	json_object_object_add(o->fields, "problems", d.problems);
	outcome_say(o, "%s", d.lines.buf);
	/* A problem found is a failure (exit 1) for scripts; the findings are still the report. */
	o->report = 1;
	o->reason = d.n_problems ? "failed" : NULL;
	sb_free(&d.lines);
	free(current);
	elf_host_free(&h);
	return o->code = d.n_problems ? TB_EFAIL : TB_OK;
}

const struct cli_command doctor_command = {
	.name = "doctor",
	.args = "",
	.summary = "explain what programs get now and list every problem (exit 1 when there is one)",
	.example = "tb323fu-ctl mesa doctor",
	.open = OPEN_READER,
	.run = cmd_doctor,
};
