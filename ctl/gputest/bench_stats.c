/* bench's statistics: Wilcoxon's signed-rank interval of the rounds' paired log ratios, and the
 * verdict it allows (docs/design.md §10). */
#include "gputest/bench_stats.h"

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

#define EXACT_UP_TO 60

const char *bench_verdict_name(enum bench_verdict v)
{
	return v == BENCH_FASTER ? "faster" : v == BENCH_SLOWER ? "slower" : v == BENCH_SAME ? "same" : "unclear";
}

/* P(T <= c) for c = 0, 1, …: the exact null distribution of the signed-rank sum, by counting
 * the subsets of ranks 1..n with each sum (probabilities, so 2^n never overflows). */
static long exact_critical(size_t n, double alpha, double *level)
{
	size_t max = n * (n + 1) / 2;
	double *p = xcalloc(max + 1, sizeof *p);
	p[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = max; s + 1 > 0; s--)
			p[s] = (p[s] + (s >= r ? p[s - r] : 0)) / 2;
	long c = -1;
	double cum = 0, at_c = 0;
	for (size_t s = 0; s <= max; s++) {
		cum += p[s];
		if (cum > alpha / 2)
			break;
		c = (long)s;
		at_c = cum;
	}
	free(p);
	*level = c < 0 ? 0 : 1 - 2 * at_c;
	return c;
}

long bench_signed_rank_critical(size_t n, double alpha, double *level)
{
	if (n <= EXACT_UP_TO)
		return exact_critical(n, alpha, level);
	/* z for alpha = 0.05; bench asks for no other level */
	double z = 1.959963984540054, nn = (double)n;
	double mean = nn * (nn + 1) / 4, sd = sqrt(nn * (nn + 1) * (2 * nn + 1) / 24);
	long c = (long)floor(mean - z * sd - 0.5);
	*level = 1 - alpha;
	return c < 0 ? -1 : c;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The verdict of an interval [lo, hi] of log ratios against the floor. */
static enum bench_verdict verdict_of(double lo, double hi)
{
	double floor_log = log1p(BENCH_NOISE_FLOOR);
	if (lo > floor_log)
		return BENCH_FASTER;
	if (hi < -floor_log)
		return BENCH_SLOWER;
	if (lo >= -floor_log && hi <= floor_log)
		return BENCH_SAME;
	return BENCH_UNCLEAR;
}

/* A rounds count from a real estimate, bounded so that it fits a long. */
static long rounds_of(double want)
{
	if (!(want < 1e9))
		return 1000000000L;
	return (long)ceil(want);
}

/* The rounds an unclear estimate would need: an interval's half-width shrinks as one over the
 * square root of the rounds, and to decide it must fit between the estimate and the floor
 * (|center| - floor to say faster or slower, floor - |center| to say same). With no interval,
 * the half-width comes from the rounds' standard deviation (1.96 sd / sqrt(n)); with one
 * round or no spread at all, the fewest rounds an interval exists for. */
static long rounds_needed(const double *logs, size_t n, double center, int has_interval, double lo,
			  double hi)
{
	double gap = fabs(fabs(center) - log1p(BENCH_NOISE_FLOOR)), want;
	if (has_interval) {
		double half = (hi - lo) / 2;
		want = gap > 0 ? (double)n * (half / gap) * (half / gap) : INFINITY;
	} else {
		double mean = 0, ss = 0;
		for (size_t i = 0; i < n; i++)
			mean += logs[i] / (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (logs[i] - mean) * (logs[i] - mean);
		double sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
		want = sd > 0 && gap > 0 ? (1.959963984540054 * sd / gap) * (1.959963984540054 * sd / gap)
		       : sd > 0 ? INFINITY : 0;
	}
	long need = rounds_of(want);
	if (need <= (long)n)
		need = (long)n + 1;
	return need < BENCH_MIN_ROUNDS ? BENCH_MIN_ROUNDS : need;
}

void bench_estimate(const double *logs, size_t n, struct bench_estimate *out)
{
	/* Walsh averages: (x_i + x_j) / 2 for every i <= j */
	size_t m = n * (n + 1) / 2, k = 0;
	double *w = xcalloc(m ? m : 1, sizeof *w);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (logs[i] + logs[j]) / 2;
	qsort(w, m, sizeof *w, cmp_double);
	double hl = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2, lo = 0, hi = 0;
	out->ratio = exp(hl);
	out->verdict = BENCH_UNCLEAR;
	long c = bench_signed_rank_critical(n, 0.05, &out->level);
	out->has_interval = c >= 0;
	out->low = out->high = 0;
	if (out->has_interval) {
		lo = w[c];
		hi = w[m - 1 - (size_t)c];
		out->low = exp(lo);
		out->high = exp(hi);
		out->verdict = verdict_of(lo, hi);
	} else {
		out->level = 0;
	}
	out->rounds_needed = out->verdict == BENCH_UNCLEAR
				     ? rounds_needed(logs, n, hl, out->has_interval, lo, hi) : 0;
	free(w);
}
