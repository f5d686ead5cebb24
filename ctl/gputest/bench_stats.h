/* What bench's rounds allow it to say (docs/design.md §10): a ratio, its 95 % interval and a
 * verdict, from the rounds' paired ratios, by ranks (Wilcoxon's signed-rank interval around
 * the Hodges-Lehmann estimate): no random numbers, no assumption about the noise's shape. */
#ifndef TB_BENCH_STATS_H
#define TB_BENCH_STATS_H

#include <stddef.h>

/* A ratio within this much of 1 is noise. The verdict has three answers, as an equivalence test
 * gives them: faster when the whole 95 % interval lies above 1.03, slower when it lies below
 * 1/1.03, same only when it lies within [1/1.03, 1.03]; any other interval (one that reaches
 * across the floor) and too few rounds for an interval are unclear. */
#define BENCH_NOISE_FLOOR 0.03
#define BENCH_NOISE_FLOOR_TEXT "3 %"
/* The fewest rounds a 95 % signed-rank interval exists for (2 * 2^-6 < 0.05). */
#define BENCH_MIN_ROUNDS 6
/* The most rounds bench runs (--rounds' bound). */
#define BENCH_MAX_ROUNDS 1000

enum bench_verdict { BENCH_SAME, BENCH_FASTER, BENCH_SLOWER, BENCH_UNCLEAR };

struct bench_estimate {
	double ratio;     /* exp of the Hodges-Lehmann estimate of the log ratios */
	int has_interval; /* 0: fewer than BENCH_MIN_ROUNDS ratios, no 95 % interval exists */
	double low, high; /* the interval of the ratio, when has_interval */
	double level;     /* its exact confidence (>= 0.95), when has_interval */
	enum bench_verdict verdict;
	/* With BENCH_UNCLEAR: the rounds the observed spread would need for an interval narrow
	 * enough to decide (at least BENCH_MIN_ROUNDS, one more than were run; may exceed
	 * BENCH_MAX_ROUNDS when the estimate sits at the floor). 0 when the verdict is decided. */
	long rounds_needed;
};

/* logs: one value a round, log(store/distribution) turned so that > 0 means the store's
 * build is faster; n >= 1 (finite values). logs is not changed. */
void bench_estimate(const double *logs, size_t n, struct bench_estimate *out);

/* "faster", "slower", "same", "unclear". */
const char *bench_verdict_name(enum bench_verdict v);

/* The largest c with P(T <= c) <= alpha/2 for Wilcoxon's signed-rank statistic T of n pairs
 * (exact up to 60 pairs, the normal approximation beyond); -1 when even c = 0 is too likely
 * (fewer than BENCH_MIN_ROUNDS pairs). *level gets 1 - 2 P(T <= c). */
long bench_signed_rank_critical(size_t n, double alpha, double *level);

#endif
