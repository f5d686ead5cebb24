/* Making a version current: ICD and env files, links, trial, smoke tests and rollback. */
#ifndef TB_ACTIVATE_H
#define TB_ACTIVATE_H

#include "config.h"
#include "progress.h"
#include "smoke_run.h"
#include "store.h"

/* Writes icd/versions/<v>/…, env/<v>.env for one installed version; ld_library_path: the
 * release needs its lib/ on LD_LIBRARY_PATH (MANIFEST or ELF check). */
int envfiles_write_version(struct store *s, const char *version, int ld_library_path,
			   struct tb_error *e);
/* Writes icd/turnip.json, icd/opencl/rusticl.icd and env/current.env for current (or removes
 * them when nothing is current) and env.conf from the state's enabled flag. */
int envfiles_write_current(struct store *s, struct tb_error *e);

struct activate_opts {
	const struct config *cfg;
	int run_smoke;
	const struct tb_progress *progress;
};

/* Makes version current (the old current becomes previous), writes every file, removes
 * versions beyond keep_versions, runs the smoke tests and rolls back when they fail
 * (TB_ESMOKE with the failed test named). */
int release_activate(struct store *s, const char *version, const struct activate_opts *o,
		     struct smoke_outcome *smoke, struct tb_error *e);

/* Removes a version's tree and its ICD, env and smoke files (not current or previous: the
 * caller checks). */
int release_remove(struct store *s, const char *version, struct tb_error *e);

#endif
