/* bench's figure lines, clpeak's XML results and the suites' comparison: clpeak's layout,
 * units, lines and elements that are not figures, hostile XML, and which tests count as
 * regressions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "gputest/bench.h"
#include "gputest/suite_compare.h"

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
	assert_string_equal(p.name, "Global memory bandwidth / float"); /* the unit once */
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

/* ---- clpeak's XML ---- */

struct got {
	int n;
	char names[8][160], units[8][32];
	double values[8];
};

static void collect(void *ctx, const char *name, const char *unit, double value)
{
	struct got *g = ctx;
	if (g->n < 8) {
		snprintf(g->names[g->n], sizeof g->names[0], "%s", name);
		snprintf(g->units[g->n], sizeof g->units[0], "%s", unit);
		g->values[g->n] = value;
	}
	g->n++;
}

static int parse_xml(const char *text, struct got *g)
{
	memset(g, 0, sizeof *g);
	return bench_parse_clpeak_xml(text, strlen(text), collect, g);
}

#define HEAD "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<clpeak os=\"Linux x64\"><platform name=\"rusticl\">" \
	     "<device name=\"llvmpipe\" compute_units=\"8\" clock_frequency=\"300\" clock_frequency_unit=\"MHz\">"
#define TAIL "</device></platform></clpeak>\n"

static void xml_figures_of_a_test(void **state)
{
	struct got g;
	assert_int_equal(parse_xml(HEAD "<single_precision_compute unit=\"gflops\"><float>143644</float>"
					"<float2>52441.6</float2></single_precision_compute>"
					"<transfer_bandwidth unit=\"gbps\"><enqueuewritebuffer>13.6</enqueuewritebuffer>"
					"</transfer_bandwidth>" TAIL, &g), 3);
	assert_string_equal(g.names[0], "Single-precision compute / float");
	assert_string_equal(g.units[0], "GFLOPS");
	assert_true(g.values[1] > 52441.5 && g.values[1] < 52441.7);
	assert_string_equal(g.names[2], "Transfer bandwidth / enqueuewritebuffer");
	assert_string_equal(g.units[2], "GB/s");
}

static void xml_a_test_with_one_value(void **state)
{
	struct got g;
	assert_int_equal(parse_xml(HEAD "<kernel_launch_latency unit=\"us\"> 12.5\n</kernel_launch_latency>" TAIL, &g), 1);
	assert_string_equal(g.names[0], "Kernel launch latency");
	assert_string_equal(g.units[0], "us");
	assert_true(g.values[0] > 12.49 && g.values[0] < 12.51);
}

static void xml_cut_off_keeps_what_came_before(void **state)
{
	/* clpeak stopped on a later platform, its file never closed */
	struct got g;
	assert_int_equal(parse_xml(HEAD "<single_precision_compute unit=\"gflops\"><float>5</float>"
					"</single_precision_compute><kernel_launch_latency unit=\"us\"", &g), 1);
	assert_string_equal(g.names[0], "Single-precision compute / float");
}

static void xml_not_clpeaks(void **state)
{
	struct got g;
	assert_int_equal(parse_xml("Platform: rusticl\n  Device: llvmpipe\n", &g), -1);
	assert_int_equal(parse_xml("<?xml version=\"1.0\"?><results><a unit=\"us\">1</a></results>", &g), -1);
	assert_int_equal(parse_xml("", &g), -1);
	/* a DTD: entities are not for a benchmark's results */
	assert_int_equal(parse_xml("<?xml version=\"1.0\"?><!DOCTYPE clpeak [<!ENTITY a \"1\">]>"
				   "<clpeak><platform><device><kernel_launch_latency unit=\"us\">&a;"
				   "</kernel_launch_latency></device></platform></clpeak>", &g), -1);
	assert_int_equal(g.n, 0);
	assert_int_equal(parse_xml("<?xml version=\"1.0\"?><clpeak/>", &g), 0);
}

static void xml_entries_that_are_no_figures(void **state)
{
	struct got g;
	assert_int_equal(parse_xml(HEAD
		"<global_memory_bandwidth unit=\"gb&#x9;ps\"><float>1</float></global_memory_bandwidth>"
		"<global_memory_bandwidth><float>1</float></global_memory_bandwidth>"
		"<bandwidth_\xc3\xbc unit=\"gbps\"><float>1</float></bandwidth_\xc3\xbc>"
		"<single_precision_compute unit=\"gflops\"><float>nan</float><float2>1e999</float2>"
		"<float4> 7 </float4><float8>3<b>4</b></float8><float16>1 GB</float16><x/></single_precision_compute>"
		"<kernel_launch_latency unit=\"MHz\">5</kernel_launch_latency>"
		"</device><device name=\"second\"><kernel_launch_latency unit=\"us\">9</kernel_launch_latency>" TAIL,
		&g), 1);
	assert_string_equal(g.names[0], "Single-precision compute / float4");
	assert_true(g.values[0] == 7);
}

static void clpeak_test_names(void **state)
{
	assert_null(bench_tests_unknown("compute-sp"));
	assert_null(bench_tests_unknown("kernel-latency,transfer-bandwidth,global-bandwidth"));
	char *bad = bench_tests_unknown("compute-sp,all-tests");
	assert_string_equal(bad, "all-tests");
	free(bad);
	static const char *const empty[] = {"", ",", "compute-sp,", "compute-sp,,kernel-latency"};
	for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
		bad = bench_tests_unknown(empty[i]);
		assert_non_null(bad);
		free(bad);
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
		cmocka_unit_test(xml_figures_of_a_test),
		cmocka_unit_test(xml_a_test_with_one_value),
		cmocka_unit_test(xml_cut_off_keeps_what_came_before),
		cmocka_unit_test(xml_not_clpeaks),
		cmocka_unit_test(xml_entries_that_are_no_figures),
		cmocka_unit_test(clpeak_test_names),
		cmocka_unit_test(regressions_only_where_the_distribution_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
