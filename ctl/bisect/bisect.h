/* Which build broke it: a command (or one conformance case) run on the versions between a good
 * and a bad one in release order, halving the range as git bisect run does (docs/design.md
 * §13). Versions the store does not hold are acquired as `download` does, into the bisect work
 * folder (STORE_BISECT_DIR, a store of its own under the store's root: never current, never
 * in versions/, never counted in keep_versions), and smoke-tested first; the work folder goes
 * at the end unless kept. Current, versions/ and the cache are never changed. */
#ifndef TB_BISECT_H
#define TB_BISECT_H

#include <stddef.h>

#include "bisect/bisect_plan.h"
#include "base/config.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

/* git bisect run's exit codes: 0 good, 1–124 bad, 125 cannot be tested. */
#define BISECT_SKIP_CODE 125
#define BISECT_BAD_MAX 124

struct bisect_step {
	char *version;
	int code;       /* the command's exit code; -1 when it did not run (refused, smoke tests) */
	double seconds; /* of the command's run */
	enum bisect_verdict verdict;
	int fetched;    /* the version came into the work folder for this bisect */
	char *why;      /* what made it skipped or bad other than its exit code; "" when nothing */
	char *output;   /* the last lines the command printed (stdout and stderr), "" when none */
	/* bisect --bench: the version against the good end (benched; ratio > 1 faster), its 95 %
	 * interval (has_interval), bench's verdict ("slower"…) and the rounds measured */
	int benched, has_interval, rounds;
	double ratio, low, high;
	const char *bench_verdict;
	int stopped;    /* it exited with a code git's rule does not know: the bisect stopped there */
};

/* Where the versions of the range came from. */
enum bisect_list {
	BISECT_LIST_CACHED,  /* the cached release list, and the installed versions */
	BISECT_LIST_FETCHED, /* none was cached: the list was fetched for this bisect (not cached) */
	BISECT_LIST_NONE,    /* none was cached and fetching it failed: the installed ones alone */
};

struct bisect_request {
	const char *good, *bad; /* NULL: the defaults (bisect_default_good, current) */
	const char *command;    /* run by sh -c through `run --version V`, or NULL with test_case */
	const char *test_case;  /* dEQP-VK.…, or an OpenCL-CTS BINARY/SUB-TEST */
	/* bisect --bench: command is a benchmark ("label : 12.5 GB/s" lines; or clpeak's tests), run on the good end
	 * and the version alternately, rounds rounds (0: BENCH_DEFAULT_ROUNDS); a version slower
	 * than the good end beyond the noise floor is bad (bisect_bench_judge) */
	int bench, rounds;
	const char *tests; /* with bench and no command: clpeak's tests (bench --tests), its XML read */
	int keep;               /* the work folder stays, with what was fetched */
	const struct tb_progress *progress;
	/* Each step as it ends (for people); may be NULL. */
	void (*stepped)(void *ctx, const struct bisect_step *st);
	void *ctx;
};

/* What a version's build says of itself (its MANIFEST). */
struct bisect_build {
	char *version, *mesa_version, *commit;
};

struct bisect_note {
	char *version, *notes, *url;
};

struct bisect_result {
	char *good, *bad;            /* the ends, as resolved */
	size_t n_range;              /* versions from good to bad, both counted */
	int listed;                  /* a release list was read (cached or fetched) */
	enum bisect_list list;
	char *list_error;            /* with BISECT_LIST_NONE: why fetching it failed */
	char *log;                   /* the steps' whole output (STORE_BISECT_LOG); NULL before any */
	struct bisect_step *steps;
	size_t n_steps;
	char **skipped;              /* every version skipped, in the order tested */
	size_t n_skipped;
	size_t skipped_between;      /* of those, how many lie between last_good and first_bad */
	/* Where the range stands: the newest version known good and the oldest known bad; the
	 * answer once nothing is left between them, and what resumes an interrupted bisect. */
	char *at_good, *at_bad;
	int found;                   /* first_bad and last_good are the answer */
	struct bisect_build last_good, first_bad;
	struct bisect_note *notes;   /* the versions after last_good up to first_bad */
	size_t n_notes;
	char *kept;                  /* the work folder, when kept; NULL when it went */
};

/* The default good version: the newest installed version older than bad that has not failed
 * (the state's failed one); NULL when none. */
char *bisect_default_good(const struct store *s, const char *bad);

/* Runs the bisection. Its versions: the installed ones and those the channel offers by the
 * cached release list, or by one fetched for it when none is cached (nothing is written to the
 * cache); the installed ones alone, said in r->list, when that fails. Each step's command runs
 * through `tb323fu-mesa run --version V` (so with TB323FU_MESA_VERSION=V), its output into
 * the log and its last lines into the step. TB_OK with r->found when it named the first bad version; otherwise the
 * failure in e (an end that does not test as given: reason bisect-ends, exit 1; interrupted;
 * a command that exited with a code git's rule does not know) with r->at_good and r->at_bad
 * saying where the range stands. The store must be locked. */
int bisect_run(const struct config *cfg, struct store *s, const struct bisect_request *q,
	       struct bisect_result *r, struct tb_error *e);
void bisect_result_free(struct bisect_result *r);

#endif
