/* tb323fu-ctl: reads the command line (ctl/cli/parse.c), runs one command on the store it
 * needs, prints its outcome. */
#include "cli/cli.h"
#include "base/jsontext.h"
#include "cli/cli_access.h"
#include "cli/cli_hints.h"
#include "cli/cli_state_first.h"
#include "cli/cli_progress.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cli/parse.h"
#include "cli/session.h"
#include "helper/helper_toml.h"
#include "common/suggest.h"
#include "store/running.h"
#include "common/storepath.h"
#include "common/ident.h"
#include "base/error.h"
#include "base/lazylib.h"
#include "base/alloc.h"
#include "base/text.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TB_IDENT_DEFINE("tb323fu-ctl");

/* Every command, in the order of docs/design.md §5: help lists them as they are here. Each
 * entry is written beside its body (ctl/cmd/NAME.c). */
static const struct cli_command *const commands[] = {
	&status_command, &list_command,  &check_command,     &download_command,   &install_command,
	&update_command, &install_local_command, &on_command, &off_command,       &keep_command,
	&rollback_command, &boot_tick_command, &remove_command, &forget_command, &verify_command, &smoke_command,
	&bench_command,  &doctor_command, &notes_command,    &takeover_command,   &auto_check_command,
	&app_command,    &flatpak_command, &crashes_command, &pack_command, &bisect_command,
	&cts_command,
};
static const struct cli_program program = {commands, sizeof commands / sizeof *commands};

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
		/* One shape (docs/design.md §12): ok, message and, on failure, reason. status
		 * keeps §9's message (the last finished operation's sentence) when it answers. */
		json_object_object_add(o->fields, "ok", json_object_new_boolean(o->code == TB_OK));
		if (!o->fields_only || o->code || !json_object_object_get_ex(o->fields, "message", NULL))
			json_object_object_add(o->fields, "message", json_object_new_string(msg));
		if (o->code)
			json_object_object_add(o->fields, "reason",
					       json_object_new_string(tb_reason_id(o->reason)));
		printf("%s\n", json_out(o->fields, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		if (o->code && !o->report && !json_progress)
			say(stderr, "tb323fu-ctl: ", msg);
	} else if (o->code == TB_OK || o->report) {
		if (*msg && !(c->quiet && o->code == TB_OK))
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
 * instead of dying mid-way, and says in one sentence what state it left. However many
 * signals arrive (a double Ctrl-C, `timeout -s INT` to the process group), the second in a
 * row is not a new event: the handler stays, so no signal kills it silently half way. A
 * running child (a bisect step) is stopped at once by the second (gputest/child.h). */
static void catch_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The answer of --version and help with --json: one object, ok and message, as every
 * command's (docs/design.md §12); text is what the plain form prints. */
static void print_text_json(const char *text, const char *key, const char *value)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "message", json_object_new_string(text));
	json_object_object_add(o, key, json_object_new_string(value));
	printf("%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int print_version(int json)
{
	if (!json) {
		printf("tb323fu-ctl %s\n", TB_VERSION);
		return 0;
	}
	char *text = xasprintf("tb323fu-ctl %s", TB_VERSION);
	print_text_json(text, "version", TB_VERSION);
	free(text);
	return 0;
}

/* help [COMMAND]: the text, or with --json that text as the message of one object whose
 * "command" names what it is about ("" for the program). */
static void print_help(const struct cli_program *p, const struct cli_command *cmd, int json)
{
	if (!json) {
		if (cmd)
			cli_help_command(stdout, cmd);
		else
			cli_help_top(stdout, p);
		return;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	if (cmd)
		cli_help_command(f, cmd);
	else
		cli_help_top(f, p);
	fclose(f);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	print_text_json(text, "command", cmd ? cmd->name : "");
	free(text);
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
/* With --json: a failure found before the command ran, as its one JSON object on stdout. */
static void early_json_failure(const char *sentence, enum tb_reason reason)
{
	if (!early.json)
		return;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(o, "message", json_object_new_string(sentence));
	json_object_object_add(o, "reason", json_object_new_string(tb_reason_id(reason)));
	printf("%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int usage_failed(const char *sentence)
{
	early_json_failure(sentence, TB_R_USAGE);
	if (early.json_progress) {
		cli_progress("json");
		cli_progress_finished(early.operation ? early.operation : "", tb_reason_code(TB_R_USAGE),
				      TB_R_USAGE, sentence);
	} else {
		say(stderr, "tb323fu-ctl: ", sentence);
	}
	return TB_EUSAGE;
}

/* A library loaded on first use that cannot be loaded ends the command (exit 127, ctl/base/
 * lazylib.h): said as every failure is, one JSON object with --json, the finished line with
 * --progress json, and recorded as the store's last operation. */
static void library_failed(const char *sentence)
{
	enum tb_reason r = TB_R_LIBRARY_MISSING;
	running_end(tb_reason_code(r), tb_reason_id(r), sentence);
	early_json_failure(sentence, r);
	if (early.json_progress)
		cli_progress_finished(early.operation ? early.operation : "", tb_reason_code(r), r, sentence);
	else
		say(stderr, "tb323fu-ctl: ", sentence);
	fflush(stdout);
	fflush(stderr);
}

/* The configuration, before anything answers (a version's argument error says what the
 * configured channel offers); nonzero with o failed when it cannot be read. */
static int load_config(struct cli *c, const struct cli_line *l, struct outcome *o)
{
	struct tb_error e = {0};
	const char *conf = l->g.config ? l->g.config : getenv("TB323FU_MESA_CONFIG");
	int explicit_conf = conf && *conf;
	if (!explicit_conf)
		conf = TB_SYSCONFDIR "/tb323fu/mesa.conf";
	const char *helper_conf = getenv("TB323FU_CONFIG"); /* the helper's own override */
	if (config_load(&c->cfg, conf, explicit_conf, &e)) {
		outcome_fail(o, &e);
		return 1;
	}
	config_apply_helper_toml(&c->cfg, helper_conf && *helper_conf ? helper_conf
								  : TB_SYSCONFDIR "/tb323fu/helper.toml");
	if (c->cfg.helper_problem && strcmp(l->g.progress, "json"))
		say(stderr, "tb323fu-ctl: warning: ", c->cfg.helper_problem);
	return 0;
}

/* The command body with its store: s as the state's answer left it (open as a reader, or
 * closed), opened as the entry (and the options) say. */
static void run_body(struct cli *c, const struct cli_line *l, struct store *s, struct outcome *o)
{
	struct tb_error e = {0};
	int none = l->cmd->open == OPEN_NONE;
	if (none || session_open(s, c->store_root, l->writer, c->wait, &e) == TB_OK)
		o->code = l->cmd->run(c, l->opts, none ? NULL : s, o);
	else
		outcome_fail(o, &e);
	pin_release(&c->pin); /* a reader's pin, before the store goes */
}

static int run(const struct cli_line *l, int argc, char **argv)
{
	const char *name = l->cmd->name;
	/* the store this command acts on, worked out here once (docs/design.md §3) */
	struct cli c = {.store_root = store_root(l->g.store), .store_option = l->g.store,
			.json = l->g.json, .wait = l->g.wait, .quiet = l->g.quiet,
			.pin = {.lock_fd = -1, .holder_fd = -1}, .name = name};
	struct store s = {.lock_fd = -1}; /* opened once, by the state's answer or the body */
	/* -q silences progress for people; --progress json is a protocol, not progress */
	const char *mode = l->g.quiet && strcmp(l->g.progress, "json") ? "none" : l->g.progress;
	c.progress = running_begin(name, cli_progress(mode));
	config_defaults(&c.cfg);
	struct outcome o = {0};
	if (l->cmd->check && l->cmd->check(l->opts, &o))
		; /* a usage error between its options */
	else if (load_config(&c, l, &o))
		; /* mesa.conf cannot be read */
	else if ((l->writes || l->writer) && cli_state_first(&c, l->cmd, l->opts, &s, &o) >= 0)
		; /* the state answers: nothing to change, or no store there */
	else if (l->writes && cli_writer_preflight(&c, name, argc - 1, argv + 1, &o) >= 0)
		; /* answered without touching the store */
	else
		run_body(&c, l, &s, &o);
	store_close(&s);
	/* a failure's exit code is its reason's, from the one table (docs/design.md §9) */
	if (o.code)
		o.code = tb_reason_code(o.reason) ? tb_reason_code(o.reason) : TB_EFAIL;
	/* a usage error points at the command's help, unless it names where to look already */
	if (o.code == TB_EUSAGE && o.message && !strstr(o.message, "help") && !strstr(o.message, "(man ")) {
		char *m = xasprintf("%s (see tb323fu-ctl mesa help %s)", o.message, name);
		free(o.message);
		o.message = m;
	}
	/* every command a sentence names keeps the store and configuration given */
	char *kept = cli_hints_keep(o.message, l->g.store, l->g.config);
	if (kept) {
		free(o.message);
		o.message = kept;
	}
	cli_hints_keep_json(o.fields, l->g.store, l->g.config);
	running_end(o.code, o.code ? tb_reason_id(o.reason) : "", o.message);
	cli_progress_finished(name, o.code, o.reason, o.message);
	int rc = print_outcome(&c, &o, !strcmp(l->g.progress, "json"));
	json_object_put(o.fields);
	free(o.message);
	config_free(&c.cfg);
	return rc;
}

int main(int argc, char **argv)
{
	catch_signals();
	scan_output_options(argc, argv);
	lazylib_fatal = library_failed;
	if (argc > 1 && !strcmp(argv[1], "__complete")) {
		/* The bash completion's question: the words so far, the last one being typed. */
		cli_complete(stdout, &program, argc - 2, argv + 2);
		return 0;
	}
	struct cli_line l;
	cli_parse(&program, argc, argv, &l);
	early.operation = l.cmd ? l.cmd->name : NULL;
	int rc = 0;
	if (l.action == CLI_HELP)
		print_help(&program, l.cmd, early.json);
	else if (l.action == CLI_VERSION)
		rc = print_version(early.json);
	else if (l.action == CLI_NO_COMMAND && early.json)
		rc = usage_failed("no command given: name one (tb323fu-ctl mesa help lists them)");
	else if (l.action == CLI_NO_COMMAND)
		cli_help_top(stderr, &program), rc = TB_EUSAGE;
	else if (l.action == CLI_USAGE)
		rc = usage_failed(l.error);
	else
		rc = run(&l, argc, argv);
	cli_line_free(&l);
	return rc;
}
