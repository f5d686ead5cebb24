/* `tb323fu-mesa env`: the variables a run sets (with the version's GL as `run` gives it, or as
 * `run --gl MODE` does), for a shell (`eval "$(tb323fu-mesa env)"`) or as JSON for programs. */
#include "launcher/jsonout.h"
#include "launcher/help.h"
#include "launcher/launcher.h"
#include "launcher/message.h"

#include <stdio.h>
#include <string.h>

static struct launch_env loaded, loaded_gl;
/* The two files' variables in the order a run applies them, a library path of each joined. */
static struct env_list both;
static char joined_ld[2 * STORE_PATH_MAX + 2];

static void merge(const struct env_list *main_list, const struct env_list *gl)
{
	both = *main_list;
	for (size_t i = 0; gl && i < gl->count && both.count < ENVFILE_MAX_VARS; i++) {
		const struct env_var *v = &gl->vars[i], *before = env_list_find(&both, v->name);
		both.vars[both.count++] = *v;
		if (before && v->prepend && before->prepend &&
		    snprintf(joined_ld, sizeof joined_ld, "%s:%s", v->value, before->value) < (int)sizeof joined_ld)
			both.vars[both.count - 1].value = joined_ld;
	}
}

/* Values were checked to need no quoting in sh; the prepend form is sh syntax too, and GL's
 * prepends to what the first file's line set, as a run does. */
static void print_sh(const struct env_list *l)
{
	for (size_t i = 0; l && i < l->count; i++)
		printf("export %s=%s%s\n", l->vars[i].name, l->vars[i].value,
		       l->vars[i].prepend ? ENVFILE_LD_SUFFIX : "");
}

static void print_json(const char *root, const char *version, const struct launch_env *e,
		       const char *gl_file)
{
	char current[80];
	const char *shown = version ? version : store_current_version(root, current, sizeof current);
	char said[256];
	snprintf(said, sizeof said, "the variables a run of Mesa %s sets", shown ? shown : "(unknown version)");
	fputs("{\"ok\":true,\"message\":", stdout);
	json_string(stdout, said);
	fputs(",\"version\":", stdout);
	json_string(stdout, shown ? shown : "");
	fputs(",\"store\":", stdout);
	json_string(stdout, root);
	fputs(",\"file\":", stdout);
	json_string(stdout, e->path);
	fputs(",\"gl_file\":", stdout);
	json_string(stdout, gl_file);
	fputs(",\"env\":{", stdout);
	int first = 1;
	for (size_t i = 0; i < both.count; i++) {
		/* Later lines win, as in sh: print each name once, with its last value. */
		const struct env_var *v = &both.vars[i];
		if (env_list_find(&both, v->name) != v)
			continue;
		fputs(first ? "" : ",", stdout);
		json_string(stdout, v->name);
		fputc(':', stdout);
		json_string(stdout, v->value);
		first = 0;
	}
	fputs("},\"prepend\":[", stdout);
	first = 1;
	for (size_t i = 0; i < both.count; i++) {
		const struct env_var *v = &both.vars[i];
		if (env_list_find(&both, v->name) != v || !v->prepend)
			continue;
		fputs(first ? "" : ",", stdout);
		json_string(stdout, v->name);
		first = 0;
	}
	fputs("]}\n", stdout);
	message_json_answered();
}

int cmd_env(const char *root, int argc, char **argv)
{
	const char *version = NULL, *format = "sh", *gl_mode = NULL;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--format=json") == 0 ||
		    (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
			message_json(1); /* a usage error before it is one JSON object too */
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		size_t vn = strlen("--version"), fn = strlen("--format");
		if (strncmp(arg, "--version", vn) == 0 && (arg[vn] == '=' || arg[vn] == '\0')) {
			version = arg[vn] == '=' ? arg + vn + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!version || !*version)
				return fail(TB_R_USAGE, "--version needs a version name", NULL);
		} else if (strncmp(arg, "--format", fn) == 0 && (arg[fn] == '=' || arg[fn] == '\0')) {
			format = arg[fn] == '=' ? arg + fn + 1 : (i + 1 < argc ? argv[++i] : "");
		} else if (strncmp(arg, "--gl", 4) == 0 && (arg[4] == '=' || arg[4] == '\0')) {
			gl_mode = arg[4] == '=' ? arg + 5 : (i + 1 < argc ? argv[++i] : NULL);
			if (!launch_gl_mode_ok(gl_mode))
				return launch_gl_mode_refused(gl_mode);
		} else if (strcmp(arg, "--json") == 0) {
			format = "json";
		} else {
			return unknown_word("env", arg);
		}
	}
	if (strcmp(format, "sh") != 0 && strcmp(format, "json") != 0)
		return fail(TB_R_USAGE, "--format is sh or json, not '", format, "'", NULL);
	int rc = launch_env_load(&loaded, root, version);
	if (rc != 0)
		return rc;
	const struct env_list *gl_list = launch_gl_select(&loaded_gl, root, version, gl_mode, "ask again", &rc);
	if (rc != 0)
		return rc;
	merge(&loaded.list, gl_list);
	if (strcmp(format, "sh") == 0) {
		print_sh(&loaded.list);
		print_sh(gl_list);
	} else
		print_json(root, version, &loaded, gl_list ? loaded_gl.path : "");
	if (fflush(stdout) != 0)
		return fail(TB_R_FAILED, "cannot write the output", NULL);
	return 0;
}
