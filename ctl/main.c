/* tb323fu-ctl: parses the command line, runs one command, prints its outcome. */
#include "cli.h"
#include "cli_progress.h"

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
};

static const char usage[] =
	"usage: tb323fu-ctl [--store DIR] [--config FILE] [--json] [--progress auto|bar|json|none] [--wait] mesa COMMAND [ARGS]\n"
	"commands: status list check download install update install-local on off keep rollback\n"
	"          boot-tick remove verify smoke bench doctor pack\n";

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

static int print_outcome(const struct cli *c, struct outcome *o)
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
		if (o->code)
			fprintf(stderr, "tb323fu-ctl: %s\n", msg);
	} else if (o->code == TB_OK) {
		if (*msg)
			printf("%s\n", msg);
	} else {
		fprintf(stderr, "tb323fu-ctl: %s\n", msg);
	}
	return o->code;
}

int main(int argc, char **argv)
{
	struct globals g = {.progress = "auto"};
	int i = 1;
	for (; i < argc && strcmp(argv[i], "mesa"); i++) {
		int r = take_global(&g, argc, argv, &i);
		if (r <= 0) {
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
				fputs(usage, stdout);
				return 0;
			}
			fprintf(stderr, "tb323fu-ctl: %s: %s\n%s", r < 0 ? "missing value for" : "unknown option",
				argv[i], usage);
			return TB_EUSAGE;
		}
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return TB_EUSAGE;
	}
	i++; /* "mesa" */
	const char *name = i < argc ? argv[i++] : "status";
	/* Global options are also taken after the command (`mesa status --json`). */
	char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
	int n = 0;
	rest[n++] = (char *)name;
	for (int dashdash = 0; i < argc; i++) {
		int r = dashdash ? 0 : take_global(&g, argc, argv, &i);
		if (r < 0) {
			fprintf(stderr, "tb323fu-ctl: missing value for %s\n", argv[i]);
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
		fprintf(stderr, "tb323fu-ctl: unknown command \"%s\"\n%s", name, usage);
		return TB_EUSAGE;
	}
	if (strcmp(g.progress, "auto") && strcmp(g.progress, "bar") && strcmp(g.progress, "json") &&
	    strcmp(g.progress, "none")) {
		fprintf(stderr, "tb323fu-ctl: --progress takes auto, bar, json or none\n");
		return TB_EUSAGE;
	}

	struct cli c = {.store_dir = g.store, .json = g.json, .wait = g.wait};
	c.progress = cli_progress(g.progress);
	config_defaults(&c.cfg);
	struct outcome o = {0};
	struct tb_error e = {0};
	const char *conf = g.config ? g.config : getenv("TB323FU_MESA_CONFIG");
	int explicit_conf = conf && *conf;
	if (!explicit_conf)
		conf = TB_SYSCONFDIR "/tb323fu/mesa.conf";
	if (config_load(&c.cfg, conf, explicit_conf, &e))
		outcome_fail(&o, &e);
	else
		o.code = fn(&c, n, rest, &o);
	int rc = print_outcome(&c, &o);
	json_object_put(o.fields);
	free(o.message);
	free(rest);
	config_free(&c.cfg);
	return rc;
}
