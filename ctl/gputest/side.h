/* The two sides of a comparison (docs/design.md §10): a version's build from the store, run
 * through `tb323fu-mesa run --version V`, and the distribution's Mesa, run through
 * `tb323fu-mesa distro`. */
#ifndef TB_SIDE_H
#define TB_SIDE_H

#include "gputest/child.h"
#include "gputest/smoke_run.h"
#include "store/store.h"
#include "base/error.h"
#include "common/envvars.h"

enum side { SIDE_STORE, SIDE_DISTRO };

/* "store" or "distribution": the key of a side in results. */
/* The library_path a Vulkan ICD file names (allocated), or NULL when it names none. */
char *vulkan_icd_library(const char *file);

const char *side_name(enum side side);

/* The launcher's command line that runs cmd on one side, the one builder of it:
 * `tb323fu-mesa --store ROOT run --version V cmd…` for the store's,
 * `tb323fu-mesa --store ROOT distro --version V -- cmd…` for the distribution's;
 * NULL-terminated, free with side_free_argv. */
char **side_launch_argv(const struct store *s, const char *version, enum side side,
			char *const cmd[], struct tb_error *e);

/* The variable every side's command gets first, so that the two sides run alike but for the
 * driver: Mesa's on-disk shader cache off. Both sides share it (XDG_CACHE_HOME) and, when their
 * drivers are the same bytes, its keys: the side run second found the first side's programs
 * compiled, and some of OpenCL-CTS's compiler sub-tests pass only then (multiple_build_program,
 * options_include_directory), which made regressions of the harness's. */
#define SIDE_ALIKE_ENV ENV_MESA_SHADER_CACHE_DISABLE "=true"

/* The command line that runs cmd on one side, with SIDE_ALIKE_ENV and the variables in env ("KEY=VALUE", NULL
 * terminated, may be NULL) set for cmd: `tb323fu-mesa run --version V` for the store's,
 * `tb323fu-mesa distro --version V` for the distribution's, which also decides the driver
 * selection (RUSTICL_ENABLE as V selects it; docs/design.md §6). rusticl_enable is not used:
 * the launcher takes the value from V's env file. Free with side_free_argv. */
char **side_argv(const struct store *s, const char *version, enum side side,
		 const char *rusticl_enable, char *const env[], char *const cmd[],
		 struct tb_error *e);

/* The one OpenCL vendor file and the one Vulkan ICD file a side loads for the release's
 * drivers (NULL: the release has no such driver). The store's are its own
 * (icd/versions/<v>/); the distribution's are the system's files naming a library of the same
 * name as the release's opencl_lib and vulkan_lib (libRusticlOpenCL.so.1 in
 * /etc/OpenCL/vendors/rusticl.icd, or $OPENCL_VENDOR_PATH as ocl-icd reads it;
 * libvulkan_lvp.so in the Vulkan loader's icd.d directories), so the distribution's side
 * compares the same driver and sees no other (Clover, PoCL). Fails when the distribution has
 * none, naming the package to install. */
struct side_drivers {
	char *opencl_vendor, *vulkan_icd;
};
struct manifest;
int side_drivers_find(const struct store *s, const struct manifest *m, enum side side,
		      struct side_drivers *d, struct tb_error *e);
void side_drivers_free(struct side_drivers *d);
/* The GL suites' counterpart for the distribution's side (allocated): the system's glvnd EGL
 * vendor file (/etc/glvnd/egl_vendor.d, then /usr/share/glvnd/egl_vendor.d) whose library has
 * the name of the release's egl_vendor_lib (libEGL_mesa.so.0), for
 * __EGL_VENDOR_LIBRARY_FILENAMES, so no other vendor answers. NULL with a failure naming the
 * package (libegl-mesa0) when there is none. */
char *side_distro_egl_vendor(const struct manifest *m, struct tb_error *e);
/* OCL_ICD_VENDORS (ocl-icd, Debian 12 and 13, loads only the library a single .icd file
 * names), VK_DRIVER_FILES and VK_ICD_FILENAMES as "KEY=VALUE" strings for side_argv,
 * NULL-terminated; free with side_free_argv. */
char **side_drivers_env(const struct side_drivers *d);

/* Frees a NULL-terminated argv of allocated strings (side_launch_argv's, side_argv's,
 * side_drivers_env's). */
void side_free_argv(char **argv);

/* Called with each line the command writes to stdout (without the newline). */
typedef void (*side_line_fn)(void *ctx, const char *line);

/* What runs on a side, for its time limit: seconds a run may take before its whole process
 * group is stopped, $TB323FU_MESA_BENCH_TIMEOUT, $TB323FU_MESA_PIGLIT_TIMEOUT or
 * $TB323FU_MESA_BISECT_TIMEOUT, else SIDE_BENCH_SECONDS, SIDE_PIGLIT_SECONDS or
 * SIDE_BISECT_SECONDS (docs/design.md §10, §13). */
enum side_job { SIDE_JOB_BENCH, SIDE_JOB_PIGLIT, SIDE_JOB_BISECT };
#define SIDE_BENCH_SECONDS (30 * 60)
#define SIDE_BISECT_SECONDS (30 * 60)
#define SIDE_PIGLIT_SECONDS (6 * 60 * 60)
int side_time_limit(enum side_job job);
/* The variable that sets job's time limit ("TB323FU_MESA_BISECT_TIMEOUT"), for sentences. */
const char *side_time_limit_variable(enum side_job job);

/* Runs argv in cwd (NULL: here), hands its stdout to line one line at a time, keeps the end
 * of its stderr in tail; *status is the wait status. The child's group is stopped (SIGTERM,
 * then SIGKILL) after job's time limit, which fails (*timed_out says so), or on SIGTERM,
 * SIGINT or SIGHUP to us, which fails with reason interrupted. TB_OK when it ran to its end. */
int side_run(char *const argv[], const char *cwd, enum side_job job, side_line_fn line,
	     void *ctx, int *status, int *timed_out, struct child_tail *tail, struct tb_error *e);

#endif
