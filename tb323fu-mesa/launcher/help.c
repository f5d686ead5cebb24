/* The launcher's help, suggestions and completion (tb323fu-mesa/launcher/help.h). */
#include "launcher/help.h"
#include "launcher/launcher.h"
#include "launcher/message.h"
#include "launcher/jsonout.h"
#include "common/suggest.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct option_help {
	const char *name, *arg, *help;
};

struct command_help {
	const char *name, *usage, *summary, *example;
	const struct option_help *options;
	const char *details; /* what the command does to the environment, or NULL */
};

static const struct option_help global_options[] = {
	{"--store", "DIR", "the store (default $" STORE_ROOT_VAR ", else " STORE_DEFAULT_ROOT "; also after the command)"},
	{"--json", NULL, "which's and env's JSON (before the command as after it)"},
	{"--help", NULL, "show help and exit"},
	{"--version", NULL, "print the program's version and exit"},
	{NULL, NULL, NULL},
};
static const struct option_help run_options[] = {
	{"--version", "V", "an installed version instead of the current one"},
	{"--gl", "MODE", "GL of a version with GL: native (its own driver, the default), zink, distro"},
	{NULL, NULL, NULL},
};
static const struct option_help env_options[] = {
	{"--version", "V", "an installed version instead of the current one"},
	{"--gl", "MODE", "the GL variables of run --gl MODE: native (the default), zink, distro"},
	{"--format", "sh|json", "shell lines (default) or one JSON object"},
	{"--json", NULL, "the same as --format json"},
	{NULL, NULL, NULL},
};
static const struct option_help which_options[] = {
	{"--version", "V", "an installed version instead of the current one"},
	{"--gl", "MODE", "the GL of run --gl MODE: native (the default), zink, distro"},
	{"--pid", "PID...", "the drivers those running processes have really loaded, each in turn"},
	{"--json", NULL, "one JSON object (several processes: each an entry of its \"processes\")"},
	{NULL, NULL, NULL},
};
static const struct option_help distro_options[] = {
	{"--version", "V", "RUSTICL_ENABLE as version V selects it, also over the caller's"},
	{NULL, NULL, NULL},
};

static const struct command_help commands[] = {
	{"run", "[--version V] [--gl native|zink|distro] [--] COMMAND [ARGS...]",
	 "start COMMAND on the store's Mesa build (current, or version V)",
	 "tb323fu-mesa run vulkaninfo --summary", run_options,
	 "A version whose release carries GL gives COMMAND its GL too (its EGL and GLX\n"
	 "vendor libraries, GBM and gallium driver); --gl zink runs that GL on Zink over\n"
	 "the version's own Vulkan driver, --gl distro keeps the distribution's GL while\n"
	 "Vulkan and OpenCL come from the store.\n"},
	{"distro", "[--version V] [--] COMMAND [ARGS...]",
	 "start COMMAND on the distribution's Mesa, whatever the session selects",
	 "tb323fu-mesa distro clpeak", distro_options,
	 "Clears VK_DRIVER_FILES, VK_ICD_FILENAMES, OCL_ICD_VENDORS, whatever else the\n"
	 "current env file sets, and the store's directories in LD_LIBRARY_PATH.\n"
	 "Sets RUSTICL_ENABLE, which the distribution's rusticl needs to offer a device:\n"
	 "the caller's own value when it is set and not empty, else the current\n"
	 "version's (with --version V: V's); with nothing installed it is left as it is.\n"
	 "Sets OCL_ICD_VENDORS to the system's vendor file that names the store's OpenCL\n"
	 "library (as /etc/OpenCL/vendors/rusticl.icd), so other platforms (Clover, PoCL)\n"
	 "are hidden as they are from run; when the system has none, it stays unset.\n"},
	{"env", "[--version V] [--gl native|zink|distro] [--format sh|json]", "print the variables a run sets",
	 "tb323fu-mesa env --format json", env_options, NULL},
	{"which", "[--version V] [--gl native|zink|distro] [--json] | --pid PID [PID...] [--json]",
	 "show the ICD files, drivers and GL a run would load, or those processes have loaded",
	 "tb323fu-mesa which --pid $(pidof vkcube)", which_options, NULL},
};
enum { N_COMMANDS = sizeof commands / sizeof *commands };

static const struct command_help *find(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_options(FILE *f, const struct option_help *o)
{
	for (; o->name; o++) {
		char head[48];
		snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-20s %s\n", head, o->help);
	}
}

static int help_write(FILE *f, const char *name)
{
	if (!name) {
		fputs("usage: tb323fu-mesa [--store DIR] COMMAND [ARGS...]\n"
		      "       tb323fu-mesa help [COMMAND]\n\n"
		      "Starts programs on the Mesa build of tb323fu-ctl's store, or on the\n"
		      "distribution's Mesa, without touching the session.\n\ncommands:\n",
		      f);
		for (size_t i = 0; i < N_COMMANDS; i++)
			fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].summary);
		fputs("\noptions:\n", f);
		print_options(f, global_options);
		fputs("\n`tb323fu-mesa help COMMAND` shows a command's options and an example;\n"
		      "man tb323fu-mesa(1) has the rest.\n\nexample:\n"
		      "  tb323fu-mesa run vkcube\n",
		      f);
	} else {
		const struct command_help *c = find(name);
		if (!c)
			return unknown_word(NULL, name);
		fprintf(f, "usage: tb323fu-mesa [--store DIR] %s %s\n\n%s\n", c->name, c->usage, c->summary);
		if (c->details)
			fprintf(f, "\n%s", c->details);
		if (c->options->name) {
			fputs("\noptions:\n", f);
			print_options(f, c->options);
		}
		fprintf(f, "\nexample:\n  %s\n", c->example);
	}
	return 0;
}

/* With --json the text is the message of one object (docs/design.md §12). */
static int text_json(const char *text, const char *key, const char *value)
{
	fputs("{\"ok\":true,\"message\":", stdout);
	json_string(stdout, text);
	fprintf(stdout, ",\"%s\":", key);
	json_string(stdout, value);
	fputs("}\n", stdout);
	message_json_answered();
	return fflush(stdout) == 0 ? 0 : TB_EFAIL;
}

int help_print(const char *name)
{
	if (!message_json_on()) {
		int rc = help_write(stdout, name);
		return rc ? rc : fflush(stdout) == 0 ? 0 : TB_EFAIL;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return fail(TB_R_OUT_OF_MEMORY, "out of memory", NULL);
	int rc = help_write(f, name);
	fclose(f);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	if (!rc)
		rc = text_json(text, "command", name ? name : "");
	free(text);
	return rc;
}

int version_print(void)
{
	if (message_json_on())
		return text_json("tb323fu-mesa " TB_VERSION, "version", TB_VERSION);
	fputs("tb323fu-mesa " TB_VERSION "\n", stdout);
	return fflush(stdout) == 0 ? 0 : TB_EFAIL;
}

static size_t count_options(const struct option_help *o)
{
	size_t n = 0;
	while (o[n].name)
		n++;
	return n;
}

int unknown_word(const char *cmd, const char *word)
{
	const char *close;
	if (word[0] != '-') {
		close = suggest_name(word, commands, N_COMMANDS, sizeof *commands);
	} else {
		const struct command_help *c = cmd ? find(cmd) : NULL;
		const struct option_help *list = c ? c->options : global_options;
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
		close = suggest_name(name, list, count_options(list), sizeof *list);
	}
	const char *kind = word[0] == '-' ? "unknown option " : "unknown command ";
	if (cmd)
		return fail(TB_R_USAGE, kind, "for ", cmd, ": \"", word, "\"", close ? "; did you mean \"" : "",
			    close ? close : "", close ? "\"?" : "", " (see tb323fu-mesa help ", cmd,
			    ")", NULL);
	return fail(TB_R_USAGE, kind, "\"", word, "\"", close ? "; did you mean \"" : "",
		    close ? close : "", close ? "\"?" : "", " (see tb323fu-mesa --help)", NULL);
}

/* --- completion --- */

static void words_with(const char *cur, const char *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(w[i], cur, strlen(cur)))
			printf("%s\n", w[i]);
}

static void options_with(const char *cur, const struct option_help *o)
{
	for (; o->name; o++)
		if (!strncmp(o->name, cur, strlen(cur)))
			printf("%s\n", o->name);
}

static void versions_with(const char *cur, const char *root)
{
	char dir[STORE_PATH_MAX];
	if (path_concat(dir, sizeof dir, root, "/versions", "") != 0)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (version_name_ok(e->d_name) && !strncmp(e->d_name, cur, strlen(cur)))
			printf("%s\n", e->d_name);
	closedir(d);
}

static const struct option_help *option_of(const struct option_help *list, const char *w)
{
	size_t n = strcspn(w, "=");
	for (; list->name; list++)
		if (strlen(list->name) == n && !strncmp(list->name, w, n))
			return list;
	return NULL;
}

void complete_print(int n, char **words)
{
	const char *cur = n > 0 ? words[n - 1] : "", *store = NULL;
	const struct command_help *cmd = NULL;
	const struct option_help *pending = NULL;
	int help = 0, operand = -1;
	for (int i = 1; i < n - 1 && operand < 0; i++) {
		const char *w = words[i];
		if (pending) {
			if (!strcmp(pending->name, "--store"))
				store = w;
			pending = NULL;
		} else if (w[0] == '-' && strcmp(w, "--")) {
			const struct option_help *o = option_of(cmd ? cmd->options : global_options, w);
			if (o && o->arg && !strchr(w, '='))
				pending = o;
			else if (o && !strncmp(w, "--store=", 8))
				store = w + 8;
		} else if (!cmd && !help) {
			help = !strcmp(w, "help");
			cmd = find(w);
		} else if (cmd && (!strcmp(cmd->name, "run") || !strcmp(cmd->name, "distro"))) {
			operand = strcmp(w, "--") ? i : i + 1; /* the program starts here */
		}
	}
	if (operand >= 0) {
		printf("@command %d\n", operand);
		return;
	}
	if (pending) {
		static const char *const formats[] = {"sh", "json"};
		static const char *const gl_modes[] = {"native", "zink", "distro"};
		if (!strcmp(pending->name, "--version"))
			versions_with(cur, store_root(store));
		else if (!strcmp(pending->name, "--format"))
			words_with(cur, formats, 2);
		else if (!strcmp(pending->name, "--gl"))
			words_with(cur, gl_modes, 3);
		else if (!strcmp(pending->arg, "DIR"))
			puts("@dirs");
		return;
	}
	if (cur[0] == '-') {
		options_with(cur, cmd ? cmd->options : global_options);
	} else if (!cmd) {
		for (size_t i = 0; i < N_COMMANDS; i++)
			if (!strncmp(commands[i].name, cur, strlen(cur)))
				printf("%s\n", commands[i].name);
		if (!help && !strncmp("help", cur, strlen(cur)))
			puts("help");
	} else if (!strcmp(cmd->name, "run") || !strcmp(cmd->name, "distro")) {
		printf("@command %d\n", n - 1);
	}
}
