/* tb323fu-mesa-smoke: the pieces of the smoke-test program (docs/design.md §7). */
#ifndef TB_SMOKE_H
#define TB_SMOKE_H

#include <stdint.h>
#include <stdio.h>

#include "smoke/smoke_result.h"

/* Every compute test covers this many 32-bit elements (docs/design.md §7: at least 1 Mi). */
#define SMOKE_ELEMENTS (1u << 20)
/* How long one wait on the device may take before the test gives up. */
#define SMOKE_WAIT_SECONDS 20

/* The values the GPU must produce, shared by the shader (smoke.comp), the OpenCL kernel and
 * the host checks. */
static inline uint32_t smoke_pattern(uint32_t i)
{
	return i * 2654435761u + 2654435769u;
}
static inline uint32_t smoke_transform(uint32_t value, uint32_t i)
{
	return value * 3u + (i ^ 1540483477u);
}

/* What the release promises; NULL / -1 when the caller did not say. */
struct smoke_options {
	const char *version;
	const char *vulkan_lib;
	int vulkan_driver_id;
	const char *opencl_lib;
	int no_vulkan, no_opencl;
	/* GL (docs/design.md §7): the release's EGL vendor library and GL's folder, NULL when
	 * it has no GL; the launcher and store that run gl.zink under `run --gl zink`, NULL when
	 * it has no Zink; zink_child: this process is that run. */
	const char *egl_lib, *gl_dir;
	const char *zink_launcher, *zink_store;
	int zink_child;
};

struct smoke_vk;
struct smoke_cl;

/* State shared by the tests of one run: a later test reuses what an earlier one set up. */
struct smoke_ctx {
	const struct smoke_options *opt;
	struct smoke_vk *vk; /* set by vk.loader */
	struct smoke_cl *cl; /* set by cl.platform */
};

void smoke_vk_loader(struct smoke_ctx *c, struct smoke_result *r);
void smoke_vk_driver(struct smoke_ctx *c, struct smoke_result *r);
void smoke_vk_compute(struct smoke_ctx *c, struct smoke_result *r);
void smoke_vk_sync(struct smoke_ctx *c, struct smoke_result *r);
void smoke_vk_destroy(struct smoke_ctx *c);

void smoke_gl_draw(struct smoke_ctx *c, struct smoke_result *r);
void smoke_gl_zink(struct smoke_ctx *c, struct smoke_result *r);
/* --zink-child: gl.zink's draw in this process (started by smoke_gl_zink under the launcher's
 * Zink), its result as one line on out ("pass DETAIL" or "fail DETAIL"); the exit status. */
int smoke_gl_zink_child(const struct smoke_options *opt, FILE *out);

void smoke_cl_platform(struct smoke_ctx *c, struct smoke_result *r);
void smoke_cl_kernel(struct smoke_ctx *c, struct smoke_result *r);
void smoke_cl_destroy(struct smoke_ctx *c);

#endif
