/* The release MANIFEST (docs/design.md §4) and the version rules. */
#ifndef TB_MANIFEST_H
#define TB_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "common/version_name.h"

#define MANIFEST_MAX_BYTES (1 << 20)
/* Every value of a known key is at most this long: with the store's path (at most PATH_MAX)
 * five times over, the env files a release produces stay far below what the launcher and
 * the session readers take (64 KiB), and sentences stay readable. */
#define MANIFEST_VALUE_MAX 256

struct manifest_file {
	char *path;        /* relative to the tree: lib/…, share/… */
	char sha256[65];
	unsigned mode;     /* 0644 or 0755 */
	uint64_t size;
};

struct manifest_link {
	char *path;
	char *target;      /* relative, resolving inside the tree */
};

/* What a release carries (docs/design.md §4, §13): Mesa's drivers (no kind key, or kind=mesa),
 * or the conformance suites' binaries (kind=cts), which the store keeps apart from versions/. */
enum manifest_kind { MANIFEST_MESA, MANIFEST_CTS };

struct manifest {
	int format;
	enum manifest_kind kind;
	char *version, *arch, *commit, *base, *mesa_version, *min_glibc;
	char *drivers;     /* as written, e.g. "vulkan,opencl" */
	int has_vulkan, has_opencl, has_gl;
	char *vulkan_lib;  /* default lib/libvulkan_freedreno.so */
	char *vulkan_api;  /* default 1.4.0 */
	int vulkan_driver_id; /* -1 when absent */
	char *opencl_lib;  /* default lib/libRusticlOpenCL.so.1 */
	char *rusticl_enable; /* default freedreno */
	char *ld_library_path; /* NULL or "lib" */
	/* GL (drivers names gl; docs/design.md §4): the folder the GL libraries are found in by
	 * their sonames (default lib/gl), the glvnd EGL vendor library, GBM and the DRI drivers
	 * in or under it; the GLX vendor library and the GBM backends when the release has them
	 * (NULL otherwise); the gallium drivers built, the hardware one first (default freedreno). */
	char *gl_lib_dir, *egl_vendor_lib, *glx_vendor_lib, *gbm_lib, *gl_drivers_dir,
		*gbm_backends_dir, *gallium_drivers;
	/* A CTS release: dEQP-VK's binary (its data and caselists/ beside it) and the folder of
	 * OpenCL-CTS's binaries (NAME/test_NAME), each NULL when the release lacks that suite, and
	 * the upstream tags they were built from. */
	char *deqp_vk, *opencl_cts_dir, *vk_gl_cts, *opencl_cts;
	struct manifest_file *files;
	size_t n_files;
	struct manifest_link *links;
	size_t n_links;
};

/* Parses and validates a MANIFEST (every path rule of docs/design.md §4); TB_EVERIFY on bad input. */
int manifest_parse(const char *text, size_t len, struct manifest *m, struct tb_error *e);
void manifest_free(struct manifest *m);
/* Reads <dir>/MANIFEST. */
int manifest_load(const char *dir, struct manifest *m, struct tb_error *e);
const struct manifest_file *manifest_find_file(const struct manifest *m, const char *path);
const struct manifest_link *manifest_find_link(const struct manifest *m, const char *path);
/* 1 when the release's gallium drivers include name ("zink", "llvmpipe"). */
int manifest_has_gallium(const struct manifest *m, const char *name);
/* 1 when the release's GL is software alone (llvmpipe, softpipe, and Zink over them): Zink then
 * runs only when software rendering is asked for. */
int manifest_gl_software(const struct manifest *m);
/* The GLX vendor's name (libGLX_<name>.so.0) into out, "" when the release has none. */
void manifest_glx_vendor(const struct manifest *m, char *out, size_t n);
/* Writes the MANIFEST text of m (files and links in their order). */
char *manifest_format(const struct manifest *m);

/* A release path: components of [A-Za-z0-9._@+-], no . or .., ≤100 bytes a component,
 * ≤255 in all, first component lib or share. */
int release_path_is_safe(const char *path);
/* A link target relative to the link's directory that stays inside the tree. */
int link_target_is_safe(const char *link_path, const char *target);

/* Dot-separated parts, numerically where both parts are digits; <0, 0, >0. */
int version_compare(const char *a, const char *b);

#endif
