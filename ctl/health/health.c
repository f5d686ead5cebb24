/* What doctor finds (ctl/health/health.h). */
#include "lifecycle/session_gl.h"
#include "store/layout.h"
#include "health/health.h"
#include "lifecycle/lifecycle.h"
#include "lifecycle/login_reach.h"
#include "flatpak/runtime.h"
#include "flatpak/session.h"
#include "release/release.h"
#include "gputest/side.h"
#include "gputest/smoke_run.h"
#include "store/state.h"
#include "common/envvars.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"

#include <dirent.h>
#include <glob.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Where the Vulkan loader looks for ICD files when no variable overrides it (besides
 * $XDG_DATA_DIRS, read below). */
static const char *const vulkan_icd_dirs[] = {
	"/etc/xdg/vulkan/icd.d",
	"/etc/vulkan/icd.d",
	"/usr/local/share/vulkan/icd.d",
	"/usr/share/vulkan/icd.d",
};
#define OPENCL_VENDORS_DIR "/etc/OpenCL/vendors"

static struct health_finding *add_finding(struct health_report *r, struct health_findings *to,
					  int problem)
{
	to->v = xrealloc(to->v, (to->n + 1) * sizeof *to->v);
	struct health_finding *f = &to->v[to->n++];
	*f = (struct health_finding){.problem = problem};
	r->n_problems += problem;
	return f;
}

static void found(struct health_report *r, int problem, const char *fmt, va_list ap)
{
	add_finding(r, &r->found, problem)->text = xvasprintf(fmt, ap);
}

static void line(struct health_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct health_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	found(r, 0, fmt, ap);
	va_end(ap);
}

static void problem(struct health_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct health_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	found(r, 1, fmt, ap);
	va_end(ap);
}

static int is_store_path(const struct health_report *r, const char *path)
{
	size_t n = strlen(r->store);
	return path && strncmp(path, r->store, n) == 0 && (path[n] == '/' || path[n] == '\0');
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

/* The store, its switch, the trial, the last smoke test and the marks; *current is left NULL
 * when there is nothing of it to check further. */
static void check_store(struct health_report *r, const struct store *s, char **current)
{
	struct lc_view v;
	lc_read(s, &v);
	struct state st = v.st;
	*current = store_current(s);
	char *previous = store_previous(s);
	r->current = xstrdup(*current ? *current : "");
	r->previous = xstrdup(previous ? previous : "");
	r->enabled = st.enabled;
	r->trial = xstrdup(st.trial ? st.trial : "");

	if (v.current_gone || v.foreign) {
		struct strbuf sb = {0};
		lc_gone_advice(s, &v, &sb);
		problem(r, "%s", sb.buf);
		sb_free(&sb);
		free(*current); /* nothing of it to check further */
		*current = NULL;
	}
	if (v.planted)
		problem(r, "%s: a symbolic link stands where the store keeps its own file; the next change (e.g. `tb323fu-ctl mesa %s`) replaces it, leaving what it points at alone",
			v.planted, st.enabled ? "on" : "off");
	if (v.current_gone || v.foreign)
		; /* said above */
	else if (*current)
		line(r, "store %s: Mesa %s is current%s%s%s", s->root, *current,
		     previous ? " (previous " : "", previous ? previous : "", previous ? ")" : "");
	else
		line(r, "store %s: no Mesa version installed (tb323fu-ctl mesa update)", s->root);

	if (st.enabled && (v.current_gone || v.foreign))
		; /* said above */
	else if (st.enabled && *current && login_reach(s, &(const char *){NULL}) != LOGIN_READS)
		line(r, "session: switched on (Mesa %s), but no login reads this store: see the problem below", *current);
	else if (st.enabled && *current)
		line(r, "session: switched on; applications of the next login get Mesa %s", *current);
	else if (st.enabled)
		problem(r, "the session is switched on but no version is installed; run "
			   "`tb323fu-ctl mesa update` or `tb323fu-ctl mesa off`");
	else
		line(r, "session: switched off; applications get the distribution's Mesa unless "
			"started with `tb323fu-mesa run`");
	if (*current) { /* what GL programs get (§6) */
		struct session_gl_view g;
		struct strbuf sb = {0};
		session_gl_read(s, &v, &g);
		session_gl_say(&g, &v, login_reach(s, &(const char *){NULL}) == LOGIN_READS, &sb);
		line(r, "%s", sb.buf);
		sb_free(&sb);
	}
	if (st.trial)
		line(r, "Mesa %s is on trial (%d of %d starts); confirm it with `tb323fu-ctl mesa keep`",
		     st.trial, st.tries, st.max);
	/* a failed smoke test switches nothing and a rollback keeps the switch: "switched off"
	 * only when it was */
	const char *why = st.failed_reason ? st.failed_reason : "no reason recorded";
	if (st.failed && *current && strcmp(st.failed, *current))
		problem(r, "Mesa %s failed (%s); it is not in use, Mesa %s is current; try another version or report it",
			st.failed, why, *current);
	else if (st.failed && !st.enabled)
		problem(r, "Mesa %s failed (%s) and was switched off; try another version or report it",
			st.failed, why);
	else if (st.failed)
		problem(r, "Mesa %s failed (%s) and is still current; roll back with `tb323fu-ctl mesa rollback` or report it",
			st.failed, why);

	if (st.enabled) {
		/* The session files read env.conf: it must carry the variables while on. */
		char *conf = store_path(s, STORE_ENV_CONF);
		size_t len = 0;
		char *text = read_small_file(conf, 64 * 1024, &len);
		if (!text || len == 0)
			problem(r, "the session is switched on but %s is empty; run `tb323fu-ctl mesa on` "
				   "again", conf);
		free(text);
		free(conf);
	}
	r->smoke = "none";
	if (*current) {
		r->smoke = smoke_last_result(s, *current);
		if (strcmp(r->smoke, "fail") == 0)
			problem(r, "the last smoke test of Mesa %s failed; see `tb323fu-ctl mesa smoke`",
				*current);
		else
			line(r, "last smoke test of Mesa %s: %s", *current, r->smoke);
	}
	/* what the store remembers: a refused release is a problem of the release source, a
	 * version rolled back from or failed is the store's memory (docs/design.md §12) */
	marks_load(s, &r->marks);
	for (size_t i = 0; i < r->marks.n; i++)
		add_finding(r, &r->found, r->marks.v[i].refused)->mark = &r->marks.v[i];
	free(previous);
	lc_view_free(&v);
}

#define BOOT_TICK_WANTS TB_SYSCONFDIR "/systemd/system/*.wants/tb323fu-mesa-boot-tick*.service"

/* While the session is switched on, logins must read this store's env.conf and each boot
 * must count a trial's starts: the session files and the boot-tick unit make the promise of
 * `on` real, so their absence is a problem. */
static void check_system(struct health_report *r, const struct store *s)
{
	struct state st;
	state_load(s, &st);
	r->boot_tick = -1;
	if (st.enabled) {
		const char *found;
		login_reach(s, &found);
		struct strbuf no_login = {0};
		if (login_reach_say(s, &no_login)) /* on's and status's sentence */
			problem(r, "it is switched on, but %s", no_login.buf);
		else
			line(r, "session files: %s reads this store's env.conf", found);
		sb_free(&no_login);
	}
	if (st.enabled && st.trial) {
		glob_t g;
		int enabled = glob(BOOT_TICK_WANTS, 0, NULL, &g) == 0 && g.gl_pathc > 0;
		if (enabled)
			line(r, "boot-tick: enabled (%s); each boot counts a start of Mesa %s on trial",
			     g.gl_pathv[0], st.trial);
		else
			problem(r, "the boot-tick unit is not enabled, so the starts of Mesa %s on trial "
				   "are not counted and a broken build is never switched off; run "
				   "`sudo systemctl enable tb323fu-mesa-boot-tick.service`",
				st.trial);
		globfree(&g);
		r->boot_tick = enabled;
	}
	state_free(&st);
}

/* verify on current and on previous (what rollback goes back to): a damaged file is a
 * problem whatever else is right. */
static void check_verify(struct health_report *r, const struct store *s, const char *current)
{
	char *previous = store_previous(s);
	const char *which[] = {current, previous};
	for (int i = 0; i < 2; i++) {
		if (!which[i] || !store_has_version(s, which[i]))
			continue;
		struct tb_error e = {0};
		const char *role = i ? "the previous version" : "the current version";
		if (release_verify_installed(s, which[i], &e))
			problem(r, "%s (%s)%s", e.msg, role,
				i ? "; `tb323fu-ctl mesa rollback` refuses to go back to it until then" : "");
		else
			line(r, "Mesa %s is intact (%s): every file matches its MANIFEST", which[i], role);
	}
	free(previous);
}

/* What this shell's variables select: the variables the control tool itself was started
 * with are the ones the user's applications get. */
static void check_environment(struct health_report *r)
{
	int any = 0;
	r->env = xcalloc(envfile_vars_count ? envfile_vars_count : 1, sizeof *r->env);
	for (size_t i = 0; i < envfile_vars_count; i++) {
		const char *v = getenv(envfile_vars[i]);
		if (!v || !*v)
			continue;
		r->env[r->n_env++] = (struct health_var){envfile_vars[i], v};
		if (strcmp(envfile_vars[i], ENV_LD_LIBRARY_PATH) == 0 && !strstr(v, r->store))
			continue; /* a path list of its own, not a driver selection */
		any = 1;
		line(r, "this shell: %s=%s%s", envfile_vars[i], v,
		     is_store_path(r, v) ? " (the store's)" : "");
		if ((strcmp(envfile_vars[i], ENV_VK_DRIVER_FILES) == 0 ||
		     strcmp(envfile_vars[i], ENV_VK_ICD_FILENAMES) == 0) &&
		    !strchr(v, ':') && !path_exists(v))
			problem(r, "%s names %s, which does not exist: Vulkan applications of this shell "
				   "find no driver; log in again or unset it",
				envfile_vars[i], v);
		if (strcmp(envfile_vars[i], ENV_OCL_ICD_VENDORS) == 0 && !path_exists(v))
			problem(r, "OCL_ICD_VENDORS names %s, which does not exist: OpenCL applications "
				   "of this shell find no platform; log in again or unset it", v);
	}
	if (!any)
		line(r, "this shell selects no driver: its applications get the distribution's Mesa");
}

static void check_loader(struct health_report *r, struct health_loader *l, const struct elf_host *h,
			 const char *soname, const char *what, const char *package)
{
	char *path = elf_find_system_library(h, soname);
	l->path = xstrdup(path ? path : "");
	if (path) {
		l->version = library_version(path);
		line(r, "%s: %s%s%s%s", what, path, *l->version ? " (" : "", l->version,
		     *l->version ? ")" : "");
	} else {
		l->version = xstrdup("");
		problem(r, "the %s %s is not installed; install %s", what, soname, package);
	}
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

static void add_icd(struct health_report *r, struct health_icds *list, const struct elf_host *h,
		    const char *file, const char *lib)
{
	list->v = xrealloc(list->v, (list->n + 1) * sizeof *list->v);
	list->v[list->n++] = (struct health_icd){
		.file = xstrdup(file),
		.library_path = xstrdup(lib ? lib : ""),
		.found = lib && *lib && library_reachable(h, lib),
		.store = is_store_path(r, file),
	};
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
static int scan_icds(struct health_report *r, struct health_icds *list, const struct elf_host *h,
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
			add_icd(r, list, h, file, lib);
			if (lib && *lib && !library_reachable(h, lib))
				problem(r, "%s names %s, which this system does not have; reinstall the "
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
static void store_icd(struct health_report *r, struct health_icds *list, const struct elf_host *h,
		      const struct store *s, const char *current, const char *rel, const char *api)
{
	char *file = store_path(s, "%s", rel);
	if (path_exists(file)) {
		int vulkan = !strcmp(api, "Vulkan");
		char *lib = vulkan ? vulkan_icd_library(file) : opencl_icd_library(file);
		add_icd(r, list, h, file, lib);
		if (!lib || !path_exists(lib))
			problem(r, "%s names %s, which does not exist; reinstall with "
				   "`tb323fu-ctl mesa install %s`",
				file, lib ? lib : "no library", current);
		else
			line(r, "the store's %s driver: %s", api, lib);
		free(lib);
	}
	free(file);
}

static void check_icds(struct health_report *r, const struct store *s, const struct elf_host *h,
		       const char *current)
{
	struct health_icds *vk = &r->vulkan_icds, *cl = &r->opencl_icds;
	struct strbuf names = {0};
	int n = 0;
	for (size_t i = 0; i < sizeof vulkan_icd_dirs / sizeof *vulkan_icd_dirs; i++)
		n += scan_icds(r, vk, h, vulkan_icd_dirs[i], ".json", 1, &names);
	const char *xdg = getenv("XDG_DATA_DIRS");
	if (xdg && *xdg) {
		char *copy = xstrdup(xdg), *save = NULL;
		for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
			if (strcmp(p, "/usr/share") == 0 || strcmp(p, "/usr/local/share") == 0 || p[0] != '/')
				continue;
			char *dir = xasprintf("%s/vulkan/icd.d", p);
			n += scan_icds(r, vk, h, dir, ".json", 1, &names);
			free(dir);
		}
		free(copy);
	}
	line(r, "the distribution's Vulkan drivers: %s", n ? names.buf : "none");
	sb_free(&names);
	names = (struct strbuf){0};
	n = scan_icds(r, cl, h, OPENCL_VENDORS_DIR, ".icd", 0, &names);
	line(r, "the distribution's OpenCL drivers: %s", n ? names.buf : "none");
	sb_free(&names);

	if (current) {
		store_icd(r, vk, h, s, current, STORE_CURRENT_VULKAN_ICD, "Vulkan");
		store_icd(r, cl, h, s, current, STORE_CURRENT_OPENCL_ICD, "OpenCL");
	}
}

/* The ELF check of the current tree against this system: the glibc floor and whether every
 * library still resolves (the system may have changed since the install). */
static void check_elf(struct health_report *r, const struct store *s, const struct elf_host *h,
		      const char *current)
{
	snprintf(r->arch, sizeof r->arch, "%s", h->arch);
	snprintf(r->glibc, sizeof r->glibc, "%s", h->glibc);
	if (!current) {
		line(r, "glibc: this system has %s", h->glibc);
		return;
	}
	struct tb_error e = {0};
	int rc = release_check_installed(s, current, h, &r->elf, &e);
	if (rc)
		problem(r, "Mesa %s no longer fits this system: %s", current, e.msg);
	else if (r->elf.glibc_floor[0])
		line(r, "glibc: this system has %s; Mesa %s needs at least %s", h->glibc, current,
		     r->elf.glibc_floor);
	if (!rc)
		line(r, "Mesa %s %s", current,
		     r->elf.needs_ld_library_path
			     ? "needs LD_LIBRARY_PATH for libraries only its lib/ has (its env "
			       "files set it)"
			     : "finds its own libraries without LD_LIBRARY_PATH");
}

/* The current release's build record and what its kept signature says of it (§19). */
static void check_build_record(struct health_report *r, const struct store *s,
			       const struct config *cfg, const char *current)
{
	if (!current)
		return;
	char *tree = store_version_dir(s, current);
	/* cache/mesa-<v>/ reached as the layout says: nothing read through a link planted there */
	char *sums_rel = xasprintf("%s/mesa-%s/SHA256SUMS", STORE_CACHE_DIR, current);
	char *sig_rel = xasprintf("%s/mesa-%s/SHA256SUMS.minisig", STORE_CACHE_DIR, current);
	struct tb_error refused = {0};
	char *sums = store_reach_file(s, sums_rel, 0, &refused);
	char *sig = store_reach_file(s, sig_rel, 0, &refused);
	free(sums_rel);
	free(sig_rel);
	struct record_view *v = &r->record;
	record_view_read(cfg, tree, sums, sig, current, v);
	r->have_record = 1;
	struct strbuf text = {0};
	record_view_say(v, current, &text);
	line(r, "%s", text.buf);
	if (v->sig == RECORD_SIG_DIFFERS)
		problem(r, "Mesa %s is not the build its signature names (the trusted comment names build record %.16s…, the tree has %s%.16s%s); install it again from its release",
			current, v->t.record_sha256, v->have ? "" : "none", v->r.sha256, v->have ? "…" : "");
	else if (*v->why && !v->have)
		problem(r, "Mesa %s: %s", current, v->why);
	sb_free(&text);
	free(tree);
	free(sums);
	free(sig);
}

/* Overrides that decide what OpenCL a Flatpak application gets, whatever the session gives:
 * someone else's OCL_ICD_VENDORS, and the user's installation without ours while root's `on`
 * gave the session's path. */
static void check_flatpak_overrides(struct health_report *r, const struct store *s)
{
	for (int user = 1; user >= 0; user--)
		if (flatpak_session_override_state(user) < 0) {
			char *p = flatpak_override_path(user);
			add_finding(r, &r->flatpak, 0)->text = xasprintf("%s sets OCL_ICD_VENDORS itself (not ours): a Flatpak application gets that value, whatever the session gives", p);
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
		add_finding(r, &r->flatpak, 1)->text = xasprintf("the applications of your Flatpak installation (%s) get the session's OCL_ICD_VENDORS (and with the session's GL its LIBGL_DRIVERS_PATH and GBM_BACKENDS_PATH), paths of this system, and no OpenCL (nor GL) inside (tb323fu-ctl mesa on gave the override to the installations it may write): flatpak override --user --unset-env=OCL_ICD_VENDORS --unset-env=LIBGL_DRIVERS_PATH --unset-env=GBM_BACKENDS_PATH",
			inst);
	free(apps);
	free(inst);
}

int health_check(const struct store *s, const struct config *cfg, struct health_report *r,
		 struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	struct elf_host h;
	int rc = elf_host_detect(&h, e);
	if (rc)
		return rc;
	r->store = s->root;
	char *current = NULL;
	check_store(r, s, &current);
	check_system(r, s);
	check_verify(r, s, current);
	check_environment(r);
	check_loader(r, &r->vulkan_loader, &h, "libvulkan.so.1", "Vulkan loader", "libvulkan1");
	check_loader(r, &r->opencl_loader, &h, "libOpenCL.so.1", "OpenCL ICD loader",
		     "ocl-icd-libopencl1");
	check_icds(r, s, &h, current);
	check_elf(r, s, &h, current);
	check_build_record(r, s, cfg, current); /* §19 */
	check_flatpak_overrides(r, s);
	free(current);
	elf_host_free(&h);
	return TB_OK;
}

static void icds_free(struct health_icds *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].file);
		free(l->v[i].library_path);
	}
	free(l->v);
}

static void findings_free(struct health_findings *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
}

void health_free(struct health_report *r)
{
	findings_free(&r->found);
	findings_free(&r->flatpak);
	free(r->current);
	free(r->previous);
	free(r->trial);
	marks_free(&r->marks);
	free(r->env);
	free(r->vulkan_loader.path);
	free(r->vulkan_loader.version);
	free(r->opencl_loader.path);
	free(r->opencl_loader.version);
	icds_free(&r->vulkan_icds);
	icds_free(&r->opencl_icds);
	if (r->have_record)
		record_view_free(&r->record);
	memset(r, 0, sizeof *r);
}
