/* The table of reason ids: the rows of common/reasons.def, in docs/design.md §9's order. */
#include "common/reasons.h"
#include "common/exitcode.h"

#include <string.h>

const struct tb_reason_def tb_reasons[TB_REASON_COUNT] = {
#define REASON(name, id, exit_code, cls) [TB_REASON_##name] = {id, exit_code, cls, #cls},
#include "common/reasons.def"
#undef REASON
};

int tb_reason_same(enum tb_reason a, enum tb_reason b)
{
	return a == b || !strcmp(tb_reasons[a].id, tb_reasons[b].id);
}

enum tb_reason tb_reason_with_code(enum tb_reason r, int code)
{
	for (int i = 0; i < TB_REASON_COUNT; i++)
		if (tb_reasons[i].code == code && tb_reason_same((enum tb_reason)i, r))
			return (enum tb_reason)i;
	return r;
}

int tb_reason_find(const char *id)
{
	for (int i = 0; id && i < TB_REASON_COUNT; i++)
		if (!strcmp(tb_reasons[i].id, id))
			return i;
	return -1;
}
