/* libFuzzer target: the QPA log reader. Whole and split feeding must agree, and the result
 * JSON must build for anything. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gputest/qpa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qpa_parser whole, split;
	qpa_parser_init(&whole);
	qpa_parser_feed(&whole, (const char *)data, size);
	qpa_parser_finish(&whole, QPA_CRASH, "ended");

	/* The same bytes in chunks whose sizes come from the data itself. */
	qpa_parser_init(&split);
	size_t step = size ? (size_t)data[0] % 17 + 1 : 1;
	for (size_t i = 0; i < size; i += step)
		qpa_parser_feed(&split, (const char *)data + i, size - i < step ? size - i : step);
	qpa_parser_finish(&split, QPA_CRASH, "ended");

	if (whole.n != split.n)
		abort();
	for (size_t i = 0; i < whole.n; i++)
		if (whole.cases[i].kind != split.cases[i].kind ||
		    strcmp(whole.cases[i].name, split.cases[i].name))
			abort();

	json_object *o = qpa_result_json(&whole, "1");
	json_object_to_json_string(o);
	json_object_put(o);
	qpa_parser_free(&whole);
	qpa_parser_free(&split);
	return 0;
}
