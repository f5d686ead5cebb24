/* bench's statistics: the signed-rank table's critical values, the interval around the
 * Hodges-Lehmann estimate, the verdict with its noise floor (faster, slower, same, unclear)
 * and the rounds an unclear one would need, on fixed rounds and on seeded noise. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gputest/bench_stats.h"

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
	/* every round 2 % faster: the interval excludes 1, not the 3 % floor, and lies within it */
	const double r[] = {1.02, 1.02, 1.021, 1.019, 1.02, 1.02, 1.02};
	struct bench_estimate e;
	estimate(r, 7, &e);
	assert_true(e.low > 1);
	assert_true(e.high < 1.03);
	assert_int_equal(e.verdict, BENCH_SAME);
	assert_int_equal(e.rounds_needed, 0);
	assert_string_equal(bench_verdict_name(e.verdict), "same");
	const double slow[] = {0.5, 0.52, 0.49, 0.5, 0.51, 0.5};
	estimate(slow, 6, &e);
	assert_int_equal(e.verdict, BENCH_SLOWER);
	assert_string_equal(bench_verdict_name(e.verdict), "slower");
}

static void one_round_against_the_rest_is_unclear(void **state)
{
	/* five rounds 2x, one 0.9x: with 6 pairs the interval spans them all, across the floor */
	const double r[] = {2, 2, 2, 0.9, 2, 2};
	struct bench_estimate e;
	estimate(r, 6, &e);
	assert_true(e.low < 1);
	assert_int_equal(e.verdict, BENCH_UNCLEAR);
	assert_string_equal(bench_verdict_name(e.verdict), "unclear");
	assert_true(e.rounds_needed > 6);
}

static void an_interval_that_reaches_the_floor_is_unclear(void **state)
{
	/* all within 2 % but one round 5 % faster: with 6 pairs the interval reaches 1.05 */
	const double r[] = {1.0, 1.01, 0.99, 1.05, 1.0, 1.02};
	struct bench_estimate e;
	estimate(r, 6, &e);
	assert_true(e.high > 1.03 && e.low < 1.03);
	assert_int_equal(e.verdict, BENCH_UNCLEAR);
	assert_true(e.rounds_needed > 6);
	/* and the same across the lower edge */
	const double s[] = {1.0, 0.99, 1.01, 0.95, 1.0, 0.98};
	estimate(s, 6, &e);
	assert_true(e.low < 1 / 1.03 && e.high > 1 / 1.03);
	assert_int_equal(e.verdict, BENCH_UNCLEAR);
}

static void identical_figures_are_the_same(void **state)
{
	const double r[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	struct bench_estimate e;
	estimate(r, 10, &e);
	assert_int_equal(e.verdict, BENCH_SAME);
	assert_true(e.low == 1 && e.high == 1 && e.ratio == 1);
	assert_int_equal(e.rounds_needed, 0);
}

static void too_few_rounds_have_no_interval(void **state)
{
	const double r[] = {3, 3, 3, 3, 3};
	struct bench_estimate e;
	for (size_t n = 1; n <= 5; n++) {
		estimate(r, n, &e);
		assert_int_equal(e.has_interval, 0);
		assert_int_equal(e.verdict, BENCH_UNCLEAR);
		assert_true(fabs(e.ratio - 3) < 1e-9);
		/* no spread: the fewest rounds an interval exists for */
		assert_int_equal(e.rounds_needed, BENCH_MIN_ROUNDS);
	}
	/* a spread: more rounds, from the rounds' standard deviation */
	const double wide[] = {0.5, 2, 1, 0.7, 1.4};
	estimate(wide, 5, &e);
	assert_int_equal(e.verdict, BENCH_UNCLEAR);
	assert_true(e.rounds_needed > BENCH_MIN_ROUNDS);
}

/* Seeded noise, the same on every machine: splitmix64 and Box-Muller. */
struct noise {
	uint64_t state;
};

static double uniform(struct noise *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0; /* in (0, 1) */
}

static double normal(struct noise *g)
{
	double u = uniform(g), v = uniform(g);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A bench's rounds as bench pairs them: each side's figure its median times exp(sigma N(0,1)),
 * the log ratio store/distribution of each round. */
static void seeded_rounds(uint64_t seed, double store, double distro, double sigma, size_t n, double *logs)
{
	struct noise g = {seed * 0x2545f4914f6cdd1dULL};
	for (size_t i = 0; i < n; i++) {
		double s = store * exp(sigma * normal(&g)), d = distro * exp(sigma * normal(&g));
		logs[i] = log(s) - log(d);
	}
}

/* verdicts of 20 seeded benches of n rounds: counts by verdict */
static void verdicts(double store, double distro, double sigma, size_t n, int counts[4], long *most_needed)
{
	double logs[1000];
	counts[0] = counts[1] = counts[2] = counts[3] = 0;
	*most_needed = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct bench_estimate e;
		seeded_rounds(seed, store, distro, sigma, n, logs);
		bench_estimate(logs, n, &e);
		assert_true(!e.has_interval || (e.low <= e.ratio && e.ratio <= e.high));
		assert_true((e.verdict == BENCH_UNCLEAR) == (e.rounds_needed > 0));
		counts[e.verdict]++;
		if (e.rounds_needed > *most_needed)
			*most_needed = e.rounds_needed;
	}
}

static void seeded_noise_gives_the_verdict_it_allows(void **state)
{
	int c[4];
	long need;
	/* the same distribution, lognormal sigma 0.1 on each side, 10 rounds (the default): the
	 * interval is wider than the floor, so never same; unclear in at least 19 of 20 (a 95 %
	 * interval misses the truth in 1 of 20) */
	verdicts(100, 100, 0.1, 10, c, &need);
	assert_true(c[BENCH_UNCLEAR] >= 19);
	assert_int_equal(c[BENCH_SAME], 0);
	assert_true(need > 10);
	/* 2x apart: faster in 20 of 20; 0.5x: slower in 20 of 20 */
	verdicts(200, 100, 0.1, 10, c, &need);
	assert_int_equal(c[BENCH_FASTER], 20);
	verdicts(100, 200, 0.1, 10, c, &need);
	assert_int_equal(c[BENCH_SLOWER], 20);
	/* quiet noise (sigma 0.005) on the same build: same in 20 of 20 */
	verdicts(100, 100, 0.005, 10, c, &need);
	assert_int_equal(c[BENCH_SAME], 20);
	/* 3 rounds: unclear in 20 of 20, whatever the figures */
	verdicts(200, 100, 0.1, 3, c, &need);
	assert_int_equal(c[BENCH_UNCLEAR], 20);
	/* a 10 % difference under sigma 0.1 is unclear at 10 rounds in most runs… */
	verdicts(110, 100, 0.1, 10, c, &need);
	assert_true(c[BENCH_UNCLEAR] >= 10 && c[BENCH_SLOWER] == 0 && c[BENCH_SAME] == 0);
}

/* The rounds an unclear bench names are enough: the same noise, run again with that many rounds,
 * decides in most runs. */
static void the_rounds_named_decide(void **state)
{
	double logs[1000];
	int decided = 0, runs = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct bench_estimate e;
		seeded_rounds(seed, 115, 100, 0.1, 10, logs);
		bench_estimate(logs, 10, &e);
		if (e.verdict != BENCH_UNCLEAR || e.rounds_needed > 1000)
			continue;
		seeded_rounds(seed + 1000, 115, 100, 0.1, (size_t)e.rounds_needed, logs);
		bench_estimate(logs, (size_t)e.rounds_needed, &e);
		runs++;
		decided += e.verdict == BENCH_FASTER;
	}
	assert_true(runs >= 5);
	assert_true(decided * 2 > runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(critical_values_as_the_tables),
		cmocka_unit_test(six_rounds_all_above_the_floor_are_faster),
		cmocka_unit_test(within_the_noise_floor_is_the_same),
		cmocka_unit_test(one_round_against_the_rest_is_unclear),
		cmocka_unit_test(an_interval_that_reaches_the_floor_is_unclear),
		cmocka_unit_test(identical_figures_are_the_same),
		cmocka_unit_test(too_few_rounds_have_no_interval),
		cmocka_unit_test(seeded_noise_gives_the_verdict_it_allows),
		cmocka_unit_test(the_rounds_named_decide),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
