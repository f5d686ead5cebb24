/* A Vulkan layer that breaks one synchronization entry point, vkGetEventStatus (a set event
 * reads as reset, a reset one as set), for the devices of one driver only: the one whose
 * library path contains $VK_BREAK_IN (a release's tree in the store). Every other driver, the
 * distribution's included, gets the real call. Enabled around dEQP-VK by a wrapper script (as
 * tests/doubles/cl-break-map.c is around OpenCL-CTS), it stands for a release whose driver
 * fails the synchronization cases that read events from the host; the smoke tests use no
 * event and pass. Layer manifest: tests/doubles/vk-break-event.json. The driver is told by the
 * loader's own choice: a layer sees the loader's functions, not the driver's, so it reads the
 * ICD file the process was started with (VK_DRIVER_FILES, which `run --version V` sets). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

/* Each device's next functions: some cases make several devices at once. */
#define DEVICES_MAX 64
static struct {
	VkDevice device;
	PFN_vkGetDeviceProcAddr gdpa;
	PFN_vkGetEventStatus status;
} devices[DEVICES_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static PFN_vkGetInstanceProcAddr next_gipa;
static int break_it;

static int device_slot(VkDevice device)
{
	for (int i = 0; i < DEVICES_MAX; i++)
		if (devices[i].device == device)
			return i;
	return -1;
}

static int driver_is_target(void)
{
	const char *where = getenv("VK_BREAK_IN"), *files = getenv("VK_DRIVER_FILES");
	return where && *where && files && strstr(files, where);
}

static VKAPI_ATTR VkResult VKAPI_CALL wrong_status(VkDevice device, VkEvent event)
{
	pthread_mutex_lock(&lock);
	int k = device_slot(device);
	PFN_vkGetEventStatus next = k >= 0 ? devices[k].status : NULL;
	pthread_mutex_unlock(&lock);
	if (!next)
		return VK_ERROR_DEVICE_LOST;
	VkResult r = next(device, event);
	return r == VK_EVENT_SET ? VK_EVENT_RESET : r == VK_EVENT_RESET ? VK_EVENT_SET : r;
}

static VKAPI_ATTR VkResult VKAPI_CALL create_instance(const VkInstanceCreateInfo *info,
						      const VkAllocationCallbacks *alloc, VkInstance *instance)
{
	VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerInstanceCreateInfo *)link->pNext;
	if (!link)
		return VK_ERROR_INITIALIZATION_FAILED;
	next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
	VkResult r = create(info, alloc, instance);
	if (r == VK_SUCCESS)
		break_it = driver_is_target();
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice gpu, const VkDeviceCreateInfo *info,
						    const VkAllocationCallbacks *alloc, VkDevice *device)
{
	VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerDeviceCreateInfo *)link->pNext;
	if (!link)
		return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice");
	VkResult r = create(gpu, info, alloc, device);
	if (r != VK_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	int k = device_slot(*device);
	if (k < 0)
		k = device_slot(VK_NULL_HANDLE);
	if (k >= 0) {
		devices[k].device = *device;
		devices[k].gdpa = gdpa;
		devices[k].status = (PFN_vkGetEventStatus)gdpa(*device, "vkGetEventStatus");
	}
	pthread_mutex_unlock(&lock);
	return k >= 0 ? VK_SUCCESS : VK_ERROR_TOO_MANY_OBJECTS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_device(VkDevice device, const VkAllocationCallbacks *alloc)
{
	pthread_mutex_lock(&lock);
	int k = device_slot(device);
	PFN_vkGetDeviceProcAddr gdpa = k >= 0 ? devices[k].gdpa : NULL;
	pthread_mutex_unlock(&lock);
	PFN_vkDestroyDevice destroy = gdpa ? (PFN_vkDestroyDevice)gdpa(device, "vkDestroyDevice") : NULL;
	if (destroy)
		destroy(device, alloc);
	pthread_mutex_lock(&lock);
	if (k >= 0 && devices[k].device == device)
		devices[k].device = VK_NULL_HANDLE;
	pthread_mutex_unlock(&lock);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL break_event_GetDeviceProcAddr(VkDevice device, const char *name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL break_event_GetDeviceProcAddr(VkDevice device, const char *name)
{
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)break_event_GetDeviceProcAddr;
	if (!strcmp(name, "vkDestroyDevice"))
		return (PFN_vkVoidFunction)destroy_device;
	if (break_it && !strcmp(name, "vkGetEventStatus"))
		return (PFN_vkVoidFunction)wrong_status;
	pthread_mutex_lock(&lock);
	int k = device_slot(device);
	PFN_vkGetDeviceProcAddr next = k >= 0 ? devices[k].gdpa : NULL;
	pthread_mutex_unlock(&lock);
	return next ? next(device, name) : NULL;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL break_event_GetInstanceProcAddr(VkInstance instance, const char *name)
{
	if (!strcmp(name, "vkCreateInstance"))
		return (PFN_vkVoidFunction)create_instance;
	if (!strcmp(name, "vkCreateDevice"))
		return (PFN_vkVoidFunction)create_device;
	if (!strcmp(name, "vkGetInstanceProcAddr"))
		return (PFN_vkVoidFunction)break_event_GetInstanceProcAddr;
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)break_event_GetDeviceProcAddr;
	if (!strcmp(name, "vkDestroyDevice"))
		return (PFN_vkVoidFunction)destroy_device;
	if (break_it && !strcmp(name, "vkGetEventStatus"))
		return (PFN_vkVoidFunction)wrong_status;
	return next_gipa ? next_gipa(instance, name) : NULL;
}
