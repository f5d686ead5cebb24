/* What bisect takes as its test: a --case (a dEQP case or an OpenCL-CTS BINARY/SUB-TEST) and
 * the clpeak tests of --bench --tests (bench's, less the smoke program's Vulkan figure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bisect/bisect.h"

static void a_case_is_a_dEQP_case_or_a_CTS_sub_test(void **state)
{
	(void)state;
	assert_int_equal(bisect_case_kind("dEQP-VK.api.smoke.triangle"), BISECT_CASE_DEQP);
	assert_int_equal(bisect_case_kind("dEQP-GLES2.info.renderer"), BISECT_CASE_DEQP);
	assert_int_equal(bisect_case_kind("basic/hostptr"), BISECT_CASE_CTS);
	assert_int_equal(bisect_case_kind("dEQP-GLES31.functional.a"), BISECT_CASE_UNKNOWN);
	assert_int_equal(bisect_case_kind("hostptr"), BISECT_CASE_UNKNOWN);
	assert_int_equal(bisect_case_kind("a/b/c"), BISECT_CASE_BAD_SUBTEST);
	assert_int_equal(bisect_case_kind("/hostptr"), BISECT_CASE_BAD_SUBTEST);
	assert_int_equal(bisect_case_kind("basic/"), BISECT_CASE_BAD_SUBTEST);
}

static void bench_tests_are_clpeaks_without_the_vulkan_figure(void **state)
{
	(void)state;
	assert_null(bisect_bench_tests_unknown("compute-sp,kernel-latency"));
	char *bad = bisect_bench_tests_unknown("compute-sp,vk.compute");
	assert_string_equal(bad, "vk.compute");
	free(bad);
	bad = bisect_bench_tests_unknown("vk.compute");
	assert_string_equal(bad, "vk.compute");
	free(bad);
	bad = bisect_bench_tests_unknown("compute-sp,nosuch");
	assert_string_equal(bad, "nosuch");
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_case_is_a_dEQP_case_or_a_CTS_sub_test),
		cmocka_unit_test(bench_tests_are_clpeaks_without_the_vulkan_figure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
