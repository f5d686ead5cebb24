/* Which drivers a smoke run really loaded, from the process's own mappings. */
#ifndef TB_SMOKE_MAPS_H
#define TB_SMOKE_MAPS_H

#include "smoke/smoke_result.h"

/* The libraries mapped into this process that define symbol themselves (a Vulkan ICD exports
 * vk_icdGetInstanceProcAddr, an OpenCL ICD clIcdGetPlatformIDsKHR), as real paths. */
struct smoke_libs {
	char **paths;
	int n;
};
void smoke_mapped_drivers(const char *symbol, struct smoke_libs *out);
void smoke_libs_free(struct smoke_libs *l);
/* The libraries mapped into this process whose file name want() takes, as real paths. */
void smoke_mapped_named(int (*want)(const char *name), struct smoke_libs *out);
/* The real path of the library that contains addr, or NULL (free it). */
char *smoke_library_of(const void *addr);
/* Compares the mapped drivers with the expected library (NULL: any single one): 0 when the
 * expected one and no other is mapped, else -1 with the reason in r. */
int smoke_check_drivers(const char *kind, const struct smoke_libs *libs, const char *expected,
			struct smoke_result *r);

#endif
