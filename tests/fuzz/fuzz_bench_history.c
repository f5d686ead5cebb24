/* libFuzzer: the reader of <store>/bench-history.json (docs/design.md §10, every bench kept).
 * Whatever it accepts, writing it out and reading it again gives the same runs, within the
 * bounds; --history's lines and the newest-slower check take any runs it gives. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gputest/bench_history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *runs = bench_history_parse((const char *)data, size);
	if (!runs)
		return 0;
	if (json_object_array_length(runs) > BENCH_HISTORY_MAX)
		abort();
	char *text = bench_history_format(runs);
	json_object *again = bench_history_parse(text, strlen(text));
	if (!again || !json_object_equal(runs, again))
		abort();
	json_object *lines = bench_history_select(runs, NULL, NULL);
	json_object *latest = bench_history_latest(lines);
	for (size_t i = 0; i < json_object_array_length(latest); i++) {
		char *before = NULL;
		double a, b;
		json_object *v = json_object_object_get(json_object_array_get_idx(latest, i), "version");
		bench_history_slower(runs, json_object_get_string(v), &before, &a, &b);
		free(before);
	}
	json_object_put(latest);
	json_object_put(lines);
	json_object_put(again);
	free(text);
	json_object_put(runs);
	return 0;
}
