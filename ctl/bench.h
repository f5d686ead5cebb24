/* `bench`: a benchmark on the store's build and on the distribution's Mesa, round after round,
 * figure by figure (docs/design.md §10). */
#ifndef TB_BENCH_H
#define TB_BENCH_H

#include "progress.h"
#include "store.h"

struct json_object;

#define BENCH_DEFAULT_COMMAND "clpeak"
#define BENCH_DEFAULT_ROUNDS 3

struct bench_request {
	const char *command; /* run by /bin/sh -c on each side; NULL: clpeak */
	int rounds;
	const struct tb_progress *progress;
};

/* One figure from a line of output: "label : 12.5 unit", named after the heading above it
 * when it is indented under one (clpeak's "Global memory bandwidth (GBPS)", whose unit it then
 * takes); a line without a unit, or with a frequency or size, is not a figure. Returns 1 and
 * fills name/unit/value, or 0 for any other line. heading/heading_indent carry the last heading
 * between calls (start with "" and -1). */
int bench_parse_line(const char *line, char *heading, size_t heading_size, int *heading_indent,
		     char *name, size_t name_size, char *unit, size_t unit_size, double *value);

/* Runs the rounds (store and distribution alternately, the order swapped every round) plus the
 * smoke program's vk.compute throughput on both sides when the release has Vulkan, keeps the
 * result as smoke/<v>.json's "bench" and returns it in *result:
 * {"command","rounds","ratio","figures":[{"name","unit","higher_is_better","ratio",
 *   "store":{"median","min","max","values"},"distribution":{…}}]}.
 * A figure's ratio is how many times faster the store's build is (store/distribution for
 * rates, the inverse for times); "ratio" is the geometric mean of the figures' ratios. */
int bench_run(struct store *s, const char *version, const struct bench_request *r,
	      struct json_object **result, struct tb_error *e);

/* smoke/<v>.json's bench as list shows it: {"command","ratio","rounds"}, or NULL. */
struct json_object *bench_summary(const struct store *s, const char *version);

#endif
