/* The dEQP modules the suites run (dEQP-VK, dEQP-GLES2, dEQP-GLES3, dEQP-EGL), and the cases a
 * run of one takes (docs/design.md §10): listed by the binary itself for the groups asked for,
 * or read from a case list file; bounded, without duplicates, and cut to a fraction. */
#ifndef TB_DEQP_CASES_H
#define TB_DEQP_CASES_H

#include <stddef.h>

#include "base/error.h"

#define DEQP_KIND_OPTIONS_MAX 4
#define DEQP_KIND_ENV_MAX 1

/* A dEQP module of VK-GL-CTS: one binary whose cases all begin with its name. */
struct deqp_kind {
	const char *name;    /* "dEQP-VK": the suite's name and the first part of its cases' */
	const char *alias;   /* another name --suite takes: "deqp-vk" */
	const char *binary;  /* "deqp-vk" */
	const char *subdir;  /* its folder under the recipe's (and a --deqp directory): "" or "gles2" */
	const char *recipe;  /* the build recipe that builds it: "deqp-vk" */
	const char *api;     /* what the release must ship for it: "Vulkan" or "GL" */
	const char *groups;  /* the groups run when none are asked for */
	const char *quick;   /* the quick tier (--groups quick) */
	const char *example; /* a case, for sentences */
	/* what every run and listing passes beyond the case list and the log, NULL-terminated:
	 * the surfaceless GL modules draw into a pbuffer of one configuration */
	const char *options[DEQP_KIND_OPTIONS_MAX + 1];
	/* what its process's environment needs (KEY=VALUE), NULL-terminated: the GL modules ask
	 * EGL's default display for Mesa's surfaceless platform */
	const char *env[DEQP_KIND_ENV_MAX + 1];
};

/* Every module, dEQP-VK first; NULL after the last. */
extern const struct deqp_kind *const deqp_kinds[];
extern const struct deqp_kind deqp_vk_kind, deqp_gles2_kind, deqp_gles3_kind, deqp_egl_kind;
/* The command line that runs the module's binary deqp: prefix (NULL: none), env(1) with the
 * module's environment when it needs one, deqp, args (NULL-terminated) and the module's
 * options; NULL-terminated, every string allocated. NULL with a failure when env(1) is needed
 * and not in PATH. */
char **deqp_command(const struct deqp_kind *k, char *const prefix[], const char *deqp,
		    char *const args[], struct tb_error *e);
/* Frees deqp_command's answer. */
void deqp_command_free(char **argv);
/* The module of that name (or alias), or NULL. */
const struct deqp_kind *deqp_kind_find(const char *name);
/* The module whose cases case_name is one of ("dEQP-GLES3.info.vendor"), or NULL. */
const struct deqp_kind *deqp_kind_of_case(const char *case_name);

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
 * "api.smoke"; "quick" for a module's quick tier), else the first bad one (free it). */
char *deqp_groups_invalid(const char *groups);

/* The cases of groups of module k (NULL or "": k's default groups; "quick": its quick tier) as
 * deqp (run in its directory, with k's options) lists them with
 * --deqp-runmode=stdout-caselist. */
int deqp_cases_list(struct deqp_cases *c, const struct deqp_kind *k, const char *deqp,
		    const char *groups, struct tb_error *e);
/* The cases of a file, one name a line ('#' comments and blank lines skipped): names
 * only, no patterns; a name that is not a case of module k is refused (usage). */
int deqp_cases_read(struct deqp_cases *c, const struct deqp_kind *k, const char *path,
		    struct tb_error *e);

/* Keeps every n-th case from the k-th on (1-based; deqp-runner's --fraction N
 * --fraction-start K): a deterministic share that another machine can complement. */
void deqp_cases_fraction(struct deqp_cases *c, unsigned n, unsigned k);
/* NULL when spec is "N" or "N/K" with 1 <= K <= N <= 1000000, else why not (static). */
const char *deqp_fraction_parse(const char *spec, unsigned *n, unsigned *k);

void deqp_cases_free(struct deqp_cases *c);

#endif
