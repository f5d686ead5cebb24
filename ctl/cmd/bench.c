/* tb323fu-ctl mesa bench [VERSION] [--command CMD | --tests LIST] [--rounds N]: the speed-up
 * of a version's build over the distribution's Mesa, figure by figure (docs/design.md §10). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gputest/bench.h"
#include "gputest/bench_history.h"
#include "gputest/bench_stats.h"
#include "render/bench_plot.h"
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
	int history;
	const char *figure, *plot;
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


/* "faster, 2.00x (95 % interval 1.96x-2.04x)", "unclear, 1.01x (no interval)", "no ratio". */
static void history_verdict(char *buf, size_t size, json_object *l)
{
	json_object *ratio = json_object_object_get(l, "ratio"), *iv = json_object_object_get(l, "interval");
	const char *verdict = text_of(l, "verdict");
	if (!ratio || !verdict)
		snprintf(buf, size, "no ratio");
	else if (!iv)
		snprintf(buf, size, "%s, %.2fx (too few rounds for an interval)", verdict, json_object_get_double(ratio));
	else
		snprintf(buf, size, "%s, %.2fx (95 %% interval %.2fx-%.2fx)", verdict, json_object_get_double(ratio),
			 json_object_get_double(json_object_array_get_idx(iv, 0)),
			 json_object_get_double(json_object_array_get_idx(iv, 1)));
}

/* The columns of the terminal on stdout, else $COLUMNS, else 0 (no terminal: no chart). */
static int terminal_columns(void)
{
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	int n = env ? atoi(env) : 0;
	return n > 0 && n < 1000 ? n : 0;
}

#define CHART_MIN_COLUMNS 60

/* The compact chart: a row a version (its last run), release order, on a ratio axis: '|' at
 * 1.00x (the distribution's Mesa), ':' the noise floor on each side, '-' the 95 % interval,
 * '*' the ratio. */
static void print_chart(json_object *latest, int columns)
{
	double lo = 1 / (1 + BENCH_NOISE_FLOOR), hi = 1 + BENCH_NOISE_FLOOR;
	for (size_t i = 0; i < json_object_array_length(latest); i++) {
		json_object *l = json_object_array_get_idx(latest, i), *iv = json_object_object_get(l, "interval");
		json_object *ratio = json_object_object_get(l, "ratio");
		double a = iv ? json_object_get_double(json_object_array_get_idx(iv, 0)) : ratio ? json_object_get_double(ratio) : 1;
		double b = iv ? json_object_get_double(json_object_array_get_idx(iv, 1)) : a;
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	double pad = (hi - lo) * 0.05;
	lo -= pad;
	hi += pad;
	int width = columns - 12 - 2 - 8;
	if (width > 70)
		width = 70;
#define AT(x) ((int)(((x) - lo) / (hi - lo) * (width - 1) + 0.5))
	printf("\nthe last run of each version against the distribution's Mesa (| 1.00x, : the %s noise floor, "
	       "[--*--] the ratio and its interval; %.2fx to %.2fx)\n", BENCH_NOISE_FLOOR_TEXT, lo, hi);
	char *row = xmalloc((size_t)width + 1);
	for (size_t i = 0; i < json_object_array_length(latest); i++) {
		json_object *l = json_object_array_get_idx(latest, i), *iv = json_object_object_get(l, "interval");
		json_object *ratio = json_object_object_get(l, "ratio");
		memset(row, ' ', (size_t)width);
		row[width] = 0;
		row[AT(1 / (1 + BENCH_NOISE_FLOOR))] = ':';
		row[AT(1 + BENCH_NOISE_FLOOR)] = ':';
		row[AT(1.0)] = '|';
		if (iv) {
			int a = AT(json_object_get_double(json_object_array_get_idx(iv, 0)));
			int b = AT(json_object_get_double(json_object_array_get_idx(iv, 1)));
			for (int k = a; k <= b; k++)
				row[k] = '-';
			row[a] = '[';
			row[b] = ']';
		}
		if (ratio)
			row[AT(json_object_get_double(ratio))] = '*';
		printf("%-12s  %s  %.2fx\n", text_of(l, "version"), row, ratio ? json_object_get_double(ratio) : 0);
	}
#undef AT
	free(row);
}

static void print_history(json_object *lines, json_object *latest)
{
	for (size_t i = 0; i < json_object_array_length(lines); i++) {
		json_object *l = json_object_array_get_idx(lines, i);
		char verdict[160], when[32];
		/* "2026-12-06T06:30:00Z" shown as "2026-12-06 06:30" */
		snprintf(when, sizeof when, "%.10s %.5s", text_of(l, "time"), strlen(text_of(l, "time")) > 11 ? text_of(l, "time") + 11 : "");
		history_verdict(verdict, sizeof verdict, l);
		json_object *rounds = json_object_object_get(l, "rounds");
		const char *command = text_of(l, "command");
		/* the command is the user's words, kept in the store: shown, never obeyed */
		char *shown = term_text(command ? command : "?", 0);
		printf("%-16s  %-12s  %s; %d round%s; %s\n", when, text_of(l, "version"), verdict,
		       rounds ? json_object_get_int(rounds) : 0, plural(rounds ? json_object_get_int(rounds) : 0), shown);
		free(shown);
	}
	int columns = terminal_columns();
	if (columns >= CHART_MIN_COLUMNS && json_object_array_length(latest))
		print_chart(latest, columns);
}

/* bench --history [VERSION] [--figure NAME] [--plot FILE]: the runs kept, newest last. */
static int bench_history(struct cli *c, const struct bench_opts *a, struct store *s, struct outcome *o)
{
	json_object *runs = bench_history_load(s);
	json_object *lines = bench_history_select(runs, a->version, a->figure);
	json_object *latest = bench_history_latest(lines);
	size_t n = json_object_array_length(lines);
	int rc = TB_OK;
	if (a->plot && n) {
		struct tb_error e = {0};
		rc = bench_plot_write(a->plot, latest, a->figure, &e);
		if (rc)
			rc = outcome_fail(o, &e);
		else
			outcome_str(o, "plot", a->plot);
	}
	if (!rc) {
		if (cli_tables(c))
			print_history(lines, latest);
		char what[200];
		snprintf(what, sizeof what, "%s%s%s%s", a->figure ? "figure " : "", a->figure ? a->figure : "",
			 a->figure && a->version ? " of " : "", a->version ? a->version : "");
		char *shown = term_text(what, 0);
		if (!n)
			outcome_say(o, "no bench run is kept%s%s; `tb323fu-ctl%s%s mesa bench%s%s` measures one",
				    *shown ? " for " : "", shown, c->store_dir ? " --store " : "",
				    c->store_dir ? c->store_dir : "", a->version ? " " : "", a->version ? a->version : "");
		else
			outcome_say(o, "%zu bench run%s kept%s%s, newest last, over %zu version%s%s%s", n, n == 1 ? "" : "s",
				    *shown ? " for " : "", shown, json_object_array_length(latest),
				    json_object_array_length(latest) == 1 ? "" : "s", a->plot ? "; the chart is in " : "",
				    a->plot ? a->plot : "");
		free(shown);
	}
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "history", json_object_get(lines));
	json_object_put(latest);
	json_object_put(lines);
	json_object_put(runs);
	return rc;
}

static int cmd_bench_check(const void *opts, struct outcome *o)
{
	const struct bench_opts *a = opts;
	if (!a->history && (a->figure || a->plot))
		return cli_usage(o, "%s shows the runs kept: it goes with --history", a->figure ? "--figure" : "--plot");
	if (a->history && (a->command || a->tests || a->rounds))
		return cli_usage(o, "--history shows the runs kept and runs nothing: leave out %s",
				 a->command ? "--command" : a->tests ? "--tests" : "--rounds");
	if (a->plot && !bench_plot_format(a->plot))
		return cli_usage(o, "--plot wants a file named .svg or .png, not \"%s\"", a->plot);
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
	if (a->history)
		return bench_history(c, a, s, o);
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
	CLI_FLAG("--history", struct bench_opts, history,
		 "the runs kept (at most 50 a version, 500 in all), newest last, instead of a new run; with VERSION, "
		 "that version's alone; a chart of each version's last run where the terminal has room"),
	CLI_STRING("--figure", "NAME", struct bench_opts, figure,
		   "with --history: that figure's ratio (\"Throughput\"), not the geometric mean of all"),
	CLI_STRING("--plot", "FILE", struct bench_opts, plot,
		   "with --history: draw each version's last ratio with its 95 % interval and the noise floor, "
		   "versions in release order, into FILE (.svg or .png)"),
	CLI_END,
};

const struct cli_command bench_command = {
	.name = "bench",
	.args = "[VERSION] [--command CMD | --tests LIST] [--rounds N] | --history [VERSION] [--figure NAME] [--plot FILE]",
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
