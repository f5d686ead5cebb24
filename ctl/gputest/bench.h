/* `bench`: a benchmark on the store's build and on the distribution's Mesa, round after round,
 * figure by figure (docs/design.md §10). */
#ifndef TB_BENCH_H
#define TB_BENCH_H

#include <stddef.h>

#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

struct json_object;

#define BENCH_DEFAULT_COMMAND "clpeak"
#define BENCH_DEFAULT_ROUNDS 10
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
#define BENCH_ROUNDS_TEXT BENCH_STR(BENCH_DEFAULT_ROUNDS) /* for help texts */

struct bench_request {
	const char *command; /* run by /bin/sh -c on each side, its text read; NULL: clpeak, its XML read */
	const char *tests;   /* clpeak's tests to run ("compute-sp,kernel-latency"); NULL: all */
	int rounds;
	const struct tb_progress *progress;
};

/* NULL when every name of the comma-separated list is one of clpeak's tests (compute-sp,
 * kernel-latency, …), else the first that is not (free it). */
char *bench_tests_unknown(const char *tests);

/* One figure from a line of output: "label : 12.5 unit", named "heading / label" when indented
 * under a heading line (clpeak's "Global memory bandwidth (GBPS)": the name keeps the heading
 * without its parenthesised unit, which the figure takes); a line without a unit, or with a
 * frequency or size, is not a figure. Returns 1 and fills name/unit/value, or 0 for any other
 * line. heading/heading_indent carry the last heading between calls (start with "" and -1). */
int bench_parse_line(const char *line, char *heading, size_t heading_size, int *heading_indent,
		     char *name, size_t name_size, char *unit, size_t unit_size, double *value);

/* Whether a figure of this unit is a time (ns, us, ms, s…): lower is better. */
int bench_lower_is_better(const char *unit);

/* Called for each figure: its name ("Single-precision compute / float4"), unit, value. */
typedef void (*bench_figure_fn)(void *ctx, const char *name, const char *unit, double value);

/* Reads clpeak's --enable-xml-dump file (untrusted: any bytes): the figures of the first
 * device of the first platform, each named after its test and entry, its unit from the test's
 * unit attribute ("gflops" → GFLOPS, "gbps" → GB/s). Entries without a number or a unit are
 * no figures; a document with a DTD is refused. A truncated file (clpeak stopped mid-run)
 * gives the figures before the cut. Returns the number of figures, -1 when text is not
 * clpeak's XML. */
int bench_parse_clpeak_xml(const char *text, size_t len, bench_figure_fn fn, void *ctx);

/* Runs the rounds (store and distribution alternately, the order swapped every round), plus,
 * when no command is given and the release has Vulkan, the smoke program's vk.compute
 * throughput on both sides, each side seeing one OpenCL vendor and one Vulkan ICD
 * (side_drivers_find), keeps the result as smoke/<v>.json's "bench" and returns it in *result:
 * {"command","rounds","ratio","interval","verdict","rounds_needed","figures_in_whole",
 *  "sides":{"store":{"opencl_vendor","vulkan_icd"},"distribution":…},
 *  "failures":[{"side","round","status","last_line"}],
 *  "figures":[{"name","unit","higher_is_better","ratio","interval","verdict","rounds_needed",
 *   "rounds_compared",
 *   "store":{"median","min","max","values"},"distribution":{…}}]}.
 * A figure's ratio is how many times faster the store's build is, estimated from the rounds'
 * paired ratios (store/distribution for rates, the inverse for times) with its 95 % interval
 * [low, high] (null with fewer than BENCH_MIN_ROUNDS rounds), verdict and, when it is unclear,
 * the rounds the spread seen would need (bench_stats.h);
 * the whole is the same over the per-round geometric mean of the figures present every round.
 * A benchmark that exits non-zero without figures fails at once; one that printed figures
 * and then exited non-zero is kept in "failures" and the run fails at the end with *result
 * still set (its figures are real), e saying which side and round and how. */
int bench_run(struct store *s, const char *version, const struct bench_request *r,
	      struct json_object **result, struct tb_error *e);

/* smoke/<v>.json's bench as list and status show it: {"command","ratio","rounds","interval",
 * "verdict","rounds_needed"} (null in a record older than them), or NULL. */
struct json_object *bench_summary(const struct store *s, const char *version);

#endif
