/* Running a command on the store's side or the distribution's, reading its output by lines. */
#include "gputest/side.h"

#include <dirent.h>
#include <limits.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "store/manifest.h"
#include "base/programs.h"
#include "common/vendorfile.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "common/envvars.h"

/* Where the Vulkan loader finds the system's ICD files, in its order. */
static const char *const vulkan_icd_dirs[] = {"/etc/xdg/vulkan/icd.d", "/etc/vulkan/icd.d",
					      "/usr/local/share/vulkan/icd.d",
					      "/usr/share/vulkan/icd.d"};

const char *side_name(enum side side)
{
	return side == SIDE_STORE ? "store" : "distribution";
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

char *vulkan_icd_library(const char *file)
{
	/* read_small_file: a FIFO or device planted among the ICD files is never waited on */
	size_t len = 0;
	char *text = read_small_file(file, 1 << 20, &len);
	json_object *root = text ? json_tokener_parse(text) : NULL, *icd, *lib;
	free(text);
	char *out = NULL;
	if (root && json_object_object_get_ex(root, "ICD", &icd) &&
	    json_object_object_get_ex(icd, "library_path", &lib) &&
	    json_object_is_type(lib, json_type_string))
		out = xstrdup(json_object_get_string(lib));
	json_object_put(root);
	return out;
}

/* The best file of dir (names ending in suffix) whose library has the name lib: one whose
 * library exists (a bare name is the dynamic linker's to find), and of those one named for
 * this machine (lvp_icd.x86_64.json, not lvp_icd.i686.json). NULL when none. */
static char *find_naming(const char *dir, const char *suffix, char *(*library)(const char *),
			 const char *lib)
{
	struct utsname u;
	char arch[80] = "";
	if (uname(&u) == 0)
		snprintf(arch, sizeof arch, ".%s.", u.machine);
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	char *best = NULL;
	int best_score = 0;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name), sl = strlen(suffix);
		if (len > sl && !strcmp(name + len - sl, suffix)) {
			char *file = path_join(dir, name);
			char *named = library(file);
			int score = 0;
			if (named && !strcmp(base_name(named), lib) && (!strchr(named, '/') || path_exists(named)))
				score = 1 + (arch[1] && strstr(name, arch) != NULL);
			if (score > best_score) {
				free(best);
				best = file, file = NULL;
				best_score = score;
			}
			free(named);
			free(file);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return best;
}

/* Where glvnd finds the system's EGL vendor files, in its order. */
static const char *const egl_vendor_dirs[] = {"/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d"};

static char *system_vulkan_icd(const char *lib)
{
	for (size_t i = 0; i < sizeof vulkan_icd_dirs / sizeof *vulkan_icd_dirs; i++) {
		char *f = find_naming(vulkan_icd_dirs[i], ".json", vulkan_icd_library, lib);
		if (f)
			return f;
	}
	return NULL;
}

int side_drivers_find(const struct store *s, const struct manifest *m, enum side side,
		      struct side_drivers *d, struct tb_error *e)
{
	memset(d, 0, sizeof *d);
	if (side == SIDE_STORE) {
		char *icd = store_icd_dir(s, m->version);
		if (m->has_opencl)
			d->opencl_vendor = path_join(icd, "opencl/rusticl.icd");
		if (m->has_vulkan)
			d->vulkan_icd = path_join(icd, "turnip.json");
		free(icd);
		return TB_OK;
	}
	if (m->has_opencl) {
		const char *dir = vendor_dir();
		const char *lib = base_name(m->opencl_lib);
		char found[PATH_MAX];
		if (vendor_file_naming(dir, lib, found, sizeof found) == 0)
			d->opencl_vendor = xstrdup(found);
		else
			return tb_fail(e, TB_R_FAILED,
				       "no OpenCL vendor file in %s names %s, so the distribution has no build of "
				       "the release's OpenCL driver to compare with; install mesa-opencl-icd",
				       dir, lib);
	}
	if (m->has_vulkan) {
		const char *lib = base_name(m->vulkan_lib);
		d->vulkan_icd = system_vulkan_icd(lib);
		if (!d->vulkan_icd) {
			side_drivers_free(d);
			return tb_fail(e, TB_R_FAILED,
				       "no Vulkan ICD file of the system names %s, so the distribution has no build "
				       "of the release's Vulkan driver to compare with; install mesa-vulkan-drivers",
				       lib);
		}
	}
	return TB_OK;
}

char *side_distro_egl_vendor(const struct manifest *m, struct tb_error *e)
{
	const char *lib = base_name(m->egl_vendor_lib);
	/* an EGL vendor file is the same JSON as an ICD file: {"ICD": {"library_path": …}} */
	for (size_t i = 0; i < sizeof egl_vendor_dirs / sizeof *egl_vendor_dirs; i++) {
		char *f = find_naming(egl_vendor_dirs[i], ".json", vulkan_icd_library, lib);
		if (f)
			return f;
	}
	tb_fail(e, TB_R_FAILED,
		"no EGL vendor file of the system (%s, %s) names %s, so the distribution has no build of "
		"the release's GL to compare with; install libegl-mesa0",
		egl_vendor_dirs[0], egl_vendor_dirs[1], lib);
	return NULL;
}

void side_drivers_free(struct side_drivers *d)
{
	free(d->opencl_vendor);
	free(d->vulkan_icd);
	memset(d, 0, sizeof *d);
}

char **side_drivers_env(const struct side_drivers *d)
{
	char **env = xcalloc(4, sizeof *env);
	size_t n = 0;
	if (d->opencl_vendor)
		env[n++] = xasprintf(ENV_OCL_ICD_VENDORS "=%s", d->opencl_vendor);
	if (d->vulkan_icd) {
		env[n++] = xasprintf(ENV_VK_DRIVER_FILES "=%s", d->vulkan_icd);
		env[n++] = xasprintf(ENV_VK_ICD_FILENAMES "=%s", d->vulkan_icd);
	}
	return env;
}

void side_free_argv(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char **side_launch_argv(const struct store *s, const char *version, enum side side,
			char *const cmd[], struct tb_error *e)
{
	char *launcher = find_launcher_program();
	if (!launcher) {
		tb_fail(e, TB_R_PROGRAM_MISSING, "the launcher tb323fu-mesa is neither next to tb323fu-ctl nor in "
			TB_PREFIX "/bin; reinstall tb323fu-mesa");
		return NULL;
	}
	size_t n = 0;
	while (cmd[n])
		n++;
	char **argv = xcalloc(n + 8, sizeof *argv);
	size_t i = 0;
	argv[i++] = launcher;
	argv[i++] = xstrdup("--store");
	argv[i++] = xstrdup(s->root);
	argv[i++] = xstrdup(side == SIDE_STORE ? "run" : "distro");
	argv[i++] = xstrdup("--version");
	argv[i++] = xstrdup(version);
	if (side == SIDE_DISTRO)
		argv[i++] = xstrdup("--");
	for (size_t k = 0; k < n; k++)
		argv[i++] = xstrdup(cmd[k]);
	return argv;
}

char **side_argv(const struct store *s, const char *version, enum side side,
		 const char *rusticl_enable, char *const env[], char *const cmd[],
		 struct tb_error *e)
{
	char *envprog = find_program("env", NULL);
	if (!envprog) {
		tb_fail(e, TB_R_PROGRAM_MISSING, "env(1) is not in PATH; install coreutils");
		return NULL;
	}
	size_t n_env = 0, n_cmd = 0;
	while (env && env[n_env])
		n_env++;
	while (cmd[n_cmd])
		n_cmd++;
	char **inner = xcalloc(n_env + n_cmd + 3, sizeof *inner);
	size_t i = 0;
	inner[i++] = envprog;
	inner[i++] = xstrdup(SIDE_ALIKE_ENV);
	for (size_t k = 0; k < n_env; k++)
		inner[i++] = xstrdup(env[k]);
	for (size_t k = 0; k < n_cmd; k++)
		inner[i++] = xstrdup(cmd[k]);
	char **argv = side_launch_argv(s, version, side, inner, e);
	side_free_argv(inner);
	return argv;
}

static const struct {
	const char *what, *env;
	int seconds;
} jobs[] = {
	[SIDE_JOB_BENCH] = {"the benchmark", "TB323FU_MESA_BENCH_TIMEOUT", SIDE_BENCH_SECONDS},
	[SIDE_JOB_PIGLIT] = {"piglit", "TB323FU_MESA_PIGLIT_TIMEOUT", SIDE_PIGLIT_SECONDS},
	[SIDE_JOB_BISECT] = {"the bisect command", "TB323FU_MESA_BISECT_TIMEOUT", SIDE_BISECT_SECONDS},
};

const char *side_time_limit_variable(enum side_job job)
{
	return jobs[job].env;
}

int side_time_limit(enum side_job job)
{
	const char *v = getenv(jobs[job].env);
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*end && n > 0 && n <= 7 * 86400)
			return (int)n;
	}
	return jobs[job].seconds;
}

int side_run(char *const argv[], const char *cwd, enum side_job job, side_line_fn line,
	     void *ctx, int *status, int *timed_out, struct child_tail *tail, struct tb_error *e)
{
	struct child c;
	*status = 0;
	*timed_out = 0;
	int rc = child_start(&c, argv, cwd, e);
	if (rc)
		return rc;
	int limit = side_time_limit(job);
	struct child_watch w = {.line = line, .err_tail = tail,
				.deadline = now_seconds() + limit, .ctx = ctx};
	int end = child_supervise(&c, &w, status);
	if (end == CHILD_INTERRUPTED) {
		char what[64];
		snprintf(what, sizeof what, "%s ran", jobs[job].what);
		return tb_check_interrupted(e, what);
	}
	if (end == CHILD_TIMED_OUT) {
		*timed_out = 1;
		return tb_fail(e, TB_R_PROGRAM_FAILED,
			       "%s ran longer than its time limit of %d s a run and was stopped with "
			       "everything it started; set %s=SECONDS to allow more",
			       jobs[job].what, limit, jobs[job].env);
	}
	return TB_OK;
}
