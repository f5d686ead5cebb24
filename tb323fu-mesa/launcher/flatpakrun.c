/* `run` and `distro` of `flatpak run …` (docs/design.md §17): a sandbox does not see the
 * store, and flatpak clears VK_DRIVER_FILES, so the store's build reaches the application as
 * its version's GL extension, chosen for this start by FLATPAK_GL_DRIVERS, which the flatpak
 * command itself reads. */
#include "launcher/launcher.h"
#include "launcher/message.h"
#include "common/flatpakname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int launch_is_flatpak_run(char **argv)
{
	if (!argv[0] || !argv[1])
		return 0;
	const char *slash = strrchr(argv[0], '/');
	const char *base = slash ? slash + 1 : argv[0];
	return !strcmp(base, "flatpak") && !strcmp(argv[1], "run");
}

/* The variables for the store's build inside the sandbox: the version's extension beside
 * the runtime's own (`default`, which carries VA-API and, for a release without GL, OpenGL
 * and EGL; the GL of a release with it comes first), the Vulkan loader told to load only ours
 * and ocl-icd only our vendor file, both by the paths the sandbox mounts them at;
 * RUSTICL_ENABLE as the env file says. What the env file sets for this system (its paths,
 * LD_LIBRARY_PATH) would mean nothing inside. */

/* Whether name's extension is in the user's or the system's installation (as flatpak finds
 * them: $FLATPAK_USER_DIR, else ~/.local/share/flatpak; $FLATPAK_SYSTEM_DIR, else
 * /var/lib/flatpak). */
static int exported(const char *name)
{
	const char *user = getenv("FLATPAK_USER_DIR"), *sys = getenv("FLATPAK_SYSTEM_DIR");
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char dirs[2][1024], path[1400];
	int n = 0;
	if (user && *user)
		snprintf(dirs[n++], sizeof dirs[0], "%s", user);
	else if (data && data[0] == '/')
		snprintf(dirs[n++], sizeof dirs[0], "%s/flatpak", data);
	else if (home && home[0] == '/')
		snprintf(dirs[n++], sizeof dirs[0], "%s/.local/share/flatpak", home);
	snprintf(dirs[n++], sizeof dirs[0], "%s", sys && *sys ? sys : "/var/lib/flatpak");
	for (int i = 0; i < n; i++) {
		struct stat st;
		int k = snprintf(path, sizeof path, "%s/extension/%s.%s", dirs[i], FLATPAK_GL_POINT, name);
		if (k > 0 && (size_t)k < sizeof path && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return 1;
	}
	return 0;
}

/* The variables of this start given on flatpak's command line (--env=NAME=VALUE): the
 * sandbox's OCL_ICD_VENDORS (while the session is on, the installation's global override
 * unsets the variable inside, the session's value being a path of this system, and only the
 * command line is above that), and the runtime's own GL for --gl distro (flatpak clears
 * LD_LIBRARY_PATH and glvnd's variables, and sets what its --env= says after that). */
#define SANDBOX_ENV_MAX 5
static char sandbox_env[SANDBOX_ENV_MAX][400];
static size_t sandbox_env_n;

static void sandbox_set(const char *name, const char *value)
{
	if (sandbox_env_n < SANDBOX_ENV_MAX)
		snprintf(sandbox_env[sandbox_env_n++], sizeof sandbox_env[0], "--env=%s=%s", name, value);
}

/* --gl distro of a version whose export carries GL: the sandbox's loaders sent to the
 * runtime's `default` extension (where the sandbox mounts it), which ours comes before
 * otherwise: its libraries first on the library path, its EGL vendor file, its DRI drivers
 * and GBM backends. */
static void sandbox_runtime_gl(void)
{
	char dir[200], v[300];
	snprintf(dir, sizeof dir, "/usr/lib/%s/GL/%s", FLATPAK_TRIPLET, FLATPAK_GL_DEFAULT);
	snprintf(v, sizeof v, "%s/lib", dir);
	sandbox_set(ENV_LD_LIBRARY_PATH, v);
	snprintf(v, sizeof v, "%s/%s", dir, FLATPAK_EGL_VENDOR_DIR);
	sandbox_set(FLATPAK_EGL_DIRS_VAR, v);
	snprintf(v, sizeof v, "%s/%s", dir, FLATPAK_DRI_DIR);
	sandbox_set(ENV_LIBGL_DRIVERS_PATH, v);
	snprintf(v, sizeof v, "%s/%s", dir, FLATPAK_GBM_DIR);
	sandbox_set(ENV_GBM_BACKENDS_PATH, v);
}

/* --gl zink: Mesa's own switches, which flatpak passes into the sandbox, as the version's
 * Zink file sets them (the export's zink_dri.so comes before the runtime's; the Vulkan
 * loader there takes the version's driver alone). */
static int sandbox_zink(const struct env_list *gl)
{
	const struct env_var *o = gl ? env_list_find(gl, ENV_LOADER_DRIVER_OVERRIDE) : NULL;
	const struct env_var *sw = gl ? env_list_find(gl, ENV_LIBGL_ALWAYS_SOFTWARE) : NULL;
	return (o && setenv(o->name, o->value, 1) != 0) || (sw && setenv(sw->name, sw->value, 1) != 0) ? -1 : 0;
}

int launch_flatpak_env(const char *root, const struct launch_env *e, const char *gl_mode,
		       const struct env_list *gl)
{
	char current[80], name[128];
	const char *v = e->version ? e->version : store_current_version(root, current, sizeof current);
	if (!v || !flatpak_export_name(v, name, sizeof name))
		return fail(TB_R_FAILED, "the current Mesa version cannot be named as a Flatpak extension; "
			    "tb323fu-ctl mesa flatpak list shows the exports", NULL);
	if (!exported(name)) {
		/* flatpak would skip the missing extension without a word, and the loaders told
		 * to load ours alone would find nothing: the runtime's own Mesa, said */
		say_error("Mesa ", v, " is not exported to Flatpak (tb323fu-ctl mesa flatpak export ", v,
			  "); the application runs on its runtime's Mesa", NULL);
		if (launch_env_clean(root, &e->list) != 0)
			return fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
		launch_flatpak_distro();
		return 0;
	}
	int vulkan = env_list_find(&e->list, ENV_VK_DRIVER_FILES) != NULL;
	int opencl = env_list_find(&e->list, ENV_OCL_ICD_VENDORS) != NULL;
	const struct env_var *rusticl = env_list_find(&e->list, ENV_RUSTICL_ENABLE);
	char drivers[160], select[160], vendor[320];
	snprintf(drivers, sizeof drivers, "%s:%s", name, FLATPAK_GL_DEFAULT);
	snprintf(select, sizeof select, "%s.json", name);
	snprintf(vendor, sizeof vendor, "/usr/lib/%s/GL/%s/%s/%s.icd", FLATPAK_TRIPLET, name,
		 FLATPAK_OPENCL_DIR, name);
	if (launch_env_clean(root, &e->list) != 0 || setenv(FLATPAK_GL_DRIVERS_VAR, drivers, 1) != 0 ||
	    (vulkan && setenv(FLATPAK_VK_SELECT_VAR, select, 1) != 0) ||
	    (opencl && setenv(ENV_OCL_ICD_VENDORS, vendor, 1) != 0) ||
	    (rusticl && setenv(ENV_RUSTICL_ENABLE, rusticl->value, 1) != 0) ||
	    (gl_mode && !strcmp(gl_mode, "zink") && sandbox_zink(gl) != 0))
		return fail(TB_R_OUT_OF_MEMORY, "cannot set the environment: out of memory", NULL);
	if (opencl)
		sandbox_set(ENV_OCL_ICD_VENDORS, vendor);
	char gl_file[STORE_PATH_MAX];
	if (gl_mode && !strcmp(gl_mode, "distro") &&
	    store_env_file_as(gl_file, sizeof gl_file, root, e->version, STORE_GL_SUFFIX) == 0 &&
	    access(gl_file, F_OK) == 0)
		sandbox_runtime_gl();
	return 0;
}

char **launch_flatpak_argv(char **argv)
{
	if (!sandbox_env_n)
		return argv;
	size_t n = 0;
	while (argv[n])
		n++;
	char **args = malloc((n + 1 + sandbox_env_n) * sizeof *args);
	if (!args)
		return NULL;
	args[0] = argv[0];
	args[1] = argv[1]; /* run */
	for (size_t k = 0; k < sandbox_env_n; k++)
		args[2 + k] = sandbox_env[k];
	for (size_t i = 2; i <= n; i++)
		args[i + sandbox_env_n] = argv[i];
	return args;
}

/* distro: the runtime's own Mesa, as flatpak chooses it by itself; nothing of ours, and no
 * vendor file of this system (its path would mean nothing inside). */
void launch_flatpak_distro(void)
{
	unsetenv(FLATPAK_GL_DRIVERS_VAR);
	unsetenv(FLATPAK_VK_SELECT_VAR);
	unsetenv(ENV_OCL_ICD_VENDORS);
}
