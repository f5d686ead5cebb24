/* The smoke tests by name (see smoketests.h). */
#include "common/smoketests.h"

#include <string.h>

const char *const smoke_test_names[SMOKE_TEST_COUNT] = {
	[SMOKE_VK_LOADER] = "vk.loader",	 [SMOKE_VK_DRIVER] = "vk.driver",
	[SMOKE_VK_COMPUTE] = "vk.compute",	 [SMOKE_VK_SYNC] = "vk.sync",
	[SMOKE_CL_PLATFORM] = "cl.platform", [SMOKE_CL_KERNEL] = "cl.kernel",
	[SMOKE_GL_DRAW] = "gl.draw",		 [SMOKE_GL_ZINK] = "gl.zink",
};

int smoke_test_find(const char *name, size_t len)
{
	for (int i = 0; i < SMOKE_TEST_COUNT; i++)
		if (strlen(smoke_test_names[i]) == len && !strncmp(smoke_test_names[i], name, len))
			return i;
	return -1;
}
