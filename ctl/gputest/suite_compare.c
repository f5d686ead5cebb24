/* The store's results against the distribution's, test by test. */
#include "gputest/suite_compare.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "gputest/expected.h"

int suite_result_passes(const char *result)
{
	return result && (!strcmp(result, "pass") || !strcmp(result, "warn"));
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *result_of(json_object *map, const char *name)
{
	json_object *v;
	if (!json_object_object_get_ex(map, name, &v) || !json_object_is_type(v, json_type_string))
		return "missing";
	return json_object_get_string(v);
}

/* counts[result] += 1 */
static void count_result(json_object *counts, const char *result)
{
	json_object *n;
	int had = json_object_object_get_ex(counts, result, &n) ? json_object_get_int(n) : 0;
	json_object_object_add(counts, result, json_object_new_int(had + 1));
}

json_object *suite_compare(json_object *store, json_object *distro)
{
	/* every name of either side, once */
	size_t n = 0, cap = (size_t)json_object_object_length(store) + json_object_object_length(distro) + 1;
	const char **names = xcalloc(cap, sizeof *names);
	json_object_object_foreach(store, k1, v1) {
		(void)v1;
		names[n++] = k1;
	}
	json_object_object_foreach(distro, k2, v2) {
		(void)v2;
		if (!json_object_object_get_ex(store, k2, NULL))
			names[n++] = k2;
	}
	qsort(names, n, sizeof *names, cmp_names);
	json_object *results = json_object_new_array(), *regressions = json_object_new_array(),
		    *fixed = json_object_new_array();
	json_object *count_store = json_object_new_object(), *count_distro = json_object_new_object();
	int passed_store = 0, passed_distro = 0;
	for (size_t i = 0; i < n; i++) {
		const char *a = result_of(store, names[i]), *b = result_of(distro, names[i]);
		count_result(count_store, a);
		count_result(count_distro, b);
		int pa = suite_result_passes(a), pb = suite_result_passes(b);
		passed_store += pa;
		passed_distro += pb;
		if (pb && !pa)
			json_object_array_add(regressions, json_object_new_string(names[i]));
		else if (pa && !pb)
			json_object_array_add(fixed, json_object_new_string(names[i]));
		json_object *t = json_object_new_object();
		json_object_object_add(t, "name", json_object_new_string(names[i]));
		json_object_object_add(t, "store", json_object_new_string(a));
		json_object_object_add(t, "distribution", json_object_new_string(b));
		json_object_array_add(results, t);
	}
	free(names);
	json_object *passed = json_object_new_object();
	json_object_object_add(passed, "store", json_object_new_int(passed_store));
	json_object_object_add(passed, "distribution", json_object_new_int(passed_distro));
	json_object *counts = json_object_new_object();
	json_object_object_add(counts, "store", count_store);
	json_object_object_add(counts, "distribution", count_distro);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "tests", json_object_new_int((int)n));
	json_object_object_add(o, "passed", passed);
	json_object_object_add(o, "counts", counts);
	json_object_object_add(o, "regressions", regressions);
	json_object_object_add(o, "fixed", fixed);
	json_object_object_add(o, "results", results);
	return o;
}

void suite_apply_expected(json_object *cmp, json_object *expected)
{
	json_object *results;
	json_object *expected_hit = json_object_new_array(), *now_pass = json_object_new_array();
	json_object *regressions = json_object_new_array();
	json_object_object_get_ex(cmp, "results", &results);
	size_t n = results ? json_object_array_length(results) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(results, i), *v, *want;
		json_object_object_get_ex(t, "name", &v);
		const char *name = json_object_get_string(v);
		json_object_object_get_ex(t, "store", &v);
		const char *mine = json_object_get_string(v);
		json_object_object_get_ex(t, "distribution", &v);
		const char *theirs = json_object_get_string(v);
		int listed = expected && json_object_object_get_ex(expected, name, &want);
		if (listed && suite_result_passes(mine))
			json_object_array_add(now_pass, json_object_new_string(name));
		else if (listed && expected_matches(json_object_get_string(want), mine))
			json_object_array_add(expected_hit, json_object_new_string(name));
		else if (suite_result_passes(theirs) && !suite_result_passes(mine))
			json_object_array_add(regressions, json_object_new_string(name));
	}
	json_object_object_add(cmp, "regressions", regressions);
	json_object_object_add(cmp, "expected", expected_hit);
	json_object_object_add(cmp, "expected_fixed", now_pass);
}

int suite_regressions(json_object *comparison, char *buf, unsigned size)
{
	json_object *r;
	if (buf && size)
		buf[0] = '\0';
	if (!comparison || !json_object_object_get_ex(comparison, "regressions", &r) ||
	    !json_object_is_type(r, json_type_array))
		return 0;
	int n = (int)json_object_array_length(r);
	size_t used = 0;
	for (int i = 0; i < n && buf && i < 10; i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(r, (size_t)i));
		int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", name);
		if (w < 0 || (size_t)w >= size - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
	if (n > 10 && buf && used + 8 < size)
		snprintf(buf + used, size - used, ", …");
	return n;
}

void suite_append_names(struct strbuf *sb, json_object *result, const char *key, const char *prefix)
{
	json_object *list;
	if (!json_object_object_get_ex(result, key, &list) || !json_object_is_type(list, json_type_array) ||
	    !json_object_array_length(list))
		return;
	sb_append(sb, prefix);
	for (size_t i = 0; i < json_object_array_length(list); i++)
		sb_appendf(sb, "%s%s", i ? ", " : "", json_object_get_string(json_object_array_get_idx(list, i)));
}
