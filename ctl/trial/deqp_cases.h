/* The cases a dEQP-VK run takes (docs/design.md §10): listed by the binary itself for the
 * groups asked for, or read from a case list file; bounded, without duplicates, and cut to a
 * fraction. */
#ifndef TB_DEQP_CASES_H
#define TB_DEQP_CASES_H

#include <stddef.h>

#include "base/error.h"

/* The groups run when none are asked for: what the port's claim names. */
#define DEQP_DEFAULT_GROUPS "compute,synchronization,synchronization2,memory_model"
/* The quick tier, also a valid --groups. */
#define DEQP_QUICK_GROUPS "api.smoke,info"
/* The most cases one run takes, and the most bytes of names read to find them: dEQP-VK has
 * about two million cases in all, the default groups about 225,000. */
#define DEQP_CASES_MAX ((size_t)1 << 21)
#define DEQP_CASES_MAX_BYTES ((size_t)256 << 20)
/* A lister that names cases again this often repeats itself: it is stopped there. */
#define DEQP_DUPLICATES_MAX ((size_t)1 << 16)

struct deqp_cases {
	char **names;       /* in the order listed, each once */
	size_t n;
	size_t duplicates;  /* names listed again, taken once */
	size_t cut;         /* names left out past DEQP_CASES_MAX or DEQP_CASES_MAX_BYTES, or
			     * over the longest name kept: counted, not kept */
};

/* NULL when groups is a valid comma-separated list of group paths ("compute",
 * "api.smoke"; "quick" for DEQP_QUICK_GROUPS), else the first bad one (free it). */
char *deqp_groups_invalid(const char *groups);

/* The cases of groups (NULL or "": DEQP_DEFAULT_GROUPS) as deqp (run in its directory)
 * lists them with --deqp-runmode=stdout-caselist. */
int deqp_cases_list(struct deqp_cases *c, const char *deqp, const char *groups, struct tb_error *e);
/* The cases of a file, one name a line ('#' comments and blank lines skipped): names
 * only, no patterns; a name that is not a dEQP-VK case's is refused (usage). */
int deqp_cases_read(struct deqp_cases *c, const char *path, struct tb_error *e);

/* Keeps every n-th case from the k-th on (1-based; deqp-runner's --fraction N
 * --fraction-start K): a deterministic share that another machine can complement. */
void deqp_cases_fraction(struct deqp_cases *c, unsigned n, unsigned k);
/* NULL when spec is "N" or "N/K" with 1 <= K <= N <= 1000000, else why not (static). */
const char *deqp_fraction_parse(const char *spec, unsigned *n, unsigned *k);

void deqp_cases_free(struct deqp_cases *c);

#endif
