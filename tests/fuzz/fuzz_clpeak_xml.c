/* libFuzzer target: the reader of clpeak's XML results. Any bytes: no crash, no leak, and
 * every figure it reports has a short printable name, a unit and a finite value. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gputest/bench.h"

static int printable(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (!n || n >= max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]))
			return 0;
	return 1;
}

static void check_figure(void *ctx, const char *name, const char *unit, double value)
{
	(*(int *)ctx)++;
	if (!printable(name, 256) || !printable(unit, 32) || !isfinite(value))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int seen = 0;
	int n = bench_parse_clpeak_xml((const char *)data, size, check_figure, &seen);
	if (n != (n < 0 ? -1 : seen) || (n < 0 && seen))
		abort();
	return 0;
}
