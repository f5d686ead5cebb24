/* "Did you mean …?": edit distance over a table of names (tb323fu-mesa/common/suggest.h). */
#include "common/suggest.h"

#include <string.h>

enum { WORD_MAX = 63, FAR = 1000 };

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

int suggest_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > WORD_MAX || m > WORD_MAX)
		return FAR;
	static int d[WORD_MAX + 1][WORD_MAX + 1];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[n][m];
}

static const char *name_at(const void *table, size_t i, size_t stride)
{
	const char *const *p = (const char *const *)((const char *)table + i * stride);
	return *p;
}

const char *suggest_name(const char *word, const void *table, size_t count, size_t stride)
{
	size_t len = strlen(word);
	const char *best = NULL, *prefixed = NULL;
	int best_d = FAR, prefixes = 0;
	for (size_t i = 0; i < count; i++) {
		const char *name = name_at(table, i, stride);
		if (!name)
			continue;
		int dist = suggest_distance(word, name);
		if (dist < best_d)
			best_d = dist, best = name;
		if (len >= 2 && strncmp(name, word, len) == 0)
			prefixes++, prefixed = name;
	}
	/* Skip the "-" or "--" of an option when judging how long the word is. */
	size_t core = len - strspn(word, "-");
	int allowed = core <= 4 ? 1 : 2;
	if (best && best_d <= allowed && best_d < (int)core)
		return best;
	return prefixes == 1 ? prefixed : NULL;
}
