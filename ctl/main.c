/* tb323fu-ctl: parses the command line, runs one command, prints its outcome. */
#include "cli/cli.h"
#include "base/jsontext.h"
#include "cli/cli_access.h"
#include "cli/cli_progress.h"
#include "cli/cli_table.h"
#include "common/suggest.h"
#include "store/running.h"
#include "common/ident.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/text.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TB_IDENT_DEFINE("tb323fu-ctl");

struct globals {
	const char *store, *config, *progress;
	int json, wait;
};

/* Takes a global option at argv[*i]; 1 when it was one, -1 when its value is missing. */
static int take_global(struct globals *g, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const char **slot = !strcmp(a, "--store") ? &g->store
			    : !strcmp(a, "--config") ? &g->config
			    : !strcmp(a, "--progress") ? &g->progress : NULL;
	if (slot) {
		if (*i + 1 >= argc)
			return -1;
		*slot = argv[++*i];
		return 1;
	}
	if (!strncmp(a, "--store=", 8))
		return g->store = a + 8, 1;
	if (!strncmp(a, "--config=", 9))
		return g->config = a + 9, 1;
	if (!strncmp(a, "--progress=", 11))
		return g->progress = a + 11, 1;
	if (!strcmp(a, "--json"))
		return g->json = 1, 1;
	if (!strcmp(a, "--wait"))
		return g->wait = 1, 1;
	return 0;
}

/* Sentences for people: what a MANIFEST, a release list or a server said is shown, never
 * obeyed by the terminal. */
static void say(FILE *f, const char *prefix, const char *msg)
{
	char *shown = term_text(msg, 1);
	fprintf(f, "%s%s\n", prefix, shown);
	free(shown);
}

/* With --progress json stderr carries JSON lines only: the finished line has the sentence. */
static int print_outcome(const struct cli *c, struct outcome *o, int json_progress)
{
	const char *msg = o->message ? o->message : "";
	if (c->json) {
		if (!o->fields)
			o->fields = json_object_new_object();
		if (!o->fields_only || o->code) {
			json_object_object_add(o->fields, "ok", json_object_new_boolean(o->code == TB_OK));
			json_object_object_add(o->fields, "message", json_object_new_string(msg));
			if (o->code)
				json_object_object_add(o->fields, "reason",
						       json_object_new_string(o->reason ? o->reason : "failed"));
		}
		printf("%s\n", json_out(o->fields, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		if (o->code && !o->report && !json_progress)
			say(stderr, "tb323fu-ctl: ", msg);
	} else if (o->code == TB_OK || o->report) {
		if (*msg)
			say(stdout, "", msg);
	} else if (!json_progress) {
		say(stderr, "tb323fu-ctl: ", msg);
	}
	return o->code;
}

static void on_signal(int sig)
{
	tb_interrupted = sig;
}

/* A writer stops at its next step and cleans up (staging, partial files it cannot resume)
 * instead of dying mid-way; a second signal ends it at once (SA_RESETHAND). */
static void catch_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Called as tb323fu-ctl-mesa (the path a backend calls, docs/design.md §13) the tool is
 * `tb323fu-ctl mesa` without the word. */
static int called_as_mesa(const char *argv0)
{
	const char *base = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	return !strcmp(base, "tb323fu-ctl-mesa");
}

static int is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

static int print_version(void)
{
	printf("tb323fu-ctl %s\n", TB_VERSION);
	return 0;
}

/* How a usage error found while the command line is read is reported: --json and
 * --progress json anywhere on it count, as they would have for the command. */
static struct {
	int json, json_progress;
	const char *operation;
} early;

static void scan_output_options(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--json"))
			early.json = 1;
		else if (!strcmp(argv[i], "--progress=json") ||
			 (!strcmp(argv[i], "--progress") && i + 1 < argc && !strcmp(argv[i + 1], "json")))
			early.json_progress = 1;
	}
}

/* The sentence of a usage error: the JSON error object (reason usage) on stdout with --json,
 * the finished line with --progress json (then stderr carries JSON only), else text. */
static int usage_failed(const char *sentence)
{
	if (early.json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "ok", json_object_new_boolean(0));
		json_object_object_add(o, "message", json_object_new_string(sentence));
		json_object_object_add(o, "reason", json_object_new_string("usage"));
		printf("%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	if (early.json_progress) {
		cli_progress("json");
		cli_progress_finished(early.operation ? early.operation : "", TB_EUSAGE, "usage", sentence);
	} else {
		say(stderr, "tb323fu-ctl: ", sentence);
	}
	return TB_EUSAGE;
}

/* A usage error: one sentence, a "did you mean" when something is close, where to look. */
static int usage_error(const char *what, const char *word, const char *suggestion,
		       const char *help)
{
	/* a typed word may hold anything: say() shows it for terminals, json_out repairs it */
	char *m = xasprintf("%s \"%s\"%s%s%s (see %s)", what, word, suggestion ? "; did you mean \"" : "",
			    suggestion ? suggestion : "", suggestion ? "\"?" : "", help);
	usage_failed(m);
	free(m);
	return TB_EUSAGE;
}

static void missing_value(const char *option, const char *help)
{
	char *m = xasprintf("missing value for %s (see %s)", option, help);
	usage_failed(m);
	free(m);
}

static int unknown_command(const char *word)
{
	return usage_error("unknown command", word, cli_suggest_command(word),
			   "tb323fu-ctl mesa help");
}

/* `help [COMMAND]` at either level: words are what follows "help". */
static int help(int n, char **words)
{
	if (n > 0 && !strcmp(words[0], "mesa"))
		n--, words++;
	if (n == 0) {
		cli_help_top(stdout);
		return 0;
	}
	const struct cli_command *cmd = cli_command_find(words[0]);
	if (!cmd)
		return unknown_command(words[0]);
	cli_help_command(stdout, cmd);
	return 0;
}

/* Before `mesa`: a word that is neither a global option nor the command group. */
static int unknown_top_word(const char *word)
{
	static const struct { const char *name; } top[] = {{"mesa"}, {"help"}};
	if (word[0] == '-')
		return usage_error("unknown option", word, cli_suggest_option(NULL, word),
				   "tb323fu-ctl --help");
	if (cli_command_find(word)) {
		char *m = xasprintf("\"%s\" is a command of the mesa group: tb323fu-ctl mesa %s", word, word);
		usage_failed(m);
		free(m);
		return TB_EUSAGE;
	}
	return usage_error("unknown command", word, suggest_name(word, top, 2, sizeof *top),
			   "tb323fu-ctl --help");
}

/* An option the table does not know for cmd. A close one is surely a typo: refused here. A
 * far one is left to the command, which may know it; its usage error is then named for what
 * it is. Returns the word, or NULL when all are known. */
static const char *unknown_option(const struct cli_command *cmd, int n, char **args, int *typo)
{
	*typo = 0;
	for (int k = 1; k < n; k++) {
		if (!strcmp(args[k], "--"))
			break;
		if (args[k][0] != '-' || !args[k][1])
			continue;
		const struct cli_option *opt = cli_option_find(cmd->options, args[k]);
		if (opt) {
			k += opt->arg && !strchr(args[k], '=');
			continue;
		}
		const char *close = cli_suggest_option(cmd, args[k]);
		*typo = close != NULL;
		return args[k];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	catch_signals();
	scan_output_options(argc, argv);
	struct globals g = {.progress = "auto"};
	int i = 1, alias = argc > 0 && called_as_mesa(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "__complete")) {
		/* The bash completion's question: the words so far, the last one being typed. */
		cli_complete(stdout, argc - 2, argv + 2);
		return 0;
	}
	for (; !alias && i < argc && strcmp(argv[i], "mesa"); i++) {
		if (is_help(argv[i]))
			return cli_help_top(stdout), 0;
		if (!strcmp(argv[i], "--version"))
			return print_version();
		if (!strcmp(argv[i], "help"))
			return help(argc - i - 1, argv + i + 1);
		int r = take_global(&g, argc, argv, &i);
		if (r < 0) {
			missing_value(argv[i], "tb323fu-ctl --help");
			return TB_EUSAGE;
		}
		if (r == 0)
			return unknown_top_word(argv[i]);
	}
	if (!alias && i >= argc) {
		cli_help_top(stderr);
		return TB_EUSAGE;
	}
	if (!alias)
		i++; /* "mesa" */
	/* Global options may also come between `mesa` and the command. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (is_help(argv[i]))
			return cli_help_top(stdout), 0;
		if (!strcmp(argv[i], "--version"))
			return print_version();
		int r = take_global(&g, argc, argv, &i);
		if (r < 0) {
			missing_value(argv[i], "tb323fu-ctl --help");
			return TB_EUSAGE;
		}
		if (r == 0)
			return usage_error("unknown option", argv[i], cli_suggest_option(NULL, argv[i]),
					   "tb323fu-ctl --help");
	}
	const char *name = i < argc ? argv[i++] : "status";
	if (!strcmp(name, "help"))
		return help(argc - i, argv + i);
	const struct cli_command *cmd = cli_command_find(name);
	if (!cmd)
		return unknown_command(name);
	early.operation = name;
	/* Global options are also taken after the command (`mesa status --json`). */
	char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
	int n = 0;
	rest[n++] = (char *)name;
	for (int dashdash = 0; i < argc; i++) {
		if (!dashdash && is_help(argv[i])) {
			cli_help_command(stdout, cmd);
			free(rest);
			return 0;
		}
		if (!dashdash && !strcmp(argv[i], "--version") && !cli_option_find(cmd->options, argv[i])) {
			free(rest);
			return print_version();
		}
		int r = dashdash ? 0 : take_global(&g, argc, argv, &i);
		if (r < 0) {
			char see[128];
			snprintf(see, sizeof see, "tb323fu-ctl mesa help %s", name);
			missing_value(argv[i], see);
			free(rest);
			return TB_EUSAGE;
		}
		if (!r) {
			if (!strcmp(argv[i], "--"))
				dashdash = 1;
			rest[n++] = argv[i];
		}
	}
	int typo;
	const char *stranger = unknown_option(cmd, n, rest, &typo);
	char see[128];
	snprintf(see, sizeof see, "tb323fu-ctl mesa help %s", name);
	if (stranger && typo) {
		char what[96];
		snprintf(what, sizeof what, "unknown option for %s:", name);
		free(rest);
		return usage_error(what, stranger, cli_suggest_option(cmd, stranger), see);
	}
	if (strcmp(g.progress, "auto") && strcmp(g.progress, "bar") && strcmp(g.progress, "json") &&
	    strcmp(g.progress, "none")) {
		free(rest);
		return usage_failed("--progress takes auto, bar, json or none");
	}

	struct cli c = {.store_dir = g.store, .json = g.json, .wait = g.wait};
	c.progress = running_begin(name, cli_progress(g.progress));
	config_defaults(&c.cfg);
	struct outcome o = {0};
	struct tb_error e = {0};
	const char *conf = g.config ? g.config : getenv("TB323FU_MESA_CONFIG");
	int explicit_conf = conf && *conf;
	if (!explicit_conf)
		conf = TB_SYSCONFDIR "/tb323fu/mesa.conf";
	const char *helper_conf = getenv("TB323FU_CONFIG"); /* the helper's own override */
	if (cmd->writes && cli_writer_preflight(&c, n, rest, argc - 1, argv + 1, &o) >= 0) {
		; /* answered without touching the store */
	} else if (config_load(&c.cfg, conf, explicit_conf, &e)) {
		outcome_fail(&o, &e);
	} else {
		config_apply_helper_toml(&c.cfg, helper_conf && *helper_conf ? helper_conf
									    : TB_SYSCONFDIR "/tb323fu/helper.toml");
		if (c.cfg.helper_problem && strcmp(g.progress, "json"))
			say(stderr, "tb323fu-ctl: warning: ", c.cfg.helper_problem);
		o.code = cmd->fn(&c, n, rest, &o);
	}
	if (o.code == TB_EUSAGE && stranger) {
		/* The command did not know it either: name it for what it is. */
		outcome_say(&o, "unknown option for %s: \"%s\" (see %s)", name, stranger, see);
	} else if (o.code == TB_EUSAGE && o.message && !strstr(o.message, "help")) {
		char *m = xasprintf("%s (see %s)", o.message, see);
		free(o.message);
		o.message = m;
	}
	running_end(o.code, o.code ? o.reason : "", o.message);
	cli_progress_finished(name, o.code, o.reason, o.message);
	int rc = print_outcome(&c, &o, !strcmp(g.progress, "json"));
	json_object_put(o.fields);
	free(o.message);
	free(rest);
	config_free(&c.cfg);
	return rc;
}
