/* tb323fu-ctl mesa bench [VERSION] [--command CMD | --tests LIST] [--rounds N]: the speed-up
 * of a version's build over the distribution's Mesa, figure by figure (docs/design.md §10). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trial/bench.h"
#include "trial/bench_stats.h"
#include "cli/cli.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/text.h"
#include "cli/command.h"
#include "cmd/commands.h"

struct bench_opts {
	const char *version, *command, *tests;
	int rounds; /* 0: the default */
};

static double number(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

/* "5.23 (5.10–5.40)": the median and the spread of the rounds. */
static void cell(char *buf, size_t size, json_object *side)
{
	snprintf(buf, size, "%.2f (%.2f-%.2f)", number(side, "median"), number(side, "min"),
		 number(side, "max"));
}

static const char *text_of(json_object *o, const char *key)
{
	json_object *v = json_object_object_get(o, key);
	return v ? json_object_get_string(v) : NULL;
}

/* "1.98x [1.90-2.05] faster", "1.42x unclear (too few rounds)", "-": a ratio as the statistics
 * allow. */
static void ratio_cell(char *buf, size_t size, json_object *o)
{
	json_object *ratio = json_object_object_get(o, "ratio"), *iv = json_object_object_get(o, "interval");
	const char *verdict = text_of(o, "verdict");
	if (!ratio || !verdict)
		snprintf(buf, size, "-");
	else if (!iv)
		snprintf(buf, size, "%.2fx %s (too few rounds)", json_object_get_double(ratio), verdict);
	else
		snprintf(buf, size, "%.2fx [%.2f-%.2f] %s", json_object_get_double(ratio),
			 json_object_get_double(json_object_array_get_idx(iv, 0)),
			 json_object_get_double(json_object_array_get_idx(iv, 1)), verdict);
}

static void print_table(json_object *res)
{
	json_object *figures = json_object_object_get(res, "figures");
	printf("%-58s %-24s %-24s %s\n", "figure", "store median (range)", "distribution", "ratio [95 % interval] verdict");
	for (size_t i = 0; i < json_object_array_length(figures); i++) {
		json_object *f = json_object_array_get_idx(figures, i);
		char a[64], b[64], r[80];
		const char *unit = text_of(f, "unit");
		/* names and units are the benchmark's words: shown, never obeyed */
		char *name = xasprintf("%s%s%s%s", text_of(f, "name"), *unit ? " [" : "", unit, *unit ? "]" : "");
		char *shown = term_text(name, 0);
		cell(a, sizeof a, json_object_object_get(f, "store"));
		cell(b, sizeof b, json_object_object_get(f, "distribution"));
		ratio_cell(r, sizeof r, f);
		printf("%-58s %-24s %-24s %s\n", shown, a, b, r);
		free(shown);
		free(name);
	}
	json_object *sides = json_object_object_get(res, "sides");
	static const char *const keys[] = {"store", "distribution"};
	for (size_t k = 0; k < 2; k++) {
		json_object *side = json_object_object_get(sides, keys[k]);
		const char *cl = text_of(side, "opencl_vendor"), *vk = text_of(side, "vulkan_icd");
		printf("%s: OpenCL %s, Vulkan %s\n", keys[k], cl ? cl : "as the system has it",
		       vk ? vk : "as the system has it");
	}
}

static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

/* The sentence: the verdict and the interval the rounds allow, never a bare ratio. */
static void say_result(struct outcome *o, const char *version, json_object *res, int rounds)
{
	json_object *ratio = json_object_object_get(res, "ratio"), *iv = json_object_object_get(res, "interval");
	const char *command = text_of(res, "command");
	json_object *figures = json_object_object_get(res, "figures");
	size_t n = json_object_array_length(figures), with = 0;
	for (size_t i = 0; i < n; i++)
		with += text_of(json_object_array_get_idx(figures, i), "verdict") != NULL;
	int whole = json_object_get_int(json_object_object_get(res, "figures_in_whole"));
	char counts[160] = "";
	int at = snprintf(counts, sizeof counts, "%d round%s, geometric mean of %d figure%s", rounds,
			  plural(rounds), whole, plural(whole));
	if ((size_t)whole < with)
		at += snprintf(counts + at, sizeof counts - (size_t)at, "; %zu missing in a round, compared alone",
			       with - (size_t)whole);
	if (with < n)
		snprintf(counts + at, sizeof counts - (size_t)at, "; %zu without a ratio", n - with);
	long need = json_object_get_int64(json_object_object_get(res, "rounds_needed"));
	char more[200];
	if (need > BENCH_MAX_ROUNDS)
		snprintf(more, sizeof more, "the estimate lies at the noise floor: the spread seen would need more "
			 "rounds than bench runs (%d) to tell", BENCH_MAX_ROUNDS);
	else
		snprintf(more, sizeof more, "the spread seen would need about %ld rounds to tell: run it again with --rounds %ld",
			 need, need);
	if (!ratio)
		outcome_say(o, "Mesa %s against the distribution's Mesa: no figure gave a ratio in every round (%s, %s)",
			    version, command, counts);
	else if (!iv)
		outcome_say(o, "Mesa %s against the distribution's Mesa: unclear, %.2fx, but %d round%s give%s no 95 %% interval; "
			    "%s (%s, %s)",
			    version, json_object_get_double(ratio), rounds, plural(rounds), rounds == 1 ? "s" : "",
			    more, command, counts);
	else if (need)
		outcome_say(o, "Mesa %s against the distribution's Mesa: unclear, %.2fx (95 %% interval %.2fx-%.2fx reaches "
			    "across the noise floor %s); %s (%s, %s)",
			    version, json_object_get_double(ratio),
			    json_object_get_double(json_object_array_get_idx(iv, 0)),
			    json_object_get_double(json_object_array_get_idx(iv, 1)), BENCH_NOISE_FLOOR_TEXT, more,
			    command, counts);
	else
		outcome_say(o, "Mesa %s against the distribution's Mesa: %s, %.2fx (95 %% interval %.2fx-%.2fx, noise floor %s; %s, %s)",
			    version, text_of(res, "verdict"), json_object_get_double(ratio),
			    json_object_get_double(json_object_array_get_idx(iv, 0)),
			    json_object_get_double(json_object_array_get_idx(iv, 1)), BENCH_NOISE_FLOOR_TEXT,
			    command, counts);
}

static int cmd_bench_check(const void *opts, struct outcome *o)
{
	const struct bench_opts *a = opts;
	if (a->tests && a->command)
		return cli_usage(o, "--tests chooses clpeak's tests; it does not go with --command");
	char *bad = a->tests ? bench_tests_unknown(a->tests) : NULL;
	if (bad) {
		int rc = cli_usage(o, "--tests wants clpeak's test names separated by commas "
				      "(compute-sp,kernel-latency…) or vk.compute, not \"%s\"", bad);
		free(bad);
		return rc;
	}
	return TB_OK;
}

static int cmd_bench(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	const struct bench_opts *a = opts;
	struct tb_error e = {0};
	int rounds = a->rounds ? a->rounds : BENCH_DEFAULT_ROUNDS;
	char *chosen = cli_pick_version(s, a->version, o);
	if (!chosen)
		return o->code;
	if (cli_pin_version(c, s, chosen, o)) { /* read, not changed: writers go on (§3) */
		free(chosen);
		return o->code;
	}
	struct bench_request r = {.command = a->command, .tests = a->tests, .rounds = rounds,
				  .progress = c->progress};
	json_object *res = NULL;
	int rc = bench_run(s, chosen, &r, &res, &e);
	if (res) {
		/* also when the benchmark failed after its figures: they are shown, and said */
		if (cli_tables(c))
			print_table(res);
		json_object_object_foreach(res, key, val)
			json_object_object_add(o->fields, key, json_object_get(val));
		say_result(o, chosen, res, rounds);
		json_object_put(res);
	}
	if (rc)
		rc = outcome_fail(o, &e);
	free(chosen);
	return rc;
}

static const struct cli_option bench_options[] = {
	CLI_STRING("--command", "CMD", struct bench_opts, command,
		   "another benchmark, by sh -c, its \"label : 12.5 GB/s\" lines read (default clpeak, its XML read)"),
	CLI_LIST("--tests", "LIST", struct bench_opts, tests,
		 "only these of clpeak's tests (compute-sp,kernel-latency…); vk.compute alone: the smoke program's "
		 "Vulkan compute figure without clpeak (a run of about a second)"),
	CLI_INT("--rounds", "N", 1, BENCH_MAX_ROUNDS, struct bench_opts, rounds,
		"rounds through run and distro alternately (default " BENCH_ROUNDS_TEXT "; fewer than 6 give no 95 % "
		"interval). The verdict: faster or slower when the whole 95 % interval of the ratio lies beyond the "
		"3 % noise floor, same when it lies within it, otherwise unclear, with the rounds the spread seen "
		"would need"),
	CLI_END,
};

const struct cli_command bench_command = {
	.name = "bench",
	.args = "[VERSION] [--command CMD | --tests LIST] [--rounds N]",
	.summary = "run a benchmark through run and distro alternately: faster, slower, the same or unclear, with a 95 % interval",
	.example = "tb323fu-ctl mesa bench --tests compute-sp --rounds 20",
	.options = bench_options,
	.opts_size = sizeof(struct bench_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct bench_opts, version),
	.open = OPEN_READER, /* a pin, no store lock: on, off, rollback go on meanwhile */
	.writes = 1,
	.check = cmd_bench_check,
	.run = cmd_bench,
};
