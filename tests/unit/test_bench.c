/* bench's figure lines and the suites' comparison: clpeak's layout, units, lines that are not
 * figures, and which tests count as regressions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "bench.h"
#include "suite_compare.h"

struct parsed {
	int ok;
	char name[256], unit[32];
	double value;
};

/* Feeds lines in order (sharing the heading) and returns what the last one gave. */
static struct parsed feed(const char *const *lines)
{
	char heading[256] = "";
	int indent = -1;
	struct parsed p = {0};
	for (size_t i = 0; lines[i]; i++)
		p.ok = bench_parse_line(lines[i], heading, sizeof heading, &indent, p.name,
					sizeof p.name, p.unit, sizeof p.unit, &p.value);
	return p;
}

static void figure_under_heading(void **state)
{
	const char *const lines[] = {"Platform: rusticl", "  Device: llvmpipe",
				     "    Global memory bandwidth (GBPS)", "      float   : 5.23", NULL};
	struct parsed p = feed(lines);
	assert_true(p.ok);
	assert_string_equal(p.name, "Global memory bandwidth (GBPS) / float");
	assert_string_equal(p.unit, "GBPS");
	assert_true(p.value > 5.229 && p.value < 5.231);
}

static void figure_with_unit_beside_heading(void **state)
{
	const char *const lines[] = {"    Transfer bandwidth (GBPS)", "      enqueueWriteBuffer : 5",
				     "    Kernel launch latency : 12.50 us", NULL};
	struct parsed p = feed(lines);
	assert_true(p.ok);
	assert_string_equal(p.name, "Kernel launch latency");
	assert_string_equal(p.unit, "us");
	assert_true(p.value > 12.49 && p.value < 12.51);
}

static void not_figures(void **state)
{
	const char *const cases[][2] = {
		{"    Driver version  : 22.3.6 (Linux x64)", NULL},
		{"  Device: llvmpipe (LLVM 15.0.6, 256 bits)", NULL},
		{"rate : fast", NULL},
		{" : 12", NULL},
		{"rate : 12 GB/s and more", NULL},
		{"rate : nan", NULL},
		{"    Compute units   : 8", NULL},
		{"    Clock frequency : 1000 MHz", NULL},
		{"    Max alloc size  : 1073741824", NULL},
		{"    Global memory size : 4096 MB", NULL},
		{"", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *const lines[] = {cases[i][0], NULL};
		struct parsed p = feed(lines);
		assert_false(p.ok);
	}
}

static void regressions_only_where_the_distribution_passes(void **state)
{
	json_object *store = json_tokener_parse(
		"{\"a\":\"pass\",\"b\":\"fail\",\"c\":\"skip\",\"d\":\"crash\",\"e\":\"pass\",\"f\":\"warn\"}");
	json_object *distro = json_tokener_parse(
		"{\"a\":\"pass\",\"b\":\"pass\",\"c\":\"warn\",\"d\":\"fail\",\"e\":\"fail\",\"g\":\"pass\"}");
	json_object *cmp = suite_compare(store, distro);
	char names[128];
	assert_int_equal(suite_regressions(cmp, names, sizeof names), 3);
	assert_string_equal(names, "b, c, g");
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(cmp, "fixed"),
							   JSON_C_TO_STRING_PLAIN),
			    "[\"e\",\"f\"]");
	assert_int_equal(json_object_get_int(json_object_object_get(cmp, "tests")), 7);
	json_object *last = json_object_array_get_idx(json_object_object_get(cmp, "results"), 6);
	assert_string_equal(json_object_get_string(json_object_object_get(last, "store")), "missing");
	json_object_put(cmp);
	json_object_put(store);
	json_object_put(distro);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figure_under_heading),
		cmocka_unit_test(figure_with_unit_beside_heading),
		cmocka_unit_test(not_figures),
		cmocka_unit_test(regressions_only_where_the_distribution_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
