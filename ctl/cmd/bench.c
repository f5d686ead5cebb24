/* tb323fu-ctl mesa bench [VERSION] [--command CMD | --tests LIST] [--rounds N]: the speed-up
 * of a version's build over the distribution's Mesa, figure by figure (docs/design.md §10). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trial/bench.h"
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

static void print_table(json_object *res)
{
	json_object *figures = json_object_object_get(res, "figures");
	printf("%-58s %-24s %-24s %s\n", "figure", "store", "distribution", "ratio");
	for (size_t i = 0; i < json_object_array_length(figures); i++) {
		json_object *f = json_object_array_get_idx(figures, i), *ratio;
		char a[64], b[64], r[16] = "-";
		const char *unit = text_of(f, "unit");
		/* names and units are the benchmark's words: shown, never obeyed */
		char *name = xasprintf("%s%s%s%s", text_of(f, "name"), *unit ? " [" : "", unit, *unit ? "]" : "");
		char *shown = term_text(name, 0);
		cell(a, sizeof a, json_object_object_get(f, "store"));
		cell(b, sizeof b, json_object_object_get(f, "distribution"));
		if (json_object_object_get_ex(f, "ratio", &ratio) && ratio &&
		    isfinite(json_object_get_double(ratio)))
			snprintf(r, sizeof r, "%.2fx", json_object_get_double(ratio));
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

static void say_result(struct outcome *o, const char *version, json_object *res, int rounds)
{
	json_object *ratio = json_object_object_get(res, "ratio");
	const char *command = text_of(res, "command");
	json_object *figures = json_object_object_get(res, "figures");
	size_t n = json_object_array_length(figures), with = 0;
	/* the mean is over the figures that have a ratio (0 on a side gives none) */
	for (size_t i = 0; i < n; i++) {
		json_object *r;
		if (json_object_object_get_ex(json_object_array_get_idx(figures, i), "ratio", &r) && r &&
		    isfinite(json_object_get_double(r)))
			with++;
	}
	char how[64], without[64] = "";
	if (rounds == 1)
		snprintf(how, sizeof how, "one round");
	else
		snprintf(how, sizeof how, "the median of %d rounds", rounds);
	if (with < n)
		snprintf(without, sizeof without, "; %zu without one", n - with);
	char x[32];
	snprintf(x, sizeof x, "%.2f", ratio ? json_object_get_double(ratio) : 0.0);
	/* the word follows the ratio as printed: 1.00x is neither faster nor slower */
	double shown = strtod(x, NULL);
	const char *word = shown > 1 ? "faster" : shown < 1 ? "slower" : "as fast";
	if (ratio)
		outcome_say(o, "Mesa %s against the distribution's Mesa: %sx, %s (%s, %s, geometric mean of %zu figure%s with a ratio%s)",
			    version, x, word, command, how, with, plural((long)with), without);
	else
		outcome_say(o, "Mesa %s against the distribution's Mesa: no figure gave a ratio (%s, %d round%s)",
			    version, command, rounds, plural(rounds));
}

static int cmd_bench_check(const void *opts, struct outcome *o)
{
	const struct bench_opts *a = opts;
	if (a->tests && a->command)
		return cli_usage(o, "--tests chooses clpeak's tests; it does not go with --command");
	char *bad = a->tests ? bench_tests_unknown(a->tests) : NULL;
	if (bad) {
		int rc = cli_usage(o, "--tests wants clpeak's test names separated by commas "
				      "(compute-sp,kernel-latency…), not \"%s\"", bad);
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
		 "only these of clpeak's tests (compute-sp,kernel-latency…)"),
	CLI_INT("--rounds", "N", 1, 1000, struct bench_opts, rounds,
		"rounds through run and distro alternately (default " BENCH_ROUNDS_TEXT ")"),
	CLI_END,
};

const struct cli_command bench_command = {
	.name = "bench",
	.args = "[VERSION] [--command CMD | --tests LIST] [--rounds N]",
	.summary = "run a benchmark through run and distro alternately and compare the medians",
	.example = "tb323fu-ctl mesa bench --rounds 5",
	.options = bench_options,
	.opts_size = sizeof(struct bench_opts),
	.operand = OPERAND_VERSION,
	.operand_at = offsetof(struct bench_opts, version),
	.open = OPEN_READER, /* a pin, no store lock: on, off, rollback go on meanwhile */
	.writes = 1,
	.check = cmd_bench_check,
	.run = cmd_bench,
};
