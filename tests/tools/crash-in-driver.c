/* A program that faults inside the Vulkan driver the loaders' variables select: it opens the
 * library named by the ICD file in $VK_DRIVER_FILES (as `tb323fu-mesa run` sets it) and calls
 * the driver's vkCreateInstance with no create info, which the driver reads at once. Used to
 * record real crash evidence (tests/fixtures/crashes/record) and by tests/integration/crashes*.sh. */
#include <dlfcn.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef void *(*gipa_fn)(void *instance, const char *name);
typedef int (*create_fn)(const void *info, const void *alloc, void **instance);

int main(void)
{
	const char *icd = getenv("VK_DRIVER_FILES");
	json_object *j = icd ? json_object_from_file(icd) : NULL, *drv, *lib;
	if (!j || !json_object_object_get_ex(j, "ICD", &drv) ||
	    !json_object_object_get_ex(drv, "library_path", &lib)) {
		fprintf(stderr, "crash-in-driver: no ICD file in VK_DRIVER_FILES\n");
		return 2;
	}
	void *h = dlopen(json_object_get_string(lib), RTLD_NOW);
	gipa_fn gipa = h ? (gipa_fn)dlsym(h, "vk_icdGetInstanceProcAddr") : NULL;
	create_fn create = gipa ? (create_fn)gipa(NULL, "vkCreateInstance") : NULL;
	if (!create) {
		fprintf(stderr, "crash-in-driver: %s\n", h ? "no vkCreateInstance" : dlerror());
		return 2;
	}
	void *instance = NULL;
	printf("crash-in-driver: calling the driver (pid %d)\n", (int)getpid());
	fflush(stdout);
	create(NULL, NULL, &instance);
	return 0;
}
