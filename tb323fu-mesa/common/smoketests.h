/* The smoke tests by name (docs/design.md §7), in the order the smoke program runs them: the
 * smoke program runs them, the control tool chooses, records and reports them. */
#ifndef TB_SMOKETESTS_H
#define TB_SMOKETESTS_H

#include <stddef.h>

enum smoke_test {
	SMOKE_VK_LOADER,
	SMOKE_VK_DRIVER,
	SMOKE_VK_COMPUTE,
	SMOKE_VK_SYNC,
	SMOKE_CL_PLATFORM,
	SMOKE_CL_KERNEL,
	SMOKE_GL_DRAW,
	SMOKE_GL_ZINK,
	SMOKE_TEST_COUNT
};

/* The list as sentences name it. */
#define SMOKE_TEST_LIST "vk.loader, vk.driver, vk.compute, vk.sync, cl.platform, cl.kernel, gl.draw, gl.zink"

extern const char *const smoke_test_names[SMOKE_TEST_COUNT];

/* The test of that name (len bytes of name), or -1. */
int smoke_test_find(const char *name, size_t len);

#endif
