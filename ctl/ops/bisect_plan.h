/* bisect's planner (docs/design.md §13): over versions in release order, which one to test
 * next and where the range stands after each verdict, git bisect run's way. No I/O: the
 * bisection (ops/bisect.c) runs the tests, the planner only chooses. */
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

#endif
