/* The dEQP modules, and their case lists, from the binary's own list run mode or from a file:
 * streamed a line at a time, never held beyond their bounds. */
#include "gputest/deqp_cases.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/alloc.h"
#include "base/fs.h"
#include "base/programs.h"
#include "base/text.h"
#include "gputest/child.h"
#include "gputest/qpa.h"
#include "gputest/smoke_run.h"

/* The GL modules (build-recipes/deqp-gl: the GL ES ones for the surfaceless target, dEQP-EGL
 * for nullws) run on Mesa's surfaceless display, without a window: every context draws into a
 * pbuffer of one configuration, as Mesa's CI runs them. */
#define GL_OPTIONS {"--deqp-surface-type=pbuffer", "--deqp-gl-config-name=rgba8888d24s8ms0", \
		    "--deqp-surface-width=256", "--deqp-surface-height=256", NULL}
/* They take EGL's default display (eglGetDisplay(NULL)), which is Mesa's surfaceless platform
 * only when EGL_PLATFORM says so: without it Mesa tries X11 and fails to initialize. */
#define GL_ENV {"EGL_PLATFORM=surfaceless", NULL}

const struct deqp_kind deqp_vk_kind = {
	.name = "dEQP-VK", .alias = "deqp-vk", .binary = "deqp-vk", .subdir = "",
	.recipe = "deqp-vk", .api = "Vulkan",
	.groups = "compute,synchronization,synchronization2,memory_model",
	.quick = "api.smoke,info", .example = "dEQP-VK.api.smoke.create_sampler", .options = {NULL}, .env = {NULL},
};
const struct deqp_kind deqp_gles2_kind = {
	.name = "dEQP-GLES2", .alias = "deqp-gles2", .binary = "deqp-gles2", .subdir = "gles2",
	.recipe = "deqp-gl", .api = "GL", .groups = "info,functional",
	.quick = "info,functional.prerequisite", .example = "dEQP-GLES2.info.renderer",
	.options = GL_OPTIONS, .env = GL_ENV,
};
const struct deqp_kind deqp_gles3_kind = {
	.name = "dEQP-GLES3", .alias = "deqp-gles3", .binary = "deqp-gles3", .subdir = "gles3",
	.recipe = "deqp-gl", .api = "GL", .groups = "info,functional",
	.quick = "info,functional.prerequisite", .example = "dEQP-GLES3.info.renderer",
	.options = GL_OPTIONS, .env = GL_ENV,
};
const struct deqp_kind deqp_egl_kind = {
	.name = "dEQP-EGL", .alias = "deqp-egl", .binary = "deqp-egl", .subdir = "egl",
	.recipe = "deqp-gl", .api = "GL", .groups = "info,functional", .quick = "info",
	.example = "dEQP-EGL.info.version", .options = GL_OPTIONS,
	.env = GL_ENV,
};
const struct deqp_kind *const deqp_kinds[] = {&deqp_vk_kind, &deqp_gles2_kind, &deqp_gles3_kind,
						  &deqp_egl_kind, NULL};

const struct deqp_kind *deqp_kind_find(const char *name)
{
	for (size_t i = 0; deqp_kinds[i]; i++)
		if (!strcmp(name, deqp_kinds[i]->name) || !strcmp(name, deqp_kinds[i]->alias))
			return deqp_kinds[i];
	return NULL;
}

const struct deqp_kind *deqp_kind_of_case(const char *case_name)
{
	for (size_t i = 0; deqp_kinds[i]; i++) {
		size_t n = strlen(deqp_kinds[i]->name);
		if (!strncmp(case_name, deqp_kinds[i]->name, n) && case_name[n] == '.')
			return deqp_kinds[i];
	}
	return NULL;
}

char **deqp_command(const struct deqp_kind *k, char *const prefix[], const char *deqp,
		    char *const args[], struct tb_error *e)
{
	size_t n = 0, i = 0;
	while (prefix && prefix[n])
		n++;
	while (args[i])
		i++;
	char **argv = xcalloc(n + i + 3 + DEQP_KIND_ENV_MAX + DEQP_KIND_OPTIONS_MAX, sizeof *argv);
	i = 0;
	for (size_t j = 0; j < n; j++)
		argv[i++] = xstrdup(prefix[j]);
	if (k && k->env[0]) {
		if (!(argv[i++] = find_program("env", NULL))) {
			deqp_command_free(argv);
			tb_fail(e, TB_R_PROGRAM_MISSING, "env(1) is not in PATH; install coreutils");
			return NULL;
		}
		for (size_t j = 0; k->env[j]; j++)
			argv[i++] = xstrdup(k->env[j]);
	}
	argv[i++] = xstrdup(deqp);
	for (size_t j = 0; args[j]; j++)
		argv[i++] = xstrdup(args[j]);
	for (size_t j = 0; k && k->options[j]; j++)
		argv[i++] = xstrdup(k->options[j]);
	return argv;
}

void deqp_command_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* A group path or a case name: dEQP's names are lowercase words, digits, '_', '-' and '.'
 * between them (a few groups have capitals). Nothing here reaches a shell, but names go
 * into paths of logs and onto command lines. */
static int valid_path(const char *s, size_t len)
{
	if (len == 0 || len > QPA_MAX_NAME || s[0] == '.' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (!(ch == '_' || ch == '-' || ch == '.' || (ch >= 'a' && ch <= 'z') ||
		      (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
			return 0;
		if (ch == '.' && s[i + 1] == '.')
			return 0;
	}
	return 1;
}

char *deqp_groups_invalid(const char *groups)
{
	return list_first_invalid(groups, valid_path);
}

/* ---- collecting names ---- */

struct collect {
	struct deqp_cases *c;
	GHashTable *seen;
	size_t cap, bytes;
	int full; /* a bound was reached: the lister is stopped */
};

static void collect_init(struct collect *k, struct deqp_cases *c)
{
	memset(c, 0, sizeof *c);
	*k = (struct collect){.c = c, .seen = g_hash_table_new(g_str_hash, g_str_equal)};
}

static void collect_add(struct collect *k, const char *name, size_t len)
{
	struct deqp_cases *c = k->c;
	k->bytes += len + 1;
	if (c->n >= DEQP_CASES_MAX || k->bytes > DEQP_CASES_MAX_BYTES) {
		c->cut++;
		k->full = 1;
		return;
	}
	if (g_hash_table_contains(k->seen, name)) {
		if (++c->duplicates >= DEQP_DUPLICATES_MAX)
			k->full = 1;
		return;
	}
	if (c->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 1024;
		c->names = xrealloc(c->names, k->cap * sizeof *c->names);
	}
	c->names[c->n] = xstrdup(name);
	g_hash_table_add(k->seen, c->names[c->n]);
	c->n++;
}

static void collect_end(struct collect *k)
{
	g_hash_table_destroy(k->seen);
}

/* ---- the binary's list ---- */

struct lister {
	struct collect k;
	const char *prefix; /* the group being listed, "dEQP-VK.compute." */
};

static void on_case_line(void *ctx, const char *line)
{
	struct lister *l = ctx;
	if (strncmp(line, "TEST: ", 6) || l->k.full)
		return;
	const char *name = line + 6;
	size_t len = strlen(name);
	if (!valid_path(name, len) || strncmp(name, l->prefix, strlen(l->prefix))) {
		l->k.c->cut++;
		return;
	}
	collect_add(&l->k, name, len);
}

static int lister_full(void *ctx)
{
	return ((struct lister *)ctx)->k.full;
}

static int list_group(struct lister *l, const struct deqp_kind *k, const char *deqp,
		      const char *cwd, const char *group, struct tb_error *e)
{
	char *prefix = xasprintf("%s.%s.", k->name, group);
	char *pattern = xasprintf("--deqp-case=%s.%s.*", k->name, group);
	char *args[] = {"--deqp-runmode=stdout-caselist", pattern, NULL};
	char **argv = deqp_command(k, NULL, deqp, args, e);
	struct child c;
	int rc = argv ? child_start(&c, argv, cwd, e) : TB_EFAIL;
	deqp_command_free(argv);
	size_t before = l->k.c->n + l->k.c->duplicates;
	if (!rc) {
		l->prefix = prefix;
		struct child_tail tail = {0};
		struct child_watch w = {.line = on_case_line, .err_tail = &tail, .tick = lister_full,
					.tick_ms = 100, .ctx = l,
					.deadline = now_seconds() + 10 * smoke_timeout_seconds()};
		int status = 0, end = child_supervise(&c, &w, &status);
		char how[160], last[200];
		child_describe_status(status, how, sizeof how);
		child_tail_last_line(&tail, last, sizeof last);
		size_t first = strcspn(k->groups, ",");
		if (end == CHILD_INTERRUPTED) {
			char *what = xasprintf("%s listed its cases", k->name);
			rc = tb_check_interrupted(e, what);
			free(what);
		} else if (l->k.full)
			rc = TB_OK; /* said by the caller: the rest was cut */
		else if (end == CHILD_TIMED_OUT)
			rc = tb_fail(e, TB_R_PROGRAM_FAILED, "%s did not finish listing %s.%s within %d s",
				     deqp, k->name, group, 10 * smoke_timeout_seconds());
		else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			rc = tb_fail(e, TB_R_PROGRAM_FAILED, "%s could not list %s.%s (%s%s%s); is it %s?",
				     deqp, k->name, group, how, last[0] ? ": " : "", last, k->name);
		else if (l->k.c->n + l->k.c->duplicates == before)
			rc = tb_fail(e, TB_R_PROGRAM_FAILED,
				     "%s lists no case of %s.%s: no such group (%s's groups are "
				     "the second part of a case's name, as %.*s in %s.%.*s.…)",
				     deqp, k->name, group, k->name, (int)first, k->groups, k->name,
				     (int)first, k->groups);
	}
	free(prefix);
	free(pattern);
	return rc;
}

static int read_names(struct collect *k, const struct deqp_kind *kind, FILE *f, const char *path,
		      const char *group, struct tb_error *e);

/* The group's cases from the list shipped beside the binary (caselists/GROUP.txt, which
 * build-recipes/deqp-vk writes and a CTS release carries), so listing runs nothing; TB_EFAIL
 * (nothing said) when there is none. */
static int shipped_group(struct lister *l, const struct deqp_kind *k, const char *dir,
			 const char *group, struct tb_error *e)
{
	char *path = xasprintf("%s/caselists/%s.txt", *dir ? dir : "", group);
	FILE *f = fopen_regular(path);
	int rc = TB_EFAIL;
	if (f) {
		char *prefix = xasprintf("%s.%s.", k->name, group);
		size_t before = l->k.c->n + l->k.c->duplicates;
		rc = read_names(&l->k, k, f, path, prefix, e);
		if (!rc && !l->k.full && l->k.c->n + l->k.c->duplicates == before)
			rc = tb_fail(e, TB_R_PROGRAM_FAILED, "%s names no case of %s.%s; build the suite again or name a case list with --caselist",
				     path, k->name, group);
		free(prefix);
		fclose(f);
	}
	free(path);
	return rc;
}

int deqp_cases_list(struct deqp_cases *c, const struct deqp_kind *k, const char *deqp,
		    const char *groups, struct tb_error *e)
{
	if (!groups || !*groups)
		groups = k->groups;
	else if (!strcmp(groups, "quick"))
		groups = k->quick;
	char *bad = deqp_groups_invalid(groups);
	if (bad) {
		size_t first = strcspn(k->groups, ",");
		int rc = tb_fail(e, TB_R_USAGE, "\"%.80s\" is no %s group (as %.*s or quick)", bad,
				 k->name, (int)first, k->groups);
		free(bad);
		memset(c, 0, sizeof *c);
		return rc;
	}
	char *cwd = xstrdup(deqp);
	*strrchr(cwd, '/') = '\0';
	struct lister l;
	collect_init(&l.k, c);
	int rc = TB_OK;
	for (const char *p = groups; !rc && !l.k.full;) {
		size_t len = strcspn(p, ",");
		char *group = strndup(p, len);
		rc = shipped_group(&l, k, cwd, group, e);
		if (rc == TB_EFAIL) /* none shipped: the binary lists it */
			rc = list_group(&l, k, deqp, *cwd ? cwd : "/", group, e);
		free(group);
		if (!p[len])
			break;
		p += len + 1;
	}
	collect_end(&l.k);
	free(cwd);
	if (rc)
		deqp_cases_free(c);
	return rc;
}

/* ---- a file ---- */

/* The names of the case list f (path for sentences), one a line, into k. With group (the
 * prefix "dEQP-VK.compute."), names outside it are cut, as the lister cuts them. */
static int read_names(struct collect *k, const struct deqp_kind *kind, FILE *f, const char *path,
		      const char *group, struct tb_error *e)
{
	size_t prefix = strlen(kind->name);
	int rc = TB_OK;
	char line[QPA_MAX_NAME + 3];
	size_t lineno = 0;
	while (!rc && !k->full && fgets(line, sizeof line, f)) {
		lineno++;
		size_t len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) {
			rc = tb_fail(e, TB_R_USAGE,
				     "line %zu of the case list %s is longer than %d bytes (\"%.60s...\"); "
				     "%s case names have at most %d",
				     lineno, path, QPA_MAX_NAME, line, kind->name, QPA_MAX_NAME);
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
			       line[len - 1] == '\t'))
			line[--len] = '\0';
		char *name = line;
		while (*name == ' ' || *name == '\t')
			name++, len--;
		if (!len || *name == '#')
			continue;
		if (strncmp(name, kind->name, prefix) || name[prefix] != '.' || !valid_path(name, len))
			rc = tb_fail(e, TB_R_USAGE,
				     "line %zu of the case list %s is no %s case name (\"%.60s\"): one "
				     "full name a line, as %s, no patterns",
				     lineno, path, kind->name, name, kind->example);
		else if (group && strncmp(name, group, strlen(group)))
			k->c->cut++;
		else
			collect_add(k, name, len);
	}
	if (!rc && ferror(f))
		rc = tb_fail_errno_as(e, TB_R_USAGE, "cannot read the case list %s", path);
	return rc;
}

int deqp_cases_read(struct deqp_cases *c, const struct deqp_kind *kind, const char *path,
		    struct tb_error *e)
{
	struct collect k;
	collect_init(&k, c);
	FILE *f = fopen_regular(path); /* a FIFO there is refused, never waited on */
	int rc = TB_OK;
	if (!f && (errno == ESPIPE || errno == EISDIR))
		rc = tb_fail(e, TB_R_USAGE,
			     "the case list %s is not a regular file (a FIFO, a device or a folder); "
			     "give a file of %s case names, one a line", path, kind->name);
	else if (!f)
		rc = tb_fail_errno_as(e, TB_R_USAGE, "cannot read the case list %s", path);
	else
		rc = read_names(&k, kind, f, path, NULL, e);
	if (f)
		fclose(f);
	collect_end(&k);
	if (!rc && !c->n)
		rc = tb_fail(e, TB_R_USAGE, "the case list %s names no test case", path);
	if (rc)
		deqp_cases_free(c);
	return rc;
}

/* ---- a fraction ---- */

const char *deqp_fraction_parse(const char *spec, unsigned *n, unsigned *k)
{
	char *end;
	errno = 0;
	unsigned long a = strtoul(spec, &end, 10), b = 1;
	if (end == spec || errno || (*end && *end != '/'))
		return "--fraction takes N or N/K (every N-th case from the K-th on)";
	if (*end == '/') {
		const char *s = end + 1;
		b = strtoul(s, &end, 10);
		if (end == s || errno || *end)
			return "--fraction takes N or N/K (every N-th case from the K-th on)";
	}
	if (a < 1 || a > 1000000 || b < 1 || b > a)
		return "--fraction N/K needs 1 <= K <= N <= 1000000";
	*n = (unsigned)a;
	*k = (unsigned)b;
	return NULL;
}

void deqp_cases_fraction(struct deqp_cases *c, unsigned n, unsigned k)
{
	if (n <= 1)
		return;
	size_t kept = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (i % n == k - 1)
			c->names[kept++] = c->names[i];
		else
			free(c->names[i]);
	}
	c->n = kept;
}

void deqp_cases_free(struct deqp_cases *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	memset(c, 0, sizeof *c);
}
