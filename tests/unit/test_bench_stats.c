/* bench's statistics: the signed-rank table's critical values, the interval around the
 * Hodges-Lehmann estimate, and the verdict with its noise floor. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "trial/bench_stats.h"

/* Two-sided 0.05 critical values of Wilcoxon's signed-rank statistic, as the printed tables
 * give them; none below 6 pairs. */
static void critical_values_as_the_tables(void **state)
{
	static const struct {
		size_t n;
		long c;
	} table[] = {{6, 0}, {7, 2}, {8, 3}, {9, 5}, {10, 8}, {11, 10}, {12, 13}, {15, 25}, {20, 52}, {25, 89}, {30, 137}};
	double level;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		assert_int_equal(bench_signed_rank_critical(table[i].n, 0.05, &level), table[i].c);
		assert_true(level >= 0.95 && level < 1);
	}
	for (size_t n = 1; n < BENCH_MIN_ROUNDS; n++)
		assert_int_equal(bench_signed_rank_critical(n, 0.05, &level), -1);
	/* 6 pairs: only all six on one side excludes 0, 2 * 2^-6 */
	bench_signed_rank_critical(6, 0.05, &level);
	assert_true(fabs(level - (1 - 2.0 / 64)) < 1e-12);
	/* the normal approximation beyond the exact table joins it: 60 exact, 61 approximated */
	long c60 = bench_signed_rank_critical(60, 0.05, &level), c61 = bench_signed_rank_critical(61, 0.05, &level);
	assert_true(c61 > c60 && c61 - c60 < 40);
}

static void estimate(const double *ratios, size_t n, struct bench_estimate *e)
{
	double logs[64];
	for (size_t i = 0; i < n; i++)
		logs[i] = log(ratios[i]);
	bench_estimate(logs, n, e);
}

static void six_rounds_all_above_the_floor_are_faster(void **state)
{
	const double r[] = {1.9, 2.0, 2.1, 2.05, 1.95, 2.0};
	struct bench_estimate e;
	estimate(r, 6, &e);
	assert_int_equal(e.has_interval, 1);
	assert_true(fabs(e.low - 1.9) < 1e-9 && fabs(e.high - 2.1) < 1e-9); /* c = 0: the extremes */
	assert_true(e.low <= e.ratio && e.ratio <= e.high);
	assert_true(fabs(e.ratio - 2.0) < 0.02);
	assert_int_equal(e.verdict, BENCH_FASTER);
	assert_string_equal(bench_verdict_name(e.verdict), "faster");
}

static void within_the_noise_floor_is_the_same(void **state)
{
	/* every round 2 % faster: the interval excludes 1, not the 3 % floor */
	const double r[] = {1.02, 1.02, 1.021, 1.019, 1.02, 1.02, 1.02};
	struct bench_estimate e;
	estimate(r, 7, &e);
	assert_true(e.low > 1);
	assert_int_equal(e.verdict, BENCH_SAME);
	const double slow[] = {0.5, 0.52, 0.49, 0.5, 0.51, 0.5};
	estimate(slow, 6, &e);
	assert_int_equal(e.verdict, BENCH_SLOWER);
	assert_string_equal(bench_verdict_name(e.verdict), "slower");
}

static void one_round_against_the_rest_is_the_same(void **state)
{
	/* five rounds 2x, one 0.9x: with 6 pairs the interval spans them all */
	const double r[] = {2, 2, 2, 0.9, 2, 2};
	struct bench_estimate e;
	estimate(r, 6, &e);
	assert_true(e.low < 1);
	assert_int_equal(e.verdict, BENCH_SAME);
}

static void too_few_rounds_have_no_interval(void **state)
{
	const double r[] = {3, 3, 3, 3, 3};
	struct bench_estimate e;
	for (size_t n = 1; n <= 5; n++) {
		estimate(r, n, &e);
		assert_int_equal(e.has_interval, 0);
		assert_int_equal(e.verdict, BENCH_SAME);
		assert_true(fabs(e.ratio - 3) < 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(critical_values_as_the_tables),
		cmocka_unit_test(six_rounds_all_above_the_floor_are_faster),
		cmocka_unit_test(within_the_noise_floor_is_the_same),
		cmocka_unit_test(one_round_against_the_rest_is_the_same),
		cmocka_unit_test(too_few_rounds_have_no_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
