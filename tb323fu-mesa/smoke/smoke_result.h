/* One smoke test's result: its status and one sentence (docs/design.md §7). */
#ifndef TB_SMOKE_RESULT_H
#define TB_SMOKE_RESULT_H

enum smoke_status { SMOKE_PASS, SMOKE_FAIL, SMOKE_SKIP };

struct smoke_result {
	enum smoke_status status;
	char detail[480];
};

void smoke_set(struct smoke_result *r, enum smoke_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
