/* libFuzzer: the reader of <store>/marked (docs/design.md §12, "The store remembers").
 * Whatever it accepts, writing it out and reading it again gives the same marks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/marks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct marks m;
	if (marks_parse((const char *)data, size, &m) != 0)
		return 0;
	char *text = marks_format(&m);
	struct marks again;
	if (marks_parse(text, strlen(text), &again) != 0 || again.n != m.n)
		abort();
	for (size_t i = 0; i < m.n; i++) {
		const struct mark *a = &m.v[i], *b = &again.v[i];
		if (strcmp(a->version, b->version) || strcmp(a->reason, b->reason) || strcmp(a->why, b->why) ||
		    strcmp(a->digest, b->digest) || a->size != b->size || a->refused != b->refused)
			abort();
	}
	free(text);
	marks_free(&again);
	marks_free(&m);
	return 0;
}
