/* Preloaded into a Vulkan program (LD_PRELOAD): every message a layer sends through
 * VK_EXT_debug_utils, one a line in $VK_MESSAGES_FILE as "SEVERITY<tab>ID<tab>TEXT". The
 * validation test counts these rather than reading the layer's log, whose wording changes from
 * one release of the layer to the next. A messenger in the instance's pNext chain hears the
 * messages of vkCreateInstance and vkDestroyInstance, one made after it everything between. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

static FILE *out;
static VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;

static const char *severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT s)
{
	if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
		return "ERROR";
	if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
		return "WARNING";
	if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT)
		return "INFO";
	return "VERBOSE";
}

/* One line a message: tabs and line breaks of the text become spaces. */
static VKAPI_ATTR VkBool32 VKAPI_CALL heard(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
					    VkDebugUtilsMessageTypeFlagsEXT types,
					    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	(void)types, (void)user;
	if (!out)
		return VK_FALSE;
	fprintf(out, "%s\t%s\t", severity_name(severity),
		data->pMessageIdName && *data->pMessageIdName ? data->pMessageIdName : "-");
	for (const char *p = data->pMessage ? data->pMessage : ""; *p; p++)
		fputc(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p, out);
	fputc('\n', out);
	fflush(out);
	return VK_FALSE;
}

static VkDebugUtilsMessengerCreateInfoEXT listener = {
	.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
	.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
			   VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
			   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
	/* the layers' findings; the loader's own notes (GENERAL) are not */
	.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
	.pfnUserCallback = heard,
};

static void *next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "vk-messages: %s not found: is the program linked with libvulkan?\n", name);
		abort();
	}
	return f;
}

VKAPI_ATTR VkResult VKAPI_CALL vkCreateInstance(const VkInstanceCreateInfo *info,
						const VkAllocationCallbacks *alloc, VkInstance *instance)
{
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)next("vkCreateInstance");
	const char *path = getenv("VK_MESSAGES_FILE");
	if (!out && path && !(out = fopen(path, "a"))) {
		fprintf(stderr, "vk-messages: cannot open %s\n", path);
		abort();
	}
	/* The program's own extensions and chain, and ours in front. */
	const char **names = calloc(info->enabledExtensionCount + 1, sizeof *names);
	if (!names)
		abort();
	memcpy(names, info->ppEnabledExtensionNames, info->enabledExtensionCount * sizeof *names);
	names[info->enabledExtensionCount] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	VkInstanceCreateInfo ours = *info;
	ours.enabledExtensionCount = info->enabledExtensionCount + 1;
	ours.ppEnabledExtensionNames = names;
	listener.pNext = info->pNext;
	ours.pNext = &listener;
	VkResult res = create(&ours, alloc, instance);
	free(names);
	if (res != VK_SUCCESS)
		return res;
	PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)next("vkGetInstanceProcAddr");
	PFN_vkCreateDebugUtilsMessengerEXT make =
		(PFN_vkCreateDebugUtilsMessengerEXT)gipa(*instance, "vkCreateDebugUtilsMessengerEXT");
	listener.pNext = NULL;
	if (!make || make(*instance, &listener, NULL, &messenger) != VK_SUCCESS)
		fprintf(stderr, "vk-messages: no messenger: messages after vkCreateInstance are not counted\n");
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkDestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
	PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)next("vkDestroyInstance");
	if (instance && messenger != VK_NULL_HANDLE) {
		PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)next("vkGetInstanceProcAddr");
		PFN_vkDestroyDebugUtilsMessengerEXT unmake =
			(PFN_vkDestroyDebugUtilsMessengerEXT)gipa(instance, "vkDestroyDebugUtilsMessengerEXT");
		if (unmake)
			unmake(instance, messenger, NULL);
		messenger = VK_NULL_HANDLE;
	}
	destroy(instance, alloc);
}
