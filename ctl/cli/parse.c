/* The command line as the program's entries describe it (ctl/cli/parse.h). Every option is
 * taken as `--opt value` or `--opt=value`, its value checked by its kind and stored at its
 * target; a command's operand is checked once, here. */
#include "cli/parse.h"
#include "base/alloc.h"
#include "common/suggest.h"
#include "common/utf8.h"
#include "common/version_name.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DONE, GO_ON }; /* what a step leaves to do: the action is set, or read on */

static int fail(struct cli_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct cli_line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(l->error);
	l->error = xvasprintf(fmt, ap);
	va_end(ap);
	l->action = CLI_USAGE;
	return DONE;
}

/* A word from the command line as a sentence shows it: a long one is cut (a script's 100 kB
 * mistake is no help on stderr), never inside a character. */
enum { SHOWN_MAX = 80 };
static const char *shown(char buf[SHOWN_MAX + 4], const char *word)
{
	size_t n = strlen(word), keep = utf8_cut(word, n, SHOWN_MAX);
	snprintf(buf, SHOWN_MAX + 4, "%.*s%s", (int)keep, word, keep < n ? "..." : "");
	return buf;
}

/* A word that is not what was expected, with the nearest one when it is close. */
static int refuse(struct cli_line *l, const char *what, const char *word, const char *close,
		  const char *help)
{
	char buf[SHOWN_MAX + 4];
	return fail(l, "%s \"%s\"%s%s%s (see %s)", what, shown(buf, word), close ? "; did you mean \"" : "",
		    close ? close : "", close ? "\"?" : "", help);
}

static int is_choice(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *w = choices; *w; w += strcspn(w, "|"), w += *w == '|')
		if (strcspn(w, "|") == n && !strncmp(w, v, n))
			return 1;
	return 0;
}

/* "auto|bar|json" as "auto, bar or json". */
static char *choices_text(const char *choices)
{
	char *s = xstrdup(choices), *last = strrchr(s, '|');
	char *out = xstrdup("");
	for (char *w = strtok(s, "|"); w; w = strtok(NULL, "|")) {
		char *next = xasprintf("%s%s%s", out, !*out ? "" : last && w == last + 1 ? " or " : ", ", w);
		free(out);
		out = next;
	}
	free(s);
	return out;
}

/* Stores v (NULL for a flag) at opt's target in base, as its kind says. */
static int store_value(struct cli_line *l, const struct cli_option *opt, void *base,
		       const char *v, const char *help)
{
	char *at = (char *)base + opt->offset;
	if (opt->kind == OPT_HELP || opt->kind == OPT_VERSION) {
		l->action = opt->kind == OPT_HELP ? CLI_HELP : CLI_VERSION;
		return DONE;
	}
	if (opt->kind == OPT_FLAG) {
		*(int *)at = 1;
		if (opt->writes > 0 && !l->only_read)
			l->writer = 1;
		else if (opt->writes < 0)
			l->only_read = 1, l->writer = l->writes = 0;
		return GO_ON;
	}
	/* An empty value is never meant: it is what `--store="$S"` gives with S unset, and
	 * taking it for "the default" would act on the system's store instead. */
	if (!*v)
		return fail(l, "%s needs a %s, not an empty value (is the variable it came from set?) (see %s)",
			    opt->name, opt->arg, help);
	if (opt->kind == OPT_INT) {
		char *end;
		errno = 0;
		long n = strtol(v, &end, 10);
		char buf[SHOWN_MAX + 4];
		if (end == v || *end || errno || n < opt->min || n > opt->max)
			return fail(l, "%s wants a number from %d to %d, not \"%s\" (see %s)", opt->name,
				    opt->min, opt->max, shown(buf, v), help);
		*(int *)at = (int)n;
		return GO_ON;
	}
	if (opt->kind == OPT_CHOICE && !is_choice(opt->choices, v)) {
		char *words = choices_text(opt->choices), buf[SHOWN_MAX + 4];
		fail(l, "%s is %s, not \"%s\" (see %s)", opt->name, words, shown(buf, v), help);
		free(words);
		return DONE;
	}
	*(const char **)at = v;
	return GO_ON;
}

/* The long name of a short option: -h is --help, -q is --quiet. */
static const char *long_name(const char *w)
{
	if (!strcmp(w, "-h"))
		return "--help";
	if (!strcmp(w, "-q"))
		return "--quiet";
	return w;
}

/* The option at argv[*i] if list has it (*found), its value attached or the next word. */
static int take_option(struct cli_line *l, const struct cli_option *list, void *base, int argc,
		       char **argv, int *i, const char *help, int *found)
{
	const char *w = argv[*i], *eq = strchr(w, '=');
	const struct cli_option *opt = cli_option_find(list, long_name(w));
	*found = opt != NULL;
	if (!opt)
		return GO_ON;
	const char *v = NULL;
	if (opt->arg && eq)
		v = eq + 1;
	else if (opt->arg && *i + 1 >= argc)
		return fail(l, "missing value for %s (see %s)", opt->name, help);
	else if (opt->arg)
		v = argv[++*i];
	else if (eq)
		return fail(l, "%s takes no value (see %s)", opt->name, help);
	return store_value(l, opt, base, v, help);
}

/* The command of the group l->cmd that word names. */
static int take_sub(struct cli_line *l, const char *word)
{
	const struct cli_command *group = l->cmd, *sub = word ? cli_sub_find(group, word) : NULL;
	char help[64];
	snprintf(help, sizeof help, "tb323fu-ctl mesa help %s", group->name);
	if (sub) {
		l->cmd = sub;
		return GO_ON;
	}
	if (word && (!strcmp(word, "--help") || !strcmp(word, "-h"))) {
		l->action = CLI_HELP; /* the group's help */
		return DONE;
	}
	struct { const char *name; } words[16];
	size_t n = 0, skip = strlen(group->name) + 1;
	char list[128] = "";
	for (const struct cli_command *const *c = group->subs; *c && n < 16; c++) {
		words[n++].name = (*c)->name + skip;
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n > 1 ? "|" : "",
			 (*c)->name + skip);
	}
	if (!word) {
		char *text = choices_text(list);
		fail(l, "%s needs one of its commands: %s (see %s)", group->name, text, help);
		free(text);
		return DONE;
	}
	char what[64];
	snprintf(what, sizeof what, "unknown %s command", group->name);
	return refuse(l, what, word, suggest_name(word, words, n, sizeof *words), help);
}

/* `help [mesa] [COMMAND]`: words are what follows "help". */
static int help_words(const struct cli_program *p, struct cli_line *l, int n, char **all)
{
	/* --json anywhere asks for the help as one JSON object (ctl/main.c); a leading "mesa"
	 * is the group's name. Only the first two words name something. */
	char *words[2];
	int k = 0;
	for (int i = 0; i < n && k < 2; i++)
		if (strcmp(all[i], "--json") && (k || i || strcmp(all[i], "mesa")))
			words[k++] = all[i];
	l->action = CLI_HELP;
	if (k == 0)
		return DONE;
	l->cmd = cli_command_find(p, words[0]);
	if (!l->cmd)
		return refuse(l, "unknown command", words[0], cli_suggest_command(p, words[0]),
			      "tb323fu-ctl mesa help");
	if (l->cmd->subs && k > 1)
		take_sub(l, words[1]);
	return DONE;
}

/* Before `mesa`: a word that is neither a global option nor the command group. */
static int unknown_top_word(const struct cli_program *p, struct cli_line *l, const char *word)
{
	static const struct { const char *name; } top[] = {{"mesa"}, {"help"}};
	if (word[0] == '-')
		return refuse(l, "unknown option", word, cli_suggest_option(NULL, word),
			      "tb323fu-ctl --help");
	if (cli_command_find(p, word))
		return fail(l, "\"%s\" is a command of the mesa group: tb323fu-ctl mesa %s", word, word);
	return refuse(l, "unknown command", word, suggest_name(word, top, 2, sizeof *top),
		      "tb323fu-ctl --help");
}

/* The global options before `mesa` (before_group) or between it and the command; *i stops
 * at the word after them. */
static int take_globals(const struct cli_program *p, struct cli_line *l, int argc, char **argv,
			int *i, int before_group)
{
	for (; *i < argc; ++*i) {
		const char *w = argv[*i];
		if (before_group ? !strcmp(w, "mesa") || !strcmp(w, "help") : w[0] != '-')
			return GO_ON;
		int found;
		if (take_option(l, cli_global_options, &l->g, argc, argv, i, "tb323fu-ctl --help",
				&found) == DONE)
			return DONE;
		if (!found)
			return before_group ? unknown_top_word(p, l, w)
					    : refuse(l, "unknown option", w, cli_suggest_option(NULL, w),
						     "tb323fu-ctl --help");
	}
	return GO_ON;
}

/* A usage error of the command, with where its usage is explained. */
static int command_fail(struct cli_line *l, const char *sentence)
{
	return fail(l, "%s (see tb323fu-ctl mesa help %s)", sentence, l->cmd->name);
}

/* How many operands cmd takes: app set's two (the application, its choice), else one. */
static int operand_slots(const struct cli_command *cmd)
{
	return cmd->operand == OPERAND_NONE ? 0 : cmd->operand == OPERAND_APP_CHOICE ? 2 : 1;
}

static const char **operand_slot(struct cli_line *l, int k)
{
	return (const char **)((char *)l->opts + l->cmd->operand_at) + k;
}

static int take_operand(struct cli_line *l, const char *w)
{
	const struct cli_command *cmd = l->cmd;
	char *m = NULL, buf[SHOWN_MAX + 4];
	int k = 0, slots = operand_slots(cmd);
	while (k < slots - 1 && *operand_slot(l, k))
		k++;
	const char **slot = operand_slot(l, k);
	if (cmd->operand == OPERAND_NONE)
		m = xasprintf("%s takes no arguments (usage: tb323fu-ctl mesa %s)", cmd->name, cmd->name);
	else if (*slot)
		m = xasprintf("unexpected argument \"%s\" (usage: tb323fu-ctl mesa %s %s)", shown(buf, w), cmd->name,
			      cmd->args);
	else if ((cmd->operand == OPERAND_VERSION || cmd->operand == OPERAND_RELEASE) &&
		 !version_name_ok(w))
		m = xasprintf("\"%.80s\" is not a Mesa version (like 2026.10.06)", w);
	if (!m) {
		*slot = w;
		return GO_ON;
	}
	command_fail(l, m);
	free(m);
	return DONE;
}

/* After a command that takes a version, --version would print the program's version and
 * exit 0 as if the command had run and passed: it is refused, naming the command line meant. */
static int version_option_refused(struct cli_line *l, int argc, char **argv, int i)
{
	const struct cli_command *cmd = l->cmd;
	const struct cli_option *opt = cli_option_find(cli_global_options, argv[i]);
	if (!opt || opt->kind != OPT_VERSION || cli_option_find(cmd->options, argv[i]) ||
	    (cmd->operand != OPERAND_VERSION && cmd->operand != OPERAND_RELEASE))
		return GO_ON;
	const char *eq = strchr(argv[i], '='), *next = eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : "";
	const char *v = version_name_ok(next) ? next : "VERSION";
	return fail(l, "%s has no --version option; it did not run: name the version as its argument, `tb323fu-ctl mesa %s %s` (`tb323fu-ctl --version` prints this program's version)",
		    cmd->name, cmd->name, v);
}

/* The command's options, the global ones and its operand, in any order. */
static void take_command_words(struct cli_line *l, int argc, char **argv, int i)
{
	const struct cli_command *cmd = l->cmd;
	char help[128];
	snprintf(help, sizeof help, "tb323fu-ctl mesa help %s", cmd->name);
	l->writer = cmd->open == OPEN_WRITER;
	l->writes = cmd->writes;
	for (int dashdash = 0; i < argc; i++) {
		const char *w = argv[i];
		int found = 0;
		if (!dashdash && !strcmp(w, "--")) {
			dashdash = 1;
		} else if (dashdash || w[0] != '-' || !w[1]) {
			if (take_operand(l, w) == DONE)
				return;
		} else if (version_option_refused(l, argc, argv, i) == DONE ||
			   take_option(l, cmd->options, l->opts, argc, argv, &i, help, &found) == DONE ||
			   (!found && take_option(l, cli_global_options, &l->g, argc, argv, &i, help,
						  &found) == DONE)) {
			return;
		} else if (!found) {
			char what[96];
			snprintf(what, sizeof what, "unknown option for %s:", cmd->name);
			refuse(l, what, w, cli_suggest_option(cmd, w), help);
			return;
		}
	}
	if (cmd->operand_required && !*operand_slot(l, cmd->operand_required - 1)) {
		char *m = xasprintf("usage: tb323fu-ctl mesa %s %s", cmd->name, cmd->args);
		command_fail(l, m);
		free(m);
	}
}

/* Called as tb323fu-ctl-mesa (the path a backend calls, docs/design.md §13) the tool is
 * `tb323fu-ctl mesa` without the word. */
static int called_as_mesa(int argc, char **argv)
{
	const char *base = argc > 0 && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
			   : argc > 0 ? argv[0] : "";
	return !strcmp(base, "tb323fu-ctl-mesa");
}

void cli_parse(const struct cli_program *p, int argc, char **argv, struct cli_line *l)
{
	memset(l, 0, sizeof *l);
	l->g.progress = "auto";
	l->action = CLI_RUN;
	int i = 1;
	if (!called_as_mesa(argc, argv)) {
		if (take_globals(p, l, argc, argv, &i, 1) == DONE)
			return;
		if (i < argc && !strcmp(argv[i], "help")) {
			help_words(p, l, argc - i - 1, argv + i + 1);
			return;
		}
		if (i >= argc) {
			l->action = CLI_NO_COMMAND;
			return;
		}
		i++; /* "mesa" */
	}
	if (take_globals(p, l, argc, argv, &i, 0) == DONE)
		return;
	const char *name = i < argc ? argv[i++] : "status";
	if (!strcmp(name, "help")) {
		help_words(p, l, argc - i, argv + i);
		return;
	}
	l->cmd = cli_command_find(p, name);
	if (!l->cmd) {
		refuse(l, "unknown command", name, cli_suggest_command(p, name), "tb323fu-ctl mesa help");
		return;
	}
	if (l->cmd->subs && take_sub(l, i < argc ? argv[i++] : NULL) == DONE)
		return;
	l->opts = xcalloc(1, l->cmd->opts_size ? l->cmd->opts_size : 1);
	take_command_words(l, argc, argv, i);
}

void cli_line_free(struct cli_line *l)
{
	free(l->error);
	l->error = NULL;
	free(l->opts);
	l->opts = NULL;
}
