/* The dEQP suites (dEQP-VK, the Vulkan CTS; dEQP-GLES2, dEQP-GLES3 and dEQP-EGL, the GL ES and
 * EGL CTS) on the store's build and on the distribution's Mesa, compared case by case
 * (docs/design.md §10): one runner, the module (gputest/deqp_cases.h) telling them apart. */
#ifndef TB_SUITE_DEQP_H
#define TB_SUITE_DEQP_H

#include "base/progress.h"
#include "store/store.h"
#include "gputest/deqp_cases.h"
#include "gputest/qpa.h"
#include "gputest/suite.h"
#include "base/error.h"

struct json_object;

/* The module's name is the suite's: the key in smoke/<v>.json's suites, in mesa.conf's
 * smoke_suite and in progress events. */
struct deqp_suite_request {
	const struct deqp_kind *kind; /* the module */
	const char *deqp;      /* the binary, or a directory holding it (or SUBDIR/binary); NULL:
				* deqp_default_path() */
	const char *groups;    /* "compute,synchronization"; NULL: the module's default groups */
	const char *caselist;  /* a file of case names instead of groups; NULL: none */
	unsigned fraction_n, fraction_k; /* every n-th case from the k-th (1-based); n 0 or 1: all */
	int budget;            /* seconds for the whole run, 0: no limit */
	int jobs;              /* processes at once, 0: jobs_default() */
	const char *confdir;   /* where expected-fails/ is kept (mesa.conf's directory); may be NULL */
	const struct tb_progress *progress;
};

/* The module's binary when none is named (allocated): dEQP-VK's of the store's current CTS
 * release (cts/current, docs/design.md §13) when it has one, else where the module's recipe
 * leaves it for this machine:
 * ${TB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tb323fu-mesa}/RECIPE/MACHINE[/SUBDIR]/BINARY,
 * deqp-vk/MACHINE/deqp-vk and deqp-gl/MACHINE/gles2/deqp-gles2. */
struct store;
char *deqp_default_path(const struct store *s, const struct deqp_kind *k);

/* Lists the cases (from the binary, or the case list), keeps the fraction, and runs them in
 * batches of one process each on `jobs` workers: each batch through `run --version V` and
 * then through `distro` with the system's ICD file of the same Vulkan driver (dEQP-VK), or
 * the system's EGL vendor file of the same vendor library (the GL modules; the store's side
 * gets the version's own GL from `run`), the distribution's results cached per distribution
 * Mesa, binary and case. A case that crashes or hangs ends
 * its process and is recorded as such; the batch goes on in a new one. A case that passes
 * with the distribution's Mesa and not with ours runs once more on ours and, when it still
 * fails, on the distribution's: where the second result differs it stands and the case is
 * named in "flaky". The version's expected failures (gputest/expected.h) are no regressions.
 * When the budget runs out the running processes stop; batches that did not finish on both
 * sides are left out and counted in "not_run". The comparison goes to smoke/<v>.json's
 * suites.<module> and *result (json_object_put it; may be NULL). TB_OK when it ran: look at
 * out->regressions. The registry's entries are deqp_vk_suite and the GL ones (gputest/suite.h). */
int suite_deqp_run(struct store *s, const char *version, const struct deqp_suite_request *r,
		   struct suite_outcome *out, struct json_object **result, struct tb_error *e);

/* smoke --deqp PATH --caselist FILE: the case list on the store's side alone (no comparison),
 * run as the module of its first case, its logs in a temporary folder, each case within the
 * smoke tests' time limit, its cases into q (qpa_parser_init'd by the caller). TB_OK when dEQP
 * ran. */
int suite_deqp_store_side(struct store *s, const char *version, const char *deqp,
			  const char *caselist, const struct tb_progress *p, struct qpa_parser *q,
			  struct tb_error *e);

#endif
