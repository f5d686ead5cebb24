/* Loading, clearing and applying the variables of a run (see launcher.h). */
#include "launcher/launcher.h"
#include "launcher/message.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Its env file is still there, its tree is not (deleted by hand or by another tool). */
static int tree_gone(const char *root, const char *version)
{
	if (version)
		return fail(TB_R_NOT_INSTALLED, "Mesa ", version, " is not installed: its files are gone from ",
			    root, "/versions (tb323fu-ctl mesa list shows what is)", NULL);
	char current[80];
	const char *v = store_current_version(root, current, sizeof current);
	return fail(TB_R_DAMAGED_STORE, "the current Mesa version ", v ? v : "", " is gone from ", root,
		    "/versions; see tb323fu-ctl mesa status for what to do (tb323fu-mesa distro "
		    "runs a program with the distribution's Mesa)",
		    NULL);
}

static int parse_checked(struct launch_env *e, long n, int (*allowed)(const char *), const char *whose);

int launch_env_load(struct launch_env *e, const char *root, const char *version)
{
	e->version = version;
	e->list.count = 0;
	if (version && !version_name_ok(version))
		return fail(TB_R_USAGE, "'", version,
			    "' is not a version name (1 to 64 letters, digits, '.', '_', '+' or "
			    "'-', starting with a digit)",
			    NULL);
	if (store_env_file(e->path, sizeof e->path, root, version) != 0)
		return fail(TB_R_USAGE, "the store path is too long: ", root, NULL);
	long n = envfile_read(e->path, e->text, sizeof e->text);
	if (n == -ENOENT || n == -ENOTDIR) {
		if (!version)
			return fail(TB_R_NOT_INSTALLED,
				    "no Mesa version installed (tb323fu-ctl mesa update)", NULL);
		return fail(TB_R_NOT_INSTALLED, "version ", version,
			    " is not installed (tb323fu-ctl mesa list)", NULL);
	}
	if (n == -E2BIG)
		return fail(TB_R_DAMAGED_STORE, e->path,
			    " is larger than an env file can be (check the store with "
			    "tb323fu-ctl mesa doctor)",
			    NULL);
	if (n == -ESPIPE || n == -EISDIR)
		return fail(TB_R_DAMAGED_STORE, e->path,
			    " is not a regular file (check the store with tb323fu-ctl mesa doctor)",
			    NULL);
	if (n < 0)
		return fail(n == -EACCES || n == -EPERM ? TB_R_PERMISSION : TB_R_IO_ERROR,
			    "cannot read ", e->path, ": ", strerror((int)-n),
			    " (check the store's permissions with tb323fu-ctl mesa doctor)", NULL);
	if (store_tree_gone(root, version))
		return tree_gone(root, version);
	return parse_checked(e, n, env_name_selected, "a release selects");
}

/* Parses the n bytes read into e and checks that it sets only what allowed takes: 0, or the
 * exit code said. */
static int parse_checked(struct launch_env *e, long n, int (*allowed)(const char *), const char *whose)
{
	struct env_problem why;
	if (envfile_parse(e->text, (size_t)n, &e->list, &why) != 0) {
		char line[32] = "";
		if (why.line)
			snprintf(line, sizeof line, " line %u", why.line);
		return fail(TB_R_DAMAGED_STORE, e->path, line, " ", why.what,
			    " (check the store with tb323fu-ctl mesa doctor)", NULL);
	}
	/* Only what a release selects: an env file that sets LD_PRELOAD or PATH is not one the
	 * control tool wrote, and none of it is applied. */
	for (size_t i = 0; i < e->list.count; i++)
		if (!allowed(e->list.vars[i].name)) {
			char line[32];
			snprintf(line, sizeof line, " line %u", e->list.vars[i].line);
			return fail(TB_R_DAMAGED_STORE, e->path, line, " sets ", e->list.vars[i].name,
				    ", which is not one of the variables ", whose, " (check the store "
				    "with tb323fu-ctl mesa doctor)",
				    NULL);
		}
	return 0;
}

int launch_gl_load(struct launch_env *g, const char *root, const char *version, const char *suffix)
{
	g->version = version;
	g->list.count = 0;
	if (store_env_file_as(g->path, sizeof g->path, root, version, suffix) != 0)
		return fail(TB_R_USAGE, "the store path is too long: ", root, NULL);
	long n = envfile_read(g->path, g->text, sizeof g->text);
	if (n == -ENOENT || n == -ENOTDIR)
		return -1;
	if (n < 0)
		return fail(n == -EACCES || n == -EPERM ? TB_R_PERMISSION : TB_R_DAMAGED_STORE,
			    "cannot read ", g->path, ": ", strerror((int)-n),
			    " (check the store with tb323fu-ctl mesa doctor)", NULL);
	return parse_checked(g, n, env_name_gl, "of GL");
}

int launch_gl_mode_ok(const char *mode)
{
	return mode && (strcmp(mode, "native") == 0 || strcmp(mode, "zink") == 0 || strcmp(mode, "distro") == 0);
}

int launch_gl_mode_refused(const char *mode)
{
	return fail(TB_R_USAGE, "--gl is native, zink or distro, not '", mode ? mode : "",
		    "' (see tb323fu-mesa --help)", NULL);
}

/* A version without what --gl asked for; again says what the user does next ("run it",
 * "ask again"). */
static int gl_missing(const char *root, const char *version, const char *mode, const char *again)
{
	char current[80];
	const char *v = version ? version : store_current_version(root, current, sizeof current);
	char path[STORE_PATH_MAX];
	if (strcmp(mode, "zink") == 0 && store_env_file_as(path, sizeof path, root, version, STORE_GL_SUFFIX) == 0 &&
	    access(path, F_OK) == 0)
		return fail(TB_R_NOT_FOUND_LOCAL, "Mesa ", v ? v : "", " has no Zink (its release's "
			    "gallium_drivers do not name zink): ", again, " with --gl native or --gl distro", NULL);
	return fail(TB_R_NOT_FOUND_LOCAL, "Mesa ", v ? v : "", " carries no GL (its release's drivers do "
		    "not name gl): ", again, " without --gl, or with --gl distro", NULL);
}

const struct env_list *launch_gl_select(struct launch_env *g, const char *root, const char *version,
					const char *mode, const char *again, int *rc)
{
	*rc = 0;
	if (mode && strcmp(mode, "distro") == 0)
		return NULL;
	const char *suffix = mode && strcmp(mode, "zink") == 0 ? STORE_ZINK_SUFFIX : STORE_GL_SUFFIX;
	int loaded = launch_gl_load(g, root, version, suffix);
	if (loaded > 0)
		*rc = loaded;
	else if (loaded < 0 && mode)
		*rc = gl_missing(root, version, mode, again);
	return loaded == 0 ? &g->list : NULL;
}

int launch_env_clean(const char *root, const struct env_list *extra)
{
	for (size_t i = 0; i < selected_vars_count; i++)
		unsetenv(selected_vars[i]);
	unsetenv(STORE_VERSION_VAR); /* set again by run; distro's program runs on no version of ours */
	for (size_t i = 0; i < gl_selected_count; i++)
		unsetenv(gl_vars[i]);
	for (size_t i = 0; extra && i < extra->count; i++)
		if (strcmp(extra->vars[i].name, ENV_LD_LIBRARY_PATH) != 0)
			unsetenv(extra->vars[i].name);

	const char *ld = getenv(ENV_LD_LIBRARY_PATH);
	if (!ld || !*ld)
		return 0;
	/* The env files name the store by its real path; the root may be a link to it. */
	char real[PATH_MAX];
	const char *dirs[2] = {root, realpath(root, real)};
	size_t cap = strlen(ld) + 1;
	char *kept = malloc(cap);
	if (!kept)
		return -1;
	long n = path_list_without(ld, dirs, 2, kept, cap);
	int rc = 0;
	if (n == 0)
		unsetenv(ENV_LD_LIBRARY_PATH);
	else if (n > 0 && strcmp(kept, ld) != 0)
		rc = setenv(ENV_LD_LIBRARY_PATH, kept, 1);
	free(kept);
	return rc;
}

int launch_env_apply(const struct env_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct env_var *v = &list->vars[i];
		const char *inherited = v->prepend ? getenv(v->name) : NULL;
		if (inherited && !*inherited)
			inherited = NULL;
		size_t cap = strlen(v->value) + (inherited ? strlen(inherited) + 1 : 0) + 1;
		char *value = malloc(cap);
		if (!value)
			return -1;
		env_var_apply(v, inherited, value, cap);
		int rc = setenv(v->name, value, 1);
		free(value);
		if (rc != 0)
			return -1;
	}
	return 0;
}
