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
/* GL's (env/<v>.gl and env/<v>.zink, docs/design.md §6): glvnd's EGL vendor files and GLX
 * vendor name, Mesa's DRI drivers and GBM backends, and Zink's choice. */
#define ENV_EGL_VENDOR_FILES "__EGL_VENDOR_LIBRARY_FILENAMES"
#define ENV_GLX_VENDOR_NAME "__GLX_VENDOR_LIBRARY_NAME"
#define ENV_LIBGL_DRIVERS_PATH "LIBGL_DRIVERS_PATH"
#define ENV_GBM_BACKENDS_PATH "GBM_BACKENDS_PATH"
#define ENV_LOADER_DRIVER_OVERRIDE "MESA_LOADER_DRIVER_OVERRIDE"
#define ENV_LIBGL_ALWAYS_SOFTWARE "LIBGL_ALWAYS_SOFTWARE"
/* Mesa's on-disk shader cache off ("true"): the suites' and bench's sides run without it */
#define ENV_MESA_SHADER_CACHE_DISABLE "MESA_SHADER_CACHE_DISABLE"

/* The variables a release selects; `distro` and `run` clear them first. */
extern const char *const selected_vars[];
extern const size_t selected_vars_count;
/* Those and LD_LIBRARY_PATH: every variable an env file may set. */
extern const char *const envfile_vars[];
extern const size_t envfile_vars_count;

/* 1 for a variable of envfile_vars. */
int env_name_selected(const char *name);

/* The variables GL's env files set (and LD_LIBRARY_PATH); the first gl_selected_count of
 * them name the store's GL, and `run` and `distro` clear them first: the others are Mesa's
 * own switches, which a caller may set for the distribution's GL too. */
extern const char *const gl_vars[];
extern const size_t gl_vars_count, gl_selected_count;
/* 1 for a variable a GL env file may set (gl_vars or LD_LIBRARY_PATH). */
int env_name_gl(const char *name);

#endif
