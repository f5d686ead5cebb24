/* The variables an env file sets (docs/design.md §3): what selects a Mesa build for the
 * loaders. The control tool writes them, the launcher sets and clears them, doctor and the
 * comparison sides read them: one list for all. */
#ifndef TB_ENVVARS_H
#define TB_ENVVARS_H

#include <stddef.h>

#define ENV_VK_DRIVER_FILES "VK_DRIVER_FILES"
#define ENV_VK_ICD_FILENAMES "VK_ICD_FILENAMES" /* the older loaders' name of the same */
#define ENV_OCL_ICD_VENDORS "OCL_ICD_VENDORS"
#define ENV_RUSTICL_ENABLE "RUSTICL_ENABLE"
#define ENV_LD_LIBRARY_PATH "LD_LIBRARY_PATH"

/* The variables a release selects; `distro` and `run` clear them first. */
extern const char *const selected_vars[];
extern const size_t selected_vars_count;
/* Those and LD_LIBRARY_PATH: every variable an env file may set. */
extern const char *const envfile_vars[];
extern const size_t envfile_vars_count;

/* 1 for a variable of envfile_vars. */
int env_name_selected(const char *name);

#endif
