/* tb323fu-mesa: starts programs on the store's Mesa build or on the distribution's (docs/design.md §6).
 *
 * `run` is on every application start, so it does the least possible: read one small file,
 * set a few variables, execvp. No shell, no fork, no stdio; argv passes through untouched and
 * the exit status is the program's own. */
#include "launcher/help.h"
#include "launcher/launcher.h"
#include "launcher/message.h"
#include "common/vendorfile.h"
#include "common/secure_exec.h"
#include "common/termtext.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common/ident.h"

static int usage_error(const char *what)
{
	return fail(TB_R_USAGE, what, " (see tb323fu-mesa --help)", NULL);
}

/* run and distro print nothing of their own to put into JSON: the refusal is one JSON
 * object itself. */
static int json_refused(const char *cmd)
{
	message_json(1);
	return fail(TB_R_USAGE, cmd, " prints nothing of its own: --json goes with which or env",
		    " (see tb323fu-mesa --help)", NULL);
}

/* Matches "--name VALUE" and "--name=VALUE"; advances *i past what it used. */
static int take_option(int argc, char **argv, int *i, const char *name, const char **value)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		*value = NULL;
		return 1;
	}
	*value = argv[++*i];
	return 1;
}

/* A command that cannot be started exits as a shell's would: 127 not found, 126 cannot run.
 * That is the command's status, not a failure of ours with a reason (run's path has no
 * --json), so the sentence is said alone. */
static int exec_command(char **argv)
{
	execvp(argv[0], argv);
	if (errno == ENOENT) {
		say_error(argv[0], ": command not found", NULL);
		return TB_ENOT_FOUND;
	}
	say_error("cannot run ", argv[0], ": ", strerror(errno), NULL);
	return TB_ECANNOT_RUN;
}

/* Where COMMAND starts after the options: a leading "--" ends them explicitly. */
static int command_start(int argc, char **argv, int i, const char *cmd)
{
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		say_error(cmd, " needs a COMMAND to start (see tb323fu-mesa --help)", NULL);
		return -1;
	}
	return i;
}

/* `run` and `distro`: [--version V] [--gl MODE] [--] COMMAND…; the index of COMMAND, or 0 when
 * there is none to run (--help answered, a usage error said) with the exit status in *done.
 * gl: where --gl goes, NULL for distro (which takes none). */
static int version_and_command(int argc, char **argv, const char *cmd, const char **version,
			       const char **gl, const char **store, int *done)
{
	int i = 1;
	const char *mode;
	while (i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0) {
		if (take_option(argc, argv, &i, "--gl", &mode)) {
			if (!gl)
				return *done = usage_error("distro takes no --gl: it gives the distribution's "
							   "whole Mesa (run --gl distro keeps only its GL)"), 0;
			if (!launch_gl_mode_ok(mode))
				return *done = launch_gl_mode_refused(mode), 0;
			*gl = mode;
			i++;
		} else if (take_option(argc, argv, &i, "--version", version)) {
			if (!*version || !**version)
				return *done = usage_error("--version needs a version name"), 0;
			i++;
		} else if (take_option(argc, argv, &i, "--store", store)) {
			if (!*store || !**store)
				return *done = usage_error("--store needs a directory"), 0;
			i++;
		} else if (strcmp(argv[i], "--json") == 0) {
			return *done = json_refused(cmd), 0;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			return *done = help_print(cmd), 0;
		} else {
			unknown_word(cmd, argv[i]);
			return *done = fail(TB_R_USAGE, "put -- before a COMMAND that starts with '-'", NULL), 0;
		}
	}
	int start = command_start(argc, argv, i, cmd);
	*done = TB_EUSAGE;
	return start < 0 ? 0 : start;
}

static struct launch_env selected, selected_gl;

/* A program that starts with AT_SECURE ignores the variables run sets (docs/design.md §18):
 * said before it starts, and it still starts (an application rule's launch must not break). */
static void warn_secure(const char *name)
{
	static char prog[PATH_MAX], shown[4 * PATH_MAX];
	int why = secure_exec_lookup(name, prog, sizeof prog) == 0 ? secure_exec_file(prog, 1) : 0;
	if (!why)
		return;
	term_escape(shown, sizeof shown, prog, 0);
	say_error("warning: ", shown, " has ", secure_exec_words(why),
		  ", so it starts with AT_SECURE: the dynamic linker and the Vulkan loader ignore the "
		  "store's variables in it and it gets the distribution's Mesa; start what it runs "
		  "through `tb323fu-mesa run` instead (gamescope -- tb323fu-mesa run GAME), or take the "
		  "capability away (setcap -r) for it to be switched", NULL);
}

/* What the program is started on, for `which` inside it (and any program that asks): the
 * version's name and the store it is in. */
static int started_on(const char *root, const char *version)
{
	char current[80];
	const char *name = version ? version : store_current_version(root, current, sizeof current);
	char real[PATH_MAX];
	if (!name)
		return 0;
	return setenv(STORE_VERSION_VAR, name, 1) != 0 ||
			       setenv(STORE_ROOT_VAR, realpath(root, real) ? real : root, 1) != 0
		       ? -1
		       : 0;
}

static int cmd_run(const char *store, int argc, char **argv)
{
	const char *version = NULL, *gl = NULL;
	int done, start = version_and_command(argc, argv, "run", &version, &gl, &store, &done);
	if (!start)
		return done;
	const char *root = store_root(store);
	message_store(store);
	int rc = launch_env_load(&selected, root, version);
	if (rc != 0)
		return rc;
	const struct env_list *gl_list = launch_gl_select(&selected_gl, root, version, gl, "run it", &rc);
	if (rc != 0)
		return rc;
	if (launch_is_flatpak_run(argv + start)) { /* a sandbox: its GL extension (§17) */
		rc = launch_flatpak_env(root, &selected, gl, gl_list);
		if (rc)
			return rc;
		char **args = launch_flatpak_argv(argv + start);
		return args ? exec_command(args) : fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
	}
	if (launch_env_clean(root, NULL) != 0 || launch_env_apply(&selected.list) != 0 ||
	    (gl_list && launch_env_apply(gl_list) != 0) || started_on(root, version) != 0)
		return fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
	warn_secure(argv[start]);
	return exec_command(argv + start);
}

/* The env file distro takes RUSTICL_ENABLE from: version's (a failure is said), or current's
 * (missing or damaged: none, the distribution's Mesa must stay usable). NULL when none. */
static const struct env_list *distro_env(const char *root, const char *version, int *rc)
{
	*rc = 0;
	if (version) {
		*rc = launch_env_load(&selected, root, version);
		return *rc ? NULL : &selected.list;
	}
	char path[STORE_PATH_MAX];
	if (store_env_file(path, sizeof path, root, NULL) != 0)
		return NULL;
	long n = envfile_read(path, selected.text, sizeof selected.text);
	struct env_problem why;
	if (n < 0 || envfile_parse(selected.text, (size_t)n, &selected.list, &why) != 0)
		return NULL;
	return &selected.list;
}

/* The distribution's Mesa with the driver the store's side selects: the distribution's
 * rusticl offers no device without RUSTICL_ENABLE. The caller's own value wins, unless a
 * version was asked for by name. */
static int distro_rusticl(const struct env_list *release, const char *user, int by_name)
{
	const struct env_var *v = release ? env_list_find(release, ENV_RUSTICL_ENABLE) : NULL;
	const char *value = v && (by_name || !user || !*user) ? v->value : user;
	return value ? setenv(ENV_RUSTICL_ENABLE, value, 1) : 0;
}

/* The distribution's OpenCL vendor file of the store's driver (the one whose library has the
 * name of the store's), so the program sees that driver and no other platform, as on the
 * store's side. None found (or nothing installed): every vendor of the system, as ever. */
static int distro_opencl(const struct env_list *release)
{
	const struct env_var *dir = release ? env_list_find(release, ENV_OCL_ICD_VENDORS) : NULL;
	char store_file[STORE_PATH_MAX], lib[256], found[STORE_PATH_MAX];
	if (!dir || path_concat(store_file, sizeof store_file, dir->value, "/rusticl.icd", NULL) != 0 ||
	    vendor_library_name(store_file, lib, sizeof lib) != 0 ||
	    vendor_file_naming(vendor_dir(), lib, found, sizeof found) != 0)
		return 0;
	return setenv(ENV_OCL_ICD_VENDORS, found, 1);
}

static int cmd_distro(const char *store, int argc, char **argv)
{
	const char *version = NULL;
	int done, start = version_and_command(argc, argv, "distro", &version, NULL, &store, &done);
	if (!start)
		return done;
	const char *root = store_root(store);
	message_store(store);
	int rc;
	const struct env_list *release = distro_env(root, version, &rc);
	if (rc != 0)
		return rc;
	const char *inherited = getenv(ENV_RUSTICL_ENABLE);
	char *user = inherited ? strdup(inherited) : NULL;
	if (inherited && !user)
		return fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
	/* Also clear what the env file sets beyond the usual variables. */
	if (launch_env_clean(root, release) != 0 || distro_rusticl(release, user, version != NULL) != 0 ||
	    distro_opencl(release) != 0)
		return fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
	free(user);
	if (launch_is_flatpak_run(argv + start)) /* the runtime's own Mesa (§17) */
		launch_flatpak_distro();
	return exec_command(argv + start);
}

/* env and which take options only: --help anywhere among them asks for help. */
static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	return 0;
}

/* env and which take --store after the command too, as the control tool does, and the
 * global --json: args gets the words left for the command (argv's own), then "--json".
 * Returns the argument count, or -1 after a usage error. */
static int report_args(int argc, char **argv, const char **store, int json, char **args)
{
	int n = 0;
	args[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (take_option(argc, argv, &i, "--store", store)) {
			if (!*store || !**store)
				return usage_error("--store needs a directory"), -1;
		} else {
			args[n++] = argv[i];
		}
	}
	if (json)
		args[n++] = "--json";
	args[n] = NULL;
	return n;
}

/* Whether --json is asked for: among the options before the command, or after help, env
 * and which (run's and distro's words belong to the program they start). */
static int json_asked(int argc, char **argv)
{
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--json") == 0)
			return 1;
		if (strcmp(argv[i], "--store") == 0)
			i++;
	}
	if (i >= argc || (strcmp(argv[i], "help") && strcmp(argv[i], "env") && strcmp(argv[i], "which")))
		return 0;
	for (; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0)
			return 1;
	return 0;
}

TB_IDENT_DEFINE("tb323fu-mesa");

int main(int argc, char **argv)
{
	const char *store_option = NULL;
	int i = 1, json = 0;
	if (argc > 1 && strcmp(argv[1], "run") != 0 && json_asked(argc, argv))
		message_json(1); /* not on run's path: its first word is run */
	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return help_print(NULL);
		if (strcmp(argv[i], "--version") == 0)
			return version_print();
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
			i++;
			continue;
		}
		if (!take_option(argc, argv, &i, "--store", &store_option))
			return unknown_word(NULL, argv[i]);
		if (!store_option || !*store_option)
			return usage_error("--store needs a directory");
		i++;
	}
	if (i >= argc && json)
		return fail(TB_R_USAGE, "no command given: name one (tb323fu-mesa help lists them)", NULL);
	if (i >= argc) {
		help_print(NULL);
		return TB_EUSAGE;
	}
	const char *cmd = argv[i];
	int sub_argc = argc - i;
	char **sub_argv = argv + i;
	/* run first: it is on every application's start. */
	if (strcmp(cmd, "run") == 0 && !json)
		return cmd_run(store_option, sub_argc, sub_argv);
	if (strcmp(cmd, "distro") == 0 && !json)
		return cmd_distro(store_option, sub_argc, sub_argv);
	if (strcmp(cmd, "run") == 0 || strcmp(cmd, "distro") == 0)
		return json_refused(cmd);
	if (strcmp(cmd, "help") == 0) {
		const char *about = NULL; /* the first word after help that is not --json */
		for (int k = 1; k < sub_argc && !about; k++)
			if (strcmp(sub_argv[k], "--json") != 0)
				about = sub_argv[k];
		return help_print(about);
	}
	if (strcmp(cmd, "__complete") == 0) {
		/* The bash completion's question: the words so far, the last one being typed. */
		complete_print(sub_argc - 1, sub_argv + 1);
		return 0;
	}
	int reports = strcmp(cmd, "env") == 0 || strcmp(cmd, "which") == 0;
	if (!reports)
		return unknown_word(NULL, cmd);
	if (wants_help(sub_argc, sub_argv))
		return help_print(cmd);
	char **args = malloc(((size_t)sub_argc + 2) * sizeof *args);
	if (!args)
		return fail(TB_R_OUT_OF_MEMORY, "out of memory", NULL);
	sub_argc = report_args(sub_argc, sub_argv, &store_option, json, args);
	if (sub_argc < 0) {
		free(args);
		return TB_EUSAGE;
	}
	sub_argv = args;
	const char *root = store_root(store_option);
	message_store(store_option);
	/* Reports name the store by its real path. run and distro keep the name they were
	 * given: they recognise the store's directories under both names. */
	static char real_root[PATH_MAX];
	if (realpath(root, real_root))
		root = real_root;
	int rc = strcmp(cmd, "env") == 0 ? cmd_env(root, sub_argc, sub_argv)
					 : cmd_which(root, sub_argc, sub_argv);
	free(args);
	return rc;
}
