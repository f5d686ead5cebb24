/* tb323fu-ctl: parses the command line, runs one command, prints its outcome. */
#include "cli.h"
#include "cli_progress.h"
#include "running.h"
#include "../tb323fu-mesa/ident.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	command_fn fn;
} commands[] = {
	{"status", cmd_status},   {"list", cmd_list},         {"check", cmd_check},
	{"download", cmd_download}, {"install", cmd_install}, {"update", cmd_update},
	{"install-local", cmd_install_local}, {"on", cmd_on},  {"off", cmd_off},
	{"keep", cmd_keep},       {"rollback", cmd_rollback}, {"boot-tick", cmd_boot_tick},
	{"remove", cmd_remove},   {"verify", cmd_verify},     {"smoke", cmd_smoke},
	{"doctor", cmd_doctor},   {"pack", cmd_pack},       {"bench", cmd_bench},
	{"notes", cmd_notes},     {"takeover", cmd_takeover}, {"auto-check", cmd_auto_check},
};

static const char usage[] =
	"usage: tb323fu-ctl [--store DIR] [--config FILE] [--json] [--progress auto|bar|json|none] [--wait] mesa COMMAND [ARGS]\n"
	"commands: status list check download install update install-local on off keep rollback\n"
	"          boot-tick remove verify smoke bench doctor pack notes takeover auto-check\n";

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
		printf("%s\n", json_object_to_json_string_ext(o->fields, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		if (o->code && !json_progress)
			say(stderr, "tb323fu-ctl: ", msg);
	} else if (o->code == TB_OK) {
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

int main(int argc, char **argv)
{
	catch_signals();
	struct globals g = {.progress = "auto"};
	int i = 1, alias = argc > 0 && called_as_mesa(argv[0]);
	for (; i < argc && strcmp(argv[i], "mesa"); i++) {
		int r = take_global(&g, argc, argv, &i);
		if (!r && alias && argv[i][0] != '-')
			break; /* the command */
		if (r <= 0) {
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
				fputs(usage, stdout);
				return 0;
			}
			char *shown = term_text(argv[i], 0);
			fprintf(stderr, "tb323fu-ctl: %s: %s\n%s", r < 0 ? "missing value for" : "unknown option",
				shown, usage);
			free(shown);
			return TB_EUSAGE;
		}
	}
	if (i >= argc && !alias) {
		fputs(usage, stderr);
		return TB_EUSAGE;
	}
	if (!alias)
		i++; /* "mesa" */
	const char *name = i < argc ? argv[i++] : "status";
	/* Global options are also taken after the command (`mesa status --json`). */
	char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
	int n = 0;
	rest[n++] = (char *)name;
	for (int dashdash = 0; i < argc; i++) {
		int r = dashdash ? 0 : take_global(&g, argc, argv, &i);
		if (r < 0) {
			char *shown = term_text(argv[i], 0);
			fprintf(stderr, "tb323fu-ctl: missing value for %s\n", shown);
			free(shown);
			return TB_EUSAGE;
		}
		if (!r) {
			if (!strcmp(argv[i], "--"))
				dashdash = 1;
			rest[n++] = argv[i];
		}
	}
	command_fn fn = NULL;
	for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
		if (!strcmp(commands[k].name, name))
			fn = commands[k].fn;
	if (!fn) {
		char *shown = term_text(name, 0);
		fprintf(stderr, "tb323fu-ctl: unknown command \"%s\"\n%s", shown, usage);
		free(shown);
		return TB_EUSAGE;
	}
	if (strcmp(g.progress, "auto") && strcmp(g.progress, "bar") && strcmp(g.progress, "json") &&
	    strcmp(g.progress, "none")) {
		fprintf(stderr, "tb323fu-ctl: --progress takes auto, bar, json or none\n");
		return TB_EUSAGE;
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
	if (config_load(&c.cfg, conf, explicit_conf, &e)) {
		outcome_fail(&o, &e);
	} else {
		config_apply_helper_toml(&c.cfg, helper_conf && *helper_conf ? helper_conf
									    : TB_SYSCONFDIR "/tb323fu/helper.toml");
		o.code = fn(&c, n, rest, &o);
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
