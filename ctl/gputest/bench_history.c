/* Every bench kept: the store's bench-history.json (gputest/bench_history.h). */
#include "gputest/bench_history.h"
#include "store/layout.h"
#include "gputest/bench_stats.h"
#include "store/jsonfile.h"
#include "store/manifest.h"
#include "common/version_name.h"
#include "base/alloc.h"
#include "base/fs.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_object *member(json_object *o, const char *key)
{
	json_object *v;
	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A string of the file, at most BENCH_HISTORY_TEXT_MAX bytes (cut at a character's start), or
 * NULL when the member is not a string. */
static json_object *bounded_string(json_object *v)
{
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	const char *s = json_object_get_string(v);
	size_t n = strlen(s);
	if (n <= BENCH_HISTORY_TEXT_MAX)
		return json_object_new_string(s);
	n = BENCH_HISTORY_TEXT_MAX;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return json_object_new_string_len(s, (int)n);
}

static int finite_number(json_object *v, double *out)
{
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return 0;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

static json_object *positive_number(json_object *v)
{
	double d;
	return finite_number(v, &d) && d > 0 ? json_object_new_double(d) : NULL;
}

/* [low, high] with 0 < low <= high, or NULL. */
static json_object *interval_of(json_object *v)
{
	double lo, hi;
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != 2 ||
	    !finite_number(json_object_array_get_idx(v, 0), &lo) ||
	    !finite_number(json_object_array_get_idx(v, 1), &hi) || !(lo > 0) || lo > hi)
		return NULL;
	json_object *a = json_object_new_array();
	json_object_array_add(a, json_object_new_double(lo));
	json_object_array_add(a, json_object_new_double(hi));
	return a;
}

static json_object *verdict_of(json_object *v)
{
	static const enum bench_verdict all[] = {BENCH_SAME, BENCH_FASTER, BENCH_SLOWER, BENCH_UNCLEAR};
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (!strcmp(json_object_get_string(v), bench_verdict_name(all[i])))
			return json_object_new_string(bench_verdict_name(all[i]));
	return NULL;
}

static json_object *count_of(json_object *v, long max)
{
	if (!json_object_is_type(v, json_type_int))
		return NULL;
	int64_t n = json_object_get_int64(v);
	return n >= 0 && n <= max ? json_object_new_int64(n) : NULL;
}

/* The keys a ratio carries: ratio, interval, verdict, rounds_needed (each null when absent). */
static void add_ratio(json_object *out, json_object *from)
{
	json_object_object_add(out, "ratio", positive_number(member(from, "ratio")));
	json_object_object_add(out, "interval", interval_of(member(from, "interval")));
	json_object_object_add(out, "verdict", verdict_of(member(from, "verdict")));
	json_object_object_add(out, "rounds_needed", count_of(member(from, "rounds_needed"), 1L << 40));
}

static json_object *side_of(json_object *from)
{
	json_object *o = json_object_new_object();
	static const char *const keys[] = {"version", "opencl_vendor", "vulkan_icd"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		json_object_object_add(o, keys[i], bounded_string(member(from, keys[i])));
	return o;
}

/* A figure as kept: its medians are taken from bench's {"median",…} sides or from the
 * history's own numbers. */
static json_object *figure_of(json_object *f)
{
	json_object *name = bounded_string(member(f, "name"));
	if (!name)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", name);
	json_object *unit = bounded_string(member(f, "unit"));
	json_object_object_add(o, "unit", unit ? unit : json_object_new_string(""));
	add_ratio(o, f);
	json_object_object_del(o, "rounds_needed");
	static const char *const sides[] = {"store", "distribution"};
	for (size_t k = 0; k < 2; k++) {
		json_object *side = member(f, sides[k]), *median = member(side, "median");
		double d;
		json_object_object_add(o, sides[k], finite_number(median ? median : side, &d)
							    ? json_object_new_double(d) : NULL);
	}
	return o;
}

/* A run rebuilt from its known keys; NULL when it has no version name or time. */
static json_object *run_of(json_object *r)
{
	json_object *version = member(r, "version"), *when = member(r, "time");
	if (!json_object_is_type(version, json_type_string) || !version_name_ok(json_object_get_string(version)) ||
	    !json_object_is_type(when, json_type_string) || strlen(json_object_get_string(when)) > 40)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "version", json_object_get(version));
	json_object_object_add(o, "mesa_version", bounded_string(member(r, "mesa_version")));
	json_object_object_add(o, "time", json_object_get(when));
	json_object_object_add(o, "command", bounded_string(member(r, "command")));
	json_object_object_add(o, "rounds", count_of(member(r, "rounds"), BENCH_MAX_ROUNDS));
	add_ratio(o, r);
	json_object *sides = json_object_new_object(), *from = member(r, "sides");
	json_object_object_add(sides, "store", side_of(member(from, "store")));
	json_object_object_add(sides, "distribution", side_of(member(from, "distribution")));
	json_object_object_add(o, "sides", sides);
	json_object *figures = json_object_new_array(), *list = member(r, "figures");
	if (json_object_is_type(list, json_type_array))
		for (size_t i = 0; i < json_object_array_length(list) &&
				   json_object_array_length(figures) < BENCH_HISTORY_FIGURES; i++) {
			json_object *f = figure_of(json_object_array_get_idx(list, i));
			if (f)
				json_object_array_add(figures, f);
		}
	json_object_object_add(o, "figures", figures);
	return o;
}

/* Drops the oldest runs beyond the bounds: a version's beyond BENCH_HISTORY_PER_VERSION, then
 * any beyond BENCH_HISTORY_MAX. */
static void bound(json_object *runs)
{
	size_t n = json_object_array_length(runs);
	unsigned char *drop = xcalloc(n ? n : 1, 1);
	size_t kept = 0;
	for (size_t i = n; i-- > 0;) {
		const char *v = json_object_get_string(member(json_object_array_get_idx(runs, i), "version"));
		size_t same = 0;
		for (size_t j = i + 1; j < n; j++)
			same += !drop[j] &&
				!strcmp(v, json_object_get_string(member(json_object_array_get_idx(runs, j), "version")));
		drop[i] = same >= BENCH_HISTORY_PER_VERSION || kept >= BENCH_HISTORY_MAX;
		kept += !drop[i];
	}
	for (size_t i = n; i-- > 0;)
		if (drop[i])
			json_object_array_del_idx(runs, i, 1);
	free(drop);
}

json_object *bench_history_parse(const char *text, size_t len)
{
	if (len > BENCH_HISTORY_FILE_MAX)
		return NULL;
	json_tokener *tok = json_tokener_new_ex(32);
	json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
	size_t end = json_tokener_get_parse_end(tok);
	while (end < len && strchr(" \t\r\n", text[end]) && text[end])
		end++;
	/* one document, nothing after it but blanks */
	int fine = json_tokener_get_error(tok) == json_tokener_success && end == len;
	json_tokener_free(tok);
	json_object *list = fine ? member(doc, "runs") : NULL;
	if (!json_object_is_type(list, json_type_array)) {
		json_object_put(doc);
		return NULL;
	}
	json_object *runs = json_object_new_array();
	size_t n = json_object_array_length(list);
	/* only the newest BENCH_HISTORY_MAX can be kept */
	for (size_t i = n > BENCH_HISTORY_MAX ? n - BENCH_HISTORY_MAX : 0; i < n; i++) {
		json_object *r = run_of(json_object_array_get_idx(list, i));
		if (r)
			json_object_array_add(runs, r);
	}
	json_object_put(doc);
	bound(runs);
	return runs;
}

char *bench_history_format(json_object *runs)
{
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "runs", json_object_get(runs));
	char *text = xasprintf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
									       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	return text;
}

void bench_history_append(json_object *runs, json_object *entry)
{
	json_object_array_add(runs, entry);
	bound(runs);
}

json_object *bench_history_entry(const char *version, const char *mesa_version, json_object *result,
				 time_t when)
{
	char stamp[32];
	struct tm tm;
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&when, &tm));
	json_object *r = json_object_new_object();
	json_object_object_add(r, "version", json_object_new_string(version));
	json_object_object_add(r, "mesa_version", mesa_version ? json_object_new_string(mesa_version) : NULL);
	json_object_object_add(r, "time", json_object_new_string(stamp));
	json_object_object_foreach(result, key, val)
		if (strcmp(key, "version") && strcmp(key, "time"))
			json_object_object_add(r, key, json_object_get(val));
	json_object *store = member(member(result, "sides"), "store");
	if (store)
		json_object_object_add(store, "version", json_object_new_string(version));
	json_object *kept = run_of(r);
	json_object_put(r);
	return kept;
}

/* The history's one path (docs/design.md §3), reached as the store's layout says: NULL with e
 * set when a part on the way is not what the layout has there. */
static char *history_path(const struct store *s, struct tb_error *e)
{
	return store_reach_file(s, STORE_BENCH_HISTORY, 0, e);
}

json_object *bench_history_load(const struct store *s)
{
	struct tb_error none = {0};
	char *path = history_path(s, &none);
	size_t len;
	char *text = path ? read_small_file_nofollow(path, BENCH_HISTORY_FILE_MAX, &len) : NULL;
	free(path);
	json_object *runs = text ? bench_history_parse(text, len) : NULL;
	free(text);
	return runs ? runs : json_object_new_array();
}

int bench_history_record(struct store *s, json_object *entry, struct tb_error *e)
{
	json_object *runs = bench_history_load(s);
	bench_history_append(runs, entry);
	char *text = bench_history_format(runs);
	char *path = history_path(s, e);
	int rc = path ? atomic_write_file(path, text, strlen(text), 0644, e) : e->code;
	free(path);
	free(text);
	json_object_put(runs);
	return rc;
}

json_object *bench_history_select(json_object *runs, const char *version, const char *figure)
{
	json_object *lines = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *r = json_object_array_get_idx(runs, i);
		if (version && strcmp(version, json_object_get_string(member(r, "version"))))
			continue;
		json_object *from = r;
		if (figure) {
			json_object *list = member(r, "figures");
			from = NULL;
			for (size_t j = 0; !from && j < json_object_array_length(list); j++)
				if (!strcmp(figure, json_object_get_string(member(json_object_array_get_idx(list, j), "name"))))
					from = json_object_array_get_idx(list, j);
			if (!from)
				continue;
		}
		json_object *o = json_object_new_object();
		static const char *const own[] = {"version", "time", "command", "rounds"};
		for (size_t k = 0; k < sizeof own / sizeof *own; k++)
			json_object_object_add(o, own[k], json_object_get(member(r, own[k])));
		static const char *const of_ratio[] = {"ratio", "interval", "verdict"};
		for (size_t k = 0; k < sizeof of_ratio / sizeof *of_ratio; k++)
			json_object_object_add(o, of_ratio[k], json_object_get(member(from, of_ratio[k])));
		json_object_object_add(o, "rounds_needed", figure ? NULL : json_object_get(member(r, "rounds_needed")));
		json_object_object_add(o, "figure", figure ? json_object_new_string(figure) : NULL);
		json_object_array_add(lines, o);
	}
	return lines;
}

static int by_release(const void *a, const void *b)
{
	json_object *const *x = a, *const *y = b;
	return version_compare(json_object_get_string(member(*x, "version")),
			       json_object_get_string(member(*y, "version")));
}

json_object *bench_history_latest(json_object *lines)
{
	json_object *latest = json_object_new_array();
	for (size_t i = json_object_array_length(lines); i-- > 0;) {
		json_object *l = json_object_array_get_idx(lines, i);
		const char *v = json_object_get_string(member(l, "version"));
		int seen = 0;
		for (size_t j = 0; !seen && j < json_object_array_length(latest); j++)
			seen = !strcmp(v, json_object_get_string(member(json_object_array_get_idx(latest, j), "version")));
		if (!seen)
			json_object_array_add(latest, json_object_get(l));
	}
	json_object_array_sort(latest, by_release);
	return latest;
}

int bench_history_slower(json_object *runs, const char *newest, char **before, double *ratio_newest,
			 double *ratio_before)
{
	*before = NULL;
	json_object *lines = bench_history_select(runs, NULL, NULL);
	json_object *latest = bench_history_latest(lines);
	json_object *mine = NULL, *prior = NULL;
	for (size_t i = 0; i < json_object_array_length(latest); i++) {
		json_object *l = json_object_array_get_idx(latest, i);
		int cmp = version_compare(json_object_get_string(member(l, "version")), newest);
		if (cmp < 0 && member(l, "interval"))
			prior = l;
		else if (cmp == 0)
			mine = l;
	}
	json_object *a = member(mine, "interval"), *b = member(prior, "interval");
	/* slower beyond the noise floor: the newer's whole interval lies below the older's by more */
	int slower = a && b &&
		     json_object_get_double(json_object_array_get_idx(a, 1)) * (1 + BENCH_NOISE_FLOOR) <
			     json_object_get_double(json_object_array_get_idx(b, 0));
	if (slower) {
		*before = xstrdup(json_object_get_string(member(prior, "version")));
		*ratio_newest = json_object_get_double(member(mine, "ratio"));
		*ratio_before = json_object_get_double(member(prior, "ratio"));
	}
	json_object_put(latest);
	json_object_put(lines);
	return slower;
}
