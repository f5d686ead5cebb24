/* The reason ids of docs/design.md §9 as one table: each row is a failure's stable kebab-case
 * id, the exit code it carries (common/exitcode.h) and its class. The rows are written once, in
 * common/reasons.def; this header makes the enum and the typed names of them, common/reasons.c
 * the table. An id that carries two exit codes has a row for each (damaged: TB_R_DAMAGED for a
 * version's files, exit 4; TB_R_DAMAGED_STORE for the store's own parts, exit 1). The engine
 * raises a failure by its row alone (tb_fail(e, TB_R_NOT_INSTALLED, …), ctl/base/error.h) and
 * the launcher the same way (launcher/message.h); tests/tools/reason-ids.py checks the rows
 * against the documented list. Shared by both programs; no allocation, no stdio. */
#ifndef TB_REASONS_H
#define TB_REASONS_H

/* The rows, in the table's order. Code names a row by its TB_R_ name below, never by these. */
enum tb_reason {
#define REASON(name, id, exit_code, cls) TB_REASON_##name,
#include "common/reasons.def"
#undef REASON
	TB_REASON_COUNT
};

/* A row as the code names it. C gives an enumeration constant the type int, which an exit
 * code (TB_EFAIL) has too; these are constants of the type enum tb_reason, so that the
 * functions that take a reason (tb_fail, fail) can refuse an exit code at compile time
 * (TB_REASON_ARG). They are objects, not constant expressions: no case label names one. */
#define REASON(name, id, exit_code, cls) static const enum tb_reason TB_R_##name = TB_REASON_##name;
#include "common/reasons.def"
#undef REASON

/* enum tb_reason is not int (it has no negative value), so _Generic tells the two apart. */
_Static_assert(_Generic((int)0, enum tb_reason: 0, default: 1), "enum tb_reason must not be int");

/* r itself when it is a reason (an enum tb_reason); anything else, an exit code above all,
 * does not compile. For the macros of the functions that take a reason. */
#define TB_REASON_ARG(r)                                                                          \
	((void)sizeof(struct {                                                                    \
		 _Static_assert(_Generic((r), enum tb_reason: 1, default: 0),                       \
				"a reason (TB_R_...) goes here, not an exit code (TB_E...)");       \
		 char c;                                                                           \
	 }),                                                                                       \
	 (enum tb_reason)(r))

/* What a reason is: where the failure lies, for a backend that groups them. */
enum tb_reason_class {
	TB_RC_COMMAND,   /* the command line, the caller, the tool itself */
	TB_RC_STORE,     /* the store's versions, state and files */
	TB_RC_TRANSFER,  /* the release source and the network */
	TB_RC_INTEGRITY, /* a release's hashes, signature, archive, MANIFEST */
	TB_RC_SYSTEM,    /* what the release needs of this system (ELF checks) */
	TB_RC_TRIAL,     /* smoke tests, suites, the trial */
	TB_RC_APP,       /* per-application rules */
};

struct tb_reason_def {
	const char *id; /* "hash-mismatch" */
	int code;       /* the exit code it carries (TB_OK: the reason of an action, not of a
			 * failure: an automatic pin, a trial the crash evidence ended) */
	enum tb_reason_class cls;
	const char *class_name;
};

extern const struct tb_reason_def tb_reasons[TB_REASON_COUNT];

/* The id of r ("damaged"), the words a file and --json carry. */
static inline const char *tb_reason_id(enum tb_reason r)
{
	return tb_reasons[r].id;
}

/* The exit code r carries. */
static inline int tb_reason_code(enum tb_reason r)
{
	return tb_reasons[r].code;
}

/* Whether a and b are the same id (the two rows of damaged are). */
int tb_reason_same(enum tb_reason a, enum tb_reason b);

/* The row of r's id that carries the exit code code (too-large's for usage, 2), else r. */
enum tb_reason tb_reason_with_code(enum tb_reason r, int code);

/* The first row whose id is id, or -1. */
int tb_reason_find(const char *id);

#endif
