/* bisect's planner: halving the range, past skipped versions (bisect/bisect_plan.h). */
#include "bisect/bisect_plan.h"
#include "gputest/bench_stats.h"
#include "base/alloc.h"

#include <stdlib.h>

void bisect_plan_start(struct bisect_plan *p, size_t n, size_t lo, size_t hi)
{
	p->lo = lo;
	p->hi = hi;
	p->tested = xcalloc(n ? n : 1, 1);
}

void bisect_plan_free(struct bisect_plan *p)
{
	free(p->tested);
	p->tested = NULL;
}

size_t bisect_plan_next(const struct bisect_plan *p)
{
	size_t mid = p->lo + (p->hi - p->lo) / 2, best = 0, dist = (size_t)-1;
	for (size_t i = p->lo + 1; i < p->hi; i++) {
		size_t d = i > mid ? i - mid : mid - i;
		if (!p->tested[i] && d < dist) {
			best = i;
			dist = d;
		}
	}
	return best;
}

void bisect_plan_record(struct bisect_plan *p, size_t i, enum bisect_verdict v)
{
	p->tested[i] = 1;
	if (v == BISECT_GOOD && i > p->lo && i < p->hi)
		p->lo = i;
	else if (v == BISECT_BAD && i > p->lo && i < p->hi)
		p->hi = i;
}

size_t bisect_plan_unresolved(const struct bisect_plan *p)
{
	return p->hi > p->lo ? p->hi - p->lo - 1 : 0;
}

enum bisect_verdict bisect_bench_judge(const struct bench_estimate *est, int rounds, int max_rounds, int *again)
{
	*again = 0;
	if (est->verdict == BENCH_SLOWER)
		return BISECT_BAD;
	if (est->verdict == BENCH_FASTER || est->verdict == BENCH_SAME)
		return BISECT_GOOD;
	if (rounds < max_rounds) {
		long want = est->rounds_needed > 2L * rounds ? est->rounds_needed : 2L * rounds;
		*again = want > max_rounds ? max_rounds : (int)want;
	}
	return BISECT_SKIP;
}
