/* The speed-up, measured: clpeak's XML results, or any command's "label : number unit" lines,
 * on both sides. */
#include "gputest/bench.h"
#include "store/layout.h"
#include "gputest/bench_history.h"

#include <ctype.h>
#include <json-c/json.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "base/lazy_xml.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/manifest.h"
#include "base/programs.h"
#include "gputest/side.h"
#include "gputest/bench_stats.h"
#include "gputest/smoke_run.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/trusted_path.h"
#include "common/smoketests.h"

#define MAX_FIGURES 256
#define VULKAN_FIGURE "Vulkan compute (smoke vk.compute)"
/* --tests's name of the smoke program's figure: alone, it is the whole benchmark (no clpeak) */
#define VULKAN_TEST (smoke_test_names[SMOKE_VK_COMPUTE])

static char *trim_copy(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xasprintf("%.*s", (int)n, s);
}

/* The unit in a heading's last parentheses: "Global memory bandwidth (GBPS)" → GBPS. */
static void heading_unit(const char *heading, char *unit, size_t size)
{
	const char *open = strrchr(heading, '('), *close = open ? strchr(open, ')') : NULL;
	if (open && close && close > open + 1)
		snprintf(unit, size, "%.*s", (int)(close - open - 1), open + 1);
}

/* The heading without its parenthesised unit: the figure carries the unit once. */
static int heading_title_len(const char *heading)
{
	const char *open = strrchr(heading, '(');
	size_t n = open && strchr(open, ')') ? (size_t)(open - heading) : strlen(heading);
	while (n && heading[n - 1] == ' ')
		n--;
	return (int)n;
}

static int is_property_unit(const char *unit)
{
	static const char *const properties[] = {"Hz", "kHz", "KHz", "MHz", "GHz", "B", "bytes",
						 "KB", "MB", "GB", "KiB", "MiB", "GiB"};
	for (size_t i = 0; i < sizeof properties / sizeof *properties; i++)
		if (!strcmp(unit, properties[i]))
			return 1;
	return 0;
}

int bench_parse_line(const char *line, char *heading, size_t heading_size, int *heading_indent,
		     char *name, size_t name_size, char *unit, size_t unit_size, double *value)
{
	int indent = 0;
	while (line[indent] == ' ' || line[indent] == '\t')
		indent++;
	const char *text = line + indent;
	if (!*text)
		return 0;
	const char *colon = strchr(text, ':');
	if (!colon) {
		/* a heading: what the figures indented under it measure */
		char *h = trim_copy(text, strlen(text));
		snprintf(heading, heading_size, "%s", h);
		free(h);
		*heading_indent = indent;
		return 0;
	}
	const char *p = colon + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	double v = strtod(p, &end);
	if (end == p || !isfinite(v))
		return 0;
	/* only a unit may follow the number: "0.00 us", "5.2 GB/s" */
	const char *u = end;
	while (*u == ' ' || *u == '\t')
		u++;
	size_t ulen = 0;
	while (u[ulen] && (isalpha((unsigned char)u[ulen]) || u[ulen] == '/' || u[ulen] == '%'))
		ulen++;
	const char *rest = u + ulen;
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (*rest || (ulen == 0 && u != end && *u))
		return 0;
	char *label = trim_copy(text, (size_t)(colon - text));
	if (!*label) {
		free(label);
		return 0;
	}
	int under = heading[0] && indent > *heading_indent;
	if (under)
		snprintf(name, name_size, "%.*s / %s", heading_title_len(heading), heading, label);
	else
		snprintf(name, name_size, "%s", label);
	free(label);
	unit[0] = '\0';
	if (ulen)
		snprintf(unit, unit_size, "%.*s", (int)ulen, u);
	else if (under)
		heading_unit(heading, unit, unit_size);
	*value = v;
	/* A measurement has a unit. A number without one ("Compute units : 8"), a frequency or a
	 * size describes the device: it is the same on both sides and would pull the mean to 1. */
	return unit[0] && !is_property_unit(unit);
}

/* ---- clpeak's XML ---- */

static const char *const clpeak_tests[] = {
	"global-bandwidth", "compute-hp",      "compute-sp",	     "compute-dp",
	"compute-integer",  "compute-intfast", "compute-char",	     "compute-short",
	"transfer-bandwidth", "kernel-latency",
};

char *bench_tests_unknown(const char *tests)
{
	char *copy = xstrdup(tests), *save = NULL, *bad = NULL;
	for (char *t = strtok_r(copy, ",", &save); t && !bad; t = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < sizeof clpeak_tests / sizeof *clpeak_tests && strcmp(t, clpeak_tests[i]))
			i++;
		if (i == sizeof clpeak_tests / sizeof *clpeak_tests && strcmp(t, VULKAN_TEST))
			bad = xstrdup(t);
	}
	if (!bad && (!*tests || strstr(tests, ",,") || tests[strlen(tests) - 1] == ','))
		bad = xstrdup("");
	free(copy);
	return bad;
}

/* What clpeak's elements measure, as its text output names them. */
static const struct {
	const char *element, *title;
} clpeak_titles[] = {
	{"global_memory_bandwidth", "Global memory bandwidth"},
	{"half_precision_compute", "Half-precision compute"},
	{"single_precision_compute", "Single-precision compute"},
	{"double_precision_compute", "Double-precision compute"},
	{"integer_compute", "Integer compute"},
	{"integer_compute_fast", "Integer compute (24-bit)"},
	{"integer_compute_char", "Integer compute (8-bit)"},
	{"integer_compute_short", "Integer compute (16-bit)"},
	{"transfer_bandwidth", "Transfer bandwidth"},
	{"kernel_launch_latency", "Kernel launch latency"},
};

static const struct {
	const char *given, *shown;
} clpeak_units[] = {{"gbps", "GB/s"}, {"gflops", "GFLOPS"}, {"giops", "GIOPS"}, {"gops", "GOPS"}};

static int is_name(const xmlChar *s, const char *name)
{
	return s && !strcmp((const char *)s, name);
}

/* An element name fit for a figure's name: short, letters, digits and _ only. */
static int plain_word(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	return n && n <= 64 && !s[n];
}

static xmlNodePtr first_element(xmlNodePtr parent, const char *name)
{
	for (xmlNodePtr c = parent ? parent->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && is_name(c->name, name))
			return c;
	return NULL;
}

static int has_element_child(xmlNodePtr n)
{
	for (xmlNodePtr c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return 1;
	return 0;
}

/* The number an element holds: its own text, nothing else in it. */
static int element_number(xmlNodePtr n, double *value)
{
	char text[64];
	size_t len = 0;
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (c->type != XML_TEXT_NODE || !c->content)
			return 0;
		size_t add = strlen((const char *)c->content);
		if (len + add >= sizeof text)
			return 0;
		memcpy(text + len, c->content, add);
		len += add;
	}
	text[len] = '\0';
	char *p = text, *end;
	while (isspace((unsigned char)*p))
		p++;
	double v = strtod(p, &end);
	if (end == p || !isfinite(v))
		return 0;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return 0;
	*value = v;
	return 1;
}

/* The test's unit as shown; 0 when it has none fit for a figure. */
static int test_unit(xmlNodePtr test, char *unit, size_t size)
{
	xmlChar *u = xmlGetProp(test, (const xmlChar *)"unit");
	const char *given = (const char *)u;
	int ok = given && *given && strlen(given) < size &&
		 strspn(given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/%") == strlen(given);
	if (ok) {
		snprintf(unit, size, "%s", given);
		for (size_t i = 0; i < sizeof clpeak_units / sizeof *clpeak_units; i++)
			if (!strcasecmp(given, clpeak_units[i].given))
				snprintf(unit, size, "%s", clpeak_units[i].shown);
	}
	xmlFree(u);
	return ok && !is_property_unit(unit);
}

static int test_figures(xmlNodePtr test, bench_figure_fn fn, void *ctx)
{
	const char *element = (const char *)test->name;
	char unit[32], name[160];
	if (!plain_word(element) || !test_unit(test, unit, sizeof unit))
		return 0;
	const char *title = element;
	for (size_t i = 0; i < sizeof clpeak_titles / sizeof *clpeak_titles; i++)
		if (!strcmp(element, clpeak_titles[i].element))
			title = clpeak_titles[i].title;
	double v;
	if (!has_element_child(test)) {
		if (!element_number(test, &v))
			return 0;
		fn(ctx, title, unit, v);
		return 1;
	}
	int n = 0;
	for (xmlNodePtr c = test->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !plain_word((const char *)c->name) ||
		    !element_number(c, &v))
			continue;
		snprintf(name, sizeof name, "%s / %s", title, (const char *)c->name);
		fn(ctx, name, unit, v);
		n++;
	}
	return n;
}

int bench_parse_clpeak_xml(const char *text, size_t len, bench_figure_fn fn, void *ctx)
{
	if (len > INT_MAX)
		return -1;
	/* No network, no entity substitution, no DTD loading; a cut-off file still gives what
	 * it has. */
	xmlDocPtr doc = xmlReadMemory(text, (int)len, "clpeak.xml", NULL,
				      XML_PARSE_NONET | XML_PARSE_RECOVER | XML_PARSE_NOERROR |
					      XML_PARSE_NOWARNING);
	if (!doc)
		return -1;
	xmlNodePtr root = xmlDocGetRootElement(doc);
	int n = -1;
	if (root && !doc->intSubset && !doc->extSubset && is_name(root->name, "clpeak")) {
		n = 0;
		xmlNodePtr device = first_element(first_element(root, "platform"), "device");
		for (xmlNodePtr t = device ? device->children : NULL; t; t = t->next)
			if (t->type == XML_ELEMENT_NODE)
				n += test_figures(t, fn, ctx);
	}
	xmlFreeDoc(doc);
	return n;
}

/* ---- collecting figures over rounds ---- */

struct figure {
	char name[256], unit[32];
	double *values[2]; /* by side, then by round (round 1 first); NAN: none that round */
	size_t n[2];
};

struct figures {
	struct figure *f;
	size_t n;
	enum side side;
	int rounds, round; /* all of them, and the one running (from 1) */
	/* parser state of the current run */
	char heading[256];
	int heading_indent;
	char seen[MAX_FIGURES]; /* a figure counts once a run: the first platform's */
};

static struct figure *figure_get(struct figures *fs, const char *name, const char *unit)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].name, name))
			return &fs->f[i];
	if (fs->n == MAX_FIGURES)
		return NULL;
	fs->f = xrealloc(fs->f, (fs->n + 1) * sizeof *fs->f);
	struct figure *f = &fs->f[fs->n++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->unit, sizeof f->unit, "%s", unit);
	return f;
}

static void figure_add(struct figures *fs, const char *name, const char *unit, double v)
{
	struct figure *f = figure_get(fs, name, unit);
	if (!f || fs->seen[f - fs->f])
		return;
	fs->seen[f - fs->f] = 1;
	int k = fs->side;
	if (fs->round < 1 || fs->round > fs->rounds)
		return;
	if (!f->values[k]) {
		f->values[k] = xcalloc((size_t)fs->rounds, sizeof(double));
		for (int r = 0; r < fs->rounds; r++)
			f->values[k][r] = NAN;
	}
	f->values[k][fs->round - 1] = v;
	f->n[k]++;
}

static void on_figure(void *ctx, const char *name, const char *unit, double v)
{
	figure_add(ctx, name, unit, v);
}

static void on_line(void *ctx, const char *line)
{
	struct figures *fs = ctx;
	char name[256], unit[32];
	double v;
	if (bench_parse_line(line, fs->heading, sizeof fs->heading, &fs->heading_indent, name,
			     sizeof name, unit, sizeof unit, &v))
		figure_add(fs, name, unit, v);
}

/* The smoke program's --json result: vk.compute's "…; 12.34 GB/s". */
static void on_smoke_line(void *ctx, const char *line)
{
	json_object *o = json_tokener_parse(line), *tests;
	if (o && json_object_object_get_ex(o, "tests", &tests) &&
	    json_object_is_type(tests, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i), *name, *status, *detail;
			if (!json_object_object_get_ex(t, "name", &name) ||
			    strcmp(json_object_get_string(name), smoke_test_names[SMOKE_VK_COMPUTE]) ||
			    !json_object_object_get_ex(t, "status", &status) ||
			    strcmp(json_object_get_string(status), "pass") ||
			    !json_object_object_get_ex(t, "detail", &detail))
				continue;
			const char *d = json_object_get_string(detail), *semi = strrchr(d, ';');
			double v;
			if (semi && sscanf(semi + 1, " %lf GB/s", &v) == 1)
				figure_add(ctx, VULKAN_FIGURE, "GB/s", v);
		}
	}
	json_object_put(o);
}

/* What one bench_run needs on every round. */
struct bench_ctx {
	struct store *s;
	const char *version, *command; /* command: as the user named it, for sentences */
	const char *mesa_version;      /* the release's, from its MANIFEST (may be NULL) */
	char **cmd;                    /* what runs on each side */
	char *xml;                     /* clpeak's result file; NULL: the text is read */
	char **env[2];                 /* by side: the one vendor and ICD it sees */
	struct figures fs;
	json_object *failures;
};

static void begin_run(struct figures *fs, enum side side, int round)
{
	fs->side = side;
	fs->round = round;
	fs->heading[0] = '\0';
	fs->heading_indent = -1;
	memset(fs->seen, 0, sizeof fs->seen);
}

static size_t figures_seen(const struct figures *fs)
{
	size_t n = 0;
	for (size_t i = 0; i < fs->n && i < MAX_FIGURES; i++)
		n += fs->seen[i] != 0;
	return n;
}

static void read_xml(struct bench_ctx *b)
{
	size_t len;
	char *text = read_small_file(b->xml, 1 << 20, &len);
	if (text)
		bench_parse_clpeak_xml(text, len, on_figure, &b->fs);
	free(text);
}

/* The benchmark on one side. Exiting non-zero without a figure is an error; with figures
 * it is noted in failures and the figures stay. *failed says whether it exited non-zero. */
static int run_benchmark(struct bench_ctx *b, enum side side, int round, int *failed,
			 struct tb_error *e)
{
	*failed = 0;
	char **argv = side_argv(b->s, b->version, side, NULL, b->env[side], b->cmd, e);
	if (!argv)
		return TB_EFAIL;
	begin_run(&b->fs, side, round);
	if (b->xml)
		unlink(b->xml); /* a file left from the last run must not count for this one */
	int status, timed_out;
	struct child_tail tail = {0};
	int rc = side_run(argv, NULL, SIDE_JOB_BENCH, b->xml ? NULL : on_line, &b->fs, &status, &timed_out, &tail, e);
	side_free_argv(argv);
	if (!rc && b->xml)
		read_xml(b);
	if (rc || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return rc;
	char how[160], last[200];
	child_describe_status(status, how, sizeof how);
	child_tail_last_line(&tail, last, sizeof last);
	const char *where = side == SIDE_STORE ? "store's" : "distribution's";
	if (!figures_seen(&b->fs))
		return tb_fail(e, TB_R_PROGRAM_FAILED, "%s failed on the %s side (%s%s%s)", b->command,
			       where, how, last[0] ? ": " : "", last);
	*failed = 1;
	json_object *f = json_object_new_object();
	json_object_object_add(f, "side", json_object_new_string(side_name(side)));
	json_object_object_add(f, "round", json_object_new_int(round));
	json_object_object_add(f, "status", json_object_new_string(how));
	json_object_object_add(f, "last_line", json_object_new_string(last));
	json_object_array_add(b->failures, f);
	return TB_OK;
}

/* The smoke program's Vulkan throughput on one side; its own failures are the smoke tests'. */
static int run_vulkan(struct bench_ctx *b, enum side side, int round, char *const vk[],
		      struct tb_error *e)
{
	char **argv = side_argv(b->s, b->version, side, NULL, b->env[side], vk, e);
	if (!argv)
		return TB_EFAIL;
	begin_run(&b->fs, side, round);
	int status, timed_out;
	struct child_tail tail = {0};
	int rc = side_run(argv, NULL, SIDE_JOB_BENCH, on_smoke_line, &b->fs, &status, &timed_out, &tail, e);
	side_free_argv(argv);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_lower_is_better(const char *unit)
{
	static const char *const times[] = {"ns", "us", "ms", "s", "sec", "seconds"};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (!strcasecmp(unit, times[i]))
			return 1;
	return 0;
}

/* A side's values of one figure (by round, NAN where none): median, spread, and the values
 * in the order of the rounds. */
static json_object *side_json(const double *by_round, int rounds)
{
	json_object *o = json_object_new_object(), *values = json_object_new_array();
	double *v = xcalloc((size_t)rounds, sizeof *v);
	size_t n = 0;
	for (int r = 0; r < rounds; r++)
		if (!isnan(by_round[r])) {
			v[n++] = by_round[r];
			json_object_array_add(values, json_object_new_double(by_round[r]));
		}
	double median = n ? median_of(v, n) : 0;
	json_object_object_add(o, "median", json_object_new_double(median));
	json_object_object_add(o, "min", json_object_new_double(n ? v[0] : 0));
	json_object_object_add(o, "max", json_object_new_double(n ? v[n - 1] : 0));
	json_object_object_add(o, "values", values);
	free(v);
	return o;
}

/* The round's log ratio of a figure, turned so that > 0 is faster; 0 when the round has no
 * ratio (a side without the figure, or a 0 on a side). */
static int round_log(const struct figure *f, int r, double *out)
{
	double s = f->values[SIDE_STORE][r], d = f->values[SIDE_DISTRO][r];
	if (isnan(s) || isnan(d) || !(s > 0) || !(d > 0))
		return 0;
	*out = bench_lower_is_better(f->unit) ? log(d) - log(s) : log(s) - log(d);
	return isfinite(*out);
}

/* ratio, interval and verdict of one estimate into o; all null without one. */
static void add_estimate(json_object *o, const double *logs, size_t n)
{
	if (!n) {
		json_object_object_add(o, "ratio", NULL);
		json_object_object_add(o, "interval", NULL);
		json_object_object_add(o, "verdict", NULL);
		json_object_object_add(o, "rounds_needed", NULL);
		return;
	}
	struct bench_estimate est;
	bench_estimate(logs, n, &est);
	json_object_object_add(o, "ratio", json_object_new_double(est.ratio));
	json_object *iv = NULL;
	if (est.has_interval) {
		iv = json_object_new_array();
		json_object_array_add(iv, json_object_new_double(est.low));
		json_object_array_add(iv, json_object_new_double(est.high));
	}
	json_object_object_add(o, "interval", iv);
	json_object_object_add(o, "verdict", json_object_new_string(bench_verdict_name(est.verdict)));
	json_object_object_add(o, "rounds_needed",
			       est.rounds_needed ? json_object_new_int64(est.rounds_needed) : NULL);
}

/* A figure compared: its sides, and its estimate over the rounds that have both. Adds its log
 * ratios to whole (by round) when it has one every round. */
static json_object *figure_json(const struct figure *f, int rounds, double *whole, int *in_whole)
{
	double *logs = xcalloc((size_t)rounds, sizeof *logs);
	size_t n = 0;
	for (int r = 0; r < rounds; r++)
		n += round_log(f, r, &logs[n]);
	json_object *t = json_object_new_object();
	json_object_object_add(t, "name", json_object_new_string(f->name));
	json_object_object_add(t, "unit", json_object_new_string(f->unit));
	json_object_object_add(t, "higher_is_better", json_object_new_boolean(!bench_lower_is_better(f->unit)));
	add_estimate(t, logs, n);
	json_object_object_add(t, "rounds_compared", json_object_new_int((int)n));
	json_object_object_add(t, "store", side_json(f->values[SIDE_STORE], rounds));
	json_object_object_add(t, "distribution", side_json(f->values[SIDE_DISTRO], rounds));
	if (n == (size_t)rounds) {
		for (int r = 0; r < rounds; r++)
			whole[r] += logs[r];
		(*in_whole)++;
	}
	free(logs);
	return t;
}

/* The figures both sides report, each with its estimate, and the whole: per round the mean of
 * the log ratios of the figures that have one every round (the log of the geometric mean of
 * their ratios), estimated the same way. */
static json_object *result_json(struct figures *fs, const char *command, int rounds)
{
	json_object *list = json_object_new_array();
	double *whole = xcalloc((size_t)rounds, sizeof *whole);
	int in_whole = 0;
	for (size_t i = 0; i < fs->n; i++) {
		struct figure *f = &fs->f[i];
		if (!f->n[SIDE_STORE] || !f->n[SIDE_DISTRO])
			continue; /* only figures both sides report are compared */
		json_object_array_add(list, figure_json(f, rounds, whole, &in_whole));
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "command", json_object_new_string(command));
	json_object_object_add(o, "rounds", json_object_new_int(rounds));
	for (int r = 0; r < rounds && in_whole; r++)
		whole[r] /= in_whole;
	add_estimate(o, whole, in_whole ? (size_t)rounds : 0);
	json_object_object_add(o, "figures_in_whole", json_object_new_int(in_whole));
	json_object_object_add(o, "figures", list);
	free(whole);
	return o;
}

static void figures_free(struct figures *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		for (int k = 0; k < 2; k++)
			free(fs->f[i].values[k]);
	free(fs->f);
}

static json_object *path_or_null(const char *path)
{
	return path ? json_object_new_string(path) : NULL;
}

static json_object *sides_json(const struct side_drivers d[2])
{
	json_object *o = json_object_new_object();
	for (int k = 0; k < 2; k++) {
		json_object *side = json_object_new_object();
		json_object_object_add(side, "opencl_vendor", path_or_null(d[k].opencl_vendor));
		json_object_object_add(side, "vulkan_icd", path_or_null(d[k].vulkan_icd));
		json_object_object_add(o, side_name((enum side)k), side);
	}
	return o;
}

/* The command line on each side: clpeak writing its XML into dir, or sh -c command. */
static int bench_sides_command_line(struct bench_ctx *b, const struct bench_request *r,
				    const char *dir, struct tb_error *e)
{
	if (r->command && *r->command) {
		char *sh = find_program("sh", NULL);
		if (!sh)
			return tb_fail(e, TB_R_PROGRAM_MISSING, "sh is not in PATH; the benchmark needs it");
		b->cmd = xcalloc(4, sizeof *b->cmd);
		b->cmd[0] = sh;
		b->cmd[1] = xstrdup("-c");
		b->cmd[2] = xstrdup(r->command);
		return TB_OK;
	}
	char *clpeak = find_program(BENCH_DEFAULT_COMMAND, NULL);
	if (!clpeak)
		return tb_fail(e, TB_R_PROGRAM_MISSING,
			       "clpeak is not installed (apt-get install clpeak), or name another benchmark with --command");
	b->xml = path_join(dir, "clpeak.xml");
	size_t n = 0, cap = 5 + sizeof clpeak_tests / sizeof *clpeak_tests;
	b->cmd = xcalloc(cap, sizeof *b->cmd);
	b->cmd[n++] = clpeak;
	b->cmd[n++] = xstrdup("--enable-xml-dump");
	b->cmd[n++] = xstrdup("-f");
	b->cmd[n++] = xstrdup(b->xml);
	char *tests = r->tests ? xstrdup(r->tests) : NULL, *save = NULL;
	for (char *t = tests ? strtok_r(tests, ",", &save) : NULL; t && n + 1 < cap;
	     t = strtok_r(NULL, ",", &save))
		if (strcmp(t, VULKAN_TEST)) /* the smoke program's, measured beside clpeak anyway */
			b->cmd[n++] = xasprintf("--%s", t);
	free(tests);
	return TB_OK;
}

static int run_rounds(struct bench_ctx *b, const struct bench_request *r, int rounds,
		      char *const vk[], struct tb_error *e)
{
	int rc = TB_OK, runs = 0;
	progress_count(r->progress, "bench", "bench", 0, 2 * (uint64_t)rounds);
	for (int round = 1; round <= rounds && !rc; round++) {
		for (int k = 0; k < 2 && !rc; k++) {
			/* alternate which side goes first, so neither always runs on a warm machine */
			enum side side = (round - 1 + k) % 2 ? SIDE_DISTRO : SIDE_STORE;
			char label[96];
			snprintf(label, sizeof label, "bench:%s:%d/%d", side_name(side), round, rounds);
			progress_test(r->progress, label, "run");
			int failed = 0;
			if (b->cmd)
				rc = run_benchmark(b, side, round, &failed, e);
			if (!rc && vk[0])
				rc = run_vulkan(b, side, round, vk, e);
			if (!rc)
				progress_count(r->progress, "bench", "bench", (uint64_t)++runs, 2 * (uint64_t)rounds);
			progress_test(r->progress, label, rc ? progress_outcome(rc) : failed ? "fail" : "pass");
		}
	}
	return rc;
}

/* cache/.bench.tmp.<pid>, gone (its folder reached as the layout says, made when missing:
 * people clear caches), for the run's results; NULL with e set when cache/ is refused. */
static char *bench_results_dir(const struct store *s, struct tb_error *e)
{
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 1, e);
	if (!cache)
		return NULL;
	char *dir = xasprintf("%s/.bench.tmp.%d", cache, (int)getpid());
	free(cache);
	remove_tree(dir);
	return dir;
}

/* The sentence for a benchmark that printed figures and then failed. */
static int failures_error(struct bench_ctx *b, struct tb_error *e)
{
	size_t n = json_object_array_length(b->failures);
	json_object *f = json_object_array_get_idx(b->failures, 0);
	const char *last = json_object_get_string(json_object_object_get(f, "last_line"));
	return tb_fail(e, TB_R_PROGRAM_FAILED,
		       "%s exited with %s on the %s side in round %d%s%s%s, after printing figures "
		       "(they are kept and shown)%s",
		       b->command, json_object_get_string(json_object_object_get(f, "status")),
		       strcmp(json_object_get_string(json_object_object_get(f, "side")), "store")
				   ? "distribution's" : "store's",
		       json_object_get_int(json_object_object_get(f, "round")), *last ? " (" : "",
		       last, *last ? ")" : "", n > 1 ? "; other runs failed too, see failures in --json" : "");
}

static int bench_finish(struct bench_ctx *b, int rounds, const struct side_drivers d[2],
			json_object **result, struct tb_error *e)
{
	json_object *res = result_json(&b->fs, b->command, rounds);
	json_object_object_add(res, "sides", sides_json(d));
	json_object_object_add(res, "failures", json_object_get(b->failures));
	json_object *list = json_object_object_get(res, "figures");
	size_t own = 0; /* the benchmark's figures, beside the smoke program's (or it alone) */
	for (size_t i = 0; i < json_object_array_length(list); i++)
		own += !b->cmd || strcmp(json_object_get_string(json_object_object_get(
					       json_object_array_get_idx(list, i), "name")), VULKAN_FIGURE) != 0;
	if (!own) {
		json_object_put(res);
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       b->xml ? "%s wrote no figure both sides share into its XML results"
					  : "%s printed no figure both sides share (lines like \"label : 12.5 GB/s\")",
			       b->command);
	}
	int rc = smoke_record_set(b->s, b->version, "bench", NULL, json_object_get(res), e);
	if (!rc)
		rc = bench_history_record(b->s, bench_history_entry(b->version, b->mesa_version, res, time(NULL)), e);
	*result = res;
	if (!rc && json_object_array_length(b->failures))
		rc = failures_error(b, e);
	return rc;
}

int bench_run(struct store *s, const char *version, const struct bench_request *r,
	      json_object **result, struct tb_error *e)
{
	*result = NULL;
	int rounds = r->rounds > 0 ? r->rounds : BENCH_DEFAULT_ROUNDS;
	struct manifest m;
	int rc = store_load_manifest(s, version, &m, e);
	if (rc)
		return rc;
	struct bench_ctx b = {.s = s, .version = version, .failures = json_object_new_array(),
			      .fs = {.rounds = rounds}, .mesa_version = m.mesa_version};
	b.command = r->command && *r->command ? r->command : BENCH_DEFAULT_COMMAND;
	/* --tests vk.compute: the smoke program's figure alone, no clpeak */
	int vulkan_only = !(r->command && *r->command) && r->tests && !strcmp(r->tests, VULKAN_TEST);
	if (vulkan_only && !m.has_vulkan) {
		manifest_free(&m);
		return tb_fail(e, TB_R_USAGE,
			       "Mesa %s has no Vulkan driver, so --tests %s has nothing to measure; "
			       "leave it out to run clpeak", version, VULKAN_TEST);
	}
	char *vulkan_label = vulkan_only ? xasprintf("the smoke program's %s", VULKAN_TEST) : NULL;
	if (vulkan_only)
		b.command = vulkan_label;
	struct side_drivers d[2] = {{0}};
	/* the smoke program's figure only beside clpeak: a command's figures stand alone */
	char *smoke = m.has_vulkan && !(r->command && *r->command) ? find_smoke_program() : NULL;
	char *vk[] = {smoke, "--json", "--no-opencl", NULL};
	/* In the store, under a temporary's name: a bench ended by a second signal or a kill
	 * leaves it to the next writer's clean-up (store_lock), not in /tmp for ever. */
	char *dir = bench_results_dir(s, e);
	if (!dir)
		rc = e->code;
	else if (mkdir(dir, 0700) < 0) {
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot make a directory for the benchmark's results: %s", dir);
		free(dir);
		dir = NULL;
	}
	for (int k = 0; k < 2 && !rc; k++) {
		rc = side_drivers_find(s, &m, (enum side)k, &d[k], e);
		if (!rc)
			b.env[k] = side_drivers_env(&d[k]);
	}
	if (!rc && !vulkan_only)
		rc = bench_sides_command_line(&b, r, dir, e);
	if (!rc && b.cmd)
		rc = trusted_program_path(b.cmd[0], r->command && *r->command ? "the shell" : "clpeak", e);
	if (!rc && smoke)
		rc = trusted_program_path(smoke, "the smoke program", e);
	if (!rc)
		rc = run_rounds(&b, r, rounds, vk, e);
	if (!rc)
		rc = bench_finish(&b, rounds, d, result, e);
	if (dir)
		remove_tree(dir);
	free(dir);
	for (int k = 0; k < 2; k++) {
		side_drivers_free(&d[k]);
		if (b.env[k])
			side_free_argv(b.env[k]);
	}
	if (b.cmd)
		side_free_argv(b.cmd);
	free(b.xml);
	json_object_put(b.failures);
	figures_free(&b.fs);
	free(smoke);
	free(vulkan_label);
	manifest_free(&m);
	return rc;
}

json_object *bench_summary(const struct store *s, const char *version)
{
	json_object *o = smoke_read_result(s, version), *b, *v;
	json_object *out = NULL;
	if (o && json_object_object_get_ex(o, "bench", &b) && json_object_is_type(b, json_type_object)) {
		out = json_object_new_object();
		static const char *const keys[] = {"command", "ratio", "rounds", "interval", "verdict",
						   "rounds_needed"};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
			json_object_object_add(out, keys[i],
					       json_object_object_get_ex(b, keys[i], &v) ? json_object_get(v) : NULL);
	}
	json_object_put(o);
	return out;
}
