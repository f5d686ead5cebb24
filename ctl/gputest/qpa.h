/* Reading a dEQP QPA log, incrementally, into counted cases (docs/design.md §7). */
#ifndef TB_QPA_H
#define TB_QPA_H

#include <stddef.h>

#include "base/progress.h"

struct json_object;

/* The longest case name kept; a longer one is cut here. */
#define QPA_MAX_NAME 512

/* What the counts are kept by. Other codes of the log (ResourceError, InternalError,
 * DeviceLost, …) count as QPA_OTHER; Waiver counts as QPA_NOT_SUPPORTED. */
enum qpa_kind {
	QPA_PASS,
	QPA_FAIL,
	QPA_NOT_SUPPORTED,
	QPA_QUALITY_WARNING,
	QPA_COMPATIBILITY_WARNING,
	QPA_CRASH,
	QPA_TIMEOUT,
	QPA_OTHER,
	QPA_KINDS
};
/* "Pass", "Fail", "NotSupported", "QualityWarning", "CompatibilityWarning", "Crash",
 * "Timeout", "Other". */
const char *qpa_kind_name(enum qpa_kind k);
/* pass (Pass and the two warnings), skip (NotSupported), fail (everything else). */
const char *qpa_kind_status(enum qpa_kind k);
/* The same in a suite's words (docs/design.md §10), which keep crash and timeout apart from
 * fail: a timeout is not run again, it took its whole limit already. */
const char *qpa_kind_result(enum qpa_kind k);

struct qpa_case {
	char *name;
	enum qpa_kind kind;
	char code[32];   /* the StatusCode or termination reason as logged (sanitised) */
	char *detail;    /* the result text, or what happened to the process */
	long long ms;    /* TestDuration when logged, else 0 */
};

/* An incremental reader of QPA logs: feed bytes as the log grows, in chunks of any size. */
struct qpa_parser {
	struct qpa_case *cases;
	size_t n, cap;
	int open;          /* the last case began and has not ended */
	int have_result;   /* the open case has its <Result> */
	char *line;        /* the partial line */
	size_t line_len;
	int line_cut;      /* the line exceeded the cap; the rest of it is ignored */
	const struct tb_progress *progress; /* told of each finished case */
};

void qpa_parser_init(struct qpa_parser *q);
void qpa_parser_feed(struct qpa_parser *q, const char *data, size_t len);
/* The log ends (the process is gone): a case that began and never ended gets kind and
 * detail (a crash unless the caller knows better). Also takes a last line without '\n'. */
void qpa_parser_finish(struct qpa_parser *q, enum qpa_kind kind, const char *detail);
void qpa_parser_free(struct qpa_parser *q);
/* Forgets the case that began and has not ended (its process was stopped from outside, so
 * it has no result of its own). */
void qpa_parser_drop_open(struct qpa_parser *q);
/* Adds a case that has no record in any log (e.g. not run). */
void qpa_add_case(struct qpa_parser *q, const char *name, enum qpa_kind kind, const char *code,
		  const char *detail);
void qpa_count(const struct qpa_parser *q, size_t counts[QPA_KINDS]);

/* The result in the smoke format: {"version","passed","failed","skipped","tests":[…]} plus
 * "counts": {"Pass":N,…}. */
struct json_object *qpa_result_json(const struct qpa_parser *q, const char *version);

#endif
