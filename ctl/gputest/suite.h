/* The suites of docs/design.md §10 (piglit-cl, opencl-cts, dEQP-VK, dEQP-GLES2, dEQP-GLES3,
 * dEQP-EGL), each registered once: its
 * names, the options of `smoke --suite` it takes, its runner and what its sentence adds.
 * `smoke --suite NAME` and mesa.conf's smoke_suite find a suite here. */
#ifndef TB_SUITE_H
#define TB_SUITE_H

#include "base/config.h"
#include "base/error.h"
#include "base/progress.h"
#include "base/strbuf.h"
#include "store/store.h"

struct json_object;

/* What one run of a suite found. */
struct suite_outcome {
	int tests, regressions;
	int partial;         /* narrowed (a filter, a subset, a budget that ran out): not the suite */
	char ran[256];       /* "only what --filter X selects; …" when partial */
	int distro_cached;   /* the distribution's side came from the cache */
	char names[512];     /* "a, b, c": the first regressions */
};

/* What `smoke --suite` chose (NULL or 0: not given, so mesa.conf's value applies where the
 * suite has one). */
struct suite_options {
	const char *profile, *filter;                    /* piglit-cl */
	const char *tests, *subtests, *cts;              /* opencl-cts */
	const char *deqp, *groups, *caselist, *fraction; /* the dEQP suites */
	int budget, jobs;                                /* opencl-cts, the dEQP suites */
};

/* The options of `smoke --suite` a suite takes, by group. */
enum {
	SUITE_OPT_PIGLIT = 1 << 0, /* --profile, --filter */
	SUITE_OPT_CTS = 1 << 1,    /* --tests (the binaries), --subtests, --cts */
	SUITE_OPT_DEQP = 1 << 2,   /* --groups, --fraction, --deqp, --caselist */
	SUITE_OPT_RUN = 1 << 3,    /* --budget, --jobs */
};

/* The names `smoke --suite` takes (every suite's name and alias), as an option's choices. */
#define SUITE_CHOICES "piglit-cl|opencl-cts|dEQP-VK|deqp-vk|dEQP-GLES2|deqp-gles2|dEQP-GLES3|deqp-gles3|dEQP-EGL|deqp-egl"

struct suite {
	const char *name;  /* mesa.conf's smoke_suite, the key in smoke/<v>.json's suites */
	const char *alias; /* another name --suite takes (deqp-vk), or NULL */
	const char *units; /* what the sentence after install counts ("piglit-cl tests") */
	unsigned options;  /* SUITE_OPT_* */
	/* Runs the suite on both sides with o's choices over mesa.conf's (o NULL: after an
	 * install, mesa.conf's alone), writes the comparison to smoke/<v>.json's suites.NAME and
	 * returns it in *result (json_object_put it; may be NULL). TB_OK when both sides ran:
	 * look at out->regressions. */
	int (*run)(struct store *s, const char *version, const struct suite_options *o,
		   const struct config *cfg, const struct tb_progress *p, struct suite_outcome *out,
		   struct json_object **result, struct tb_error *e);
	/* Appends to the sentence what the result says did not run or was cut; may be NULL. */
	void (*notes)(struct strbuf *sb, struct json_object *result);
};

/* The registered suites (gputest/suite_piglit.c, suite_cts.c, suite_deqp.c). */
extern const struct suite piglit_cl_suite, opencl_cts_suite, deqp_vk_suite, deqp_gles2_suite,
	deqp_gles3_suite, deqp_egl_suite;

/* The suite of that name or alias, or NULL. */
const struct suite *suite_find(const char *name);
/* Each suite in turn: *i starts at 0; NULL after the last. */
const struct suite *suite_next(size_t *i);

/* What the sentence adds to a suite's verdict: its notes, then the tests that gave another
 * result when run again; "" when nothing (free it). */
char *suite_run_notes(const struct suite *su, struct json_object *result);

/* The suite mesa.conf asks for after every install (smoke_suite): TB_OK when none is asked
 * for or it has no regression; TB_ESMOKE with reason suite-regression naming them; another
 * code when it could not run. */
int suite_after_install(struct store *s, const char *version, const struct config *cfg,
			const struct tb_progress *p, struct tb_error *e);

/* The verdict of smoke/<v>.json's suites: "none", "pass" or "regressions". */
const char *suite_last_result(const struct store *s, const char *version);

#endif
