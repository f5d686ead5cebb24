/* The speed-up, measured: any command's "label : number unit" lines on both sides. */
#include "bench.h"

#include <ctype.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "manifest.h"
#include "programs.h"
#include "side.h"
#include "smoke_run.h"

#define MAX_FIGURES 256
#define VULKAN_FIGURE "Vulkan compute (smoke vk.compute)"

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
		snprintf(name, name_size, "%s / %s", heading, label);
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

/* ---- collecting figures over rounds ---- */

struct figure {
	char name[256], unit[32];
	double *values[2]; /* by side */
	size_t n[2];
};

struct figures {
	struct figure *f;
	size_t n;
	enum side side;
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
	f->values[k] = xrealloc(f->values[k], (f->n[k] + 1) * sizeof(double));
	f->values[k][f->n[k]++] = v;
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
			    strcmp(json_object_get_string(name), "vk.compute") ||
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

/* Runs cmd on one side, its output lines to fn. must_succeed: a failing exit is an error
 * naming what (the benchmark's command); else only the figures it printed count. */
static int run_one(struct store *s, const char *version, enum side side,
		   const char *rusticl_enable, char *const cmd[], side_line_fn fn,
		   struct figures *fs, const char *must_succeed, struct tb_error *e)
{
	char **argv = side_argv(s, version, side, rusticl_enable, NULL, cmd, e);
	if (!argv)
		return TB_EFAIL;
	fs->side = side;
	fs->heading[0] = '\0';
	fs->heading_indent = -1;
	memset(fs->seen, 0, sizeof fs->seen);
	int status, timed_out;
	struct child_tail tail = {0};
	int rc = side_run(argv, NULL, SIDE_JOB_BENCH, fn, fs, &status, &timed_out, &tail, e);
	smoke_free_argv(argv);
	if (!rc && must_succeed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char how[160], last[200];
		child_describe_status(status, how, sizeof how);
		child_tail_last_line(&tail, last, sizeof last);
		rc = tb_fail_why(e, TB_EFAIL, "failed", "%s failed on the %s side (%s%s%s)",
				 must_succeed, side == SIDE_STORE ? "store's" : "distribution's", how,
				 last[0] ? ": " : "", last);
	}
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

static int lower_is_better(const char *unit)
{
	static const char *const times[] = {"ns", "us", "ms", "s", "sec", "seconds"};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (!strcasecmp(unit, times[i]))
			return 1;
	return 0;
}

static json_object *side_json(double *v, size_t n, double *median)
{
	json_object *o = json_object_new_object(), *values = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(values, json_object_new_double(v[i]));
	*median = n ? median_of(v, n) : 0;
	json_object_object_add(o, "median", json_object_new_double(*median));
	json_object_object_add(o, "min", json_object_new_double(n ? v[0] : 0));
	json_object_object_add(o, "max", json_object_new_double(n ? v[n - 1] : 0));
	json_object_object_add(o, "values", values);
	return o;
}

static json_object *result_json(struct figures *fs, const char *command, int rounds)
{
	json_object *list = json_object_new_array();
	double log_sum = 0;
	int counted = 0;
	for (size_t i = 0; i < fs->n; i++) {
		struct figure *f = &fs->f[i];
		if (!f->n[SIDE_STORE] || !f->n[SIDE_DISTRO])
			continue; /* only figures both sides report are compared */
		double ms, md;
		json_object *a = side_json(f->values[SIDE_STORE], f->n[SIDE_STORE], &ms);
		json_object *b = side_json(f->values[SIDE_DISTRO], f->n[SIDE_DISTRO], &md);
		int lower = lower_is_better(f->unit);
		json_object *t = json_object_new_object();
		json_object_object_add(t, "name", json_object_new_string(f->name));
		json_object_object_add(t, "unit", json_object_new_string(f->unit));
		json_object_object_add(t, "higher_is_better", json_object_new_boolean(!lower));
		if (ms > 0 && md > 0) {
			double ratio = lower ? md / ms : ms / md;
			json_object_object_add(t, "ratio", json_object_new_double(ratio));
			log_sum += log(ratio);
			counted++;
		} else {
			json_object_object_add(t, "ratio", NULL);
		}
		json_object_object_add(t, "store", a);
		json_object_object_add(t, "distribution", b);
		json_object_array_add(list, t);
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "command", json_object_new_string(command));
	json_object_object_add(o, "rounds", json_object_new_int(rounds));
	json_object_object_add(o, "ratio", counted ? json_object_new_double(exp(log_sum / counted)) : NULL);
	json_object_object_add(o, "figures", list);
	return o;
}

static void figures_free(struct figures *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		for (int k = 0; k < 2; k++)
			free(fs->f[i].values[k]);
	free(fs->f);
}

int bench_run(struct store *s, const char *version, const struct bench_request *r,
	      json_object **result, struct tb_error *e)
{
	*result = NULL;
	const char *command = r->command && *r->command ? r->command : BENCH_DEFAULT_COMMAND;
	int rounds = r->rounds > 0 ? r->rounds : BENCH_DEFAULT_ROUNDS;
	struct manifest m;
	int rc = store_load_manifest(s, version, &m, e);
	if (rc)
		return rc;
	char *sh = find_program("sh", NULL);
	char *smoke = m.has_vulkan ? find_smoke_program() : NULL;
	if (!sh) {
		manifest_free(&m);
		free(smoke);
		return tb_fail_why(e, TB_EFAIL, "failed", "sh is not in PATH; the benchmark needs it");
	}
	char *cmd[] = {sh, "-c", (char *)command, NULL};
	char *vk[] = {smoke, "--json", "--no-opencl", NULL};
	struct figures fs = {0};
	for (int round = 0; round < rounds && !rc; round++) {
		for (int k = 0; k < 2 && !rc; k++) {
			/* alternate which side goes first, so neither always runs on a warm machine */
			enum side side = (round + k) % 2 ? SIDE_DISTRO : SIDE_STORE;
			char label[96];
			snprintf(label, sizeof label, "bench:%s:%d", side_name(side), round + 1);
			progress_test(r->progress, label, "run");
			/* the distribution's rusticl needs RUSTICL_ENABLE like ours */
			rc = run_one(s, version, side, m.rusticl_enable, cmd, on_line, &fs, command, e);
			if (!rc && smoke)
				rc = run_one(s, version, side, NULL, vk, on_smoke_line, &fs, NULL, e);
			progress_test(r->progress, label, rc ? "fail" : "pass");
		}
	}
	if (!rc) {
		json_object *res = result_json(&fs, command, rounds);
		json_object *list = json_object_object_get(res, "figures");
		size_t own = 0; /* the command's figures, beside the smoke program's */
		for (size_t i = 0; i < json_object_array_length(list); i++)
			own += strcmp(json_object_get_string(json_object_object_get(
					      json_object_array_get_idx(list, i), "name")), VULKAN_FIGURE) != 0;
		if (!own) {
			rc = tb_fail_why(e, TB_EFAIL, "failed",
					 "%s printed no figure both sides share (lines like \"label : 12.5 GB/s\")",
					 command);
			json_object_put(res);
		} else {
			rc = smoke_record_set(s, version, "bench", NULL, json_object_get(res), e);
			*result = res;
		}
	}
	figures_free(&fs);
	free(sh);
	free(smoke);
	manifest_free(&m);
	return rc;
}

json_object *bench_summary(const struct store *s, const char *version)
{
	json_object *o = smoke_read_result(s, version), *b, *v;
	json_object *out = NULL;
	if (o && json_object_object_get_ex(o, "bench", &b) && json_object_is_type(b, json_type_object)) {
		out = json_object_new_object();
		static const char *const keys[] = {"command", "ratio", "rounds"};
		for (size_t i = 0; i < 3; i++)
			json_object_object_add(out, keys[i],
					       json_object_object_get_ex(b, keys[i], &v) ? json_object_get(v) : NULL);
	}
	json_object_put(o);
	return out;
}
