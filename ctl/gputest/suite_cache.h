/* What the suites of docs/design.md §10 share beyond the comparison itself: the cache of the
 * distribution's side (it depends only on the distribution's Mesa and on what was run) and
 * the recording of a comparison in smoke/<v>.json. */
#ifndef TB_SUITE_CACHE_H
#define TB_SUITE_CACHE_H

#include <stddef.h>

#include "base/progress.h"
#include "store/store.h"
#include "gputest/suite.h"

struct json_object;
struct manifest;

/* Where a build recipe (build-recipes/opencl-cts, build-recipes/deqp-vk) leaves its build for
 * this machine: ${TB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tb323fu-mesa}/RECIPE/MACHINE
 * (allocated), as the recipes compute it. */
char *recipe_cache_dir(const char *recipe);

/* The file the dynamic linker loads for a library named without a folder (libEGL_mesa.so.0),
 * looked for in the system's library folders; a name with a folder is itself (allocated).
 * NULL when there is none. */
char *suite_system_library(const char *name);

/* cache/suites/<suite>-distribution-<key>.json, the key a hash of parts (what was run, in the
 * suite's words), the identity (real path, size, modification time) of each program and
 * every vendor file of the system's ICD loader with the library it names: a new
 * distribution Mesa, or another test program, is another key. Reached as the store's layout
 * says (store/layout.h): NULL when a link or a file of another kind stands at cache/suites or
 * at the file, and then nothing is read or written there. */
char *suite_cache_path(const struct store *s, const char *suite, const char *const parts[],
		       size_t n_parts, const char *const programs[], size_t n_programs);
/* The cached {name: result} map, or NULL (also for a NULL path). */
struct json_object *suite_cache_read(const char *path);
/* Best effort: when it cannot be written, the next run repeats the distribution's side. */
void suite_cache_write(const struct store *s, const char *path, const char *suite,
		       struct json_object *tests);

/* Compares the two sides' {name: result} maps, applies expected failures (may be NULL:
 * suite_apply_expected), adds extra's keys (may be NULL; not taken),
 * tells progress each test's result on the store's side ("SUITE:NAME"), fills out and
 * writes the comparison to smoke/<v>.json's suites.SUITE; *result gets it (json_object_put
 * it; may be NULL). */
/* Marks a run as partial (docs/design.md §10): appends what narrowed it ("--filter X", "the
 * budget of 60 s left 12 cases not run") to extra's "partial" array. suite_record gives every
 * result a "partial" array (empty: the whole suite ran). */
void suite_partial(struct json_object *extra, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int suite_record(struct store *s, const char *version, const char *suite,
		 struct json_object *store_map, struct json_object *distro_map,
		 struct json_object *expected, struct json_object *extra, const struct tb_progress *p,
		 struct suite_outcome *out, struct json_object **result, struct tb_error *e);

/* The start every OpenCL suite shares: out and *result (may be NULL) cleared, the version's
 * MANIFEST loaded into m; a release without an OpenCL driver is a failure naming the suite. */
int suite_opencl_begin(struct store *s, const char *version, const char *suite,
		       struct suite_outcome *out, struct json_object **result, struct manifest *m,
		       struct tb_error *e);

#endif
