/* The Vulkan, OpenCL and GL driver libraries a process has mapped, from /proc/PID/maps: the
 * dynamic linker's own answer to "which driver is this program really using". */
#ifndef TB_PROCMAPS_H
#define TB_PROCMAPS_H

#include <stddef.h>

#define PROCMAPS_MAX_DRIVERS 32
#define PROCMAPS_PATH_MAX 4096

enum gpu_api { GPU_API_NONE = 0, GPU_API_VULKAN, GPU_API_OPENCL, GPU_API_GL };

struct mapped_driver {
	enum gpu_api api;
	int deleted; /* the file was removed or replaced after it was mapped */
	unsigned long inode; /* the mapped file's, as the maps line gives it */
	char path[PROCMAPS_PATH_MAX];
};

struct mapped_drivers {
	struct mapped_driver d[PROCMAPS_MAX_DRIVERS];
	size_t count;
	int truncated; /* more drivers than fit */
};

/* Which API's driver a library file name is; loaders (libvulkan.so.1, libOpenCL.so.1, glvnd's
 * libEGL.so.1, libGLX.so.0, libGL.so.1, libGLESv2.so.2, libGLdispatch) and everything else are
 * GPU_API_NONE. GL's are the vendor's: glvnd's EGL and GLX vendor libraries (libEGL_*,
 * libGLX_*), GBM and its backends (*_gbm.so), glapi, libgallium and the DRI drivers
 * (*_dri.so). */
enum gpu_api driver_api_of(const char *path);

/* The path of one maps line ("addr perms offset dev inode   path"), or 0 when the line maps
 * no file (anonymous, [heap], malformed). *path points into line; *len excludes a
 * " (deleted)" suffix, reported in *deleted; *inode is the inode field. */
int procmaps_line_path(const char *line, size_t n, const char **path, size_t *len,
		       int *deleted, unsigned long *inode);

/* Every distinct driver library mapped in the text of a maps file, in order of appearance. */
void procmaps_drivers(const char *text, size_t n, struct mapped_drivers *out);

const char *gpu_api_name(enum gpu_api api); /* "vulkan", "opencl", "gl" */

#endif
