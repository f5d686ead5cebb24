/* Attributing crash evidence to a store version. */
#include "crash/attrib.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "crash/fields.h"
#include "apprules/rules.h"
#include "store/manifest.h"
#include "common/envvars.h"
#include "common/storelayout.h"
#include "common/version_name.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t mtime_usec(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000u + (uint64_t)st.st_mtim.tv_nsec / 1000u;
}

static void add_to(char ***names, size_t *n, const char *lib)
{
	if (!lib || !*lib)
		return;
	const char *base = strrchr(lib, '/');
	base = base ? base + 1 : lib;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*names)[i], base))
			return;
	*names = xrealloc(*names, (*n + 1) * sizeof **names);
	(*names)[(*n)++] = xstrdup(base);
}

static void add_name(struct crash_ctx *x, const char *lib)
{
	add_to(&x->driver_names, &x->n_driver_names, lib);
}

/* The names of the libraries in a version's GL folder rel (links too: the kernel names the
 * file a link leads to, which is there as well). */
static void add_gl_dir(struct crash_ctx *x, const char *version, const char *rel)
{
	if (!rel || !*rel)
		return;
	char *dir = store_path(x->s, STORE_VERSIONS "/%s/%s", version, rel);
	DIR *dh = opendir(dir);
	struct dirent *de;
	while (dh && (de = readdir(dh)))
		if (strstr(de->d_name, ".so"))
			add_to(&x->gl_names, &x->n_gl_names, de->d_name);
	if (dh)
		closedir(dh);
	free(dir);
}

/* Whether env.conf gives the session the store's GL. */
static int session_has_gl(const char *conf)
{
	char *text = read_small_file(conf, 64 * 1024, NULL);
	int yes = text && (!strncmp(text, ENV_EGL_VENDOR_FILES "=", strlen(ENV_EGL_VENDOR_FILES "=")) ||
			   strstr(text, "\n" ENV_EGL_VENDOR_FILES "="));
	free(text);
	return yes;
}

void crash_ctx_open(struct crash_ctx *x, const struct store *s)
{
	memset(x, 0, sizeof *x);
	x->s = s;
	x->current = store_current(s);
	char *conf = store_path(s, "%s", STORE_ENV_CONF), *cur = store_path(s, "%s", STORE_CURRENT);
	struct stat st;
	x->session_on = !stat(conf, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
	x->session_gl = x->session_on && session_has_gl(conf);
	uint64_t a = mtime_usec(conf), b = mtime_usec(cur);
	x->switched_usec = a > b ? a : b;
	free(conf);
	free(cur);
	size_t n = 0;
	char **versions = store_versions(s, &n);
	for (size_t i = 0; i < n; i++) {
		struct manifest m;
		struct tb_error e = {0};
		if (store_load_manifest(s, versions[i], &m, &e))
			continue;
		add_name(x, m.vulkan_lib);
		add_name(x, m.opencl_lib);
		if (m.has_gl) {
			add_gl_dir(x, versions[i], m.gl_lib_dir);
			add_gl_dir(x, versions[i], m.gl_drivers_dir);
			add_gl_dir(x, versions[i], m.gbm_backends_dir);
		}
		manifest_free(&m);
	}
	store_free_list(versions, n);
	x->apps = xcalloc(1, sizeof *x->apps);
}

static const struct desktop_programs *apps_of(const struct crash_ctx *x)
{
	if (!x->apps->scanned) {
		struct app_scope sc;
		app_scope_system(&sc, x->s);
		desktop_programs_scan(&sc, &x->apps->d);
		app_scope_free(&sc);
		x->apps->scanned = 1;
	}
	return &x->apps->d;
}

void crash_ctx_close(struct crash_ctx *x)
{
	free(x->current);
	for (size_t i = 0; i < x->n_driver_names; i++)
		free(x->driver_names[i]);
	free(x->driver_names);
	for (size_t i = 0; i < x->n_gl_names; i++)
		free(x->gl_names[i]);
	free(x->gl_names);
	if (x->apps)
		desktop_programs_free(&x->apps->d);
	free(x->apps);
}

static void copy_field(char *out, size_t n, const char *v, size_t len)
{
	size_t k = len < n - 1 ? len : n - 1;
	if (v)
		memcpy(out, v, k);
	out[v ? k : 0] = '\0';
	/* a NUL inside a field ends it: what follows is not shown */
}

/* The session's version at the time of the event: current, when the session is on and
 * neither env.conf nor current changed after the event. */
static int by_session(const struct crash_ctx *x, struct crash_event *ev)
{
	if (!x->session_on || !x->current || !x->switched_usec || x->switched_usec > ev->usec)
		return 0;
	snprintf(ev->version, sizeof ev->version, "%s", x->current);
	ev->how = "session";
	return 1;
}

/* The version an environment value selects: icd/versions/V/… or versions/V/…; current's
 * files (icd/turnip.json, icd/opencl, current/…) as the session rule says. */
static int by_value(const struct crash_ctx *x, const char *value, struct crash_event *ev)
{
	const char *root = x->s->root;
	size_t rl = strlen(root);
	for (const char *p = value; *p;) {
		size_t n = strcspn(p, ":");
		if (n > rl && !memcmp(p, root, rl) && p[rl] == '/') {
			const char *rest = p + rl + 1;
			size_t restn = n - rl - 1;
			const char *pre[] = {STORE_ICD_VERSIONS "/", STORE_VERSIONS "/"};
			for (size_t i = 0; i < 2; i++) {
				size_t k = strlen(pre[i]);
				if (restn > k && !memcmp(rest, pre[i], k)) {
					const char *v = rest + k;
					size_t vl = strcspn(v, "/:");
					char name[80];
					if (vl && vl < sizeof name) {
						memcpy(name, v, vl);
						name[vl] = '\0';
						if (version_name_ok(name) && store_has_version(x->s, name)) {
							snprintf(ev->version, sizeof ev->version, "%s", name);
							ev->how = "environment";
							return 1;
						}
					}
					return -1;
				}
			}
			/* through current: which version it was is the session's question */
			if (x->current && x->switched_usec && x->switched_usec <= ev->usec) {
				snprintf(ev->version, sizeof ev->version, "%s", x->current);
				ev->how = "environment";
				return 1;
			}
			return -1;
		}
		p += n;
		p += *p == ':';
	}
	return 0;
}

static enum crash_verdict coredump(const struct crash_ctx *x, const struct journal_entry *je,
				   struct crash_event *ev)
{
	ev->source = "coredump";
	crash_signal_name(je->signal, ev->kind, sizeof ev->kind);
	copy_field(ev->exe, sizeof ev->exe, je->exe, je->exe_len);
	copy_field(ev->comm, sizeof ev->comm, je->comm, je->comm_len);
	ev->pid = je->pid;
	char prefix[4200];
	snprintf(prefix, sizeof prefix, "%s/" STORE_VERSIONS "/", x->s->root);
	int other = 0;
	if (je->maps && crash_maps_version(je->maps, je->maps_len, prefix, ev->version, sizeof ev->version, &other)) {
		ev->how = "maps";
		return CRASH_ATTRIBUTED;
	}
	if (other)
		return CRASH_NOT_OURS; /* on a driver of the system's, whatever its variables said */
	static const char *vars[] = {ENV_VK_DRIVER_FILES, ENV_VK_ICD_FILENAMES, ENV_OCL_ICD_VENDORS,
				     ENV_EGL_VENDOR_FILES, ENV_LIBGL_DRIVERS_PATH, ENV_GBM_BACKENDS_PATH,
				     ENV_LD_LIBRARY_PATH};
	int seen = 0;
	for (size_t i = 0; je->environ && i < sizeof vars / sizeof *vars; i++) {
		char value[4096];
		if (!crash_environ_get(je->environ, je->environ_len, vars[i], value, sizeof value))
			continue;
		int r = by_value(x, value, ev);
		if (r > 0)
			return CRASH_ATTRIBUTED;
		seen |= r < 0;
	}
	return seen ? CRASH_UNATTRIBUTED : CRASH_NOT_OURS;
}

static int in_names(char *const *names, size_t n, const char *object)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], object))
			return 1;
	return 0;
}

/* A name of the store's drivers; of its GL only while the session gets the store's GL. */
static int store_driver_name(const struct crash_ctx *x, const char *object)
{
	return in_names(x->driver_names, x->n_driver_names, object) ||
	       (x->session_gl && in_names(x->gl_names, x->n_gl_names, object));
}

static enum crash_verdict kernel(const struct crash_ctx *x, const struct journal_entry *je,
				 struct crash_event *ev)
{
	ev->source = "kernel";
	struct crash_kline k;
	if (!je->message || !crash_kernel_line(je->message, je->message_len, &k))
		return CRASH_NOT_OURS;
	snprintf(ev->comm, sizeof ev->comm, "%s", k.comm);
	snprintf(ev->object, sizeof ev->object, "%s", k.object);
	ev->pid = k.pid;
	switch (k.kind) {
	case KLINE_SEGFAULT:
	case KLINE_EXCEPTION:
		snprintf(ev->kind, sizeof ev->kind, "%s", k.kind == KLINE_SEGFAULT ? "segfault" : "unhandled-exception");
		if (!store_driver_name(x, k.object))
			return CRASH_NOT_OURS;
		break;
	case KLINE_GPU_HANG:
		snprintf(ev->kind, sizeof ev->kind, "gpu-hang");
		if (k.cmdline[0] == '/')
			snprintf(ev->exe, sizeof ev->exe, "%.*s", (int)strcspn(k.cmdline, " "), k.cmdline);
		break;
	default:
		snprintf(ev->kind, sizeof ev->kind, "gpu-fault");
		break;
	}
	return by_session(x, ev) ? CRASH_ATTRIBUTED : CRASH_UNATTRIBUTED;
}

/* The application: the cgroup's app unit, else the one entry whose program it ran. */
static void name_app(const struct crash_ctx *x, const struct journal_entry *je, struct crash_event *ev)
{
	if (je->cgroup && crash_cgroup_app(je->cgroup, je->cgroup_len, ev->app, sizeof ev->app) &&
	    app_id_ok(ev->app))
		;
	else {
		ev->app[0] = '\0';
		const struct desktop_program *p = desktop_program_of(apps_of(x), ev->exe[0] ? ev->exe : NULL, ev->comm);
		if (p)
			snprintf(ev->app, sizeof ev->app, "%s", p->id);
	}
	const char *base = strrchr(ev->exe, '/');
	base = base ? base + 1 : ev->exe[0] ? ev->exe : ev->comm;
	/* the kernel keeps 15 bytes of a task's name: the key is as short for both sources */
	snprintf(ev->key, sizeof ev->key, "%s", ev->app[0] ? ev->app : "");
	if (!ev->app[0])
		snprintf(ev->key, sizeof ev->key, "%.15s", base);
}

enum crash_verdict crash_attribute(const struct crash_ctx *x, const struct journal_entry *je,
				   struct crash_event *ev)
{
	memset(ev, 0, sizeof *ev);
	snprintf(ev->cursor, sizeof ev->cursor, "%s", je->cursor);
	ev->usec = je->usec;
	ev->how = "";
	ev->uid = je->coredump ? je->uid : -1;
	ev->verdict = je->coredump ? coredump(x, je, ev) : je->kernel ? kernel(x, je, ev) : CRASH_NOT_OURS;
	if (ev->verdict != CRASH_NOT_OURS)
		name_app(x, je, ev);
	if (ev->verdict == CRASH_ATTRIBUTED && !version_name_ok(ev->version))
		ev->verdict = CRASH_UNATTRIBUTED;
	return ev->verdict;
}

/* What a read gathers: the events, and the coredumps of programs not ours (their pids), whose
 * kernel lines go with them. */
struct gather {
	const struct crash_ctx *x;
	struct crash_events *out;
	struct crash_event *foreign;
	size_t n_foreign;
};

static int gather_one(const struct journal_entry *je, void *ud)
{
	struct gather *g = ud;
	g->out->read++;
	g->out->forged += je->forged;
	struct crash_event ev;
	enum crash_verdict v = crash_attribute(g->x, je, &ev);
	if (v == CRASH_NOT_OURS) {
		if (je->coredump && je->pid && g->n_foreign < CRASH_READ_MAX) {
			g->foreign = xrealloc(g->foreign, (g->n_foreign + 1) * sizeof *g->foreign);
			g->foreign[g->n_foreign++] = ev;
		}
		return 0;
	}
	if (g->out->n < CRASH_READ_MAX) {
		g->out->v = xrealloc(g->out->v, (g->out->n + 1) * sizeof *g->out->v);
		g->out->v[g->out->n++] = ev;
	}
	return 0;
}

/* Within ten minutes, the same pid and the kernel's 15 bytes of its name. */
static int same_crash(const struct crash_event *k, const struct crash_event *c)
{
	return !strcmp(c->source, "coredump") && c->pid == k->pid && !strncmp(c->comm, k->comm, 15) &&
	       c->usec + 600000000u >= k->usec && k->usec + 600000000u >= c->usec;
}

static int duplicate(const struct gather *g, const struct crash_event *k)
{
	if (strcmp(k->source, "kernel") || !k->pid)
		return 0;
	for (size_t j = 0; j < g->out->n; j++)
		if (same_crash(k, &g->out->v[j]))
			return 1;
	for (size_t j = 0; j < g->n_foreign; j++)
		if (same_crash(k, &g->foreign[j]))
			return 1;
	return 0;
}

int crash_collect(const struct crash_ctx *x, const char *cursor, uint64_t since_usec,
		  struct crash_events *out, char *last, struct tb_error *e)
{
	memset(out, 0, sizeof *out);
	struct gather g = {.x = x, .out = out};
	int rc = journal_read(cursor, since_usec, gather_one, &g, last, e);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++)
		if (!duplicate(&g, &out->v[i]))
			out->v[k++] = out->v[i];
	out->n = k;
	free(g.foreign);
	return rc;
}

void crash_events_free(struct crash_events *ev)
{
	free(ev->v);
	memset(ev, 0, sizeof *ev);
}
