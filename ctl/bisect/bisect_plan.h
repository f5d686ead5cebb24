/* bisect's planner (docs/design.md §13): over versions in release order, which one to test
 * next and where the range stands after each verdict, git bisect run's way. No I/O: the
 * bisection (bisect/bisect.c) runs the tests, the planner only chooses. */
#ifndef TB_BISECT_PLAN_H
#define TB_BISECT_PLAN_H

#include <stddef.h>

enum bisect_verdict { BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

struct bisect_plan {
	size_t lo, hi;         /* the newest index known good, the oldest known bad */
	unsigned char *tested; /* per index: tested already (a skip counts: it is not tried again) */
};

/* The plan over indexes [lo, hi] of n versions: lo named good, hi named bad, none tested. */
void bisect_plan_start(struct bisect_plan *p, size_t n, size_t lo, size_t hi);
void bisect_plan_free(struct bisect_plan *p);

/* The untested version nearest the middle of (lo, hi), the older of two as near; 0 when none
 * is left between them (index 0 is never strictly inside a range). */
size_t bisect_plan_next(const struct bisect_plan *p);

/* Index i tested with verdict v: good moves lo up to it, bad moves hi down to it, a skip
 * leaves the range as it is. */
void bisect_plan_record(struct bisect_plan *p, size_t i, enum bisect_verdict v);

/* How many versions lie strictly between lo and hi once nothing is left to test there:
 * the skipped ones the first bad version may be. */
size_t bisect_plan_unresolved(const struct bisect_plan *p);

/* bisect --bench (docs/design.md §13): a version measured against the good end, rounds of
 * both alternately, judged by bench's statistics (gputest/bench_stats.h). */
struct bench_estimate;
/* The most rounds a step measures before an unclear version is skipped. */
#define BISECT_BENCH_MAX_ROUNDS 60
/* What the estimate says of a version after rounds rounds: slower beyond the noise floor is bad,
 * faster or the same good; unclear returns BISECT_SKIP with *again the rounds to measure it
 * again with (the rounds the spread would need, at least twice those run, at most
 * max_rounds), or 0 when rounds already reached max_rounds: skipped, never guessed. */
enum bisect_verdict bisect_bench_judge(const struct bench_estimate *est, int rounds, int max_rounds, int *again);

#endif
