/* bisect's planner over tables of verdicts: the order it tests versions in, the answer it
 * comes to, past skipped versions, for every first bad version of ranges up to 64 and every
 * set of skipped versions of ranges up to 10. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bisect/bisect_plan.h"
#include "gputest/bench_stats.h"

#include <math.h>

struct run {
	size_t order[80]; /* the indexes tested, the two ends first */
	size_t n_order;
	size_t lo, hi, unresolved;
};

/* A bisect over n versions, 0 good and n-1 bad, where the first bad one is first_bad and the
 * versions of skip_mask (bit i: index i) cannot be tested, as bisect/bisect.c drives the plan. */
static void simulate(size_t n, size_t first_bad, uint64_t skip_mask, struct run *r)
{
	struct bisect_plan p;
	bisect_plan_start(&p, n, 0, n - 1);
	r->n_order = 0;
	r->order[r->n_order++] = n - 1;
	bisect_plan_record(&p, n - 1, BISECT_BAD);
	r->order[r->n_order++] = 0;
	bisect_plan_record(&p, 0, BISECT_GOOD);
	size_t i;
	while ((i = bisect_plan_next(&p))) {
		assert_true(r->n_order < sizeof r->order / sizeof *r->order);
		r->order[r->n_order++] = i;
		enum bisect_verdict v = (skip_mask >> i) & 1 ? BISECT_SKIP : i >= first_bad ? BISECT_BAD : BISECT_GOOD;
		bisect_plan_record(&p, i, v);
	}
	r->lo = p.lo;
	r->hi = p.hi;
	r->unresolved = bisect_plan_unresolved(&p);
	bisect_plan_free(&p);
}

static void eight_versions_in_five_runs(void **state)
{
	/* 2026.11.01 … 08, the fifth the first bad: the ends, then 04, 06, 05 */
	struct run r;
	simulate(8, 4, 0, &r);
	const size_t want[] = {7, 0, 3, 5, 4};
	assert_int_equal(r.n_order, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(r.order[i], want[i]);
	assert_int_equal(r.lo, 3);
	assert_int_equal(r.hi, 4);
	assert_int_equal(r.unresolved, 0);
}

static void a_skip_tries_its_nearest_neighbour(void **state)
{
	/* 06 cannot be tested: 05 (as near as 07, the older) is next, and the answer stands */
	struct run r;
	simulate(8, 4, 1u << 5, &r);
	const size_t want[] = {7, 0, 3, 5, 4};
	assert_int_equal(r.n_order, 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(r.order[i], want[i]);
	assert_int_equal(r.lo, 3);
	assert_int_equal(r.hi, 4);
	/* 05 skipped as well: the first bad is 05 or 06, said as one skipped before 06 */
	simulate(8, 4, (1u << 5) | (1u << 4), &r);
	assert_int_equal(r.lo, 3);
	assert_int_equal(r.hi, 6);
	assert_int_equal(r.unresolved, 2);
}

static size_t ceil_log2(size_t x)
{
	size_t k = 0;
	while (((size_t)1 << k) < x)
		k++;
	return k;
}

static void halving_finds_every_first_bad_in_log_runs(void **state)
{
	for (size_t n = 2; n <= 64; n++)
		for (size_t k = 1; k < n; k++) {
			struct run r;
			simulate(n, k, 0, &r);
			assert_int_equal(r.lo, k - 1);
			assert_int_equal(r.hi, k);
			assert_int_equal(r.unresolved, 0);
			assert_true(r.n_order <= 2 + ceil_log2(n - 1));
		}
}

static void skipped_versions_never_hide_the_answer(void **state)
{
	/* every set of skipped versions inside ranges up to 10: the first bad lies in (lo, hi],
	 * lo tested good (or the good end), hi bad, and what lies between them was skipped */
	for (size_t n = 3; n <= 10; n++)
		for (size_t k = 1; k < n; k++)
			for (uint64_t mask = 0; mask < (1u << (n - 2)); mask++) {
				uint64_t skip = mask << 1; /* never the ends */
				struct run r;
				simulate(n, k, skip, &r);
				assert_true(r.lo < k && k <= r.hi);
				assert_true(r.lo == 0 || !((skip >> r.lo) & 1));
				assert_true(r.hi == n - 1 || !((skip >> r.hi) & 1));
				for (size_t i = r.lo + 1; i < r.hi; i++)
					assert_true((skip >> i) & 1);
				assert_int_equal(r.unresolved, r.hi - r.lo - 1);
				/* each version tested once at most */
				for (size_t a = 0; a < r.n_order; a++)
					for (size_t b = a + 1; b < r.n_order; b++)
						assert_true(r.order[a] != r.order[b]);
			}
}

static void two_versions_need_only_their_ends(void **state)
{
	struct run r;
	simulate(2, 1, 0, &r);
	assert_int_equal(r.n_order, 2);
	assert_int_equal(r.lo, 0);
	assert_int_equal(r.hi, 1);
}

/* bisect --bench's judgement on fixed rounds (log ratios of the version against the good end):
 * 30 % slower is bad, the same and faster good, noise across the floor measured again with
 * more rounds up to the bound, then skipped. */
static enum bisect_verdict judge(const double *logs, size_t n, int *again)
{
	struct bench_estimate est;
	bench_estimate(logs, n, &est);
	return bisect_bench_judge(&est, (int)n, BISECT_BENCH_MAX_ROUNDS, again);
}

static void bench_verdicts_decide_the_step(void **state)
{
	double slower[6], same[6], faster[6];
	for (int i = 0; i < 6; i++) {
		slower[i] = log(0.7) + 0.001 * i;
		same[i] = 0.001 * (i - 3);
		faster[i] = log(1.5) - 0.001 * i;
	}
	int again = -1;
	assert_int_equal(judge(slower, 6, &again), BISECT_BAD);
	assert_int_equal(again, 0);
	assert_int_equal(judge(same, 6, &again), BISECT_GOOD);
	assert_int_equal(judge(faster, 6, &again), BISECT_GOOD);
	/* noise across the floor: measured again, with more rounds */
	static const double noisy[6] = {0.2, -0.2, 0.15, -0.1, 0.05, -0.12};
	assert_int_equal(judge(noisy, 6, &again), BISECT_SKIP);
	assert_true(again >= 12 && again <= BISECT_BENCH_MAX_ROUNDS);
	/* too few rounds for an interval: unclear, measured again */
	assert_int_equal(judge(slower, 3, &again), BISECT_SKIP);
	assert_true(again >= 6);
	/* at the bound: skipped, never guessed */
	struct bench_estimate est;
	bench_estimate(noisy, 6, &est);
	assert_int_equal(bisect_bench_judge(&est, BISECT_BENCH_MAX_ROUNDS, BISECT_BENCH_MAX_ROUNDS, &again), BISECT_SKIP);
	assert_int_equal(again, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(eight_versions_in_five_runs),
		cmocka_unit_test(bench_verdicts_decide_the_step),
		cmocka_unit_test(a_skip_tries_its_nearest_neighbour),
		cmocka_unit_test(halving_finds_every_first_bad_in_log_runs),
		cmocka_unit_test(skipped_versions_never_hide_the_answer),
		cmocka_unit_test(two_versions_need_only_their_ends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
