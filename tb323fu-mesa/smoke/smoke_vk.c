/* The Vulkan smoke tests: vk.loader, vk.driver, vk.compute, vk.sync (docs/design.md §7). */
#include "smoke/smoke.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "smoke_spirv.h"
#include "smoke/smoke_maps.h"

#define WAIT_NS ((uint64_t)SMOKE_WAIT_SECONDS * 1000000000ull)
#define LOCAL_SIZE 64 /* local_size_x of smoke.comp */

struct vk_buffer {
	VkBuffer buffer;
	VkDeviceMemory memory;
	uint32_t *map;
};

struct smoke_vk {
	VkInstance instance;
	VkPhysicalDevice phys;
	VkPhysicalDeviceProperties props;
	int driver_id; /* -1 when the device does not say */
	char driver_name[VK_MAX_DRIVER_NAME_SIZE];
	int has_driver_props;

	/* Set up on first use by vk.compute or vk.sync. */
	int device_tried;
	char device_error[400];
	VkDevice device;
	VkQueue queue;
	uint32_t family;
	uint32_t memory_type;
	int coherent;
	VkShaderModule module;
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool pool;
	VkDescriptorSet set;
	VkCommandPool command_pool;
	struct vk_buffer first, second;
	PFN_vkWaitSemaphores wait_semaphores;
	PFN_vkSignalSemaphore signal_semaphore;
	PFN_vkGetSemaphoreCounterValue counter_value;
};

struct push {
	uint32_t mode, count;
};

static const char *vk_strerror(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_NOT_READY: return "VK_NOT_READY";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
	case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
	case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
	case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
	case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
	default: return "a Vulkan error";
	}
}

static void fail_vk(struct smoke_result *r, const char *what, VkResult res)
{
	smoke_set(r, SMOKE_FAIL, "%s failed: %s (%d)", what, vk_strerror(res), (int)res);
}

static int api_major(uint32_t v) { return (int)VK_API_VERSION_MAJOR(v); }
static int api_minor(uint32_t v) { return (int)VK_API_VERSION_MINOR(v); }
static int api_patch(uint32_t v) { return (int)VK_API_VERSION_PATCH(v); }

static int device_has_extension(VkPhysicalDevice phys, const char *name)
{
	uint32_t n = 0;
	if (vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) != VK_SUCCESS || n == 0)
		return 0;
	VkExtensionProperties *ext = calloc(n, sizeof *ext);
	int found = 0;
	if (ext && vkEnumerateDeviceExtensionProperties(phys, NULL, &n, ext) == VK_SUCCESS)
		for (uint32_t i = 0; i < n; i++)
			found |= strcmp(ext[i].extensionName, name) == 0;
	free(ext);
	return found;
}

static int compute_family(VkPhysicalDevice phys, uint32_t *family)
{
	uint32_t n = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
	VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
	if (!q)
		return 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
	int found = 0;
	for (uint32_t i = 0; i < n && !found; i++)
		if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
			*family = i;
			found = 1;
		}
	free(q);
	return found;
}

/* driverID and driverName (Vulkan 1.2, or VK_KHR_driver_properties). */
static void read_driver_properties(struct smoke_vk *vk, uint32_t instance_api)
{
	vk->driver_id = -1;
	if (instance_api < VK_API_VERSION_1_1)
		return;
	if (vk->props.apiVersion < VK_API_VERSION_1_2 &&
	    !device_has_extension(vk->phys, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME))
		return;
	VkPhysicalDeviceDriverProperties driver = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 props2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &driver,
	};
	vkGetPhysicalDeviceProperties2(vk->phys, &props2);
	vk->driver_id = (int)driver.driverID;
	snprintf(vk->driver_name, sizeof vk->driver_name, "%s", driver.driverName);
	vk->has_driver_props = 1;
}

void smoke_vk_loader(struct smoke_ctx *c, struct smoke_result *r)
{
	uint32_t loader_api = VK_API_VERSION_1_0;
	/* vkEnumerateInstanceVersion exists from loader 1.1 on. */
	PFN_vkEnumerateInstanceVersion enum_version =
		(PFN_vkEnumerateInstanceVersion)vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion");
	if (enum_version && enum_version(&loader_api) != VK_SUCCESS)
		loader_api = VK_API_VERSION_1_0;
	uint32_t api = loader_api >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : loader_api;

	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "tb323fu-mesa-smoke",
		.apiVersion = api,
	};
	VkInstanceCreateInfo info = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkInstance instance;
	VkResult res = vkCreateInstance(&info, NULL, &instance);
	if (res != VK_SUCCESS) {
		smoke_set(r, SMOKE_FAIL,
			  "the Vulkan loader %d.%d.%d could not create an instance: %s (%d); the "
			  "driver did not load or offers no device",
			  api_major(loader_api), api_minor(loader_api), api_patch(loader_api),
			  vk_strerror(res), (int)res);
		return;
	}
	uint32_t n = 0;
	res = vkEnumeratePhysicalDevices(instance, &n, NULL);
	if (res != VK_SUCCESS || n == 0) {
		if (res != VK_SUCCESS)
			fail_vk(r, "vkEnumeratePhysicalDevices", res);
		else
			smoke_set(r, SMOKE_FAIL, "the Vulkan loader %d.%d.%d found no device",
				  api_major(loader_api), api_minor(loader_api), api_patch(loader_api));
		vkDestroyInstance(instance, NULL);
		return;
	}
	VkPhysicalDevice *devs = calloc(n, sizeof *devs);
	if (!devs)
		abort();
	vkEnumeratePhysicalDevices(instance, &n, devs);

	struct smoke_vk *vk = calloc(1, sizeof *vk);
	if (!vk)
		abort();
	vk->instance = instance;
	/* Prefer a device with a compute queue whose driver is the one the release names. */
	int best = -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t family;
		if (!compute_family(devs[i], &family))
			continue;
		vk->phys = devs[i];
		vkGetPhysicalDeviceProperties(devs[i], &vk->props);
		read_driver_properties(vk, api);
		if (best < 0)
			best = (int)i;
		if (c->opt->vulkan_driver_id >= 0 && vk->driver_id == c->opt->vulkan_driver_id) {
			best = (int)i;
			break;
		}
	}
	if (best < 0) {
		smoke_set(r, SMOKE_FAIL, "none of the %u Vulkan devices has a compute queue", n);
		vkDestroyInstance(instance, NULL);
		free(vk);
		free(devs);
		return;
	}
	vk->phys = devs[best];
	vkGetPhysicalDeviceProperties(vk->phys, &vk->props);
	read_driver_properties(vk, api);
	free(devs);
	c->vk = vk;
	smoke_set(r, SMOKE_PASS, "loader %d.%d.%d, %u device%s; using %s (Vulkan %d.%d.%d)",
		  api_major(loader_api), api_minor(loader_api), api_patch(loader_api), n,
		  n == 1 ? "" : "s", vk->props.deviceName, api_major(vk->props.apiVersion),
		  api_minor(vk->props.apiVersion), api_patch(vk->props.apiVersion));
}

static int need_instance(struct smoke_ctx *c, struct smoke_result *r)
{
	if (c->vk)
		return 1;
	smoke_set(r, SMOKE_SKIP, "not run: vk.loader failed");
	return 0;
}

void smoke_vk_driver(struct smoke_ctx *c, struct smoke_result *r)
{
	if (!need_instance(c, r))
		return;
	struct smoke_vk *vk = c->vk;
	struct smoke_libs libs;
	smoke_mapped_drivers("vk_icdGetInstanceProcAddr", &libs);
	if (smoke_check_drivers("Vulkan", &libs, c->opt->vulkan_lib, r) < 0) {
		smoke_libs_free(&libs);
		return;
	}
	int want = c->opt->vulkan_driver_id;
	if (want >= 0 && !vk->has_driver_props) {
		smoke_set(r, SMOKE_FAIL, "the device does not report its driverID (expected %d)", want);
	} else if (want >= 0 && vk->driver_id != want) {
		smoke_set(r, SMOKE_FAIL,
			  "driverID is %d (%s), the release expects %d; %s is not the driver it claims",
			  vk->driver_id, vk->driver_name, want, libs.paths[0]);
	} else if (vk->has_driver_props) {
		smoke_set(r, SMOKE_PASS, "%s, driverID %d (%s)", libs.paths[0], vk->driver_id,
			  vk->driver_name);
	} else {
		smoke_set(r, SMOKE_PASS, "%s", libs.paths[0]);
	}
	smoke_libs_free(&libs);
}

static int find_memory_type(struct smoke_vk *vk, uint32_t type_bits)
{
	VkPhysicalDeviceMemoryProperties mem;
	vkGetPhysicalDeviceMemoryProperties(vk->phys, &mem);
	const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
	int fallback = -1;
	for (uint32_t i = 0; i < mem.memoryTypeCount; i++) {
		if (!(type_bits & (1u << i)) || (mem.memoryTypes[i].propertyFlags & want) != want)
			continue;
		if (mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) {
			vk->coherent = 1;
			return (int)i;
		}
		if (fallback < 0)
			fallback = (int)i;
	}
	vk->coherent = 0;
	return fallback;
}

static VkResult make_buffer(struct smoke_vk *vk, struct vk_buffer *b, VkDeviceSize size)
{
	VkBufferCreateInfo info = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkResult res = vkCreateBuffer(vk->device, &info, NULL, &b->buffer);
	if (res != VK_SUCCESS)
		return res;
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(vk->device, b->buffer, &req);
	int type = find_memory_type(vk, req.memoryTypeBits);
	if (type < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	VkMemoryAllocateInfo alloc = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)type,
	};
	res = vkAllocateMemory(vk->device, &alloc, NULL, &b->memory);
	if (res != VK_SUCCESS)
		return res;
	res = vkBindBufferMemory(vk->device, b->buffer, b->memory, 0);
	if (res != VK_SUCCESS)
		return res;
	void *map = NULL;
	res = vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0, &map);
	b->map = map;
	return res;
}

/* Makes host writes visible to the device (no-op on coherent memory). */
static void flush(struct smoke_vk *vk, struct vk_buffer *b)
{
	if (vk->coherent)
		return;
	VkMappedMemoryRange range = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = b->memory, .size = VK_WHOLE_SIZE,
	};
	vkFlushMappedMemoryRanges(vk->device, 1, &range);
}

static void invalidate(struct smoke_vk *vk, struct vk_buffer *b)
{
	if (vk->coherent)
		return;
	VkMappedMemoryRange range = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = b->memory, .size = VK_WHOLE_SIZE,
	};
	vkInvalidateMappedMemoryRanges(vk->device, 1, &range);
}

#define TRY(call, what)                                                             \
	do {                                                                        \
		VkResult res_ = (call);                                             \
		if (res_ != VK_SUCCESS) {                                           \
			snprintf(vk->device_error, sizeof vk->device_error,         \
				 "%s failed: %s (%d)", what, vk_strerror(res_), (int)res_); \
			return 0;                                                   \
		}                                                                   \
	} while (0)

/* The device, the pipeline of smoke.comp and two buffers of SMOKE_ELEMENTS each. */
static int setup_device(struct smoke_vk *vk)
{
	if (!compute_family(vk->phys, &vk->family)) {
		snprintf(vk->device_error, sizeof vk->device_error, "the device has no compute queue");
		return 0;
	}
	float priority = 1.0f;
	VkDeviceQueueCreateInfo queue = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = vk->family,
		.queueCount = 1,
		.pQueuePriorities = &priority,
	};
	/* Timeline semaphores are a required feature of Vulkan 1.2 (vk.sync). */
	VkPhysicalDeviceVulkan12Features v12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.timelineSemaphore = VK_TRUE,
	};
	VkDeviceCreateInfo info = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = vk->props.apiVersion >= VK_API_VERSION_1_2 ? &v12 : NULL,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &queue,
	};
	TRY(vkCreateDevice(vk->phys, &info, NULL, &vk->device), "vkCreateDevice");
	vkGetDeviceQueue(vk->device, vk->family, 0, &vk->queue);
	if (vk->props.apiVersion >= VK_API_VERSION_1_2) {
		vk->wait_semaphores =
			(PFN_vkWaitSemaphores)vkGetDeviceProcAddr(vk->device, "vkWaitSemaphores");
		vk->signal_semaphore =
			(PFN_vkSignalSemaphore)vkGetDeviceProcAddr(vk->device, "vkSignalSemaphore");
		vk->counter_value = (PFN_vkGetSemaphoreCounterValue)vkGetDeviceProcAddr(
			vk->device, "vkGetSemaphoreCounterValue");
	}

	VkShaderModuleCreateInfo shader = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = sizeof smoke_spirv,
		.pCode = smoke_spirv,
	};
	TRY(vkCreateShaderModule(vk->device, &shader, NULL, &vk->module), "vkCreateShaderModule");
	VkDescriptorSetLayoutBinding bindings[2] = {
		{.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		 .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
		{.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		 .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
	};
	VkDescriptorSetLayoutCreateInfo set_info = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 2,
		.pBindings = bindings,
	};
	TRY(vkCreateDescriptorSetLayout(vk->device, &set_info, NULL, &vk->set_layout),
	    "vkCreateDescriptorSetLayout");
	VkPushConstantRange push = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = sizeof(struct push),
	};
	VkPipelineLayoutCreateInfo layout = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &vk->set_layout,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &push,
	};
	TRY(vkCreatePipelineLayout(vk->device, &layout, NULL, &vk->layout), "vkCreatePipelineLayout");
	VkComputePipelineCreateInfo pipe = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = vk->module,
			.pName = "main",
		},
		.layout = vk->layout,
	};
	TRY(vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &pipe, NULL, &vk->pipeline),
	    "vkCreateComputePipelines");

	VkDeviceSize size = (VkDeviceSize)SMOKE_ELEMENTS * sizeof(uint32_t);
	TRY(make_buffer(vk, &vk->first, size), "creating a host-visible storage buffer");
	TRY(make_buffer(vk, &vk->second, size), "creating a host-visible storage buffer");

	VkDescriptorPoolSize pool_size = {
		.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2,
	};
	VkDescriptorPoolCreateInfo pool = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &pool_size,
	};
	TRY(vkCreateDescriptorPool(vk->device, &pool, NULL, &vk->pool), "vkCreateDescriptorPool");
	VkDescriptorSetAllocateInfo alloc = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = vk->pool,
		.descriptorSetCount = 1,
		.pSetLayouts = &vk->set_layout,
	};
	TRY(vkAllocateDescriptorSets(vk->device, &alloc, &vk->set), "vkAllocateDescriptorSets");
	VkDescriptorBufferInfo buffers[2] = {
		{.buffer = vk->first.buffer, .range = VK_WHOLE_SIZE},
		{.buffer = vk->second.buffer, .range = VK_WHOLE_SIZE},
	};
	VkWriteDescriptorSet writes[2];
	for (int i = 0; i < 2; i++)
		writes[i] = (VkWriteDescriptorSet){
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = vk->set,
			.dstBinding = (uint32_t)i,
			.descriptorCount = 1,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.pBufferInfo = &buffers[i],
		};
	vkUpdateDescriptorSets(vk->device, 2, writes, 0, NULL);

	VkCommandPoolCreateInfo cmd_pool = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = vk->family,
	};
	TRY(vkCreateCommandPool(vk->device, &cmd_pool, NULL, &vk->command_pool),
	    "vkCreateCommandPool");
	return 1;
}

static int need_device(struct smoke_ctx *c, struct smoke_result *r)
{
	if (!need_instance(c, r))
		return 0;
	struct smoke_vk *vk = c->vk;
	if (!vk->device_tried) {
		vk->device_tried = 1;
		if (!setup_device(vk) && !vk->device_error[0])
			snprintf(vk->device_error, sizeof vk->device_error, "device setup failed");
	}
	if (vk->device_error[0]) {
		smoke_set(r, SMOKE_FAIL, "%s", vk->device_error);
		return 0;
	}
	return 1;
}

static void dispatch(struct smoke_vk *vk, VkCommandBuffer cmd, uint32_t mode)
{
	struct push p = {.mode = mode, .count = SMOKE_ELEMENTS};
	vkCmdPushConstants(cmd, vk->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof p, &p);
	vkCmdDispatch(cmd, (SMOKE_ELEMENTS + LOCAL_SIZE - 1) / LOCAL_SIZE, 1, 1);
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
	VkMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = dst_access,
	};
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage, 0, 1, &b, 0, NULL,
			     0, NULL);
}

static VkResult begin(struct smoke_vk *vk, VkCommandBuffer *cmd)
{
	VkCommandBufferAllocateInfo alloc = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = vk->command_pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkResult res = vkAllocateCommandBuffers(vk->device, &alloc, cmd);
	if (res != VK_SUCCESS)
		return res;
	VkCommandBufferBeginInfo info = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	res = vkBeginCommandBuffer(*cmd, &info);
	if (res != VK_SUCCESS)
		return res;
	vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk->pipeline);
	vkCmdBindDescriptorSets(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk->layout, 0, 1, &vk->set, 0,
				NULL);
	return VK_SUCCESS;
}

/* Checks every element of second against the transform of source(i); 0 when all match. */
static int check_second(struct smoke_vk *vk, const char *what, int from_pattern,
			struct smoke_result *r)
{
	invalidate(vk, &vk->second);
	uint32_t bad = 0, first_bad = 0, got = 0, want_value = 0;
	for (uint32_t i = 0; i < SMOKE_ELEMENTS; i++) {
		uint32_t in = from_pattern ? smoke_pattern(i) : vk->first.map[i];
		uint32_t want = smoke_transform(in, i);
		if (vk->second.map[i] != want) {
			if (!bad++) {
				first_bad = i;
				got = vk->second.map[i];
				want_value = want;
			}
		}
	}
	if (!bad)
		return 0;
	smoke_set(r, SMOKE_FAIL, "%s: %u of %u values wrong, first at %u: 0x%08x, expected 0x%08x",
		  what, bad, SMOKE_ELEMENTS, first_bad, got, want_value);
	return -1;
}

/* Ends the recording and makes the fence its submission signals; the result is set on failure. */
static int end_with_fence(struct smoke_vk *vk, VkCommandBuffer cmd, VkFence *fence,
			  struct smoke_result *r)
{
	VkResult res = vkEndCommandBuffer(cmd);
	if (res != VK_SUCCESS) {
		fail_vk(r, "vkEndCommandBuffer", res);
		return -1;
	}
	VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	if ((res = vkCreateFence(vk->device, &fence_info, NULL, fence)) != VK_SUCCESS) {
		fail_vk(r, "vkCreateFence", res);
		return -1;
	}
	return 0;
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void smoke_vk_compute(struct smoke_ctx *c, struct smoke_result *r)
{
	if (!need_device(c, r))
		return;
	struct smoke_vk *vk = c->vk;
	/* Input the shader cannot guess: a xorshift sequence. */
	uint32_t x = 2463534242u;
	for (uint32_t i = 0; i < SMOKE_ELEMENTS; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		vk->first.map[i] = x;
	}
	memset(vk->second.map, 0, (size_t)SMOKE_ELEMENTS * sizeof(uint32_t));
	flush(vk, &vk->first);
	flush(vk, &vk->second);

	VkCommandBuffer cmd = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkResult res = begin(vk, &cmd);
	if (res != VK_SUCCESS) {
		fail_vk(r, "recording a command buffer", res);
		goto out;
	}
	dispatch(vk, cmd, 0);
	barrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	if (end_with_fence(vk, cmd, &fence, r) != 0)
		goto out;
	VkSubmitInfo submit = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	double t0 = seconds_now();
	if ((res = vkQueueSubmit(vk->queue, 1, &submit, fence)) != VK_SUCCESS) {
		fail_vk(r, "vkQueueSubmit", res);
		goto out;
	}
	res = vkWaitForFences(vk->device, 1, &fence, VK_TRUE, WAIT_NS);
	double took = seconds_now() - t0;
	if (res == VK_TIMEOUT) {
		smoke_set(r, SMOKE_FAIL, "the dispatch did not finish within %d s", SMOKE_WAIT_SECONDS);
		goto out;
	}
	if (res != VK_SUCCESS) {
		fail_vk(r, "vkWaitForFences", res);
		goto out;
	}
	/* Throughput from submit to fence: every element read once and written once, so
	 * `bench` has a Vulkan figure of its own (docs/design.md §10). */
	double gbps = took > 0 ? 2.0 * SMOKE_ELEMENTS * sizeof(uint32_t) / took / 1e9 : 0;
	if (check_second(vk, "compute dispatch", 0, r) == 0)
		smoke_set(r, SMOKE_PASS, "%u elements computed by %u workgroups, all correct; %.3g GB/s",
			  SMOKE_ELEMENTS, SMOKE_ELEMENTS / LOCAL_SIZE, gbps);
out:
	if (fence)
		vkDestroyFence(vk->device, fence, NULL);
	if (cmd)
		vkFreeCommandBuffers(vk->device, vk->command_pool, 1, &cmd);
}

void smoke_vk_sync(struct smoke_ctx *c, struct smoke_result *r)
{
	if (!need_device(c, r))
		return;
	struct smoke_vk *vk = c->vk;
	if (!vk->wait_semaphores || !vk->signal_semaphore || !vk->counter_value) {
		smoke_set(r, SMOKE_FAIL, "the device offers Vulkan %d.%d; timeline semaphores need 1.2",
			  api_major(vk->props.apiVersion), api_minor(vk->props.apiVersion));
		return;
	}
	/* Values the first dispatch must overwrite, and none in the result yet. */
	memset(vk->first.map, 0xa5, (size_t)SMOKE_ELEMENTS * sizeof(uint32_t));
	memset(vk->second.map, 0, (size_t)SMOKE_ELEMENTS * sizeof(uint32_t));
	flush(vk, &vk->first);
	flush(vk, &vk->second);

	VkCommandBuffer cmd = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkSemaphore timeline = VK_NULL_HANDLE;
	VkResult res = begin(vk, &cmd);
	if (res != VK_SUCCESS) {
		fail_vk(r, "recording a command buffer", res);
		goto out;
	}
	dispatch(vk, cmd, 1);
	barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
	dispatch(vk, cmd, 0);
	barrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	if (end_with_fence(vk, cmd, &fence, r) != 0)
		goto out;
	VkSemaphoreTypeCreateInfo type = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = 0,
	};
	VkSemaphoreCreateInfo sem_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
	if ((res = vkCreateSemaphore(vk->device, &sem_info, NULL, &timeline)) != VK_SUCCESS) {
		fail_vk(r, "creating a timeline semaphore", res);
		goto out;
	}
	/* The work waits for value 1, which only the host signals, and then signals 2: the
	 * host can prove that nothing ran early and that the device reported completion. */
	uint64_t wait_value = 1, signal_value = 2;
	VkTimelineSemaphoreSubmitInfo values = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = 1,
		.pWaitSemaphoreValues = &wait_value,
		.signalSemaphoreValueCount = 1,
		.pSignalSemaphoreValues = &signal_value,
	};
	VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
	VkSubmitInfo submit = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &values,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &timeline,
		.pWaitDstStageMask = &wait_stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
		.signalSemaphoreCount = 1,
		.pSignalSemaphores = &timeline,
	};
	if ((res = vkQueueSubmit(vk->queue, 1, &submit, fence)) != VK_SUCCESS) {
		fail_vk(r, "vkQueueSubmit", res);
		goto out;
	}
	uint64_t value = 99;
	if ((res = vk->counter_value(vk->device, timeline, &value)) != VK_SUCCESS) {
		fail_vk(r, "vkGetSemaphoreCounterValue", res);
		goto out;
	}
	if (value != 0 || vkGetFenceStatus(vk->device, fence) != VK_NOT_READY) {
		smoke_set(r, SMOKE_FAIL, "the submission completed before the semaphore it waits "
			  "for was signalled (counter %llu)", (unsigned long long)value);
		goto out;
	}
	VkSemaphoreSignalInfo signal = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = timeline, .value = 1,
	};
	if ((res = vk->signal_semaphore(vk->device, &signal)) != VK_SUCCESS) {
		fail_vk(r, "vkSignalSemaphore", res);
		goto out;
	}
	VkSemaphoreWaitInfo wait = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = 1,
		.pSemaphores = &timeline,
		.pValues = &signal_value,
	};
	res = vk->wait_semaphores(vk->device, &wait, WAIT_NS);
	if (res == VK_TIMEOUT) {
		smoke_set(r, SMOKE_FAIL, "the timeline semaphore did not reach 2 within %d s",
			  SMOKE_WAIT_SECONDS);
		goto out;
	}
	if (res != VK_SUCCESS) {
		fail_vk(r, "vkWaitSemaphores", res);
		goto out;
	}
	res = vkWaitForFences(vk->device, 1, &fence, VK_TRUE, WAIT_NS);
	if (res != VK_SUCCESS) {
		if (res == VK_TIMEOUT)
			smoke_set(r, SMOKE_FAIL, "the fence was not signalled within %d s although the "
				  "semaphore was", SMOKE_WAIT_SECONDS);
		else
			fail_vk(r, "vkWaitForFences", res);
		goto out;
	}
	if ((res = vk->counter_value(vk->device, timeline, &value)) != VK_SUCCESS) {
		fail_vk(r, "vkGetSemaphoreCounterValue", res);
		goto out;
	}
	if (value != 2) {
		smoke_set(r, SMOKE_FAIL, "the timeline semaphore is at %llu after the work, expected 2",
			  (unsigned long long)value);
		goto out;
	}
	if (check_second(vk, "second dispatch after the barrier", 1, r) == 0)
		smoke_set(r, SMOKE_PASS, "2 dispatches over %u elements ordered by a barrier; fence "
			  "and timeline semaphore waited on", SMOKE_ELEMENTS);
out:
	if (timeline)
		vkDestroySemaphore(vk->device, timeline, NULL);
	if (fence)
		vkDestroyFence(vk->device, fence, NULL);
	if (cmd)
		vkFreeCommandBuffers(vk->device, vk->command_pool, 1, &cmd);
}

void smoke_vk_destroy(struct smoke_ctx *c)
{
	struct smoke_vk *vk = c->vk;
	if (!vk)
		return;
	if (vk->device) {
		vkDeviceWaitIdle(vk->device);
		struct vk_buffer *bufs[2] = {&vk->first, &vk->second};
		for (int i = 0; i < 2; i++) {
			if (bufs[i]->buffer)
				vkDestroyBuffer(vk->device, bufs[i]->buffer, NULL);
			if (bufs[i]->memory)
				vkFreeMemory(vk->device, bufs[i]->memory, NULL);
		}
		if (vk->command_pool)
			vkDestroyCommandPool(vk->device, vk->command_pool, NULL);
		if (vk->pool)
			vkDestroyDescriptorPool(vk->device, vk->pool, NULL);
		if (vk->pipeline)
			vkDestroyPipeline(vk->device, vk->pipeline, NULL);
		if (vk->layout)
			vkDestroyPipelineLayout(vk->device, vk->layout, NULL);
		if (vk->set_layout)
			vkDestroyDescriptorSetLayout(vk->device, vk->set_layout, NULL);
		if (vk->module)
			vkDestroyShaderModule(vk->device, vk->module, NULL);
		vkDestroyDevice(vk->device, NULL);
	}
	vkDestroyInstance(vk->instance, NULL);
	free(vk);
	c->vk = NULL;
}
