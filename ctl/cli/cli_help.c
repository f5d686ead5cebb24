/* Help, "did you mean …?" and completion answers, all read from the program's entries. */
#include "cli/command.h"
#include "lifecycle/lifecycle.h"
#include "common/suggest.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

static void print_option(FILE *f, const struct cli_option *opt)
{
	char head[64];
	snprintf(head, sizeof head, "%s%s%s", opt->name, opt->arg ? " " : "", opt->arg ? opt->arg : "");
	fprintf(f, "  %-26s %s\n", head, opt->help);
}

static void print_options(FILE *f, const struct cli_option *opts)
{
	for (; opts && opts->name; opts++)
		print_option(f, opts);
}

void cli_help_top(FILE *f, const struct cli_program *p)
{
	fputs("usage: tb323fu-ctl [OPTIONS] mesa COMMAND [ARGS]\n"
	      "       tb323fu-ctl [mesa] help [COMMAND]\n"
	      "\n"
	      "Fetches, verifies and installs the port's Mesa builds into a store beside the\n"
	      "distribution's Mesa, and switches programs to them and back.\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < p->count; i++)
		fprintf(f, "  %-14s %s\n", p->commands[i]->name, p->commands[i]->summary);
	fputs("\noptions (before `mesa`, or after the command):\n", f);
	print_options(f, cli_global_options);
	fputs("\nCommands that change the store need write access to it (root for the system's\n"
	      "store: sudo tb323fu-ctl mesa on). `tb323fu-ctl mesa help COMMAND` shows a command's\n"
	      "options and an example; man tb323fu-ctl(1) has the rest.\n"
	      "\n"
	      "example:\n"
	      "  tb323fu-ctl mesa update && tb323fu-mesa run vkcube\n",
	      f);
}

/* A group's help: each command's usage and summary, their options once each. */
static void help_group(FILE *f, const struct cli_command *group)
{
	const struct cli_command *const *sub;
	for (sub = group->subs; *sub; sub++)
		fprintf(f, "%s tb323fu-ctl [OPTIONS] mesa %s%s%s\n", sub == group->subs ? "usage:" : "      ",
			(*sub)->name, *(*sub)->args ? " " : "", (*sub)->args);
	fprintf(f, "\n%s\n\ncommands:\n", group->summary);
	int width = 14; /* the longest name's, so that "flatpak unexport" keeps its column */
	for (sub = group->subs; *sub; sub++)
		if ((int)strlen((*sub)->name) > width)
			width = (int)strlen((*sub)->name);
	for (sub = group->subs; *sub; sub++)
		fprintf(f, "  %-*s %s\n", width, (*sub)->name, (*sub)->summary);
	fputs("\noptions:\n", f);
	for (sub = group->subs; *sub; sub++)
		for (const struct cli_option *opt = (*sub)->options; opt && opt->name; opt++) {
			const struct cli_command *const *before = group->subs;
			while (before < sub && !cli_option_find((*before)->options, opt->name))
				before++;
			if (before == sub) /* once, for the first command that has it */
				print_option(f, opt);
		}
	/* the first command's own word ("set", "export") for the example of one command's help */
	const char *first = group->subs[0]->name + strlen(group->name) + 1;
	if (group->writers)
		fprintf(f, "\n%s\n", group->writers);
	else
		fprintf(f, "\nThose that change the system's files (its rules, its Flatpak installation) need\n"
			   "root (sudo tb323fu-ctl mesa %s …).\n", group->name);
	fprintf(f, "`tb323fu-ctl mesa help %s %s` shows one command.\n\nexample:\n  %s\n",
		group->name, first, group->example);
}

void cli_help_command(FILE *f, const struct cli_command *cmd)
{
	if (cmd->subs) {
		help_group(f, cmd);
		return;
	}
	fprintf(f, "usage: tb323fu-ctl [OPTIONS] mesa %s%s%s\n\n%s\n", cmd->name,
		*cmd->args ? " " : "", cmd->args, cmd->summary);
	if (cmd->writes)
		fprintf(f, "It changes the store: run it as root for the system's store "
			   "(sudo tb323fu-ctl mesa %s).\n", cmd->name);
	if (cmd->options && cmd->options->name) {
		fputs("\noptions:\n", f);
		print_options(f, cmd->options);
	}
	fprintf(f, "\nThe global options (--store, --json, --progress, --wait…) work here too:\n"
		   "tb323fu-ctl --help.\n\nexample:\n  %s\n",
		cmd->example);
}

const char *cli_suggest_command(const struct cli_program *p, const char *word)
{
	/* a word other tools use for one of ours is meant, not mistyped ("uninstall" is two
	 * edits from install, and means remove) */
	for (size_t i = 0; i < p->count; i++)
		for (const char *const *w = p->commands[i]->synonyms; w && *w; w++)
			if (!strcmp(word, *w))
				return p->commands[i]->name;
	struct { const char *name; } names[64];
	size_t n = 0;
	for (; n < p->count && n < sizeof names / sizeof *names; n++)
		names[n].name = p->commands[n]->name;
	return suggest_name(word, names, n, sizeof *names);
}

const char *cli_suggest_option(const struct cli_command *cmd, const char *word)
{
	/* Compare the option's name only, not an attached =VALUE. */
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
	const char *best = NULL;
	if (cmd && cmd->options) {
		size_t n = 0;
		while (cmd->options[n].name)
			n++;
		best = suggest_name(name, cmd->options, n, sizeof *cmd->options);
	}
	if (!best) {
		size_t n = 0;
		while (cli_global_options[n].name)
			n++;
		best = suggest_name(name, cli_global_options, n, sizeof *cli_global_options);
	}
	return best;
}

/* --- completion --- */

static void complete_words(FILE *f, const char *cur, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(words[i], cur, strlen(cur)))
			fprintf(f, "%s\n", words[i]);
}

static void complete_options(FILE *f, const char *cur, const struct cli_option *opts)
{
	for (; opts && opts->name; opts++)
		if (!strncmp(opts->name, cur, strlen(cur)))
			fprintf(f, "%s\n", opts->name);
}

static void complete_commands(FILE *f, const struct cli_program *p, const char *cur, int with_help)
{
	for (size_t i = 0; i < p->count; i++)
		if (!strncmp(p->commands[i]->name, cur, strlen(cur)))
			fprintf(f, "%s\n", p->commands[i]->name);
	if (with_help && !strncmp("help", cur, strlen(cur)))
		fputs("help\n", f);
}

static void complete_subs(FILE *f, const char *cur, const struct cli_command *group)
{
	size_t skip = strlen(group->name) + 1;
	for (const struct cli_command *const *sub = group->subs; *sub; sub++)
		if (!strncmp((*sub)->name + skip, cur, strlen(cur)))
			fprintf(f, "%s\n", (*sub)->name + skip);
}

/* The store's versions; removable: only those remove would take (lc_plan_remove's rules:
 * not current, previous or pinned). */
static void complete_versions(FILE *f, const char *cur, const char *store_dir, int removable)
{
	struct store s;
	struct tb_error e = {0};
	if (store_open(&s, store_dir, 0, &e))
		return;
	size_t n = 0, kept = 0;
	char **list = store_versions(&s, &n);
	struct lc_ctx x = {.s = &s};
	for (size_t i = 0; i < n; i++) {
		struct lc_plan p;
		struct tb_error no = {0};
		if (!removable || lc_plan_remove(&x, list[i], 0, &p, &no) == TB_OK) {
			char *keep = list[kept];
			list[kept++] = list[i];
			list[i] = keep;
		}
	}
	complete_words(f, cur, (const char *const *)list, kept);
	store_free_list(list, n);
	store_close(&s);
}

/* The value of an option: a choice's words, the installed versions for a VERSION; files and
 * directories are left to the shell ("@files", "@dirs"). */
static void complete_value(FILE *f, const char *cur, const struct cli_option *opt, const char *store_dir)
{
	if (opt->kind == OPT_CHOICE) {
		for (const char *w = opt->choices; *w;) {
			size_t n = strcspn(w, "|");
			if (!strncmp(w, cur, strlen(cur)) && strlen(cur) <= n)
				fprintf(f, "%.*s\n", (int)n, w);
			w += n + (w[n] == '|');
		}
	} else if (!strcmp(opt->arg, "VERSION")) {
		complete_versions(f, cur, store_dir, 0);
	} else if (!strcmp(opt->arg, "DIR")) {
		fputs("@dirs\n", f);
	} else if (!strcmp(opt->arg, "FILE") || !strcmp(opt->arg, "PATH")) {
		fputs("@files\n", f);
	}
}

void cli_complete(FILE *f, const struct cli_program *p, int n, char **words)
{
	const char *cur = n > 0 ? words[n - 1] : "";
	const struct cli_command *cmd = NULL;
	const char *store_dir = NULL;
	int mesa = 0, help = 0, operands = 0;
	const struct cli_option *pending = NULL;
	for (int i = 1; i < n - 1; i++) {
		const char *w = words[i];
		if (pending) {
			if (!strcmp(pending->name, "--store"))
				store_dir = w;
			pending = NULL;
			continue;
		}
		if (w[0] == '-') {
			const struct cli_option *o = cmd ? cli_option_find(cmd->options, w) : NULL;
			if (!o)
				o = cli_option_find(cli_global_options, w);
			if (o && o->arg && !strchr(w, '='))
				pending = o;
			else if (o && !strncmp(w, "--store=", 8))
				store_dir = w + 8;
			continue;
		}
		if (!mesa && !strcmp(w, "mesa"))
			mesa = 1;
		else if (!cmd && !strcmp(w, "help"))
			help = 1;
		else if ((mesa || help) && !cmd)
			cmd = cli_command_find(p, w);
		else if (cmd && cmd->subs)
			cmd = cli_sub_find(cmd, w) ? cli_sub_find(cmd, w) : cmd;
		else if (cmd)
			operands++;
	}
	if (pending) {
		complete_value(f, cur, pending, store_dir);
		return;
	}
	if (cur[0] == '-') {
		if (cmd)
			complete_options(f, cur, cmd->options);
		/* after a command that takes a version, --version is refused (ctl/cli/parse.c) */
		int takes_version = cmd && (cmd->operand == OPERAND_VERSION || cmd->operand == OPERAND_RELEASE);
		for (const struct cli_option *g = cli_global_options; g->name; g++)
			if (!(takes_version && g->kind == OPT_VERSION) && !strncmp(g->name, cur, strlen(cur)))
				fprintf(f, "%s\n", g->name);
		return;
	}
	if (cmd && cmd->subs) {
		complete_subs(f, cur, cmd);
	} else if (help) {
		if (!cmd)
			complete_commands(f, p, cur, 0);
	} else if (!mesa) {
		static const char *const top[] = {"mesa", "help"};
		complete_words(f, cur, top, 2);
	} else if (!cmd) {
		complete_commands(f, p, cur, 1);
	} else if (operands == 0 && cmd->operand == OPERAND_VERSION) {
		complete_versions(f, cur, store_dir, cmd->removes_version);
	} else if (operands == 0 && cmd->operand == OPERAND_FILE) {
		fputs("@files\n", f);
	} else if (cmd->operand == OPERAND_DIR) {
		fputs("@dirs\n", f);
	} else if (operands == 1 && cmd->operand == OPERAND_APP_CHOICE) {
		static const char *const choices[] = {"current", "previous", "distro"};
		complete_words(f, cur, choices, 3);
		complete_versions(f, cur, store_dir, 0);
	}
}
