/* libFuzzer: the state file reader (docs/design.md §12, "A corrupt state"). Whatever it
 * accepts, writing it out and reading it again gives the same state. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/state.h"
#include "base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st;
	if (state_parse((const char *)data, size, &st) != 0)
		return 0;
	struct strbuf sb = {0};
	state_format(&st, &sb);
	struct state again;
	if (state_parse(sb.buf, sb.len, &again) != 0)
		abort();
	if (again.enabled != st.enabled || again.tries != st.tries || again.max != st.max ||
	    !!again.trial != !!st.trial || (st.trial && strcmp(again.trial, st.trial)))
		abort();
	state_free(&again);
	state_free(&st);
	sb_free(&sb);
	return 0;
}
