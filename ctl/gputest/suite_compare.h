/* Comparing one suite's per-test results on the two sides (docs/design.md §10): a regression
 * is a test that passes with the distribution's Mesa and does not with the store's build. */
#ifndef TB_SUITE_COMPARE_H
#define TB_SUITE_COMPARE_H

struct json_object;

/* "pass" and "warn" pass; every other result (fail, skip, crash, timeout, missing…) does not. */
int suite_result_passes(const char *result);

/* store and distro map a test's name to its result (strings). The comparison, sorted by name:
 * {"tests":N,"passed":{"store":N,"distribution":N},
 *  "counts":{"store":{RESULT:N,…},"distribution":{…}},"regressions":[names],"fixed":[names],
 *  "results":[{"name","store","distribution"}]} ("missing" where a side has no result). */
struct json_object *suite_compare(struct json_object *store, struct json_object *distro);

/* Applies a version's expected failures ({name: "fail"|"crash"|"timeout"|"flaky"}, may be
 * NULL) to a comparison: a listed case whose result on the store's side is the expected one
 * is no regression and goes to "expected"; a listed case that passes there goes to
 * "expected_fixed"; both keys are always there. */
void suite_apply_expected(struct json_object *comparison, struct json_object *expected);

/* The number of regressions in a comparison, and "a, b, c" of the first few into buf. */
int suite_regressions(struct json_object *comparison, char *buf, unsigned size);

struct strbuf;
/* Appends prefix and the names in result's array key, joined by ", ", when it has any. */
void suite_append_names(struct strbuf *sb, struct json_object *result, const char *key,
			const char *prefix);

#endif
