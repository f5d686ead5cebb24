/* The variables an env file sets (see envvars.h). */
#include "common/envvars.h"

#include <string.h>

#define SELECTED ENV_VK_DRIVER_FILES, ENV_VK_ICD_FILENAMES, ENV_OCL_ICD_VENDORS, ENV_RUSTICL_ENABLE

const char *const selected_vars[] = {SELECTED};
const size_t selected_vars_count = sizeof selected_vars / sizeof *selected_vars;
const char *const envfile_vars[] = {SELECTED, ENV_LD_LIBRARY_PATH};
const size_t envfile_vars_count = sizeof envfile_vars / sizeof *envfile_vars;

#define GL_SELECTED ENV_EGL_VENDOR_FILES, ENV_GLX_VENDOR_NAME, ENV_LIBGL_DRIVERS_PATH, ENV_GBM_BACKENDS_PATH

const char *const gl_vars[] = {GL_SELECTED, ENV_LOADER_DRIVER_OVERRIDE, ENV_LIBGL_ALWAYS_SOFTWARE};
const size_t gl_vars_count = sizeof gl_vars / sizeof *gl_vars;
const size_t gl_selected_count = sizeof (const char *[]){GL_SELECTED} / sizeof(const char *);

int env_name_gl(const char *name)
{
	if (strcmp(name, ENV_LD_LIBRARY_PATH) == 0)
		return 1;
	for (size_t i = 0; i < gl_vars_count; i++)
		if (strcmp(name, gl_vars[i]) == 0)
			return 1;
	return 0;
}

int env_name_selected(const char *name)
{
	for (size_t i = 0; i < envfile_vars_count; i++)
		if (strcmp(name, envfile_vars[i]) == 0)
			return 1;
	return 0;
}
