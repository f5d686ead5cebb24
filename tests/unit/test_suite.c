/* The registry of suites (gputest/suite.h): each suite is found by its name and alias, the
 * choices of `smoke --suite` are exactly those names, mesa.conf's smoke_suite takes each name
 * and finds the same suite, and a name of none is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/config.h"
#include "base/error.h"
#include "gputest/deqp_cases.h"
#include "gputest/suite.h"

static void test_names_and_aliases(void **state)
{
	(void)state;
	assert_ptr_equal(suite_find("piglit-cl"), &piglit_cl_suite);
	assert_ptr_equal(suite_find("opencl-cts"), &opencl_cts_suite);
	assert_ptr_equal(suite_find("dEQP-VK"), &deqp_vk_suite);
	assert_ptr_equal(suite_find("deqp-vk"), &deqp_vk_suite);
	assert_ptr_equal(suite_find("dEQP-GLES2"), &deqp_gles2_suite);
	assert_ptr_equal(suite_find("deqp-gles3"), &deqp_gles3_suite);
	assert_ptr_equal(suite_find("dEQP-EGL"), &deqp_egl_suite);
	assert_null(suite_find("piglit"));
	assert_null(suite_find(""));
	assert_null(suite_find("none"));
}

/* SUITE_CHOICES, split at '|', is every suite's name and alias, once. */
static void test_choices_are_the_registry(void **state)
{
	(void)state;
	char *choices = xstrdup(SUITE_CHOICES);
	size_t words = 0, names = 0, i = 0;
	for (char *save = NULL, *w = strtok_r(choices, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		if (!suite_find(w))
			fail_msg("SUITE_CHOICES names %s, which no suite is", w);
		words++;
	}
	for (const struct suite *su; (su = suite_next(&i));) {
		names += 1 + (su->alias != NULL);
		assert_non_null(su->run);
		assert_non_null(su->units);
		assert_true(su->options != 0);
	}
	assert_int_equal(words, names);
	assert_int_equal(i, 6);
	free(choices);
}

/* Each dEQP module is a suite of the same name and alias, and a case names its module. */
static void test_deqp_modules_are_suites(void **state)
{
	(void)state;
	size_t n = 0;
	for (; deqp_kinds[n]; n++) {
		const struct deqp_kind *k = deqp_kinds[n];
		const struct suite *su = suite_find(k->name);
		assert_non_null(su);
		assert_string_equal(su->name, k->name);
		assert_string_equal(su->alias, k->alias);
		assert_ptr_equal(deqp_kind_find(k->alias), k);
		assert_ptr_equal(deqp_kind_of_case(k->example), k);
	}
	assert_int_equal(n, 4);
	assert_ptr_equal(deqp_kind_of_case("dEQP-GLES3.info.vendor"), &deqp_gles3_kind);
	assert_null(deqp_kind_of_case("dEQP-GLES31.info.vendor"));
	assert_null(deqp_kind_of_case("dEQP-GLES3"));
	assert_null(deqp_kind_of_case("basic/hostptr"));
}

/* Every suite's name is a value of smoke_suite, and the value finds that suite. */
static void test_config_takes_each_name(void **state)
{
	(void)state;
	size_t i = 0;
	for (const struct suite *su; (su = suite_next(&i));) {
		struct config c;
		struct tb_error e = {0};
		char *line = xasprintf("smoke_suite = %s\n", su->name);
		config_defaults(&c);
		if (config_parse(&c, line, "mesa.conf", &e) != TB_OK)
			fail_msg("%s: %s", line, e.msg);
		assert_ptr_equal(suite_find(c.smoke_suite), su);
		config_free(&c);
		free(line);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_aliases),
		cmocka_unit_test(test_choices_are_the_registry),
		cmocka_unit_test(test_deqp_modules_are_suites),
		cmocka_unit_test(test_config_takes_each_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
