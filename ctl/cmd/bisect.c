/* tb323fu-ctl mesa bisect [--good V] [--bad W] (--command CMD | --case NAME) [--keep]: the first
 * bad version between a good and a bad one, git bisect run's way (docs/design.md §13). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_hints.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "bisect/bisect.h"
#include "gputest/bench.h"
#include "gputest/bench_stats.h"
#include "gputest/deqp_cases.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "common/version_name.h"
#include "common/smoketests.h"

struct bisect_opts {
	const char *good, *bad, *command, *test_case, *tests;
	int keep, bench, rounds;
};

static const char *verdict_word(const struct bisect_step *st)
{
	if (st->stopped)
		return "stopped";
	return st->verdict == BISECT_GOOD ? "good" : st->verdict == BISECT_BAD ? "bad" : "skipped";
}

/* The last lines a step printed shown under its line, at most this many. */
#define SHOWN_LINES 5

/* "Mesa 2026.10.04: bad (exit 1, 0.4 s, fetched)" */
static char *step_line(const struct bisect_step *st)
{
	struct strbuf sb = {0};
	sb_appendf(&sb, "Mesa %s: %s (", st->version, verdict_word(st));
	if (st->benched) /* its ratio, interval and bench's verdict say it all */
		sb_appendf(&sb, "%s", st->why);
	else if (st->code >= 0)
		sb_appendf(&sb, "exit %d, %.1f s", st->code, st->seconds);
	if (*st->why && !st->benched)
		sb_appendf(&sb, "%s%s", st->code >= 0 ? "; " : "", st->why);
	sb_appendf(&sb, "%s)", st->fetched ? ", fetched for this bisect" : "");
	char *out = xstrdup(sb.buf);
	sb_free(&sb);
	return out;
}

/* A line shown as the program's or the release's words: never obeyed by the terminal. */
static void show_line(const char *prefix, const char *text, size_t n)
{
	char *line = xasprintf("%.*s", (int)n, text);
	char *shown = term_text(line, 0);
	printf("%s%s\n", prefix, shown);
	free(shown);
	free(line);
}

static void say_step(void *ctx, const struct bisect_step *st)
{
	if (!cli_tables(ctx))
		return;
	char *line = step_line(st);
	show_line("", line, strlen(line));
	free(line);
	if (st->benched) /* its figures, both versions' in turn: in the log, not here */
		return;
	/* the last lines it printed, indented under it */
	const char *from = st->output + strlen(st->output);
	for (int lines = 0; from > st->output; from--)
		if (from[-1] == '\n' && ++lines == SHOWN_LINES)
			break;
	for (const char *p = from; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		show_line("    | ", p, n);
		p += n + (nl != NULL);
	}
	fflush(stdout);
}

static json_object *steps_json(const struct bisect_result *r)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct bisect_step *st = &r->steps[i];
		json_object *j = json_object_new_object();
		json_object_object_add(j, "version", json_object_new_string(st->version));
		json_object_object_add(j, "code", st->code >= 0 ? json_object_new_int(st->code) : NULL);
		json_object_object_add(j, "seconds", json_object_new_double(st->seconds));
		json_object_object_add(j, "verdict", json_object_new_string(verdict_word(st)));
		json_object_object_add(j, "fetched", json_object_new_boolean(st->fetched));
		json_object_object_add(j, "why", json_object_new_string(st->why));
		json_object_object_add(j, "output", json_object_new_string(st->output));
		if (st->benched) { /* --bench: against the good end */
			json_object_object_add(j, "ratio", json_object_new_double(st->ratio));
			json_object *iv = NULL;
			if (st->has_interval) {
				iv = json_object_new_array();
				json_object_array_add(iv, json_object_new_double(st->low));
				json_object_array_add(iv, json_object_new_double(st->high));
			}
			json_object_object_add(j, "interval", iv);
			json_object_object_add(j, "bench_verdict", json_object_new_string(st->bench_verdict));
			json_object_object_add(j, "rounds", json_object_new_int(st->rounds));
		}
		json_object_array_add(a, j);
	}
	return a;
}

static json_object *build_json(const struct bisect_build *b)
{
	json_object *j = json_object_new_object();
	json_object_object_add(j, "version", json_object_new_string(b->version));
	json_object_object_add(j, "mesa_version", json_object_new_string(b->mesa_version));
	json_object_object_add(j, "commit", json_object_new_string(b->commit));
	return j;
}

static const char *list_word(enum bisect_list l)
{
	return l == BISECT_LIST_CACHED ? "cached" : l == BISECT_LIST_FETCHED ? "fetched" : "none";
}

static void add_fields(struct outcome *o, const struct bisect_result *r)
{
	outcome_str(o, "good", r->good);
	outcome_str(o, "bad", r->bad);
	outcome_str(o, "first_bad", r->found ? r->at_bad : "");
	outcome_str(o, "last_good", r->found ? r->at_good : "");
	json_object *skipped = json_object_new_array();
	for (size_t i = 0; i < r->n_skipped; i++)
		json_object_array_add(skipped, json_object_new_string(r->skipped[i]));
	json_object_object_add(o->fields, "skipped", skipped);
	json_object_object_add(o->fields, "steps", steps_json(r));
	outcome_int(o, "runs", (int64_t)r->n_steps);
	outcome_str(o, "release_list", list_word(r->list));
	outcome_str(o, "log", r->log ? r->log : "");
	if (!r->found)
		return;
	json_object *changes = json_object_new_object();
	json_object_object_add(changes, "last_good", build_json(&r->last_good));
	json_object_object_add(changes, "first_bad", build_json(&r->first_bad));
	json_object *notes = json_object_new_array();
	for (size_t i = 0; i < r->n_notes; i++) {
		json_object *n = json_object_new_object();
		json_object_object_add(n, "version", json_object_new_string(r->notes[i].version));
		json_object_object_add(n, "notes", json_object_new_string(r->notes[i].notes));
		json_object_object_add(n, "url", json_object_new_string(r->notes[i].url));
		json_object_array_add(notes, n);
	}
	json_object_object_add(changes, "notes", notes);
	json_object_object_add(o->fields, "changes", changes);
	outcome_str(o, "kept", r->kept ? r->kept : "");
}

static void build_text(struct strbuf *sb, const char *word, const struct bisect_build *b)
{
	sb_appendf(sb, "\n%s: %s, built from Mesa %s, upstream commit %s", word, b->version,
		   *b->mesa_version ? b->mesa_version : "(not recorded)", *b->commit ? b->commit : "(not recorded)");
}

/* --bench: the step of version, or NULL. */
static const struct bisect_step *step_of(const struct bisect_result *r, const char *version)
{
	for (size_t i = r->n_steps; i-- > 0;)
		if (!strcmp(r->steps[i].version, version))
			return &r->steps[i];
	return NULL;
}

static void say_found(struct outcome *o, const struct bisect_result *r)
{
	struct strbuf sb = {0};
	const struct bisect_step *slower = step_of(r, r->at_bad);
	if (slower && slower->benched) {
		/* by how much, against the good end */
		sb_appendf(&sb, "Mesa %s is the first slower version%s, Mesa %s the last good one: %.2fx Mesa %s",
			   r->at_bad, r->skipped_between ? " or one of the skipped before it" : "", r->at_good,
			   slower->ratio, r->good);
		if (slower->has_interval)
			sb_appendf(&sb, " (95 %% interval %.2fx-%.2fx, beyond the %s noise floor)", slower->low, slower->high,
				   BENCH_NOISE_FLOOR_TEXT);
		outcome_int(o, "slower_percent", (int64_t)lround((1 - slower->ratio) * 100));
		json_object_object_add(o->fields, "slower_ratio", json_object_new_double(slower->ratio));
	} else if (r->skipped_between)
		sb_appendf(&sb, "Mesa %s is the first bad version or %zu skipped before it %s; Mesa %s is the last good one",
			   r->at_bad, r->skipped_between, r->skipped_between == 1 ? "is" : "are", r->at_good);
	else
		sb_appendf(&sb, "Mesa %s is the first bad version, Mesa %s the last good one", r->at_bad, r->at_good);
	sb_appendf(&sb, " (%zu run%s over %zu versions", r->n_steps, r->n_steps == 1 ? "" : "s", r->n_range);
	if (r->n_skipped) {
		sb_append(&sb, "; skipped:");
		for (size_t i = 0; i < r->n_skipped; i++)
			sb_appendf(&sb, "%s %s", i ? "," : "", r->skipped[i]);
	}
	if (r->list == BISECT_LIST_FETCHED)
		sb_append(&sb, "; no release list was cached, so bisect fetched it");
	sb_append(&sb, ")");
	if (r->list == BISECT_LIST_NONE)
		sb_appendf(&sb, "; among the installed versions only: no release list is cached and fetching it failed (%s), so versions the channel may offer between them were not tested; `tb323fu-ctl mesa list --available` fetches the list and shows them",
			   r->list_error ? r->list_error : "");
	if (r->log)
		sb_appendf(&sb, "\nevery step's output is in %s", r->log);
	build_text(&sb, "last good", &r->last_good);
	build_text(&sb, "first bad", &r->first_bad);
	for (size_t i = 0; i < r->n_notes; i++) {
		const struct bisect_note *n = &r->notes[i];
		sb_appendf(&sb, "\nnotes of Mesa %s:\n%s", n->version,
			   *n->notes ? n->notes : *n->url ? n->url : "(this release has no notes)");
	}
	if (r->kept)
		sb_appendf(&sb, "\nthe versions fetched for this bisect stay in %s for the next one", r->kept);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
}

/* The command that goes on from where the range stands. */
static char *resume_line(const struct bisect_opts *a, const struct bisect_result *r)
{
	struct strbuf sb = {0};
	sb_appendf(&sb, "tb323fu-ctl mesa bisect --good %s --bad %s", r->at_good, r->at_bad);
	if (a->bench)
		sb_append(&sb, " --bench");
	if (a->rounds)
		sb_appendf(&sb, " --rounds %d", a->rounds);
	sb_append(&sb, a->command ? " --command" : a->tests ? " --tests" : " --case");
	sb_append_shell_word(&sb, a->command ? a->command : a->tests ? a->tests : a->test_case);
	if (a->keep)
		sb_append(&sb, " --keep");
	char *out = xstrdup(sb.buf);
	sb_free(&sb);
	return out;
}

static int cmd_bisect(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct bisect_opts *a = opts;
	struct tb_error e = {0};
	struct bisect_request q = {.good = a->good, .bad = a->bad, .command = a->command,
				   .test_case = a->test_case, .keep = a->keep, .bench = a->bench,
				   .rounds = a->rounds, .tests = a->tests,
				   .progress = c->progress, .stepped = say_step, .ctx = c};
	struct bisect_result r;
	int rc = bisect_run(&c->cfg, s, &q, &r, &e);
	if (!o->fields)
		o->fields = json_object_new_object();
	if (r.good && r.bad)
		add_fields(o, &r);
	if (!rc) {
		say_found(o, &r);
	} else {
		outcome_fail(o, &e);
		/* an end that does not test as named is said alone: there is no range to go on with */
		if (r.at_good && !tb_error_is(&e, TB_R_BISECT_ENDS) && !tb_error_is(&e, TB_R_BUSY)) {
			char *resume = resume_line(a, &r);
			outcome_say(o, "%s; the range stands at good %s, bad %s (%zu run%s so far%s%s); `%s` goes on from there",
				    e.msg, r.at_good, r.at_bad, r.n_steps, r.n_steps == 1 ? "" : "s",
				    r.log ? ", their output in " : "", r.log ? r.log : "", resume);
			outcome_str(o, "resume", resume);
			free(resume);
		}
	}
	bisect_result_free(&r);
	return rc;
}

static int cmd_bisect_check(const void *opts, struct outcome *o)
{
	const struct bisect_opts *a = opts;
	if (a->tests && !a->bench)
		return cli_usage(o, "--tests names clpeak's tests for --bench: it goes with --bench");
	if (a->bench && !a->command == !a->tests)
		return cli_usage(o, "--bench measures a benchmark: give it --command CMD (its \"label : 12.5 GB/s\" lines read, as bench reads them) or --tests LIST (clpeak's tests)");
	if (a->tests) {
		char *bad = bench_tests_unknown(a->tests);
		if (!bad) {
			/* bench's Vulkan figure is the smoke program's, which bisect --bench does not run */
			const char *vulkan = smoke_test_names[SMOKE_VK_COMPUTE];
			char *copy = xasprintf(",%s,", a->tests), *named = xasprintf(",%s,", vulkan);
			if (strstr(copy, named))
				bad = xstrdup(vulkan);
			free(named);
			free(copy);
		}
		if (bad) {
			int rc = cli_usage(o, "--tests wants clpeak's test names separated by commas (compute-sp,kernel-latency…), not \"%s\"", bad);
			free(bad);
			return rc;
		}
	}
	if (a->rounds && !a->bench)
		return cli_usage(o, "--rounds is the rounds of --bench: it goes with --bench");
	if (!a->tests && !a->command == !a->test_case)
		return cli_usage(o, "bisect runs one test: give --command CMD (exit 0 good, 1-124 bad, 125 skip) or --case NAME");
	if (a->good && !version_name_ok(a->good))
		return cli_usage(o, "--good wants a version (2026.10.06), not \"%.80s\"", a->good);
	if (a->bad && !version_name_ok(a->bad))
		return cli_usage(o, "--bad wants a version (2026.10.06), not \"%.80s\"", a->bad);
	const char *k = a->test_case;
	if (k && !deqp_kind_of_case(k) && !strchr(k, '/'))
		return cli_usage(o, "--case wants a dEQP case (dEQP-VK.api.smoke.triangle, dEQP-GLES2.info.renderer; dEQP-GLES3 and dEQP-EGL too) or an OpenCL-CTS BINARY/SUB-TEST (basic/hostptr), not \"%.80s\"", k);
	if (k && strchr(k, '/') && (k[0] == '/' || strchr(strchr(k, '/') + 1, '/') || !strchr(k, '/')[1]))
		return cli_usage(o, "--case wants an OpenCL-CTS sub-test as BINARY/SUB-TEST (basic/hostptr), not \"%.80s\"", k);
	return TB_OK;
}

static const struct cli_option bisect_options[] = {
	CLI_STRING("--good", "VERSION", struct bisect_opts, good,
		   "a version that passes (default the newest installed one older than --bad that has not failed and is not marked)"),
	CLI_STRING("--bad", "VERSION", struct bisect_opts, bad, "a version that fails (default current)"),
	CLI_STRING("--command", "CMD", struct bisect_opts, command,
		   "the test, by sh -c through run --version: exit 0 good, 1-124 bad, 125 cannot test"),
	CLI_STRING("--case", "NAME", struct bisect_opts, test_case,
		   "the test is one dEQP case (dEQP-VK, dEQP-GLES2, dEQP-GLES3, dEQP-EGL) or OpenCL-CTS BINARY/SUB-TEST, run by its suite"),
	CLI_FLAG("--bench", struct bisect_opts, bench,
		 "the command is a benchmark: a version is bad when slower than the good end beyond the 3 % noise floor, "
		 "by bench's statistics (rounds of both alternately); unclear is measured again with more rounds (at most 60), "
		 "then skipped"),
	CLI_LIST("--tests", "LIST", struct bisect_opts, tests,
		 "with --bench: clpeak's tests (compute-sp,kernel-latency…) instead of --command, its XML read as bench reads it"),
	CLI_INT("--rounds", "N", 1, BISECT_BENCH_MAX_ROUNDS, struct bisect_opts, rounds,
		"with --bench: the rounds of each step (default " BENCH_ROUNDS_TEXT ")"),
	CLI_FLAG("--keep", struct bisect_opts, keep,
		 "keep the versions fetched for the bisect (in the store's bisect folder) for the next one"),
	CLI_END,
};

const struct cli_command bisect_command = {
	.name = "bisect",
	.args = "[--good VERSION] [--bad VERSION] (--command CMD | --case NAME | --bench [--rounds N] (--command CMD | --tests LIST)) [--keep]",
	.summary = "find the first bad version between a good and a bad one, fetching versions not installed",
	.example = "tb323fu-ctl mesa bisect --good 2026.10.01 --command 'vkcube --c 100'",
	.options = bisect_options,
	.opts_size = sizeof(struct bisect_opts),
	.open = OPEN_READER, /* pins what it reads, no store lock: on, off, rollback go on meanwhile */
	.writes = 1,         /* its work folder under the store */
	.check = cmd_bisect_check,
	.run = cmd_bisect,
};
