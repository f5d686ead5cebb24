/* The progress printers of the command line: a bar on a terminal, JSON lines for the GUI. */
#include "cli/cli_progress.h"
#include "base/jsontext.h"
#include "base/text.h"
#include "store/running.h"
#include "common/reasons.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct printer {
	int json;
	double started, last;
	uint64_t last_done, first_done; /* first_done: what the file held when its bar began */
	char file[256];
	int bar_shown;
	char counted[64]; /* "piglit-cl:": the suite whose sides' tests were counted */
};

static struct printer printer;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void human_bytes(char *out, size_t n, double b)
{
	const char *unit[] = {"B", "KiB", "MiB", "GiB"};
	int i = 0;
	while (b >= 1024 && i < 3)
		b /= 1024, i++;
	snprintf(out, n, i ? "%.1f %s" : "%.0f %s", b, unit[i]);
}

/* Whether a count of what (a file, a suite's side) is worth printing now: at most ten updates
 * a second, always the last one, never the same twice; a new what starts afresh. every: the
 * engine paces these itself (a download's beats, which repeat the count while it stalls). */
static int due(struct printer *p, const char *what, uint64_t done, uint64_t total, double t, int every)
{
	if (strcmp(p->file, what)) {
		snprintf(p->file, sizeof p->file, "%s", what);
		p->started = t;
		p->last = 0;
		p->last_done = UINT64_MAX;
		p->first_done = done;
	}
	if (!every && (done == p->last_done || (t - p->last < 0.1 && !(total && done == total))))
		return 0;
	p->last = t;
	p->last_done = done;
	return 1;
}

static void print_counts_json(const char *op, const char *key, const char *what, uint64_t done,
			      uint64_t total, int stalled_s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "op", json_object_new_string(op));
	json_object_object_add(o, key, json_object_new_string(what));
	json_object_object_add(o, "done", json_object_new_int64((int64_t)done));
	json_object_object_add(o, "total", json_object_new_int64((int64_t)total));
	if (stalled_s >= 0)
		json_object_object_add(o, "stalled_s", json_object_new_int(stalled_s));
	json_object_object_add(o, "percent", json_object_new_int(running_percent()));
	fprintf(stderr, "%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void on_bytes(void *ctx, const char *op, const char *file, uint64_t done, uint64_t total,
		     unsigned stalled_s)
{
	struct printer *p = ctx;
	double t = now();
	int download = !strcmp(op, "download");
	if (!due(p, file, done, total, t, download))
		return;
	if (p->json) {
		print_counts_json(op, "file", file, done, total, download ? (int)stalled_s : -1);
		return;
	}
	/* the bytes really in the file; the rate over what came since the bar began (a resumed
	 * download's earlier part is not this run's speed) */
	char d[32], tot[32], rate[32], left[48] = "";
	double elapsed = t - p->started;
	double bps = elapsed > 0 && done > p->first_done ? (double)(done - p->first_done) / elapsed : 0;
	human_bytes(d, sizeof d, (double)done);
	human_bytes(tot, sizeof tot, (double)total);
	human_bytes(rate, sizeof rate, bps);
	if (stalled_s)
		snprintf(left, sizeof left, ", nothing received for %u s", stalled_s);
	else if (total && bps > 0 && done < total) {
		long s = (long)((double)(total - done) / bps);
		snprintf(left, sizeof left, ", %ld:%02ld left", s / 60, s % 60);
	}
	int width = 24, fill = total ? (int)((double)done * width / (double)total) : 0;
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	char *shown = term_text(file, 0);
	fprintf(stderr, "\r%-8s %-.40s [%s] %s / %s, %s/s%s\033[K", op, shown, bar, d, tot, rate, left);
	free(shown);
	p->bar_shown = 1;
}

static void on_done(void *ctx, const char *op, const char *file)
{
	struct printer *p = ctx;
	if (!p->json && p->bar_shown) {
		fputc('\n', stderr);
		p->bar_shown = 0;
	}
	p->file[0] = '\0';
}

/* A test of the suite whose sides were counted ("SUITE:TEST", not its sides "SUITE:store" and
 * "SUITE:distribution"): the count and the command's table show those. */
static int is_counted_test(const struct printer *p, const char *name)
{
	size_t n = strlen(p->counted);
	if (!n || strncmp(name, p->counted, n))
		return 0;
	return strcmp(name + n, "store") && strcmp(name + n, "distribution");
}

static void on_test(void *ctx, const char *name, const char *status)
{
	struct printer *p = ctx;
	if (!p->json && p->bar_shown) {
		fputc('\n', stderr);
		p->bar_shown = 0;
	}
	if (p->json) {
		/* bench's runs are its step's own events, not smoke tests */
		json_object *o = json_object_new_object();
		json_object_object_add(o, "op", json_object_new_string(strncmp(name, "bench:", 6) ? "smoke" : "bench"));
		json_object_object_add(o, "test", json_object_new_string(name));
		json_object_object_add(o, "status", json_object_new_string(status));
		json_object_object_add(o, "percent", json_object_new_int(running_percent()));
		fprintf(stderr, "%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else if (strcmp(status, "run") && !is_counted_test(p, name)) {
		/* a suite's own results are the command's table, not hundreds of lines here;
		 * bench's rounds: "bench    store:1/3 pass" */
		int bench = !strncmp(name, "bench:", 6);
		char *n = term_text(bench ? name + 6 : name, 0), *st = term_text(status, 0);
		fprintf(stderr, "%-8s %-12s %s\n", bench ? "bench" : "smoke", n, st);
		free(n);
		free(st);
	}
}

/* A side of a suite running its tests: a JSON line, or one line that updates. */
static void on_count(void *ctx, const char *op, const char *name, uint64_t done, uint64_t total)
{
	struct printer *p = ctx;
	double t = now();
	const char *colon = strchr(name, ':');
	if (colon && (size_t)(colon - name) + 2 <= sizeof p->counted)
		snprintf(p->counted, sizeof p->counted, "%.*s", (int)(colon - name + 1), name);
	if (!due(p, name, done, total, t, 0))
		return;
	if (p->json) {
		print_counts_json(op, "test", name, done, total, -1);
		return;
	}
	uint64_t shown_done = done > total ? total : done;
	int width = 24, fill = total ? (int)((double)shown_done * width / (double)total) : 0;
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	char *shown = term_text(name, 0);
	fprintf(stderr, "\r%-8s %-.40s [%s] %llu / %llu tests\033[K", op, shown, bar,
		(unsigned long long)done, (unsigned long long)total);
	free(shown);
	p->bar_shown = 1;
}

static void print_json(json_object *o)
{
	fprintf(stderr, "%s\n", json_out(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* A new step (docs/design.md §13): a JSON line; a bar shows it by the op of its lines. */
static void on_step(void *ctx, const char *step, int percent)
{
	struct printer *p = ctx;
	if (!p->json)
		return;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "op", json_object_new_string("step"));
	json_object_object_add(o, "step", json_object_new_string(step));
	json_object_object_add(o, "percent", json_object_new_int(percent));
	print_json(o);
}

void cli_progress_finished(const char *operation, int code, enum tb_reason reason, const char *message)
{
	if (!printer.json)
		return;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "op", json_object_new_string("finished"));
	json_object_object_add(o, "operation", json_object_new_string(operation));
	json_object_object_add(o, "ok", json_object_new_boolean(code == 0));
	json_object_object_add(o, "code", json_object_new_int(code));
	json_object_object_add(o, "reason", json_object_new_string(code ? tb_reason_id(reason) : ""));
	json_object_object_add(o, "message", json_object_new_string(message ? message : ""));
	/* 100 for a success; a failure keeps the percent it reached */
	json_object_object_add(o, "percent", json_object_new_int(code ? running_percent() : 100));
	print_json(o);
}

/* The command waits for another process (--wait): said once, whatever the progress mode,
 * as apt names the process that holds its lock; a JSON line with --progress json. */
static void on_wait(void *ctx, const char *sentence)
{
	struct printer *p = ctx;
	if (p->json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "op", json_object_new_string("wait"));
		json_object_object_add(o, "message", json_object_new_string(sentence));
		json_object_object_add(o, "percent", json_object_new_int(0));
		print_json(o);
		return;
	}
	if (p->bar_shown)
		fputs("\n", stderr);
	p->bar_shown = 0;
	char *shown = term_text(sentence, 0);
	fprintf(stderr, "tb323fu-ctl: %s\n", shown);
	free(shown);
}

static struct tb_progress bar_progress = {on_bytes, on_test, on_done, &printer, on_step, on_count, on_wait};
/* no bar: only the one sentence of a wait */
static struct tb_progress wait_only = {.ctx = &printer, .wait = on_wait};

const struct tb_progress *cli_progress(const char *mode)
{
	if (!strcmp(mode, "none") || (!strcmp(mode, "auto") && !isatty(2)))
		return &wait_only;
	printer.json = !strcmp(mode, "json");
	return &bar_progress;
}
