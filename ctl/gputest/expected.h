/* Cases a version is known to fail on its driver (docs/design.md §10): Mesa's CI form, one
 * `case,Status` a line, shipped in the release or kept beside the configuration. */
#ifndef TB_EXPECTED_H
#define TB_EXPECTED_H

#include "base/error.h"
#include "store/store.h"

struct json_object;

/* Where a release ships its list for a suite, under versions/<v>/. */
#define EXPECTED_RELEASE_DIR "share/tb323fu-mesa/expected-fails"
/* Bounds of one list: a line, and the lines. */
#define EXPECTED_MAX_LINE 1024
#define EXPECTED_MAX_CASES 100000

/* The expected failures of version for suite ("dEQP-VK"): {case: result} with result one of
 * "fail", "crash", "timeout" or "flaky" (Mesa's Fail, Crash, Timeout, Flake), from
 * versions/<v>/EXPECTED_RELEASE_DIR/<suite>.txt and then CONFDIR/expected-fails/<v>/<suite>.txt
 * (confdir: the directory of mesa.conf; its lines win). *out is an empty object when there
 * are none. A line that is none of these fails naming the file and the line. */
int expected_load(const struct store *s, const char *version, const char *suite,
		  const char *confdir, struct json_object **out, struct tb_error *e);

/* One list file into `into` (its lines win over what is there); a missing file is none. */
int expected_read_file(const char *path, struct json_object *into, struct tb_error *e);

/* Whether a case's result on the store's side is the failure the list expects ("flaky":
 * any result). */
int expected_matches(const char *expected, const char *result);

#endif
