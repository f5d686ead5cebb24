/* libFuzzer: the application rule file's reader (docs/design.md §16). Whatever it accepts,
 * writing it out and reading it again gives the same rules, in the same order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apprules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct app_rules r;
	if (apprules_parse((const char *)data, size, &r) != 0)
		return 0;
	struct strbuf sb = {0};
	apprules_format(&r, &sb);
	struct app_rules again;
	if (apprules_parse(sb.buf, sb.len, &again) != 0 || again.n != r.n)
		abort();
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(again.v[i].id, r.v[i].id) || strcmp(again.v[i].choice, r.v[i].choice) ||
		    !app_id_ok(r.v[i].id) || !app_choice_ok(r.v[i].choice))
			abort();
	apprules_free(&again);
	apprules_free(&r);
	sb_free(&sb);
	return 0;
}
